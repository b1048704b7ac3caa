-- ingest.holds_runner_lock: whether this session holds the runner lock of
-- (source, business date) (ingest.runner_lock_key; taken by begin_attempt
-- and resume_attempt), read from pg_locks.
-- Helper: no EXECUTE grants (definer functions and triggers call it).
-- Errors: none.
create or replace function ingest.holds_runner_lock(p_source text, p_business_date date)
returns boolean
language sql
stable
set search_path = ''
as $$
  select exists (
    select from pg_catalog.pg_locks as l,
                ingest.runner_lock_key(p_source, p_business_date) as k
    where l.locktype = 'advisory' and l.pid = pg_catalog.pg_backend_pid() and l.granted
      and l.mode = 'ExclusiveLock'
      and l.database = (select d.oid from pg_catalog.pg_database as d
                        where d.datname = pg_catalog.current_database())
      and l.classid = k.key1::oid
      and l.objid = k.key2::oid
      and l.objsubid = 2)
$$;
comment on function ingest.holds_runner_lock(text, date) is
  E'Whether this session holds the runner lock of (source, business date).\nErrors: none.';
revoke all on function ingest.holds_runner_lock(text, date) from public;
