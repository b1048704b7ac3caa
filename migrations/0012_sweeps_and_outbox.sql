-- 0012: the sweeps (CALL ingest.sweep(); docs/guide/run-nightly.md) and
-- what the notification dispatcher needs (docs/reference/notifications.md).
--
-- Sources gain a deadline (a UTC time of day on D+1 by which business date
-- D should be published; NULL = no deadline, no deadline_missed) and a
-- retention (days after which a published, reverted or quarantined
-- batch's staging rows are deleted).
--
-- The outbox gains the dispatch record.  A claim is a session advisory
-- lock on the row (ingest.notification_lock_key) plus the claimed_* columns
-- that say who claimed it last: the lock, not the columns, decides whether
-- a row is taken, so a row whose dispatcher's session is gone is claimable
-- again at once, and no timeout is needed.  State stays one of the four the
-- contract names; a claimed row is 'pending' until marked.
--
-- ingest.staging_purge records whose staging the retention sweep deleted.
-- Never edit after merge; follow-ups go in 0013+.
set local role invoice_owner;

alter table ingest.source
  add column deadline       time,
  add column retention_days integer not null default 30 check (retention_days > 0);
comment on column ingest.source.deadline is
  'UTC time of day on D+1 by which business date D should be published; past it unpublished, the sweep writes one deadline_missed notification (NULL: none).';
comment on column ingest.source.retention_days is
  'Days after a batch is published, reverted or quarantined until the sweep deletes its staging rows.';

alter table ingest.outbox
  add column tries         integer not null default 0 check (tries >= 0),
  add column claimed_by    text,
  add column claimed_at    timestamptz,
  add column claimed_pid   integer,
  add column not_before    timestamptz,
  add column sink          text,
  add column last_status   integer,
  add column last_error    text,
  add column response_head text,
  add column in_doubt_at   timestamptz,
  add column updated_at    timestamptz not null default now(),
  add check (state <> 'dispatched' or dispatched_at is not null),
  add check (state <> 'in_doubt' or in_doubt_at is not null);
comment on column ingest.outbox.tries is 'Claims so far (each claim is one dispatch try).';
comment on column ingest.outbox.claimed_by is 'The dispatcher that claimed the row last (its own name for itself).';
comment on column ingest.outbox.claimed_pid is 'Backend pid of the session that claimed the row last; the claim itself is that session''s advisory lock.';
comment on column ingest.outbox.not_before is 'A row left pending by a failed try is not claimed again before this time.';
comment on column ingest.outbox.sink is 'The sink of the last try (e.g. webhook, smtp).';
comment on column ingest.outbox.last_status is 'The last try''s status (HTTP status, SMTP reply code).';
comment on column ingest.outbox.last_error is 'The last try''s error, as the dispatcher described it.';
comment on column ingest.outbox.response_head is 'The first bytes of the last response (control characters replaced).';
comment on column ingest.outbox.in_doubt_at is 'When the row was marked in_doubt (an e-mail about to be sent).';
create index outbox_pending on ingest.outbox (notification_id) where state = 'pending';

create table ingest.staging_purge (
  batch_id       bigint primary key references ingest.batch,
  state_at_purge text not null,
  started_at     timestamptz not null default now(),
  purged_at      timestamptz,
  rows_deleted   bigint not null default 0 check (rows_deleted >= 0)
);
comment on table ingest.staging_purge is
  'Batches whose staging rows the retention sweep deleted (purged_at NULL while chunks remain).';
grant select on ingest.staging_purge to invoice_loader, invoice_operator;

-- What the sweeps look for every minute, in O(what is open), not O(history).
create index attempt_open on ingest.attempt (batch_id) where finished_at is null;
create index batch_unfinished on ingest.batch (source, business_date)
  where state in ('received', 'staged', 'validated');

-- The contract's columns first, as 0005 defined them; the dispatch record after.
create or replace view ingest.notification as
select o.notification_id, o.batch_id, o.kind, o.dedupe_key, o.created_at,
       o.dispatched_at, o.state, o.payload,
       o.tries, o.sink, o.last_status, o.last_error, o.response_head,
       o.claimed_by, o.claimed_at, o.in_doubt_at, o.not_before, o.updated_at
from ingest.outbox as o;

-- ingest.add_source takes the deadline and the retention (sql/ingest/
-- add_source.sql creates the new signature; on a new database the
-- functions of sql/ do not exist yet, hence IF EXISTS).
drop function if exists ingest.add_source(text, text, numeric, date, text, boolean);
