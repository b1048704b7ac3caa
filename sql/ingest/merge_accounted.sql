-- ingest.merge_accounted: what a batch's typed rows account for at
-- publication, for the second reconciliation: the records whose (key,
-- revision) an earlier batch published (unchanged: identical content,
-- since conflicts were rejected), as history held them before the merge
-- (staging.key_version), the identical duplicates, and the gross amounts
-- of the accepted records and of those two groups, the two groups' gross
-- per currency (unversioned_by_currency: what the per-currency
-- reconciliation counts besides the versions) and the accepted gross per
-- currency (accepted_by_currency: what a load reports), as jsonb.  RETURN
-- QUERY, so that the scan of the batch's rows may run in parallel (PL/pgSQL
-- runs a SELECT ... INTO with a row limit, and PostgreSQL launches no
-- workers for a limited run; docs/PERFORMANCE.md).
-- Internal: no EXECUTE grants.
-- Errors: none.
create or replace function ingest.merge_accounted(p_batch_id bigint)
returns setof jsonb
language plpgsql
stable
set search_path = ''
as $$
begin
  return query
  select jsonb_build_object(
           'unchanged', coalesce(sum(g.unchanged), 0),
           'duplicates', coalesce(sum(g.duplicates), 0),
           'accepted_gross', coalesce(sum(g.accepted_gross), 0),
           'unchanged_gross', coalesce(sum(g.unchanged_gross), 0),
           'duplicates_gross', coalesce(sum(g.duplicates_gross), 0),
           'unversioned_by_currency',
           coalesce(jsonb_object_agg(g.currency, g.unchanged_gross + g.duplicates_gross), '{}'),
           'accepted_by_currency', coalesce(jsonb_object_agg(g.currency, g.accepted_gross), '{}'))
  from (select v.currency,
               count(*) filter (where e.revision is not null) as unchanged,
               count(*) filter (where v.is_duplicate) as duplicates,
               coalesce(sum(v.gross_amount), 0) as accepted_gross,
               coalesce(sum(v.gross_amount) filter (where e.revision is not null), 0)
                 as unchanged_gross,
               coalesce(sum(v.gross_amount) filter (where v.is_duplicate), 0)
                 as duplicates_gross
        from staging.invoice_valid as v
        left join staging.key_version as e
          on not v.is_duplicate and e.batch_id = p_batch_id
         and e.invoice_number = v.invoice_number and e.revision = v.revision
        where v.batch_id = p_batch_id
        group by v.currency) as g;
end;
$$;
comment on function ingest.merge_accounted(bigint) is
  E'What a batch''s typed rows account for at publication (unchanged, duplicates, their gross), read in parallel.\nErrors: none.';
revoke all on function ingest.merge_accounted(bigint) from public;
