-- 0018: the history read is told when the batch's invoice numbers are
-- known to be distinct (validation counted as many as records), and then
-- joins the typed rows without making their keys distinct first
-- (sql/ingest/key_history.sql, sql/ingest/reject_revision_conflicts.sql;
-- docs/PERFORMANCE.md).  The older forms go; sql/ creates
-- the new ones (on a new database the functions of sql/ do not exist yet,
-- hence IF EXISTS).
set local role invoice_owner;

drop function if exists ingest.key_history(bigint, text, text, text);
drop function if exists ingest.reject_revision_conflicts(bigint, text);
