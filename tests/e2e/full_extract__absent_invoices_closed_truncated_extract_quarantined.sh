#!/usr/bin/env bash
# A full-extract source with the real binary (source add --extract full,
# default --max-absent-share 0.10).  Night 1 lists 20 open invoices (each
# 119.00): published, nothing closed.  Night 2 lists 18 of them and a new
# one: within the share (2 of 20), published; the two absent invoices leave
# reporting.invoice in the same publication, reporting.invoice_version
# keeps them closed_by_absence, and the load's output, status (text and
# JSON) and the batch_published body say 2 closed by absence.  Night 3 is a
# truncated extract (5 of 19): exit 65, extract.absent_share, and nothing
# changes (invoices, amounts, watermark, notifications, the batch state
# quarantined).  A replay with --allow-absent-share (audited) lets the next
# load publish it; that load is killed after the write's commit
# (after_write_commit) and a plain rerun publishes once.  The revert of
# night 3 brings the 14 invoices back.  Bad option values exit 64 / 78.
source "$(dirname "$0")/lib.sh"

# extract DATE FROM TO [EXTRA_LINE]: invoices FULL-FROM..FULL-TO (119.00
# each, dated 2026-11-20), plus an optional line; manifest beside it.
extract() {
  local date=$1 from=$2 to=$3 extra=${4:-} csv="$WORK/full_$1.csv" n total
  {
    echo 'invoice_number,revision,status,document_type,customer_id,invoice_date,due_date,currency,net_amount,tax_amount,gross_amount,description'
    for ((i = from; i <= to; i++)); do
      printf 'FULL-%03d,0,ISSUED,INVOICE,CUST-001,2026-11-20,2026-12-20,EUR,100.00,19.00,119.00,open item %d\n' "$i" "$i"
    done
    [[ -z $extra ]] || echo "$extra"
  } >"$csv"
  n=$(($(wc -l <"$csv") - 1))
  total=$(awk -F, 'NR > 1 { s += $11 } END { printf "%.2f", s }' "$csv")
  write_manifest "$csv" "$n" "$total" "$date"
  echo "$csv"
}
current() { q "select count(*) || ' ' || coalesce(sum(gross_amount), 0) from reporting.invoice where source = 'acme-erp'"; }

# Option values: a malformed share is a usage error, a share for a delta
# source a configuration error; a loader login may not set them.
run invoice_operator source add acme-erp --extract full --max-absent-share 1.5
expect_rc 64
run invoice_operator source add acme-erp --extract snapshot
expect_rc 64
register_source acme-erp --start-date 2026-11-28
run invoice_operator source add acme-erp --max-absent-share 0.2
expect_rc 78
run invoice_loader source add acme-erp --extract full
expect_rc 77
register_source acme-erp --extract full
expect_output_has "extract full, max absent share 0.10"
expect_eq "stored settings" "full|0.10" "$(q "select extract_kind, max_absent_share from ingest.source where source = 'acme-erp'")"

# Night 1: 20 open invoices.
load --source acme-erp --business-date 2026-11-28 --input "$(extract 2026-11-28 1 20)"
expect_rc 0
expect_output_has "0 closed by absence"
expect_eq "night 1" "20 2380.00" "$(current)"

# Night 2: FULL-001..018 and a new one: FULL-019 and FULL-020 are absent.
load --source acme-erp --business-date 2026-11-29 --input \
  "$(extract 2026-11-29 1 18 'NEW-001,0,ISSUED,INVOICE,CUST-002,2026-11-29,2026-12-29,EUR,10.00,1.90,11.90,new')"
expect_rc 0
expect_output_has "2 closed by absence"
b2=$(q "select batch_id from ingest.batch where business_date = '2026-11-29'")
expect_eq "night 2 current view" "19 2153.90" "$(current)"
expect_eq "night 2 history of the absent" "FULL-019 false true $b2|FULL-020 false true $b2" \
  "$(q "select string_agg(invoice_number || ' ' || is_current || ' ' || closed_by_absence || ' ' || superseded_by_batch_id, '|' order by invoice_number)
        from reporting.invoice_version where source = 'acme-erp' and invoice_number in ('FULL-019', 'FULL-020')")"
expect_eq "night 2 notification body" 2 \
  "$(q "select body ->> 'closed_by_absence' from ingest.outbox where batch_id = $b2 and kind = 'batch_published'")"
run invoice_operator status --source acme-erp
expect_rc 0
expect_output_has "batch $b2 (acme-erp, 2026-11-29): 2 invoices closed by absence"
run invoice_operator status --batch "$b2" --format json
expect_rc 0
expect_eq "status json" 2 "$(python3 -c 'import json,sys; print(json.load(sys.stdin)["batches"][0]["closed_by_absence"])' <"$WORK/out")"

# Night 3: a truncated extract, 5 of the 19 current invoices.
before=$(published_state)
published_before=$(notifications batch_published)
csv3=$(extract 2026-11-30 1 5)
load --source acme-erp --business-date 2026-11-30 --input "$csv3"
expect_rc 65
expect_output_has "extract.absent_share"
b3=$(q "select batch_id from ingest.batch where business_date = '2026-11-30'")
expect_eq "night 3 state" quarantined "$(q "select state from ingest.batch_overview where batch_id = $b3")"
expect_eq "night 3 changed nothing" "$before" "$(published_state)"
expect_eq "night 3 current view" "19 2153.90" "$(current)"
expect_eq "watermark after the truncated extract" 2026-11-29 "$(watermark_of acme-erp)"
expect_eq "no publication notified" "$published_before" "$(notifications batch_published)"
expect_eq "one quarantine notified" 1 "$(q "select count(*) from ingest.notification where batch_id = $b3 and kind = 'batch_quarantined'")"
expect_eq "no closure recorded" 0 "$(q "select count(*) from core.invoice_closure where batch_id = $b3")"

# The operator allows it; the load is killed after the write's commit, and
# a plain rerun publishes it once.
run invoice_operator replay --batch "$b3" --reason "the customer closed 14 contracts" --allow-absent-share
expect_rc 0
expect_eq "override audited" "t" \
  "$(q "select allow_absent_share from ingest.operator_action where batch_id = $b3 and action = 'replay'")"
set +e
INVOICE_LOADER_FAILPOINT=after_write_commit "$INVOICE_LOADER" --dsn "dbname=$E2E_DB user=invoice_loader" \
  load --source acme-erp --business-date 2026-11-30 --input "$csv3" >"$WORK/out" 2>"$WORK/err"
RC=$?
set -e
expect_rc 137
expect_eq "written, unseen" "19 2153.90" "$(current)"
load --source acme-erp --business-date 2026-11-30 --input "$csv3"
expect_rc 0
expect_eq "night 3 published" "5 595.00" "$(current)"
expect_eq "night 3 closures" 14 "$(q "select merge_counts ->> 'closed_by_absence' from ingest.batch where batch_id = $b3")"
expect_eq "one publication of night 3" 1 "$(q "select count(*) from ingest.notification where batch_id = $b3 and kind = 'batch_published'")"
expect_eq "watermark" 2026-11-30 "$(watermark_of acme-erp)"

# The revert of night 3 brings the 14 back.
run invoice_operator revert --batch "$b3" --reason "the extract was cut short after all"
expect_rc 0
expect_eq "after the revert" "19 2153.90" "$(current)"
expect_eq "closures undone" 14 "$(q "select count(*) from core.invoice_closure where batch_id = $b3 and reverted_at is not null")"
expect_eq "watermark after the revert" 2026-11-29 "$(watermark_of acme-erp)"
check_invariants
