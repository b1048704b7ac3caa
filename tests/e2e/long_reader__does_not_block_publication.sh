#!/usr/bin/env bash
# A long reader does not block publication: a consumer (invoice_reader)
# opens a REPEATABLE READ transaction, reads reporting.invoice and
# reporting.invoice_version, and keeps the transaction open.  Meanwhile the
# loader publishes the next day, which amends 200 of the invoices the reader
# has seen; it finishes (exit 0) while the reader's transaction is still
# open (same backend, same transaction start, idle in transaction).  The
# reader, still in its snapshot, sees none of the new batch; after it
# commits, a new read sees all of it.
source "$(dirname "$0")/lib.sh"

gen() { "$REPO/scripts/gen-invoices.sh" "$@"; }
total_of() { sed -n 's/.*"control_total":"\([^"]*\)".*/\1/p' "$1.manifest.json"; }

register_source acme-erp --start-date 2026-11-28

# Day 1: 1,000 new invoices.  Day 2: revision 1 of the first 200 of them.
day1=$(gen "$WORK/in" 2026-11-28 1000)
day2=$(gen --prefix INV-20261128- --revision 1 "$WORK/in" 2026-11-29 200)
# The first 200 records of day 1 are the 200-record file (gen-invoices.sh).
first200=$(gen "$WORK/first200" 2026-11-28 200)
before_sum=$(total_of "$day1")
after_sum=$(q "select $before_sum - $(total_of "$first200") + $(total_of "$day2")")

load --source acme-erp --business-date 2026-11-28 --input "$day1"
expect_rc 0

# The reader: one psql session in a coprocess.  ask SQL...: send statements
# (each ending in ;) and an end marker, print what the reader answered.
coproc READER { exec psql -X -qAt -v ON_ERROR_STOP=1 -U invoice_reader -d "$E2E_DB" 2>&1; }
# shellcheck disable=SC2153  # READER_PID is set by coproc
reader_in=${READER[1]} reader_out=${READER[0]} reader_proc=$READER_PID
ask() {
  local line
  printf '%s\n' "$@" '\echo __end__' >&"$reader_in"
  while IFS= read -r line <&"$reader_out"; do
    [[ $line == __end__ ]] && return 0
    printf '%s\n' "$line"
  done
  fail "the reader's psql ended"
}
readonly read_invoices='select count(*) || '"'|'"' || coalesce(sum(gross_amount), 0) from reporting.invoice;'
readonly read_versions='select count(*) || '"'|'"' || count(*) filter (where superseded_by_batch_id is not null) from reporting.invoice_version;'

reader_pid=$(ask 'select pg_backend_pid();')
[[ $reader_pid =~ ^[0-9]+$ ]] || fail "reader backend pid: [$reader_pid]"
ask 'begin isolation level repeatable read;' >/dev/null
expect_eq "reader: invoices before" "1000|$before_sum" "$(ask "$read_invoices")"
expect_eq "reader: versions before (all|superseded)" "1000|0" "$(ask "$read_versions")"
reader_tx() {
  q "select state || ' ' || xact_start from pg_stat_activity where pid = $reader_pid"
}
tx_before=$(reader_tx)
[[ $tx_before == "idle in transaction "* ]] || fail "reader before the load: [$tx_before]"

# timeout 300 is only a hang guard: a publication that waited for the
# reader would otherwise never end.  It asserts nothing about speed.
set +e
timeout 300 "$INVOICE_LOADER" --dsn "dbname=$E2E_DB user=invoice_loader" \
  load --source acme-erp --business-date 2026-11-29 --input "$day2" >"$WORK/out" 2>"$WORK/err"
RC=$?
set -e
[[ $RC != 124 ]] || fail "the publication was still running after 300 s: blocked by the reader?"
expect_rc 0
expect_output_has "200 amended"

# The reader's transaction is the same one, still open, after the publication.
expect_eq "reader's transaction after the load" "$tx_before" "$(reader_tx)"
expect_eq "batch 2 committed (seen by others)" "published" \
  "$(q "select state from ingest.batch_overview where business_date = '2026-11-29'")"

# Inside its snapshot the reader sees none of batch 2.
expect_eq "reader: invoices in its snapshot" "1000|$before_sum" "$(ask "$read_invoices")"
expect_eq "reader: versions in its snapshot" "1000|0" "$(ask "$read_versions")"
expect_eq "reader: revisions in its snapshot" "0" \
  "$(ask 'select max(revision) from reporting.invoice;')"

ask 'commit;' >/dev/null
expect_eq "reader: invoices after commit" "1000|$after_sum" "$(ask "$read_invoices")"
expect_eq "reader: versions after commit" "1200|200" "$(ask "$read_versions")"
expect_eq "reader: amended invoices after commit" "200" \
  "$(ask 'select count(*) from reporting.invoice where revision = 1;')"
exec {reader_in}>&-
wait "$reader_proc" || fail "the reader's psql failed"

# The database after.
expect_eq "published" "1000 invoices, $after_sum gross" "$(published_state)"
expect_eq "states" "published published" \
  "$(q "select string_agg(state, ' ' order by business_date) from ingest.batch_overview")"
expect_eq "watermark" "2026-11-29" "$(watermark_of acme-erp)"
expect_eq "publish notifications" 2 "$(notifications batch_published)"
expect_eq "superseded by batch 2" 200 \
  "$(q "select count(*) from reporting.invoice_version as v join ingest.batch_overview as b
        on b.batch_id = v.superseded_by_batch_id where b.business_date = '2026-11-29'")"
