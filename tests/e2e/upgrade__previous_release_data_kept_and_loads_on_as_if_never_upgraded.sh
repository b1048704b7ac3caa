#!/usr/bin/env bash
# An upgrade keeps what the previous release wrote and loads on from it.
# The previous release is the commit before the one that added the newest
# migration (HEAD while that migration is not committed); its loader is
# built from the repository's history (tests/e2e/previous_release.sh).  It
# migrates a database and loads the first three days of
# tests/fixtures/five_day and the conflicting day 5 (quarantined).  This binary's migrate then applies
# only the newer migrations and changes none of that data; it resends day
# 3 (nothing new), loads day 4, the conflicting day 5 again (the same
# quarantined batch) and the corrected day 5.  The database ends exactly
# as one this binary built alone from the same files in the same order:
# versions, batches with their states and merge counts, attempts,
# rejections, watermark, notifications.
source "$(dirname "$0")/lib.sh"

fx=$REPO/tests/fixtures/five_day
src=globex
# shellcheck source=tests/e2e/five_day_lib.sh
source "$(dirname "$0")/five_day_lib.sh"

up=${E2E_DB}_upgraded
alone=${E2E_DB}_alone
trap 'psql -X -q -d postgres -c "drop database if exists $up" -c "drop database if exists $alone" \
        >/dev/null 2>&1; rm -rf "$WORK"' EXIT
for db in "$up" "$alone"; do
  psql -X -q -d postgres -c "drop database if exists $db" -c "create database $db"
done

# The previous release's loader (tests/e2e/previous_release.sh): built by
# scripts/test.sh in the background while the SQL suite runs, into
# PREVIOUS_RELEASE_DIR; waited for here, or built here when there is none.
previous_dir=${PREVIOUS_RELEASE_DIR:-$WORK/previous}
bash "$REPO/tests/e2e/previous_release.sh" "$previous_dir" ||
  fail "no loader of the previous release (tests/e2e/previous_release.sh)"
old_loader=$previous_dir/invoice-loader
previous_release=$(cat "$previous_dir/commit")
newest=$("$INVOICE_LOADER" --version | sed -n 's/^schema //p')
old_schema=$("$old_loader" --version | sed -n 's/^schema //p')
[[ -n $old_schema && $old_schema < "$newest" ]] ||
  fail "the previous release ($previous_release) expects schema [$old_schema], not one before $newest"
echo "previous release: $previous_release, schema $old_schema; this one: $newest"

# first_days, then_days: the loads of each side, with INVOICE_LOADER and
# E2E_DB set by the caller.
first_days() {
  "$INVOICE_LOADER" -q --dsn "dbname=$E2E_DB" migrate >/dev/null
  register_source "$src" --start-date 2026-12-01
  load_day day1.csv 2026-12-01; expect_rc 0
  load_day day2.csv 2026-12-02; expect_rc 0
  load_day day3.csv 2026-12-03; expect_rc 0
  load_day day5-conflict.csv 2026-12-05; expect_rc 65
}
then_days() {
  load_day day3.csv 2026-12-03; expect_rc 0; expect_output_has "already published"
  load_day day4.csv 2026-12-04; expect_rc 0
  load_day day5-conflict.csv 2026-12-05; expect_rc 65
  load_day day5.csv 2026-12-05; expect_rc 0
}
# everything: what the loads left, one line a table, without the clock,
# run ids, hosts and content hashes (a release may hash anew; what a
# resend counts as unchanged is in the merge counts).
everything() {
  q "select string_agg(format('%s %s r%s %s %s/%s/%s %s %s %s b%s rec%s cur=%s sup:%s', source,
                              invoice_number, revision, status, net_amount, tax_amount,
                              gross_amount, document_type, customer_id, currency, batch_id,
                              record_no, is_current, coalesce(superseded_by_batch_id::text, '-')),
                       '; ' order by source, invoice_number, revision)
     from core.invoice_version"
  q "select string_agg(format('b%s %s %s %s %s %s %s', batch_id, business_date, file_name, state,
                              record_count, control_total, merge_counts), '; ' order by batch_id)
     from ingest.batch_overview"
  q "select string_agg(format('b%s a%s %s %s->%s', batch_id, attempt_no, outcome, state_at_start,
                              state_at_end), '; ' order by batch_id, attempt_no)
     from ingest.attempt"
  q "select string_agg(format('b%s r%s %s %s', batch_id, record_no, invoice_number, rule), '; '
                       order by batch_id, record_no, rule)
     from ingest.rejection"
  q "select string_agg(format('%s %s', source, business_date), '; ' order by source) from ingest.watermark"
  q "select string_agg(format('n%s b%s %s %s %s', notification_id, batch_id, kind, state,
                              payload -> 'counts'), '; ' order by notification_id)
     from ingest.notification"
}

# The previous release's days.
INVOICE_LOADER=$old_loader E2E_DB=$up first_days
before=$(E2E_DB=$up everything)
expect_eq "the previous release published days 1-3" "6 invoices, 672.30 gross" "$(E2E_DB=$up totals)"

# The upgrade: only the newer migrations, and nothing of the data changes.
pending=0
for f in "$REPO"/migrations/*.sql; do
  [[ $(basename "$f" .sql) > $old_schema ]] && pending=$((pending + 1))
done
E2E_DB=$up run "$PGUSER" migrate
expect_rc 0
expect_output_has "migrated: $pending migration(s) applied,"
expect_eq "the data after the upgrade" "$before" "$(E2E_DB=$up everything)"
E2E_DB=$up run invoice_loader status
expect_rc 0

# This release's days, on the upgraded database.
E2E_DB=$up then_days
expect_eq "day 5 current view on the upgraded database" \
  "GX-1001 r2 142.80, GX-1003 r0 53.50, GX-1004 r1 380.80, GX-1005 r0 95.20, GX-1006 r0 47.60, GX-1007 r0 71.40, GX-1008 r0 107.10, GX-CN-2001 r0 -23.80" \
  "$(E2E_DB=$up current_view)"
expect_eq "versions on the upgraded database" 13 "$(E2E_DB=$up version_count)"
expect_eq "watermark on the upgraded database" 2026-12-05 "$(E2E_DB=$up watermark_of "$src")"
expect_eq "publish notifications on the upgraded database" 5 "$(E2E_DB=$up notifications batch_published)"
E2E_DB=$up check_invariants

# The same files with this release alone: the same database.
E2E_DB=$alone first_days
E2E_DB=$alone then_days
expect_eq "the upgraded database against this release's own" \
  "$(E2E_DB=$alone everything)" "$(E2E_DB=$up everything)"
