#!/usr/bin/env bash
# make-sample.sh: write the sample nightly batch of the source acme-erp.
#
# Usage: scripts/make-sample.sh OUT_DIR [BUSINESS_DATE]   (default 2026-11-28)
#        scripts/make-sample.sh --help
#
# Writes, deterministically (the same date gives the same bytes):
#   OUT_DIR/acme-erp_<date>.csv                 20 invoices, LF line ends
#   OUT_DIR/acme-erp_<date>.csv.manifest.json   {"source", "business_date",
#                                                "record_count": 20,
#                                                "control_total": "4200.00",
#                                                "net_totals": {"EUR": ..},
#                                                "tax_totals": {"EUR": ..},
#                                                "sha256": <of the csv>}
# and prints the CSV's path.
#
# The invoices: revision 0, ISSUED, INVOICE, EUR; invoice_date is the
# business date or up to 3 days before it, due_date 30 days later; amounts
# have 2 decimals with net + tax = gross exactly (19% or 7% tax), and the
# gross amounts add up to exactly 4200.00 (the last invoice takes the
# remainder); seven customers; one description holds a comma and quotes
# (so it is CSV-quoted), one is empty, one is non-ASCII UTF-8.
# Invoice numbers carry the date (ACME-YYYYMMDD-NNN), so each day's file
# holds new invoices. Only bash, awk and sha256sum; the result is checked
# with awk (20 records, 12 fields each, net + tax = gross, sum 4200.00)
# before anything is written in OUT_DIR.
set -euo pipefail
export LC_ALL=C
# shellcheck source=scripts/lib/help.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/help.sh"
help_if_asked "$0" "${1:-}"

usage() {
  echo "usage: $0 OUT_DIR [BUSINESS_DATE]" >&2
  exit 64
}
[[ $# -ge 1 && $# -le 2 ]] || usage
out_dir=$1
date=${2:-2026-11-28}

# shellcheck source=scripts/lib/dates.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/dates.sh"
require_real_date make-sample "$date"

mkdir -p "$out_dir"
csv=$out_dir/acme-erp_$date.csv
manifest=$csv.manifest.json
tmp_csv=$(mktemp "$out_dir/.make-sample.XXXXXX")
trap 'rm -f "$tmp_csv"' EXIT

# Amounts are whole cents throughout; no floating-point rounding.
awk -v business_date="$date" "$awk_dates"'
function money(c) { return sprintf("%d.%02d", int(c / 100), c % 100) }
function csv_field(s) {
  if (s ~ /[",\r\n]/) { gsub(/"/, "\"\"", s); return "\"" s "\"" }
  return s
}
BEGIN {
  n = 20; target = 420000
  split("Monthly subscription|" \
        "Consulting, \"phase 2\" workshop|" \
        "Hardware: docking stations|" \
        "Technical books (reduced rate)|" \
        "Support plan, standard|" \
        "Cloud hosting November|" \
        "Schulung M\303\274nchen|" \
        "Printed manuals (reduced rate)|" \
        "Licence renewal|" \
        "|" \
        "Onsite installation|" \
        "Magazines (reduced rate)|" \
        "Data migration|" \
        "Backup storage|" \
        "Training materials|" \
        "Newspapers (reduced rate)|" \
        "Security audit|" \
        "Network equipment|" \
        "Helpdesk hours|" \
        "Year-end adjustment", descr, "|")
  ymd = business_date; gsub(/-/, "", ymd)
  base = days_of(business_date)
  print "invoice_number,revision,status,document_type,customer_id," \
        "invoice_date,due_date,currency,net_amount,tax_amount," \
        "gross_amount,description"
  sum = 0
  for (i = 1; i <= n; ++i) {
    if (i < n) {
      net = 10000 + (i * 7919) % 15000
      rate = (i % 4 == 0) ? 7 : 19
      tax = int((net * rate + 50) / 100)
      gross = net + tax
    } else {
      gross = target - sum
      net = int((gross * 200 + 119) / 238)     # round(gross / 1.19)
      tax = gross - net
    }
    sum += gross
    invoiced = base - (i % 4)
    printf "%s,0,ISSUED,INVOICE,%s,%s,%s,EUR,%s,%s,%s,%s\n",
      sprintf("ACME-%s-%03d", ymd, i), sprintf("CUST-%03d", (i * 5) % 7 + 1),
      civil_from_days(invoiced), civil_from_days(invoiced + 30),
      money(net), money(tax), money(gross), csv_field(descr[i])
  }
}' >"$tmp_csv"

# Check what was written: a quote-aware split (no field spans lines here).
awk '
function cents(s,    parts) {
  if (s !~ /^[0-9]+\.[0-9][0-9]$/) { bad = "amount " s " on line " NR; return 0 }
  split(s, parts, ".")
  return parts[1] * 100 + parts[2]
}
function split_csv(line, f,    n, i, c, field, quoted) {
  n = 0; field = ""; quoted = 0
  for (i = 1; i <= length(line); ++i) {
    c = substr(line, i, 1)
    if (quoted) {
      if (c == "\"" && substr(line, i + 1, 1) == "\"") { field = field c; ++i }
      else if (c == "\"") quoted = 0
      else field = field c
    } else if (c == "\"") quoted = 1
    else if (c == ",") { f[++n] = field; field = "" }
    else field = field c
  }
  f[++n] = field
  return n
}
NR == 1 {
  if ($0 != "invoice_number,revision,status,document_type,customer_id," \
            "invoice_date,due_date,currency,net_amount,tax_amount," \
            "gross_amount,description") bad = "header"
  next
}
{
  if (split_csv($0, f) != 12) bad = "field count on line " NR
  if (cents(f[9]) + cents(f[10]) != cents(f[11])) bad = "net + tax != gross on line " NR
  ++count; total += cents(f[11])
}
END {
  if (bad == "" && count != 20) bad = "record count " count " (want 20)"
  if (bad == "" && total != 420000) bad = "gross sum " total " cents (want 420000)"
  if (bad != "") { print "make-sample: generated file is wrong: " bad > "/dev/stderr"; exit 1 }
}' "$tmp_csv"

sha=$(sha256sum "$tmp_csv")
sha=${sha%% *}
chmod 644 "$tmp_csv"
mv "$tmp_csv" "$csv"
# The net and tax sums, per currency (EUR): only they catch a file whose
# net and tax columns are swapped in its header, since net + tax = gross
# either way and the gross total still agrees.
read -r net tax < <(awk -F, 'NR > 1 { sub(/\./, "", $9); sub(/\./, "", $10); n += $9; t += $10 }
  END { printf "%d.%02d %d.%02d\n", n / 100, n % 100, t / 100, t % 100 }' "$csv")
printf '{"source":"acme-erp","business_date":"%s","record_count":20,"control_total":"4200.00","net_totals":{"EUR":"%s"},"tax_totals":{"EUR":"%s"},"sha256":"%s"}\n' \
  "$date" "$net" "$tax" "$sha" >"$manifest"
echo "$csv"
