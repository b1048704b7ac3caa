-- 0003: staging.  invoice_line is the COPY target: text only, so that no
-- value is rounded or guessed before validation (DESIGN.md decision 2).
-- invoice_valid holds the typed rows validation accepted, for publication.
-- Both are logged tables: a crash can never empty them behind a checkpoint.
set local role invoice_owner;

create table staging.invoice_line (
  batch_id       bigint not null,
  record_no      integer not null check (record_no >= 1),
  invoice_number text,
  revision       text,
  status         text,
  document_type  text,
  customer_id    text,
  invoice_date   text,
  due_date       text,
  currency       text,
  net_amount     text,
  tax_amount     text,
  gross_amount   text,
  description    text,
  extra_1 text, extra_2 text, extra_3 text, extra_4 text,
  extra_5 text, extra_6 text, extra_7 text, extra_8 text,
  extra_9 text, extra_10 text, extra_11 text, extra_12 text,
  extra_13 text, extra_14 text, extra_15 text, extra_16 text,
  primary key (batch_id, record_no)
);
comment on table staging.invoice_line is 'Raw records of each batch as COPY delivered them (empty unquoted = NULL).';

create table staging.invoice_valid (
  batch_id       bigint not null,
  record_no      integer not null,
  invoice_number text not null,
  revision       integer not null,
  status         text not null,
  document_type  text not null,
  customer_id    text not null,
  invoice_date   date not null,
  due_date       date,
  currency       text not null,
  net_amount     numeric not null,
  tax_amount     numeric not null,
  gross_amount   numeric not null,
  description    text,
  content_hash   bytea not null,
  is_duplicate   boolean not null,
  primary key (batch_id, record_no)
);
comment on table staging.invoice_valid is 'Typed, accepted records of a validated batch; is_duplicate marks an identical repeat of an earlier record of the same file.';

grant insert on staging.invoice_line to invoice_loader;
