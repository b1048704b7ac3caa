#!/usr/bin/env bash
# A file without the required gross_amount column is quarantined: exit 65,
# the message names the column, nothing is visible, the watermark stays.
source "$(dirname "$0")/lib.sh"

csv=$(sample "$WORK")
register_source acme-erp --start-date 2026-11-28
# Drop column 11 (gross_amount) from header and rows; the sample's only
# quoted field is the description, after it.
awk -F, -v OFS=, '{ out = ""; for (i = 1; i <= NF; i++) if (i != 11) out = out (out == "" ? "" : ",") $i; print out }' \
  "$csv" >"$WORK/no-gross.csv"
head -n 1 "$WORK/no-gross.csv" | grep -q gross_amount && fail "fixture still has gross_amount"
cp "$csv.manifest.json" "$WORK/no-gross.csv.manifest.json"
sed -i 's/"sha256":"[0-9a-f]*",\{0,1\}//; s/,}/}/' "$WORK/no-gross.csv.manifest.json"

load --source acme-erp --business-date 2026-11-28 --input "$WORK/no-gross.csv"
expect_rc 65
expect_output_has "gross_amount"
expect_output_has "header.missing_column"
expect_eq "batch state" "quarantined" "$(q "select state from ingest.batch_overview")"
expect_eq "rejection" "0|header.missing_column" \
  "$(q "select record_no || '|' || rule from ingest.rejection")"
expect_eq "published" "0 invoices, 0 gross" "$(published_state)"
expect_eq "versions" 0 "$(q 'select count(*) from reporting.invoice_version')"
expect_eq "watermark" "none" "$(watermark_of acme-erp)"
expect_eq "quarantine notifications" 1 "$(notifications batch_quarantined)"
expect_eq "publish notifications" 0 "$(notifications batch_published)"

# Running it again does not repeat anything.
load --source acme-erp --business-date 2026-11-28 --input "$WORK/no-gross.csv"
expect_rc 65
expect_eq "quarantine notifications after a rerun" 1 "$(notifications batch_quarantined)"
expect_eq "batches after a rerun" 1 "$(q 'select count(*) from ingest.batch_overview')"
