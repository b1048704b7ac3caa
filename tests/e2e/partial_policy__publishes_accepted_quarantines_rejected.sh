#!/usr/bin/env bash
# A source with --policy partial --max-rejected-share 0.1: a file of 20 with
# 1 bad record publishes the other 19 and keeps the bad one in
# ingest.rejection; 3 bad of 20 (15%) quarantines the whole file
# (policy.rejected_share); 2 bad of 20 is exactly the maximum and publishes.
# In every published file accepted + rejected reconcile with the manifest.
# Last: a revision conflict that appears while a validated file waits for
# an earlier date is, under this policy, one rejected row, not a reason to
# quarantine the other 19.
source "$(dirname "$0")/lib.sh"

src=split-erp

# gen CSV DATE PREFIX [RECORD:KIND ...]: 20 invoices PREFIX-01..20, record i
# with net 100+i, tax 19%, gross 119+1.19*i (EUR, 2629.90 in all), except
# the records named: sum (gross 1.00 too high), sign (an INVOICE with
# negative amounts), currency (ZZZ), late_date (invoice date the day after
# the business date), shared (invoice SP-SHARED, net 12.00, gross 14.28).
# Writes the manifest next to it: record_count 20, control_total = the sum of
# the gross amounts as written, over all records.
gen() {
  local csv=$1 date=$2 prefix=$3; shift 3
  declare -A kind=()
  local spec
  for spec in "$@"; do kind[${spec%%:*}]=${spec#*:}; done
  local i net tax gross total=0 number currency idate sign
  idate=$date
  echo "invoice_number,revision,status,document_type,customer_id,invoice_date,due_date,currency,net_amount,tax_amount,gross_amount,description" >"$csv"
  for i in $(seq 1 20); do
    number=$(printf '%s-%02d' "$prefix" "$i") currency=EUR sign=1 idate=$date
    net=$(( (100 + i) * 100 )) tax=$(( (100 + i) * 19 ))
    gross=$(( net + tax ))
    case ${kind[$i]:-} in
      sum) gross=$(( gross + 100 )) ;;
      sign) sign=-1 ;;
      currency) currency=ZZZ ;;
      late_date) idate=$(date -d "$date + 1 day" +%F) ;;
      shared) number=SP-SHARED net=1200 tax=228 gross=1428 ;;
      '') ;;
      *) fail "gen: unknown kind ${kind[$i]}" ;;
    esac
    total=$(( total + sign * gross ))
    printf '%s,0,ISSUED,INVOICE,CUST-%02d,%s,,%s,%s,%s,%s,%s\n' "$number" $(( i % 5 )) "$idate" \
      "$currency" "$(money $(( sign * net )))" "$(money $(( sign * tax )))" \
      "$(money $(( sign * gross )))" "record $i of $prefix" >>"$csv"
  done
  printf '{"source":"%s","business_date":"%s","record_count":20,"control_total":"%s"}\n' \
    "$src" "$date" "$(money "$total")" >"$csv.manifest.json"
}
money() {  # money CENTS: -12.34 style
  local c=$1 s=
  if (( c < 0 )); then s=- c=$(( -c )); fi
  printf '%s%d.%02d' "$s" $(( c / 100 )) $(( c % 100 ))
}
batch_of() { q "select batch_id from ingest.batch_overview where file_name = '$1'"; }
state_of() { q "select state from ingest.batch_overview where batch_id = $1"; }
totals() { q "select count(*) || ' invoices, ' || coalesce(sum(gross_amount), 0) || ' gross'
              from reporting.invoice where source = '$src'"; }
rejections() {
  q "select coalesce(string_agg(record_no || ' ' || coalesce(invoice_number, '-') || ' ' || rule, '; '
                                order by record_no, rule), '')
     from ingest.rejection where batch_id = $1"
}
counts() {
  q "select format('ins=%s rej=%s rec=%s accepted=%s rejected=%s control=%s',
                   c->>'inserted', c->>'rejected', c->>'records', c->>'accepted_gross',
                   c->>'rejected_gross', c->>'control_total')
     from (select merge_counts as c from ingest.batch_overview where batch_id = $1) as x"
}
notif_counts() {
  q "select format('ins=%s rej=%s rec=%s accepted=%s rejected=%s control=%s',
                   c->>'inserted', c->>'rejected', c->>'records', c->>'accepted_gross',
                   c->>'rejected_gross', c->>'control_total')
     from (select payload->'counts' as c from ingest.notification
           where kind = 'batch_published' and batch_id = $1) as x"
}
published_numbers() {  # published_numbers PREFIX: which of PREFIX-01..20 are visible
  q "select coalesce(string_agg(right(invoice_number, 2), ' ' order by invoice_number), '')
     from reporting.invoice where invoice_number like '$1-%'"
}

