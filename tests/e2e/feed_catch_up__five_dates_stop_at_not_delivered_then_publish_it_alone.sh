#!/usr/bin/env bash
# catch-up: every business date after the watermark (from the
# start date at first) up to --until, in order, through the feed URL
# template, each loaded exactly as `load` would, stopping at the first date
# that does not publish.  Five dates, a 503 on the third (retried), the
# fifth not delivered yet: four published, exit 75, watermark at the
# fourth, one batch_published per published date.  After the fifth
# appears, a second catch-up fetches and publishes it alone; a third has
# nothing to do.  A source without a feed URL is a configuration error.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/feed_lib.sh"

start_server
dates=(2026-11-28 2026-11-29 2026-11-30 2026-12-01 2026-12-02)
for d in "${dates[@]:0:4}"; do feed_sample "$d" >/dev/null; done
register_source acme-erp --start-date 2026-11-28 --feed-url "$BASE/acme-erp_{date}.csv"
path_of() { echo "/acme-erp_$1.csv"; }

catch_up() { run invoice_loader catch-up --spool-dir "$SPOOL" --source acme-erp "$@"; }

set_script "{\"$(path_of 2026-11-30)\": [\"503\"]}"
catch_up --until 2026-12-02 --retry-budget 60
expect_rc 75
for d in "${dates[@]:0:4}"; do
  grep -q "^$d published: batch [0-9]* published: 20 records" "$WORK/out" \
    || fail "no published line for $d"
done
grep -q "^2026-12-02 not delivered: .*not delivered yet" "$WORK/out" \
  || fail "no not-delivered line for the fifth date"
expect_eq "lines" 5 "$(wc -l <"$WORK/out")"
expect_eq "requests per date" "1 1 2 1 1" \
  "$(for d in "${dates[@]}"; do requests "$(path_of "$d")"; done | xargs)"
expect_eq "batches" "2026-11-28:published 2026-11-29:published 2026-11-30:published 2026-12-01:published" \
  "$(q "select string_agg(business_date || ':' || state, ' ' order by business_date) from ingest.batch")"
expect_eq "published" "80 invoices, 16800.00 gross" "$(published_state)"
expect_eq "watermark" 2026-12-01 "$(watermark_of acme-erp)"
expect_eq "notifications" 4 "$(notifications batch_published)"
expect_eq "one notification per date" 4 \
  "$(q "select count(distinct b.business_date) from ingest.notification as n join ingest.batch as b using (batch_id) where n.kind = 'batch_published'")"
check_invariants

# The fifth appears: the next catch-up fetches only it.
feed_sample 2026-12-02 >/dev/null
catch_up --until 2026-12-02
expect_rc 0
expect_eq "second run: lines" "2026-12-02 published" "$(cut -d: -f1 "$WORK/out")"
expect_eq "second run: requests per date" "1 1 2 1 2" \
  "$(for d in "${dates[@]}"; do requests "$(path_of "$d")"; done | xargs)"
expect_eq "batches" 5 "$(q 'select count(*) from ingest.batch')"
expect_eq "published" "100 invoices, 21000.00 gross" "$(published_state)"
expect_eq "watermark" 2026-12-02 "$(watermark_of acme-erp)"
expect_eq "notifications" 5 "$(notifications batch_published)"
check_invariants

# Nothing left up to --until: exit 0, no request.
catch_up --until 2026-12-02
expect_rc 0
expect_output_has "nothing to catch up"
expect_eq "third run: requests" "1 1 2 1 2" \
  "$(for d in "${dates[@]}"; do requests "$(path_of "$d")"; done | xargs)"
expect_eq "batches" 5 "$(q 'select count(*) from ingest.batch')"

# A quarantined date stops the run with 65 and its first reasons; the
# dates after it are not fetched.
mkdir -p "$WWW/beta"
for d in 2026-11-28 2026-11-29 2026-11-30; do sample_for beta "$WWW/beta" "$d" >/dev/null; done
sed -i 's/"control_total":"4200.00"/"control_total":"4100.00"/' "$WWW/beta/acme-erp_2026-11-29.csv.manifest.json"
register_source beta --start-date 2026-11-28 --feed-url "$BASE/beta/acme-erp_{date}.csv"
run invoice_loader catch-up --spool-dir "$SPOOL" --source beta --until 2026-11-30
expect_rc 65
grep -q '^2026-11-29 quarantined: batch [0-9]* is quarantined' "$WORK/out" || fail "no quarantined line"
grep -q '^  file: reconcile.control_total: .*4100.00' "$WORK/out" || fail "no first reason"
expect_eq "beta: third date not fetched" 0 "$(requests /beta/acme-erp_2026-11-30.csv)"
expect_eq "beta: batches" "2026-11-28:published 2026-11-29:quarantined" \
  "$(q "select string_agg(business_date || ':' || state, ' ' order by business_date) from ingest.batch where source = 'beta'")"
expect_eq "beta: watermark" 2026-11-28 "$(watermark_of beta)"

# A source whose start date is after --until: nothing is due, exit 0.
register_source later --start-date 2026-12-10 --feed-url "$BASE/later_{date}.csv"
run invoice_loader catch-up --spool-dir "$SPOOL" --source later --until 2026-12-02
expect_rc 0
expect_output_has "later starts on 2026-12-10, after 2026-12-02"
expect_eq "later: batches" 0 "$(q "select count(*) from ingest.batch where source = 'later'")"

# A source without a feed URL: 78, nothing fetched or registered.
register_source other --start-date 2026-11-28
run invoice_loader catch-up --spool-dir "$SPOOL" --source other --until 2026-11-30
expect_rc 78
expect_output_has "has no feed URL"
expect_eq "other: batches" 0 "$(q "select count(*) from ingest.batch where source = 'other'")"
# Nor with a feed but neither a start date nor a watermark.
register_source third --feed-url "$BASE/third_{date}.csv"
run invoice_loader catch-up --spool-dir "$SPOOL" --source third --until 2026-11-30
expect_rc 78
expect_output_has "no start date"
expect_eq "third: requests" 0 "$(requests /third_2026-11-30.csv)"
# An unknown source: 78.
run invoice_loader catch-up --source nope
expect_rc 78
