-- ingest.claim_notifications: the dispatcher's first call (notify): claim
-- up to p_limit pending notifications, oldest first, for this session.  A
-- claim is a session advisory lock on the row (ingest.notification_lock_key)
-- taken while the row is locked FOR UPDATE SKIP LOCKED, so two dispatchers
-- never claim one row, and a slow sink holds no lock on the outbox: call
-- this in a short transaction of its own, send outside any transaction,
-- then ingest.mark_notification from the same session.  A claim ends with
-- the mark, or with the session: a row whose dispatcher's session is gone
-- is pending and unlocked, so the next claim takes it again (no timeout).
-- An in_doubt row is never claimed (only ingest.resolve_notification moves
-- it).  Rows this session already holds, and rows left pending with a
-- not_before in the future, are not claimed.
-- Each claim counts one try (tries) and records p_claimer, the time and
-- the backend pid.
-- Returns per row: notification_id, kind, dedupe_key (the Idempotency-Key
-- and the Message-ID's seed), tries, and the body to send (payload): the
-- outbox payload the writing transaction stored (publish_batch,
-- quarantine_batch, the deadline sweep) under "detail", plus at the top
-- level notification_id, kind, dedupe_key, batch_id, created_at and the
-- fields the writing transaction froze (ingest.outbox.body,
-- ingest.notification_body: source, business_date, record_count,
-- control_total, control_totals, accepted_count, rejected_count,
-- accepted_by_currency, published_at).  Built from what the row stored,
-- so a resend carries the same body, and a late one the values of the
-- moment it was written.
-- Locks: the outbox rows looked at (for update, skip locked, until
-- commit: one at a time, only up to the last claimed); one session
-- advisory lock per claimed row (until marked or the session ends).
-- Errors: IV308 p_limit not 1-1000, or p_claimer empty.
create or replace function ingest.claim_notifications(p_limit integer, p_claimer text)
returns table (notification_id bigint, kind text, dedupe_key text, tries integer,
               payload jsonb)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_r     record;
  v_mine  oid[];
  v_n     integer := 0;
  v_last  bigint := 0;
  v_class integer := (select k.key1 from ingest.notification_lock_key(0) as k);
  v_o     ingest.outbox;
begin
  if p_limit is null or p_limit < 1 or p_limit > 1000 then
    raise exception 'claim 1 to 1000 notifications at a time, not %', coalesce(p_limit::text, 'NULL')
      using errcode = 'IV308';
  end if;
  if p_claimer is null or pg_catalog.btrim(p_claimer) = '' then
    raise exception 'a dispatcher claims under a name (host, pid, sink)'
      using errcode = 'IV308';
  end if;
  -- The claims this session holds already (pg_try_advisory_lock would take
  -- them again).
  v_mine := array(select l.objid from pg_catalog.pg_locks as l
                  where l.locktype = 'advisory' and l.granted and l.objsubid = 2
                    and l.pid = pg_catalog.pg_backend_pid()
                    and l.classid = v_class::oid);

  -- One row at a time (LIMIT 1): a FOR loop over the whole query would
  -- fetch, and so lock, more rows than it claims, and keep them from the
  -- other dispatchers until this transaction ends.
  loop
    exit when v_n >= p_limit;
    select o.notification_id, k.key1, k.key2 into v_r
    from ingest.outbox as o
    cross join lateral ingest.notification_lock_key(o.notification_id) as k
    where o.state = 'pending' and o.notification_id > v_last
      and (o.not_before is null or o.not_before <= pg_catalog.clock_timestamp())
    order by o.notification_id
    limit 1
    for update of o skip locked;
    exit when not found;
    v_last := v_r.notification_id;
    continue when v_r.key2::oid = any (v_mine);
    continue when not pg_catalog.pg_try_advisory_lock(v_r.key1, v_r.key2);
    update ingest.outbox as o
       set tries = o.tries + 1, claimed_by = pg_catalog.left(p_claimer, 200),
           claimed_at = pg_catalog.clock_timestamp(), claimed_pid = pg_catalog.pg_backend_pid(),
           updated_at = pg_catalog.clock_timestamp()
     where o.notification_id = v_r.notification_id and o.state = 'pending'
    returning * into v_o;
    if not found then
      perform pg_catalog.pg_advisory_unlock(v_r.key1, v_r.key2);
      continue;
    end if;

    notification_id := v_o.notification_id;
    kind := v_o.kind;
    dedupe_key := v_o.dedupe_key;
    tries := v_o.tries;
    payload := coalesce(v_o.body, ingest.notification_body(v_o.batch_id, v_o.kind, v_o.payload))
               || pg_catalog.jsonb_build_object(
                    'notification_id', v_o.notification_id,
                    'kind', v_o.kind,
                    'dedupe_key', v_o.dedupe_key,
                    'batch_id', v_o.batch_id,
                    'created_at', v_o.created_at,
                    'detail', v_o.payload);
    return next;
    v_n := v_n + 1;
  end loop;
end;
$$;
comment on function ingest.claim_notifications(integer, text) is
  E'Claim up to p_limit pending notifications for this session (FOR UPDATE SKIP LOCKED + a session advisory lock per row).\nErrors: IV308 limit not 1-1000 or claimer empty.';
revoke all on function ingest.claim_notifications(integer, text) from public;
grant execute on function ingest.claim_notifications(integer, text) to invoice_loader;
