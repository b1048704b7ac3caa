-- 0016: ingest.key_history takes the batch's smallest and largest invoice
-- number and reads only the versions between them (sql/ingest/
-- key_history.sql; docs/PERFORMANCE.md).  The two-argument
-- form goes; sql/ creates the new one (on a new database the functions of
-- sql/ do not exist yet, hence IF EXISTS).
set local role invoice_owner;

drop function if exists ingest.key_history(bigint, text);
