#!/usr/bin/env bash
# A missing manifest means the delivery is not complete
# (docs/reference/input-file.md): exit 66 and nothing registered; once it is there, the same file
# loads.  --wait-for-manifest polls for one that arrives late.
source "$(dirname "$0")/lib.sh"

csv=$(sample "$WORK")
register_source acme-erp --start-date 2026-11-28
mv "$csv.manifest.json" "$WORK/manifest.later"

load --source acme-erp --business-date 2026-11-28 --input "$csv"
expect_rc 66
expect_output_has "does not exist (yet)"
expect_eq "batches" 0 "$(q 'select count(*) from ingest.batch')"
expect_eq "attempts" 0 "$(q 'select count(*) from ingest.attempt')"
expect_eq "watermark" none "$(watermark_of acme-erp)"

# An explicit --manifest that is not there: the same.
load --source acme-erp --business-date 2026-11-28 --input "$csv" --manifest "$WORK/nope.json"
expect_rc 66
expect_eq "batches" 0 "$(q 'select count(*) from ingest.batch')"

# The manifest arrives two seconds into a load that waits up to 30.
( sleep 2; mv "$WORK/manifest.later" "$csv.manifest.json" ) &
mover=$!
load --source acme-erp --business-date 2026-11-28 --input "$csv" --wait-for-manifest 30
wait "$mover"
expect_rc 0
expect_output_has "waiting for the manifest"
expect_eq "published" "20 invoices, 4200.00 gross" "$(published_state)"
expect_eq "watermark" 2026-11-28 "$(watermark_of acme-erp)"
expect_eq "batches" 1 "$(q 'select count(*) from ingest.batch')"
expect_eq "notifications" 1 "$(notifications batch_published)"
check_invariants
