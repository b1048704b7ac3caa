-- ingest.close_absent_invoices: the closure by absence, in the write of a
-- full extract (ingest.write_batch, after the merge, in its transaction):
-- each invoice ingest.absent_invoices names gives way to the batch as an
-- amended one would, its current version superseded by the batch
-- (superseded_by_batch_id, superseded_at = the write's stamp), with no
-- version of the batch taking its place, and one row of
-- core.invoice_closure (the closing version) records the batch that
-- noticed the absence.  So the invoice leaves reporting.invoice at the
-- publication (until then, a written batch's supersessions are not seen),
-- reporting.invoice_version shows the version closed_by_absence, and the
-- revert of the batch restores it like any version the batch superseded.
-- Returns the number closed and their gross per currency, as jsonb
-- {closed_by_absence, closed_by_currency}; the file's reconciliation does
-- not count them (they are no record of the file).
-- Internal (write_batch): no EXECUTE grants.
-- Errors: none.
create or replace function ingest.close_absent_invoices(p_batch_id bigint, p_source text,
                                                        p_now timestamptz)
returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  v_out jsonb;
begin
  with closed as (
    update core.invoice_version as cv
       set is_current = false, superseded_by_batch_id = p_batch_id, superseded_at = p_now
      from ingest.absent_invoices(p_batch_id, p_source) as a
     where cv.source = p_source and cv.invoice_number = a.invoice_number collate "C"
       and cv.revision = a.revision and cv.is_current
    returning cv.invoice_number, cv.revision, cv.currency, cv.gross_amount),
  kept as (
    insert into core.invoice_closure (source, invoice_number, revision, batch_id, closed_at)
    select p_source, c.invoice_number, c.revision, p_batch_id, p_now from closed as c
    returning 1)
  select pg_catalog.jsonb_build_object(
           'closed_by_absence', (select count(*) from kept),
           'closed_by_currency', coalesce((select pg_catalog.jsonb_object_agg(g.currency, g.gross)
                                           from (select c.currency, sum(c.gross_amount) as gross
                                                 from closed as c group by c.currency) as g),
                                          '{}'::jsonb))
    into v_out;
  return v_out;
end;
$$;
comment on function ingest.close_absent_invoices(bigint, text, timestamptz) is
  E'Close by absence the current invoices a full extract does not list (superseded by the batch, one core.invoice_closure row each).\nErrors: none.';
revoke all on function ingest.close_absent_invoices(bigint, text, timestamptz) from public;
