-- ingest.lock_batch_for_publication: the opening of every step that
-- changes a source's versions (ingest.write_batch, ingest.publish_batch,
-- ingest.revert_batch): the source's publication advisory lock
-- (transaction level: a source's writes, publications and reverts are
-- serial), then the batch row FOR UPDATE, read after the lock so that its
-- state is what the previous holder committed.  Returns that row; the
-- caller checks its state.
-- Internal: no EXECUTE grants.
-- Errors: IV208 no such batch.
create or replace function ingest.lock_batch_for_publication(p_batch_id bigint)
returns ingest.batch
language plpgsql
set search_path = ''
as $$
declare
  v_source text;
  v_batch  ingest.batch;
begin
  select b.source into v_source from ingest.batch as b where b.batch_id = p_batch_id;
  if not found then
    raise exception 'batch % does not exist', p_batch_id using errcode = 'IV208';
  end if;
  perform pg_catalog.pg_advisory_xact_lock(ingest.publication_lock_key(v_source));
  select * into v_batch from ingest.batch as b where b.batch_id = p_batch_id for update;
  return v_batch;
end;
$$;
comment on function ingest.lock_batch_for_publication(bigint) is
  E'Take the source''s publication lock and the batch row (for update); returns the row.\nErrors: IV208 no such batch.';
revoke all on function ingest.lock_batch_for_publication(bigint) from public;
