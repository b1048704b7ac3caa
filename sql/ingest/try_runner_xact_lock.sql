-- ingest.try_runner_xact_lock: for the sweeps: take the runner lock of
-- (source, business date) until the end of the transaction, unless a live
-- session holds it.  Returns false when any session, this one included,
-- holds the lock (pg_locks): a loader is running the batch, or this
-- session is one.  pg_try_advisory_xact_lock alone would not do: a session
-- that holds the lock gets it again.  Then the lock itself is taken, so a
-- loader starting now waits for the sweep's transaction (begin_attempt and
-- resume_attempt exit with IV203, retried).
-- Helper: no EXECUTE grants (the sweeps call it as the owner).
-- Locks: the runner advisory lock, transaction level.
-- Errors: none.
create or replace function ingest.try_runner_xact_lock(p_source text, p_business_date date)
returns boolean
language plpgsql
set search_path = ''
as $$
declare
  v_key record;
begin
  select * into v_key from ingest.runner_lock_key(p_source, p_business_date);
  if exists (select from pg_catalog.pg_locks as l
             where l.locktype = 'advisory' and l.granted
               and l.database = (select d.oid from pg_catalog.pg_database as d
                                 where d.datname = pg_catalog.current_database())
               and l.classid = v_key.key1::oid and l.objid = v_key.key2::oid
               and l.objsubid = 2) then
    return false;
  end if;
  return pg_catalog.pg_try_advisory_xact_lock(v_key.key1, v_key.key2);
end;
$$;
comment on function ingest.try_runner_xact_lock(text, date) is
  E'Take the runner lock of (source, date) for the transaction unless a live session holds it.\nErrors: none.';
revoke all on function ingest.try_runner_xact_lock(text, date) from public;
