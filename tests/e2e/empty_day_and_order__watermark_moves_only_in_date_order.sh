#!/usr/bin/env bash
# Business dates publish in order: a later date waits (exit 75, state
# validated, watermark unchanged) until the earlier one is published; an
# empty day is a header-only file with record_count 0 and advances the
# watermark.
source "$(dirname "$0")/lib.sh"

day1=$(sample "$WORK/d1" 2026-11-28)
day3=$(sample "$WORK/d3" 2026-11-30)
register_source acme-erp --start-date 2026-11-28
head -n 1 "$day1" >"$WORK/empty-2026-11-29.csv"
write_manifest "$WORK/empty-2026-11-29.csv" 0 0.00 2026-11-29

load --source acme-erp --business-date 2026-11-29 --input "$WORK/empty-2026-11-29.csv"
expect_rc 75
expect_output_has "waits for an earlier business date"
expect_eq "state of the early empty day" "validated" "$(q "select state from ingest.batch_overview")"
expect_eq "watermark before day 1" "none" "$(watermark_of acme-erp)"
expect_eq "publish notifications before day 1" 0 "$(notifications batch_published)"

load --source acme-erp --business-date 2026-11-28 --input "$day1"
expect_rc 0
expect_eq "watermark after day 1" "2026-11-28" "$(watermark_of acme-erp)"

load --source acme-erp --business-date 2026-11-30 --input "$day3"
expect_rc 75
expect_eq "watermark while day 2 waits" "2026-11-28" "$(watermark_of acme-erp)"

load --source acme-erp --business-date 2026-11-29 --input "$WORK/empty-2026-11-29.csv"
expect_rc 0
expect_eq "watermark after the empty day" "2026-11-29" "$(watermark_of acme-erp)"

load --source acme-erp --business-date 2026-11-30 --input "$day3"
expect_rc 0
expect_eq "watermark after day 3" "2026-11-30" "$(watermark_of acme-erp)"
expect_eq "states" "published published published" \
  "$(q "select string_agg(state, ' ' order by business_date) from ingest.batch_overview")"
expect_eq "publish notifications" 3 "$(notifications batch_published)"
expect_eq "published" "40 invoices, 8400.00 gross" "$(published_state)"
