-- ingest.consume_replay: the first step of a load of a quarantined or
-- reverted batch (called by ingest.begin_attempt, in its transaction).  When
-- an operator's replay left an unused authorization, it is consumed by this
-- attempt and the batch starts again from received, as if just delivered:
--   - the batch goes back to received (ingest.transition, event recorded);
--   - its staging rows (raw, typed, key history) are deleted;
--   - the earlier attempts' rejections move to ingest.rejection_superseded,
--     tagged with the attempt that quarantined the batch (for a reverted
--     one: published it) and the replay;
--   - its derived counts are reset, and this load's manifest (or
--     --expect-* values), already parsed by the caller, becomes the batch's
--     control totals;
--   - ingest.batch.replays goes up by one: the batch's notifications of the
--     new round are new outbox rows.
-- Without an unused authorization (or for a batch in another state) it
-- changes nothing and returns false.
-- Single use: the authorization row is claimed by an UPDATE ... WHERE
-- consumed_at IS NULL under the batch row's lock, so of two concurrent
-- callers exactly one finds it (the other waits for the lock, then finds it
-- consumed and the batch received).
-- Internal (ingest.begin_attempt holds the runner lock and the batch row):
-- no EXECUTE grants.
-- Locks: the batch row (for update), the authorization row.
-- Errors: as ingest.transition.
create or replace function ingest.consume_replay(
  p_batch_id      bigint,
  p_attempt_id    bigint,
  p_manifest      jsonb,
  p_record_count  integer,
  p_control_total numeric)
returns boolean
language plpgsql
set search_path = ''
as $$
declare
  v_state text;
  v_auth  ingest.replay_authorization;
  v_action ingest.operator_action;
  v_attempt_no integer;
begin
  select b.state into v_state from ingest.batch as b where b.batch_id = p_batch_id for update;
  if v_state is null or v_state not in ('quarantined', 'reverted') then
    return false;
  end if;
  update ingest.replay_authorization as r
     set consumed_at = pg_catalog.clock_timestamp(), consumed_by_attempt_id = p_attempt_id
   where r.batch_id = p_batch_id and r.consumed_at is null
  returning * into v_auth;
  if not found then
    return false;
  end if;
  select * into v_action from ingest.operator_action as o where o.action_id = v_auth.action_id;
  v_attempt_no := (ingest.attempt_that_left(p_batch_id,
                     case v_state when 'reverted' then 'published' else v_state end)).attempt_no;

  delete from staging.invoice_line as l where l.batch_id = p_batch_id;
  delete from staging.invoice_valid as v where v.batch_id = p_batch_id;
  delete from staging.key_version as h where h.batch_id = p_batch_id;
  with gone as (
    delete from ingest.rejection_row as r where r.batch_id = p_batch_id returning r.*)
  insert into ingest.rejection_superseded (batch_id, attempt_no, action_id, record_no,
                                           invoice_number, rule, detail, created_at)
  select g.batch_id, coalesce(v_attempt_no, v_action.superseded_attempt_no), v_action.action_id,
         g.record_no,
         g.invoice_number, g.rule, g.detail, g.created_at
  from gone as g;

  update ingest.batch as b
     set manifest = p_manifest, record_count = p_record_count, control_total = p_control_total,
         staged_count = null, accepted_count = null, rejected_count = null,
         distinct_keys = null, merge_counts = null, published_at = null,
         replays = b.replays + 1
   where b.batch_id = p_batch_id;
  perform ingest.transition(p_batch_id, v_state, 'received', p_attempt_id,
    jsonb_build_object('replay_action_id', v_action.action_id,
                       'superseded_attempt_no', v_action.superseded_attempt_no,
                       'reason', v_action.reason, 'db_user', v_action.db_user));
  return true;
end;
$$;
comment on function ingest.consume_replay(bigint, bigint, jsonb, integer, numeric) is
  E'Consume the batch''s unused replay authorization and send it back to received with this load''s control totals; false when there is none.\nErrors: as ingest.transition.';
revoke all on function ingest.consume_replay(bigint, bigint, jsonb, integer, numeric) from public;
