-- 0014: the loader decides the per-record field rules in its own pass over
-- the file and COPYs typed canonical rows straight into
-- staging.invoice_valid, for the load's speed (docs/PERFORMANCE.md); the
-- content hash gets a cheaper canonical form, version 2.
--
-- ingest.field_rule: each per-record field rule once, with the bit the
-- loader sets for it in staging.invoice_valid.rules.  The database is the
-- authority: the loader reads this table at the start of staging and maps
-- its checks by rule name (a rule it decides that is missing here stops
-- it).  The SQL path (ingest.failing_records, for staging loaded into
-- staging.invoice_line without the loader) decides the same rules.
--
-- staging.invoice_valid now takes one row per record from the loader's
-- COPY: rules = 0 for a record that passes every field rule (typed,
-- canonical values, content hash), otherwise the failed rules' bits, the
-- values that could be read, and the twelve fields exactly as they were in
-- the file (raw_*, as COPY (format csv) stores them in invoice_line), from
-- which validation writes the rejection rows.  Validation deletes the
-- rejected ones; what publication reads is rules = 0 rows, as before.
-- Rows only for a received batch whose runner lock the writing session
-- holds, as for invoice_line (IV221); the SQL path's own insert, inside
-- ingest.validate_batch, runs as the owner and is let through.
--
-- ingest.rejection_row.gross_amount: the record's gross_amount when it was
-- readable, so that publication's second reconciliation (accepted +
-- rejected = control total) no longer needs the raw rows, which the
-- loader's path does not write.
--
-- content_hash_version: 1 = sha256 of jsonb_build_array(...)::text (the
-- versions published before this migration), 2 = ingest.content_hash.
-- Old and new coexist: the history read for revision conflicts
-- (ingest.reject_revision_conflicts) hashes a version 1 row anew, so a
-- resent invoice still counts as unchanged.  No rewrite of history.
set local role invoice_owner;

create table ingest.field_rule (
  rule text primary key,
  bit  smallint not null unique check (bit between 0 and 30)
);
comment on table ingest.field_rule is
  'Per-record field rules (sql/ERRCODES.md) and their bit in staging.invoice_valid.rules.';
insert into ingest.field_rule (rule, bit) values
  ('invoice_number.missing', 0), ('invoice_number.format', 1),
  ('revision.missing', 2), ('revision.format', 3),
  ('status.missing', 4), ('status.value', 5),
  ('document_type.missing', 6), ('document_type.value', 7),
  ('customer_id.missing', 8),
  ('invoice_date.missing', 9), ('invoice_date.format', 10),
  ('invoice_date.after_business_date', 11),
  ('due_date.format', 12), ('due_date.before_invoice_date', 13),
  ('currency.missing', 14), ('currency.unknown', 15),
  ('net_amount.missing', 16), ('net_amount.format', 17), ('net_amount.precision', 18),
  ('tax_amount.missing', 19), ('tax_amount.format', 20), ('tax_amount.precision', 21),
  ('gross_amount.missing', 22), ('gross_amount.format', 23), ('gross_amount.precision', 24),
  ('amounts.sum', 25), ('gross_amount.sign', 26);
grant select on ingest.field_rule to invoice_loader, invoice_operator;

alter table staging.invoice_valid
  add column rules integer not null default 0,
  add column raw_invoice_number text, add column raw_revision text,
  add column raw_status text, add column raw_document_type text,
  add column raw_customer_id text, add column raw_invoice_date text,
  add column raw_due_date text, add column raw_currency text,
  add column raw_net_amount text, add column raw_tax_amount text,
  add column raw_gross_amount text, add column raw_description text,
  alter column invoice_number drop not null,
  alter column revision drop not null,
  alter column status drop not null,
  alter column document_type drop not null,
  alter column customer_id drop not null,
  alter column invoice_date drop not null,
  alter column currency drop not null,
  alter column net_amount drop not null,
  alter column tax_amount drop not null,
  alter column gross_amount drop not null,
  alter column content_hash drop not null,
  alter column is_duplicate set default false,
  -- a record that passed every rule is complete
  add constraint invoice_valid_complete check (
    rules <> 0 or (invoice_number is not null and revision is not null and status is not null
                   and document_type is not null and customer_id is not null
                   and invoice_date is not null and currency is not null
                   and net_amount is not null and tax_amount is not null
                   and gross_amount is not null and content_hash is not null));
