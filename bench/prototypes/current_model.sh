#!/usr/bin/env bash
# bench/prototypes/current_model.sh [KEYS [BATCH]]: runs
# bench/prototypes/current_model.sql (issue 15 item 3: four ways of
# keeping "current", writes and reads, in stand-alone tables) in a scratch
# database of the cluster PG* points at; start one with
# scripts/with-tmp-pg.sh.  Defaults: 4,000,000 keys (5M versions) and a
# 1,000,000-record batch; `current_model.sh 40000 10000` takes seconds.
# A measurement, not a test: figures go to docs/PERFORMANCE.md.
set -euo pipefail
keys=${1:-4000000}
batch=${2:-1000000}
here=$(cd "$(dirname "$0")" && pwd)
db=proto_current_model
psql -X -q -d postgres -c "drop database if exists $db" -c "create database $db"
psql -X -q -d "$db" -v keys="$keys" -v batch="$batch" -P pager=off -f "$here/current_model.sql"
psql -X -q -d postgres -c "drop database $db"
