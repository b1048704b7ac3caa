#!/usr/bin/env bash
# The loader's binary COPY rows land as the SQL path would type the same
# text: every staged value of every record (amounts at the currency's minor
# unit for a passing record, as written for a failing one, dates, revision,
# texts) equals the SQL cast of the file's field, and so do the published
# amounts and the rejected records' readable gross amounts.  Edge amounts
# in EUR (2 decimals), JPY (0), KWD (3) and CLF (4); edge dates; UTF-8 texts
# sent with PGCLIENTENCODING=LATIN1, which the loader overrides.
source "$(dirname "$0")/lib.sh"

register_source acme-erp --start-date 2026-11-28 --policy partial --max-rejected-share 0.5

csv=$WORK/acme-erp_2026-11-28.csv
# passing: E-*, J-*, K-*, C-*; failing (precision, currency, date): F-*
cat >"$csv" <<'CSV'
invoice_number,revision,status,document_type,customer_id,invoice_date,due_date,currency,net_amount,tax_amount,gross_amount,description
E-1,0,ISSUED,INVOICE,C1,2000-01-01,9999-12-31,EUR,0,0.00,-0.00,"Zürich € \ tab	end"
E-2,007,ISSUED,INVOICE,C1,1999-12-31,,EUR,5.00,0,5,
E-3,1,ISSUED,CREDIT_NOTE,C1,0001-01-01,0001-01-01,EUR,-12.5,0,-12.50,""
E-4,2,ISSUED,INVOICE,C1,2024-02-29,2024-03-01,EUR,123456789012345678.99,0,123456789012345678.99,x
E-5,999999999,VOID,INVOICE,C1,2026-11-28,,EUR,10000,-1,9999,
E-6,0,ISSUED,CREDIT_NOTE,C1,2026-11-28,,EUR,-123456789012345678.99,0,-123456789012345678.99,
J-1,0,ISSUED,INVOICE,C1,2026-11-28,,JPY,10000,0,10000,
J-2,0,ISSUED,CREDIT_NOTE,C1,2026-11-28,,JPY,-1,-0,-1,
K-1,0,ISSUED,INVOICE,C1,2026-11-28,,KWD,9999.999,0.001,10000,
K-2,0,ISSUED,INVOICE,C1,2026-11-28,,KWD,0.5,0.25,000.750,
C-1,0,ISSUED,INVOICE,C1,2026-11-28,,CLF,0.0001,9999.9999,10000.0000,
C-2,0,ISSUED,INVOICE,C1,2026-11-28,,CLF,1.0001,-0.0001,1,
F-1,0,ISSUED,INVOICE,C1,2026-11-28,,EUR,1.00000001,0,1.0000,
F-2,0,ISSUED,INVOICE,C1,2026-11-28,,JPY,9999.9999,0,9999.0000,
F-3,0,ISSUED,INVOICE,C1,2026-11-28,,EUR,007.500,0,7.5,
F-4,0,ISSUED,INVOICE,C1,2026-11-28,,KWD,-0.00000,0,-0.00000,
F-5,0,ISSUED,INVOICE,C1,2026-11-28,,XXX,-0.00,0,-0.00,
F-6,x,ISSUED,INVOICE,C1,2026-02-30,soon,EUR,1e3,0,0.0100,
CSV
# A file of several currencies reconciles per currency, every record's
# gross amount counted (F-5's unknown XXX in none), each total in its
# currency's minor unit: hence the failing gross amounts above whose
# decimals past the minor unit are zeros.
printf '{"source":"acme-erp","business_date":"2026-11-28","record_count":18,"control_totals":%s}\n' \
  '{"EUR":"10000.01","JPY":"19998","KWD":"10000.750","CLF":"10001.0000"}' >"$csv.manifest.json"

# The file's fields as text, for the SQL casts.
q "create table public.e2e_raw (invoice_number text, revision text, status text,
     document_type text, customer_id text, invoice_date text, due_date text,
     currency text, net_amount text, tax_amount text, gross_amount text,
     description text)"
psql -X -q -v ON_ERROR_STOP=1 -d "$E2E_DB" \
  -c "\\copy public.e2e_raw from '$csv' (format csv, header true)"

# Stop after staging: the typed rows are there to compare.
set +e
PGCLIENTENCODING=LATIN1 INVOICE_LOADER_FAILPOINT=after_staged "$INVOICE_LOADER" \
  --dsn "dbname=$E2E_DB user=invoice_loader" \
  load --source acme-erp --business-date 2026-11-28 --input "$csv" >"$WORK/out" 2>"$WORK/err"
RC=$?
set -e
expect_rc 137
expect_eq "staged rows" 18 "$(q "select count(*) from staging.invoice_valid")"
expect_eq "passing rows" 12 "$(q "select count(*) from staging.invoice_valid where rules = 0")"