comment on table staging.invoice_valid is
  'Typed records of a batch: from the loader''s COPY (rules = failed field rules, 0 = passed; raw_* the fields of a failed record as in the file) or from validation''s SQL path; after validation only accepted records (rules = 0) remain; is_duplicate marks an identical repeat of an earlier record of the same file.';
comment on column staging.invoice_valid.rules is
  'Bits (ingest.field_rule) of the field rules the record fails; 0 = it passes every one.';
grant insert on staging.invoice_valid to invoice_loader;
-- The typed rows now arrive by COPY, as whole pages per batch: a BRIN index
-- on batch_id finds them, as it finds the raw rows (migrations/0008), at a
-- fraction of the B-tree's cost during COPY (a million-record COPY took
-- 1.96 s with the B-tree, 1.69 s with BRIN).  ingest.analyze_staging
-- summarizes it before each step, which also repairs the empty index a
-- crash leaves of an unlogged table; rows validation's SQL path writes
-- after that are in ranges not summarized yet, which a BRIN scan always
-- reads: correct, and summarized before publication.
drop index staging.invoice_valid_batch;
create index invoice_valid_batch on staging.invoice_valid using brin (batch_id);

alter table ingest.rejection_row add column gross_amount numeric;
comment on column ingest.rejection_row.gross_amount is
  'The rejected record''s gross_amount when it was readable (a plain decimal), for the second reconciliation.';

alter table core.invoice_version
  add column content_hash_version smallint not null default 1
    check (content_hash_version in (1, 2));
alter table core.invoice_version_reverted
  add column content_hash_version smallint not null default 1
    check (content_hash_version in (1, 2));
comment on column core.invoice_version.content_hash_version is
  '1: sha256 of jsonb_build_array(...)::text (before migration 0014); 2: ingest.content_hash.';

-- The trigger's function (sql/ingest/check_typed_staging_scope.sql; a
-- placeholder until sql/ replaces it, as in migrations/0011).
do $do$
begin
  if pg_catalog.to_regprocedure('ingest.check_typed_staging_scope()') is null then
    create function ingest.check_typed_staging_scope() returns trigger language plpgsql
      set search_path = '' as $b$
    begin
      raise exception 'ingest.check_typed_staging_scope is a placeholder: migrate applies sql/ after the migrations'
        using errcode = 'feature_not_supported';
    end
    $b$;
    revoke all on function ingest.check_typed_staging_scope() from public;
  end if;
end
$do$;
create or replace trigger invoice_valid_scope
  after insert on staging.invoice_valid
  referencing new table as staged
  for each statement execute function ingest.check_typed_staging_scope();

-- A batch validated before this migration and published after it: its
-- rejection rows get the gross amounts publication now reads from them
-- (from its raw rows, which that validation read; a plain decimal as
-- ingest.is_plain_decimal has it).
update ingest.rejection_row as r
   set gross_amount = l.gross_amount::numeric
  from ingest.batch as b, staging.invoice_line as l
 where b.batch_id = r.batch_id and b.state = 'validated' and r.record_no > 0
   and l.batch_id = r.batch_id and l.record_no = r.record_no
   and l.gross_amount ~ '^-?[0-9]+(\.[0-9]+)?$'
   and length(split_part(ltrim(l.gross_amount, '-'), '.', 1)) <= 18;

-- What history looked like when validation read it for the batch's keys
-- (ingest.history_stamp: the source's published and reverted events so
-- far).  Publication reads history again under the source's publication
-- lock only when the stamp has moved since: a publication or revert of the
-- source committed in between (otherwise the read would find what
-- validation found).
alter table ingest.batch add column history_stamp bigint;
comment on column ingest.batch.history_stamp is
  'ingest.history_stamp of the source just before validation read history for this batch''s keys.';
