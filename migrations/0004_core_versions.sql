-- 0004: every published version of every invoice.  Rows are written only
-- by ingest.publish_batch, in the publishing transaction, so consumers see
-- whole publications or nothing (MVCC), with no DDL and no view swap.
set local role invoice_owner;

create table core.invoice_version (
  source                 text not null references ingest.source,
  invoice_number         text not null,
  revision               integer not null check (revision >= 0),
  status                 text not null check (status in ('ISSUED', 'VOID')),
  document_type          text not null check (document_type in ('INVOICE', 'CREDIT_NOTE')),
  customer_id            text not null,
  invoice_date           date not null,
  due_date               date check (due_date >= invoice_date),
  currency               text not null references ingest.currency,
  net_amount             numeric not null,
  tax_amount             numeric not null,
  gross_amount           numeric not null,
  description            text,
  content_hash           bytea not null,
  batch_id               bigint not null references ingest.batch,
  record_no              integer not null,
  is_current             boolean not null,
  supersedes_revision    integer,
  superseded_by_batch_id bigint references ingest.batch,
  superseded_at          timestamptz,
  published_at           timestamptz not null,
  primary key (source, invoice_number, revision),
  check (net_amount + tax_amount = gross_amount),
  check (document_type <> 'INVOICE' or gross_amount >= 0),
  check (document_type <> 'CREDIT_NOTE' or gross_amount <= 0),
  check (is_current = (superseded_by_batch_id is null))
);
-- No business key can ever have two current versions.
create unique index invoice_version_one_current
  on core.invoice_version (source, invoice_number) where is_current;
create index invoice_version_batch on core.invoice_version (batch_id);
create index invoice_version_superseded_by on core.invoice_version (superseded_by_batch_id)
  where superseded_by_batch_id is not null;

comment on table core.invoice_version is 'All published versions; the business key is (source, invoice_number), a version is (key, revision).';
comment on column core.invoice_version.is_current is 'The winning (highest published) revision of its key; VOID winners are current but hidden from reporting.invoice.';
comment on column core.invoice_version.supersedes_revision is 'The revision that was current before this version won (NULL for a new invoice or a version that never won).';
comment on column core.invoice_version.superseded_by_batch_id is 'The batch whose publication made this version not current (for a late revision: the batch of the winner at arrival).';
