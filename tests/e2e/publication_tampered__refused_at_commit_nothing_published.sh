#!/usr/bin/env bash
# The database refuses, when the publishing transaction commits, a
# publication whose rows disagree with the manifest (the deferred trigger
# publication_reconciles, ingest.check_publication).  A file of 20 EUR and
# 2 JPY invoices with control_totals per currency is written and the
# loader killed before the publication (after_write_commit).  Then:
#   1. the stored counts claim one record resent unchanged: the rerun's
#      publication is refused at commit, exit 70 naming IV222 and the
#      batch; nothing is published (no invoice, no watermark, no
#      notification, the batch validated and still written);
#   2. the counts put back, one version's amount changed (net and gross,
#      so the row stays consistent): refused the same way;
#   3. the version put back: a plain rerun publishes, each currency's sum
#      visible, the watermark at the date, one notification.
source "$(dirname "$0")/lib.sh"

csv=$(sample "$WORK")
register_source acme-erp --start-date 2026-11-28
printf '%s\n' \
  'JPY-0001,0,ISSUED,INVOICE,CUST-001,2026-11-28,,JPY,10000,1000,11000,yen one' \
  'JPY-0002,0,ISSUED,INVOICE,CUST-002,2026-11-28,,JPY,20000,2000,22000,yen two' >>"$csv"
printf '{"source":"acme-erp","business_date":"2026-11-28","record_count":22,"control_totals":{"EUR":"4200.00","JPY":"33000"}}\n' \
  >"$csv.manifest.json"

nothing_published() { # STEP
  expect_eq "$1: invoices readers see" 0 "$(q "select count(*) from reporting.invoice")"
  expect_eq "$1: watermark" none "$(watermark_of acme-erp)"
  expect_eq "$1: notifications" 0 "$(q "select count(*) from ingest.notification")"
  expect_eq "$1: batch state, still written" "validated 1" \
    "$(q "select b.state || ' ' || (select count(*) from ingest.pending_publication as p
                                   where p.batch_id = b.batch_id) from ingest.batch as b")"
}

set +e
INVOICE_LOADER_FAILPOINT=after_write_commit "$INVOICE_LOADER" --dsn "dbname=$E2E_DB user=invoice_loader" \
  load --source acme-erp --business-date 2026-11-28 --input "$csv" >"$WORK/out" 2>"$WORK/err"
RC=$?
set -e
expect_rc 137
nothing_published "written"
saved=$(q "select counts::text from ingest.pending_publication")

# 1. counts that account for a record twice
q "update ingest.pending_publication set counts = counts || '{\"unchanged\": 1}'" >/dev/null
load --source acme-erp --business-date 2026-11-28 --input "$csv"
expect_rc 70
expect_output_has "IV222"
expect_output_has "batch 1: the publication does not reconcile with its manifest"
nothing_published "tampered counts"

# 2. a version's amount changed after the write (the guard triggers
#    forbid it to every role, so the superuser steps around them)
q "update ingest.pending_publication set counts = '$saved'::jsonb" >/dev/null
psql -X -q -v ON_ERROR_STOP=1 -d "$E2E_DB" >/dev/null <<'SQL'
begin;
set local session_replication_role = replica;
update core.invoice_version set net_amount = net_amount + 1, gross_amount = gross_amount + 1
 where invoice_number = 'JPY-0001';
commit;
SQL
load --source acme-erp --business-date 2026-11-28 --input "$csv"
expect_rc 70
expect_output_has "IV222"
expect_output_has "JPY"
nothing_published "tampered version"

# 3. put back: the plain rerun publishes
psql -X -q -v ON_ERROR_STOP=1 -d "$E2E_DB" >/dev/null <<'SQL'
begin;
set local session_replication_role = replica;
update core.invoice_version set net_amount = net_amount - 1, gross_amount = gross_amount - 1
 where invoice_number = 'JPY-0001';
commit;
SQL
load --source acme-erp --business-date 2026-11-28 --input "$csv"
expect_rc 0
expect_eq "published per currency" "EUR 20 4200.00, JPY 2 33000" \
  "$(q "select string_agg(currency || ' ' || n || ' ' || s, ', ' order by currency)
        from (select currency, count(*) as n, sum(gross_amount) as s
              from reporting.invoice group by currency) as t")"
expect_eq "watermark" 2026-11-28 "$(watermark_of acme-erp)"
expect_eq "notifications" 1 "$(notifications batch_published)"
expect_eq "batch state" published "$(q "select state from ingest.batch")"
check_invariants
