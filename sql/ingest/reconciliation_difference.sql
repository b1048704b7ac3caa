-- ingest.reconciliation_difference: the equations a written or published
-- batch must satisfy against its manifest (ingest.batch: record_count,
-- control_total, manifest -> control_totals), one definition for the
-- write's second reconciliation (ingest.write_batch, from what it read
-- back) and the commit check (ingest.publication_difference, from the
-- rows readers see).  p_found, what was found:
--   versions, versions_gross, versions_by_currency ({code: gross}): the
--     batch's versions;
--   unchanged, duplicates, unchanged_gross, duplicates_gross: accepted
--     records that add no version (a resend of a published revision, an
--     identical copy within the file);
--   rejected, rejected_gross: the rejected records;
--   outside_by_currency ({code: gross}): unchanged, duplicate and
--     rejected gross per currency.
-- Each equation when the manifest gives its side:
--   versions + unchanged + duplicates + rejected = record_count;
--   their gross amounts = control_total (a file of one currency);
--   per currency, versions_by_currency + outside_by_currency =
--   control_totals, for every currency of either side (a currency on one
--   side only is a difference).
-- Found values without outside_by_currency (counts written before
-- migration 0032) leave the per-currency equation unchecked.
-- Returns one sentence per difference (empty when it reconciles).
-- Internal: no EXECUTE grants.
-- Errors: none.
create or replace function ingest.reconciliation_difference(p_found jsonb, p_batch ingest.batch)
returns text[]
language plpgsql
immutable
set search_path = ''
as $$
declare
  v_diff    text[] := '{}';
  v_records numeric;
  v_gross   numeric;
  v_expect  jsonb := p_batch.manifest -> 'control_totals';
  v_by_cur  jsonb := coalesce(p_found -> 'versions_by_currency', '{}');
  v_outside jsonb := p_found -> 'outside_by_currency';
  v_row     record;
begin
  v_records := coalesce((p_found ->> 'versions')::numeric, 0)
               + coalesce((p_found ->> 'unchanged')::numeric, 0)
               + coalesce((p_found ->> 'duplicates')::numeric, 0)
               + coalesce((p_found ->> 'rejected')::numeric, 0);
  if p_batch.record_count is not null and v_records <> p_batch.record_count then
    v_diff := v_diff || format('%s versions + %s unchanged + %s duplicates + %s rejected records '
                               'are not the manifest''s record_count %s',
                               coalesce(p_found ->> 'versions', '0'),
                               coalesce(p_found ->> 'unchanged', '0'),
                               coalesce(p_found ->> 'duplicates', '0'),
                               coalesce(p_found ->> 'rejected', '0'), p_batch.record_count);
  end if;
  v_gross := coalesce((p_found ->> 'versions_gross')::numeric, 0)
             + coalesce((p_found ->> 'unchanged_gross')::numeric, 0)
             + coalesce((p_found ->> 'duplicates_gross')::numeric, 0)
             + coalesce((p_found ->> 'rejected_gross')::numeric, 0);
  if p_batch.control_total is not null and v_gross <> p_batch.control_total then
    v_diff := v_diff || format('gross amounts of %s (versions) + %s (unchanged) + %s (duplicates) '
                               '+ %s (rejected) are not the manifest''s control_total %s',
                               coalesce(p_found ->> 'versions_gross', '0'),
                               coalesce(p_found ->> 'unchanged_gross', '0'),
                               coalesce(p_found ->> 'duplicates_gross', '0'),
                               coalesce(p_found ->> 'rejected_gross', '0'), p_batch.control_total);
  end if;
  if jsonb_typeof(v_expect) = 'object' and jsonb_typeof(v_outside) = 'object' then
    for v_row in
      select k.code,
             coalesce((v_by_cur ->> k.code)::numeric, 0) as versions,
             coalesce((v_outside ->> k.code)::numeric, 0) as outside,
             (v_expect ->> k.code)::numeric as expected
      from (select jsonb_object_keys(v_expect) as code
            union select jsonb_object_keys(v_by_cur)
            union select jsonb_object_keys(v_outside)) as k
      order by k.code
    loop
      if v_row.expected is null or v_row.versions + v_row.outside <> v_row.expected then
        v_diff := v_diff || format('%s: gross amounts of %s (versions) + %s (unchanged, duplicate '
                                   'and rejected) are not the manifest''s control_totals entry %s',
                                   v_row.code, v_row.versions, v_row.outside,
                                   coalesce(v_row.expected::text, '(none)'));
      end if;
    end loop;
  end if;
  return v_diff;
end;
$$;
comment on function ingest.reconciliation_difference(jsonb, ingest.batch) is
  E'The equations of a written or published batch against its manifest: one sentence per difference, empty when it reconciles.\nErrors: none.';
revoke all on function ingest.reconciliation_difference(jsonb, ingest.batch) from public;
