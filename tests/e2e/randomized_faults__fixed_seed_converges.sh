#!/usr/bin/env bash
# A bounded randomized run (fixed seed): day after day, a random failpoint
# (or none) kills the load at a random boundary, and a plain rerun follows;
# the invariant checker runs after every day. FAULT_ITERATIONS sets the
# number of days (default 20; a longer soak: FAULT_ITERATIONS=200),
# FAULT_SEED the seed (default 20261128).
source "$(dirname "$0")/lib.sh"

RANDOM=${FAULT_SEED:-20261128}
iterations=${FAULT_ITERATIONS:-20}
points=(none after_received mid_copy after_staged after_validated
        before_publish_commit after_publish_commit)
register_source acme-erp --start-date 2026-01-01
expect_count=0
for ((i = 0; i < iterations; i++)); do
  date=$(date -d "2026-01-01 + $i days" +%F)
  csv=$(sample "$WORK/d$i" "$date")
  point=${points[RANDOM % ${#points[@]}]}
  set +e
  if [[ $point == none ]]; then
    "$INVOICE_LOADER" --dsn "dbname=$E2E_DB user=invoice_loader" \
      load --source acme-erp --business-date "$date" --input "$csv" >"$WORK/out" 2>"$WORK/err"
  else
    INVOICE_LOADER_FAILPOINT=$point "$INVOICE_LOADER" --dsn "dbname=$E2E_DB user=invoice_loader" \
      load --source acme-erp --business-date "$date" --input "$csv" >"$WORK/out" 2>"$WORK/err"
  fi
  RC=$?
  set -e
  [[ $point == none ]] && expect_rc 0 || expect_rc 137
  # a second fault on the rerun, half of the time, then a clean run
  if ((RANDOM % 2)); then
    point2=${points[1 + RANDOM % (${#points[@]} - 1)]}
    set +e
    INVOICE_LOADER_FAILPOINT=$point2 "$INVOICE_LOADER" --dsn "dbname=$E2E_DB user=invoice_loader" \
      load --source acme-erp --business-date "$date" --input "$csv" >"$WORK/out" 2>"$WORK/err"
    set -e
  fi
  load --source acme-erp --business-date "$date" --input "$csv"
  expect_rc 0
  expect_count=$((expect_count + 20))
  expect_eq "day $i ($point): invoices" "$expect_count" "$(q 'select count(*) from reporting.invoice')"
  expect_eq "day $i: watermark" "$date" "$(watermark_of acme-erp)"
  check_invariants
done
expect_eq "publish notifications" "$iterations" "$(notifications batch_published)"
