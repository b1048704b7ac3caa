-- 0024: write, audit, then publish, so that the publishing transaction is
-- short and nothing the merge finds can fail it.  A batch's versions may be
-- written, superseding what they replace, and reconciled in a transaction
-- of their own (ingest.write_batch) while the batch is listed here; the
-- publishing transaction (ingest.publish_batch) then only deletes its row,
-- moves the watermark, writes the outbox row and sets the state.  While a
-- batch is listed, what consumers read skips its versions and still shows
-- the versions it superseded, exactly as before it was written
-- (bench/prototypes/write_ahead.sql measured the readers' filter: a full
-- read about 5-10% slower, a lookup by key a few microseconds;
-- docs/PERFORMANCE.md).
-- One row per source at most (the primary key): a second batch of the
-- source is written only after the first is published, and nothing else
-- changes the source's versions meanwhile (ingest.revert_batch refuses,
-- IV219), so a listed batch is always publishable.  Both keys are
-- enforced here, not by convention.
set local role invoice_owner;

create table ingest.pending_publication (
  source       text primary key references ingest.source,
  batch_id     bigint not null unique references ingest.batch,
  attempt_id   bigint references ingest.attempt,
  published_at timestamptz not null,
  written_at   timestamptz not null default pg_catalog.clock_timestamp(),
  counts       jsonb not null
);
comment on table ingest.pending_publication is
  'A batch whose versions are written and reconciled, not yet published (at most one per source); reporting.* skips its versions until its publication deletes the row.';
comment on column ingest.pending_publication.published_at is
  'The time its versions carry (published_at, superseded_at): the clock when the write took the source''s publication lock; the batch''s published_at once published.';
comment on column ingest.pending_publication.counts is
  'The merge counts the write reconciled; the publication records them (ingest.batch.merge_counts, the outbox row).';
grant select on ingest.pending_publication to invoice_loader, invoice_operator;

-- What consumers read: the versions of no listed batch, and what a listed
-- batch superseded as current.  The pending batches are read once per query
-- (ARRAY(...) initplans), which keeps the full read parallel.
create or replace view reporting.invoice as
select v.source, v.invoice_number, v.revision, v.document_type, v.customer_id,
       v.invoice_date, v.due_date, v.currency, v.net_amount, v.tax_amount,
       v.gross_amount, v.description, v.batch_id, v.published_at
from core.invoice_version as v
where v.status = 'ISSUED'
  and v.batch_id <> all (array(select p.batch_id from ingest.pending_publication as p))
  and (v.is_current
       or v.superseded_by_batch_id = any (array(select p.batch_id from ingest.pending_publication as p)));

create or replace view reporting.invoice_version as
select v.source, v.invoice_number, v.revision, v.status, v.document_type, v.customer_id,
       v.invoice_date, v.due_date, v.currency, v.net_amount, v.tax_amount,
       v.gross_amount, v.description,
       v.is_current
       or coalesce(v.superseded_by_batch_id
                     = any (array(select p.batch_id from ingest.pending_publication as p)), false)
         as is_current,
       v.batch_id, v.published_at,
       case when v.superseded_by_batch_id
                   = any (array(select p.batch_id from ingest.pending_publication as p))
            then null else v.superseded_by_batch_id end as superseded_by_batch_id,
       case when v.superseded_by_batch_id
                   = any (array(select p.batch_id from ingest.pending_publication as p))
            then null else v.superseded_at end as superseded_at
from core.invoice_version as v
where v.batch_id <> all (array(select p.batch_id from ingest.pending_publication as p));