register_source "$src" --policy partial --max-rejected-share 0.1 --start-date 2026-12-01
expect_eq "source policy" "partial 0.1" \
  "$(q "select policy || ' ' || max_rejected_share from ingest.source where source = '$src'")"

# --- 1 bad record of 20: 19 publish --------------------------------------------
gen "$WORK/a.csv" 2026-12-01 SP-A 7:sum
expect_eq "file a control total (generator)" \
  '{"source":"split-erp","business_date":"2026-12-01","record_count":20,"control_total":"2630.90"}' \
  "$(cat "$WORK/a.csv.manifest.json")"
load --source "$src" --business-date 2026-12-01 --input "$WORK/a.csv"
expect_rc 0
ba=$(batch_of a.csv)
expect_eq "file a state" published "$(state_of "$ba")"
expect_eq "file a rejections" "7 SP-A-07 amounts.sum" "$(rejections "$ba")"
expect_eq "file a published records" \
  "01 02 03 04 05 06 08 09 10 11 12 13 14 15 16 17 18 19 20" "$(published_numbers SP-A)"
# 2630.90 in the file, minus record 7 as written (128.33).
expect_eq "totals after file a" "19 invoices, 2502.57 gross" "$(totals)"
expect_eq "file a merge counts" \
  "ins=19 rej=1 rec=20 accepted=2502.57 rejected=128.33 control=2630.90" "$(counts "$ba")"
expect_eq "file a notification counts" "$(counts "$ba")" "$(notif_counts "$ba")"
expect_eq "file a accepted and rejected counts" "19 1" \
  "$(q "select accepted_count || ' ' || rejected_count from ingest.batch_overview where batch_id = $ba")"
expect_eq "watermark after file a" 2026-12-01 "$(watermark_of "$src")"
expect_eq "publish notifications after file a" 1 "$(notifications batch_published)"
expect_eq "versions after file a" 19 "$(q "select count(*) from reporting.invoice_version")"

# --- 3 bad records of 20 (15% > 10%): quarantined, nothing visible ---------------
gen "$WORK/b.csv" 2026-12-02 SP-B 3:sum 9:sign 15:currency
load --source "$src" --business-date 2026-12-02 --input "$WORK/b.csv"
expect_rc 65
expect_output_has "policy.rejected_share"
bb=$(batch_of b.csv)
expect_eq "file b state" quarantined "$(state_of "$bb")"
expect_eq "file b rejections" \
  "0 - policy.rejected_share; 3 SP-B-03 amounts.sum; 9 SP-B-09 gross_amount.sign; 15 SP-B-15 currency.unknown" \
  "$(rejections "$bb")"
expect_eq "nothing of file b is visible" "" "$(published_numbers SP-B)"
expect_eq "totals after file b" "19 invoices, 2502.57 gross" "$(totals)"
expect_eq "versions after file b" 19 "$(q "select count(*) from reporting.invoice_version")"
expect_eq "watermark after file b" 2026-12-01 "$(watermark_of "$src")"
expect_eq "publish notifications after file b" 1 "$(notifications batch_published)"
expect_eq "quarantine notification of file b" "$bb 3" \
  "$(q "select batch_id || ' ' || (payload->>'rejected_records') from ingest.notification
        where kind = 'batch_quarantined'")"

