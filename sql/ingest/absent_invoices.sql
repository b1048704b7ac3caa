-- ingest.absent_invoices: the invoices a full extract closes by absence:
-- the source's current invoices (current version ISSUED: what
-- reporting.invoice shows; a current VOID is closed already) that the
-- batch's file does not list.  A file lists an invoice when one of its
-- records carries the invoice number: an accepted record (its typed row in
-- staging.invoice_valid) or a rejected one (ingest.rejection_row: under the
-- partial policy the file still says the invoice is open, so a bad record
-- never closes it).  Read before the merge (the guard) and by the closure
-- after it: the merge changes only listed keys, so both read the same set.
-- Cost: the source's current versions (partial index
-- invoice_version_one_current) against the batch's rows, hash anti-joins.
-- Internal (write_batch): no EXECUTE grants.
-- Errors: none.
create or replace function ingest.absent_invoices(p_batch_id bigint, p_source text)
returns table (invoice_number text, revision integer, invoice_date date,
               currency text, gross_amount numeric)
language plpgsql
stable
set search_path = ''
as $$
begin
  return query
  select cv.invoice_number::text, cv.revision, cv.invoice_date, cv.currency, cv.gross_amount
  from core.invoice_version as cv
  where cv.source = p_source and cv.is_current and cv.status = 'ISSUED'
    and cv.batch_id <> p_batch_id
    and not exists (select from staging.invoice_valid as v
                    where v.batch_id = p_batch_id and v.invoice_number = cv.invoice_number)
    and not exists (select from ingest.rejection_row as r
                    where r.batch_id = p_batch_id and r.record_no > 0
                      and r.invoice_number collate "C" = cv.invoice_number)
  order by cv.invoice_number;
end;
$$;
comment on function ingest.absent_invoices(bigint, text) is
  E'The current invoices of a source that a full extract (the batch) does not list.\nErrors: none.';
revoke all on function ingest.absent_invoices(bigint, text) from public;
