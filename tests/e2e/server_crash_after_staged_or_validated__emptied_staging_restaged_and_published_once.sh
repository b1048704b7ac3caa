#!/usr/bin/env bash
# A server crash after the staged or the validated checkpoint empties the
# unlogged staging tables while the checkpoint (logged) survives: the
# loader dies at the failpoint (after_staged, after_validated), then
# pg_ctl restart -m immediate (a crash, then recovery) leaves the batch
# staged or validated with no staging.invoice_line row.  A plain rerun
# exits 0: validation (staged) or publication (validated) finds the rows
# gone, sends the batch back to received with one <state>->received event
# carrying a reason, the loader stages the file again, and the batch is
# published once: 20 invoices, 4200.00, watermark, one notification, the
# dead attempt abandoned, and the invariants hold.
source "$(dirname "$0")/lib.sh"
: "${TMP_PG_CTL:?needs scripts/with-tmp-pg.sh}"
# shellcheck disable=SC2086  # TMP_PG_CTL is a command line, split on purpose
crash_server() { $TMP_PG_CTL -m immediate -w restart >/dev/null; }
trap '$TMP_PG_CTL -w start >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT

# failpoint:checkpoint left:the checkpoints of the whole story, in order
cases="after_staged:staged:received,staged,received,staged,validated,published
after_validated:validated:received,staged,validated,received,staged,validated,published"

for c in $cases; do
  IFS=: read -r point left story <<<"$c"
  src=crash-${point//_/-}
  register_source "$src" --start-date 2026-11-28
  csv=$(sample_for "$src" "$WORK/$point" 2026-11-28)

  set +e
  INVOICE_LOADER_FAILPOINT=$point "$INVOICE_LOADER" --dsn "dbname=$E2E_DB user=invoice_loader" \
    load --source "$src" --business-date 2026-11-28 --input "$csv" >"$WORK/out" 2>"$WORK/err"
  RC=$?
  set -e
  expect_rc 137
  expect_output_has "failpoint $point"
  batch=$(q "select batch_id from ingest.batch where source = '$src'")
  expect_eq "$point: state after the kill" "$left" "$(q "select state from ingest.batch where batch_id = $batch")"
  expect_eq "$point: staged rows before the crash" 20 \
    "$(q "select count(*) from staging.invoice_valid where batch_id = $batch")"

  crash_server
  expect_eq "$point: the checkpoint survives the crash" "$left" \
    "$(q "select state from ingest.batch where batch_id = $batch")"
  expect_eq "$point: staged rows after the crash" "0 0" \
    "$(q "select (select count(*) from staging.invoice_line where batch_id = $batch) || ' ' ||
                 (select count(*) from staging.invoice_valid where batch_id = $batch)")"

  load --source "$src" --business-date 2026-11-28 --input "$csv"
  expect_rc 0
  expect_eq "$point: sent back to received once, with a reason" "$left->received:true" \
    "$(q "select string_agg(from_state || '->' || to_state || ':' || (detail ? 'reason'), ' ')
          from ingest.batch_event where batch_id = $batch and from_state = '$left' and to_state = 'received'")"
  expect_eq "$point: checkpoints" "$story" \
    "$(q "select string_agg(to_state, ',' order by event_id) from ingest.batch_event where batch_id = $batch")"
  expect_eq "$point: published once" "published|20|4200.00" \
    "$(q "select b.state || '|' || count(i.*) || '|' || sum(i.gross_amount)
          from ingest.batch as b left join reporting.invoice as i on i.source = b.source
          where b.batch_id = $batch group by b.state")"
  expect_eq "$point: versions" 20 "$(q "select count(*) from reporting.invoice_version where source = '$src'")"
  expect_eq "$point: merge counts" "20|20|0" \
    "$(q "select merge_counts ->> 'records' || '|' || (merge_counts ->> 'inserted') || '|' ||
                 (merge_counts ->> 'rejected') from ingest.batch where batch_id = $batch")"
  expect_eq "$point: watermark" 2026-11-28 "$(watermark_of "$src")"
  expect_eq "$point: one notification" 1 \
    "$(q "select count(*) from ingest.notification where batch_id = $batch and kind = 'batch_published'")"
  expect_eq "$point: attempts" "1:abandoned 2:published" \
    "$(q "select string_agg(attempt_no || ':' || outcome, ' ' order by attempt_no)
          from ingest.attempt_overview where batch_id = $batch")"
done
expect_eq "publish notifications" 2 "$(notifications batch_published)"
check_invariants
