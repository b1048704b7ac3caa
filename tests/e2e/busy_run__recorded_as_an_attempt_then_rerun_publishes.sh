#!/usr/bin/env bash
# A run refused because another holds the batch retries
# within its budget, then exits 75 and is recorded as an attempt with
# outcome busy, which status --batch shows; once the holder is gone the
# rerun publishes once.
source "$(dirname "$0")/lib.sh"

csv=$(sample "$WORK")
register_source acme-erp --start-date 2026-11-28
set +e
INVOICE_LOADER_FAILPOINT=after_received "$INVOICE_LOADER" --dsn "dbname=$E2E_DB user=invoice_loader" \
  load --source acme-erp --business-date 2026-11-28 --input "$csv" >"$WORK/out" 2>"$WORK/err"
RC=$?
set -e
expect_rc 137
batch=$(q "select batch_id from ingest.batch")

# Another session holds the runner lock of (acme-erp, 2026-11-28).
mkfifo "$WORK/hold"
psql -X -q -d "$E2E_DB" <"$WORK/hold" >/dev/null &
holder=$!
exec 9>"$WORK/hold"
echo "select pg_advisory_lock(k.key1, k.key2) from ingest.runner_lock_key('acme-erp', '2026-11-28') as k;" >&9
for ((i = 0; i < 100; i++)); do
  [[ $(q "select count(*) from pg_locks where locktype = 'advisory' and granted and pid <> pg_backend_pid()") -gt 0 ]] && break
  sleep 0.1
done
load --source acme-erp --business-date 2026-11-28 --input "$csv" --retry-budget 2
expect_rc 75
expect_output_has "another run is loading source acme-erp"
expect_eq "the busy run is an attempt" "busy|received" \
  "$(q "select outcome || '|' || state_at_start from ingest.attempt where batch_id = $batch
        order by attempt_no desc limit 1")"
run invoice_loader status --batch "$batch"
expect_rc 0
grep -E '^[0-9]+ +[0-9a-f-]{36} .* busy ' "$WORK/out" >/dev/null || fail "status does not show the busy attempt"
expect_eq "nothing published while held" "0 invoices, 0 gross" "$(published_state)"
exec 9>&-
wait "$holder" || true

load --source acme-erp --business-date 2026-11-28 --input "$csv"
expect_rc 0
expect_eq "published" "20 invoices, 4200.00 gross" "$(published_state)"
expect_eq "watermark" 2026-11-28 "$(watermark_of acme-erp)"
expect_eq "one notification" 1 "$(notifications batch_published)"
expect_eq "attempts" "abandoned busy published" \
  "$(q "select string_agg(outcome, ' ' order by attempt_no) from ingest.attempt where batch_id = $batch")"
check_invariants
