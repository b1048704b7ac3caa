-- ingest.staged_currency_totals: what reconciliation compares with the
-- manifest's per-currency totals (control_totals, net_totals, tax_totals;
-- docs/reference/input-file.md), over every staged record of a batch, as
-- ingest.staged_totals does for the whole file: per currency code as in
-- the file ('' for a record without one), its records, the sum of their
-- readable gross, net and tax amounts and how many of each are not
-- readable.  A sum across currencies means nothing, so validation reads
-- this instead of the single sums whenever the file has more than one
-- currency or the manifest gives its totals per currency; a file of one
-- currency reconciled against control_total never pays for this scan.
-- Internal: no EXECUTE grants.
-- Errors: none.
create or replace function ingest.staged_currency_totals(p_batch_id bigint)
returns table (currency text, records integer,
               gross_sum numeric, gross_unreadable integer,
               net_sum numeric, net_unreadable integer,
               tax_sum numeric, tax_unreadable integer)
language sql
stable
set search_path = ''
as $$
  select r.currency, count(*)::integer,
         sum(r.gross), count(*) filter (where r.gross is null)::integer,
         sum(r.net), count(*) filter (where r.net is null)::integer,
         sum(r.tax), count(*) filter (where r.tax is null)::integer
  from (select coalesce(l.currency, '') as currency,
               case when ingest.is_plain_decimal(l.gross_amount)
                    then l.gross_amount::numeric end as gross,
               case when ingest.is_plain_decimal(l.net_amount)
                    then l.net_amount::numeric end as net,
               case when ingest.is_plain_decimal(l.tax_amount)
                    then l.tax_amount::numeric end as tax
        from staging.invoice_line as l where l.batch_id = p_batch_id
        union all
        select coalesce(v.currency, v.raw_fields[8], ''), v.gross_amount, v.net_amount,
               v.tax_amount
        from staging.invoice_valid as v where v.batch_id = p_batch_id) as r
  group by r.currency
  order by r.currency;
$$;
comment on function ingest.staged_currency_totals(bigint) is
  E'Per currency of a staged batch: records, readable gross, net and tax sums and unreadable counts.\nErrors: none.';
revoke all on function ingest.staged_currency_totals(bigint) from public;
