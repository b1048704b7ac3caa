#!/usr/bin/env bash
# A file of several currencies reconciles per currency.  The sample's 20
# EUR invoices (4200.00) plus two JPY invoices (11000 + 22000 = 33000):
#   1. a manifest with only control_total 37200.00 (the meaningless sum):
#      quarantined with reconcile.control_total_needs_currency naming EUR
#      and JPY, exit 65;
#   2. control_totals with JPY a yen off (a new file: CRLF line ends):
#      quarantined with reconcile.control_total, exit 65;
#   3. the right control_totals, killed at the publishing commit
#      (before_publish_commit), then a plain rerun: published once, with
#      each currency's sum visible, the watermark and one notification;
#   4. --expect-total EUR=.. --expect-total JPY=.. with a third file
#      publishes too; a single --expect-total on it is 65.
# After each step: invoices, amounts per currency, watermark,
# notifications and batch states.
source "$(dirname "$0")/lib.sh"

csv=$(sample "$WORK")
register_source acme-erp --start-date 2026-11-28
multi=$WORK/multi.csv
cp "$csv" "$multi"
printf '%s\n' \
  'JPY-0001,0,ISSUED,INVOICE,CUST-001,2026-11-28,,JPY,10000,1000,11000,yen one' \
  'JPY-0002,0,ISSUED,INVOICE,CUST-002,2026-11-28,,JPY,20000,2000,22000,yen two' >>"$multi"
head -1 "$multi" | grep -q '^invoice_number,revision,status,document_type,customer_id,invoice_date,due_date,currency,net_amount,tax_amount,gross_amount,description' \
  || fail "the sample's header changed: $(head -1 "$multi")"
per_currency() {
  q "select coalesce(string_agg(currency || ' ' || n || ' ' || s, ', ' order by currency), 'none')
     from (select currency, count(*) as n, sum(gross_amount) as s
           from reporting.invoice group by currency) as t"
}
manifest_totals() {  # CSV COUNT TOTALS-JSON
  printf '{"source":"acme-erp","business_date":"2026-11-28","record_count":%s,"control_totals":%s}\n' \
    "$2" "$3" >"$1.manifest.json"
}

# 1. a single total over two currencies
write_manifest "$multi" 22 37200.00
load --source acme-erp --business-date 2026-11-28 --input "$multi"
expect_rc 65
expect_output_has "reconcile.control_total_needs_currency"
expect_eq "1: rule and currencies named" "reconcile.control_total_needs_currency|true" \
  "$(q "select r.rule || '|' || (r.detail like '%EUR, JPY%') from ingest.rejection as r
        join ingest.batch_overview as b using (batch_id) where b.file_name = 'multi.csv'")"

# 2. per currency, JPY a yen off
sed 's/$/\r/' "$multi" >"$WORK/off.csv"
manifest_totals "$WORK/off.csv" 22 '{"EUR":"4200.00","JPY":"32999"}'
load --source acme-erp --business-date 2026-11-28 --input "$WORK/off.csv"
expect_rc 65
expect_eq "2: rule" "reconcile.control_total" \
  "$(q "select string_agg(r.rule, ',') from ingest.rejection as r
        join ingest.batch_overview as b using (batch_id) where b.file_name = 'off.csv'")"
expect_eq "1-2: nothing published" "none" "$(per_currency)"
expect_eq "1-2: watermark" "none" "$(watermark_of acme-erp)"
expect_eq "1-2: publish notifications" 0 "$(notifications batch_published)"
expect_eq "1-2: quarantine notifications" 2 "$(notifications batch_quarantined)"

# 3. the right totals, killed at the publishing commit, then a plain rerun
good=$WORK/good.csv
sed 's/^\(JPY-0002.*\)yen two$/\1yen two (resent)/' "$multi" >"$good"
manifest_totals "$good" 22 '{"EUR":"4200.00","JPY":"33000"}'
set +e
INVOICE_LOADER_FAILPOINT=before_publish_commit "$INVOICE_LOADER" \
  --dsn "dbname=$E2E_DB user=invoice_loader" \
  load --source acme-erp --business-date 2026-11-28 --input "$good" >"$WORK/out" 2>"$WORK/err"
RC=$?
set -e
expect_rc 137
expect_eq "3: killed, nothing visible" "none" "$(per_currency)"
expect_eq "3: killed, state" "validated" \
  "$(q "select state from ingest.batch_overview where file_name = 'good.csv'")"
load --source acme-erp --business-date 2026-11-28 --input "$good"
expect_rc 0
# the load's summary and status give the totals per currency, never a sum
# across them
grep -qF -- "0 rejected; gross EUR 4200.00, JPY 33000; control totals EUR 4200.00, JPY 33000" "$WORK/out" \
  || fail "3: the summary does not give the totals per currency: $(cat "$WORK/out")"
b3=$(q "select batch_id from ingest.batch_overview where file_name = 'good.csv'")
run invoice_operator status --batch "$b3"
expect_rc 0
grep -qF "EUR 4200.00, JPY 33000" "$WORK/out" || fail "3: status does not show the totals per currency"
run invoice_operator status --batch "$b3" --format json
expect_rc 0
expect_eq "3: status JSON, manifest and accepted totals per currency" \
  "EUR 4200.00 JPY 33000 | EUR 4200.00 JPY 33000" \
  "$(python3 -c 'import json, sys
b = json.load(sys.stdin, parse_float=str, parse_int=str)["batches"][0]
show = lambda d: " ".join(k + " " + d[k] for k in sorted(d))
print(show(b["control_totals"]), "|", show(b["merge_counts"]["accepted_by_currency"]))' <"$WORK/out")"
expect_eq "3: per currency" "EUR 20 4200.00, JPY 2 33000" "$(per_currency)"
run invoice_operator status --format prometheus
expect_rc 0
expect_eq "3: the metrics give the publication's gross per currency" \
  'invoice_loader_last_publication_gross{source="acme-erp",currency="EUR"} 4200.00|invoice_loader_last_publication_gross{source="acme-erp",currency="JPY"} 33000' \
  "$(grep '^invoice_loader_last_publication_gross' "$WORK/out" | paste -sd'|')"
expect_eq "3: watermark" "2026-11-28" "$(watermark_of acme-erp)"
expect_eq "3: publish notifications" 1 "$(notifications batch_published)"
expect_eq "3: states" "quarantined,quarantined,published" \
  "$(q "select string_agg(state, ',' order by batch_id) from ingest.batch_overview")"
check_invariants

# 4. --expect-total per currency, on the next day's file
day2=$WORK/day2.csv
sed 's/2026-11-28/2026-11-29/g; s/^ACME-/ACMF-/; s/^JPY-/JPZ-/' "$multi" >"$day2"
load --source acme-erp --business-date 2026-11-29 --input "$day2" \
  --expect-count 22 --expect-total 37200.00 --dry-run
expect_rc 65
expect_output_has "reconcile.control_total_needs_currency"
load --source acme-erp --business-date 2026-11-29 --input "$day2" \
  --expect-count 22 --expect-total EUR=4200.00 --expect-total JPY=33000
expect_rc 0
expect_eq "4: per currency" "EUR 40 8400.00, JPY 4 66000" "$(per_currency)"
expect_eq "4: watermark" "2026-11-29" "$(watermark_of acme-erp)"
expect_eq "4: publish notifications" 2 "$(notifications batch_published)"
check_invariants
