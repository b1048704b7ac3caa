#!/usr/bin/env bash
# load --dry-run: read, checksum, stage, validate and
# reconcile in one transaction that is rolled back: nothing registered,
# exit 0 for a file that would publish, 65 with the same rejection lines
# as a real load for one that would be quarantined; a dry run lists every
# rejection where a load shows the first ten; status --rejections exports
# them all as CSV or JSON lines.
source "$(dirname "$0")/lib.sh"

csv=$(sample "$WORK")
register_source acme-erp --start-date 2026-11-28

nothing_left() {
  expect_eq "batches after $1" 0 "$(q 'select count(*) from ingest.batch')"
  expect_eq "attempts after $1" 0 "$(q 'select count(*) from ingest.attempt')"
  expect_eq "staged rows after $1" 0 "$(q 'select count(*) from staging.invoice_line')"
  expect_eq "typed rows after $1" 0 "$(q 'select count(*) from staging.invoice_valid')"
  expect_eq "rejections after $1" 0 "$(q 'select count(*) from ingest.rejection_row')"
  expect_eq "notifications after $1" 0 "$(q 'select count(*) from ingest.outbox')"
  expect_eq "published after $1" "0 invoices, 0 gross" "$(published_state)"
  expect_eq "watermark after $1" none "$(watermark_of acme-erp)"
}

load --source acme-erp --business-date 2026-11-28 --input "$csv" --dry-run
expect_rc 0
expect_output_has "it would publish: 20 accepted, 0 rejected; nothing was registered"
nothing_left "a good dry run"

# A bad file: two records break rules, the manifest's total is off.
awk -F, 'NR == 3 { $11 = "12.345" } NR == 5 { $3 = "PAID" } { print }' OFS=, "$csv" >"$WORK/bad.csv"
cp "$csv.manifest.json" "$WORK/bad.csv.manifest.json"
load --source acme-erp --business-date 2026-11-28 --input "$WORK/bad.csv" --dry-run
expect_rc 65
expect_output_has "it would be quarantined; nothing was registered"
grep -E '^  (file|record)' "$WORK/out" >"$WORK/dry.lines" || true
[[ -s $WORK/dry.lines ]] || fail "the dry run printed no rejection lines"
nothing_left "a bad dry run"

# The real load of the same file prints the same lines.
load --source acme-erp --business-date 2026-11-28 --input "$WORK/bad.csv"
expect_rc 65
grep -E '^  (file|record)' "$WORK/out" >"$WORK/real.lines" || true
diff -u "$WORK/real.lines" "$WORK/dry.lines" || fail "dry-run and load report different rejections"
expect_eq "the real load quarantined" quarantined "$(q 'select state from ingest.batch')"

# Fifteen bad records: the dry run lists all fifteen, the load ten and a
# pointer to the rest.
awk -F, 'NR >= 2 && NR <= 16 { $3 = "PAID" } { print }' OFS=, "$csv" >"$WORK/many.csv"
cp "$csv.manifest.json" "$WORK/many.csv.manifest.json"
load --source acme-erp --business-date 2026-11-29 --input "$WORK/many.csv" --expect-count 20 --expect-total 4200.00 --dry-run
expect_rc 65
expect_eq "record lines of the dry run" 15 "$(grep -cE '^  record [0-9]+' "$WORK/out")"
grep -q '^  \.\.\.' "$WORK/out" && fail "the dry run cut its list"
load --source acme-erp --business-date 2026-11-29 --input "$WORK/many.csv" --expect-count 20 --expect-total 4200.00
expect_rc 65
expect_eq "record lines of the load" 10 "$(grep -cE '^  record [0-9]+' "$WORK/out")"
many=$(q "select batch_id from ingest.batch where business_date = '2026-11-29'")
expect_output_has "status --batch $many lists all"

# Every rejection exported: CSV with a header, one row per rejection and
# the record's fields as read; JSON, one object per line.
run invoice_operator status --batch "$many" --rejections
expect_rc 0
python3 - "$WORK/out" "$WORK/many.csv" <<'PY' || fail "the CSV export is not every rejection with its fields"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
delivered = list(csv.DictReader(open(sys.argv[2], newline='')))
recs = [r for r in rows if r["record_no"] != "0"]
assert len(recs) == 15, rows
assert all(r["rule"] == "status.value" for r in recs), recs
for r in recs:
    d = delivered[int(r["record_no"]) - 1]
    assert r["status"] == "PAID", (r, d)
    assert r["invoice_number"] == d["invoice_number"] and r["gross_amount"] == d["gross_amount"], (r, d)
PY
run invoice_operator status --batch "$many" --rejections --format json
expect_rc 0
python3 - "$WORK/out" <<'PY' || fail "the JSON export is not one object per rejection"
import json, sys
lines = open(sys.argv[1]).read().splitlines()
objs = [json.loads(l) for l in lines]
recs = [o for o in objs if o["record_no"] != 0]
assert len(recs) == 15 and all(isinstance(o["record_no"], int) for o in objs), objs
assert all(o["fields"]["status"] == "PAID" for o in recs), recs
PY
run invoice_operator status --batch 9999 --rejections
expect_rc 78
expect_output_has "no batch 9999"
run invoice_operator status --rejections
expect_rc 64
run invoice_operator status --batch "$many" --format csv
expect_rc 64
run invoice_operator status --batch "$many" --rejections --format prometheus
expect_rc 64

# A dry run of bytes already registered says so and changes nothing.
load --source acme-erp --business-date 2026-11-28 --input "$csv" --expect-count 20 --expect-total 4200.00
expect_rc 0
before=$(q "select count(*) || ':' || (select count(*) from ingest.attempt) from ingest.batch")
load --source acme-erp --business-date 2026-11-28 --input "$csv" --dry-run --expect-count 20 --expect-total 4200.00
expect_rc 0
expect_output_has "already published"
expect_eq "batches:attempts after a dry run of a published file" "$before" \
  "$(q "select count(*) || ':' || (select count(*) from ingest.attempt) from ingest.batch")"
check_invariants
