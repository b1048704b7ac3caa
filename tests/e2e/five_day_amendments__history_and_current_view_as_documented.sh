#!/usr/bin/env bash
# The worked example of docs/design/data-model.md, with the real binary: five
# business days of the source globex (tests/fixtures/five_day/day*.csv) with
# new invoices, an amendment, a credit note, a VOID, an identical record
# resent in a new file, a late lower revision, two identical copies in one
# file, a conflicting resend (quarantined), its corrected file and a resend
# of a whole earlier file. After every step: reporting.invoice (rows, count,
# sum), the versions of the invoices the step touched, the watermark, the
# publish notifications and the merge counts of the batch.
source "$(dirname "$0")/lib.sh"

fx=$REPO/tests/fixtures/five_day
src=globex

# shellcheck source=tests/e2e/five_day_lib.sh
source "$(dirname "$0")/five_day_lib.sh"

register_source "$src" --start-date 2026-12-01

# --- Day 1: four new invoices (767.50) ------------------------------------
load_day day1.csv 2026-12-01
expect_rc 0
b1=$(batch_of day1.csv)
expect_eq "day 1 state" published "$(state_of "$b1")"
expect_eq "day 1 current view" \
  "GX-1001 r0 119.00, GX-1002 r0 238.00, GX-1003 r0 53.50, GX-1004 r0 357.00" "$(current_view)"
expect_eq "day 1 totals" "4 invoices, 767.50 gross" "$(totals)"
expect_eq "day 1 versions of GX-1001" "r0 ISSUED 119.00 current b$b1 sup:-" "$(versions GX-1001)"
expect_eq "day 1 watermark" 2026-12-01 "$(watermark_of "$src")"
expect_eq "day 1 published notifications" "b$b1" "$(published_batches)"
expect_eq "day 1 merge counts" \
  "ins=4 amd=0 void=0 unch=0 late=0 dup=0 rej=0 rec=4 gross=767.50" "$(counts "$b1")"
expect_eq "day 1 notification counts" "$(counts "$b1")" "$(notif_counts "$b1")"
expect_eq "day 1 description kept quotes and comma" 'Consulting, "phase 1"' \
  "$(q "select description from reporting.invoice where invoice_number = 'GX-1001'")"

# --- Day 2: GX-1001 amended to revision 2, a credit note, a new invoice ----
load_day day2.csv 2026-12-02
expect_rc 0
b2=$(batch_of day2.csv)
expect_eq "day 2 current view" \
  "GX-1001 r2 142.80, GX-1002 r0 238.00, GX-1003 r0 53.50, GX-1004 r0 357.00, GX-1005 r0 95.20, GX-CN-2001 r0 -23.80" \
  "$(current_view)"
expect_eq "day 2 totals" "6 invoices, 862.70 gross" "$(totals)"
expect_eq "day 2 versions of GX-1001" \
  "r0 ISSUED 119.00 history b$b1 sup:b$b2; r2 ISSUED 142.80 current b$b2 sup:-" "$(versions GX-1001)"
expect_eq "day 2 the credit note is an invoice of its own" \
  "CREDIT_NOTE CUST-B -20.00 -3.80 -23.80 no due date" \
  "$(q "select concat_ws(' ', document_type, customer_id, net_amount, tax_amount, gross_amount,
                          coalesce(due_date::text, 'no due date'))
        from reporting.invoice where invoice_number = 'GX-CN-2001'")"
expect_eq "day 2 versions of GX-CN-2001" "r0 ISSUED -23.80 current b$b2 sup:-" "$(versions GX-CN-2001)"
expect_eq "day 2 watermark" 2026-12-02 "$(watermark_of "$src")"
expect_eq "day 2 published notifications" "b$b1 b$b2" "$(published_batches)"
expect_eq "day 2 merge counts" \
  "ins=2 amd=1 void=0 unch=0 late=0 dup=0 rej=0 rec=3 gross=214.20" "$(counts "$b2")"
expect_eq "day 2 notification counts" "$(counts "$b2")" "$(notif_counts "$b2")"
expect_eq "day 2 versions" 7 "$(version_count)"

