-- 0010: recovery (docs/guide/recover.md, docs/reference/database.md): the
-- state machine as data, the operator's audit trail, single-use replay
-- authorizations, what revert and time travel need of the versions, the
-- rejections of earlier attempts, and one outbox row per publication round.
-- Functions live in sql/ (replay_batch, consume_replay, revert_batch,
-- reporting.invoice_as_of, ...), not here.
set local role invoice_owner;

-- The batch state machine, written once, so that code and tests cannot
-- disagree about a state or a move: ingest.transition,
-- the pgTAP transition tests and the e2e invariant checker read it.
create table ingest.batch_transition (
  from_state text not null,
  to_state   text not null,
  meaning    text not null,
  primary key (from_state, to_state),
  check (from_state in ('received', 'staged', 'validated', 'published', 'quarantined', 'reverted')),
  check (to_state in ('received', 'staged', 'validated', 'published', 'quarantined', 'reverted'))
);
insert into ingest.batch_transition (from_state, to_state, meaning) values
  ('received',    'staged',      'every record of the file is in staging (COPY, count verified)'),
  ('staged',      'validated',   'every row checked; reconciliation against the manifest passed'),
  ('validated',   'published',   'merged, watermark, outbox and state in one transaction'),
  ('received',    'quarantined', 'file-level problem or missing/wrong control totals'),
  ('staged',      'quarantined', 'validation or reconciliation failed'),
  ('validated',   'quarantined', 'a conflict found at publication, or the second reconciliation failed'),
  ('published',   'reverted',    'an operator undid the publication (ingest.revert_batch)'),
  ('quarantined', 'received',    'an operator''s replay authorization consumed by the next load'),
  ('reverted',    'received',    'an operator''s replay authorization consumed by the next load'),
  ('staged',      'received',    'the staged rows were lost in a server crash: stage again'),
  ('validated',   'received',    'the staged rows were lost in a server crash: stage again');
comment on table ingest.batch_transition is
  'The batch state machine: the only legal (from_state, to_state) moves, read by ingest.transition.';
grant select on ingest.batch_transition to invoice_loader, invoice_operator;

-- The operator's audit trail: who reverted or replayed what, and why.
-- Append-only: only the
-- definer entry points insert (no role has a write grant), and the trigger
-- ingest.guard_operator_action (sql/ingest/guard_operator_action.sql)
-- refuses UPDATE, DELETE and TRUNCATE even to the owner, and sets db_user
-- to session_user and at to the clock on INSERT.
create table ingest.operator_action (
  action_id             bigint generated always as identity primary key,
  batch_id              bigint references ingest.batch,
  action                text not null
                        check (action in ('replay', 'revert', 'notification_resolve')),
  reason                text not null check (btrim(reason) <> ''),
  db_user               text not null default session_user,
  at                    timestamptz not null default clock_timestamp(),
  superseded_attempt_no integer,
  superseded_run_id     uuid,
  notification_id       bigint references ingest.outbox,
  check (action = 'notification_resolve' or batch_id is not null),
  check (action <> 'notification_resolve' or notification_id is not null)
);
create index operator_action_batch on ingest.operator_action (batch_id);
comment on table ingest.operator_action is
  'Every operator action (replay, revert, notification resolution): who (session_user), when, why, and the attempt it superseded. Append-only.';
comment on column ingest.operator_action.superseded_attempt_no is
  'The batch''s latest attempt when the action was taken (the one a replay supersedes).';
revoke all on ingest.operator_action from public;
grant select on ingest.operator_action to invoice_loader, invoice_operator;

-- A replay leaves one unused authorization; the next load of the batch
-- consumes it (ingest.consume_replay) in the transaction that moves the
-- batch back to received.  At most one unused authorization per batch.
create table ingest.replay_authorization (
  authorization_id       bigint generated always as identity primary key,
  batch_id               bigint not null references ingest.batch,
  action_id              bigint not null unique references ingest.operator_action,
  created_at             timestamptz not null default clock_timestamp(),
  consumed_at            timestamptz,
  consumed_by_attempt_id bigint references ingest.attempt,
  check ((consumed_at is null) = (consumed_by_attempt_id is null))
);
create unique index replay_authorization_one_unused on ingest.replay_authorization (batch_id)
  where consumed_at is null;
comment on table ingest.replay_authorization is
  'Single-use permission, given by a replay, for the next load of a quarantined or reverted batch to start again from received.';

