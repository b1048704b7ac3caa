-- bench/duplicates/vacuum_staging.sql: the staging tables as autovacuum
-- leaves them after a publication emptied them: vacuumed and analyzed
-- empty (the state validation's plans went wrong in, issue 14 item 5).
vacuum analyze staging.invoice_valid;
vacuum analyze staging.invoice_line;
