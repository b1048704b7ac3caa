# shellcheck shell=bash
# tests/e2e/sweep_lib.sh: sourced by the sweep tests after lib.sh.
# (SWEEP_PID, HOLDER_PID and RC are read by the tests.)
# shellcheck disable=SC2034
#
# sweep_bg NAME: CALL ingest.sweep() as invoice_loader in the background,
#   application_name NAME, bounded to 120 s; its pid in SWEEP_PID, output in
#   $WORK/NAME.out.
# sweep_wait PID: wait for it, exit status in RC.
# sweep_now [SQL]: CALL ingest.sweep() (or SQL) as invoice_loader, now;
#   exit status in RC, output in $WORK/sweep.out.
# hold_publication SOURCE / release_publication: a superuser session that
#   holds the source's publication lock (ingest.publication_lock_key: the
#   one ingest.lock_batch_for_publication takes for write_batch,
#   publish_batch and revert_batch), so that a sweep stops inside
#   publish_batch until released.
# wait_for_lock_wait NAME: until the session NAME waits for an advisory
#   lock (bounded: 60 s).
sweep_bg() {
  PGAPPNAME=$1 timeout 120 psql -X -q -v ON_ERROR_STOP=1 \
    -d "dbname=$E2E_DB user=invoice_loader" -c 'call ingest.sweep()' \
    >"$WORK/$1.out" 2>&1 &
  SWEEP_PID=$!
}
sweep_wait() {
  RC=0
  wait "$1" || RC=$?
}
sweep_now() {
  set +e
  PGAPPNAME=sweep timeout 120 psql -X -q -v ON_ERROR_STOP=1 \
    -d "dbname=$E2E_DB user=invoice_loader" -c "${1:-call ingest.sweep()}" >"$WORK/sweep.out" 2>&1
  RC=$?
  set -e
}

hold_publication() {
  mkfifo "$WORK/holder.in"
  psql -X -qAt -d "$E2E_DB" <"$WORK/holder.in" >"$WORK/holder.out" 2>&1 &
  HOLDER_PID=$!
  exec 7>"$WORK/holder.in"
  echo "set application_name = 'publication-holder';" >&7
  echo "select pg_advisory_lock(ingest.publication_lock_key('$1'));" >&7
  local i
  for ((i = 0; i < 600; i++)); do
    [[ $(q "select count(*) from pg_stat_activity as a join pg_locks as l using (pid)
            where a.application_name = 'publication-holder' and l.locktype = 'advisory'
              and l.granted") -gt 0 ]] && return 0
    sleep 0.1
  done
  fail "the publication holder did not get its lock"
}
release_publication() {
  echo "select pg_advisory_unlock_all();" >&7
  exec 7>&-
  wait "$HOLDER_PID" || true
  rm -f "$WORK/holder.in"
}
wait_for_lock_wait() {
  local i
  for ((i = 0; i < 600; i++)); do
    [[ $(q "select count(*) from pg_stat_activity
            where application_name = '$1' and wait_event_type = 'Lock'
              and wait_event = 'advisory'") -gt 0 ]] && return 0
    sleep 0.1
  done
  fail "$1 never waited for the publication lock"
}

# operator_sql SQL: as invoice_operator (options the CLI does not take yet).
operator_sql() { psql -X -qAt -v ON_ERROR_STOP=1 -d "dbname=$E2E_DB user=invoice_operator" -c "$1"; }
