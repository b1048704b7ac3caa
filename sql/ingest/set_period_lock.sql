-- ingest.set_period_lock: an operator closes a source's period through a
-- date (p_close true: `period close`) or reopens it (false: `period
-- reopen`, back to p_through, or entirely when p_through is NULL), in one
-- transaction recorded in ingest.operator_action (period_close or
-- period_reopen, with the source, the date and the reason).
-- Closing moves the lock date forward only, reopening only back: anything
-- else is refused (IV309), so each action says which way a period moved.
-- Closing through the date the period is closed through already changes
-- nothing and records nothing (a repeated command is safe).
-- Takes the source's publication lock (ingest.publication_lock_key), so a
-- period changes between publications and reverts, never during one: a
-- batch written after a close is checked against it.
-- Returns the action (NULL when nothing changed), the lock date before and
-- after.
-- Four eyes: for a source with require_approval a reopen, once its checks
-- pass, is recorded as a request and returned with its action id and the
-- lock date unchanged, to be carried out by a second operator's
-- ingest.confirm_action (ingest.request_confirmation).
-- Errors: IV401 session_user is not an operator; IV307 empty reason; IV301
-- unknown source; IV308 no date to close through; IV309 closing back or
-- reopening forward (or a period not closed).
create or replace function ingest.set_period_lock(
  p_source  text,
  p_close   boolean,
  p_through date,
  p_reason  text)
returns table (action_id bigint, locked_before date, locked_now date)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_what   text := case when p_close then 'period close' else 'period reopen' end;
  v_source ingest.source;
  v_action bigint;
begin
  perform ingest.require_operator(v_what);
  if p_reason is null or pg_catalog.btrim(p_reason) = '' then
    raise exception '% of source % needs a reason', v_what, p_source
      using errcode = 'IV307',
            hint    = 'Say why in --reason; it is kept in ingest.operator_action.';
  end if;
  if p_close and p_through is null then
    raise exception 'period close of source % needs the last date to close', p_source
      using errcode = 'IV308';
  end if;
  perform pg_catalog.pg_advisory_xact_lock(ingest.publication_lock_key(p_source));
  select * into v_source from ingest.source as s where s.source = p_source for update;
  if not found then
    raise exception 'unknown source %', p_source using errcode = 'IV301';
  end if;

  if p_close then
    if v_source.locked_through = p_through then
      return query select null::bigint, v_source.locked_through, v_source.locked_through;
      return;
    end if;
    if v_source.locked_through > p_through then
      raise exception 'source % is closed through %, later than %: a close moves the date forward only',
                      p_source, v_source.locked_through, p_through
        using errcode = 'IV309',
              hint    = 'To open dates after ' || p_through || ' again, an operator runs period reopen --through ' || p_through || '.';
    end if;
  else
    if v_source.locked_through is null then
      raise exception 'source % has no closed period to reopen', p_source
        using errcode = 'IV309';
    end if;
    if p_through is not null and p_through >= v_source.locked_through then
      raise exception 'source % is closed through %: a reopen moves the date back, not to %',
                      p_source, v_source.locked_through, p_through
        using errcode = 'IV309';
    end if;
  end if;

  -- Four eyes (a source with require_approval): a reopen is recorded as a
  -- request that a second operator confirms (ingest.confirm_action), and
  -- nothing moves; inside that confirm, carried out now.  A close only
  -- restricts, and needs no second pair of eyes.
  if not p_close then
    v_action := ingest.request_confirmation('period_reopen', p_source, null, p_through, p_reason);
    if v_action is not null then
      return query select v_action, v_source.locked_through, v_source.locked_through;
      return;
    end if;
  end if;

  update ingest.source as s set locked_through = p_through, updated_at = pg_catalog.now()
   where s.source = p_source;
  insert into ingest.operator_action (action, reason, source, period_through)
  values (case when p_close then 'period_close' else 'period_reopen' end, p_reason,
          p_source, p_through)
  returning ingest.operator_action.action_id into v_action;
  return query select v_action, v_source.locked_through, p_through;
end;
$$;
comment on function ingest.set_period_lock(text, boolean, date, text) is
  E'Close a source''s period through a date, or reopen it (operator, audited).\nErrors: IV401 not an operator; IV307 empty reason; IV301 unknown source; IV308 no date; IV309 wrong direction.';
revoke all on function ingest.set_period_lock(text, boolean, date, text) from public;
grant execute on function ingest.set_period_lock(text, boolean, date, text) to invoice_operator;
