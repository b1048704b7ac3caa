#!/usr/bin/env bash
# Reconciliation gates publication: a control total off by a cent, or one
# record fewer than the manifest says, quarantines the batch (exit 65).
source "$(dirname "$0")/lib.sh"

csv=$(sample "$WORK")
register_source acme-erp --start-date 2026-11-28

# The same records with CRLF endings: other bytes, so another batch (the
# same bytes would be the same batch, quarantined for good).
sed 's/$/\r/' "$csv" >"$WORK/cent.csv"
write_manifest "$WORK/cent.csv" 20 4199.99
load --source acme-erp --business-date 2026-11-28 --input "$WORK/cent.csv"
expect_rc 65
expect_output_has "reconcile.control_total"
expect_eq "state" "quarantined" "$(q "select state from ingest.batch_overview")"

head -n 20 "$csv" >"$WORK/nineteen.csv"   # header + 19 records
write_manifest "$WORK/nineteen.csv" 20 4200.00
load --source acme-erp --business-date 2026-11-28 --input "$WORK/nineteen.csv"
expect_rc 65
expect_output_has "reconcile.record_count"
expect_eq "rules of the short file" "reconcile.control_total,reconcile.record_count" \
  "$(q "select string_agg(r.rule, ',' order by r.rule) from ingest.rejection as r
        join ingest.batch_overview as b using (batch_id) where b.file_name = 'nineteen.csv'")"

expect_eq "published" "0 invoices, 0 gross" "$(published_state)"
expect_eq "watermark" "none" "$(watermark_of acme-erp)"
expect_eq "publish notifications" 0 "$(notifications batch_published)"
expect_eq "quarantine notifications" 2 "$(notifications batch_quarantined)"

# The correct file still publishes afterwards.
load --source acme-erp --business-date 2026-11-28 --input "$csv"
expect_rc 0
expect_eq "published" "20 invoices, 4200.00 gross" "$(published_state)"
