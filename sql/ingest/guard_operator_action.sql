-- ingest.guard_operator_action: ingest.operator_action is append-only
-- (docs/guide/recover.md).  On INSERT the row gets db_user = session_user (the
-- login that acted, not the definer running the entry point) and at = the
-- clock, whatever the insert said, and an action carried out inside the
-- transaction of ingest.confirm_action gets the request it carries out
-- (confirms_action) and the login that requested it (requested_by), so
-- that its row names both; UPDATE, DELETE and TRUNCATE raise IV212,
-- for every role, the owner included (no role but the owner holds a write
-- grant in the first place).
-- Trigger function; installed with its triggers below (re-applied by
-- migrate, like every file of sql/).
-- Errors: IV212 an operator action is changed or removed.
create or replace function ingest.guard_operator_action()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_request bigint;
begin
  if tg_op = 'INSERT' then
    new.db_user := session_user;
    new.at := pg_catalog.clock_timestamp();
    new.confirms_action := null;
    new.requested_by := null;
    v_request := nullif(pg_catalog.current_setting('ingest.confirm_action', true), '')::bigint;
    if v_request is not null and new.action <> 'request' then
      select c.request_action_id, o.db_user into new.confirms_action, new.requested_by
      from ingest.confirmation as c
      join ingest.operator_action as o on o.action_id = c.request_action_id
      where c.request_action_id = v_request and c.xact = pg_catalog.txid_current();
    end if;
    return new;
  end if;
  raise exception 'ingest.operator_action is append-only: % refused', tg_op
    using errcode = 'IV212',
          detail  = 'Every operator action stays recorded as it was taken.',
          hint    = 'Record a new action instead.';
end;
$$;
comment on function ingest.guard_operator_action() is
  E'Trigger: operator actions are append-only; inserts record session_user, the clock and, under a confirm, the request and its requester.\nErrors: IV212.';
revoke all on function ingest.guard_operator_action() from public;

create or replace trigger operator_action_stamp
  before insert on ingest.operator_action
  for each row execute function ingest.guard_operator_action();
create or replace trigger operator_action_append_only
  before update or delete on ingest.operator_action
  for each row execute function ingest.guard_operator_action();
create or replace trigger operator_action_no_truncate
  before truncate on ingest.operator_action
  for each statement execute function ingest.guard_operator_action();
