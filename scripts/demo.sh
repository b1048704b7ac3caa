#!/usr/bin/env bash
# scripts/demo.sh: the quick start.  On a fresh Debian 12 machine: installs
# what is missing, builds, starts a throwaway PostgreSQL 15 (pg_cron
# preloaded), migrates, registers the sample source, generates the sample
# nightly batch (20 invoices, control total 4,200.00, with its manifest),
# loads it, shows status and the totals consumers read, loads the same
# file again to show that nothing changes, then the next night's file of
# two currencies, reconciled per currency.  Leaves nothing running.
#
# Usage: scripts/demo.sh          (no arguments)
#        scripts/demo.sh --help   (this text; does nothing else)
set -euo pipefail
# shellcheck source=scripts/lib/help.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/help.sh"
help_if_asked "$0" "${1:-}"
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"

if [[ ${1:-} != --inside ]]; then
  scripts/install-deps.sh
  scripts/build.sh >/dev/null
  exec scripts/with-tmp-pg.sh "$0" --inside
fi

loader=$repo/build/loader/invoice-loader
date=2026-11-28
step() { printf '\n== %s\n' "$*"; }
show() { printf '$ %s\n' "$*"; "$@"; }

step "A database for the demo, and its schema"
createdb invoice
show "$loader" --dsn "dbname=invoice" migrate

step "The operator registers the source"
show "$loader" --dsn "dbname=invoice user=invoice_operator" \
  source add acme-erp --start-date "$date"

step "The nightly file and its manifest (control totals)"
sample_dir=$(mktemp -d)
trap 'rm -rf "$sample_dir"' EXIT
scripts/make-sample.sh "$sample_dir" "$date"
csv=$sample_dir/acme-erp_$date.csv
cat "$csv.manifest.json"; echo

step "Load it (the loader role): received -> staged -> validated -> published"
show "$loader" --dsn "dbname=invoice user=invoice_loader" \
  load --source acme-erp --business-date "$date" --input "$csv"

step "Status"
show "$loader" --dsn "dbname=invoice user=invoice_loader" status --batch 1

totals() { # per currency: a sum across currencies means nothing
  psql -X -d invoice -U invoice_reader -c \
    "select currency, count(*) as invoices, sum(gross_amount) as total_gross
     from reporting.invoice group by currency order by currency"
}
step "What consumers read (the reader role)"
totals

step "The same file again: found by its SHA-256, nothing changes"
show "$loader" --dsn "dbname=invoice user=invoice_loader" \
  load --source acme-erp --business-date "$date" --input "$csv"
totals
show "$loader" --dsn "dbname=invoice user=invoice_loader" status

step "The next night: euros and yen, with control totals per currency"
next=2026-11-29
csv2=$sample_dir/acme-erp_$next.csv
cat >"$csv2" <<CSV
invoice_number,revision,status,document_type,customer_id,invoice_date,due_date,currency,net_amount,tax_amount,gross_amount,description
ACME-1001,0,ISSUED,INVOICE,CUST-001,$next,,EUR,100.00,19.00,119.00,consulting
ACME-1002,0,ISSUED,CREDIT_NOTE,CUST-002,$next,,EUR,-50.00,-9.50,-59.50,credit
ACME-1003,0,ISSUED,INVOICE,CUST-003,$next,,JPY,10000,1000,11000,licence
ACME-1004,0,ISSUED,INVOICE,CUST-004,$next,,JPY,20000,2000,22000,support
CSV
printf '{"source":"acme-erp","business_date":"%s","record_count":4,"control_totals":{"EUR":"59.50","JPY":"33000"}}\n' \
  "$next" >"$csv2.manifest.json"
cat "$csv2.manifest.json"
show "$loader" --dsn "dbname=invoice user=invoice_loader" \
  load --source acme-erp --business-date "$next" --input "$csv2"
totals