# --- Day 3: GX-1002 voided at revision 1; GX-1003 r0 resent unchanged ------
load_day day3.csv 2026-12-03
expect_rc 0
b3=$(batch_of day3.csv)
expect_eq "day 3 current view" \
  "GX-1001 r2 142.80, GX-1003 r0 53.50, GX-1004 r0 357.00, GX-1005 r0 95.20, GX-1006 r0 47.60, GX-CN-2001 r0 -23.80" \
  "$(current_view)"
expect_eq "day 3 totals" "6 invoices, 672.30 gross" "$(totals)"
expect_eq "day 3 versions of GX-1002 (the VOID is current, hidden)" \
  "r0 ISSUED 238.00 history b$b1 sup:b$b3; r1 VOID 238.00 current b$b3 sup:-" "$(versions GX-1002)"
expect_eq "day 3 versions of GX-1003 (the resend wrote no version)" \
  "r0 ISSUED 53.50 current b$b1 sup:-" "$(versions GX-1003)"
expect_eq "day 3 watermark" 2026-12-03 "$(watermark_of "$src")"
expect_eq "day 3 published notifications" "b$b1 b$b2 b$b3" "$(published_batches)"
expect_eq "day 3 merge counts" \
  "ins=1 amd=0 void=1 unch=1 late=0 dup=0 rej=0 rec=3 gross=339.10" "$(counts "$b3")"
expect_eq "day 3 notification counts" "$(counts "$b3")" "$(notif_counts "$b3")"
expect_eq "day 3 versions" 9 "$(version_count)"

# --- Day 4: GX-1001 revision 1 arrives late; GX-1007 twice, identical -------
load_day day4.csv 2026-12-04
expect_rc 0
b4=$(batch_of day4.csv)
expect_eq "day 4 current view" \
  "GX-1001 r2 142.80, GX-1003 r0 53.50, GX-1004 r0 357.00, GX-1005 r0 95.20, GX-1006 r0 47.60, GX-1007 r0 71.40, GX-CN-2001 r0 -23.80" \
  "$(current_view)"
expect_eq "day 4 totals" "7 invoices, 743.70 gross" "$(totals)"
expect_eq "day 4 versions of GX-1001 (r1 is history, superseded by the winner's batch)" \
  "r0 ISSUED 119.00 history b$b1 sup:b$b2; r1 ISSUED 130.90 history b$b4 sup:b$b2; r2 ISSUED 142.80 current b$b2 sup:-" \
  "$(versions GX-1001)"
expect_eq "day 4 versions of GX-1007 (one version for two copies)" \
  "r0 ISSUED 71.40 current b$b4 sup:-" "$(versions GX-1007)"
expect_eq "day 4 watermark" 2026-12-04 "$(watermark_of "$src")"
expect_eq "day 4 published notifications" "b$b1 b$b2 b$b3 b$b4" "$(published_batches)"
expect_eq "day 4 merge counts" \
  "ins=1 amd=0 void=0 unch=0 late=1 dup=1 rej=0 rec=3 gross=273.70" "$(counts "$b4")"
expect_eq "day 4 notification counts" "$(counts "$b4")" "$(notif_counts "$b4")"
expect_eq "day 4 versions" 11 "$(version_count)"

# --- Day 5: a file changing the published GX-1004 r0 is quarantined ---------
day4_view=$(current_view)
load_day day5-conflict.csv 2026-12-05
expect_rc 65
expect_output_has "revision.conflict"
bq=$(batch_of day5-conflict.csv)
expect_eq "conflicting file state" quarantined "$(state_of "$bq")"
expect_eq "conflicting file rejections" "1 GX-1004 revision.conflict" \
  "$(q "select string_agg(record_no || ' ' || coalesce(invoice_number, '') || ' ' || rule, '; '
                          order by record_no, rule)
        from ingest.rejection where batch_id = $bq")"
expect_eq "nothing of the conflicting file is visible" "$day4_view" "$(current_view)"
expect_eq "GX-1008 unpublished" 0 \
  "$(q "select count(*) from reporting.invoice_version where invoice_number = 'GX-1008'")"
