#!/usr/bin/env bash
# The same bytes under another name are the same batch: no new batch, no
# new version, no new notification.
source "$(dirname "$0")/lib.sh"

csv=$(sample "$WORK")
register_source acme-erp --start-date 2026-11-28
load --source acme-erp --business-date 2026-11-28 --input "$csv"
expect_rc 0
batch=$(q "select batch_id from ingest.batch_overview")

mkdir "$WORK/elsewhere"
cp "$csv" "$WORK/elsewhere/resent-by-mail.csv"
cp "$csv.manifest.json" "$WORK/elsewhere/resent-by-mail.csv.manifest.json"
load --source acme-erp --business-date 2026-11-28 --input "$WORK/elsewhere/resent-by-mail.csv"
expect_rc 0
expect_output_has "batch $batch"
expect_eq "batches" 1 "$(q 'select count(*) from ingest.batch_overview')"
expect_eq "versions" 20 "$(q 'select count(*) from reporting.invoice_version')"
expect_eq "published" "20 invoices, 4200.00 gross" "$(published_state)"
expect_eq "publish notifications" 1 "$(notifications batch_published)"

# The same bytes claimed for another business date are refused (78), and
# nothing changes.
load --source acme-erp --business-date 2026-11-29 --input "$WORK/elsewhere/resent-by-mail.csv"
expect_rc 78
expect_eq "batches after the wrong date" 1 "$(q 'select count(*) from ingest.batch_overview')"
expect_eq "watermark" "2026-11-28" "$(watermark_of acme-erp)"