# Each typed column against the SQL cast of its text, as one line per
# differing record (none expected).  Amounts: round(x::numeric, minor unit)
# for a passing record, x::numeric for a failing one where readable.
amount() { # COLUMN: the expected text of staging's COLUMN
  echo "case when v.rules = 0 then round(r.$1::numeric, c.minor_unit)::text
             when ingest.is_plain_decimal(r.$1) then r.$1::numeric::text end"
}
diff=$(q "select string_agg(r.invoice_number, ' ' order by r.invoice_number)
          from public.e2e_raw as r
          join staging.invoice_valid as v on v.invoice_number = r.invoice_number
          left join ingest.currency as c on c.code = r.currency
          where v.net_amount::text is distinct from $(amount net_amount)
             or v.tax_amount::text is distinct from $(amount tax_amount)
             or v.gross_amount::text is distinct from $(amount gross_amount)
             or v.revision::text is distinct from
                case when r.revision ~ '^[0-9]{1,9}$' then r.revision::int::text end
             or v.invoice_date::text is distinct from
                case when ingest.is_iso_date(r.invoice_date) then r.invoice_date end
             or v.due_date::text is distinct from
                case when ingest.is_iso_date(r.due_date) then r.due_date end
             or (v.status, v.document_type, v.customer_id, v.currency)
                is distinct from (r.status, r.document_type, r.customer_id, r.currency)
             or v.description is distinct from
                case when v.rules = 0 then nullif(r.description, '') else r.description end")
expect_eq "records whose staged values differ from the SQL casts" "" "$diff"
# Spelled out, the edge values (canonical text, as SQL prints them).
expect_eq "EUR amounts" \
  "E-1 0.00 0.00 0.00|E-2 5.00 0.00 5.00|E-3 -12.50 0.00 -12.50|E-4 123456789012345678.99 0.00 123456789012345678.99|E-5 10000.00 -1.00 9999.00|E-6 -123456789012345678.99 0.00 -123456789012345678.99" \
  "$(q "select string_agg(concat_ws(' ', invoice_number, net_amount, tax_amount, gross_amount), '|' order by invoice_number)
        from staging.invoice_valid where currency = 'EUR' and rules = 0")"
expect_eq "JPY, KWD and CLF amounts" \
  "C-1 0.0001 9999.9999 10000.0000|C-2 1.0001 -0.0001 1.0000|J-1 10000 0 10000|J-2 -1 0 -1|K-1 9999.999 0.001 10000.000|K-2 0.500 0.250 0.750" \
  "$(q "select string_agg(concat_ws(' ', invoice_number, net_amount, tax_amount, gross_amount), '|' order by invoice_number)
        from staging.invoice_valid where currency <> 'EUR' and rules = 0")"
expect_eq "failing records' readable amounts, as written" \
  "F-1 1.00000001 0 1.0000|F-2 9999.9999 0 9999.0000|F-3 7.500 0 7.5|F-4 0.00000 0 0.00000|F-5 0.00 0 0.00|F-6 0 0.0100" \
  "$(q "select string_agg(concat_ws(' ', invoice_number, net_amount, tax_amount, gross_amount), '|' order by invoice_number)
        from staging.invoice_valid where rules <> 0")"
expect_eq "dates and revisions" \
  "E-1 0 2000-01-01 9999-12-31|E-2 7 1999-12-31 -|E-3 1 0001-01-01 0001-01-01|E-4 2 2024-02-29 2024-03-01|E-5 999999999 2026-11-28 -|E-6 0 2026-11-28 -" \
  "$(q "select string_agg(concat_ws(' ', invoice_number, revision, invoice_date, coalesce(due_date::text, '-')), '|' order by invoice_number)
        from staging.invoice_valid where invoice_number like 'E-%'")"
expect_eq "UTF-8 description, its bytes kept" "5a c3 bc 72 69 63 68 20 e2 82 ac 20 5c 20 74 61 62 09 65 6e 64" \
  "$(q "select regexp_replace(encode(convert_to(description, 'UTF8'), 'hex'), '(..)(?!$)', '\\1 ', 'g')
        from staging.invoice_valid where invoice_number = 'E-1'")"
expect_eq "the failing record's raw fields, in the contract's order (the empty description NULL)" \
  "F-6|x|ISSUED|INVOICE|C1|2026-02-30|soon|EUR|1e3|0|0.0100|(null)" \
  "$(q "select array_to_string(raw_fields, '|', '(null)')
        from staging.invoice_valid where invoice_number = 'F-6'")"
expect_eq "a passing record's raw fields: NULL" 0 \
  "$(q "select count(*) from staging.invoice_valid where invoice_number like 'E-%' and raw_fields is not null")"

# The rerun validates and publishes what was staged.
load --source acme-erp --business-date 2026-11-28 --input "$csv"
expect_rc 0
expect_eq "published amounts equal round(x, minor unit) of the text" "" \
  "$(q "select string_agg(r.invoice_number, ' ') from public.e2e_raw as r
        join reporting.invoice_version as i using (invoice_number)
        join ingest.currency as c on c.code = r.currency
        where (i.net_amount::text, i.tax_amount::text, i.gross_amount::text)
              is distinct from (round(r.net_amount::numeric, c.minor_unit)::text,
                                round(r.tax_amount::numeric, c.minor_unit)::text,
                                round(r.gross_amount::numeric, c.minor_unit)::text)")"
expect_eq "published versions" 12 "$(q "select count(*) from reporting.invoice_version")"
expect_eq "rejected records' gross amounts, as written" \
  "F-1 1.0000|F-2 9999.0000|F-3 7.5|F-4 0.00000|F-5 0.00|F-6 0.0100" \
  "$(q "select string_agg(distinct invoice_number || ' ' || gross_amount::text, '|')
        from ingest.rejection_row where record_no > 0")"
check_invariants
