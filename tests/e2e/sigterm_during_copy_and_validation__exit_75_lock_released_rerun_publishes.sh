#!/usr/bin/env bash
# SIGTERM (systemd stop, an Airflow kill) and SIGINT (Ctrl-C) during COPY
# and during validation: the loader cancels the running
# query, records the attempt as interrupted with its step, ends its
# session (so the runner lock is free) and exits 75; an immediate rerun
# publishes the batch once.  The waits below are loop bounds, not timings.
source "$(dirname "$0")/lib.sh"

register_source acme-erp --start-date 2026-11-28
csv=$("$REPO/scripts/gen-invoices.sh" "$WORK" 2026-11-28 300000)
records=300000
total=$(sed -E 's/.*"control_total": *"([^"]+)".*/\1/' "$csv.manifest.json")

# wait_for_query PATTERN: until a loader backend runs a query like PATTERN
# (at most 60 s).
wait_for_query() {
  local i
  for ((i = 0; i < 600; i++)); do
    loader_active "$1" && return 0
    kill -0 "$pid" 2>/dev/null || fail "the loader ended before running [$1]"
    sleep 0.1
  done
  fail "no loader query like [$1] within 60 s"
}

# interrupt SIGNAL PATTERN STEP: start a load, signal it while PATTERN runs,
# and check what it left.
interrupt() {
  local signal=$1 pattern=$2 step=$3 start rc i
  "$INVOICE_LOADER" --dsn "dbname=$E2E_DB user=invoice_loader" load --source acme-erp \
    --business-date 2026-11-28 --input "$csv" >"$WORK/out" 2>"$WORK/err" &
  pid=$!
  wait_for_query "$pattern"
  start=$(date +%s.%N)
  kill -"$signal" "$pid"
  set +e
  wait "$pid"; rc=$?
  set -e
  RC=$rc
  expect_rc 75
  echo "exit $rc $(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }') s after SIG$signal during $step"
  expect_output_has "interrupted by SIG$signal during $step"
  for ((i = 0; i < 50; i++)); do
    [[ $(q "select count(*) from pg_stat_activity where application_name = 'invoice-loader'") == 0 ]] && break
    sleep 0.1
  done
  expect_eq "loader backends left after SIG$signal" 0 \
    "$(q "select count(*) from pg_stat_activity where application_name = 'invoice-loader'")"
  expect_eq "the interrupted attempt" "interrupted|interrupted" \
    "$(q "select outcome || '|' || error_class from ingest.attempt order by attempt_id desc limit 1")"
  expect_eq "nothing published after SIG$signal" "0 invoices, 0 gross" "$(published_state)"
  expect_eq "watermark after SIG$signal" none "$(watermark_of acme-erp)"
}

interrupt TERM 'copy staging.invoice_valid%' 'staging (COPY)'
expect_eq "state after an interrupted COPY" received "$(q 'select state from ingest.batch')"
expect_eq "staged rows after an interrupted COPY" 0 "$(q 'select count(*) from staging.invoice_valid')"

# The same file again at once: staged now, and stopped in validation.
hold_validation psql -X -q -d "$E2E_DB"  # validation holds still for the signal (lib.sh)
interrupt INT '%ingest.validate_batch%' validation
release_validation
expect_eq "state after an interrupted validation" staged "$(q 'select state from ingest.batch')"

# An immediate rerun is not refused as "another run is loading": it
# publishes, once.
load --source acme-erp --business-date 2026-11-28 --input "$csv"
expect_rc 0
expect_eq "published" "$records invoices, $total gross" "$(published_state)"
expect_eq "watermark" 2026-11-28 "$(watermark_of acme-erp)"
expect_eq "notifications" 1 "$(notifications batch_published)"
expect_eq "attempts: two interrupted, one published" "interrupted,interrupted,published" \
  "$(q "select string_agg(outcome, ',' order by attempt_no) from ingest.attempt")"
check_invariants
