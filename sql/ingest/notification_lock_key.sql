-- ingest.notification_lock_key: the two keys of the advisory lock that is
-- a dispatcher's claim on an outbox row (pg_try_advisory_lock(key1, key2),
-- session level: it ends with the dispatcher's session, which makes the row
-- claimable again).  Ids above 2^31-1 wrap: two rows then share a lock,
-- which can only delay one of them, never send one twice.
-- Helper: no EXECUTE grants.
-- Errors: none.
create or replace function ingest.notification_lock_key(
  p_notification_id bigint,
  out key1          integer,
  out key2          integer)
language sql
immutable
parallel safe
set search_path = ''
as $$
  select pg_catalog.hashtext('invoice-loader:notify'),
         (p_notification_id % 2147483647)::integer
$$;
comment on function ingest.notification_lock_key(bigint) is
  E'The advisory lock''s keys of a dispatcher''s claim on an outbox row.\nErrors: none.';
revoke all on function ingest.notification_lock_key(bigint) from public;
