-- ingest.typed_fields: a typed staging row's twelve fields as text, in the
-- contract's column order, as a rejection keeps them
-- (ingest.rejection_row.fields) for a record that passed every field rule
-- and was rejected later (duplicate.conflict, revision.conflict).
-- Internal: no EXECUTE grants.
create or replace function ingest.typed_fields(p_row staging.invoice_valid)
returns text[]
language sql
stable
set search_path = ''
as $$
  select array[p_row.invoice_number, p_row.revision::text, p_row.status, p_row.document_type,
               p_row.customer_id, pg_catalog.to_char(p_row.invoice_date, 'YYYY-MM-DD'),
               pg_catalog.to_char(p_row.due_date, 'YYYY-MM-DD'),
               p_row.currency, p_row.net_amount::text, p_row.tax_amount::text,
               p_row.gross_amount::text, p_row.description]
$$;
comment on function ingest.typed_fields(staging.invoice_valid) is
  'A typed staging row''s twelve fields as text, in the contract''s order (a conflict''s rejection row keeps them).';
revoke all on function ingest.typed_fields(staging.invoice_valid) from public;
