-- ingest.replay_batch: an operator authorizes a new attempt of a quarantined
-- or reverted batch (docs/guide/recover.md).  Records the action (who =
-- session_user, when, why, and the attempt it supersedes: the one that
-- quarantined the batch, or for a reverted batch the one that published
-- the reverted publication, ingest.attempt_that_left; later reruns that
-- changed nothing are not it) in ingest.operator_action and leaves one unused
-- authorization in ingest.replay_authorization.  The next load of the batch
-- consumes it (ingest.consume_replay, inside ingest.begin_attempt) and runs
-- the batch again from received, re-reading the manifest.  The batch itself
-- is not changed here.  p_allow_absent_share (replay --allow-absent-share)
-- is kept with the action: the write of a full extract then closes by
-- absence more than the source's max_absent_share (ingest.absence_problem
-- reads the batch's latest replay).
-- Idempotent while unused: a second replay before the next load records
-- nothing new and returns the authorization already given.
-- Locks: the batch row (for update), so a concurrent load that consumes an
-- authorization is serialized with this one.
-- Returns: the action, the batch, and the superseded attempt_no and run_id.
-- Four eyes: for a source with require_approval the replay is recorded as
-- a request and returned with its action id (superseded attempt NULL,
-- created false), to be carried out by a second operator's
-- ingest.confirm_action (ingest.request_confirmation).
-- Errors: IV401 session_user is not an operator; IV307 empty reason; IV208
-- no such batch; IV305 the batch is neither quarantined nor reverted;
-- IV312 an override asked for while an unused authorization without it
-- stands.
create or replace function ingest.replay_batch(p_batch_id bigint, p_reason text,
                                               p_allow_absent_share boolean default false)
returns table (action_id bigint, batch_id bigint, superseded_attempt_no integer,
               superseded_run_id uuid, created boolean)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_batch   ingest.batch;
  v_attempt ingest.attempt;
  v_action  ingest.operator_action;
  v_request bigint;
begin
  perform ingest.require_operator('replay');
  if p_reason is null or pg_catalog.btrim(p_reason) = '' then
    raise exception 'a replay of batch % needs a reason', p_batch_id
      using errcode = 'IV307',
            hint    = 'Say why in --reason; it is kept in ingest.operator_action.';
  end if;
  select * into v_batch from ingest.batch as b where b.batch_id = p_batch_id for update;
  if not found then
    raise exception 'batch % does not exist', p_batch_id using errcode = 'IV208';
  end if;
  if v_batch.state not in ('quarantined', 'reverted') then
    raise exception 'batch % is %; only a quarantined or reverted batch can be replayed',
                    p_batch_id, v_batch.state
      using errcode = 'IV305',
            detail  = 'A replay authorizes the next load to run the batch again from received.',
            hint    = 'Run status --batch for the batch; a published batch is undone with revert first.';
  end if;

  select o.* into v_action
  from ingest.replay_authorization as r
  join ingest.operator_action as o on o.action_id = r.action_id
  where r.batch_id = p_batch_id and r.consumed_at is null;
  if found then
    -- The unused authorization stands for this replay: an override asked
    -- for now would be lost with it, so it is refused, not ignored.
    if coalesce(p_allow_absent_share, false) and not v_action.allow_absent_share then
      raise exception 'batch % already has an unused replay authorization (action %) that does not allow the absent share',
                      p_batch_id, v_action.action_id
        using errcode = 'IV312',
              detail  = 'The next load of the batch uses the authorization given first.',
              hint    = 'Run the load once (it is quarantined again by extract.absent_share), then replay with --allow-absent-share.';
    end if;
    return query select v_action.action_id, p_batch_id, v_action.superseded_attempt_no,
                        v_action.superseded_run_id, false;
    return;
  end if;

  -- Four eyes (a source with require_approval): recorded as a request
  -- that a second operator confirms (ingest.confirm_action), or, inside
  -- that confirm, carried out now.
  v_request := ingest.request_confirmation('replay', v_batch.source, p_batch_id, null, p_reason);
  if v_request is not null then
    return query select v_request, p_batch_id, null::integer, null::uuid, false;
    return;
  end if;

  -- The attempt that failed: the run that quarantined the batch, or that
  -- published the reverted publication; not a later rerun that changed
  -- nothing.
  v_attempt := ingest.attempt_that_left(p_batch_id,
                 case v_batch.state when 'reverted' then 'published' else 'quarantined' end);
  insert into ingest.operator_action as o (batch_id, action, reason, superseded_attempt_no,
                                           superseded_run_id, allow_absent_share)
  values (p_batch_id, 'replay', p_reason, v_attempt.attempt_no, v_attempt.run_id,
          coalesce(p_allow_absent_share, false))
  returning * into v_action;
  insert into ingest.replay_authorization (batch_id, action_id)
  values (p_batch_id, v_action.action_id);

  return query select v_action.action_id, p_batch_id, v_action.superseded_attempt_no,
                      v_action.superseded_run_id, true;
end;
$$;
comment on function ingest.replay_batch(bigint, text, boolean) is
  E'Operator: authorize one new attempt of a quarantined or reverted batch; returns the attempt it supersedes.\nErrors: IV401 not an operator; IV307 empty reason; IV208 no such batch; IV305 not quarantined or reverted; IV312 an override after an unused authorization without it.';
revoke all on function ingest.replay_batch(bigint, text, boolean) from public;
grant execute on function ingest.replay_batch(bigint, text, boolean) to invoice_operator;
