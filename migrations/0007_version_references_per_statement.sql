-- 0007: core.invoice_version's references checked per statement, not per row,
-- for the load's speed (docs/PERFORMANCE.md).  Its four foreign keys checked
-- every inserted row with a lookup of its own: 15 s of the 25 s it took to
-- insert a million versions.  The same references are now checked once per
-- statement over the statement's rows, and a referenced row cannot be deleted
-- while a version names it: triggers core.check_invoice_version_refs and
-- core.keep_referenced_rows (sql/core/check_invoice_version_refs.sql),
-- SQLSTATE 23503 as a foreign key raises.
set local role invoice_owner;

alter table core.invoice_version
  drop constraint invoice_version_source_fkey,
  drop constraint invoice_version_currency_fkey,
  drop constraint invoice_version_batch_id_fkey,
  drop constraint invoice_version_superseded_by_batch_id_fkey;
