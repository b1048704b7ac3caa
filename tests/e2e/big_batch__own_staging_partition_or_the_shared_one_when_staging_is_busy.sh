#!/usr/bin/env bash
# A batch of 100,000 records or more is typed into a partition of its own
# (staging.invoice_valid_b<batch>, migrations/0028, ingest.typed_staging),
# which its publication drops; nothing ever waits for that partition:
#  A. staging idle: the loader COPYs into the batch's own partition (seen
#     while validation is held), and the publication drops it;
#  B. another session reading the shared partition while the batch starts
#     staging: the ATTACH would wait for it, gives up after lock_timeout,
#     and the batch is typed into the shared partition instead, and
#     publishes all the same;
#  C. another session reading the shared partition while the batch
#     publishes: the drop would wait for it, so the partition is emptied
#     and left, and the next sweep (staging idle again) drops it.
# Each day publishes exactly once with its own invoices and total.
source "$(dirname "$0")/lib.sh"

gen() { "$REPO/scripts/gen-invoices.sh" "$@"; }
total_of() { sed -n 's/.*"control_total":"\([^"]*\)".*/\1/p' "$1.manifest.json"; }
su_psql=(psql -X -d "$E2E_DB")

# reader_start / reader_stop: a session that holds an ACCESS SHARE lock on
# the shared typed partition, as a transaction that read it would.
reader_start() { hold_lock reader staging.invoice_valid_shared 'access share' "${su_psql[@]}"; }
reader_stop() { release_lock reader; }
# sweep: CALL ingest.sweep() as the loader (pg_cron's job does the same).
sweep() { psql -X -q -v ON_ERROR_STOP=1 -U invoice_loader -d "$E2E_DB" -c 'call ingest.sweep()'; }
trap 'release_validation; reader_stop; rm -rf "$WORK"' EXIT

# load_held DATE FILE: the load in the background, held at validation;
# BATCH is its batch once it waits there.
load_held() {
  hold_validation "${su_psql[@]}"
  "$INVOICE_LOADER" --dsn "dbname=$E2E_DB user=invoice_loader" \
    load --source acme-erp --business-date "$1" --input "$2" >"$WORK/out" 2>"$WORK/err" &
  LOAD_PID=$!
  wait_for 120 "the load of $1 to wait in validation" \
    bash -c "[[ \$(psql -X -qAt -d '$E2E_DB' -c \"select count(*) from pg_locks
               where relation = 'staging.key_version'::regclass and not granted\") -ge 1 ]]"
  BATCH=$(q "select batch_id from ingest.batch where business_date = '$1'")
}
load_finish() {
  set +e; wait "$LOAD_PID"; RC=$?; set -e
  expect_rc 0
}
partitions() {
  q "select coalesce(string_agg(c.relname, ' ' order by c.relname), 'none')
     from pg_inherits as i join pg_class as c on c.oid = i.inhrelid
     where i.inhparent = 'staging.invoice_valid'::regclass
       and c.relname <> 'invoice_valid_shared'"
}
typed_rows() {  # in the batch's own partition | in the shared one
  local own=0
  [[ $(partitions) == *"invoice_valid_b$1"* ]] && own=$(q "select count(*) from staging.invoice_valid_b$1")
  echo "$own|$(q "select count(*) from staging.invoice_valid_shared where batch_id = $1")"
}

register_source acme-erp --start-date 2026-11-28
day_a=$(gen "$WORK/in" 2026-11-28 100000)
day_b=$(gen "$WORK/in" 2026-11-29 100000)
day_c=$(gen "$WORK/in" 2026-11-30 100000)

# A. staging idle
load_held 2026-11-28 "$day_a"
expect_eq "A: its own partition" "invoice_valid_b$BATCH" "$(partitions)"
expect_eq "A: typed rows (own|shared)" "100000|0" "$(typed_rows "$BATCH")"
release_validation
load_finish
expect_eq "A: the publication dropped the partition" none "$(partitions)"
expect_eq "A: published" "100000|$(total_of "$day_a")" \
  "$(q "select count(*) || '|' || sum(gross_amount) from reporting.invoice")"

# B. the shared partition read while the batch starts staging
reader_start
load_held 2026-11-29 "$day_b"
expect_eq "B: no partition (the attach gave up)" none "$(partitions)"
expect_eq "B: typed rows (own|shared)" "0|100000" "$(typed_rows "$BATCH")"
release_validation
load_finish
reader_stop
expect_eq "B: nothing of it left in staging" "0|0" "$(typed_rows "$BATCH")"

# C. the shared partition read while the batch publishes
load_held 2026-11-30 "$day_c"
expect_eq "C: its own partition" "invoice_valid_b$BATCH" "$(partitions)"
reader_start
release_validation
load_finish
expect_eq "C: the partition is left, emptied" "invoice_valid_b$BATCH" "$(partitions)"
expect_eq "C: typed rows (own|shared)" "0|0" "$(typed_rows "$BATCH")"
sweep
expect_eq "C: a sweep while staging is read leaves it" "invoice_valid_b$BATCH" "$(partitions)"
reader_stop
sweep
expect_eq "C: the next sweep drops it" none "$(partitions)"

# The database after: three publications, each once.
expect_eq "states" "published published published" \
  "$(q "select string_agg(state, ' ' order by business_date) from ingest.batch_overview")"
expect_eq "published" \
  "300000|$(q "select $(total_of "$day_a") + $(total_of "$day_b") + $(total_of "$day_c")")" \
  "$(q "select count(*) || '|' || sum(gross_amount) from reporting.invoice")"
expect_eq "versions" 300000 "$(q "select count(*) from core.invoice_version")"
expect_eq "watermark" "2026-11-30" "$(watermark_of acme-erp)"
expect_eq "publish notifications" 3 "$(notifications batch_published)"
expect_eq "typed staging empty" 0 "$(q "select count(*) from staging.invoice_valid")"
