-- ingest.history_instant_at_commit: the deferred trigger of
-- ingest.history_instant (migration 0031).  At the commit of the
-- publishing or reverting transaction it sets the row's `at` to the clock
-- then, the closest a transaction can come to the moment its changes
-- become visible without server settings (commit timestamps).  It runs
-- after everything the transaction did, whatever called ingest.publish_batch
-- or ingest.revert_batch.  (Between this reading and the commit becoming
-- visible, the flush of the commit record, a new snapshot may still miss
-- the change: docs/reference/database.md.)  Every row of one transaction
-- gets the same instant, the clock at the first firing (kept in a
-- transaction-local setting): an undo of several publications in one
-- transaction (ingest.revert_to_date) is one instant in history too, never
-- a moment between its reverts.
-- Trigger function (deferred constraint trigger, AFTER INSERT, per row).
-- Errors: none.
create or replace function ingest.history_instant_at_commit()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_at timestamptz := nullif(pg_catalog.current_setting('ingest.history_commit_at', true), '')
                        ::timestamptz;
begin
  if v_at is null then
    v_at := pg_catalog.clock_timestamp();
    perform pg_catalog.set_config('ingest.history_commit_at', v_at::text, true);
  end if;
  update ingest.history_instant as h set at = v_at
   where h.source = new.source and h.stamp = new.stamp;
  return null;
end;
$$;
revoke all on function ingest.history_instant_at_commit() from public;
