#!/usr/bin/env bash
# No run hangs on a peer that stops answering.  Through
# tests/tools/fault_proxy, the network between the loader and the server
# goes silent while the loader waits for the reply to write_batch (the
# publication step's first transaction, which writes the versions):
#   stall      nothing is read or written, new connections hang too;
#   blackhole  everything is swallowed, new connections get no answer.
# TCP keepalives cannot see this (the proxy's kernel answers them), so the
# loader's own bound decides: no reply for statement_timeout (5 s, set for
# the loader's role here) + 5 s, then the connection is dropped and the
# step retried; new connections give up after connect_timeout (10 s by
# default).  On the server, idle_in_transaction_session_timeout ends the
# stranded session so that its runner lock is released (docs/guide/operate.md).
# When the network is back the batch publishes exactly once.
source "$(dirname "$0")/lib.sh"
start_fault_proxy
lock_holder=
trap 'kill $PROXY_PID 2>/dev/null; [[ -n $lock_holder ]] && kill $lock_holder 2>/dev/null; rm -rf "$WORK"' EXIT

q "alter role invoice_loader in database $E2E_DB set statement_timeout = '5s'" >/dev/null
q "alter role invoice_loader in database $E2E_DB set idle_in_transaction_session_timeout = '2s'" >/dev/null
dsn="host=127.0.0.1 port=$PROXY_PORT dbname=$E2E_DB user=invoice_loader"

for mode in stall blackhole; do
  src=net-$mode
  register_source "$src" --start-date 2026-11-28
  d1=$(sample_for "$src" "$WORK/$mode-1" 2026-11-28)
  d2=$(sample_for "$src" "$WORK/$mode-2" 2026-11-29)
  set_proxy_mode pass
  set +e
  "$INVOICE_LOADER" --dsn "$dsn" load --source "$src" --business-date 2026-11-28 --input "$d1" \
    >"$WORK/out" 2>"$WORK/err"
  RC=$?
  set -e
  expect_rc 0

  # Hold the watermark row, so that the publication of day 2 waits inside
  # write_batch (the write of its versions, the publication step's first
  # transaction) for as long as this transaction lasts.
  mkfifo "$WORK/hold-$mode"
  psql -X -q -d "$E2E_DB" <"$WORK/hold-$mode" >/dev/null &
  lock_holder=$!
  exec 9>"$WORK/hold-$mode"
  echo "begin; select * from ingest.source_watermark where source = '$src' for update;" >&9

  "$INVOICE_LOADER" --dsn "$dsn" load --source "$src" --business-date 2026-11-29 --input "$d2" \
    >"$WORK/out" 2>"$WORK/err" 9>&- &
  loader=$!
  waiting() {
    [[ $(q "select count(*) from pg_stat_activity
            where application_name = 'invoice-loader' and wait_event_type = 'Lock'
              and query ilike '%write_batch%'") -gt 0 ]]
  }
  wait_for 60 "$mode: the loader waiting inside write_batch" waiting
  # The network goes silent, then write_batch can finish: its reply is
  # what never arrives.
  set_proxy_mode "$mode"
  sleep 0.3  # the proxy re-reads its control file at least every 50 ms
  echo "commit;" >&9
  exec 9>&-
  wait $lock_holder || true
  lock_holder=

  # The loader notices (the bound: 5 s + 5 s), drops the session and
  # retries; its reconnection under the same fault times out (10 s).
  noticed() { grep -q "step failed; retrying" "$WORK/err"; }
  wait_for 60 "$mode: the loader noticing the silent connection" noticed
  reconnect_timed_out() { grep -q "no answer within connect_timeout" "$WORK/err"; }
  wait_for 60 "$mode: a reconnection under $mode timing out" reconnect_timed_out
  set_proxy_mode pass
  RC=0
  wait $loader || RC=$?
  expect_rc 0
  grep -q "fault $mode\|mode $mode" "$PROXY_LOG" || fail "$mode: the proxy did not apply $mode"
  grep "step failed; retrying" "$WORK/err" | head -n 1 | grep -q 'step="after validated"' \
    || fail "$mode: the first retry is not the publication step"

  expect_eq "$mode: published once" "40|8400.00" \
    "$(q "select count(*) || '|' || sum(gross_amount) from reporting.invoice where source = '$src'")"
  expect_eq "$mode: versions" 40 "$(q "select count(*) from core.invoice_version where source = '$src'")"
  expect_eq "$mode: watermark" 2026-11-29 "$(watermark_of "$src")"
  expect_eq "$mode: one notification per day" "2026-11-28:1 2026-11-29:1" \
    "$(q "select string_agg(b.business_date || ':' || (select count(*) from ingest.notification as n
                                                        where n.batch_id = b.batch_id), ' '
                            order by b.business_date)
          from ingest.batch as b where b.source = '$src'")"
  expect_eq "$mode: states" "published published" \
    "$(q "select string_agg(state, ' ' order by business_date) from ingest.batch where source = '$src'")"
done
check_invariants
