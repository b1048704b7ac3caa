#!/usr/bin/env bash
# The reference checks of core.invoice_version (sql/core/check_invoice_version_refs.sql)
# hold under concurrency, as the foreign keys they replace did.  After the
# sample batch is published, two superuser psql sessions, A and B:
#   1. A inserts (transaction left open) a version of a new invoice in XPF,
#      naming the published batch: the check takes FOR KEY SHARE on XPF, so
#      B's DELETE of XPF waits for A (lock_timeout 1s: 55P03); A commits;
#      B's DELETE now raises 23503 and XPF stays.
#   2. The same with B's DELETE (of XAF) already waiting when A commits
#      (B blocked by A's backend, pg_blocking_pids): it wakes up, sees A's
#      version and raises 23503.
#   3. The reverse order: B deletes the unused XOF in an open transaction;
#      A's insert of a version naming XOF waits for B (lock_timeout 1s:
#      55P03); B commits; A's insert then raises 23503 and stores nothing.
#   4. The same with A's insert (naming VUV) already waiting when B commits:
#      23503; and (JPY) when B rolls back instead, the insert is accepted.
#   5. A key change (the row trigger of migration 0025): A's open insert
#      names XCD; B's update of XCD's minor unit does not wait (no key
#      change: FOR NO KEY UPDATE), B's rename of XCD waits for A, and once
#      A commits it sees A's version and raises 23503; XCD keeps its code.
# The extra versions are not the loader's: they break I1's "versions per
# batch equal its merge counts" by construction.  So the references are
# checked directly first (every version names an existing source, currency
# and batch), then the extra versions are removed and check_invariants
# runs over what the loader published.
source "$(dirname "$0")/lib.sh"

register_source acme-erp --start-date 2026-11-28
csv=$(sample "$WORK/in")
load --source acme-erp --business-date 2026-11-28 --input "$csv"
expect_rc 0
batch=$(q "select batch_id from ingest.batch where state = 'published'")
[[ $batch =~ ^[0-9]+$ ]] || fail "the published batch: [$batch]"
expect_eq "currencies used by the sample" "EUR" \
  "$(q "select string_agg(distinct currency, ' ') from core.invoice_version")"

# Sessions: a superuser psql per name, reading statements from a fifo and
# answering into another.  ON_ERROR_STOP is off: errors are expected.
#   send NAME SQL...   send statements and an end marker carrying :SQLSTATE
#   reply NAME         read up to the marker: SAID (the lines before it),
#                      STATE (the SQLSTATE of the last statement, 00000 ok)
#   ask NAME SQL...    send, then reply
declare -A sin sout spid
open_session() {
  local name=$1
  mkfifo "$WORK/$name.in" "$WORK/$name.out"
  # (without the other sessions' ends of their fifos: a psql holding
  # another's input open would keep that one from ever reading EOF)
  (
    for fd in "${sin[@]}" "${sout[@]}"; do exec {fd}>&-; done
    exec psql -X -qAt -v VERBOSITY=verbose -d "$E2E_DB"
  ) <"$WORK/$name.in" >"$WORK/$name.out" 2>&1 &
  spid[$name]=$!
  local fd
  exec {fd}>"$WORK/$name.in"
  sin[$name]=$fd
  exec {fd}<"$WORK/$name.out"
  sout[$name]=$fd
}
send() {
  local name=$1; shift
  printf '%s\n' "$@" '\echo __end__ :SQLSTATE' >&"${sin[$name]}"
}
reply() {
  local name=$1 line
  SAID='' STATE=''
  # -t 60 is only a hang guard: every statement here ends within seconds.
  while IFS= read -r -t 60 line <&"${sout[$name]}"; do
    if [[ $line == "__end__ "* ]]; then
      STATE=${line#__end__ }
      return 0
    fi
    SAID+=$line$'\n'
  done
  fail "session $name: no answer (psql ended or hung); so far: [$SAID]"
}
ask() { send "$@"; reply "$1"; }
close_session() {
  local name=$1 fd
  fd=${sin[$name]}
  exec {fd}>&-
  wait "${spid[$name]}" || fail "session $name: psql failed"
  fd=${sout[$name]}
  exec {fd}<&-
}

# insert_version INVOICE CURRENCY: one current ISSUED version of a new
# invoice of acme-erp, published by the sample batch.
insert_version() {
  printf '%s' "insert into core.invoice_version (source, invoice_number, revision, status,
    document_type, customer_id, invoice_date, currency, net_amount, tax_amount, gross_amount,
    content_hash, batch_id, record_no, is_current, published_at)
  values ('acme-erp', '$1', 0, 'ISSUED', 'INVOICE', 'CUST-1', date '2026-11-20', '$2',
          100, 20, 120, '\x01', $batch, 21, true, now());"
}
currency_exists() { q "select count(*) from ingest.currency where code = '$1'"; }
versions_in() { q "select count(*) from core.invoice_version where currency = '$1'"; }

