#!/usr/bin/env bash
# The five days of docs/design/data-model.md delivered in another allowed order end
# with the same reporting.invoice and the same set of versions as the
# documented order (which this test runs too, in a second database copied
# from its own fresh one):
#   - day 3, day 4 and both day-5 files arrive before day 2: they validate
#     and wait (exit 75) until the dates before them are published;
#   - GX-1001's revisions arrive in the other order: revision 1 on day 2
#     (other-day2.csv), revision 2 on day 4 (other-day4.csv), so revision 2
#     still wins, now as an amendment instead of revision 1 being late;
#   - the conflicting file of day 5 is quarantined at once (the revision it
#     contradicts is already published), and a second conflicting file
#     (other-day5-conflict.csv: GX-1001 r2 with other amounts) validates
#     while r2 is unpublished, waits, and is quarantined when it would
#     publish, after day 4 published the real r2.
source "$(dirname "$0")/lib.sh"

fx=$REPO/tests/fixtures/five_day
src=globex

# The documented order runs in a copy of this test's fresh database.
documented_db=${E2E_DB}_documented
psql -X -q -v ON_ERROR_STOP=1 -d postgres \
  -c "create database $documented_db template $E2E_DB" >/dev/null
trap 'psql -X -q -d postgres -c "drop database if exists $documented_db" >/dev/null 2>&1 || true
      rm -rf "$WORK"' EXIT

# shellcheck source=tests/e2e/five_day_lib.sh
source "$(dirname "$0")/five_day_lib.sh"
rejections() {
  q "select coalesce(string_agg(record_no || ' ' || coalesce(invoice_number, '') || ' ' || rule, '; '
                                order by record_no, rule), '')
     from ingest.rejection where batch_id = $1"
}
# What must not depend on the order: the current view without batch ids and
# timestamps, and every version with its content and whether it is current.
canonical_current() {
  q "select source, invoice_number, revision, document_type, customer_id, invoice_date, due_date,
            currency, net_amount, tax_amount, gross_amount, description
     from reporting.invoice order by 1, 2"
}
canonical_versions() {
  q "select source, invoice_number, revision, status, document_type, customer_id, invoice_date,
            due_date, currency, net_amount, tax_amount, gross_amount, description, is_current
     from reporting.invoice_version order by 1, 2, 3"
}

# --- The documented order, in the second database ---------------------------
E2E_DB=$documented_db register_source "$src" --start-date 2026-12-01
for step in day1.csv:2026-12-01:0 day2.csv:2026-12-02:0 day3.csv:2026-12-03:0 \
            day4.csv:2026-12-04:0 day5-conflict.csv:2026-12-05:65 day5.csv:2026-12-05:0; do
  IFS=: read -r file date rc <<<"$step"
  E2E_DB=$documented_db load_day "$file" "$date"
  expect_rc "$rc"
done
expected_current=$(E2E_DB=$documented_db canonical_current)
expected_versions=$(E2E_DB=$documented_db canonical_versions)
expect_eq "documented order totals" "8 invoices, 874.60 gross" "$(E2E_DB=$documented_db totals)"
expect_eq "documented order watermark" 2026-12-05 "$(E2E_DB=$documented_db watermark_of "$src")"

# --- The other order, in this test's database --------------------------------
register_source "$src" --start-date 2026-12-01

load_day day1.csv 2026-12-01
expect_rc 0
b1=$(batch_of day1.csv)
day1_view="GX-1001 r0 119.00, GX-1002 r0 238.00, GX-1003 r0 53.50, GX-1004 r0 357.00"
expect_eq "day 1 view" "$day1_view" "$(current_view)"
expect_eq "day 1 watermark" 2026-12-01 "$(watermark_of "$src")"

# The day-5 conflict contradicts GX-1004 r0, published on day 1: quarantined
# at once, although day 5 could not publish yet anyway.
load_day day5-conflict.csv 2026-12-05
expect_rc 65
bq1=$(batch_of day5-conflict.csv)
expect_eq "early conflicting file state" quarantined "$(state_of "$bq1")"
expect_eq "early conflicting file rejections" "1 GX-1004 revision.conflict" "$(rejections "$bq1")"
expect_eq "view after the early conflicting file" "$day1_view" "$(current_view)"
expect_eq "watermark after the early conflicting file" 2026-12-01 "$(watermark_of "$src")"

