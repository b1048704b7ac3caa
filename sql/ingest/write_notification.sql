-- ingest.write_notification: every outbox writer's one way to write a
-- notification (ingest.outbox, docs/reference/notifications.md) and wake its
-- dispatchers.  Inserts the row unless its batch already has one of this
-- kind (or its dedupe key exists: then nothing changes), and in either
-- case sends, at commit, one pg_notify on channel invoice_loader_outbox
-- with the payload (docs/design/data-model.md)
--   {"notification_id": N, "batch_id": B, "kind": "batch_published"}
-- (batch_id null for a notification of no batch).  A listener reads the
-- row by its id; the payload carries nothing a listener must trust.
-- p_dedupe_key defaults to '<kind>:<batch_id>'.  The row's body is frozen
-- here (ingest.notification_body: the batch's counts and totals as this
-- transaction sees them), so the notification tells this moment, however
-- late it is sent.
-- Returns the notification's id (the existing one on a repeat).
-- Internal (called by the steps in their transactions): no EXECUTE grants.
-- Errors: 23514 an unknown kind (the table's check).
create or replace function ingest.write_notification(
  p_batch_id   bigint,
  p_kind       text,
  p_payload    jsonb,
  p_dedupe_key text default null)
returns bigint
language plpgsql
set search_path = ''
as $$
declare
  v_key text := coalesce(p_dedupe_key, p_kind || ':' || p_batch_id);
  v_id  bigint;
begin
  insert into ingest.outbox (batch_id, kind, dedupe_key, payload, body)
  values (p_batch_id, p_kind, v_key, p_payload,
          ingest.notification_body(p_batch_id, p_kind, p_payload))
  on conflict do nothing
  returning notification_id into v_id;
  if v_id is null then
    select o.notification_id into v_id from ingest.outbox as o
     where o.dedupe_key = v_key
        or (p_batch_id is not null and o.batch_id = p_batch_id and o.kind = p_kind)
     order by o.notification_id desc -- this replay round's (see number_outbox_round)
     limit 1;
  end if;
  perform pg_catalog.pg_notify('invoice_loader_outbox',
    pg_catalog.jsonb_build_object('notification_id', v_id, 'batch_id', p_batch_id,
                                  'kind', p_kind)::text);
  return v_id;
end;
$$;
comment on function ingest.write_notification(bigint, text, jsonb, text) is
  E'Write an outbox notification (once per batch and kind) and pg_notify invoice_loader_outbox with {notification_id, batch_id, kind}.\nErrors: 23514 unknown kind.';
revoke all on function ingest.write_notification(bigint, text, jsonb, text) from public;
