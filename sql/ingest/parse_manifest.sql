-- ingest.parse_manifest: the control totals of a batch, from the manifest
-- text (JSON, docs/reference/input-file.md) or from
-- --expect-count/--expect-total, checked against what is being loaded.  Never
-- raises for bad input: it returns the problems as rejection reasons
-- (record_no 0): text that is not
-- JSON, nests deeper than the server's stack allows (a 100,000-deep array
-- raised 54001 through begin_attempt and the load exited 70), or exceeds a
-- jsonb limit is the problem manifest.invalid, whatever error the cast
-- raised (classes 22 and 54).  (A NUL byte or invalid UTF-8 cannot reach
-- here as text at all: the loader finds those when it reads the file,
-- io::read_manifest_file, and sends the problem instead.)
-- Optional keys distinct_keys, net_total and tax_total (plain decimals,
-- like control_total) are checked for form here; validate_batch reconciles
-- them with the file.
-- Per currency: control_totals (which may stand instead of control_total),
-- net_totals and tax_totals are JSON objects from an ISO 4217 code
-- (ingest.currency) to a decimal string written with that currency's
-- minor unit ("3780.00" for EUR, "33000" for JPY): not an object, or an
-- empty one, is manifest.invalid; a code not in ingest.currency is
-- manifest.currency_unknown; an amount not written with the code's
-- decimals is manifest.currency_decimals.  --expect-total is a plain
-- decimal, or CODE=AMOUNT pairs separated by commas (the loader joins its
-- repeated option so), stored as control_totals.
-- Returns: the manifest as stored, record_count, control_total, distinct_keys
-- (optional field), and problems (a jsonb array, empty when fine).
-- Errors: none.
create or replace function ingest.parse_manifest(
  p_manifest      text,
  p_expect_count  bigint,
  p_expect_total  text,
  p_required      boolean,
  p_source        text,
  p_business_date date,
  p_sha256        text)
returns table (manifest jsonb, record_count integer, control_total numeric,
               distinct_keys integer, problems jsonb)
language plpgsql
stable
set search_path = ''
as $$
declare
  v_json     jsonb;
  v_problems jsonb := '[]';
  v_count    integer;
  v_total    numeric;
  v_keys     integer;
  v_text     text;
  v_field    text;
  v_code     text;
  v_amount   jsonb;
  v_unit     smallint;
  v_totals   jsonb;