# wait_blocked WAITER BLOCKER: until WAITER's backend waits for BLOCKER's
# (bounded: 30 s).
wait_blocked() {
  local i
  for ((i = 0; i < 300; i++)); do
    [[ $(q "select pg_blocking_pids(${pid[$1]})::text") == "{${pid[$2]}}" ]] && return 0
    sleep 0.1
  done
  fail "session $1 never waited for session $2: $(q "select state || ' ' || coalesce(wait_event_type, '-')
        from pg_stat_activity where pid = ${pid[$1]}")"
}

open_session A
open_session B
declare -A pid
for s in A B; do
  ask $s 'select pg_backend_pid();'
  pid[$s]=${SAID%$'\n'}
  [[ ${pid[$s]} =~ ^[0-9]+$ ]] || fail "session $s backend pid: [${pid[$s]}] ($STATE)"
done

# 1. A's open insert holds XPF; B's delete waits for it, then is refused.
ask A 'begin;' "$(insert_version INV-E2E-XPF XPF)"
expect_eq "A: insert in XPF" 00000 "$STATE"
ask B "set lock_timeout = '1s';" "delete from ingest.currency where code = 'XPF';"
expect_eq "B: delete of XPF while A's insert is open (waits: lock timeout)" 55P03 "$STATE"
expect_eq "XPF while A is open" 1 "$(currency_exists XPF)"
ask A 'commit;'
expect_eq "A: commit" 00000 "$STATE"
ask B "delete from ingest.currency where code = 'XPF';"
expect_eq "B: delete of XPF after A committed" 23503 "$STATE"
[[ $SAID == *"currency 'XPF'"* ]] || fail "B's error does not name currency 'XPF': [$SAID]"
expect_eq "XPF after the refused delete" 1 "$(currency_exists XPF)"
expect_eq "versions in XPF" 1 "$(versions_in XPF)"

# 2. B's delete already waiting when A commits: it sees A's version.
ask A 'begin;' "$(insert_version INV-E2E-XAF XAF)"
expect_eq "A: insert in XAF" 00000 "$STATE"
send B "set lock_timeout = '60s';" "delete from ingest.currency where code = 'XAF';"
wait_blocked B A
ask A 'commit;'
expect_eq "A: commit" 00000 "$STATE"
reply B
expect_eq "B: delete of XAF that waited for A's commit" 23503 "$STATE"
[[ $SAID == *"currency 'XAF'"* ]] || fail "B's error does not name currency 'XAF': [$SAID]"
expect_eq "XAF after the refused delete" 1 "$(currency_exists XAF)"
expect_eq "versions in XAF" 1 "$(versions_in XAF)"

# 3. The reverse order: B's open delete of XOF; A's insert waits, then is refused.
expect_eq "versions in XOF before" 0 "$(versions_in XOF)"
ask B 'begin;' "delete from ingest.currency where code = 'XOF';"
expect_eq "B: delete of the unused XOF" 00000 "$STATE"
ask A "set lock_timeout = '1s';" "$(insert_version INV-E2E-XOF XOF)"
expect_eq "A: insert in XOF while B's delete is open (waits: lock timeout)" 55P03 "$STATE"
ask B 'commit;'
expect_eq "B: commit" 00000 "$STATE"
ask A "$(insert_version INV-E2E-XOF XOF)"
expect_eq "A: insert in XOF after B committed" 23503 "$STATE"
[[ $SAID == *"currency 'XOF'"* ]] || fail "A's error does not name currency 'XOF': [$SAID]"
expect_eq "XOF after B's commit" 0 "$(currency_exists XOF)"
expect_eq "versions in XOF" 0 "$(versions_in XOF)"

