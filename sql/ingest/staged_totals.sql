-- ingest.staged_totals: what reconciliation compares with the manifest,
-- over every staged record of a batch (raw rows of the SQL path, or the
-- loader's typed rows before validation takes the rejected ones out): its
-- distinct invoice numbers, the sum of its readable gross amounts, and how many gross amounts are not
-- readable (missing or not a plain decimal); and, only when the batch's
-- manifest carries net_total or tax_total (CONTRACT.md section 3), the
-- same two figures for net_amount and tax_amount (NULL otherwise: a file
-- without them pays nothing for them).  RETURN QUERY, so that the scan may
-- run in parallel (see ingest.failing_records).
-- Internal: no EXECUTE grants.
-- Errors: none.
create or replace function ingest.staged_totals(p_batch_id bigint)
returns table (distinct_keys integer, gross_sum numeric, unreadable integer,
               net_sum numeric, net_unreadable integer,
               tax_sum numeric, tax_unreadable integer)
language plpgsql
stable
set search_path = ''
as $$
declare
  v_parts boolean;
begin
  select coalesce(b.manifest ?| array['net_total', 'tax_total'], false) into v_parts
  from ingest.batch as b where b.batch_id = p_batch_id;
  -- Raw rows (staging.invoice_line: the SQL path) and the loader's typed
  -- rows (staging.invoice_valid with the rules of each record, read before
  -- validation takes any out): a batch has one or the other.  A typed
  -- amount is NULL exactly when it was not readable.
  return query
  select (select count(*)
          from (select k.invoice_number
                from (select l.invoice_number from staging.invoice_line as l
                      where l.batch_id = p_batch_id
                      union all
                      select v.invoice_number from staging.invoice_valid as v
                      where v.batch_id = p_batch_id) as k
                group by k.invoice_number) as g)::integer,
         sum(r.gross),
         count(*) filter (where r.gross is null)::integer,
         case when v_parts then sum(r.net) end,
         case when v_parts then count(*) filter (where r.net is null)::integer end,
         case when v_parts then sum(r.tax) end,
         case when v_parts then count(*) filter (where r.tax is null)::integer end
  from (select case when ingest.is_plain_decimal(l.gross_amount)
                    then l.gross_amount::numeric end as gross,
               case when v_parts and ingest.is_plain_decimal(l.net_amount)
                    then l.net_amount::numeric end as net,
               case when v_parts and ingest.is_plain_decimal(l.tax_amount)
                    then l.tax_amount::numeric end as tax
        from staging.invoice_line as l where l.batch_id = p_batch_id
        union all
        select v.gross_amount, case when v_parts then v.net_amount end,
               case when v_parts then v.tax_amount end
        from staging.invoice_valid as v where v.batch_id = p_batch_id) as r;
end;
$$;
comment on function ingest.staged_totals(bigint) is
  E'Distinct invoice numbers, readable gross sum and unreadable count of a staged batch (and net and tax when its manifest has their totals).\nErrors: none.';
revoke all on function ingest.staged_totals(bigint) from public;
