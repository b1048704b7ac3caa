-- ingest.mark_notification: the dispatcher's account of one try of a
-- notification it claimed (ingest.claim_notifications), from the session
-- that claimed it.  p_outcome:
--   'dispatched' the sink accepted it (webhook 2xx; SMTP 250 after DATA);
--   'pending'    not delivered, try again later (408, 429, 5xx, timeouts
--                after the retry budget; an SMTP refusal before DATA);
--                p_retry_after keeps it from being claimed again sooner;
--   'failed'     refused for good (other 4xx; a permanent SMTP refusal);
--   'in_doubt'   about to send what cannot be deduplicated (e-mail): marked
--                BEFORE sending, so that a crash or a lost connection from
--                here on leaves the row in_doubt, never resent
--                automatically (ingest.resolve_notification settles it).
-- Legal changes: pending (claimed by this session) -> any of the four;
-- in_doubt (claimed by this session) -> dispatched, pending or failed.  A
-- claim ends with the mark (except in_doubt, which keeps it until the next
-- mark), or with the session.  Marking a dispatched row dispatched again,
-- or a failed row failed again, changes nothing (a mark whose COMMIT reply
-- was lost can be repeated from a new session).
-- Records the sink, the status (HTTP status or SMTP reply code), the
-- detail (error text), the first 512 characters of the response (control
-- characters replaced by spaces).
-- Returns the row's new state.
-- Locks: the outbox row (for update); the claim's advisory lock is released.
-- Errors: IV308 unknown outcome; IV217 no such notification; IV215 the
-- change is not legal from the row's state (it is dispatched or failed
-- already); IV216 this session does not
-- hold the claim (never claimed here, or the claim ended with an earlier
-- session): do not send.
create or replace function ingest.mark_notification(
  p_notification_id bigint,
  p_outcome         text,
  p_status          integer default null,
  p_detail          text default null,
  p_sink            text default null,
  p_response        text default null,
  p_retry_after     interval default null)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_o    ingest.outbox;
  v_key  record;
  v_held boolean;
  v_now  timestamptz := pg_catalog.clock_timestamp();
begin
  if p_outcome is null or p_outcome not in ('dispatched', 'pending', 'failed', 'in_doubt') then
    raise exception 'unknown outcome % for notification %', coalesce(p_outcome, 'NULL'), p_notification_id
      using errcode = 'IV308',
            detail  = 'The outcome is dispatched, pending, failed or in_doubt.';
  end if;
  select * into v_o from ingest.outbox as o where o.notification_id = p_notification_id for update;
  if not found then
    raise exception 'notification % does not exist', p_notification_id using errcode = 'IV217';
  end if;
  if v_o.state = p_outcome and p_outcome in ('dispatched', 'failed') then
    return v_o.state;
  end if;
  if v_o.state in ('dispatched', 'failed') then
    raise exception 'notification % is % already; it cannot become %',
                    p_notification_id, v_o.state, p_outcome
      using errcode = 'IV215';
  end if;

  select * into v_key from ingest.notification_lock_key(p_notification_id);
  v_held := exists (select from pg_catalog.pg_locks as l
                    where l.locktype = 'advisory' and l.granted and l.objsubid = 2
                      and l.pid = pg_catalog.pg_backend_pid()
                      and l.database = (select d.oid from pg_catalog.pg_database as d
                                        where d.datname = pg_catalog.current_database())
                      and l.classid = v_key.key1::oid and l.objid = v_key.key2::oid);
  if not v_held then
    raise exception 'this session does not hold the claim on notification % (%)',
                    p_notification_id, v_o.state
      using errcode = 'IV216',
            detail  = 'A claim lasts until the row is marked or the session that claimed it ends.',
            hint    = case when v_o.state = 'in_doubt'
                           then 'An operator settles it: invoice-loader notify resolve.'
                           else 'Do not send it; claim it again.' end;
  end if;
  if v_o.state = 'in_doubt' and p_outcome = 'in_doubt' then
    return v_o.state;
  end if;

  update ingest.outbox as o
     set state = p_outcome,
         dispatched_at = case when p_outcome = 'dispatched' then v_now end,
         in_doubt_at = case when p_outcome = 'in_doubt' then v_now else o.in_doubt_at end,
         not_before = case when p_outcome = 'pending' and p_retry_after is not null
                           then v_now + p_retry_after end,
         sink = coalesce(pg_catalog.left(p_sink, 100), o.sink),
         last_status = p_status,
         last_error = pg_catalog.left(p_detail, 2000),
         response_head = pg_catalog.regexp_replace(pg_catalog.left(p_response, 512),
                                                   '[[:cntrl:]]', ' ', 'g'),
         updated_at = v_now
   where o.notification_id = p_notification_id;
  -- After the row is updated (and locked until commit): a claim released
  -- before would let another dispatcher take the row now.
  if p_outcome <> 'in_doubt' then
    perform pg_catalog.pg_advisory_unlock(v_key.key1, v_key.key2);
  end if;
  return p_outcome;
end;
$$;
comment on function ingest.mark_notification(bigint, text, integer, text, text, text, interval) is
  E'Record the outcome of one try of a claimed notification (dispatched, pending, failed, in_doubt).\nErrors: IV308 unknown outcome; IV217 no such notification; IV215 illegal change; IV216 claim not held.';
revoke all on function ingest.mark_notification(bigint, text, integer, text, text, text, interval) from public;
grant execute on function ingest.mark_notification(bigint, text, integer, text, text, text, interval) to invoice_loader;
