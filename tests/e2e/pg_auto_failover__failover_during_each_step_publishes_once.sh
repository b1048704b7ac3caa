#!/usr/bin/env bash
# A failover costs a run time, never its outcome, on a real HA engine: pg_auto_failover
# 2.0 (Debian postgresql-15-auto-failover) with a monitor and two data
# nodes of this test's own on 127.0.0.1, and the loader's multi-host DSN
# from `pg_autoctl show uri`.  `pg_autoctl perform failover` during COPY,
# during validation and during publication (one formation, one source
# each): every load exits 0 and the new primary holds exactly one
# publication (counts, total, watermark, one notification, invariants).
# The waits are bounded polls.
source "$(dirname "$0")/lib.sh"
: "${TMP_PG_BIN:?needs scripts/with-tmp-pg.sh}"
command -v pg_autoctl >/dev/null || fail "pg_autoctl missing (Debian package postgresql-15-auto-failover)"

paf=$WORK/paf
mkdir -p "$paf" && chmod 755 "$WORK" "$paf"
[[ $EUID -eq 0 ]] && chown postgres:postgres "$paf"
# (without the main cluster's PG* variables, which pg_autoctl would read)
autoctl() {
  as_server env -C "$paf" -u PGHOST -u PGPORT -u PGUSER -u PGDATABASE -u PGOPTIONS \
    PATH="$TMP_PG_BIN:$PATH" XDG_CONFIG_HOME="$paf/cfg" XDG_DATA_HOME="$paf/data" pg_autoctl "$@"
}
base=$((20000 + RANDOM % 20000))
mon_port=$base port1=$((base + 1)) port2=$((base + 2))
stop_all() {
  for n in node2 node1 monitor; do
    [[ -d $paf/$n ]] && autoctl stop --pgdata "$paf/$n" --immediate >/dev/null 2>&1 || true
  done
  sleep 1
  pkill -u postgres -f "pg_autoctl.*$paf" 2>/dev/null || true
  for n in node2 node1 monitor; do
    [[ -f $paf/$n/postmaster.pid ]] &&
      as_server "$TMP_PG_BIN/pg_ctl" -D "$paf/$n" -m immediate -w stop >/dev/null 2>&1 || true
  done
}
trap 'stop_all; rm -rf "$WORK"' EXIT

autoctl create monitor --pgdata "$paf/monitor" --pgport "$mon_port" --hostname 127.0.0.1 \
  --auth trust --no-ssl --run >"$paf/monitor.log" 2>&1 &
# (pg_isready, not pg_autoctl: a second pg_autoctl while create runs races
# it for the state directory)
monitor_up() {
  "$TMP_PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$mon_port" -d pg_auto_failover &&
    [[ $(psql -X -qAt -h 127.0.0.1 -p "$mon_port" -U autoctl_node -d pg_auto_failover \
           -c "select count(*) from pgautofailover.formation" 2>/dev/null) -ge 1 ]]
}
for ((i = 0; i < 1200; i++)); do monitor_up && break; sleep 0.1; done
monitor_up || fail "the pg_auto_failover monitor did not come up: $(tail -n 20 "$paf/monitor.log")"
sleep 2
monitor_uri="postgres://autoctl_node@127.0.0.1:$mon_port/pg_auto_failover?sslmode=prefer"
autoctl create postgres --pgdata "$paf/node1" --pgport "$port1" --hostname 127.0.0.1 \
  --auth trust --no-ssl --monitor "$monitor_uri" --run >"$paf/node1.log" 2>&1 &
sleep 2
autoctl create postgres --pgdata "$paf/node2" --pgport "$port2" --hostname 127.0.0.1 \
  --auth trust --no-ssl --monitor "$monitor_uri" --run >"$paf/node2.log" 2>&1 &
states() {
  autoctl show state --pgdata "$paf/monitor" 2>/dev/null |
    awk -F'|' 'NF >= 7 { gsub(/ /, "", $6); gsub(/ /, "", $7)
                         if ($6 != "" && $6 != "ReportedState") print $6 "/" $7 }' |
    sort | tr '\n' ' '
}
settled() { [[ $(states) == "primary/primary secondary/secondary " ]]; }
for ((i = 0; i < 2400; i++)); do settled && break; sleep 0.1; done
settled || fail "no primary and secondary: [$(states)] $(tail -n 8 "$paf/node1.log" "$paf/node2.log")"

# The DSN pg_autoctl gives, as the contract's multi-host form.
uri=$(autoctl show uri --pgdata "$paf/monitor" --formation default)
[[ $uri == *target_session_attrs=read-write* ]] || fail "show uri gave [$uri]"
hosts=$(sed -E 's#^postgres://([^/]*)/.*#\1#' <<<"$uri")
host_list=$(tr ',' '\n' <<<"$hosts" | cut -d: -f1 | paste -sd,)
port_list=$(tr ',' '\n' <<<"$hosts" | cut -d: -f2 | paste -sd,)
dsn() { echo "host=$host_list port=$port_list dbname=postgres user=$1 target_session_attrs=read-write"; }
on_primary() { psql -X -qAt -v ON_ERROR_STOP=1 "$(dsn postgres)" "$@"; }
ask_primary() { on_primary -c "$1"; }
# failover: the fault, run once the loader is inside the step ($name)
failover() {
  autoctl perform failover --pgdata "$paf/monitor" >"$paf/failover-$name.log" 2>&1 ||
    fail "$name: pg_autoctl perform failover failed: $(tail -n 5 "$paf/failover-$name.log")"
}
"$INVOICE_LOADER" -q --dsn "$(dsn postgres)" migrate >/dev/null

records=60000
# (publication: during the write of the versions, its long transaction)
for step in copy:"copy staging" validate:"validate_batch" publish:"write_batch"; do
  name=${step%%:*} pattern=${step#*:}
  src=paf-$name
  "$INVOICE_LOADER" -q --dsn "$(dsn invoice_operator)" source add "$src" --start-date 2026-11-28 >/dev/null
  csv=$("$REPO/scripts/gen-invoices.sh" --source "$src" "$WORK/$name" 2026-11-28 $records)
  total=$(sed 's/.*"control_total":"\([-0-9.]*\)".*/\1/' "$csv.manifest.json")
  # validation holds still for the fault (hold_validation, lib.sh)
  [[ $name == validate ]] && hold_validation psql -X -q "$(dsn postgres)"
  before=$(on_primary -c "select inet_server_port()")

  "$INVOICE_LOADER" --dsn "$(dsn invoice_loader)" load --source "$src" --business-date 2026-11-28 \
    --input "$csv" >"$WORK/out" 2>"$WORK/err" &
  loader=$!
  inject_when_active $loader "$pattern" ask_primary failover
  RC=0
  wait $loader || RC=$?
  release_validation
  [[ $INJECTED == yes ]] || fail "$name: the load finished before the failover could be injected"
  expect_rc 0
  for ((i = 0; i < 2400; i++)); do settled && break; sleep 0.1; done
  settled || fail "$name: no primary and secondary again: [$(states)]"
  after=$(on_primary -c "select inet_server_port()")
  [[ $after != "$before" ]] || fail "$name: the primary did not change (still port $after)"

  # The new primary holds exactly one publication.
  expect_one_publication "$name on the new primary" on_primary "$src" "$records" "$total" 2026-11-28
  (PGHOST=127.0.0.1 PGPORT=$after E2E_DB=postgres check_invariants) || fail "$name: invariants"
done
