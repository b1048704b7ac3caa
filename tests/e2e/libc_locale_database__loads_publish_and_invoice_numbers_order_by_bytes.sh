#!/usr/bin/env bash
# A database created with a libc locale (de_DE.UTF-8; pg_createcluster takes
# the system's) loads, amends and publishes as a C one does, and its invoice
# numbers compare by bytes (migrations/0027, COLLATE "C": under the locale
# every B-tree comparison of the merge was a strcoll() call,
# docs/PERFORMANCE.md "Invoice numbers compare by bytes"):
#   - day 1: five invoices whose numbers sort one way by bytes and another
#     way under de_DE (case and punctuation); published;
#   - day 2: an amendment of one of them and a new one; published, the
#     amended number current at revision 1;
#   - reporting.invoice in invoice-number order is byte order, and the
#     database's own collation orders the same numbers otherwise (so the
#     check means something);
#   - counts, amounts, watermark and notifications as for any two days.
source "$(dirname "$0")/lib.sh"
ensure_locale de_DE.UTF-8

db=${E2E_DB}_de
psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "drop database if exists $db" \
  -c "create database $db template template0 encoding 'UTF8' locale 'de_DE.UTF-8'" >/dev/null
trap 'psql -X -q -d postgres -c "drop database if exists $db" >/dev/null 2>&1 || true
      rm -rf "$WORK"' EXIT
# lib.sh's helpers (q, run, load, watermark_of, notifications) from here on
# work in this database.
E2E_DB=$db

expect_eq "the database's collation" de_DE.UTF-8 \
  "$(q "select datcollate from pg_database where datname = current_database()")"
run postgres migrate
expect_rc 0
register_source acme-erp --start-date 2026-11-28

header=invoice_number,revision,status,document_type,customer_id,invoice_date,due_date,currency,net_amount,tax_amount,gross_amount,description
line() { echo "$1,$2,ISSUED,INVOICE,CUST-1,2026-11-27,2026-12-27,EUR,$3,$4,$5,x"; }
day1=$WORK/acme-erp_2026-11-28.csv
{
  echo "$header"
  for n in inv-a INV-B INV_A INV-b 2-x; do line "$n" 0 10.00 2.00 12.00; done
} >"$day1"
write_manifest "$day1" 5 60.00
load --source acme-erp --business-date 2026-11-28 --input "$day1"
expect_rc 0

day2=$WORK/acme-erp_2026-11-29.csv
{
  echo "$header"
  line INV-b 1 20.00 4.00 24.00
  line Inv-c 0 10.00 2.00 12.00
} >"$day2"
write_manifest "$day2" 2 36.00 2026-11-29
load --source acme-erp --business-date 2026-11-29 --input "$day2"
expect_rc 0

expect_eq "both batches published" "published,published" \
  "$(q "select string_agg(state, ',' order by business_date) from ingest.batch")"
expect_eq "merge counts of day 2" "1 1" \
  "$(q "select (merge_counts->>'amended') || ' ' || (merge_counts->>'inserted')
         from ingest.batch where business_date = '2026-11-29'")"
expect_eq "current invoices and their gross" "6|84.00" \
  "$(q "select count(*), sum(gross_amount) from reporting.invoice")"
expect_eq "INV-b is current at revision 1" "1|24.00" \
  "$(q "select revision, gross_amount from reporting.invoice where invoice_number = 'INV-b'")"
expect_eq "versions (the amended one kept)" 7 "$(q "select count(*) from core.invoice_version")"
expect_eq "watermark" 2026-11-29 "$(watermark_of acme-erp)"
expect_eq "one notification per publication" 2 "$(notifications batch_published)"

bytes=$(printf '%s\n' inv-a INV-B INV_A INV-b 2-x Inv-c | LC_ALL=C sort | paste -sd,)
expect_eq "reporting.invoice in invoice-number order is byte order" "$bytes" \
  "$(q "select string_agg(invoice_number, ',' order by invoice_number) from reporting.invoice")"
locale_order=$(q "select string_agg(invoice_number, ',' order by invoice_number collate \"default\")
                   from reporting.invoice")
[[ $locale_order != "$bytes" ]] ||
  fail "the database's collation orders the numbers as bytes do ($locale_order): the check above proves nothing"
echo "ok: de_DE.UTF-8 database published both days; byte order $bytes, the locale's $locale_order"
