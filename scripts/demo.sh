#!/usr/bin/env bash
# scripts/demo.sh: the quick start.  On a fresh Debian 12 machine: installs
# what is missing, builds, starts a throwaway PostgreSQL 15 (pg_cron
# preloaded), migrates, registers the sample source, generates the sample
# nightly batch (20 invoices, control total 4,200.00, with its manifest),
# loads it, shows status and the totals consumers read, then loads the same
# file again to show that nothing changes.  Leaves nothing running.
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

totals() {
  psql -X -d invoice -U invoice_reader -c \
    "select count(*) as invoices, sum(gross_amount) as total_gross
     from reporting.invoice"
}
step "What consumers read (the reader role)"
totals

step "The same file again: found by its SHA-256, nothing changes"
show "$loader" --dsn "dbname=invoice user=invoice_loader" \
  load --source acme-erp --business-date "$date" --input "$csv"
totals
show "$loader" --dsn "dbname=invoice user=invoice_loader" status
