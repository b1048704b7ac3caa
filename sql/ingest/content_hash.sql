-- ingest.content_hash: the content hash of a version, form 2
-- (core.invoice_version.content_hash_version = 2, cheaper than form 1).  Two
-- records of one (invoice_number, revision) are the same revision when their
-- hashes are equal.  SHA-256 of the ten content fields in this order, each
-- written
-- as <byte length>:<bytes>, or '-' for NULL:
--   status, document_type, customer_id, invoice_date, due_date, currency,
--   net_amount, tax_amount, gross_amount, description
-- with dates as YYYY-MM-DD and amounts at the currency's minor unit (as
-- validation rounds them: 5 EUR is 5.00).  Example:
--   6:ISSUED7:INVOICE5:C-00110:2026-11-28-3:EUR6:100.005:19.006:119.00-
-- The loader computes the same bytes in its pass over the file
-- (loader/src/io/record_rules.cpp); the e2e test
-- field_rules__loader_and_sql_agree_on_the_corpus checks that both agree.
-- Form 1 (versions published before migrations/0014) was the SHA-256 of
-- jsonb_build_array(...)::text, which costs a jsonb per record.
-- Errors: none.
create or replace function ingest.content_hash(
  p_status text, p_document_type text, p_customer_id text, p_invoice_date date,
  p_due_date date, p_currency text, p_net_amount numeric, p_tax_amount numeric,
  p_gross_amount numeric, p_description text)
returns bytea
language sql
immutable
parallel safe
set search_path = ''
as $$
  select pg_catalog.sha256(pg_catalog.convert_to(
    coalesce(pg_catalog.octet_length(p_status) || ':' || p_status, '-')
    || coalesce(pg_catalog.octet_length(p_document_type) || ':' || p_document_type, '-')
    || coalesce(pg_catalog.octet_length(p_customer_id) || ':' || p_customer_id, '-')
    || coalesce('10:' || pg_catalog.to_char(p_invoice_date, 'YYYY-MM-DD'), '-')
    || coalesce('10:' || pg_catalog.to_char(p_due_date, 'YYYY-MM-DD'), '-')
    || coalesce(pg_catalog.octet_length(p_currency) || ':' || p_currency, '-')
    || coalesce(pg_catalog.octet_length(p_net_amount::text) || ':' || p_net_amount::text, '-')
    || coalesce(pg_catalog.octet_length(p_tax_amount::text) || ':' || p_tax_amount::text, '-')
    || coalesce(pg_catalog.octet_length(p_gross_amount::text) || ':' || p_gross_amount::text, '-')
    || coalesce(pg_catalog.octet_length(p_description) || ':' || p_description, '-'),
    'UTF8'))
$$;
comment on function ingest.content_hash(text, text, text, date, date, text, numeric, numeric, numeric, text) is
  E'Content hash form 2 of a version (SHA-256 of length-prefixed canonical fields).\nErrors: none.';
revoke all on function ingest.content_hash(text, text, text, date, date, text, numeric, numeric, numeric, text) from public;
