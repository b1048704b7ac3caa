-- ingest.reconcile_currencies: the reconciliation problems of a staged
-- batch that depend on its currencies (docs/reference/input-file.md),
-- from its totals per currency over every staged record (accepted and
-- rejected alike, so that partial policy proves the file, not what it
-- keeps; validate_batch reads them, ingest.staged_currency_totals, before
-- the rejected records leave staging):
-- - a file of several currencies whose manifest gives a single
--   control_total, net_total or tax_total: a sum across currencies means
--   nothing, rule reconcile.control_total_needs_currency, naming the
--   currencies found (validation then skips the single comparison);
-- - control_totals, net_totals, tax_totals (their form was checked by
--   ingest.parse_manifest): every currency in the file must be there with
--   the sum of its records, and no other; rules reconcile.control_total,
--   reconcile.net_total, reconcile.tax_total, naming the currency.  A
--   record with an amount that is not readable leaves its currency's
--   total unproven.  A record whose currency is missing or not a code of
--   ingest.currency belongs to no currency's total (its own rule,
--   currency.missing or currency.unknown, rejects it).
-- p_totals: the rows of ingest.staged_currency_totals as a jsonb array
-- (NULL when not read: one currency and no totals per currency).
-- p_multi: the file has records in more than one known currency.
-- Returns a jsonb array of rejection reasons (record_no 0), one per rule
-- with the details of every currency joined by "; ", empty when fine.
-- Internal: no EXECUTE grants.
-- Errors: none.
create or replace function ingest.reconcile_currencies(p_totals jsonb, p_manifest jsonb,
                                                       p_multi boolean)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  v_reasons jsonb := '[]';
  v_totals  jsonb;
  v_found   text;
  v_part    text;
  v_expect  jsonb;
  v_row     record;
begin
  if not p_multi
     and not coalesce(p_manifest ?| array['control_totals', 'net_totals', 'tax_totals'], false) then
    return v_reasons;
  end if;
  v_totals := coalesce(p_totals, '[]');
  select string_agg(coalesce(nullif(t ->> 'currency', ''), '(none)'), ', '
                    order by t ->> 'currency')
    into v_found
  from jsonb_array_elements(v_totals) as t;
  select coalesce(jsonb_agg(t), '[]') into v_totals
  from jsonb_array_elements(v_totals) as t
  where exists (select from ingest.currency as k where k.code = t ->> 'currency');

  foreach v_part in array array['control', 'net', 'tax'] loop
    -- the single form, on a file of several currencies
    if p_multi and p_manifest ? (v_part || '_total') then
      v_reasons := v_reasons || jsonb_build_object('rule', 'reconcile.control_total_needs_currency',
        'record_no', 0,
        'detail', format('the file has records in %s; a single %s_total adds up amounts of '
                         'different currencies: give %s_totals per currency',
                         v_found, v_part, v_part));
    end if;
    v_expect := p_manifest -> (v_part || '_totals');
    continue when v_expect is null or jsonb_typeof(v_expect) <> 'object';
    -- every currency of the file, and every currency of the manifest
    for v_row in
      select coalesce(f.currency, m.code) as code, f.records, f.amount, f.unreadable,
             m.amount as expected
      from (select t ->> 'currency' as currency, (t ->> 'records')::integer as records,
                   (t ->> (case v_part when 'control' then 'gross' else v_part end || '_sum'))::numeric
                     as amount,
                   (t ->> (case v_part when 'control' then 'gross' else v_part end || '_unreadable'))::integer
                     as unreadable
            from jsonb_array_elements(v_totals) as t) as f
      full join (select e.key as code, e.value #>> '{}' as amount
                 from jsonb_each(v_expect) as e) as m on m.code = f.currency
      order by 1
    loop
      if v_row.expected is null then
        v_reasons := v_reasons || jsonb_build_object('rule', 'reconcile.' || v_part || '_total',
          'record_no', 0,
          'detail', format('the file has %s records in %s; the manifest''s %s_totals has no %s',
                           v_row.records, v_row.code, v_part, v_row.code));
      elsif v_row.records is null then
        v_reasons := v_reasons || jsonb_build_object('rule', 'reconcile.' || v_part || '_total',
          'record_no', 0,
          'detail', format('the manifest''s %s_totals gives %s %s; the file has no record in %s',
                           v_part, v_row.code, v_row.expected, v_row.code));
      elsif v_row.unreadable > 0 then
        v_reasons := v_reasons || jsonb_build_object('rule', 'reconcile.' || v_part || '_total',
          'record_no', 0,
          'detail', format('%s records in %s have no readable %s amount; the %s_totals %s %s cannot be proven',
                           v_row.unreadable, v_row.code,
                           case v_part when 'control' then 'gross' else v_part end,
                           v_part, v_row.code, v_row.expected));
      elsif coalesce(v_row.amount, 0) <> v_row.expected::numeric then
        v_reasons := v_reasons || jsonb_build_object('rule', 'reconcile.' || v_part || '_total',
          'record_no', 0,
          'detail', format('%s amounts in %s sum to %s; the manifest''s %s_totals says %s',
                           case v_part when 'control' then 'gross' else v_part end,
                           v_row.code, coalesce(v_row.amount, 0), v_part, v_row.expected));
      end if;
    end loop;
  end loop;
  -- one reason per rule (a batch keeps one rejection per record and
  -- rule), naming every currency that failed it
  select coalesce(jsonb_agg(jsonb_build_object('rule', g.rule, 'record_no', 0,
                                               'detail', g.detail) order by g.rule), '[]')
    into v_reasons
  from (select r ->> 'rule' as rule, string_agg(r ->> 'detail', '; ' order by o) as detail
        from jsonb_array_elements(v_reasons) with ordinality as e(r, o)
        group by r ->> 'rule') as g;
  return v_reasons;
end;
$$;
comment on function ingest.reconcile_currencies(jsonb, jsonb, boolean) is
  E'Reconciliation problems of a staged batch that depend on its currencies: a single total on a file of several, totals per currency that differ.\nErrors: none.';
revoke all on function ingest.reconcile_currencies(jsonb, jsonb, boolean) from public;
