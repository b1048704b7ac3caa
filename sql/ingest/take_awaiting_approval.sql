-- ingest.take_awaiting_approval: what ingest.approve_batch and
-- ingest.reject_batch do first, for p_action ('approve' or 'reject'): the
-- caller must be an operator and give a reason; the batch must await
-- approval (checked before the locks, so that a batch plainly not awaiting
-- approval is refused as such whatever holds it, and again after them:
-- that check counts); then its run's lock (without waiting: a run holding
-- the batch is IV203) and its source's publication lock are held to the
-- end of the transaction.  Returns the batch and its pending publication.
-- Internal: no EXECUTE grants.
-- Errors: IV401 not an operator; IV307 no reason; IV208 no such batch;
-- IV315 not awaiting approval; IV203 a run holds the batch.
create or replace function ingest.take_awaiting_approval(
  p_action text, p_batch_id bigint, p_reason text,
  out batch ingest.batch, out pending ingest.pending_publication)
language plpgsql
set search_path = ''
as $$
begin
  perform ingest.require_operator(p_action);
  if p_reason is null or pg_catalog.btrim(p_reason) = '' then
    raise exception 'an action % of batch % needs a reason', p_action, p_batch_id
      using errcode = 'IV307',
            hint    = 'Say why in --reason; it is kept in ingest.operator_action.';
  end if;
  perform ingest.require_awaiting_approval(p_batch_id);
  select * into batch from ingest.batch as b where b.batch_id = p_batch_id;
  if not ingest.try_runner_xact_lock(batch.source, batch.business_date) then
    raise exception 'another run holds batch % (source %, business date %)',
                    p_batch_id, batch.source, batch.business_date
      using errcode = 'IV203', hint = 'Run ' || p_action || ' again once that run has ended.';
  end if;
  batch := ingest.lock_batch_for_publication(p_batch_id);
  pending := ingest.require_awaiting_approval(p_batch_id);
end;
$$;
comment on function ingest.take_awaiting_approval(text, bigint, text) is
  E'The checks and locks approve_batch and reject_batch start with.\nErrors: IV401, IV307, IV208, IV315, IV203.';
revoke all on function ingest.take_awaiting_approval(text, bigint, text) from public;
