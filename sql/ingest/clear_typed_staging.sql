-- ingest.clear_typed_staging: remove what validation and publication
-- derived of a batch in staging (its typed rows in staging.invoice_valid,
-- its keys' history in staging.key_version), once the batch is published
-- or quarantined, or before it is staged again.  The raw rows
-- (staging.invoice_line) stay: what a clerk needs of a rejection is in
-- ingest.rejection_row, and ingest.restage_lost_batch deletes them itself.
-- A batch with a partition of its own (ingest.typed_staging: 100,000
-- records or more) has it dropped (ingest.drop_typed_staging), or, while
-- another transaction uses staging.invoice_valid (the drop's locks are
-- taken with NOWAIT), truncated, or, while its partition itself is in use,
-- its rows deleted; ingest.sweep_typed_staging drops it later.
-- The rows in the shared tables (staging.invoice_valid_shared, the DEFAULT
-- partition; staging.key_version): when no other batch can have rows
-- there (none is staged or validated: typed rows and key history are
-- committed with those states and cleared when a batch leaves them) and no
-- other transaction uses the tables (the lock is taken with NOWAIT, so
-- nothing ever waits for it), they are truncated instead of deleted: a
-- DELETE of a million rows takes 0.22 s, dirties every page of them for
-- the server to write out again, and leaves the dead rows to vacuum (at
-- 10M, 2.2 s and 2.7 GB of writes; docs/PERFORMANCE.md).  The exclusive
-- locks are then held to the end of the caller's transaction, the last
-- statements of a publication or quarantine.  Anything else (a concurrent
-- COPY, validation or lock of the tables, or another batch's rows) and the
-- rows are deleted, as before.  Rows of batches no state accounts for (an
-- attempt abandoned mid-COPY never commits any) cannot exist.
-- A batch of fewer than 10,000 staged records is always deleted: the
-- TRUNCATE of unlogged tables creates and syncs new files and init forks
-- for them and their indexes (3-5 ms, and its commit waits for them, on
-- the benchmark's machine), where a DELETE of a few thousand rows takes a
-- millisecond or two and writes no WAL (docs/PERFORMANCE.md).
-- Idempotent.  Internal (called by the steps, which hold the batch row
-- lock): no EXECUTE grants.
-- Errors: none.
create or replace function ingest.clear_typed_staging(p_batch_id bigint)
returns void
language plpgsql
set search_path = ''
as $$
declare
  v_partition pg_catalog.regclass := ingest.typed_staging_partition(p_batch_id);
begin
  if v_partition is not null and not ingest.drop_typed_staging(v_partition) then
    begin
      execute pg_catalog.format('lock table %s in access exclusive mode nowait', v_partition);
      execute pg_catalog.format('truncate %s', v_partition);
    exception when lock_not_available then
      execute pg_catalog.format('delete from %s', v_partition);
    end;
  end if;
  if (select coalesce(b.staged_count, 0) from ingest.batch as b where b.batch_id = p_batch_id) >= 10000
     and not exists (select from ingest.batch as b
                     where b.state in ('staged', 'validated') and b.batch_id <> p_batch_id) then
    begin
      if v_partition is null then
        lock table staging.invoice_valid_shared, staging.key_version in access exclusive mode nowait;
      else
        lock table staging.key_version in access exclusive mode nowait;
      end if;
      -- under the lock no batch can reach staged or validated (that needs
      -- a row of one of the tables): the check above still holds
      if not exists (select from ingest.batch as b
                     where b.state in ('staged', 'validated') and b.batch_id <> p_batch_id) then
        if v_partition is null then
          truncate staging.invoice_valid_shared, staging.key_version;
        else
          truncate staging.key_version;
        end if;
        return;
      end if;
    exception when lock_not_available then
      null;  -- in use: delete below
    end;
  end if;
  if v_partition is null then
    delete from staging.invoice_valid_shared as v where v.batch_id = p_batch_id;
  end if;
  delete from staging.key_version as h where h.batch_id = p_batch_id;
end;
$$;
comment on function ingest.clear_typed_staging(bigint) is
  E'Delete a batch''s typed rows and key history from staging (drop its own partition; truncate the shared tables when the batch has 10,000 records or more and no other batch can have any).\nErrors: none.';
revoke all on function ingest.clear_typed_staging(bigint) from public;
