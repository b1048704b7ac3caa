-- bench/duplicates/vacuum_staging.sql: the staging tables as autovacuum
-- leaves them after a publication emptied them: vacuumed and analyzed
-- empty (the state validation's plans once went wrong in).
vacuum analyze staging.invoice_valid;
vacuum analyze staging.invoice_line;
