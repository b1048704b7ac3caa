#!/usr/bin/env bash
# Four runs of the same file at once: one holds the batch (advisory lock
# on source and date), the others retry with backoff until it is done and
# then find it published. All exit 0; the batch is loaded once.
source "$(dirname "$0")/lib.sh"

csv=$(sample "$WORK")
register_source acme-erp --start-date 2026-11-28
pids=()
for i in 1 2 3 4; do
  "$INVOICE_LOADER" --dsn "dbname=$E2E_DB user=invoice_loader" load --source acme-erp \
    --business-date 2026-11-28 --input "$csv" --retry-attempts 50 --retry-budget 300 \
    >"$WORK/out.$i" 2>"$WORK/err.$i" &
  pids+=($!)
done
for i in 1 2 3 4; do
  rc=0
  wait "${pids[$((i - 1))]}" || rc=$?
  [[ $rc == 0 ]] || { cat "$WORK/err.$i" >&2; fail "run $i exited $rc"; }
done
expect_eq "batches" 1 "$(q 'select count(*) from ingest.batch_overview')"
expect_eq "published" "20 invoices, 4200.00 gross" "$(published_state)"
expect_eq "versions" 20 "$(q 'select count(*) from reporting.invoice_version')"
expect_eq "publish notifications" 1 "$(notifications batch_published)"
expect_eq "one attempt published, the others found it published" \
  "already_published:3 published:1" \
  "$(q "select string_agg(outcome || ':' || n, ' ' order by outcome)
        from (select outcome, count(*) as n from ingest.attempt_overview group by outcome) as o")"
check_invariants
