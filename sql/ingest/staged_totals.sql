-- ingest.staged_totals: what reconciliation compares with the manifest,
-- over every staged record of a batch: its distinct invoice numbers, the
-- sum of its readable gross amounts, and how many gross amounts are not
-- readable (missing or not a plain decimal).  RETURN QUERY, so that the
-- scan may run in parallel (see ingest.failing_records).
-- Internal: no EXECUTE grants.
create or replace function ingest.staged_totals(p_batch_id bigint)
returns table (distinct_keys integer, gross_sum numeric, unreadable integer)
language plpgsql
stable
set search_path = ''
as $$
begin
  return query
  select (select count(*) from (select l.invoice_number from staging.invoice_line as l
                                where l.batch_id = p_batch_id
                                group by l.invoice_number) as k)::integer,
         sum(case when ingest.is_plain_decimal(l.gross_amount) then l.gross_amount::numeric end),
         count(*) filter (where not coalesce(ingest.is_plain_decimal(l.gross_amount), false))::integer
  from staging.invoice_line as l where l.batch_id = p_batch_id;
end;
$$;
comment on function ingest.staged_totals(bigint) is
  'Distinct invoice numbers, readable gross sum and unreadable count of a staged batch.';
revoke all on function ingest.staged_totals(bigint) from public;