# --- 2 bad records of 20 (exactly 10%): publishes 18 -----------------------------
gen "$WORK/c.csv" 2026-12-02 SP-C 4:late_date 20:sum
load --source "$src" --business-date 2026-12-02 --input "$WORK/c.csv"
expect_rc 0
bc=$(batch_of c.csv)
expect_eq "file c rejections" "4 SP-C-04 invoice_date.after_business_date; 20 SP-C-20 amounts.sum" \
  "$(rejections "$bc")"
expect_eq "file c published records" \
  "01 02 03 05 06 07 08 09 10 11 12 13 14 15 16 17 18 19" "$(published_numbers SP-C)"
# File c: 2630.90; rejected 123.76 (record 4) + 143.80 (record 20, as written).
expect_eq "file c merge counts" \
  "ins=18 rej=2 rec=20 accepted=2363.34 rejected=267.56 control=2630.90" "$(counts "$bc")"
expect_eq "file c notification counts" "$(counts "$bc")" "$(notif_counts "$bc")"
expect_eq "totals after file c" "37 invoices, 4865.91 gross" "$(totals)"
expect_eq "watermark after file c" 2026-12-02 "$(watermark_of "$src")"
expect_eq "publish notifications after file c" 2 "$(notifications batch_published)"

# --- A conflict that appears while a validated file waits ------------------------
# Day 4 arrives first: SP-SHARED r0 (14.28) and 19 more; valid, it waits.
gen "$WORK/d4.csv" 2026-12-04 SP-D 1:shared
load --source "$src" --business-date 2026-12-04 --input "$WORK/d4.csv"
expect_rc 75
bd4=$(batch_of d4.csv)
expect_eq "day 4 waits validated" validated "$(state_of "$bd4")"
# Day 3 publishes SP-SHARED r0 with other amounts (11.90).
{ echo "invoice_number,revision,status,document_type,customer_id,invoice_date,due_date,currency,net_amount,tax_amount,gross_amount,description"
  echo "SP-SHARED,0,ISSUED,INVOICE,CUST-09,2026-12-03,,EUR,10.00,1.90,11.90,version of day 3"
} >"$WORK/d3.csv"
printf '{"source":"%s","business_date":"2026-12-03","record_count":1,"control_total":"11.90"}\n' \
  "$src" >"$WORK/d3.csv.manifest.json"
load --source "$src" --business-date 2026-12-03 --input "$WORK/d3.csv"
expect_rc 0
expect_eq "totals after day 3" "38 invoices, 4877.81 gross" "$(totals)"
expect_eq "watermark after day 3" 2026-12-03 "$(watermark_of "$src")"

# Day 4 again: SP-SHARED r0 now contradicts a published revision. Under the
# partial policy that is one rejected row (1 of 20 <= 10%), exactly as if
# day 4 had been validated after day 3: the other 19 publish.
# Day 4: 2629.90 - 120.19 (record 1 replaced) + 14.28 (SP-SHARED) = 2523.99.
load --source "$src" --business-date 2026-12-04 --input "$WORK/d4.csv"
expect_eq "SP-SHARED keeps the published revision" "11.90 version of day 3" \
  "$(q "select gross_amount || ' ' || description from reporting.invoice where invoice_number = 'SP-SHARED'")"
expect_eq "day 4 state (partial: the conflict is a rejected row)" published "$(state_of "$bd4")"
expect_rc 0
expect_eq "day 4 rejections" "1 SP-SHARED revision.conflict" "$(rejections "$bd4")"
expect_eq "day 4 published records" \
  "02 03 04 05 06 07 08 09 10 11 12 13 14 15 16 17 18 19 20" "$(published_numbers SP-D)"
expect_eq "day 4 merge counts" \
  "ins=19 rej=1 rec=20 accepted=2509.71 rejected=14.28 control=2523.99" "$(counts "$bd4")"
expect_eq "watermark after day 4" 2026-12-04 "$(watermark_of "$src")"
