#!/usr/bin/env bash
# A URL input's transient failures are retried by the load's one retry
# layer (docs/design/architecture.md), and only there: the server's
# request count is exactly one per try.  503 twice then 200; a body cut in
# the middle once; a stall that trips --low-speed-time; 429 with
# Retry-After: 1 (the wait is logged with the server's value).  Each ends
# with one published batch of the file's real SHA-256; a rerun of a
# published URL downloads it again (its spooled copy went with the
# publication) and changes nothing.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/feed_lib.sh"

register_source acme-erp --start-date 2026-11-28
start_server
published_days=0

# after_day DATE FILE: the DATE's batch is published with FILE's bytes,
# one more than before, nothing left half-written in the spool.
after_day() {
  local date=$1 file=$2 sha
  published_days=$((published_days + 1))
  sha=$(sha256sum "$WWW/$file" | cut -d' ' -f1)
  expect_eq "$date batches" "$published_days" "$(q 'select count(*) from ingest.batch')"
  expect_eq "$date batch" "published|$sha|$file" \
    "$(q "select state || '|' || sha256 || '|' || file_name from ingest.batch where business_date = '$date'")"
  expect_eq "$date invoices" "$((20 * published_days)) invoices, $((4200 * published_days)).00 gross" \
    "$(published_state)"
  expect_eq "$date watermark" "$date" "$(watermark_of acme-erp)"
  expect_eq "$date notifications" "$published_days" "$(notifications batch_published)"
  expect_eq "$date spool temporaries" 0 "$(find "$SPOOL" -name '.part-*' | wc -l)"
  grep -q "downloaded.*sha256=$sha\|sha256=$sha.*downloaded" "$WORK/err" \
    || fail "$date: the download is not logged with its SHA-256"
  [[ -e $SPOOL/$sha ]] && fail "$date: the published file stayed in the spool"
  check_invariants
}

# 503 twice, then the file: three requests, one batch.
f=$(feed_sample 2026-11-28)
set_script "{\"/$f\": [\"503\", \"503\", \"200\"]}"
fload --source acme-erp --business-date 2026-11-28 --input "$BASE/$f" --retry-budget 60
expect_rc 0
expect_eq "503 requests" 3 "$(requests "/$f")"
expect_eq "503 manifest requests" 1 "$(requests "/$f.manifest.json")"
expect_eq "503 retries logged" 2 "$(grep -c 'step=download .*step failed; retrying' "$WORK/err")"
after_day 2026-11-28 "$f"

# The rerun: the spooled copy went with the publication, so the GET is
# unconditional (200, no If-None-Match); the batch is found published and
# no copy stays in the spool.
fload --source acme-erp --business-date 2026-11-28 --input "$BASE/$f"
expect_rc 0
expect_output_has "already published"
expect_eq "rerun requests" 4 "$(requests "/$f")"
expect_eq "rerun answered 200 to an unconditional GET" "200 False" \
  "$("${HTTP_CURL[@]}" "$BASE/_requests?path=/$f" | python3 -c 'import json,sys; r=json.load(sys.stdin)[-1]; print(r["status"], "If-None-Match" in r["headers"])')"
expect_eq "rerun: spooled copy" 0 "$(find "$SPOOL" -name "$(sha256sum "$WWW/$f" | cut -d' ' -f1)" | wc -l)"
published_days=0; after_day 2026-11-28 "$f"; published_days=1

# A body cut in the middle once (curl 18): retried, the whole file loaded.
f=$(feed_sample 2026-11-29)
set_script "{\"/$f\": [\"cut\"]}"
fload --source acme-erp --business-date 2026-11-29 --input "$BASE/$f" --retry-budget 60
expect_rc 0
expect_eq "cut requests" 2 "$(requests "/$f")"
expect_eq "cut retry logged" 1 "$(grep -c 'step=download .*step failed; retrying' "$WORK/err")"
after_day 2026-11-29 "$f"