begin
  if p_manifest is not null then
    begin
      v_json := p_manifest::jsonb;
    exception when data_exception or program_limit_exceeded then
      -- 22P02 not JSON, 22P05 a \u0000 escape, 54001 nested too deep
      -- (stack depth), 54000 a jsonb size limit
      return query select null::jsonb, null::integer, null::numeric, null::integer,
        jsonb_build_array(jsonb_build_object('rule', 'manifest.invalid', 'record_no', 0,
          'detail', format('the manifest is not valid JSON (%s)', left(sqlerrm, 200))));
      return;
    end;
    if jsonb_typeof(v_json) is distinct from 'object' then
      return query select null::jsonb, null::integer, null::numeric, null::integer,
        jsonb_build_array(jsonb_build_object('rule', 'manifest.invalid', 'record_no', 0,
          'detail', 'the manifest is not a JSON object'));
      return;
    end if;

    v_text := v_json ->> 'record_count';
    if jsonb_typeof(v_json -> 'record_count') = 'number' and v_text ~ '^[0-9]{1,9}$' then
      v_count := v_text::integer;
    else
      v_problems := v_problems || jsonb_build_object('rule', 'manifest.invalid', 'record_no', 0,
        'detail', format('record_count must be a whole number >= 0, got %s',
                         coalesce(left((v_json -> 'record_count')::text, 40), 'nothing')));
    end if;

    v_text := v_json ->> 'control_total';
    if jsonb_typeof(v_json -> 'control_total') in ('string', 'number')
       and v_text ~ '^-?[0-9]{1,18}(\.[0-9]{1,4})?$' then
      v_total := v_text::numeric;
    elsif v_json ? 'control_totals' and not v_json ? 'control_total' then
      null;  -- the totals per currency stand instead
    else
      v_problems := v_problems || jsonb_build_object('rule', 'manifest.invalid', 'record_no', 0,
        'detail', format('control_total must be a plain decimal such as "4200.00", got %s',
                         coalesce(left((v_json -> 'control_total')::text, 40), 'nothing')));
    end if;

    if v_json ? 'distinct_keys' then
      v_text := v_json ->> 'distinct_keys';
      if jsonb_typeof(v_json -> 'distinct_keys') = 'number' and v_text ~ '^[0-9]{1,9}$' then
        v_keys := v_text::integer;
      else
        v_problems := v_problems || jsonb_build_object('rule', 'manifest.invalid', 'record_no', 0,
          'detail', 'distinct_keys must be a whole number >= 0');
      end if;
    end if;

    foreach v_text in array array['net_total', 'tax_total'] loop
      if v_json ? v_text
         and not (jsonb_typeof(v_json -> v_text) in ('string', 'number')
                  and (v_json ->> v_text) ~ '^-?[0-9]{1,18}(\.[0-9]{1,4})?$') then
        v_problems := v_problems || jsonb_build_object('rule', 'manifest.invalid', 'record_no', 0,
          'detail', format('%s must be a plain decimal such as "3529.41", got %s', v_text,
                           left((v_json -> v_text)::text, 40)));
      end if;
    end loop;

    foreach v_field in array array['control_totals', 'net_totals', 'tax_totals'] loop
      continue when not v_json ? v_field;
      if jsonb_typeof(v_json -> v_field) is distinct from 'object'
         or v_json -> v_field = '{}'::jsonb then
        v_problems := v_problems || jsonb_build_object('rule', 'manifest.invalid', 'record_no', 0,
          'detail', format('%s must be an object from currency code to amount such as '
                           '{"EUR": "3780.00", "JPY": "33000"}, got %s', v_field,
                           left((v_json -> v_field)::text, 40)));
        continue;
      end if;
      for v_code, v_amount in select e.key, e.value from jsonb_each(v_json -> v_field) as e
                              order by e.key loop
        select c.minor_unit into v_unit from ingest.currency as c where c.code = v_code;
        if not found then
          v_problems := v_problems || jsonb_build_object('rule', 'manifest.currency_unknown',
            'record_no', 0,
            'detail', format('%s names %s, which is not an ISO 4217 currency code the loader accepts',
                             v_field, left(v_code, 20)));
        elsif jsonb_typeof(v_amount) is distinct from 'string'
              or (v_amount #>> '{}') !~ ('^-?[0-9]{1,18}'
                                          || case when v_unit > 0
                                                  then '\.[0-9]{' || v_unit || '}' else '' end
                                          || '$') then
          v_problems := v_problems || jsonb_build_object('rule', 'manifest.currency_decimals',
            'record_no', 0,
            'detail', format('%s.%s must be a string with %s decimals (the minor unit of %s), got %s',
                             v_field, v_code, v_unit, v_code, left(v_amount::text, 40)));
        end if;
      end loop;
    end loop;

    if v_json ? 'source' and (v_json ->> 'source') is distinct from p_source then
      v_problems := v_problems || jsonb_build_object('rule', 'manifest.source_mismatch', 'record_no', 0,
        'detail', format('the manifest is for source %s, not %s',
                         left(coalesce(v_json ->> 'source', 'null'), 64), p_source));
    end if;
    if v_json ? 'business_date'
       and (v_json ->> 'business_date') is distinct from to_char(p_business_date, 'YYYY-MM-DD') then
      v_problems := v_problems || jsonb_build_object('rule', 'manifest.date_mismatch', 'record_no', 0,
        'detail', format('the manifest is for business date %s, not %s',
                         left(coalesce(v_json ->> 'business_date', 'null'), 32),
                         to_char(p_business_date, 'YYYY-MM-DD')));
    end if;
    if v_json ? 'sha256' and lower(v_json ->> 'sha256') is distinct from p_sha256 then
      v_problems := v_problems || jsonb_build_object('rule', 'manifest.sha256_mismatch', 'record_no', 0,
        'detail', format('the manifest describes a file with SHA-256 %s; this file has %s',
                         left(coalesce(v_json ->> 'sha256', 'null'), 64), p_sha256));
    end if;
    return query select v_json, v_count, v_total, v_keys, v_problems;
    return;
  end if;

  if p_expect_count is not null or p_expect_total is not null then
    -- CODE=AMOUNT[,CODE=AMOUNT...]: the totals per currency, checked as
    -- a manifest's control_totals are
    if p_expect_total ~ '=' then
      v_totals := '{}';
      foreach v_text in array string_to_array(p_expect_total, ',') loop
        v_code := split_part(v_text, '=', 1);
        select c.minor_unit into v_unit from ingest.currency as c where c.code = v_code;
        if not found then
          v_problems := v_problems || jsonb_build_object('rule', 'manifest.currency_unknown',
            'record_no', 0,
            'detail', format('--expect-total names %s, which is not an ISO 4217 currency code the loader accepts',
                             left(v_code, 20)));
        elsif v_totals ? v_code
              or split_part(v_text, '=', 2) !~ ('^-?[0-9]{1,18}'
                                                 || case when v_unit > 0
                                                         then '\.[0-9]{' || v_unit || '}' else '' end
                                                 || '$')
              or split_part(v_text, '=', 3) <> '' then
          v_problems := v_problems || jsonb_build_object('rule', 'manifest.currency_decimals',
            'record_no', 0,
            'detail', format('--expect-total %s must be given once, with %s decimals (the minor unit of %s)',
                             left(v_text, 40), v_unit, v_code));
        else
          v_totals := v_totals || jsonb_build_object(v_code, split_part(v_text, '=', 2));
        end if;
      end loop;
      if p_expect_count is null or p_expect_count < 0 or p_expect_count > 2147483647 then
        v_problems := v_problems || jsonb_build_object('rule', 'manifest.invalid', 'record_no', 0,
          'detail', 'expected count and total must both be given, as a whole number and CODE=AMOUNT');
      end if;
      if jsonb_array_length(v_problems) > 0 then
        return query select null::jsonb, null::integer, null::numeric, null::integer, v_problems;
        return;
      end if;
      return query select jsonb_build_object('record_count', p_expect_count,
                                             'control_totals', v_totals,
                                             'origin', 'command line'),
                          p_expect_count::integer, null::numeric, null::integer, '[]'::jsonb;
      return;
    end if;
    if p_expect_count is null or p_expect_count < 0 or p_expect_count > 2147483647
       or p_expect_total is null or p_expect_total !~ '^-?[0-9]{1,18}(\.[0-9]{1,4})?$' then
      return query select null::jsonb, null::integer, null::numeric, null::integer,
        jsonb_build_array(jsonb_build_object('rule', 'manifest.invalid', 'record_no', 0,
          'detail', 'expected count and total must both be given, as a whole number and a plain decimal'));
      return;
    end if;
    return query select jsonb_build_object('record_count', p_expect_count,
                                           'control_total', p_expect_total,
                                           'origin', 'command line'),
                        p_expect_count::integer, p_expect_total::numeric, null::integer,
                        '[]'::jsonb;
    return;
  end if;

  return query select null::jsonb, null::integer, null::numeric, null::integer,
    case when p_required
         then jsonb_build_array(jsonb_build_object('rule', 'manifest.missing', 'record_no', 0,
                'detail', 'no manifest and no --expect-count/--expect-total; the source requires control totals'))
         else '[]'::jsonb end;
end;
$$;
comment on function ingest.parse_manifest(text, bigint, text, boolean, text, date, text) is
  'Control totals from a manifest or the command line, with the problems found (never raises for bad input).';
revoke all on function ingest.parse_manifest(text, bigint, text, boolean, text, date, text) from public;
