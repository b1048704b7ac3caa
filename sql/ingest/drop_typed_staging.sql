-- ingest.drop_typed_staging: drop a batch's own partition of
-- staging.invoice_valid (ingest.typed_staging), if it has one and nothing
-- else uses staging.invoice_valid now.  Dropping a partition takes ACCESS
-- EXCLUSIVE locks on the parent and on the DEFAULT partition, which every
-- other batch's staging statement reads: they are taken with NOWAIT, so
-- nothing ever waits for them, and held to the end of the caller's
-- transaction.  Returns whether the batch has no partition any more (true
-- also when it had none); false: in use, left for later
-- (ingest.sweep_typed_staging), the caller empties it.
-- Internal: no EXECUTE grants.
-- Errors: none.
create or replace function ingest.drop_typed_staging(p_batch_id bigint)
returns boolean
language plpgsql
set search_path = ''
as $$
declare
  v_partition pg_catalog.regclass := ingest.typed_staging_partition(p_batch_id);
begin
  if v_partition is null then
    return true;
  end if;
  begin
    -- ONLY: not the other batches' partitions, which a COPY into one of
    -- them holds without the parent's lock, and which the drop leaves be
    lock table only staging.invoice_valid in access exclusive mode nowait;
    lock table staging.invoice_valid_shared in access exclusive mode nowait;
    execute pg_catalog.format('lock table %s in access exclusive mode nowait', v_partition);
  exception when lock_not_available then
    return false;
  end;
  execute pg_catalog.format('drop table %s', v_partition);
  return true;
end;
$$;
comment on function ingest.drop_typed_staging(bigint) is
  E'Drop the batch''s own typed staging partition unless staging is in use (NOWAIT); true when it has none left.\nErrors: none.';
revoke all on function ingest.drop_typed_staging(bigint) from public;
