#!/usr/bin/env bash
# kill -9 of the loader from outside while its COPY is running: the server
# aborts the transaction (nothing staged survives, the batch stays
# received), and a plain rerun loads the file once.
source "$(dirname "$0")/lib.sh"

records=60000
register_source acme-erp --start-date 2026-11-28
csv=$("$REPO/scripts/gen-invoices.sh" "$WORK" 2026-11-28 $records)
total=$(sed 's/.*"control_total":"\([-0-9.]*\)".*/\1/' "$csv.manifest.json")

"$INVOICE_LOADER" --dsn "dbname=$E2E_DB user=invoice_loader" load --source acme-erp \
  --business-date 2026-11-28 --input "$csv" >"$WORK/out" 2>"$WORK/err" &
loader=$!
killed=no
while kill -0 $loader 2>/dev/null; do
  if [[ $(q "select count(*) from pg_stat_activity where application_name = 'invoice-loader'
             and state = 'active' and query ilike 'copy staging%'") -gt 0 ]]; then
    kill -9 $loader
    killed=yes
    break
  fi
  sleep 0.02
done
wait $loader 2>/dev/null || true
[[ $killed == yes ]] || fail "the COPY ended before the kill could be sent"
# The server notices the dead client and aborts its transaction.
for _ in $(seq 100); do
  [[ $(q "select count(*) from pg_stat_activity where application_name = 'invoice-loader'") == 0 ]] && break
  sleep 0.1
done
expect_eq "state after the kill" received "$(q 'select state from ingest.batch_overview')"
expect_eq "nothing staged survives" 0 "$(q 'select count(*) from staging.invoice_valid')"
expect_eq "nothing visible" 0 "$(q 'select count(*) from reporting.invoice')"

load --source acme-erp --business-date 2026-11-28 --input "$csv"
expect_rc 0
expect_eq "published once" "$records|$total" \
  "$(q "select count(*) || '|' || sum(gross_amount) from reporting.invoice")"
expect_eq "attempts" "1:abandoned 2:published" \
  "$(q "select string_agg(attempt_no || ':' || outcome, ' ' order by attempt_no) from ingest.attempt_overview")"
check_invariants
