-- ingest.reject_batch: an operator rejects a batch awaiting approval (a
-- source with require_approval), in ONE transaction:
--   - the action is recorded in ingest.operator_action (action 'reject',
--     session_user, the reason, the attempt that wrote the batch);
--   - the batch is quarantined (ingest.quarantine_batch: rule
--     approval.rejected, record 0, naming the operator and the reason; one
--     batch_quarantined notification);
--   - what its write did is taken back: the versions it superseded are
--     current again as they were (they never stopped being current for
--     readers), its versions are deleted (readers never saw them, so
--     history has nothing to keep: reporting.invoice_as_of never showed
--     them), and its row of ingest.pending_publication goes.  The
--     source's later dates may then be written.
-- Nothing of it is visible before or after; the watermark does not move.
-- The usual recovery applies: a corrected file for the date loads
-- normally; the same bytes load again after a replay (which, for such a
-- source, a second operator confirms).
-- Locks: the batch's runner lock (transaction level; a run holding it:
-- IV203), the source's publication lock, the batch row.
-- Errors: IV401 session_user is not an operator; IV307 empty reason; IV208
-- no such batch; IV203 a run holds the batch; IV315 the batch is not
-- awaiting approval.
create or replace function ingest.reject_batch(p_batch_id bigint, p_reason text)
returns table (action_id bigint, batch_id bigint, state text, withdrawn_versions integer,
               restored_versions integer)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_batch    ingest.batch;
  v_pending  ingest.pending_publication;
  v_writer   ingest.attempt;
  v_taken    record;
  v_action   bigint;
  v_gone     integer;
  v_restored integer;
begin
  select * into v_taken from ingest.take_awaiting_approval('reject', p_batch_id, p_reason);
  v_batch := v_taken.batch;
  v_pending := v_taken.pending;

  v_writer := ingest.attempt_that_left(p_batch_id, 'validated');
  insert into ingest.operator_action as o (batch_id, action, reason, superseded_attempt_no,
                                           superseded_run_id)
  values (p_batch_id, 'reject', p_reason, v_writer.attempt_no, v_writer.run_id)
  returning o.action_id into v_action;

  -- First the state: what it superseded may be restored only once it is
  -- no longer validated (trigger core.guard_invoice_version).
  perform ingest.quarantine_batch(p_batch_id, 'validated', null,
    jsonb_build_array(jsonb_build_object(
      'rule', 'approval.rejected', 'record_no', 0,
      'detail', format('rejected by %s (operator action %s): %s', session_user, v_action,
                       p_reason))));

  -- Its versions go first: a key has one current version at a time.
  delete from core.invoice_version as v where v.batch_id = p_batch_id;
  get diagnostics v_gone = row_count;
  update core.invoice_version as v
     set is_current = true, superseded_by_batch_id = null, superseded_at = null,
         current_since = coalesce(v.current_since, v.published_at)
   where v.superseded_by_batch_id = p_batch_id;
  get diagnostics v_restored = row_count;
  delete from ingest.pending_publication as p where p.batch_id = p_batch_id;

  return query select v_action, p_batch_id, 'quarantined'::text, v_gone, v_restored;
end;
$$;
comment on function ingest.reject_batch(bigint, text) is
  E'Operator: reject a batch awaiting approval: quarantine it and take its written versions back, in one transaction, audited.\nErrors: IV401 not an operator; IV307 empty reason; IV208 no such batch; IV203 a run holds it; IV315 not awaiting approval.';
revoke all on function ingest.reject_batch(bigint, text) from public;
grant execute on function ingest.reject_batch(bigint, text) to invoice_operator;
