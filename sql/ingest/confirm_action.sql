-- ingest.confirm_action: a second operator confirms a request (an
-- operator_action row with action 'request', recorded by the four-eyes
-- gate ingest.request_confirmation when replay, revert, revert to a date or
-- period reopen was asked for a source with require_approval), and the
-- action runs, in ONE transaction, through the very entry point the
-- request came from (ingest.replay_batch, ingest.revert_batch,
-- ingest.revert_to_date, ingest.set_period_lock), with the request's
-- arguments and reason: the same checks, the same transaction, the same
-- notifications as for a source without four eyes.
-- The confirmation is written first (ingest.confirmation: the confirmer,
-- the time, this transaction), and the transaction-local setting
-- ingest.confirm_action names the request while the entry point runs: its
-- gate lets it through, and every operator_action row it writes names the
-- request (confirms_action) and its requester (requested_by) beside the
-- confirmer (db_user).  If the action fails (its state changed since the
-- request, say), everything rolls back and the request stays unconfirmed.
-- Locks: the request's row (for update: two confirms of one request are
-- serial), then what the entry point takes.
-- Errors: IV401 session_user is not an operator; IV316 no such request;
-- IV317 the request is already confirmed; IV402 the confirmer is the
-- login that requested it; and the entry point's own errors.
create or replace function ingest.confirm_action(p_action_id bigint)
returns table (action_id bigint, requested_action text, requested_by text, confirmed_by text,
               result jsonb)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_request ingest.operator_action;
  v_result  jsonb;
begin
  perform ingest.require_operator('confirm');
  select * into v_request from ingest.operator_action as o
   where o.action_id = p_action_id and o.action = 'request'
   for update;
  if not found then
    raise exception 'operator action % is not a request awaiting confirmation', p_action_id
      using errcode = 'IV316',
            hint    = 'status lists the requests awaiting confirmation (pending_confirmations).';
  end if;
  if exists (select from ingest.confirmation as c where c.request_action_id = p_action_id) then
    raise exception 'request % (%) is already confirmed', p_action_id, v_request.requested_action
      using errcode = 'IV317',
            detail  = (select format('Confirmed by %s at %s.', c.db_user, c.at)
                       from ingest.confirmation as c where c.request_action_id = p_action_id);
  end if;
  if v_request.db_user = session_user then
    raise exception 'request % was made by %: a second, different operator confirms it',
                    p_action_id, session_user
      using errcode = 'IV402',
            detail  = 'Four eyes: the login that requests an action cannot confirm it.',
            hint    = 'Another member of invoice_operator runs: invoice-loader confirm --action '
                      || p_action_id || '.';
  end if;

  insert into ingest.confirmation (request_action_id) values (p_action_id);
  perform pg_catalog.set_config('ingest.confirm_action', p_action_id::text, true);
  case v_request.requested_action
    when 'replay' then
      select coalesce(jsonb_agg(to_jsonb(r)), '[]') into v_result
      from ingest.replay_batch(v_request.batch_id, v_request.reason) as r;
    when 'revert' then
      select coalesce(jsonb_agg(to_jsonb(r)), '[]') into v_result
      from ingest.revert_batch(v_request.batch_id, v_request.reason) as r;
    when 'revert_to_date' then
      select coalesce(jsonb_agg(to_jsonb(r)), '[]') into v_result
      from ingest.revert_to_date(v_request.source, v_request.to_date, v_request.reason) as r;
    when 'period_reopen' then
      select coalesce(jsonb_agg(to_jsonb(r)), '[]') into v_result
      from ingest.set_period_lock(v_request.source, false, v_request.period_through,
                                  v_request.reason) as r;
  end case;
  perform pg_catalog.set_config('ingest.confirm_action', '', true);

  return query select p_action_id, v_request.requested_action, v_request.db_user,
                      session_user::text, v_result;
end;
$$;
comment on function ingest.confirm_action(bigint) is
  E'Operator: confirm another operator''s request (four eyes) and carry it out in one transaction through its own entry point.\nErrors: IV401 not an operator; IV316 no such request; IV317 already confirmed; IV402 the requester confirming; and the action''s own.';
revoke all on function ingest.confirm_action(bigint) from public;
grant execute on function ingest.confirm_action(bigint) to invoice_operator;
