-- ingest.clear_typed_staging: remove what validation and publication
-- derived of a batch in staging (its typed rows in staging.invoice_valid,
-- its keys' history in staging.key_version), once the batch is published
-- or quarantined, or before it is staged again.  The raw rows
-- (staging.invoice_line) stay: what a clerk needs of a rejection is in
-- ingest.rejection_row, and ingest.restage_lost_batch deletes them itself.
-- When no other batch can have rows there (none is staged or validated:
-- typed rows and key history are committed with those states and cleared
-- when a batch leaves them) and no other transaction uses the two tables
-- (the lock is taken with NOWAIT, so nothing ever waits for it), they are
-- truncated instead of deleted: a DELETE of a million rows takes 0.22 s,
-- dirties every page of them for the server to write out again, and
-- leaves the dead rows to vacuum (at 10M, 2.2 s and 2.7 GB of writes;
-- docs/PERFORMANCE.md).  The exclusive lock is then held to the end of the
-- caller's transaction, the last statements of a publication or
-- quarantine.  Anything else (a concurrent COPY, validation or lock of
-- either table, or another batch's rows) and the rows are deleted, as
-- before.  Rows of batches no state accounts for (an attempt abandoned
-- mid-COPY never commits any) cannot exist.
-- A batch of fewer than 10,000 staged records is always deleted: the
-- TRUNCATE of the two unlogged tables creates and syncs new files and init
-- forks for them and their indexes (3-5 ms, and its commit waits for
-- them, on the benchmark's machine), where a DELETE of a few thousand rows
-- takes a millisecond or two and writes no WAL (docs/PERFORMANCE.md).
-- Idempotent.  Internal (called by the steps, which hold the batch row
-- lock): no EXECUTE grants.
-- Errors: none.
create or replace function ingest.clear_typed_staging(p_batch_id bigint)
returns void
language plpgsql
set search_path = ''
as $$
begin
  if (select coalesce(b.staged_count, 0) from ingest.batch as b where b.batch_id = p_batch_id) >= 10000
     and not exists (select from ingest.batch as b
                     where b.state in ('staged', 'validated') and b.batch_id <> p_batch_id) then
    begin
      lock table staging.invoice_valid, staging.key_version in access exclusive mode nowait;
      -- under the lock no batch can reach staged or validated (that needs
      -- a row of one of the two tables): the check above still holds
      if not exists (select from ingest.batch as b
                     where b.state in ('staged', 'validated') and b.batch_id <> p_batch_id) then
        truncate staging.invoice_valid, staging.key_version;
        return;
      end if;
    exception when lock_not_available then
      null;  -- in use: delete below
    end;
  end if;
  delete from staging.invoice_valid as v where v.batch_id = p_batch_id;
  delete from staging.key_version as h where h.batch_id = p_batch_id;
end;
$$;
comment on function ingest.clear_typed_staging(bigint) is
  E'Delete a batch''s typed rows and key history from staging (truncate them when the batch has 10,000 records or more and no other batch can have any).\nErrors: none.';
revoke all on function ingest.clear_typed_staging(bigint) from public;
