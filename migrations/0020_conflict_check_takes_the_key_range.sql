-- 0020: ingest.reject_revision_conflicts takes the batch's key range from
-- its caller when it has it (validation: ingest.staged_totals, which now
-- also returns it from its parallel scan), instead of reading it in a
-- serial scan of the batch (sql/ingest/reject_revision_conflicts.sql;
-- docs/PERFORMANCE.md).  The older forms go; sql/ creates the
-- new ones (on a new database the functions of sql/ do not exist yet,
-- hence IF EXISTS).
set local role invoice_owner;

drop function if exists ingest.reject_revision_conflicts(bigint, text, boolean);
drop function if exists ingest.staged_totals(bigint);