# Days 3, 4 and 5 before day 2: each validates and waits.
for step in day3.csv:2026-12-03 other-day4.csv:2026-12-04 \
            other-day5-conflict.csv:2026-12-05 day5.csv:2026-12-05; do
  IFS=: read -r file date <<<"$step"
  load_day "$file" "$date"
  expect_rc 75
  expect_output_has "waits for an earlier business date"
  expect_eq "state of $file before day 2" validated "$(state_of "$(batch_of "$file")")"
  expect_eq "view while $file waits" "$day1_view" "$(current_view)"
  expect_eq "watermark while $file waits" 2026-12-01 "$(watermark_of "$src")"
done
b3=$(batch_of day3.csv) b4=$(batch_of other-day4.csv)
bq2=$(batch_of other-day5-conflict.csv) b5=$(batch_of day5.csv)
expect_eq "versions before day 2" 4 "$(version_count)"
expect_eq "published notifications before day 2" "b$b1" "$(published_batches)"
expect_eq "quarantine notifications before day 2" "b$bq1" "$(quarantined_batches)"

# Day 2 (other-day2.csv): GX-1001 revision 1 amends revision 0.
load_day other-day2.csv 2026-12-02
expect_rc 0
b2=$(batch_of other-day2.csv)
expect_eq "day 2 view" \
  "GX-1001 r1 130.90, GX-1002 r0 238.00, GX-1003 r0 53.50, GX-1004 r0 357.00, GX-1005 r0 95.20, GX-CN-2001 r0 -23.80" \
  "$(current_view)"
expect_eq "day 2 totals" "6 invoices, 850.80 gross" "$(totals)"
expect_eq "day 2 versions of GX-1001" \
  "r0 ISSUED 119.00 history b$b1 sup:b$b2; r1 ISSUED 130.90 current b$b2 sup:-" "$(versions GX-1001)"
expect_eq "day 2 merge counts" \
  "ins=2 amd=1 void=0 unch=0 late=0 dup=0 rej=0 rec=3 gross=202.30" "$(counts "$b2")"
expect_eq "day 2 watermark" 2026-12-02 "$(watermark_of "$src")"
expect_eq "day 2 published notifications" "b$b1 b$b2" "$(published_batches)"

# Day 5 still waits: day 3 is not published yet.
load_day day5.csv 2026-12-05
expect_rc 75
expect_eq "day 5 state while day 3 waits" validated "$(state_of "$b5")"
expect_eq "watermark while day 3 waits" 2026-12-02 "$(watermark_of "$src")"

# Day 3, rerun: publishes what it validated earlier.
load_day day3.csv 2026-12-03
expect_rc 0
expect_eq "day 3 view" \
  "GX-1001 r1 130.90, GX-1003 r0 53.50, GX-1004 r0 357.00, GX-1005 r0 95.20, GX-1006 r0 47.60, GX-CN-2001 r0 -23.80" \
  "$(current_view)"
expect_eq "day 3 totals" "6 invoices, 660.40 gross" "$(totals)"
expect_eq "day 3 versions of GX-1002" \
  "r0 ISSUED 238.00 history b$b1 sup:b$b3; r1 VOID 238.00 current b$b3 sup:-" "$(versions GX-1002)"
expect_eq "day 3 versions of GX-1003" "r0 ISSUED 53.50 current b$b1 sup:-" "$(versions GX-1003)"
expect_eq "day 3 merge counts" \
  "ins=1 amd=0 void=1 unch=1 late=0 dup=0 rej=0 rec=3 gross=339.10" "$(counts "$b3")"
expect_eq "day 3 watermark" 2026-12-03 "$(watermark_of "$src")"
expect_eq "day 3 published notifications" "b$b1 b$b2 b$b3" "$(published_batches)"

