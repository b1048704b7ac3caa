-- 0026: a failing record's twelve fields as in the file travel in one
-- column of staging.invoice_valid, raw_fields text[], instead of twelve
-- text columns raw_* (migrations/0014).  A record that passes every rule,
-- nearly all of them, sent twelve NULLs in every COPY row, and the server
-- reads each field's length and calls its receive function, NULL or not:
-- a million typed rows COPYed from a file into a table with the twelve
-- columns took 1.23 s, with the one array 1.10 s, and 1.16 s into a table
-- whose twelve columns had been dropped (docs/PERFORMANCE.md, "Twelve NULL
-- columns in every row").  So the table is made anew rather than altered:
-- dropped columns stay in every row PostgreSQL writes.
--
-- raw_fields[1..12] are the fields in the contract's column order
-- (invoice_number, revision, status, document_type, customer_id,
-- invoice_date, due_date, currency, net_amount, tax_amount, gross_amount,
-- description), each as COPY (format csv) stores it (NULL for an unquoted
-- empty field); NULL for a record that passes.  Typed rows staged before
-- this migration (a batch staged by the previous release and not yet
-- validated) keep theirs, moved into the array.
--
-- Everything else of the table is as it was: its columns, defaults and
-- check, unlogged, no insert-triggered autovacuum (0017), the BRIN batch
-- index (0014), the scope trigger (0014), INSERT for invoice_loader.
set local role invoice_owner;

lock table staging.invoice_valid in access exclusive mode;
alter table staging.invoice_valid rename to invoice_valid_0025;
alter index staging.invoice_valid_batch rename to invoice_valid_0025_batch;
alter table staging.invoice_valid_0025
  rename constraint invoice_valid_complete to invoice_valid_0025_complete;

create unlogged table staging.invoice_valid (
  batch_id       bigint not null,
  record_no      integer not null,
  invoice_number text,
  revision       integer,
  status         text,
  document_type  text,
  customer_id    text,
  invoice_date   date,
  due_date       date,
  currency       text,
  net_amount     numeric,
  tax_amount     numeric,
  gross_amount   numeric,
  description    text,
  content_hash   bytea,
  is_duplicate   boolean not null default false,
  rules          integer not null default 0,
  raw_fields     text[],
  -- a record that passed every rule is complete
  constraint invoice_valid_complete check (
    rules <> 0 or (invoice_number is not null and revision is not null and status is not null
                   and document_type is not null and customer_id is not null
                   and invoice_date is not null and currency is not null
                   and net_amount is not null and tax_amount is not null
                   and gross_amount is not null and content_hash is not null))
) with (autovacuum_vacuum_insert_threshold = -1);

comment on table staging.invoice_valid is
  'Typed records of a batch: from the loader''s COPY (rules = failed field rules, 0 = passed; raw_fields the fields of a failed record as in the file) or from validation''s SQL path; after validation only accepted records (rules = 0) remain; is_duplicate marks an identical repeat of an earlier record of the same file.';
comment on column staging.invoice_valid.rules is
  'Bits (ingest.field_rule) of the field rules the record fails; 0 = it passes every one.';
comment on column staging.invoice_valid.raw_fields is
  'A failed record''s twelve fields in the contract''s column order, as COPY (format csv) stores them (NULL for an unquoted empty field); NULL for a record that passes.';

-- The rows staged before (the trigger of the new table is not there yet:
-- the owner's insert would pass it anyway).
insert into staging.invoice_valid (batch_id, record_no, invoice_number, revision, status,
                                   document_type, customer_id, invoice_date, due_date, currency,
                                   net_amount, tax_amount, gross_amount, description,
                                   content_hash, is_duplicate, rules, raw_fields)
select o.batch_id, o.record_no, o.invoice_number, o.revision, o.status, o.document_type,
       o.customer_id, o.invoice_date, o.due_date, o.currency, o.net_amount, o.tax_amount,
       o.gross_amount, o.description, o.content_hash, o.is_duplicate, o.rules,
       case when o.rules <> 0 then
         array[o.raw_invoice_number, o.raw_revision, o.raw_status, o.raw_document_type,
               o.raw_customer_id, o.raw_invoice_date, o.raw_due_date, o.raw_currency,
               o.raw_net_amount, o.raw_tax_amount, o.raw_gross_amount, o.raw_description]
       end
from staging.invoice_valid_0025 as o;

drop table staging.invoice_valid_0025;

create index invoice_valid_batch on staging.invoice_valid using brin (batch_id);
create trigger invoice_valid_scope
  after insert on staging.invoice_valid
  referencing new table as staged
  for each statement execute function ingest.check_typed_staging_scope();
grant insert on staging.invoice_valid to invoice_loader;
