-- reporting.invoice_as_of_batch: what reporting.invoice showed right after
-- the (latest) publication of a batch: reporting.invoice_as_of at the
-- moment it became visible (ingest.history_instant for the batch's
-- published_at; the published_at itself for a publication from before
-- migration 0031).  No rows for a batch that is not published (a
-- reverted batch's published_at is kept: what it showed then).
-- Errors: none.
create or replace function reporting.invoice_as_of_batch(p_batch_id bigint)
returns table (source text, invoice_number text, revision integer, document_type text,
               customer_id text, invoice_date date, due_date date, currency text,
               net_amount numeric, tax_amount numeric, gross_amount numeric,
               description text, batch_id bigint, published_at timestamptz)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_at timestamptz;
begin
  select coalesce(h.at, b.published_at) into v_at
  from ingest.batch as b
  left join ingest.history_instant as h on h.source = b.source and h.stamp = b.published_at
  where b.batch_id = p_batch_id;
  if v_at is null then
    return;
  end if;
  return query select * from reporting.invoice_as_of(v_at);
end;
$$;
comment on function reporting.invoice_as_of_batch(bigint) is
  E'What reporting.invoice showed right after a batch''s publication.\nErrors: none.';
revoke all on function reporting.invoice_as_of_batch(bigint) from public;
grant execute on function reporting.invoice_as_of_batch(bigint)
  to invoice_reader, invoice_loader, invoice_operator;
