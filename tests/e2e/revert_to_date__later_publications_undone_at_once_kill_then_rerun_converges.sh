#!/usr/bin/env bash
# revert --source S --to-date D with the real binary: three nights
# published; the undo to the first night, killed before its commit, leaves
# everything as it was; run again, it reverts nights 3 and 2 in one
# transaction: one revert action and one batch_reverted notification per
# batch, the watermark back at night 1, its 20 invoices current, and both
# reverts visible to readers at the same instant (one commit).  Run a third
# time it finds nothing to do.  Malformed combinations exit 64.
source "$(dirname "$0")/lib.sh"

register_source acme-erp --start-date 2026-11-28
for d in 2026-11-28 2026-11-29 2026-11-30; do
  load --source acme-erp --business-date "$d" --input "$(sample "$WORK/$d" "$d")"
  expect_rc 0
done
expect_eq "three nights" "60 invoices, 12600.00 gross" "$(published_state)"

set +e
INVOICE_LOADER_FAILPOINT=before_revert_commit "$INVOICE_LOADER" --dsn "dbname=$E2E_DB user=invoice_operator" \
  revert --source acme-erp --to-date 2026-11-28 --reason "feed wrong since the 29th" >"$WORK/out" 2>"$WORK/err"
RC=$?
set -e
expect_rc 137
expect_eq "nothing reverted after the kill" "60 invoices, 12600.00 gross" "$(published_state)"
expect_eq "no action after the kill" 0 "$(q "select count(*) from ingest.operator_action")"
expect_eq "watermark after the kill" 2026-11-30 "$(watermark_of acme-erp)"

run invoice_operator revert --source acme-erp --to-date 2026-11-28 --reason "feed wrong since the 29th"
expect_rc 0
expect_output_has "2 publication(s) reverted in one transaction"
expect_output_has "watermark now 2026-11-28"
expect_eq "night 1 alone" "20 invoices, 4200.00 gross" "$(published_state)"
expect_eq "watermark" 2026-11-28 "$(watermark_of acme-erp)"
expect_eq "states" "published reverted reverted" \
  "$(q "select string_agg(state, ' ' order by business_date) from ingest.batch")"
expect_eq "one revert action per batch" "2026-11-29 revert,2026-11-30 revert" \
  "$(q "select string_agg(b.business_date || ' ' || o.action, ',' order by b.business_date)
        from ingest.operator_action as o join ingest.batch as b using (batch_id)")"
expect_eq "one notification per batch" 2 "$(notifications batch_reverted)"
expect_eq "readers see both reverts at one instant" 1 \
  "$(q "select count(distinct at) from ingest.history_instant where kind = 'reverted'")"

run invoice_operator revert --source acme-erp --to-date 2026-11-28 --reason "again"
expect_rc 0
expect_output_has "nothing changed"
run invoice_operator revert --source acme-erp --batch 1 --to-date 2026-11-28 --reason "both"
expect_rc 64
run invoice_operator revert --source acme-erp --reason "no date"
expect_rc 64
run invoice_operator revert --source acme-erp --to-date 2026-13-01 --reason "bad date"
expect_rc 64
run invoice_operator revert --source nope --to-date 2026-11-28 --reason "unknown"
expect_rc 78
check_invariants
