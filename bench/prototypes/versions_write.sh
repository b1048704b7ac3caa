#!/usr/bin/env bash
# bench/prototypes/versions_write.sh [RECORDS [REPS]]: three ways to write
# a batch's versions into core.invoice_version (all of its structure:
# indexes, CHECKs, triggers):
#   insert  one INSERT ... SELECT, as ingest.write_batch writes them;
#   copy    COPY FROM STDIN (binary) of the same rows, which PostgreSQL
#           writes with multi-row heap inserts (one WAL record per page)
#           and a bulk-insert buffer ring;
#   halves  two sessions at once, each an INSERT ... SELECT of half of the
#           rows, split at the median invoice number (the two cores).
# Loads a RECORDS-record file (scripts/gen-invoices.sh, default 1,000,000)
# into a scratch database of the cluster PG* points at (start one with
# scripts/with-tmp-pg.sh), keeps its versions in a plain table and in a
# binary file, empties the versions, then writes them REPS times each way
# (default 6), in turn, each into a fresh copy of that database after a
# CHECKPOINT; prints the wall time (psql, commits included) and the WAL of
# each.  A measurement, not a test.
set -euo pipefail
records=${1:-1000000}
reps=${2:-6}
here=$(cd "$(dirname "$0")" && pwd)
loader=${INVOICE_LOADER:-$here/../../build/loader/invoice-loader}
db=proto_versions_write
export PGOPTIONS="${PGOPTIONS:-} -c client_min_messages=warning"
work=$(mktemp -d)
chmod 755 "$work"  # the server reads nothing here; psql's \copy does
trap 'rm -rf "$work"' EXIT

csv=$("$here/../../scripts/gen-invoices.sh" "$work" 2026-11-28 "$records")
psql -X -q -d postgres -c "drop database if exists $db" -c "create database $db"
"$loader" -q --dsn "dbname=$db" migrate >/dev/null
"$loader" -q --dsn "dbname=$db user=invoice_operator" source add acme-erp \
  --start-date 2026-11-28 >/dev/null
"$loader" -q --dsn "dbname=$db user=invoice_loader" load --source acme-erp \
  --business-date 2026-11-28 --input "$csv" >/dev/null
psql -X -q -d "$db" -v ON_ERROR_STOP=1 <<SQL
create table public.versions as select * from core.invoice_version;
\copy public.versions to '$work/versions.bin' (format binary)
-- the guard of history and the other user triggers stand in the way of
-- emptying the table, not of what is measured
alter table core.invoice_version disable trigger user;
truncate core.invoice_version;
alter table core.invoice_version enable trigger user;
vacuum analyze public.versions;
create table public.split as
  select percentile_disc(0.5) within group (order by invoice_number) as at
  from public.versions;
vacuum analyze core.invoice_version;
SQL
psql -X -q -d postgres -c "alter database $db is_template true"

printf '%-4s %-7s %9s %9s\n' rep how seconds "WAL MB"
for ((i = 1; i <= reps; i++)); do
  for how in insert copy halves; do
    run=${db}_run
    psql -X -q -d postgres -c "drop database if exists $run" \
      -c "create database $run template $db"
    psql -X -q -d "$run" -c checkpoint
    lsn=$(psql -X -qAt -d "$run" -c "select pg_current_wal_lsn()")
    all="insert into core.invoice_version select * from public.versions"
    start=$(date +%s.%N)
    case $how in
      insert) psql -X -q -d "$run" -v ON_ERROR_STOP=1 -c "$all" >/dev/null ;;
      copy)
        psql -X -q -d "$run" -v ON_ERROR_STOP=1 \
          -c "\\copy core.invoice_version from '$work/versions.bin' (format binary)" >/dev/null ;;
      halves)
        psql -X -q -d "$run" -v ON_ERROR_STOP=1 \
          -c "$all where invoice_number < (select at from public.split)" >/dev/null &
        low=$!
        psql -X -q -d "$run" -v ON_ERROR_STOP=1 \
          -c "$all where invoice_number >= (select at from public.split)" >/dev/null
        wait "$low" ;;
    esac
    end=$(date +%s.%N)
    wal=$(psql -X -qAt -d "$run" -c "select round((pg_current_wal_lsn() - '$lsn'::pg_lsn) / 1048576)")
    [[ $(psql -X -qAt -d "$run" -c "select count(*) from core.invoice_version") == "$records" ]] ||
      { echo "versions_write: $how did not write $records versions" >&2; exit 1; }
    printf '%-4s %-7s %9s %9s\n' "$i" "$how" \
      "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')" "$wal"
  done
done
psql -X -q -d postgres -c "drop database ${db}_run" \
  -c "alter database $db is_template false" -c "drop database $db"
