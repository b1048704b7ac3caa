-- ingest.guard_operator_action: ingest.operator_action is append-only
-- (docs/guide/recover.md).  On INSERT the row gets db_user = session_user (the
-- login that acted, not the definer running the entry point) and at = the
-- clock, whatever the insert said; UPDATE, DELETE and TRUNCATE raise IV212,
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
begin
  if tg_op = 'INSERT' then
    new.db_user := session_user;
    new.at := pg_catalog.clock_timestamp();
    return new;
  end if;
  raise exception 'ingest.operator_action is append-only: % refused', tg_op
    using errcode = 'IV212',
          detail  = 'Every operator action stays recorded as it was taken.',
          hint    = 'Record a new action instead.';
end;
$$;
comment on function ingest.guard_operator_action() is
  E'Trigger: operator actions are append-only; inserts record session_user and the clock.\nErrors: IV212.';
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
