#!/usr/bin/env bash
# Compressed deliveries (docs/reference/input-file.md#compressed-files): a
# gzip file publishes like the CSV inside it and is one batch by its own
# SHA-256 (a second load changes nothing); a zstd file publishes too; a
# truncated gzip or zstd stream is quarantined with file.compression, a
# gzip bomb with file.decompressed_size (quickly, stopped at the default
# bound), a file over its source's --max-decompressed-bytes the same; none
# of those stages or publishes anything.
source "$(dirname "$0")/lib.sh"

register_source acme-erp --start-date 2026-11-28

# compressed_sample DATE EXT CMD...: the sample for DATE compressed by
# CMD CSV (to stdout) into acme-erp_DATE.csv.EXT, with the sample's manifest naming the SHA-256
# of the compressed bytes; prints the path.
compressed_sample() {
  local date=$1 ext=$2 csv out sha
  shift 2
  csv=$(sample "$WORK/$date" "$date")
  out=$csv.$ext
  "$@" "$csv" >"$out"
  sha=$(sha256sum "$out"); sha=${sha%% *}
  sed "s/\"sha256\":\"[0-9a-f]*\"/\"sha256\":\"$sha\"/" \
    "$csv.manifest.json" >"$out.manifest.json"
  echo "$out"
}

# rules_of DATE: the rejection rules of DATE's batch.
rules_of() {
  q "select coalesce(string_agg(distinct r.rule, ' ' order by r.rule), 'none')
     from ingest.rejection as r join ingest.batch as b using (batch_id)
     where b.business_date = '$1'"
}

# quarantined DATE RULE: the last load exited 65 with RULE recorded for
# DATE's batch, and the published state did not move.
quarantined() {
  expect_rc 65
  expect_eq "state of $1" quarantined \
    "$(q "select state from ingest.batch_overview where business_date = '$1'")"
  [[ " $(rules_of "$1") " == *" $2 "* ]] ||
    fail "rules of $1: expected $2 among [$(rules_of "$1")]"
  expect_eq "published after $1" "40 invoices, 8400.00 gross" "$(published_state)"
  expect_eq "watermark after $1" 2026-11-29 "$(watermark_of acme-erp)"
  expect_eq "staged rows of $1" 0 \
    "$(q "select count(*) from staging.invoice_valid as v join ingest.batch as b using (batch_id)
          where b.business_date = '$1'")"
  expect_eq "publish notifications after $1" 2 "$(notifications batch_published)"
}

# Day 1: gzip.  The batch is named by the delivered (compressed) bytes.
gz=$(compressed_sample 2026-11-28 gz gzip -9 -c)
load --source acme-erp --business-date 2026-11-28 --input "$gz"
expect_rc 0
expect_eq "published after the gzip file" "20 invoices, 4200.00 gross" "$(published_state)"
expect_eq "watermark after the gzip file" 2026-11-28 "$(watermark_of acme-erp)"
expect_eq "publish notifications" 1 "$(notifications batch_published)"
sha=$(sha256sum "$gz"); sha=${sha%% *}
expect_eq "batch of the compressed bytes" "$sha|$(stat -c %s "$gz")" \
  "$(q "select sha256 || '|' || size_bytes from ingest.batch where business_date = '2026-11-28'")"

load --source acme-erp --business-date 2026-11-28 --input "$gz"
expect_rc 0
expect_output_has "already published"
expect_eq "batches after the second load" 1 "$(q 'select count(*) from ingest.batch')"
expect_eq "published after the second load" "20 invoices, 4200.00 gross" "$(published_state)"
expect_eq "notifications after the second load" 1 "$(notifications batch_published)"

# Day 2: zstd, of two frames (concatenated frames are one stream).
two_frames() { head -n 8 "$1" | zstd -q -c; tail -n +9 "$1" | zstd -q -c; }
zst=$(compressed_sample 2026-11-29 zst two_frames)
load --source acme-erp --business-date 2026-11-29 --input "$zst"
expect_rc 0
expect_eq "published after the zstd file" "40 invoices, 8400.00 gross" "$(published_state)"
expect_eq "watermark after the zstd file" 2026-11-29 "$(watermark_of acme-erp)"
expect_eq "publish notifications after the zstd file" 2 "$(notifications batch_published)"

# Day 3: a gzip file cut short (its last 100 bytes gone).
gz=$(compressed_sample 2026-11-30 gz gzip -c)
truncate -s -100 "$gz"
load --source acme-erp --business-date 2026-11-30 --input "$gz"
quarantined 2026-11-30 file.compression
expect_eq "the detail names format and offset" 1 \
  "$(q "select count(*) from ingest.rejection
        where rule = 'file.compression' and record_no = 0
          and detail like 'the gzip stream is corrupt at decompressed byte offset %'")"

# Day 4: a zstd file cut short.
zst=$(compressed_sample 2026-12-01 zst zstd -q -c)
truncate -s -10 "$zst"
load --source acme-erp --business-date 2026-12-01 --input "$zst"
quarantined 2026-12-01 file.compression

# Day 5: a gzip bomb behind a valid header: 300 MB of zeros in about
# 300 kB; the default bound (20 times the file) stops it within seconds.
csv=$(sample "$WORK/2026-12-02" 2026-12-02)
bomb=$csv.gz
{ head -n 1 "$csv" | gzip -c; head -c 300000000 /dev/zero | gzip -c; } >"$bomb"
write_manifest "$bomb" 20 4200.00 2026-12-02
started=$SECONDS
load --source acme-erp --business-date 2026-12-02 --input "$bomb"
quarantined 2026-12-02 file.decompressed_size
(( SECONDS - started < 30 )) || fail "the bomb took $((SECONDS - started)) s"
expect_eq "the detail names the limit and the delivered size" 1 \
  "$(q "select count(*) from ingest.rejection
        where rule = 'file.decompressed_size' and record_no = 0
          and detail like '%limit of $((20 * $(stat -c %s "$bomb"))) bytes%'
          and detail like '%$(stat -c %s "$bomb") bytes%'")"

# Day 6: a good gzip file over the source's own, small limit.
run invoice_operator source add acme-erp --max-decompressed-bytes 1000
expect_rc 0
expect_output_has "decompressed limit 1000 bytes"
expect_eq "stored limit" 1000 \
  "$(q "select max_decompressed_bytes from ingest.source where source = 'acme-erp'")"
gz=$(compressed_sample 2026-12-03 gz gzip -c)
load --source acme-erp --business-date 2026-12-03 --input "$gz"
quarantined 2026-12-03 file.decompressed_size
expect_eq "the source's limit is named" 1 \
  "$(q "select count(*) from ingest.rejection
        where rule = 'file.decompressed_size' and detail like '%limit of 1000 bytes%'")"

run invoice_operator source add acme-erp --max-decompressed-bytes 0
expect_rc 64
