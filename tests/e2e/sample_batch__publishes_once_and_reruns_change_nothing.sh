#!/usr/bin/env bash
# The sample nightly batch (20 invoices, 4,200.00) goes from file to
# published; two more runs of the same file change nothing.
source "$(dirname "$0")/lib.sh"

csv=$(sample "$WORK")
register_source acme-erp --start-date 2026-11-28

load --source acme-erp --business-date 2026-11-28 --input "$csv"
expect_rc 0
expect_eq "published invoices" "20 invoices, 4200.00 gross" "$(published_state)"
expect_eq "watermark" "2026-11-28" "$(watermark_of acme-erp)"
expect_eq "batch state" "published" "$(q "select state from ingest.batch_overview")"
expect_eq "publish notifications" 1 "$(notifications batch_published)"
expect_eq "versions" 20 "$(q 'select count(*) from reporting.invoice_version')"
grep -q "run=" "$WORK/err" || fail "log lines carry no run id"
# The summary on stdout keeps the amounts' digits (not 4200.0).
grep -qF "20 records: 20 inserted, 0 amended, 0 voided, 0 unchanged, 0 late, 0 duplicate, 0 rejected; gross 4200.00, control total 4200.00" "$WORK/out" ||
  fail "the publish summary on stdout is not exact: $(cat "$WORK/out")"

for rerun in 2 3; do
  load --source acme-erp --business-date 2026-11-28 --input "$csv"
  expect_rc 0
  expect_output_has "already published"
  expect_eq "published invoices after run $rerun" "20 invoices, 4200.00 gross" "$(published_state)"
  expect_eq "versions after run $rerun" 20 "$(q 'select count(*) from reporting.invoice_version')"
  expect_eq "batches after run $rerun" 1 "$(q 'select count(*) from ingest.batch_overview')"
  expect_eq "publish notifications after run $rerun" 1 "$(notifications batch_published)"
  expect_eq "watermark after run $rerun" "2026-11-28" "$(watermark_of acme-erp)"
done
expect_eq "attempts" "1:published 2:already_published 3:already_published" \
  "$(q "select string_agg(attempt_no || ':' || outcome, ' ' order by attempt_no)
        from ingest.attempt_overview")"
expect_eq "checkpoints" "received staged validated published" \
  "$(q "select string_agg(to_state, ' ' order by event_id) from ingest.batch_event_overview")"
