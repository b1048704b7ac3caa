-- ingest.history_instant_at_commit: the deferred trigger of
-- ingest.history_instant (migration 0031).  At the commit of the
-- publishing or reverting transaction it sets the row's `at` to the clock
-- then, the closest a transaction can come to the moment its changes
-- become visible without server settings (commit timestamps).  It runs
-- after everything the transaction did, whatever called ingest.publish_batch
-- or ingest.revert_batch.  (Between this reading and the commit becoming
-- visible, the flush of the commit record, a new snapshot may still miss
-- the change: docs/reference/database.md.)
-- Trigger function (deferred constraint trigger, AFTER INSERT, per row).
-- Errors: none.
create or replace function ingest.history_instant_at_commit()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update ingest.history_instant as h set at = pg_catalog.clock_timestamp()
   where h.source = new.source and h.stamp = new.stamp;
  return null;
end;
$$;
revoke all on function ingest.history_instant_at_commit() from public;
