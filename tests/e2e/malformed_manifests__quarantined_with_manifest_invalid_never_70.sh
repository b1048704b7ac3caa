#!/usr/bin/env bash
# Three manifests that are not JSON text: one with a NUL byte and garbage
# after it (libpq used to cut the text at the NUL, and the JSON before it
# was accepted), one with bytes that are not UTF-8 (the server refused the
# parameter: exit 65 with nothing stored), one nested 100,000 deep (the
# server's stack depth, 54001: exit 70).  Each is now a manifest.invalid
# quarantine of its batch: exit 65, the rule stored, nothing published, one
# batch_quarantined notification each, and never exit 70.
source "$(dirname "$0")/lib.sh"

register_source acme-erp --start-date 2026-11-28

n=0
for kind in nul utf8 deep; do
  n=$((n + 1))
  date=2026-11-$((27 + n))   # one file per business date: other bytes
  csv=$(sample "$WORK/$kind" "$date")
  good=$(cat "$csv.manifest.json")
  case $kind in
    nul) { printf '%s' "$good"; printf '\0{"record_count": 999, garbage'; } >"$csv.manifest.json" ;;
    utf8) printf '%s' "${good%\}}" >"$csv.manifest.json"
          printf ',"note":"caf\xe9 \xff"}' >>"$csv.manifest.json" ;;
    deep) awk 'BEGIN { for (i = 0; i < 100000; ++i) printf "["; for (i = 0; i < 100000; ++i) printf "]" }' \
            >"$csv.manifest.json" ;;
  esac
  load --source acme-erp --business-date "$date" --input "$csv"
  [[ $RC != 70 ]] || fail "$kind: exit 70"
  expect_rc 65
  expect_output_has "manifest.invalid"
  batch=$(q "select coalesce(max(batch_id)::text, 'none') from ingest.batch_overview
             where business_date = '$date'")
  [[ $batch != none ]] || fail "$kind: no batch registered"
  expect_eq "$kind: state" quarantined "$(q "select state from ingest.batch_overview where batch_id = $batch")"
  expect_eq "$kind: manifest.invalid stored" 1 \
    "$(q "select count(*) from ingest.rejection where batch_id = $batch
          and record_no = 0 and rule = 'manifest.invalid'")"
  expect_eq "$kind: nothing staged" 0 "$(q "select count(*) from staging.invoice_valid where batch_id = $batch")"
  expect_eq "$kind: notifications" batch_quarantined \
    "$(q "select string_agg(kind, ',') from ingest.notification where batch_id = $batch")"
done

expect_eq "NUL: the detail names the byte" 1 \
  "$(q "select count(*) from ingest.rejection where rule = 'manifest.invalid'
        and detail like '%a NUL byte at byte offset%'")"
expect_eq "UTF-8: the detail names the byte" 1 \
  "$(q "select count(*) from ingest.rejection where rule = 'manifest.invalid'
        and detail like '%not UTF-8 at byte offset%'")"
expect_eq "published" "0 invoices, 0 gross" "$(published_state)"
expect_eq "watermark" none "$(watermark_of acme-erp)"
expect_eq "publish notifications" 0 "$(notifications batch_published)"
expect_eq "batches" "3 quarantined" \
  "$(q "select count(*) || ' ' || string_agg(distinct state, ',') from ingest.batch_overview")"
check_invariants
