-- ingest.failing_records: the field rules of the input file
-- (docs/reference/input-file.md) over a staged batch: every record that fails
-- one, with the rules it fails (codes in sql/ERRCODES.md).  Pattern before
-- cast: a value is cast only when its pattern passed, so no cast rounds,
-- guesses or raises.
-- Shaped for speed, which is why it is written as it is:
--   - RETURN QUERY: PL/pgSQL runs its query with parallel workers (SELECT
--     ... INTO and INSERT ... SELECT never do);
--   - the patterns and casts are all in the innermost subquery, the part
--     the workers run; each is evaluated once per record (OFFSET 0 keeps the
--     levels apart; flattened, PostgreSQL would recompute an expression
--     wherever it is used) and a flag is read off its typed value (a date
--     that passed its pattern is not NULL);
--   - no counted repetitions ({1,64}) in the patterns: PostgreSQL's regex
--     engine pays for them on every row (6 s per million invoice numbers).
-- Internal: no EXECUTE grants.
create or replace function ingest.failing_records(p_batch_id bigint, p_business_date date)
returns table (record_no integer, rules text[])
language plpgsql
stable
set search_path = ''
as $$
begin
  return query
  select y.record_no,
         array_remove(array[
           y.r_invoice_number, y.r_revision, y.r_status, y.r_document_type, y.r_customer_id,
           y.r_invoice_date, y.r_due_date, y.r_currency, y.r_net_amount, y.r_tax_amount,
           y.r_gross_amount, y.r_sum, y.r_sign], null)
  from (
    select v.record_no,
      case when v.invoice_number = '' then 'invoice_number.missing'
           when not v.inv_ok then 'invoice_number.format' end as r_invoice_number,
      case when v.revision = '' then 'revision.missing'
           when not v.rev_ok then 'revision.format' end as r_revision,
      case when v.status = '' then 'status.missing'
           when v.status not in ('ISSUED', 'VOID') then 'status.value' end as r_status,
      case when v.document_type = '' then 'document_type.missing'
           when not v.doc_ok then 'document_type.value' end as r_document_type,
      case when v.customer_id = '' then 'customer_id.missing' end as r_customer_id,
      case when v.invoice_date = '' then 'invoice_date.missing'
           when v.idate is null then 'invoice_date.format'
           when v.idate > p_business_date then 'invoice_date.after_business_date'
           end as r_invoice_date,
      case when v.due_date = '' then null
           when v.ddate is null then 'due_date.format'
           when v.ddate < v.idate then 'due_date.before_invoice_date' end as r_due_date,
      case when v.currency = '' then 'currency.missing'
           when v.minor_unit is null then 'currency.unknown' end as r_currency,
      case when v.net_amount = '' then 'net_amount.missing'
           when v.net is null then 'net_amount.format'
           when v.net_scale > v.minor_unit then 'net_amount.precision' end as r_net_amount,
      case when v.tax_amount = '' then 'tax_amount.missing'
           when v.tax is null then 'tax_amount.format'
           when v.tax_scale > v.minor_unit then 'tax_amount.precision' end as r_tax_amount,
      case when v.gross_amount = '' then 'gross_amount.missing'
           when v.gross is null then 'gross_amount.format'
           when v.gross_scale > v.minor_unit then 'gross_amount.precision' end as r_gross_amount,
      case when v.net + v.tax <> v.gross then 'amounts.sum' end as r_sum,
      case when v.doc_ok and ((v.document_type = 'INVOICE' and v.gross < 0)
                              or (v.document_type = 'CREDIT_NOTE' and v.gross > 0))
             then 'gross_amount.sign' end as r_sign
    from (
      -- the expensive part, once per record, in the parallel workers;
      -- missing values read as '' above
      select l.record_no,
             coalesce(l.invoice_number, '') as invoice_number,
             coalesce(l.revision, '') as revision,
             coalesce(l.status, '') as status,
             coalesce(l.document_type, '') as document_type,
             coalesce(l.customer_id, '') as customer_id,
             coalesce(l.invoice_date, '') as invoice_date,
             coalesce(l.due_date, '') as due_date,
             coalesce(l.currency, '') as currency,
             coalesce(l.net_amount, '') as net_amount,
             coalesce(l.tax_amount, '') as tax_amount,
             coalesce(l.gross_amount, '') as gross_amount,
             c.minor_unit,
             l.invoice_number ~ '^[A-Za-z0-9._/-]+$' and length(l.invoice_number) <= 64 as inv_ok,
             l.revision ~ '^[0-9]+$' and length(l.revision) <= 9 as rev_ok,
             l.document_type in ('INVOICE', 'CREDIT_NOTE') as doc_ok,
             case when ingest.is_iso_date(l.invoice_date) then l.invoice_date::date end as idate,
             case when ingest.is_iso_date(l.due_date) then l.due_date::date end as ddate,
             case when ingest.is_plain_decimal(l.net_amount) then l.net_amount::numeric end as net,
             case when ingest.is_plain_decimal(l.tax_amount) then l.tax_amount::numeric end as tax,
             case when ingest.is_plain_decimal(l.gross_amount) then l.gross_amount::numeric end as gross,
             length(split_part(l.net_amount, '.', 2)) as net_scale,
             length(split_part(l.tax_amount, '.', 2)) as tax_scale,
             length(split_part(l.gross_amount, '.', 2)) as gross_scale
      from staging.invoice_line as l
      left join ingest.currency as c on c.code = l.currency
      where l.batch_id = p_batch_id
      offset 0) as v
    offset 0) as y
  where coalesce(y.r_invoice_number, y.r_revision, y.r_status, y.r_document_type,
                 y.r_customer_id, y.r_invoice_date, y.r_due_date, y.r_currency, y.r_net_amount,
                 y.r_tax_amount, y.r_gross_amount, y.r_sum, y.r_sign) is not null;
end;
$$;
comment on function ingest.failing_records(bigint, date) is
  'The records of a staged batch that fail a field rule, with the rules (parallel scan).';
revoke all on function ingest.failing_records(bigint, date) from public;