expect_eq "GX-1004 keeps its published r0" "r0 ISSUED 357.00 current b$b1 sup:-" "$(versions GX-1004)"
expect_eq "totals after the conflicting file" "7 invoices, 743.70 gross" "$(totals)"
expect_eq "versions after the conflicting file" 11 "$(version_count)"
expect_eq "watermark stays at day 4" 2026-12-04 "$(watermark_of "$src")"
expect_eq "published notifications unchanged" "b$b1 b$b2 b$b3 b$b4" "$(published_batches)"
expect_eq "one quarantine notification, for the conflicting file" "b$bq" \
  "$(q "select string_agg('b' || batch_id, ' ') from ingest.notification where kind = 'batch_quarantined'")"
expect_eq "no merge counts for a quarantined batch" "" \
  "$(q "select merge_counts from ingest.batch_overview where batch_id = $bq")"

# The same bytes again: the same batch, still quarantined, nothing new.
load_day day5-conflict.csv 2026-12-05
expect_rc 65
expect_eq "batches after resending the conflicting file" 5 \
  "$(q "select count(*) from ingest.batch_overview where source = '$src'")"
expect_eq "quarantine notifications after the resend" 1 "$(notifications batch_quarantined)"
expect_eq "watermark after the resend" 2026-12-04 "$(watermark_of "$src")"

# The corrected file: GX-1004 amended as revision 1, GX-1008 new.
load_day day5.csv 2026-12-05
expect_rc 0
b5=$(batch_of day5.csv)
expect_eq "day 5 current view" \
  "GX-1001 r2 142.80, GX-1003 r0 53.50, GX-1004 r1 380.80, GX-1005 r0 95.20, GX-1006 r0 47.60, GX-1007 r0 71.40, GX-1008 r0 107.10, GX-CN-2001 r0 -23.80" \
  "$(current_view)"
expect_eq "day 5 totals" "8 invoices, 874.60 gross" "$(totals)"
expect_eq "day 5 versions of GX-1004" \
  "r0 ISSUED 357.00 history b$b1 sup:b$b5; r1 ISSUED 380.80 current b$b5 sup:-" "$(versions GX-1004)"
expect_eq "day 5 versions of GX-1008" "r0 ISSUED 107.10 current b$b5 sup:-" "$(versions GX-1008)"
expect_eq "day 5 watermark" 2026-12-05 "$(watermark_of "$src")"
expect_eq "day 5 published notifications" "b$b1 b$b2 b$b3 b$b4 b$b5" "$(published_batches)"
expect_eq "day 5 merge counts" \
  "ins=1 amd=1 void=0 unch=0 late=0 dup=0 rej=0 rec=2 gross=487.90" "$(counts "$b5")"
expect_eq "day 5 notification counts" "$(counts "$b5")" "$(notif_counts "$b5")"
expect_eq "day 5 versions" 13 "$(version_count)"

# --- A whole earlier file resent (same bytes): nothing changes --------------
final_view=$(current_view)
load_day day3.csv 2026-12-03
expect_rc 0
expect_output_has "already published"
expect_eq "resent file is the same batch" "$b3" "$(batch_of day3.csv)"
expect_eq "batches after the resend" 6 "$(q "select count(*) from ingest.batch_overview where source = '$src'")"
expect_eq "versions after the resend" 13 "$(version_count)"
expect_eq "view after the resend" "$final_view" "$(current_view)"
expect_eq "published notifications after the resend" "b$b1 b$b2 b$b3 b$b4 b$b5" "$(published_batches)"
expect_eq "watermark after the resend" 2026-12-05 "$(watermark_of "$src")"
expect_eq "day 3 merge counts unchanged by the resend" \
  "ins=1 amd=0 void=1 unch=1 late=0 dup=0 rej=0 rec=3 gross=339.10" "$(counts "$b3")"

# Every published batch reconciles: accepted + rejected gross = control total.
expect_eq "published batches reconcile with their manifests" 0 \
  "$(q "select count(*) from ingest.batch_overview where source = '$src' and state = 'published'
        and (merge_counts->>'accepted_gross')::numeric + (merge_counts->>'rejected_gross')::numeric
            <> control_total")"
expect_eq "batch states by date" \
  "2026-12-01 published, 2026-12-02 published, 2026-12-03 published, 2026-12-04 published, 2026-12-05 quarantined, 2026-12-05 published" \
  "$(q "select string_agg(business_date || ' ' || state, ', ' order by batch_id)
        from ingest.batch_overview where source = '$src'")"