-- Replays consumed so far: the batch's publication round.  The outbox holds
-- one row per (batch, kind, round), so a batch republished after a revert
-- and replay notifies again, and a replayed batch that is quarantined again
-- too; within a round a notification is still written once.
alter table ingest.batch add column replays integer not null default 0 check (replays >= 0);
comment on column ingest.batch.replays is
  'Replay authorizations consumed by loads of this batch (0 for a batch never replayed).';

alter table ingest.outbox add column round integer not null default 0 check (round >= 0);
alter table ingest.outbox drop constraint outbox_batch_id_kind_key;
alter table ingest.outbox add constraint outbox_batch_id_kind_round_key unique (batch_id, kind, round);
comment on column ingest.outbox.round is
  'The batch''s replays when the row was written (set by trigger ingest.number_outbox_round, which also suffixes dedupe_key with :r<round> from round 1).';

-- Rejections of an attempt a replay superseded, kept for the audit;
-- ingest.rejection_row (and the view ingest.rejection) holds the current
-- attempt's only.
create table ingest.rejection_superseded (
  batch_id              bigint not null references ingest.batch,
  attempt_no            integer,
  action_id             bigint not null references ingest.operator_action,
  record_no             integer not null,
  invoice_number        text,
  rule                  text not null,
  detail                text not null,
  created_at            timestamptz not null,
  archived_at           timestamptz not null default clock_timestamp(),
  primary key (action_id, record_no, rule)
);
create index rejection_superseded_batch on ingest.rejection_superseded (batch_id);
comment on table ingest.rejection_superseded is
  'Rejections of a batch''s earlier attempts, moved here when a replay was consumed, tagged with the attempt and the replay.';
comment on column ingest.rejection_superseded.attempt_no is
  'The attempt that quarantined (for a reverted batch: published) the batch while these rejections were its current ones.';
grant select on ingest.rejection_superseded to invoice_loader, invoice_operator;

-- Revert and time travel.  A version restored by a revert (the one the
-- reverted batch had superseded) is current again from current_since; the
-- period in which it was current before is kept in
-- core.invoice_version_period.  The versions a reverted batch introduced
-- leave core.invoice_version (whose (key, revision) the merge and the
-- revision checks read: a replay or a corrected file must find them gone)
-- for core.invoice_version_reverted, with the time of the revert.
alter table core.invoice_version add column current_since timestamptz;
comment on column core.invoice_version.current_since is
  'When the version last became current: NULL = at published_at; set when a revert restored it.';

create table core.invoice_version_reverted (
  like core.invoice_version,
  reverted_at        timestamptz not null,
  reverted_by_action bigint not null references ingest.operator_action,
  primary key (reverted_by_action, source, invoice_number, revision)
);
create index invoice_version_reverted_batch on core.invoice_version_reverted (batch_id);
create index invoice_version_reverted_at on core.invoice_version_reverted (reverted_at);
comment on table core.invoice_version_reverted is
  'Versions a reverted publication had introduced: history, no longer in core.invoice_version nor reporting.*.';

create table core.invoice_version_period (
  source             text not null,
  invoice_number     text not null,
  revision           integer not null,
  status             text not null,
  document_type      text not null,
  customer_id        text not null,
  invoice_date       date not null,
  due_date           date,
  currency           text not null,
  net_amount         numeric not null,
  tax_amount         numeric not null,
  gross_amount       numeric not null,
  description        text,
  batch_id           bigint not null,
  published_at       timestamptz not null,
  current_from       timestamptz not null,
  current_until      timestamptz not null,
  superseded_by_batch_id bigint not null,
  restored_by_action bigint not null references ingest.operator_action,
  primary key (restored_by_action, source, invoice_number, revision)
);
create index invoice_version_period_until on core.invoice_version_period (current_until);
comment on table core.invoice_version_period is
  'A closed period in which a version was current, ended by a publication that was later reverted (written by the revert that restored the version).';
-- (No check that current_from <= current_until: the times are the
-- server's clock, and a clock stepped back must not make a revert fail;
-- such a period is empty and reporting.invoice_as_of never shows it.)

-- reporting.invoice_as_of: for a recent time only the versions superseded
-- since then are read besides the current ones (index scans, not a scan of
-- all history).
create index invoice_version_superseded_at on core.invoice_version (superseded_at)
  where superseded_at is not null;

-- begin_attempt takes one jsonb argument (its options grew one positional
-- argument at a time; named keys cannot be swapped by mistake): the old
-- signature goes (sql/ingest/begin_attempt.sql creates the new one; on a new
-- database the functions of sql/ do not exist yet, hence IF EXISTS).
drop function if exists ingest.begin_attempt(text, date, text, bigint, text, boolean, text[],
                                             jsonb, text, bigint, text, uuid, text, integer,
                                             bigint);