# 4. A's insert already waiting when B commits (VUV) or rolls back (JPY).
ask B 'begin;' "delete from ingest.currency where code = 'VUV';"
expect_eq "B: delete of the unused VUV" 00000 "$STATE"
send A "set lock_timeout = '60s';" "$(insert_version INV-E2E-VUV VUV)"
wait_blocked A B
ask B 'commit;'
expect_eq "B: commit" 00000 "$STATE"
reply A
expect_eq "A: insert in VUV that waited for B's commit" 23503 "$STATE"
[[ $SAID == *"currency 'VUV'"* ]] || fail "A's error does not name currency 'VUV': [$SAID]"
expect_eq "VUV after B's commit" 0 "$(currency_exists VUV)"
expect_eq "versions in VUV" 0 "$(versions_in VUV)"

ask B 'begin;' "delete from ingest.currency where code = 'JPY';"
expect_eq "B: delete of the unused JPY" 00000 "$STATE"
send A "$(insert_version INV-E2E-JPY JPY)"
wait_blocked A B
ask B 'rollback;'
expect_eq "B: rollback" 00000 "$STATE"
reply A
expect_eq "A: insert in JPY that waited for B's rollback" 00000 "$STATE"
expect_eq "JPY after B's rollback" 1 "$(currency_exists JPY)"
expect_eq "versions in JPY" 1 "$(versions_in JPY)"

# 5. A rename waits for the open insert and then sees its version.
ask A 'begin;' "$(insert_version INV-E2E-XCD XCD)"
expect_eq "A: insert in XCD" 00000 "$STATE"
ask B "set lock_timeout = '1s';" "update ingest.currency set minor_unit = 2 where code = 'XCD';"
expect_eq "B: an update of XCD that keeps its code does not wait for A" 00000 "$STATE"
send B "set lock_timeout = '60s';" "update ingest.currency set code = 'XCX' where code = 'XCD';"
wait_blocked B A
ask A 'commit;'
expect_eq "A: commit" 00000 "$STATE"
reply B
expect_eq "B: rename of XCD that waited for A's commit" 23503 "$STATE"
[[ $SAID == *"currency 'XCD'"* ]] || fail "B's error does not name currency 'XCD': [$SAID]"
expect_eq "XCD after the refused rename" 1 "$(currency_exists XCD)"
expect_eq "XCX after the refused rename" 0 "$(currency_exists XCX)"
expect_eq "versions in XCD" 1 "$(versions_in XCD)"

close_session A
close_session B

# Every version names an existing source, currency and batch(es).
expect_eq "versions (the sample's 20 and XPF, XAF, JPY, XCD)" 24 "$(q 'select count(*) from core.invoice_version')"
expect_eq "versions naming a missing source, currency or batch" 0 \
  "$(q "select count(*) from core.invoice_version as v
        where not exists (select from ingest.source as s where s.source = v.source)
           or not exists (select from ingest.currency as c where c.code = v.currency)
           or not exists (select from ingest.batch as b where b.batch_id = v.batch_id)
           or (v.superseded_by_batch_id is not null
               and not exists (select from ingest.batch as b where b.batch_id = v.superseded_by_batch_id))")"
expect_eq "reporting.invoice with the extra versions" "24 invoices, 4680.00 gross" "$(published_state)"

# Without the extra versions, what the loader published satisfies the
# invariants, and nothing of it was touched.
q "delete from core.invoice_version where invoice_number like 'INV-E2E-%'" >/dev/null
expect_eq "published" "20 invoices, 4200.00 gross" "$(published_state)"
expect_eq "states" "published" "$(q "select string_agg(state, ' ') from ingest.batch_overview")"
expect_eq "watermark" "2026-11-28" "$(watermark_of acme-erp)"
check_invariants
