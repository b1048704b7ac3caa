-- ingest.staged_totals: what reconciliation compares with the manifest,
-- over every staged record of a batch (raw rows of the SQL path, or the
-- loader's typed rows before validation takes the rejected ones out): its
-- distinct invoice numbers, the sum of its readable gross amounts, and how
-- many gross amounts are not readable (missing or not a plain decimal);
-- and, only when the batch's manifest carries net_total or tax_total
-- (docs/reference/input-file.md), the same two figures for net_amount and
-- tax_amount (NULL otherwise: a file without them pays nothing for them).
-- Also, from the same scan, how many raw and typed rows the batch has,
-- how many typed rows fail a field rule (validation's checkpoint check,
-- and whether it has rejections to write at all), and the smallest and
-- largest invoice number of the typed rows that pass them (the key range
-- of ingest.reject_revision_conflicts; NULL for raw rows, which are not
-- checked yet).  And the smallest and largest currency code of every
-- record (as in the file; NULL for none): equal, the file has one
-- currency, and a single control_total means something; otherwise
-- validation sums per currency (ingest.staged_currency_totals).
-- The sums and counts come from one scan, run first and by EXECUTE, so
-- that it may run in parallel (a SELECT INTO would run it without
-- workers, see ingest.write_batch) and so that this parallel scan is the
-- batch's first full read after its COPY (the ANALYZE before it samples
-- 3,000 rows): that read sets the rows' hint bits and so writes every
-- page out again (2 GB for ten million typed rows), now in three
-- processes instead of one (docs/PERFORMANCE.md, "Parallel plans that
-- ran serially").
-- The distinct invoice numbers (a missing one counts as one, as GROUP BY
-- counts it) are counted next, in one process (a distinct count does not
-- run in parallel), through a 64-bit hash of each
-- (hashtextextended): equal numbers hash equal, so as many distinct hashes
-- as numbers proves them all distinct, which a sort of a million integers
-- shows in 0.19 s where grouping the text took 0.55 s
-- (docs/PERFORMANCE.md); fewer (repeats, or a collision) and they are
-- counted exactly, by the text.
-- Internal: no EXECUTE grants.
-- Errors: none.
create or replace function ingest.staged_totals(p_batch_id bigint)
returns table (distinct_keys integer, gross_sum numeric, unreadable integer,
               net_sum numeric, net_unreadable integer,
               tax_sum numeric, tax_unreadable integer,
               raw_rows integer, typed_rows integer, failing_rows integer,
               min_key text, max_key text, min_currency text, max_currency text)
language plpgsql
stable
set search_path = ''
as $$
declare
  v_parts   boolean;
  v_keys    integer;
  v_numbers integer;
  v_missing boolean;
  v_totals  record;
begin
  select coalesce(b.manifest ?| array['net_total', 'tax_total'], false) into v_parts
  from ingest.batch as b where b.batch_id = p_batch_id;
  -- Raw rows (staging.invoice_line: the SQL path) and the loader's typed
  -- rows (staging.invoice_valid with the rules of each record, read before
  -- validation takes any out): a batch has one or the other.
  -- First the one scan: a typed amount is NULL exactly when it was not
  -- readable.
  execute $totals$
  select sum(r.gross) as gross_sum,
         count(*) filter (where r.gross is null)::integer as unreadable,
         case when $2 then sum(r.net) end as net_sum,
         case when $2 then count(*) filter (where r.net is null)::integer end as net_unreadable,
         case when $2 then sum(r.tax) end as tax_sum,
         case when $2 then count(*) filter (where r.tax is null)::integer end as tax_unreadable,
         count(*) filter (where r.raw)::integer as raw_rows,
         count(*) filter (where not r.raw)::integer as typed_rows,
         count(*) filter (where r.rules <> 0)::integer as failing_rows,
         min(r.invoice_number) filter (where not r.raw and r.rules = 0) as min_key,
         max(r.invoice_number) filter (where not r.raw and r.rules = 0) as max_key,
         min(r.currency) as min_currency, max(r.currency) as max_currency
  from (select true as raw, 0 as rules, null::text as invoice_number,
               nullif(l.currency, '') as currency,
               case when ingest.is_plain_decimal(l.gross_amount)
                    then l.gross_amount::numeric end as gross,
               case when $2 and ingest.is_plain_decimal(l.net_amount)
                    then l.net_amount::numeric end as net,
               case when $2 and ingest.is_plain_decimal(l.tax_amount)
                    then l.tax_amount::numeric end as tax
        from staging.invoice_line as l where l.batch_id = $1
        union all
        select false, v.rules, v.invoice_number,
               nullif(coalesce(v.currency, v.raw_fields[8]), ''), v.gross_amount,
               case when $2 then v.net_amount end,
               case when $2 then v.tax_amount end
        from staging.invoice_valid as v where v.batch_id = $1) as r
  $totals$
    into v_totals using p_batch_id, v_parts;
  -- Then the distinct invoice numbers (the header says how).
  select count(distinct pg_catalog.hashtextextended(k.invoice_number, 0)),
         count(k.invoice_number), bool_or(k.invoice_number is null)
    into v_keys, v_numbers, v_missing
  from (select l.invoice_number from staging.invoice_line as l
        where l.batch_id = p_batch_id
        union all
        select v.invoice_number from staging.invoice_valid as v
        where v.batch_id = p_batch_id) as k;
  if v_keys = v_numbers then
    v_keys := v_keys + case when v_missing then 1 else 0 end;
  else
    select count(*) into v_keys
    from (select k.invoice_number
          from (select l.invoice_number from staging.invoice_line as l
                where l.batch_id = p_batch_id
                union all
                select v.invoice_number from staging.invoice_valid as v
                where v.batch_id = p_batch_id) as k
          group by k.invoice_number) as g;
  end if;
  return query
  select v_keys, v_totals.gross_sum, v_totals.unreadable, v_totals.net_sum,
         v_totals.net_unreadable, v_totals.tax_sum, v_totals.tax_unreadable,
         v_totals.raw_rows, v_totals.typed_rows, v_totals.failing_rows,
         v_totals.min_key, v_totals.max_key, v_totals.min_currency, v_totals.max_currency;
end;
$$;
comment on function ingest.staged_totals(bigint) is
  E'Distinct invoice numbers, readable gross sum and unreadable count of a staged batch (and net and tax when its manifest has their totals); its raw, typed and failing rows; its smallest and largest currency.\nErrors: none.';
revoke all on function ingest.staged_totals(bigint) from public;
