#!/usr/bin/env bash
# The database is down when the run starts: it retries with backoff and
# publishes once the server is back within the budget; down for longer
# than the budget, it exits 75 having registered nothing. A runner lock
# held by another session longer than the budget also ends in 75, with
# nothing registered.
source "$(dirname "$0")/lib.sh"
: "${TMP_PG_CTL:?needs scripts/with-tmp-pg.sh}"
# shellcheck disable=SC2086
trap '$TMP_PG_CTL -w start >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT
stop_server() { $TMP_PG_CTL -m fast -w stop >/dev/null; }
start_server() { $TMP_PG_CTL -w start >/dev/null; }

register_source acme-erp --start-date 2026-11-28
day1=$(sample "$WORK/d1" 2026-11-28)
day2=$(sample "$WORK/d2" 2026-11-29)

# Down for a short while: the run waits it out.
stop_server
"$INVOICE_LOADER" --dsn "dbname=$E2E_DB user=invoice_loader" load --source acme-erp \
  --business-date 2026-11-28 --input "$day1" --retry-attempts 100 --retry-budget 120 \
  >"$WORK/out" 2>"$WORK/err" &
loader=$!
sleep 2  # let it fail to connect a few times (not a timing assertion)
start_server
RC=0
wait $loader || RC=$?
expect_rc 0
grep -q "retrying" "$WORK/err" || fail "no retry was logged"
grep -q "step=connect" "$WORK/err" || fail "the retry log does not name the step"
expect_eq "published" "20 invoices, 4200.00 gross" "$(published_state)"

# Down for longer than the budget: exit 75, nothing registered.
stop_server
run invoice_loader load --source acme-erp --business-date 2026-11-29 --input "$day2" \
  --retry-attempts 100 --retry-budget 2
start_server
expect_rc 75
expect_output_has "retry budget exhausted"
expect_eq "batches after the failed run" 1 "$(q 'select count(*) from ingest.batch')"
expect_eq "watermark unchanged" 2026-11-28 "$(watermark_of acme-erp)"

# Another session holds the runner lock of (acme-erp, 2026-11-29) for
# longer than the budget.
mkfifo "$WORK/hold"
psql -X -q -d "$E2E_DB" <"$WORK/hold" >/dev/null &
holder=$!
exec 9>"$WORK/hold"
echo "select pg_advisory_lock(hashtext('invoice-loader:acme-erp'), date '2026-11-29' - date '2000-01-01');" >&9
until [[ $(q "select count(*) from pg_locks where locktype = 'advisory' and granted") -gt 0 ]]; do sleep 0.1; done
run invoice_loader load --source acme-erp --business-date 2026-11-29 --input "$day2" \
  --retry-attempts 100 --retry-budget 2
expect_rc 75
expect_output_has "another run is loading source acme-erp"
expect_eq "batches while the lock is held" 1 "$(q 'select count(*) from ingest.batch')"
exec 9>&-
wait $holder || true

load --source acme-erp --business-date 2026-11-29 --input "$day2"
expect_rc 0
expect_eq "watermark" 2026-11-29 "$(watermark_of acme-erp)"
check_invariants
