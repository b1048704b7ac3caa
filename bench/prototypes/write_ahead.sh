#!/usr/bin/env bash
# bench/prototypes/write_ahead.sh [FILE]: issue 15 item 4, model e
# (bench/prototypes/write_ahead.sql says what it is).  Builds the
# benchmark's 5M-version history (bench/harness/history.py) in a scratch
# database of the cluster PG* points at (start one with
# scripts/with-tmp-pg.sh), publishes FILE over it with the loader (default:
# the benchmark's cached 1M over-history file, which `scripts/bench.sh`
# writes and which matches that history), then runs write_ahead.sql on the
# published batch.  About 2 minutes.  A measurement, not a test.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
loader=${INVOICE_LOADER:-$here/../../build/loader/invoice-loader}
file=${1:-/var/tmp/invoice-loader-bench/over-history/h5000000-n1000000/acme-erp_2026-11-28.csv}
db=proto_write_ahead
[[ -f $file && -f $file.manifest.json ]] || {
  echo "write_ahead.sh: no $file (and .manifest.json); scripts/bench.sh writes it" >&2; exit 2; }
(cd "$here/.." && python3 -c "import sys; from harness import history; history.build(sys.argv[1], sys.argv[2], 5000000)" "$loader" "$db")
"$loader" -q --dsn "dbname=$db user=invoice_loader" load --source acme-erp \
  --business-date 2026-11-28 --input "$file" --manifest "$file.manifest.json" >/dev/null
batch=$(psql -X -qAt -d "$db" -c "select max(batch_id) from ingest.batch where state = 'published'")
psql -X -q -d "$db" -c "vacuum analyze core.invoice_version"
psql -X -q -d "$db" -v batch_id="$batch" -P pager=off -f "$here/write_ahead.sql"
psql -X -q -d postgres -c "drop database $db"
