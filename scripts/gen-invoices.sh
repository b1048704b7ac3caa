#!/usr/bin/env bash
# gen-invoices.sh: write a deterministic nightly batch of COUNT invoices,
# with its manifest, for load tests, benchmarks and end-to-end tests.
#
# Usage: scripts/gen-invoices.sh [--source S] [--prefix P] [--revision R]
#                                [--repeats N] OUT_DIR BUSINESS_DATE COUNT
#   --source S     the source named in the manifest (default acme-erp)
#   --prefix P     invoice numbers are P followed by the record number in
#                  eight digits (default INV-YYYYMMDD-, the business date)
#   --revision R   the revision of every record (default 0)
#   --repeats N    after the COUNT records, N more lines that repeat records
#                  1, 2, ... (cycling when N > COUNT) byte for byte:
#                  identical duplicates, which count once (docs/reference/input-file.md);
#                  the file then has COUNT + N records, and the manifest
#                  counts and totals all of them (benchmarks of duplicate-
#                  heavy files, bench/duplicates/)
#   -h, --help     this text
#
# Writes OUT_DIR/<S>_<date>.csv, or OUT_DIR/<S>_<date>_<P>r<R>.csv when
# --prefix or --revision is given (a / in P becomes _), with _dupN appended
# to the name for --repeats N, plus
# <csv>.manifest.json with {"source", "business_date", "record_count",
# "control_total", "sha256"}, and prints the CSV's path.
#
# Deterministic: the same arguments give the same bytes, and record i
# depends only on (i, business date, revision, prefix), never on COUNT, so
# the first K records of a file are the file of K records.  A different
# revision of the same invoice has different amounts (an amendment).
#
# Eight digits: COUNT is below 10^8, so the invoice numbers of any file
# sort in record order, as a day's numbers from one series do.  (With six,
# the ten-million file's numbers from 1000000 on sorted among the first
# million's, which the benchmark measured instead of the load: see
# docs/PERFORMANCE.md, "The 10M file's key order".)
#
# The invoices: status ISSUED, currency EUR, LF line ends; 1 in 20 is a
# CREDIT_NOTE (all amounts negative), the rest INVOICEs; net between 10.00
# and 5,009.99 (whole cents), tax 19% (7% for 1 in 4) rounded half up, so
# net + tax = gross exactly; invoice_date is the business date or up to 4
# days before it, due_date 14 or 30 days later; 5,000 customers; every 50th
# description holds a comma and quotes (CSV-quoted), every 7th is empty.
# The control total is the sum of gross_amount, computed in whole cents.
# Only bash, awk and sha256sum; the written file is checked with awk
# (count, field count, net + tax = gross, total) before it is moved into
# OUT_DIR.
set -euo pipefail
export LC_ALL=C
# shellcheck source=scripts/lib/help.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/help.sh"

usage() {
  echo "usage: $0 [--source S] [--prefix P] [--revision R] [--repeats N] OUT_DIR BUSINESS_DATE COUNT" >&2
  exit 64
}

