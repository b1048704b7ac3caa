#!/usr/bin/env bash
# An upgrade keeps what the previous release wrote and loads on from it.
# The previous release is the commit before the one that added the newest
# migration (HEAD while that migration is not committed); its loader is
# built from the repository's history (tests/e2e/previous_release.sh).  It
# migrates a database and loads the first three days of
# tests/fixtures/five_day and the conflicting day 5 (quarantined), and
# stages a second source's file of records that fail field rules, killed
# after its COPY.  This binary's migrate then applies only the newer
# migrations and changes none of that data, the staged typed rows
# included; it resends day 3 (nothing new), loads day 4, the conflicting
# day 5 again (the same quarantined batch) and the corrected day 5, and
# validates and publishes the staged file.  The database ends exactly as
# one this binary built alone from the same files in the same order:
# versions, batches with their states and merge counts, attempts,
# rejections with the field rules' sentences, watermark, notifications.
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

# A second source's file whose records fail field rules (a partial
# policy takes them): the previous release stages it and is killed after
# the COPY, so its typed rows, with the failed records' fields as in the
# file, cross the upgrade in staging; this release validates and
# publishes them.
bad_src=initech
bad_csv=$WORK/bad.csv
cat >"$bad_csv" <<'CSV'
invoice_number,revision,status,document_type,customer_id,invoice_date,due_date,currency,net_amount,tax_amount,gross_amount,description
IN-1,0,ISSUED,INVOICE,C-1,2026-11-30,2026-12-30,EUR,100.00,19.00,119.00,kept
IN-2,0,PAID,INVOICE,C-2,2026-11-30,,EUR,10.00,1.90,11.90,"status ""PAID"""
IN-3,x1,ISSUED,INVOICE,C-3,2026-02-30,soon,EUR,10.005,0,10.005,
IN-4,0,ISSUED,CREDIT_NOTE,C-4,2026-11-30,,EUR,5.00,0.95,5.95,wrong sign
IN-5,0,ISSUED,INVOICE,,2026-11-30,"",XXX,1.00,0.00,1.00,"tab	in it"
CSV
printf '{"source":"%s","business_date":"2026-12-01","record_count":5,"control_total":"147.855"}\n' \
  "$bad_src" >"$bad_csv.manifest.json"

# first_days, then_days: the loads of each side, with INVOICE_LOADER and
# E2E_DB set by the caller.
first_days() {
  "$INVOICE_LOADER" -q --dsn "dbname=$E2E_DB" migrate >/dev/null
  register_source "$src" --start-date 2026-12-01
  load_day day1.csv 2026-12-01; expect_rc 0
  load_day day2.csv 2026-12-02; expect_rc 0
  load_day day3.csv 2026-12-03; expect_rc 0
  load_day day5-conflict.csv 2026-12-05; expect_rc 65
  register_source "$bad_src" --start-date 2026-12-01 --policy partial --max-rejected-share 0.9
  INVOICE_LOADER_FAILPOINT=after_staged load --source "$bad_src" --business-date 2026-12-01 \
    --input "$bad_csv"
  expect_rc 137
  expect_output_has "failpoint after_staged"
}
then_days() {
  load_day day3.csv 2026-12-03; expect_rc 0; expect_output_has "already published"
  load_day day4.csv 2026-12-04; expect_rc 0
  load_day day5-conflict.csv 2026-12-05; expect_rc 65
  load_day day5.csv 2026-12-05; expect_rc 0
  load --source "$bad_src" --business-date 2026-12-01 --input "$bad_csv"; expect_rc 0
}
# everything: what the loads left, one line a table, without the clock,
# run ids, hosts and content hashes (a release may hash anew; what a
# resend counts as unchanged is in the merge counts), and without the
# merge counts' per-currency sums, which a release before migration 0032
# did not write (what they add up to is in the totals next to them).
everything() {
  q "select string_agg(format('%s %s r%s %s %s/%s/%s %s %s %s b%s rec%s cur=%s sup:%s', source,
                              invoice_number, revision, status, net_amount, tax_amount,
                              gross_amount, document_type, customer_id, currency, batch_id,
                              record_no, is_current, coalesce(superseded_by_batch_id::text, '-')),
                       '; ' order by source, invoice_number, revision)
     from core.invoice_version"
  q "select string_agg(format('b%s %s %s %s %s %s %s', batch_id, business_date, file_name, state,
                              record_count, control_total,
                              merge_counts - 'versions_by_currency'::text - 'unversioned_by_currency'::text),
                       '; ' order by batch_id)
     from ingest.batch_overview"
  q "select string_agg(format('b%s a%s %s %s->%s', batch_id, attempt_no, outcome, state_at_start,
                              state_at_end), '; ' order by batch_id, attempt_no)
     from ingest.attempt"
  # a field rule's sentence quotes the field as in the file
  q "select string_agg(format('b%s r%s %s %s %s', batch_id, record_no, invoice_number, rule,
                              case when rule in (select f.rule from ingest.field_rule as f)
                                   then detail end), '; '
                       order by batch_id, record_no, rule)
     from ingest.rejection"
  q "select string_agg(format('b%s r%s %s', batch_id, record_no, gross_amount), '; '
                       order by batch_id, record_no, rule)
     from ingest.rejection_row"
  # staged typed rows and their fields as in the file, whichever columns
  # hold them (twelve raw_* before migration 0026, raw_fields after)
  q "select coalesce(string_agg(format('b%s r%s rules=%s %s', v.batch_id, v.record_no, v.rules,
                                       coalesce(nullif(j -> 'raw_fields', 'null'),
                                                jsonb_build_array(j -> 'raw_invoice_number',
                                                  j -> 'raw_revision', j -> 'raw_status',
                                                  j -> 'raw_document_type', j -> 'raw_customer_id',
                                                  j -> 'raw_invoice_date', j -> 'raw_due_date',
                                                  j -> 'raw_currency', j -> 'raw_net_amount',
                                                  j -> 'raw_tax_amount', j -> 'raw_gross_amount',
                                                  j -> 'raw_description'))), '; '
                                order by v.batch_id, v.record_no), '-')
     from staging.invoice_valid as v, to_jsonb(v) as j"
  q "select string_agg(format('%s %s', source, business_date), '; ' order by source) from ingest.watermark"
  q "select string_agg(format('n%s b%s %s %s %s', notification_id, batch_id, kind, state,
                              (payload -> 'counts') - 'versions_by_currency'::text
                                - 'unversioned_by_currency'::text), '; ' order by notification_id)
     from ingest.notification"
}

