-- ingest.abandon_batch: the loader closes a received batch whose bytes it
-- could not read twice alike (the file changed while it was read: pass 1
-- registered one SHA-256, pass 2 read another), in the same run, so no
-- orphan received batch is left for ever: quarantined
-- with rule batch.abandoned and the reason.  The bytes registered cannot
-- be loaded any more; the complete file, new bytes, is a new batch.
-- Only the run that holds the batch (its runner lock) may.
-- Locks: the batch row.
-- Errors: IV208 no such batch; IV201 the batch is not received; IV221 this
-- session does not hold the batch's runner lock.
create or replace function ingest.abandon_batch(
  p_batch_id   bigint,
  p_attempt_id bigint,
  p_reason     text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_batch ingest.batch;
begin
  select * into v_batch from ingest.batch as b where b.batch_id = p_batch_id for update;
  if not found then
    raise exception 'batch % does not exist', p_batch_id using errcode = 'IV208';
  end if;
  if v_batch.state <> 'received' then
    raise exception 'batch % is %, not received; it cannot be abandoned', p_batch_id, v_batch.state
      using errcode = 'IV201';
  end if;
  if not ingest.holds_runner_lock(v_batch.source, v_batch.business_date) then
    raise exception 'batch % is not held by this session', p_batch_id
      using errcode = 'IV221',
            detail  = 'Only the run holding a received batch may abandon it.';
  end if;
  perform ingest.quarantine_batch(p_batch_id, 'received', p_attempt_id,
    pg_catalog.jsonb_build_array(pg_catalog.jsonb_build_object(
      'rule', 'batch.abandoned', 'record_no', 0, 'detail', p_reason)));
end;
$$;
comment on function ingest.abandon_batch(bigint, bigint, text) is
  E'Loader: close a received batch whose file changed while it was read (quarantined, batch.abandoned).\nErrors: IV208 no such batch; IV201 not received; IV221 not held by this session.';
revoke all on function ingest.abandon_batch(bigint, bigint, text) from public;
grant execute on function ingest.abandon_batch(bigint, bigint, text) to invoice_loader;
