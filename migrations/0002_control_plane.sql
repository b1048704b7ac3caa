-- 0002: sources, batches and their lifecycle records.
set local role invoice_owner;

create table ingest.source (
  source                 text primary key
                         check (source ~ '^[a-z0-9][a-z0-9._-]{0,63}$'),
  policy                 text not null default 'all-or-nothing'
                         check (policy in ('all-or-nothing', 'partial')),
  max_rejected_share     numeric check (max_rejected_share >= 0 and max_rejected_share <= 1),
  start_date             date,
  feed_url               text,
  allow_unknown_columns  boolean not null default false,
  require_control_totals boolean not null default true,
  created_at             timestamptz not null default now(),
  created_by             text not null default session_user,
  updated_at             timestamptz not null default now(),
  updated_by             text not null default session_user,
  check ((policy = 'partial') = (max_rejected_share is not null))
);
comment on table ingest.source is 'An issuing system whose nightly files are loaded; registered by an operator.';

create table ingest.batch (
  batch_id          bigint generated always as identity primary key,
  source            text not null references ingest.source,
  business_date     date not null,
  sha256            text not null check (sha256 ~ '^[0-9a-f]{64}$'),
  size_bytes        bigint not null check (size_bytes >= 0),
  file_records      integer not null check (file_records >= 0),
  file_name         text not null,
  had_bom           boolean not null default false,
  columns           text[] not null,
  state             text not null default 'received'
                    check (state in ('received', 'staged', 'validated', 'published',
                                     'quarantined', 'reverted')),
  manifest          jsonb,
  record_count      integer check (record_count >= 0),
  control_total     numeric,
  staged_count      integer,
  accepted_count    integer,
  rejected_count    integer,
  distinct_keys     integer,
  merge_counts      jsonb,
  created_at        timestamptz not null default now(),
  updated_at        timestamptz not null default now(),
  published_at      timestamptz
);
-- Identity: the same bytes are one batch forever, under any name.  A
-- header-only file (an empty business day) carries no record and no date,
-- so every empty day of a source would have the same bytes: it is one
-- batch per business date instead.
create unique index batch_identity on ingest.batch (source, sha256)
  where file_records > 0;
create unique index batch_identity_empty_day on ingest.batch (source, sha256, business_date)
  where file_records = 0;
create index batch_source_date on ingest.batch (source, business_date);
comment on table ingest.batch is 'One delivered file. The same bytes are one batch forever (one per date for a header-only file).';
comment on column ingest.batch.file_records is 'Data records the loader counted in the file (header excluded).';
comment on column ingest.batch.columns is 'The staging column of each file position, as mapped by the loader from the header.';
comment on column ingest.batch.record_count is 'Control total from the manifest: records in the file.';
comment on column ingest.batch.control_total is 'Control total from the manifest: sum of gross_amount over all records.';

create table ingest.attempt (
  attempt_id     bigint generated always as identity primary key,
  batch_id       bigint not null references ingest.batch,
  attempt_no     integer not null check (attempt_no >= 1),
  run_id         uuid not null,
  host           text not null,
  pid            integer not null,
  db_user        text not null default session_user,
  backend_pid    integer not null default pg_catalog.pg_backend_pid(),
  state_at_start text not null,
  state_at_end   text,
  started_at     timestamptz not null default clock_timestamp(),
  finished_at    timestamptz,
  outcome        text check (outcome in ('published', 'already_published', 'quarantined',
                                         'waiting', 'failed', 'abandoned')),
  error_class    text,
  sqlstate       text,
  message        text,
  unique (batch_id, attempt_no),
  check ((finished_at is null) = (outcome is null))
);
comment on table ingest.attempt is 'Every run of the loader against a batch.';

create table ingest.batch_event (
  event_id    bigint generated always as identity primary key,
  batch_id    bigint not null references ingest.batch,
  attempt_id  bigint references ingest.attempt,
  from_state  text,
  to_state    text not null,
  at          timestamptz not null default clock_timestamp(),
  db_user     text not null default session_user,
  detail      jsonb
);
create index batch_event_batch on ingest.batch_event (batch_id);
comment on table ingest.batch_event is 'One row per state change of a batch (the durable checkpoints).';

create table ingest.source_watermark (
  source        text primary key references ingest.source,
  business_date date not null,
  batch_id      bigint not null references ingest.batch,
  advanced_at   timestamptz not null default now()
);
comment on table ingest.source_watermark is 'Latest business date up to which every date of the source is published.';

create table ingest.outbox (
  notification_id bigint generated always as identity primary key,
  batch_id        bigint references ingest.batch,
  kind            text not null check (kind in ('batch_published', 'batch_quarantined',
                                                'batch_reverted', 'deadline_missed')),
  dedupe_key      text not null unique,
  payload         jsonb not null,
  created_at      timestamptz not null default now(),
  dispatched_at   timestamptz,
  state           text not null default 'pending'
                  check (state in ('pending', 'dispatched', 'in_doubt', 'failed')),
  unique (batch_id, kind)
);
comment on table ingest.outbox is 'Notifications, written in the transaction that caused them; dispatched later, each effectively once.';

create table ingest.rejection_row (
  batch_id       bigint not null references ingest.batch,
  record_no      integer not null check (record_no >= 0),
  invoice_number text,
  rule           text not null,
  detail         text not null,
  created_at     timestamptz not null default now(),
  primary key (batch_id, record_no, rule)
);
comment on table ingest.rejection_row is 'Why a record (record_no >= 1) or the whole file (record_no 0) was rejected; rule codes in sql/ERRCODES.md.';

create table ingest.currency (
  code        text primary key check (code ~ '^[A-Z]{3}$'),
  minor_unit  smallint not null check (minor_unit between 0 and 4)
);
comment on table ingest.currency is 'ISO 4217 currencies and the decimals their amounts may carry.';
