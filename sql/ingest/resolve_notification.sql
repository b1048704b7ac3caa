-- ingest.resolve_notification: `notify resolve --notification ID --as
-- dispatched|pending --reason TEXT`: an operator settles an in_doubt
-- notification (an e-mail whose sending was interrupted) after checking
-- the mailbox: 'dispatched' (it arrived; never sent again) or 'pending'
-- (it did not; the next dispatcher sends it).  Only an in_doubt row, and
-- only when no dispatcher's session still holds its claim (that session
-- may yet mark it).  Recorded in ingest.operator_action (action
-- notification_resolve, the notification, its batch, the reason,
-- session_user), in the same transaction.
-- Operator entry point: session_user must be a member of invoice_operator.
-- Returns the new state and the operator_action row's id.
-- Locks: the outbox row (for update); the claim's advisory lock
-- (transaction level, tried).
-- Errors: IV401 not an operator; IV308 --as neither dispatched nor
-- pending, or no reason; IV217 no such notification; IV215 the row is not
-- in_doubt; IV218 a dispatcher's session still holds the row.
create or replace function ingest.resolve_notification(
  p_notification_id bigint,
  p_as              text,
  p_reason          text)
returns table (state text, action_id bigint)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_o      ingest.outbox;
  v_key    record;
  v_action bigint;
begin
  perform ingest.require_operator('notify resolve');
  if p_as is null or p_as not in ('dispatched', 'pending') then
    raise exception 'notification % can be resolved as dispatched or pending, not %',
                    p_notification_id, coalesce(p_as, 'NULL')
      using errcode = 'IV308';
  end if;
  if p_reason is null or pg_catalog.btrim(p_reason) = '' then
    raise exception 'resolving notification % needs a reason', p_notification_id
      using errcode = 'IV308', hint = 'Say what the mailbox showed: --reason TEXT.';
  end if;

  select * into v_o from ingest.outbox as o where o.notification_id = p_notification_id for update;
  if not found then
    raise exception 'notification % does not exist', p_notification_id using errcode = 'IV217';
  end if;
  if v_o.state <> 'in_doubt' then
    raise exception 'notification % is %, not in_doubt; there is nothing to resolve',
                    p_notification_id, v_o.state
      using errcode = 'IV215',
            detail  = 'Only a notification whose sending was interrupted (in_doubt) is settled by an operator.';
  end if;
  select * into v_key from ingest.notification_lock_key(p_notification_id);
  if not pg_catalog.pg_try_advisory_xact_lock(v_key.key1, v_key.key2) then
    raise exception 'a dispatcher (%) still holds notification %', v_o.claimed_by, p_notification_id
      using errcode = 'IV218',
            detail  = 'Its session is alive and may still mark the notification.',
            hint    = 'Try again when that dispatcher has finished, or end its session (pg_terminate_backend).';
  end if;

  update ingest.outbox as o
     set state = p_as,
         dispatched_at = case when p_as = 'dispatched' then pg_catalog.clock_timestamp() end,
         not_before = null,
         updated_at = pg_catalog.clock_timestamp()
   where o.notification_id = p_notification_id;
  insert into ingest.operator_action as a (batch_id, notification_id, action, reason)
  values (v_o.batch_id, p_notification_id, 'notification_resolve', p_reason)
  returning a.action_id into v_action;

  state := p_as;
  action_id := v_action;
  return next;
end;
$$;
comment on function ingest.resolve_notification(bigint, text, text) is
  E'Operator: settle an in_doubt notification as dispatched or pending, recorded in ingest.operator_action.\nErrors: IV401 not an operator; IV308 bad --as or no reason; IV217 no such notification; IV215 not in_doubt; IV218 a dispatcher still holds it.';
revoke all on function ingest.resolve_notification(bigint, text, text) from public;
grant execute on function ingest.resolve_notification(bigint, text, text) to invoice_operator;
