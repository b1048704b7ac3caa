#!/usr/bin/env bash
# Exit codes of CONTRACT.md section 7 for inputs and options that are
# wrong, and that nothing is registered by them.
source "$(dirname "$0")/lib.sh"

csv=$(sample "$WORK")
register_source acme-erp --start-date 2026-11-28

load --source acme-erp --business-date 2026-11-28 --input "$WORK/nope.csv"
expect_rc 66
load --source acme-erp --business-date 2026-11-28 --input "$csv" --manifest "$WORK/nope.json"
expect_rc 66
load --source no-such-source --business-date 2026-11-28 --input "$csv"
expect_rc 78
expect_output_has "unknown source"
load --source acme-erp --business-date 2026-02-30 --input "$csv"
expect_rc 78
load --business-date 2026-11-28 --input "$csv"
expect_rc 64
# --expect-total is a plain decimal or CODE=X with an upper-case code: a
# lower-case code is refused before anything is registered.
load --source acme-erp --business-date 2026-11-28 --input "$csv" --expect-count 20 \
  --expect-total eur=4200.00
expect_rc 78
expect_output_has "CODE=X"
expect_eq "batches after a refused --expect-total" 0 "$(q "select count(*) from ingest.batch")"
run invoice_loader frobnicate
expect_rc 64
set +e
"$INVOICE_LOADER" --dsn "dbname=$E2E_DB user=invoice_loader password=hunter2" status >"$WORK/out" 2>"$WORK/err"
RC=$?
set -e
expect_rc 78
grep -q hunter2 "$WORK/out" "$WORK/err" && fail "the password was printed"
# The loader role may not register sources (SQLSTATE 42501 -> 77).
run invoice_loader source add sneaky
expect_rc 77
expect_eq "batches" 0 "$(q 'select count(*) from ingest.batch_overview')"
expect_eq "sources" "acme-erp" "$(q "select string_agg(source, ',') from ingest.source")"

# No manifest and no --expect-*: the delivery is not complete (CONTRACT
# section 3): exit 66 and nothing registered, so the manifest can still come.
# (other bytes than the sample: the same bytes would be the same batch)
head -n 20 "$csv" >"$WORK/bare.csv"
load --source acme-erp --business-date 2026-11-28 --input "$WORK/bare.csv"
expect_rc 66
expect_output_has "bare.csv.manifest.json does not exist"
expect_eq "batches after a missing manifest" 0 "$(q 'select count(*) from ingest.batch')"
expect_eq "attempts after a missing manifest" 0 "$(q 'select count(*) from ingest.attempt')"

# --expect-count/--expect-total replace the manifest.
load --source acme-erp --business-date 2026-11-28 --input "$csv" --expect-count 20 --expect-total 4200.00
expect_rc 0
expect_eq "published" "20 invoices, 4200.00 gross" "$(published_state)"
