-- ingest.approve_batch: an operator approves a batch awaiting approval (a
-- source with require_approval: its run wrote it and stopped) and
-- publishes it, in ONE transaction, through the normal publication path:
--   - the action is recorded in ingest.operator_action (action 'approve',
--     session_user, the reason, the attempt that wrote the batch);
--   - the batch's row of ingest.pending_publication is marked approved by
--     it, and ingest.publish_batch publishes the batch as for any other
--     (the same checks, watermark, batch_published notification, state,
--     the moment readers see it) under an attempt of its own (host
--     'ingest.approve_batch', closed in this transaction, as the sweep's).
-- The four eyes of a batch: the loader's run wrote it, a human approved it;
-- any operator may approve.
-- Locks: the batch's runner lock (transaction level; a run holding it:
-- IV203), then what ingest.publish_batch takes.
-- Errors: IV401 session_user is not an operator; IV307 empty reason; IV208
-- no such batch; IV203 a run holds the batch; IV315 the batch is not
-- awaiting approval.
create or replace function ingest.approve_batch(p_batch_id bigint, p_reason text)
returns table (action_id bigint, batch_id bigint, state text, watermark date, counts jsonb)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_batch   ingest.batch;
  v_pending ingest.pending_publication;
  v_writer  ingest.attempt;
  v_taken   record;
  v_action  bigint;
  v_attempt bigint;
  v_out     record;
begin
  select * into v_taken from ingest.take_awaiting_approval('approve', p_batch_id, p_reason);
  v_batch := v_taken.batch;
  v_pending := v_taken.pending;

  v_writer := ingest.attempt_that_left(p_batch_id, 'validated');
  insert into ingest.operator_action as o (batch_id, action, reason, superseded_attempt_no,
                                           superseded_run_id)
  values (p_batch_id, 'approve', p_reason, v_writer.attempt_no, v_writer.run_id)
  returning o.action_id into v_action;
  update ingest.pending_publication as p set approved_by_action = v_action
   where p.batch_id = p_batch_id;

  -- The publication's attempt, as the sweep opens one: runs of a gone
  -- runner are closed first.
  update ingest.attempt as a
     set finished_at = pg_catalog.clock_timestamp(), outcome = 'abandoned',
         error_class = 'abandoned', state_at_end = 'validated',
         message = 'the run ended without finishing this attempt; closed by ingest.approve_batch'
   where a.batch_id = p_batch_id and a.finished_at is null;
  insert into ingest.attempt as a (batch_id, attempt_no, run_id, host, pid, state_at_start)
  values (p_batch_id,
          (select coalesce(max(x.attempt_no), 0) + 1 from ingest.attempt as x
            where x.batch_id = p_batch_id),
          pg_catalog.gen_random_uuid(), 'ingest.approve_batch', pg_catalog.pg_backend_pid(),
          'validated')
  returning a.attempt_id into v_attempt;

  select * into v_out from ingest.publish_batch(p_batch_id, v_attempt) as p;
  if v_out.outcome <> 'published' then
    raise exception 'batch % did not publish on approval: %', p_batch_id, v_out.outcome
      using errcode = 'IV201';
  end if;
  perform ingest.finish_attempt(v_attempt, 'published', null, null,
                                'approved by operator action ' || v_action);

  return query select v_action, p_batch_id, v_out.state,
                      (select w.business_date from ingest.source_watermark as w
                        where w.source = v_batch.source),
                      v_out.counts;
end;
$$;
comment on function ingest.approve_batch(bigint, text) is
  E'Operator: approve a batch awaiting approval and publish it in one transaction (ingest.publish_batch), audited.\nErrors: IV401 not an operator; IV307 empty reason; IV208 no such batch; IV203 a run holds it; IV315 not awaiting approval.';
revoke all on function ingest.approve_batch(bigint, text) from public;
grant execute on function ingest.approve_batch(bigint, text) to invoice_operator;
