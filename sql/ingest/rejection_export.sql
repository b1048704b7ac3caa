-- ingest.rejection_export: every rejection of a batch, in record order,
-- with the record's twelve fields, for `status --batch ID --rejections` (a
-- reject file, like pgloader's): ingest.rejection_row.fields, the
-- contract's columns in their order, as delivered for a record that failed
-- a field rule and as typed for a conflict; NULL for a rejection of the
-- whole file (record_no 0) and for rows written before migration 0037.
-- Plain SQL over the operator view ingest.rejection, so that the planner inlines it
-- and a caller's cursor streams any number of rows (a PL/pgSQL function
-- would collect them all first); SECURITY INVOKER: the caller's rights.
-- Errors: none (an unknown batch has no rows: the caller checks it).
create or replace function ingest.rejection_export(p_batch_id bigint)
returns table (record_no integer, invoice_number text, rule text, detail text,
               fields text[])
language sql
stable
as $$
  select r.record_no, r.invoice_number, r.rule, r.detail, r.fields
  from ingest.rejection as r
  where r.batch_id = p_batch_id
  order by r.record_no, r.rule
$$;
comment on function ingest.rejection_export(bigint) is
  'Every rejection of a batch in record order, with the record''s fields (status --rejections).';
revoke all on function ingest.rejection_export(bigint) from public;
grant execute on function ingest.rejection_export(bigint) to invoice_loader, invoice_operator;
