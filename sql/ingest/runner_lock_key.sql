-- ingest.runner_lock_key: the two keys of the runner advisory lock of
-- (source, business date), for pg_try_advisory_lock(key1, key2) (one run per
-- batch at a time, DESIGN.md decision 8).  The same lock the loader's
-- session holds while it runs a batch, so a sweep can tell a running batch
-- from one whose runner is gone.  In pg_locks the lock shows as
-- locktype 'advisory', classid = key1::oid, objid = key2::oid, objsubid 2.
-- Helper: no EXECUTE grants (the definer entry points call it as the owner).
-- Errors: none.
create or replace function ingest.runner_lock_key(
  p_source        text,
  p_business_date date,
  out key1        integer,
  out key2        integer)
language sql
immutable
parallel safe
set search_path = ''
as $$
  select pg_catalog.hashtext('invoice-loader:' || p_source),
         p_business_date - date '2000-01-01'
$$;
comment on function ingest.runner_lock_key(text, date) is
  E'The runner advisory lock''s keys of (source, business date).\nErrors: none.';
revoke all on function ingest.runner_lock_key(text, date) from public;
