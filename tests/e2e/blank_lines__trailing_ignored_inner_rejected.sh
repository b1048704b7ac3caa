#!/usr/bin/env bash
# Blank lines (docs/reference/input-file.md): a file ending in blank lines publishes
# with the records before them (the blanks are not records, but the SHA-256
# covers them); a blank line inside the data quarantines the batch with the
# rule csv.blank_line naming the line, and nothing of it is published.
# A header-only file followed by blank lines is an empty business day.
source "$(dirname "$0")/lib.sh"

register_source acme-erp --start-date 2026-11-28

# Day 1: the sample plus three blank lines at the end.
csv=$(sample "$WORK/d1" 2026-11-28)
printf '\n\n\n' >>"$csv"
write_manifest "$csv" 20 4200.00 2026-11-28
load --source acme-erp --business-date 2026-11-28 --input "$csv"
expect_rc 0
expect_eq "day 1 batch" "published|20|4200.00" \
  "$(q "select state || '|' || record_count || '|' || control_total from ingest.batch_overview")"
expect_eq "published" "20 invoices, 4200.00 gross" "$(published_state)"
expect_eq "rejections" 0 "$(q 'select count(*) from ingest.rejection')"
sha=$(sha256sum "$csv"); sha=${sha%% *}
expect_eq "the SHA-256 covers the blank lines too" "$sha" \
  "$(q "select sha256 from ingest.batch_overview")"
expect_eq "watermark after day 1" 2026-11-28 "$(watermark_of acme-erp)"

# Day 2: the header and two blank lines: an empty day, 0 records.
mkdir "$WORK/d2"
csv=$WORK/d2/acme-erp_2026-11-29.csv
printf 'invoice_number,revision,status,document_type,customer_id,invoice_date,due_date,currency,net_amount,tax_amount,gross_amount,description\r\n\r\n\r\n' >"$csv"
write_manifest "$csv" 0 0.00 2026-11-29
load --source acme-erp --business-date 2026-11-29 --input "$csv"
expect_rc 0
expect_eq "day 2 batch" "published|0" \
  "$(q "select state || '|' || record_count from ingest.batch_overview where business_date = '2026-11-29'")"
expect_eq "watermark after the empty day" 2026-11-29 "$(watermark_of acme-erp)"

# Day 3: a blank line after record 4 (line 6: the header is line 1).
csv=$(sample "$WORK/d3" 2026-11-30)
sed -i '5a\\' "$csv"
expect_eq "fixture line 6" "" "$(sed -n 6p "$csv")"
expect_eq "fixture lines" 22 "$(wc -l <"$csv")"
write_manifest "$csv" 20 4200.00 2026-11-30
load --source acme-erp --business-date 2026-11-30 --input "$csv"
expect_rc 65
expect_output_has "csv.blank_line"
expect_output_has "line 6 is blank"
expect_eq "day 3 batch" "quarantined" \
  "$(q "select state from ingest.batch_overview where business_date = '2026-11-30'")"
expect_eq "day 3 rejection" "5|csv.blank_line" \
  "$(q "select r.record_no || '|' || r.rule from ingest.rejection as r
        join ingest.batch_overview as b using (batch_id)
        where b.business_date = '2026-11-30'")"
expect_eq "the detail names the line" 1 \
  "$(q "select count(*) from ingest.rejection where detail like 'line 6 is blank (between record 4 and record 5)%'")"
expect_eq "published after day 3" "20 invoices, 4200.00 gross" "$(published_state)"
expect_eq "versions of day 3" 0 \
  "$(q "select count(*) from reporting.invoice_version where invoice_number like 'ACME-20261130-%'")"
expect_eq "watermark after day 3" 2026-11-29 "$(watermark_of acme-erp)"
expect_eq "publish notifications" 2 "$(notifications batch_published)"
expect_eq "quarantine notifications" 1 "$(notifications batch_quarantined)"
check_invariants
