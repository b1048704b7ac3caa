-- 0028: staging.invoice_valid becomes a table partitioned by batch (list
-- partitions on batch_id), so that a big batch's typed rows go into a
-- table of their own, with neither the BRIN batch index nor the scope
-- trigger's transition table, which together cost about a third of the
-- server's time in the COPY of a million rows (docs/PERFORMANCE.md,
-- "What the COPY spends per row" and "Typed staging, a partition per big
-- batch").
--
-- The table as it was becomes the DEFAULT partition,
-- staging.invoice_valid_shared, with its rows, its BRIN index, its scope
-- trigger and the loader's INSERT: the typed rows of every batch that has
-- no partition of its own (a small batch, or one staged by validation's
-- SQL path) go there, as before.  A batch of 100,000 records or more gets
-- staging.invoice_valid_b<batch_id> (ingest.typed_staging, which the
-- loader calls before its COPY): unlogged, a CHECK pinning the batch, a
-- statement trigger checking the scope once (not per row), INSERT for the
-- loader.  Its publication or quarantine drops it (or empties it, and a
-- sweep drops it later: ingest.clear_typed_staging,
-- ingest.sweep_typed_staging).
--
-- Readers are unchanged: they read staging.invoice_valid with the batch's
-- id, and the planner reads just that batch's partition (or the shared
-- one).  The parent takes no INSERT from the loader: it writes into the
-- table ingest.typed_staging names.
set local role invoice_owner;

lock table staging.invoice_valid in access exclusive mode;
alter table staging.invoice_valid rename to invoice_valid_shared;
alter index staging.invoice_valid_batch rename to invoice_valid_shared_batch;

-- the same columns (the invoice number's COLLATE "C" of 0027 too),
-- defaults, NOT NULLs and check (by its name, invoice_valid_complete,
-- which the ATTACH below matches)
create table staging.invoice_valid
  (like staging.invoice_valid_shared including defaults including constraints)
  partition by list (batch_id);

alter table staging.invoice_valid attach partition staging.invoice_valid_shared default;

comment on table staging.invoice_valid is
  'Typed records of a batch, partitioned by batch: from the loader''s COPY (rules = failed field rules, 0 = passed; raw_fields the fields of a failed record as in the file) or from validation''s SQL path; after validation only accepted records (rules = 0) remain; is_duplicate marks an identical repeat of an earlier record of the same file.';
comment on table staging.invoice_valid_shared is
  'Typed records of the batches without a partition of their own (fewer than 100,000 records, or staged by validation''s SQL path): the DEFAULT partition of staging.invoice_valid.';
comment on column staging.invoice_valid.rules is
  'Bits (ingest.field_rule) of the field rules the record fails; 0 = it passes every one.';
comment on column staging.invoice_valid.raw_fields is
  'A failed record''s twelve fields in the contract''s column order, as COPY (format csv) stores them (NULL for an unquoted empty field); NULL for a record that passes.';

-- ingest.analyze_staging takes the batch (sql/ingest/analyze_staging.sql
-- creates the new signature): it analyzes that batch's table, not the
-- parent, whose ANALYZE would sample every partition.
drop function if exists ingest.analyze_staging(text);
