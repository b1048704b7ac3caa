#!/usr/bin/env bash
# A failover costs a run time, never its outcome, on plain streaming replication: a primary and a
# synchronous standby (pg_basebackup -R, synchronous_standby_names) of this
# test's own, on unix sockets, and the loader's DSN
#   host=dirA,dirB port=pA,pB target_session_attrs=read-write
# During COPY, during validation and during publication (a fresh pair for
# each), the primary is stopped with pg_ctl stop -m immediate and the
# standby promoted.  Each time the load exits 0 and the new primary holds
# exactly one publication: counts, total, watermark, one notification,
# the batch published, the invariants.  (Staging is unlogged: the standby
# has none of it, so a batch staged or validated on the old primary is
# staged again from the file, as after a crash.)
source "$(dirname "$0")/lib.sh"
: "${TMP_PG_BIN:?needs scripts/with-tmp-pg.sh}"
pairs=()
trap 'for p in "${pairs[@]}"; do own_cluster_stop "$p"; done; rm -rf "$WORK"' EXIT

records=60000
# (publication: during the write of the versions, its long transaction)
for step in copy:"copy staging" validate:"validate_batch" publish:"write_batch"; do
  name=${step%%:*} pattern=${step#*:}
  a=primary-$name b=standby-$name
  own_cluster "$a" "wal_level = replica"
  pairs+=("$a")
  host_a=$OWN_HOST port_a=$OWN_PORT
  on_a() { psql -X -qAt -v ON_ERROR_STOP=1 -h "$host_a" -p "$port_a" -d postgres "$@"; }
  ask_a() { on_a -c "$1"; }
  # the fault: A stops as in a crash, B is promoted
  fail_over_to_b() {
    as_server "$TMP_PG_BIN/pg_ctl" -D "$host_a/data" -m immediate -w stop >/dev/null
    as_server "$TMP_PG_BIN/pg_ctl" -D "$host_b/data" -w promote >/dev/null
  }
  "$INVOICE_LOADER" -q --dsn "host=$host_a port=$port_a dbname=postgres user=postgres" migrate >/dev/null

  # The standby: a base backup of A that follows it (-R), under its own
  # name (cluster_name is the walreceiver's application_name).  An
  # immediate checkpoint to start it: the default, spread over
  # checkpoint_completion_target, made each backup wait about 35 s.
  host_b=$WORK/$b port_b=$((port_a + 1))
  mkdir -p "$host_b" && chmod 755 "$host_b"
  [[ $EUID -eq 0 ]] && chown postgres:postgres "$host_b"
  as_server "$TMP_PG_BIN/pg_basebackup" -h "$host_a" -p "$port_a" -U postgres \
    -D "$host_b/data" -R -X stream --checkpoint=fast >/dev/null 2>"$WORK/basebackup.err" \
    || fail "pg_basebackup: $(cat "$WORK/basebackup.err")"
  {
    echo "port = $port_b"
    echo "unix_socket_directories = '$host_b'"
    echo "cluster_name = 'standby_$name'"
    echo "synchronous_standby_names = ''"
  } | as_server tee -a "$host_b/data/postgresql.conf" >/dev/null
  as_server "$TMP_PG_BIN/pg_ctl" -D "$host_b/data" -l "$host_b/server.log" -w -t 60 start \
    >/dev/null || fail "the standby did not start: $(tail -n 5 "$host_b/server.log")"
  pairs+=("$b")
  on_b() { psql -X -qAt -v ON_ERROR_STOP=1 -h "$host_b" -p "$port_b" -d postgres "$@"; }
  # Synchronous from here on (set before a standby is there, every commit,
  # migrate's too, would wait for one).
  on_a -c "alter system set synchronous_standby_names = 'standby_$name'" -c "select pg_reload_conf()" >/dev/null
  sync_standby() { [[ $(on_a -c "select count(*) from pg_stat_replication where sync_state = 'sync'") == 1 ]]; }
  wait_for 60 "$name: the standby streaming synchronously" sync_standby
  [[ $(on_b -c "select pg_is_in_recovery()") == t ]] || fail "$name: B is not a standby"

  src=ha-$name
  "$INVOICE_LOADER" -q --dsn "host=$host_a port=$port_a dbname=postgres user=invoice_operator" \
    source add "$src" --start-date 2026-11-28 >/dev/null
  csv=$("$REPO/scripts/gen-invoices.sh" --source "$src" "$WORK/$name" 2026-11-28 $records)
  total=$(sed 's/.*"control_total":"\([-0-9.]*\)".*/\1/' "$csv.manifest.json")

  dsn="host=$host_a,$host_b port=$port_a,$port_b dbname=postgres user=invoice_loader target_session_attrs=read-write"
  # validation holds still for the fault (hold_validation, lib.sh)
  [[ $name == validate ]] && hold_validation psql -X -q -h "$host_a" -p "$port_a" -d postgres
  "$INVOICE_LOADER" --dsn "$dsn" load --source "$src" --business-date 2026-11-28 --input "$csv" \
    >"$WORK/out" 2>"$WORK/err" &
  loader=$!
  inject_when_active $loader "$pattern" ask_a fail_over_to_b
  RC=0
  wait $loader || RC=$?
  release_validation
  [[ $INJECTED == yes ]] || fail "$name: the loader finished before the failover could be injected"
  expect_rc 0
  grep -q "retrying" "$WORK/err" || fail "$name: the loader did not retry"
  [[ $(on_b -c "select pg_is_in_recovery()") == f ]] || fail "$name: B was not promoted"

  # The new primary holds exactly one publication.
  expect_one_publication "$name on B" on_b "$src" "$records" "$total" 2026-11-28
  (PGHOST=$host_b PGPORT=$port_b E2E_DB=postgres check_invariants) || fail "$name: invariants on B"
  own_cluster_stop "$b"
done
