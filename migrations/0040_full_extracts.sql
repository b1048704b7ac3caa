-- 0040: full extracts.  A source whose files list every open invoice as of
-- the business date (extract_kind = 'full') closes, in the publication of such
-- a file, each of its current invoices the file does not list: the
-- invoice's current version is superseded by the batch, with no version of
-- the batch taking its place, and a row of core.invoice_closure (the
-- closing version: the batch that noticed the absence, the version it
-- closed, when) says why.  Since a closure is a supersession by the batch,
-- the revert of the batch restores the invoice like any version the batch
-- superseded, and reporting.invoice_as_of reads it from superseded_at like
-- any other.  A file that would close more than max_absent_share of the
-- source's current invoices is quarantined (extract.absent_share) unless
-- the replay that runs it again allows it (allow_absent_share, recorded
-- with the replay in ingest.operator_action).
set local role invoice_owner;

alter table ingest.source
  add column extract_kind text not null default 'delta'
    check (extract_kind in ('delta', 'full')),
  add column max_absent_share numeric not null default 0.10
    check (max_absent_share >= 0 and max_absent_share <= 1);
comment on column ingest.source.extract_kind is
  'delta: a file carries changes only; full: a file lists every open invoice of the source as of its business date, and a current invoice it does not list is closed by absence in its publication.';
comment on column ingest.source.max_absent_share is
  'With extract full: the largest share of the source''s current invoices one file may close by absence (a plain decimal from 0 to 1); more quarantines the file (extract.absent_share).';

alter table ingest.operator_action
  add column allow_absent_share boolean not null default false;
comment on column ingest.operator_action.allow_absent_share is
  'For a replay: the operator allowed the replayed file to close more than the source''s max_absent_share of its current invoices (replay --allow-absent-share).';

create table core.invoice_closure (
  closure_id         bigint generated always as identity primary key,
  source             text not null,
  invoice_number     text collate "C" not null,
  revision           integer not null,
  batch_id           bigint not null references ingest.batch,
  closed_at          timestamptz not null,
  reverted_at        timestamptz,
  reverted_by_action bigint references ingest.operator_action,
  check ((reverted_at is null) = (reverted_by_action is null))
);
-- A batch closes a version once per publication: again only after the
-- revert of the earlier one (a replay of a reverted batch).
create unique index invoice_closure_standing
  on core.invoice_closure (source, invoice_number, revision, batch_id)
  where reverted_at is null;
create index invoice_closure_batch on core.invoice_closure (batch_id);
comment on table core.invoice_closure is
  'Closures by absence: the version of an invoice a full extract (batch_id) did not list, closed (superseded by that batch, nothing in its place) at closed_at; reverted_at and reverted_by_action when the revert of the batch restored it.';
revoke all on core.invoice_closure from public;
grant select on core.invoice_closure to invoice_operator;

create or replace view ingest.source_overview as
select s.source, s.policy, s.max_rejected_share, s.start_date, s.allow_unknown_columns,
       s.require_control_totals, s.created_at, s.updated_at, s.deadline, s.locked_through,
       s.format_version,
       (select f.format from ingest.source_format as f
        where f.source = s.source and f.version = s.format_version) as file_format,
       s.extract_kind, s.max_absent_share
from ingest.source as s;

-- The closing version, as readers see it: a version superseded by a
-- published batch that closed it by absence says so.
create or replace view reporting.invoice_version as
select v.source, v.invoice_number, v.revision, v.status, v.document_type, v.customer_id,
       v.invoice_date, v.due_date, v.currency, v.net_amount, v.tax_amount, v.gross_amount,
       v.description,
       v.is_current
         or coalesce(v.superseded_by_batch_id
                       = any (array(select p.batch_id from ingest.pending_publication as p)),
                     false) as is_current,
       v.batch_id, v.published_at,
       case when v.superseded_by_batch_id
                   = any (array(select p.batch_id from ingest.pending_publication as p))
            then null else v.superseded_by_batch_id end as superseded_by_batch_id,
       case when v.superseded_by_batch_id
                   = any (array(select p.batch_id from ingest.pending_publication as p))
            then null else v.superseded_at end as superseded_at,
       coalesce(v.superseded_by_batch_id
                  <> all (array(select p.batch_id from ingest.pending_publication as p))
                and exists (select from core.invoice_closure as c
                            where c.source = v.source and c.invoice_number = v.invoice_number
                              and c.revision = v.revision
                              and c.batch_id = v.superseded_by_batch_id),
                false) as closed_by_absence
from core.invoice_version as v
where v.batch_id <> all (array(select p.batch_id from ingest.pending_publication as p));
comment on column reporting.invoice_version.closed_by_absence is
  'The version left the current view because a full extract (superseded_by_batch_id) did not list the invoice; no version of that batch replaced it.';

-- replay_batch takes the override (sql/ingest/replay_batch.sql creates it
-- anew with the third argument).
drop function if exists ingest.replay_batch(bigint, text);
