-- ingest.notification_body: the top-level fields of a notification's body
-- (docs/reference/notifications.md), from the batch row and the outbox
-- payload as they are now.  ingest.write_notification calls it in the
-- writing transaction and stores the result (ingest.outbox.body), so a
-- notification tells the state of the moment it was written, whenever it
-- is sent; ingest.claim_notifications calls it only for a row written
-- before bodies were stored.
-- Fields: source, business_date, record_count, control_total,
-- control_totals (per currency, as the manifest gave them; null for a
-- single total), accepted_count, rejected_count, accepted_by_currency
-- (a publication's accepted gross per currency, {"EUR": 4200.00}; null
-- for other kinds), published_at (a publication's time; null for
-- other kinds) and, for the publication of a full extract only,
-- closed_by_absence (the number of invoices it closed by absence).
-- Internal: no EXECUTE grants.
create or replace function ingest.notification_body(
  p_batch_id bigint,
  p_kind     text,
  p_payload  jsonb)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select pg_catalog.jsonb_build_object(
    'source', coalesce(p_payload ->> 'source', b.source),
    'business_date', coalesce(p_payload ->> 'business_date', b.business_date::text),
    'record_count', coalesce((p_payload -> 'counts' ->> 'records')::integer,
                             b.record_count, b.file_records),
    'control_total', coalesce((p_payload -> 'counts' ->> 'control_total')::numeric,
                              b.control_total),
    'control_totals', b.manifest -> 'control_totals',
    'accepted_count', case when p_kind = 'batch_published'
                           then (p_payload -> 'counts' ->> 'records')::integer
                                - (p_payload -> 'counts' ->> 'rejected')::integer
                           when p_kind = 'batch_quarantined' then 0
                           else b.accepted_count end,
    'rejected_count', case when p_kind = 'batch_published'
                           then (p_payload -> 'counts' ->> 'rejected')::integer
                           when p_kind = 'batch_quarantined'
                           then (p_payload ->> 'rejected_records')::integer
                           else b.rejected_count end,
    'accepted_by_currency', case when p_kind = 'batch_published'
                                 then p_payload -> 'counts' -> 'accepted_by_currency' end,
    'published_at', case when p_kind = 'batch_published'
                         then coalesce((p_payload ->> 'published_at')::timestamptz,
                                       pg_catalog.now()) end)
    -- a full extract's publication: the invoices it closed by absence
    -- (left out for other sources and kinds)
    || pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
         'closed_by_absence', case when p_kind = 'batch_published'
                                   then p_payload -> 'counts' -> 'closed_by_absence' end))
  from (select 1) as one
  left join ingest.batch as b on b.batch_id = p_batch_id
$$;
comment on function ingest.notification_body(bigint, text, jsonb) is
  'The top-level fields of a notification''s body, from the batch and the payload as they are now; stored by ingest.write_notification.';
revoke all on function ingest.notification_body(bigint, text, jsonb) from public;
