-- 0037: a rejected record keeps its fields.  The typed staging rows of a
-- batch are cleared as soon as it is quarantined or published, so the
-- fields of a rejected record were gone by the time a clerk asked for
-- them; a reject file (status --rejections) needs them for as long as the
-- rejection is kept.  Only rejected records pay for it: one array per
-- rejection row, the contract's twelve columns in their order, as
-- delivered for a record that failed a field rule and as typed for a
-- conflict (duplicate.conflict, revision.conflict).  NULL for a rejection
-- of the whole file and for rows written before this migration.
set local role invoice_owner;

alter table ingest.rejection_row add column fields text[];
comment on column ingest.rejection_row.fields is
  'The rejected record''s twelve fields in the contract''s column order (as delivered, or as typed for a conflict); NULL for the whole file (record_no 0) and for rows older than migration 0037.';

-- Operators read rejections through this view; it shows the fields too.
create or replace view ingest.rejection as
select r.batch_id, r.record_no, r.invoice_number, r.rule, r.detail, r.fields
from ingest.rejection_row as r;
