#!/usr/bin/env bash
# Closed periods with the real binary: an operator closes November through
# 2026-11-27 (period close, audited); the next night's file amends an
# invoice dated 2026-11-26 and adds one dated 2026-11-28: under
# all-or-nothing it is quarantined (65) with period.closed for the
# amendment alone, and nothing of it is published; a file that resends the
# invoice exactly, with the new one, publishes.  A revert of the first
# night exits 78 (IV310) naming the date and changes nothing.  A kill
# before the reopen's commit leaves the period closed; the reopen run again
# takes effect once; then the revert runs.
source "$(dirname "$0")/lib.sh"

register_source acme-erp --start-date 2026-11-28
day1=$(sample "$WORK/d1" 2026-11-28)
load --source acme-erp --business-date 2026-11-28 --input "$day1"
expect_rc 0
b1=$(q "select batch_id from ingest.batch where business_date = '2026-11-28'")

run invoice_operator period close --source acme-erp --through 2026-11-27 --reason "November closed"
expect_rc 0
expect_output_has "source acme-erp closed through 2026-11-27"
run invoice_operator period close --source acme-erp --through 2026-11-27 --reason "again"
expect_rc 0
expect_output_has "nothing changed"
run invoice_loader period close --source acme-erp --through 2026-11-27 --reason "not mine"
expect_rc 77
run invoice_operator period close --source acme-erp --reason "no date"
expect_rc 64
run invoice_operator status --source acme-erp
expect_rc 0
expect_output_has "acme-erp: closed through 2026-11-27"

# Night 2: record 2 of night 1 (dated 2026-11-26) amended (revision 1, a
# new description), and a new invoice dated 2026-11-28.
{
  head -n 1 "$day1"
  sed -n 3p "$day1" | awk -F, 'BEGIN { OFS = "," } { $2 = 1; print }' | sed 's/,"Consulting, ""phase 2"" workshop"$/,Consulting phase 2 amended/'
  echo 'ACME-20261129-001,0,ISSUED,INVOICE,CUST-001,2026-11-28,2026-12-28,EUR,100.00,19.00,119.00,New in December'
} >"$WORK/d2.csv"
grep -q '^ACME-20261128-002,1,.*amended$' "$WORK/d2.csv" || fail "the amendment line is not as meant: $(cat "$WORK/d2.csv")"
write_manifest "$WORK/d2.csv" 2 247.97 2026-11-29
before=$(published_state)
load --source acme-erp --business-date 2026-11-29 --input "$WORK/d2.csv"
expect_rc 65
expect_output_has "period.closed"
b2=$(q "select batch_id from ingest.batch where business_date = '2026-11-29'")
expect_eq "rejections of night 2" "1 period.closed" \
  "$(q "select string_agg(record_no || ' ' || rule, ',') from ingest.rejection where batch_id = $b2")"
expect_eq "nothing of night 2 published" "$before" "$(published_state)"
expect_eq "watermark after the refused night" 2026-11-28 "$(watermark_of acme-erp)"

# An exact resend of the closed invoice, with the new one: published.
{
  head -n 1 "$day1"
  sed -n 3p "$day1"
  echo 'ACME-20261129-001,0,ISSUED,INVOICE,CUST-001,2026-11-28,2026-12-28,EUR,100.00,19.00,119.00,New in December'
} >"$WORK/d2b.csv"
write_manifest "$WORK/d2b.csv" 2 247.97 2026-11-29
load --source acme-erp --business-date 2026-11-29 --input "$WORK/d2b.csv"
expect_rc 0
expect_eq "published after the resend" "21 invoices, 4319.00 gross" "$(published_state)"
expect_eq "watermark" 2026-11-29 "$(watermark_of acme-erp)"
b2b=$(q "select batch_id from ingest.batch where business_date = '2026-11-29' and state = 'published'")

# Reverting night 1 would change the closed period: 78, nothing changes.
run invoice_operator revert --batch "$b2b" --reason "undo night 2"
expect_rc 0
run invoice_operator revert --batch "$b1" --reason "undo night 1"
expect_rc 78
expect_output_has "2026-11-27"
expect_eq "night 1 stays published" published "$(q "select state from ingest.batch where batch_id = $b1")"
expect_eq "published after the refused revert" "20 invoices, 4200.00 gross" "$(published_state)"

# A reopen killed before its commit changes nothing; run again, it takes
# effect once.
set +e
INVOICE_LOADER_FAILPOINT=before_period_commit "$INVOICE_LOADER" --dsn "dbname=$E2E_DB user=invoice_operator" \
  period reopen --source acme-erp --reason "adjustment for 2026-11-26" >"$WORK/out" 2>"$WORK/err"
RC=$?
set -e
expect_rc 137
expect_eq "still closed after the kill" 2026-11-27 \
  "$(q "select locked_through from ingest.source where source = 'acme-erp'")"
run invoice_operator period reopen --source acme-erp --reason "adjustment for 2026-11-26"
expect_rc 0
expect_output_has "source acme-erp reopened"
expect_eq "audited actions" "period_close 2026-11-27,period_reopen -" \
  "$(q "select string_agg(action || ' ' || coalesce(period_through::text, '-'), ',' order by action_id)
        from ingest.operator_action where source = 'acme-erp'")"

# Reopened: the refused revert runs.
run invoice_operator revert --batch "$b1" --reason "undo night 1"
expect_rc 0
expect_eq "nothing published after both reverts" "0 invoices, 0 gross" "$(published_state)"
check_invariants