# Day 4, rerun (other-day4.csv): GX-1001 revision 2 wins over revision 1.
load_day other-day4.csv 2026-12-04
expect_rc 0
expect_eq "day 4 view" \
  "GX-1001 r2 142.80, GX-1003 r0 53.50, GX-1004 r0 357.00, GX-1005 r0 95.20, GX-1006 r0 47.60, GX-1007 r0 71.40, GX-CN-2001 r0 -23.80" \
  "$(current_view)"
expect_eq "day 4 totals" "7 invoices, 743.70 gross" "$(totals)"
expect_eq "day 4 versions of GX-1001" \
  "r0 ISSUED 119.00 history b$b1 sup:b$b2; r1 ISSUED 130.90 history b$b2 sup:b$b4; r2 ISSUED 142.80 current b$b4 sup:-" \
  "$(versions GX-1001)"
expect_eq "day 4 versions of GX-1007" "r0 ISSUED 71.40 current b$b4 sup:-" "$(versions GX-1007)"
expect_eq "day 4 merge counts" \
  "ins=1 amd=1 void=0 unch=0 late=0 dup=1 rej=0 rec=3 gross=285.60" "$(counts "$b4")"
expect_eq "day 4 watermark" 2026-12-04 "$(watermark_of "$src")"
expect_eq "day 4 published notifications" "b$b1 b$b2 b$b3 b$b4" "$(published_batches)"

# The second conflicting file was validated before GX-1001 r2 existed; now
# that r2 is published with other amounts, it cannot publish.
day4_view=$(current_view)
load_day other-day5-conflict.csv 2026-12-05
expect_rc 65
expect_output_has "revision.conflict"
expect_eq "late conflicting file state" quarantined "$(state_of "$bq2")"
expect_eq "nothing of the late conflicting file is visible" "$day4_view" "$(current_view)"
expect_eq "GX-1009 unpublished" 0 \
  "$(q "select count(*) from reporting.invoice_version where invoice_number = 'GX-1009'")"
expect_eq "GX-1001 r2 keeps its published amounts" \
  "r0 ISSUED 119.00 history b$b1 sup:b$b2; r1 ISSUED 130.90 history b$b2 sup:b$b4; r2 ISSUED 142.80 current b$b4 sup:-" \
  "$(versions GX-1001)"
expect_eq "watermark after the late conflicting file" 2026-12-04 "$(watermark_of "$src")"
expect_eq "published notifications after the late conflicting file" "b$b1 b$b2 b$b3 b$b4" "$(published_batches)"
expect_eq "quarantine notifications after the late conflicting file" "b$bq1 b$bq2" "$(quarantined_batches)"
expect_eq "versions after the late conflicting file" 11 "$(version_count)"

# Day 5, rerun: publishes.
load_day day5.csv 2026-12-05
expect_rc 0
expect_eq "day 5 totals" "8 invoices, 874.60 gross" "$(totals)"
expect_eq "day 5 versions of GX-1004" \
  "r0 ISSUED 357.00 history b$b1 sup:b$b5; r1 ISSUED 380.80 current b$b5 sup:-" "$(versions GX-1004)"
expect_eq "day 5 merge counts" \
  "ins=1 amd=1 void=0 unch=0 late=0 dup=0 rej=0 rec=2 gross=487.90" "$(counts "$b5")"
expect_eq "day 5 watermark" 2026-12-05 "$(watermark_of "$src")"
expect_eq "day 5 published notifications" "b$b1 b$b2 b$b3 b$b4 b$b5" "$(published_batches)"

# --- Same end state as the documented order ---------------------------------
expect_eq "reporting.invoice rows" 8 "$(q "select count(*) from reporting.invoice")"
expect_eq "reporting.invoice, canonical, as in the documented order" \
  "$expected_current" "$(canonical_current)"
expect_eq "every version and whether it is current, as in the documented order" \
  "$expected_versions" "$(canonical_versions)"

# A conflict found at publication is the same row-level rejection as one
# found at validation (sql/ERRCODES.md lists revision.conflict as a record
# rule; reasons are stored per row): record 1,
# GX-1001, rule revision.conflict, and the batch counts it as rejected.
expect_eq "late conflicting file rejections name the record" \
  "1 GX-1001 revision.conflict" "$(rejections "$bq2")"
