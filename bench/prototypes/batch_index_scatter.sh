#!/usr/bin/env bash
# bench/prototypes/batch_index_scatter.sh [REPS]: the case a BRIN batch
# index on core.invoice_version could lose (migration 0022,
# docs/PERFORMANCE.md "The batch index"): a batch whose rows land in holes
# of old pages.  In the cluster PG* points at (start one with
# scripts/with-tmp-pg.sh): 5M versions of history (bench/publish/
# history.sql), the benchmark's over-history file published over it
# (90,000 supersessions), a VACUUM that vacuums the indexes too, so that
# the holes of the superseded versions reach the free space map; then, in
# copies with the B-tree of before and BRIN of 32, 8 (today's) and one
# page a range, a 10k batch for the next date: its publication
# step, the pages its versions landed in, the buffers a lookup of it reads,
# and its revert, REPS times each (default 3).  The over-history file is
# the benchmark's cached one (scripts/bench.sh makes it).  A measurement,
# not a test.
set -euo pipefail
export PGOPTIONS="${PGOPTIONS:-} -c client_min_messages=warning"
reps=${1:-3}
here=$(cd "$(dirname "$0")" && pwd)
loader=${INVOICE_LOADER:-$here/../../build/loader/invoice-loader}
data=${BENCH_DATA_DIR:-/var/tmp/invoice-loader-bench}
big=$data/over-history/h5000000-n1000000/acme-erp_2026-11-28.csv
[[ -f $big ]] || { echo "no $big: run scripts/bench.sh first" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
small=$("$here/../../scripts/gen-invoices.sh" "$work" 2026-11-29 10000)
q() { psql -X -q -At "$@"; }
load() { # db file date
  "$loader" -q --dsn "dbname=$1 user=invoice_loader" load --source acme-erp \
    --business-date "$3" --input "$2" --manifest "$2.manifest.json" \
    --spool-dir "$work/spool" >/dev/null
}
dates=500
q -d postgres -c "drop database if exists proto_scatter" -c "create database proto_scatter"
"$loader" -q --dsn "dbname=proto_scatter" migrate >/dev/null
"$loader" -q --dsn "dbname=proto_scatter user=invoice_operator" source add acme-erp \
  --start-date "$(date -d "2026-11-28 - $dates days" +%F)" >/dev/null
q -d proto_scatter -v source=acme-erp -v batch_date=2026-11-28 -v dates="$dates" \
  -v keys_per_date=8000 -f "$here/../publish/history.sql" >/dev/null
load proto_scatter "$big" 2026-11-28
q -d proto_scatter -c "vacuum (index_cleanup on) core.invoice_version"
for v in btree brin32 brin8 brin1; do
  case $v in
    btree)  idx="create index invoice_version_batch on core.invoice_version (batch_id)";;
    brin32) idx="create index invoice_version_batch on core.invoice_version using brin (batch_id) with (pages_per_range = 32)";;
    brin8)  idx="create index invoice_version_batch on core.invoice_version using brin (batch_id) with (pages_per_range = 8)";;
    brin1)  idx="create index invoice_version_batch on core.invoice_version using brin (batch_id) with (pages_per_range = 1)";;
  esac
  q -d postgres -c "drop database if exists proto_scatter_$v" \
    -c "create database proto_scatter_$v template proto_scatter strategy file_copy"
  q -d "proto_scatter_$v" -c "drop index core.invoice_version_batch" -c "$idx" \
    -c "vacuum (index_cleanup on, analyze) core.invoice_version"
done
echo "index rep publication_ms pages_of_batch lookup_buffers revert_ms"
for ((r = 1; r <= reps; r++)); do
  for v in btree brin32 brin8 brin1; do
    q -d postgres -c "drop database if exists proto_scatter_run" \
      -c "create database proto_scatter_run template proto_scatter_$v strategy file_copy" -c checkpoint
    load proto_scatter_run "$small" 2026-11-29
    b=$(q -d proto_scatter_run -c "select max(batch_id) from ingest.batch")
    pub=$(q -d proto_scatter_run -v sha256= -f "$here/../report/step_times.sql" | cut -d'|' -f5)
    pages=$(q -d proto_scatter_run -c "select count(distinct (ctid::text::point)[0]) from core.invoice_version where batch_id = $b")
    bufs=$(q -d proto_scatter_run -c "set enable_seqscan = off" \
      -c "explain (analyze, buffers, timing off, costs off) select count(*) from core.invoice_version where batch_id = $b" \
      | grep -m1 Buffers | sed 's/.*hit=\([0-9]*\).*/\1/')
    t0=$(date +%s%N)
    q -d proto_scatter_run -U invoice_operator -c "select 1 from ingest.revert_batch($b, 'scatter measurement')" >/dev/null
    t1=$(date +%s%N)
    echo "$v $r $pub $pages $bufs $(( (t1 - t0) / 1000000 ))"
  done
done
for v in run btree brin32 brin8 brin1; do q -d postgres -c "drop database proto_scatter_$v"; done
q -d postgres -c "drop database proto_scatter"
