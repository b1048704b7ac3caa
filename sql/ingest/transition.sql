-- ingest.transition: move a batch from one checkpoint to the next, as a
-- compare-and-set, and record the event.  Called by the entry points inside
-- the transaction that did the step's work, so a checkpoint never lies.
-- Legal: the rows of ingest.batch_transition (migrations/0010): received->
-- staged->validated->published; received|staged|validated->quarantined;
-- published->reverted; quarantined|reverted->received (a replay consumed);
-- staged|validated->received (staged rows lost in a crash: restage).
-- Locks: the batch row (update).
-- Errors: IV202 transition not in the state machine; IV201 the batch is not
-- in p_from (someone else moved it); IV208 no such batch.
create or replace function ingest.transition(
  p_batch_id   bigint,
  p_from       text,
  p_to         text,
  p_attempt_id bigint,
  p_detail     jsonb default null)
returns void
language plpgsql
set search_path = ''
as $$
declare
  v_state text;
begin
  if p_from is null or p_to is null
     or not exists (select from ingest.batch_transition as t
                    where t.from_state = p_from and t.to_state = p_to) then
    raise exception 'illegal transition of batch % from % to %', p_batch_id, p_from, p_to
      using errcode = 'IV202',
            detail  = 'The legal moves are the rows of ingest.batch_transition.';
  end if;

  update ingest.batch as b
     set state = p_to, updated_at = now()
   where b.batch_id = p_batch_id and b.state = p_from;
  if not found then
    select b.state into v_state from ingest.batch as b where b.batch_id = p_batch_id;
    if not found then
      raise exception 'batch % does not exist', p_batch_id using errcode = 'IV208';
    end if;
    raise exception 'batch % is %, not %; cannot move it to %', p_batch_id, v_state, p_from, p_to
      using errcode = 'IV201',
            detail  = 'Another run moved the batch first, or the step was called out of order.',
            hint    = 'Run status for the batch and load it again; a load resumes from its checkpoint.';
  end if;

  insert into ingest.batch_event (batch_id, attempt_id, from_state, to_state, detail)
  values (p_batch_id, p_attempt_id, p_from, p_to, p_detail);
end;
$$;
comment on function ingest.transition(bigint, text, text, bigint, jsonb) is
  E'Compare-and-set a batch state and record the event.\nErrors: IV201 not in the expected state; IV202 illegal transition; IV208 no such batch.';
revoke all on function ingest.transition(bigint, text, text, bigint, jsonb) from public;
