-- ingest.request_confirmation: the four-eyes gate of the recovery entry
-- points (ingest.replay_batch, ingest.revert_batch, ingest.revert_to_date,
-- ingest.set_period_lock for a reopen), called by each once its own checks
-- passed, just before it changes anything.
-- For a source without require_approval: NULL, and the caller goes on.
-- For a source with it, inside the transaction of ingest.confirm_action
-- that confirms a request of this source (ingest.confirmation written in
-- this very transaction, named by the transaction-local setting
-- ingest.confirm_action), for this very action (the same kind, batch and
-- date; or a revert of a batch after the date of a confirmed undo to a
-- date, which runs one per batch): NULL, and the caller goes on, exactly
-- as without the gate.  Otherwise the action is recorded as a request
-- (ingest.operator_action, action 'request', requested_action p_action,
-- with its batch, source, date and reason) and its action_id returned: the
-- caller returns at once, having changed nothing else.  A request the same
-- login already made for the same action, batch, source and date, still
-- unconfirmed, is returned again instead of a second one.
-- The setting alone grants nothing: only ingest.confirm_action writes
-- ingest.confirmation, after refusing the requester (IV402).
-- Internal: no EXECUTE grants (the definer entry points call it).
-- Errors: none.
create or replace function ingest.request_confirmation(
  p_action   text,
  p_source   text,
  p_batch_id bigint,
  p_date     date,
  p_reason   text)
returns bigint
language plpgsql
set search_path = ''
as $$
declare
  v_id bigint;
begin
  if not coalesce((select s.require_approval from ingest.source as s
                    where s.source = p_source), false) then
    return null;
  end if;
  v_id := nullif(pg_catalog.current_setting('ingest.confirm_action', true), '')::bigint;
  if v_id is not null
     and exists (select from ingest.confirmation as c
                 join ingest.operator_action as o on o.action_id = c.request_action_id
                 where c.request_action_id = v_id
                   and c.xact = pg_catalog.txid_current()
                   and o.source = p_source
                   and ((o.requested_action = p_action
                         and o.batch_id is not distinct from p_batch_id
                         and (case when p_action = 'revert_to_date' then o.to_date
                                   else o.period_through end) is not distinct from p_date)
                        -- the reverts an undo to a date runs, one per batch
                        or (o.requested_action = 'revert_to_date' and p_action = 'revert'
                            and exists (select from ingest.batch as b
                                        where b.batch_id = p_batch_id
                                          and b.business_date > o.to_date)))) then
    return null;
  end if;

  select o.action_id into v_id
  from ingest.operator_action as o
  where o.action = 'request' and o.requested_action = p_action and o.source = p_source
    and o.batch_id is not distinct from p_batch_id
    and (case when p_action = 'revert_to_date' then o.to_date else o.period_through end)
        is not distinct from p_date
    and o.db_user = session_user
    and not exists (select from ingest.confirmation as c where c.request_action_id = o.action_id)
  order by o.action_id
  limit 1;
  if found then
    return v_id;
  end if;
  insert into ingest.operator_action as o (batch_id, action, reason, source, requested_action,
                                           period_through, to_date)
  values (p_batch_id, 'request', p_reason, p_source, p_action,
          case when p_action = 'period_reopen' then p_date end,
          case when p_action = 'revert_to_date' then p_date end)
  returning o.action_id into v_id;
  return v_id;
end;
$$;
comment on function ingest.request_confirmation(text, text, bigint, date, text) is
  E'Four-eyes gate: NULL when the action may run now; otherwise the id of the request recorded for a second operator''s confirm.\nErrors: none.';
revoke all on function ingest.request_confirmation(text, text, bigint, date, text) from public;
