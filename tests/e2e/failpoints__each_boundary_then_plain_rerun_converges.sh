#!/usr/bin/env bash
# Every failpoint of docs/reference/failpoints.md that load passes (the loader
# SIGKILLs itself there), then a plain rerun: the batch stands at the
# expected checkpoint after the kill, and after the rerun the database
# equals an uninterrupted run's: 20 invoices, 4200.00, watermark, one
# publish notification, attempts closed (the killed one as abandoned).
source "$(dirname "$0")/lib.sh"

# failpoint:state the batch must be left in by the killed run
cases="after_received:received mid_copy:received after_staged:staged
after_validated:validated after_write_commit:validated before_publish_commit:validated
after_publish_commit:published"

for c in $cases; do
  point=${c%%:*} left=${c#*:}
  src=fp-${point//_/-}
  register_source "$src" --start-date 2026-11-28
  csv=$(sample_for "$src" "$WORK/$point" 2026-11-28)

  set +e
  INVOICE_LOADER_FAILPOINT=$point "$INVOICE_LOADER" --dsn "dbname=$E2E_DB user=invoice_loader" \
    load --source "$src" --business-date 2026-11-28 --input "$csv" >"$WORK/out" 2>"$WORK/err"
  RC=$?
  set -e
  expect_rc 137
  expect_output_has "failpoint $point"
  expect_eq "$point: state after the kill" "$left" \
    "$(q "select state from ingest.batch_overview where source = '$src'")"
  if [[ $left != published ]]; then
    expect_eq "$point: nothing visible" 0 "$(q "select count(*) from reporting.invoice where source = '$src'")"
    expect_eq "$point: no watermark" none "$(watermark_of "$src")"
    expect_eq "$point: no notification" 0 \
      "$(q "select count(*) from ingest.notification as n join ingest.batch as b using (batch_id) where b.source = '$src'")"
  fi
  if [[ $point == after_write_commit ]]; then
    # written and reconciled, unseen: the rerun only publishes it
    expect_eq "after_write_commit: versions written" 20 \
      "$(q "select count(*) from core.invoice_version as v join ingest.batch as b using (batch_id) where b.source = '$src'")"
    expect_eq "after_write_commit: listed as written" 1 \
      "$(q "select count(*) from ingest.pending_publication where source = '$src'")"
  fi
  if [[ $point == mid_copy ]]; then
    expect_eq "mid_copy: no staged rows survive" 0 \
      "$(q "select count(*) from staging.invoice_valid as v join ingest.batch as b using (batch_id) where b.source = '$src'")"
  fi

  load --source "$src" --business-date 2026-11-28 --input "$csv"
  expect_rc 0
  expect_eq "$point: published after the rerun" "20|4200.00" \
    "$(q "select count(*) || '|' || sum(gross_amount) from reporting.invoice where source = '$src'")"
  expect_eq "$point: versions" 20 "$(q "select count(*) from reporting.invoice_version where source = '$src'")"
  expect_eq "$point: nothing left listed as written" 0 \
    "$(q "select count(*) from ingest.pending_publication where source = '$src'")"
  expect_eq "$point: watermark" 2026-11-28 "$(watermark_of "$src")"
  expect_eq "$point: attempts" "1:abandoned 2:$([[ $left == published ]] && echo already_published || echo published)" \
    "$(q "select string_agg(a.attempt_no || ':' || a.outcome, ' ' order by a.attempt_no)
          from ingest.attempt_overview as a join ingest.batch as b using (batch_id) where b.source = '$src'")"
done
expect_eq "publish notifications" 7 "$(notifications batch_published)"
check_invariants
