#!/usr/bin/env bash
# A load killed between writing its versions and publishing them
# (failpoint after_write_commit) leaves its batch written and unseen.  Then
# the next day's load of the same source waits for that batch (exit 75,
# naming it; nothing of the next day is written), a revert of the source's
# last publication exits 75 (IV219) and changes nothing, and status names
# the rerun as the next action.  The rerun publishes the written batch
# once; the next day publishes after it.
source "$(dirname "$0")/lib.sh"

src=written-wait
register_source "$src" --start-date 2026-11-28
d1=$(sample_for "$src" "$WORK/d1" 2026-11-28)
d2=$(sample_for "$src" "$WORK/d2" 2026-11-29)
d3=$(sample_for "$src" "$WORK/d3" 2026-11-30)
load --source "$src" --business-date 2026-11-28 --input "$d1"
expect_rc 0
first=$(q "select batch_id from ingest.batch where source = '$src' and business_date = '2026-11-28'")

set +e
INVOICE_LOADER_FAILPOINT=after_write_commit "$INVOICE_LOADER" --dsn "dbname=$E2E_DB user=invoice_loader" \
  load --source "$src" --business-date 2026-11-29 --input "$d2" >"$WORK/out" 2>"$WORK/err"
RC=$?
set -e
expect_rc 137
written=$(q "select batch_id from ingest.pending_publication where source = '$src'")
[[ -n $written ]] || fail "the killed load left no written batch"
expect_eq "only the first day visible" "20|4200.00" \
  "$(q "select count(*) || '|' || sum(gross_amount) from reporting.invoice where source = '$src'")"

load --source "$src" --business-date 2026-11-30 --input "$d3"
expect_rc 75
expect_output_has "waits for batch $written (written, not yet published)"
expect_eq "nothing of the third day written" 0 \
  "$(q "select count(*) from core.invoice_version as v join ingest.batch as b using (batch_id)
        where b.source = '$src' and b.business_date = '2026-11-30'")"

run invoice_loader status --source "$src"
expect_rc 0
expect_output_has "batch $written (2026-11-29) is written and not yet published"

run invoice_operator revert --batch "$first" --reason "the sender sent the wrong file"
expect_rc 75
expect_output_has "is written and not yet published"
expect_eq "the first day stays published" published \
  "$(q "select state from ingest.batch where batch_id = $first")"

load --source "$src" --business-date 2026-11-29 --input "$d2"
expect_rc 0
expect_output_has "published: 20 records"
load --source "$src" --business-date 2026-11-30 --input "$d3"
expect_rc 0
expect_eq "three days published" "60|12600.00" \
  "$(q "select count(*) || '|' || sum(gross_amount) from reporting.invoice where source = '$src'")"
expect_eq "watermark" 2026-11-30 "$(watermark_of "$src")"
expect_eq "one notification per day" 3 \
  "$(q "select count(*) from ingest.notification as n join ingest.batch as b using (batch_id)
        where b.source = '$src' and n.kind = 'batch_published'")"
check_invariants
