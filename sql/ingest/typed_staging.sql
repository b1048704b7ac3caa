-- ingest.typed_staging: the table the loader COPYs a received batch's
-- typed rows into (migrations/0028), called in a transaction of its own
-- before the staging one.
--  - A batch of 100,000 records or more (ingest.batch.file_records, the
--    loader's count at registration) gets a partition of its own,
--    staging.invoice_valid_b<batch_id>, made here if it is not there yet:
--    an unlogged table with staging.invoice_valid's columns, defaults and
--    check, a CHECK of its batch id (so the ATTACH need not scan it), the
--    scope trigger (ingest.check_typed_staging_scope with the batch id,
--    once per statement) and INSERT for invoice_loader.  Its COPY skips the shared
--    table's BRIN index and the transition table of its scope trigger;
--    making it costs about 10 ms (the unlogged files are synced), hence
--    not for small batches (docs/PERFORMANCE.md, "Typed staging, a
--    partition per big batch").
--  - Otherwise, or when the partition cannot be attached within
--    lock_timeout (the ATTACH takes the DEFAULT partition's ACCESS
--    EXCLUSIVE lock, and scans it, while a statement of another batch may
--    be reading it: nothing waits long for a partition, which is only
--    faster), the DEFAULT partition staging.invoice_valid_shared, as
--    before 0028.
-- p_attach false (`load --dry-run`, whose transaction is never committed
-- and would hold the ATTACH's locks for all of its COPY and validation):
-- nothing is made; the batch's partition if it has one already, otherwise
-- the shared one.
-- Returns the table's qualified name.
-- Locks: SHARE UPDATE EXCLUSIVE on staging.invoice_valid and ACCESS
-- EXCLUSIVE on staging.invoice_valid_shared while attaching, to the end
-- of the caller's transaction (hence a transaction of its own).
-- Errors: IV221 the batch is not received, or this session does not hold
-- its runner lock (ingest.refuse_unscoped_staging).
create or replace function ingest.typed_staging(p_batch_id bigint, p_attach boolean default true)
returns text
language plpgsql
security definer
set search_path = ''
set lock_timeout = '200ms'
as $$
declare
  v_table text := 'invoice_valid_b' || p_batch_id;
begin
  perform ingest.refuse_unscoped_staging(array[p_batch_id]);
  if (select b.file_records from ingest.batch as b where b.batch_id = p_batch_id) < 100000 then
    return 'staging.invoice_valid_shared';
  end if;
  if ingest.typed_staging_partition(p_batch_id) is null then
    if not p_attach then
      return 'staging.invoice_valid_shared';
    end if;
    begin
      execute pg_catalog.format(
        'create unlogged table staging.%I (like staging.invoice_valid including defaults'
        ' including constraints, constraint %I check (batch_id = %s))'
        ' with (autovacuum_vacuum_insert_threshold = -1)',
        v_table, v_table || '_batch', p_batch_id);
      execute pg_catalog.format(
        'alter table staging.invoice_valid attach partition staging.%I for values in (%s)',
        v_table, p_batch_id);
      execute pg_catalog.format('grant insert on staging.%I to invoice_loader', v_table);
      execute pg_catalog.format(
        'create trigger invoice_valid_scope before insert on staging.%I'
        ' for each statement execute function ingest.check_typed_staging_scope(%L)',
        v_table, p_batch_id);
    exception when lock_not_available then
      return 'staging.invoice_valid_shared';
    end;
  end if;
  return pg_catalog.format('staging.%I', v_table);
end;
$$;
comment on function ingest.typed_staging(bigint, boolean) is
  E'The table to COPY a received batch''s typed rows into: its own partition of staging.invoice_valid (100,000 records or more; made here unless p_attach is false) or the shared one.\nErrors: IV221.';
revoke all on function ingest.typed_staging(bigint, boolean) from public;
grant execute on function ingest.typed_staging(bigint, boolean) to invoice_loader;