source_name=acme-erp prefix='' revision=0 named='' repeats=0
while [[ $# -gt 0 ]]; do
  case $1 in
    --source) [[ $# -ge 2 ]] || usage; source_name=$2; shift 2 ;;
    --prefix) [[ $# -ge 2 ]] || usage; prefix=$2; named=1; shift 2 ;;
    --revision) [[ $# -ge 2 ]] || usage; revision=$2; named=1; shift 2 ;;
    -h | --help) script_help "$0" ;;
    --repeats) [[ $# -ge 2 ]] || usage; repeats=$2; shift 2 ;;
    --) shift; break ;;
    -*) usage ;;
    *) break ;;
  esac
done
[[ $# -eq 3 ]] || usage
out_dir=$1 date=$2 count=$3

[[ $source_name =~ ^[a-z0-9][a-z0-9._-]{0,63}$ ]] ||
  { echo "gen-invoices: bad source name '$source_name'" >&2; exit 64; }
[[ $count =~ ^[0-9]{1,8}$ ]] ||
  { echo "gen-invoices: COUNT must be a whole number below 10^8, not '$count'" >&2; exit 64; }
[[ $revision =~ ^[0-9]{1,9}$ ]] ||
  { echo "gen-invoices: the revision must be a whole number, not '$revision'" >&2; exit 64; }
[[ -z $prefix || $prefix =~ ^[A-Za-z0-9._/-]{1,56}$ ]] ||
  { echo "gen-invoices: the prefix must be 1-56 characters of A-Z a-z 0-9 . _ / -" >&2; exit 64; }
[[ $repeats =~ ^[0-9]{1,8}$ ]] ||
  { echo "gen-invoices: --repeats must be a whole number below 10^8, not '$repeats'" >&2; exit 64; }
count=$((10#$count)) revision=$((10#$revision)) repeats=$((10#$repeats))
if [[ $repeats -gt 0 && $count -eq 0 ]]; then
  echo "gen-invoices: --repeats needs at least one record to repeat" >&2; exit 64
fi

# shellcheck source=scripts/lib/dates.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/dates.sh"
require_real_date gen-invoices "$date"

if [[ -z $prefix ]]; then
  prefix="INV-${date//-/}-"
fi
name=${source_name}_$date
if [[ -n $named ]]; then
  name+="_${prefix//\//_}r$revision"
fi
if [[ $repeats -gt 0 ]]; then
  name+="_dup$repeats"
fi

mkdir -p "$out_dir"
csv=$out_dir/$name.csv
manifest=$csv.manifest.json
tmp_csv=$(mktemp "$out_dir/.gen-invoices.XXXXXX")
trap 'rm -f "$tmp_csv"' EXIT

# Every quantity is a whole number of cents below 2^53, so awk's doubles are
# exact; mawk's %d stops at 2^31, hence %.0f.  The pseudo-random values are
# products and remainders of small primes, reproducible on any awk.
awk -v business_date="$date" -v n="$count" -v rev="$revision" -v prefix="$prefix" \
  -v repeats="$repeats" \
  "$awk_dates"'
function money(c,    sign) {
  sign = c < 0 ? "-" : ""
  if (c < 0) c = -c
  return sprintf("%s%.0f.%02d", sign, int(c / 100), c % 100)
}
BEGIN {
  base = days_of(business_date)
  salt = 0
  for (k = 1; k <= length(prefix); ++k)
    salt = (salt * 31 + index("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._/-",
                              substr(prefix, k, 1))) % 1000003
  print "invoice_number,revision,status,document_type,customer_id," \
        "invoice_date,due_date,currency,net_amount,tax_amount," \
        "gross_amount,description"
  for (i = 1; i <= n; ++i) {
    m = i % 1000003; r = rev % 1000003
    h1 = (m * m * 7 + i * 7919 + base * 104729 + r * 15485863 + salt * 31) % 1000003
    h2 = (m * m * 3 + i * 6007 + base * 3571 + r * 2741 + salt * 17) % 999983
    credit = (h2 % 20 == 7)
    net = 1000 + h1 % 499000
    rate = (h2 % 4 == 0) ? 7 : 19
    tax = int((net * rate + 50) / 100)
    gross = net + tax
    if (credit) { net = -net; tax = -tax; gross = -gross }
    invoiced = base - (h2 % 5)
    due = invoiced + ((h1 % 3 == 0) ? 14 : 30)
    if (i % 50 == 0)
      descr = "\"Consulting, \"\"phase " (i % 9 + 1) "\"\" workshop\""
    else if (i % 7 == 0)
      descr = ""
    else
      descr = "Service item " (h1 % 997) " rev " rev
    line = sprintf("%s%08d,%d,ISSUED,%s,CUST-%05d,%s,%s,EUR,%s,%s,%s,%s",
      prefix, i, rev, credit ? "CREDIT_NOTE" : "INVOICE", h2 % 5000 + 1,
      civil_from_days(invoiced), civil_from_days(due),
      money(net), money(tax), money(gross), descr)
    print line
    if (i <= repeats) kept[i] = line
  }
  # identical repeats of records 1, 2, ... (cycling)
  for (k = 0; k < repeats; ++k)
    print kept[k % (n < repeats ? n : repeats) + 1]
}' >"$tmp_csv"

# Check what was written; the description is the only field that can hold a
# comma, and it is the last one, so the first eleven split cleanly.
total_cents=$(awk -v n="$((count + repeats))" -v rev="$revision" '
function cents(s,    sign, parts) {
  sign = 1
  if (s ~ /^-/) { sign = -1; s = substr(s, 2) }
  if (s !~ /^[0-9]+\.[0-9][0-9]$/) { bad = "amount " s " on line " NR; return 0 }
  split(s, parts, ".")
  return sign * (parts[1] * 100 + parts[2])
}
NR == 1 { next }
{
  nf = split($0, f, ",")
  if (nf < 12) bad = "field count on line " NR
  if (f[2] != rev) bad = "revision on line " NR
  if (cents(f[9]) + cents(f[10]) != cents(f[11])) bad = "net + tax != gross on line " NR
  ++records; total += cents(f[11])
}
END {
  if (bad == "" && records + 0 != n + 0) bad = "record count " records " (want " n ")"
  if (bad != "") { print "gen-invoices: generated file is wrong: " bad > "/dev/stderr"; exit 1 }
  printf "%.0f\n", total
}' "$tmp_csv")

control_total=$(awk -v c="$total_cents" 'BEGIN {
  sign = c < 0 ? "-" : ""; if (c < 0) c = -c
  printf "%s%.0f.%02d\n", sign, int(c / 100), c % 100 }')
sha=$(sha256sum "$tmp_csv")
sha=${sha%% *}
chmod 644 "$tmp_csv"
mv "$tmp_csv" "$csv"
printf '{"source":"%s","business_date":"%s","record_count":%s,"control_total":"%s","sha256":"%s"}\n' \
  "$source_name" "$date" "$((count + repeats))" "$control_total" "$sha" >"$manifest"
echo "$csv"