# A server that sends the headers and then nothing: the low-speed limit
# (1 s here) cuts the transfer as transient, the next try gets the file.
f=$(feed_sample 2026-11-30)
set_script "{\"/$f\": [\"stall:20\"]}"
fload --source acme-erp --business-date 2026-11-30 --input "$BASE/$f" \
  --low-speed-time 1 --retry-budget 60
expect_rc 0
expect_eq "stall requests" 2 "$(requests "/$f")"
grep -q 'step=download .*class=transient.*step failed; retrying' "$WORK/err" \
  || fail "the stall was not retried as transient"
after_day 2026-11-30 "$f"

# 429 with Retry-After: 1: the retry waits at least the server's second
# (the log line names it; the time itself is not asserted).
f=$(feed_sample 2026-12-01)
set_script "{\"/$f\": [\"429\"]}"
fload --source acme-erp --business-date 2026-12-01 --input "$BASE/$f" --retry-budget 60
expect_rc 0
expect_eq "429 requests" 2 "$(requests "/$f")"
grep -q 'step=download .*retry_after_ms=1000 .*step failed; retrying' "$WORK/err" \
  || fail "the wait for Retry-After is not logged"
delay=$(grep -o 'step=download try=1 delay_ms=[0-9]*' "$WORK/err" | grep -o '[0-9]*$')
[[ -n $delay && $delay -ge 1000 ]] || fail "the wait after a 429 is not at least Retry-After: [$delay] ms"
after_day 2026-12-01 "$f"

# A Retry-After beyond what is left of the budget ends the run at once
# (exit 75), one request, nothing registered for that date.
f=$(feed_sample 2026-12-02)
set_script "{\"/$f\": [\"503:3600\"]}"
fload --source acme-erp --business-date 2026-12-02 --input "$BASE/$f" --retry-budget 10
expect_rc 75
expect_output_has "retry budget exhausted"
expect_eq "Retry-After beyond the budget: requests" 1 "$(requests "/$f")"
expect_eq "no batch for 2026-12-02" 0 "$(q "select count(*) from ingest.batch where business_date = '2026-12-02'")"
expect_eq "watermark" 2026-12-01 "$(watermark_of acme-erp)"
check_invariants

# SIGTERM during a download (a stalled one here) aborts the transfer:
# exit 75 as interrupted, no retry, nothing registered, nothing left in the
# spool.  Without the abort the loader would sit out the 60 s stall; it
# must be gone long before (a liveness bound of 15 s, polled).
f=$(feed_sample 2026-12-03)
set_script "{\"/$f\": [\"stall:60\"]}"
set +e
"$INVOICE_LOADER" --dsn "dbname=$E2E_DB user=invoice_loader" load --spool-dir "$SPOOL" \
  --source acme-erp --business-date 2026-12-03 --input "$BASE/$f" --low-speed-time 600 \
  >"$WORK/out" 2>"$WORK/err" &
loader=$!
for ((i = 0; i < 100; i++)); do
  [[ $(requests "/$f") == 1 ]] && break
  sleep 0.1
done
kill -TERM "$loader"
for ((i = 0; i < 150; i++)); do
  kill -0 "$loader" 2>/dev/null || break
  sleep 0.1
done
kill -0 "$loader" 2>/dev/null && { kill -KILL "$loader"; fail "SIGTERM did not abort the stalled download"; }
wait "$loader"
RC=$?
set -e
expect_rc 75
expect_output_has "interrupted by SIGTERM during downloading"
grep -q 'step failed; retrying' "$WORK/err" && fail "the interrupted download was retried"
expect_eq "SIGTERM: requests" 1 "$(requests "/$f")"
expect_eq "SIGTERM: no batch" 0 "$(q "select count(*) from ingest.batch where business_date = '2026-12-03'")"
expect_eq "SIGTERM: spool temporaries" 0 "$(find "$SPOOL" -name '.part-*' | wc -l)"
check_invariants
