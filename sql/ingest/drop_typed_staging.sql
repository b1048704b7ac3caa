-- ingest.drop_typed_staging: drop a batch's own partition of
-- staging.invoice_valid (ingest.typed_staging_partition), if nothing else
-- uses staging.invoice_valid now.  Dropping a partition takes ACCESS
-- EXCLUSIVE locks on the parent and on the DEFAULT partition, which every
-- other batch's staging statement reads: they are taken with NOWAIT, so
-- nothing ever waits for them, and held to the end of the caller's
-- transaction.  Returns whether it was dropped; false: in use, left for
-- later (ingest.sweep_typed_staging), the caller empties it.
-- Internal: no EXECUTE grants.
-- Errors: none.
create or replace function ingest.drop_typed_staging(p_partition pg_catalog.regclass)
returns boolean
language plpgsql
set search_path = ''
as $$
begin
  begin
    -- ONLY: not the other batches' partitions, which a COPY into one of
    -- them holds without the parent's lock, and which the drop leaves be
    lock table only staging.invoice_valid in access exclusive mode nowait;
    lock table staging.invoice_valid_shared in access exclusive mode nowait;
    execute pg_catalog.format('lock table %s in access exclusive mode nowait', p_partition);
  exception when lock_not_available then
    return false;
  end;
  execute pg_catalog.format('drop table %s', p_partition);
  return true;
end;
$$;
comment on function ingest.drop_typed_staging(pg_catalog.regclass) is
  E'Drop a batch''s own typed staging partition unless staging is in use (NOWAIT); true when dropped.\nErrors: none.';
revoke all on function ingest.drop_typed_staging(pg_catalog.regclass) from public;