# The previous release's days.
INVOICE_LOADER=$old_loader E2E_DB=$up first_days
before=$(E2E_DB=$up everything)
expect_eq "the previous release published days 1-3" "6 invoices, 672.30 gross" "$(E2E_DB=$up totals)"

# The upgrade: only the newer migrations, and nothing of the data changes.
# Pending: the migrations the previous release's tree does not have, not
# only those numbered after its newest (branches merge in any order, and
# migrate applies every one it has not seen).
pending=0
old_files=$(git -C "$REPO" ls-tree --name-only "$previous_release" migrations/ | sed 's|.*/||')
for f in "$REPO"/migrations/*.sql; do
  grep -qxF "$(basename "$f")" <<<"$old_files" || pending=$((pending + 1))
done
E2E_DB=$up run "$PGUSER" migrate
expect_rc 0
expect_output_has "migrated: $pending migration(s) applied,"
expect_eq "the data after the upgrade" "$before" "$(E2E_DB=$up everything)"
expect_eq "the staged batch's failed records kept their fields as in the file" \
  "IN-2|0|PAID|INVOICE|C-2|2026-11-30|(null)|EUR|10.00|1.90|11.90|status \"PAID\"
IN-3|x1|ISSUED|INVOICE|C-3|2026-02-30|soon|EUR|10.005|0|10.005|(null)
IN-4|0|ISSUED|CREDIT_NOTE|C-4|2026-11-30|(null)|EUR|5.00|0.95|5.95|wrong sign
IN-5|0|ISSUED|INVOICE|(null)|2026-11-30||XXX|1.00|0.00|1.00|tab	in it" \
  "$(E2E_DB=$up q "select array_to_string(v.raw_fields, '|', '(null)')
                   from staging.invoice_valid as v where v.rules <> 0 order by v.record_no")"
E2E_DB=$up run invoice_loader status
expect_rc 0

# This release's days, on the upgraded database.
E2E_DB=$up then_days
expect_eq "day 5 current view on the upgraded database" \
  "GX-1001 r2 142.80, GX-1003 r0 53.50, GX-1004 r1 380.80, GX-1005 r0 95.20, GX-1006 r0 47.60, GX-1007 r0 71.40, GX-1008 r0 107.10, GX-CN-2001 r0 -23.80" \
  "$(E2E_DB=$up current_view)"
expect_eq "versions on the upgraded database" 13 "$(E2E_DB=$up version_count)"
expect_eq "watermark on the upgraded database" 2026-12-05 "$(E2E_DB=$up watermark_of "$src")"
expect_eq "publish notifications on the upgraded database (days 1-5, and $bad_src's)" 6 \
  "$(E2E_DB=$up notifications batch_published)"
expect_eq "$bad_src: its passing record published, the others rejected" "IN-1 119.00; rejected 4" \
  "$(E2E_DB=$up q "select string_agg(invoice_number || ' ' || gross_amount, ', ') || '; rejected '
                          || (select count(distinct record_no) from ingest.rejection as r
                              join ingest.batch as b using (batch_id) where b.source = '$bad_src')
                   from reporting.invoice where source = '$bad_src'")"
E2E_DB=$up check_invariants

# The same files with this release alone: the same database.
E2E_DB=$alone first_days
E2E_DB=$alone then_days
expect_eq "the upgraded database against this release's own" \
  "$(E2E_DB=$alone everything)" "$(E2E_DB=$up everything)"
