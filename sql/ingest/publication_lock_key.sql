-- ingest.publication_lock_key: the key of a source's publication advisory
-- lock, for pg_advisory_xact_lock(key): the lock
-- ingest.lock_batch_for_publication takes for ingest.write_batch,
-- ingest.publish_batch and ingest.revert_batch, so that the writes,
-- publications and reverts of a source are serial.  One place for the key,
-- so that a session holding it from outside (tests/e2e/sweep_lib.sh) holds
-- the same lock.  In pg_locks it shows as locktype 'advisory', objsubid 1,
-- objid = the key's low 32 bits.
-- Helper: no EXECUTE grants (the definer entry points call it as the owner).
-- Errors: none.
create or replace function ingest.publication_lock_key(p_source text)
returns bigint
language sql
immutable
parallel safe
set search_path = ''
as $$
  select pg_catalog.hashtext('invoice-loader:publish:' || p_source)::bigint
$$;
comment on function ingest.publication_lock_key(text) is
  E'The key of a source''s publication advisory lock.\nErrors: none.';
revoke all on function ingest.publication_lock_key(text) from public;
