#!/usr/bin/env bash
# A database that is unreachable or restarting for less
# than the retry budget costs a run time, never its outcome.  With the
# default options (no --retry-attempts, no --retry-budget):
#   - the database is down for 20 s when the run starts (and, with
#     OUTAGE_LONG=1, for 60 s: opt-in, it makes the test a minute longer);
#   - the database stops (pg_ctl stop -m fast: sessions end with 57P01)
#     in the middle of validation and stays down for 10 s;
# each time the run exits 0, the batch is published once (count, total,
# watermark, one notification, state), and every wait was logged with its
# reason and the budget left, no wait longer than the 5 s cap.
source "$(dirname "$0")/lib.sh"
: "${TMP_PG_CTL:?needs scripts/with-tmp-pg.sh}"
# shellcheck disable=SC2086  # TMP_PG_CTL is a command line, split on purpose
trap '$TMP_PG_CTL -w start >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT
# shellcheck disable=SC2086
stop_server() { $TMP_PG_CTL -m fast -w stop >/dev/null; }
# shellcheck disable=SC2086
start_server() { $TMP_PG_CTL -w start >/dev/null; }

# default_load SRC CSV: the loader in the background with default options.
default_load() {
  "$INVOICE_LOADER" --dsn "dbname=$E2E_DB user=invoice_loader" load --source "$1" \
    --business-date 2026-11-28 --input "$2" >"$WORK/out" 2>"$WORK/err" &
  loader=$!
}

# published_once SRC RECORDS TOTAL: what one uninterrupted run leaves.
published_once() {
  local src=$1 records=$2 total=$3
  expect_eq "$src: published" "$records|$total" \
    "$(q "select count(*) || '|' || sum(gross_amount) from reporting.invoice where source = '$src'")"
  expect_eq "$src: versions" "$records" \
    "$(q "select count(*) from core.invoice_version where source = '$src'")"
  expect_eq "$src: watermark" 2026-11-28 "$(watermark_of "$src")"
  expect_eq "$src: one notification" 1 \
    "$(q "select count(*) from ingest.notification as n join ingest.batch as b using (batch_id)
          where b.source = '$src'")"
  expect_eq "$src: one batch, published" "published" \
    "$(q "select string_agg(state, ',') from ingest.batch where source = '$src'")"
}

# waits_logged STEP_FIELD: at least two logged waits whose step field is
# STEP_FIELD (as the text log writes it), each with its reason and the
# budget left, none longer than the cap.
waits_logged() {
  local step=$1 n longest
  n=$(grep "step failed; retrying" "$WORK/err" | grep -cF "step=$step " || true)
  [[ $n -ge 2 ]] || fail "$step: expected logged waits, found $n"
  grep "step failed; retrying" "$WORK/err" | grep -v "budget_left_ms=[0-9]" \
    && fail "a wait without the budget left"
  grep "step failed; retrying" "$WORK/err" | grep -v "reason=" \
    && fail "a wait without its reason"
  grep -q "retry budget exhausted" "$WORK/err" && fail "the budget ran out"
  longest=$(grep -o 'delay_ms=[0-9]*' "$WORK/err" | cut -d= -f2 | sort -n | tail -n 1)
  [[ $longest -le 5000 ]] || fail "a wait of $longest ms, beyond the 5 s cap"
}

# Down at the start, for 20 s (and 60 s when asked).
outages=(20)
[[ ${OUTAGE_LONG:-} == 1 ]] && outages+=(60)
for seconds in "${outages[@]}"; do
  src=down-$seconds
  register_source "$src" --start-date 2026-11-28
  csv=$(sample_for "$src" "$WORK/$src" 2026-11-28)
  stop_server
  default_load "$src" "$csv"
  sleep "$seconds"  # the outage itself
  start_server
  RC=0
  wait $loader || RC=$?
  expect_rc 0
  waits_logged connect
  grep -q "sqlstate=" "$WORK/err" || fail "the waits do not carry the SQLSTATE field"
  published_once "$src" 20 4200.00
done

# Down for 10 s in the middle of validation.
records=60000
src=down-mid-validation
register_source "$src" --start-date 2026-11-28
csv=$("$REPO/scripts/gen-invoices.sh" --source "$src" "$WORK/$src" 2026-11-28 $records)
total=$(sed 's/.*"control_total":"\([-0-9.]*\)".*/\1/' "$csv.manifest.json")
hold_validation psql -X -q -d "$E2E_DB"  # validation holds still for the outage (lib.sh)
default_load "$src" "$csv"
inject_when_active $loader validate_batch q stop_server
release_validation
[[ $INJECTED == yes ]] && sleep 10  # the outage itself
start_server
RC=0
wait $loader || RC=$?
[[ $INJECTED == yes ]] || fail "the loader finished before validation could be interrupted"
expect_rc 0
waits_logged '"after staged"'
published_once "$src" $records "$total"
check_invariants
