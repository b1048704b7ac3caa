-- 0019: ingest.staged_totals also returns the batch's raw, typed and
-- failing rows from its one scan, and counts distinct invoice numbers
-- through their hashes first (sql/ingest/staged_totals.sql; validation no
-- longer counts the rows twice more, nor scans a batch with no failing
-- record for rejections: docs/PERFORMANCE.md).  Its result type
-- changes, so the older form goes; sql/ creates the new one (on a new
-- database the functions of sql/ do not exist yet, hence IF EXISTS).
set local role invoice_owner;

drop function if exists ingest.staged_totals(bigint);
