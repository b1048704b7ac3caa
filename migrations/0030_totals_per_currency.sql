-- 0030: reconciliation per currency.  ingest.staged_totals also returns
-- the smallest and largest currency of the file from its one scan (one
-- currency: a single control_total means something; several: validation
-- sums per currency).  Its result type changes, so the older form goes;
-- sql/ creates the new one (on a new database the functions of sql/ do
-- not exist yet, hence IF EXISTS).
set local role invoice_owner;

drop function if exists ingest.staged_totals(bigint);
