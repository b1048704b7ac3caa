#!/usr/bin/env bash
# bench/prototypes/key_history_read.sh [VERSIONS [BATCH [REPS]]]: builds
# VERSIONS versions of history (bench/publish/history.sql, default
# 5,000,000) in a scratch database of the cluster PG* points at (start one
# with scripts/with-tmp-pg.sh), then runs bench/prototypes/
# key_history_read.sql: the history read of a BATCH-record batch (default
# 1,000,000, 9% of its keys with history) before and after issue 15 item 5,
# REPS times each (default 3).  A measurement, not a test.
set -euo pipefail
versions=${1:-5000000}
batch=${2:-1000000}
reps=${3:-3}
here=$(cd "$(dirname "$0")" && pwd)
loader=${INVOICE_LOADER:-$here/../../build/loader/invoice-loader}
db=proto_key_history
dates=500
(( versions < 5000 )) && dates=$(( (versions + 9) / 10 ))
psql -X -q -d postgres -c "drop database if exists $db" -c "create database $db"
"$loader" -q --dsn "dbname=$db" migrate >/dev/null
"$loader" -q --dsn "dbname=$db user=invoice_operator" source add acme-erp \
  --start-date "$(date -d "2026-11-28 - $dates days" +%F)" >/dev/null
psql -X -q -d "$db" -v source=acme-erp -v batch_date=2026-11-28 -v dates="$dates" \
  -v keys_per_date=$(( (versions * 4 / 5 + dates - 1) / dates )) \
  -f "$here/../publish/history.sql" >/dev/null
psql -X -q -d "$db" -v source=acme-erp -v n="$batch" -v reps="$reps" -P pager=off \
  -f "$here/key_history_read.sql"
psql -X -q -d postgres -c "drop database $db"
