-- 0034: a notification's body is frozen when the notification is written.
-- The dispatcher used to build the body's top-level fields (record count,
-- control total, accepted and rejected counts) from the batch row as it
-- was at dispatch time, so a notification sent late told the batch's later
-- state: a quarantine sent after a corrected file had been replayed showed
-- the corrected total next to the reasons of the first file.  The writing
-- transaction now stores those fields here (ingest.notification_body), and
-- a resend carries them unchanged.  NULL for a row written before this
-- migration: its fields are still read from the batch at claim time, which
-- is all that such a row ever knew.
set local role invoice_owner;

alter table ingest.outbox add column body jsonb;
comment on column ingest.outbox.body is
  'The notification''s top-level fields (source, business date, counts, totals) as they were when it was written (ingest.notification_body); NULL for rows written before migration 0034.';

-- Operators see the frozen body next to the payload.
create or replace view ingest.notification as
select o.notification_id, o.batch_id, o.kind, o.dedupe_key, o.created_at,
       o.dispatched_at, o.state, o.payload,
       o.tries, o.sink, o.last_status, o.last_error, o.response_head,
       o.claimed_by, o.claimed_at, o.in_doubt_at, o.not_before, o.updated_at,
       o.body
from ingest.outbox as o;
