#!/usr/bin/env bash
# tests/tools/fault_proxy_test.sh FAULT_PROXY: check every mode of the fault
# proxy (tests/tools/README.md) against a real PostgreSQL 15, with psql
# over TCP through the proxy and psql over the unix socket to look at what
# the server really did.  ctest runs it as tools.fault_proxy.
#
# Starts its own throwaway cluster (scripts/with-tmp-pg.sh) unless it runs
# inside one already (TMP_PG_DIR set); works in its own database, dropped
# at the end.  Stops at the first failed check and prints the proxy logs.
# Exit status: 0 all passed, 1 a check failed, 64 usage, 77 PostgreSQL 15
# is not installed (ctest reports the test as skipped).
set -euo pipefail

if [[ $# -ne 1 || ! -x $1 ]]; then
  echo "usage: $0 PATH/TO/fault_proxy" >&2
  exit 64
fi
proxy_bin=$(realpath "$1")
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

if [[ -z ${TMP_PG_DIR:-} ]]; then
  if [[ ! -x /usr/lib/postgresql/15/bin/initdb ]]; then
    echo "skipped: PostgreSQL 15 is not installed"
    exit 77
  fi
  exec bash "$repo/scripts/with-tmp-pg.sh" \
    bash "${BASH_SOURCE[0]}" "$proxy_bin" </dev/null
fi

work=$(mktemp -d)
db=fault_proxy_test_$$
pids=()
cleanup() {
  local status=$? p
  trap - EXIT
  exec 7>&- 8>&-
  for p in "${pids[@]}"; do
    kill -TERM "$p" 2>/dev/null || true
  done
  wait 2>/dev/null || true
  psql -X -q -d postgres -c "drop database if exists $db with (force)" \
    >/dev/null 2>&1 || true
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT

fail() {
  echo "FAIL: $*" >&2
  local f
  for f in "$work"/*.log "$work"/*.out; do
    [[ -f $f ]] || continue
    echo "--- $(basename "$f"):" >&2
    cat "$f" >&2
  done
  exit 1
}
pass() { echo "ok - $*"; }

# direct SQL: one value, over the unix socket, bypassing every proxy.
direct() { psql -X -qAt -v ON_ERROR_STOP=1 -d "$db" -c "$1"; }

# start_proxy NAME UPSTREAM-ARGS...: start a proxy on a free port with the
# control file $work/NAME.ctl (pass) and the log $work/NAME.log; sets
# NAME_pid and NAME_port.
start_proxy() {
  local name=$1 port="" i
  shift
  echo pass >"$work/$name.ctl"
  "$proxy_bin" --listen 127.0.0.1:0 --control "$work/$name.ctl" \
    --log "$work/$name.log" --exit-after 600 "$@" &
  pids+=($!)
  printf -v "${name}_pid" %s "$!"
  for i in $(seq 50); do
    port=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\),.*/\1/p' \
      "$work/$name.log" 2>/dev/null || true)
    [[ -n $port ]] && break
    sleep 0.1
  done
  [[ -n $port ]] || fail "proxy $name did not start"
  printf -v "${name}_port" %s "$port"
}

# mode NAME LINE: replace proxy NAME's control file atomically.
mode() {
  printf '%s\n' "$2" >"$work/$1.ctl.tmp"
  mv "$work/$1.ctl.tmp" "$work/$1.ctl"
}

# dsn PORT APP: connection string for psql over TCP through a proxy.
dsn() {
  echo "host=127.0.0.1 port=$1 user=postgres dbname=$db connect_timeout=3 \
application_name=$2"
}

# via PORT APP PSQL-ARGS...: psql through a proxy.  In the background use
# psql "$(dsn PORT APP)" directly, so that $! is psql's own pid.
via() {
  local port=$1 app=$2
  shift 2
  psql -X -qAt -v ON_ERROR_STOP=1 "$(dsn "$port" "$app")" "$@"
}

# try CMD...: run CMD, keep its exit status in RC and output in $work/try.out.
try() {
  RC=0
  "$@" >"$work/try.out" 2>&1 || RC=$?
}

# wait_for PATTERN FILE [SECONDS]: until FILE has a line matching PATTERN.
wait_for() {
  local i
  for i in $(seq $((${3:-5} * 10))); do
    grep -q -- "$1" "$2" 2>/dev/null && return 0
    sleep 0.1
  done
  return 1
}

# no_session APP: the server has no session of APP left (waits up to 5 s).
no_session() {
  local i
  for i in $(seq 50); do
    [[ $(direct "select count(*) from pg_stat_activity
                 where application_name = '$1'") == 0 ]] && return 0
    sleep 0.1
  done
  return 1
}

lost='connection to server was lost\|server closed the connection'

psql -X -q -d postgres -c "create database $db"
direct 'create table c (n int, pad text)'
seq 1 100000 | sed 's/$/\tpadding-padding-padding/' >"$work/copy.tsv"

# --- refuses to bind anything but loopback --------------------------------
for bad in 0.0.0.0:5999 127.0.0.2:5999 192.168.1.1:5999; do
  try "$proxy_bin" --listen "$bad" --upstream-unix /nonexistent \
    --control "$work/x.ctl"
  [[ $RC -eq 64 ]] || fail "--listen $bad: exit $RC, expected 64"
done
try "$proxy_bin" --listen 0 --upstream-tcp 10.1.2.3:5432 \
  --control "$work/x.ctl"
[[ $RC -eq 64 ]] || fail "--upstream-tcp 10.1.2.3: exit $RC, expected 64"
pass "refuses non-loopback --listen and --upstream-tcp (exit 64)"

start_proxy a --upstream-unix "$PGHOST/.s.PGSQL.$PGPORT"

# --- pass -----------------------------------------------------------------
[[ $(via "$a_port" fp_pass -c 'select 41 + 1') == 42 ]] ||
  fail "pass: select through the proxy"
grep -q "SSLRequest answered 'N'" "$work/a.log" ||
  fail "pass: SSLRequest not answered"
pass "pass forwards a query (SSLRequest answered 'N')"

# --- drop_commit_request --------------------------------------------------
mode a drop_commit_request
try via "$a_port" fp_dreq -c 'begin' -c 'create table t1 (x int)' \
  -c 'commit'
[[ $RC -ne 0 ]] && grep -q "$lost" "$work/try.out" ||
  fail "drop_commit_request: psql should lose the connection (exit $RC)"
[[ $(direct "select to_regclass('t1') is null") == t ]] ||
  fail "drop_commit_request: t1 was committed"
no_session fp_dreq || fail "drop_commit_request: the session lingers"
try via "$a_port" fp_dreq2 <<'EOF'
BEGIN;
CREATE TABLE t1b (x int);
  Commit ;
EOF
[[ $RC -ne 0 && $(direct "select to_regclass('t1b') is null") == t ]] ||
  fail "drop_commit_request: 'Commit ;' went through"
grep -q 'fault drop_commit_request: COMMIT withheld' "$work/a.log" ||
  fail "drop_commit_request: no fault logged"
pass "drop_commit_request: psql loses the connection, t1 not committed"

# --- drop_commit_reply ----------------------------------------------------
mode a drop_commit_reply
try via "$a_port" fp_drep -c 'begin' -c 'create table t2 (x int)' \
  -c 'commit'
[[ $RC -ne 0 ]] && grep -q "$lost" "$work/try.out" ||
  fail "drop_commit_reply: psql should lose the connection (exit $RC)"
[[ $(direct "select to_regclass('t2') is not null") == t ]] ||
  fail "drop_commit_reply: t2 was not committed"
grep -q 'fault drop_commit_reply: dropped [0-9]* reply bytes' \
  "$work/a.log" || fail "drop_commit_reply: no fault logged"
pass "drop_commit_reply: psql loses the connection, t2 committed"

# --- close_after_bytes ----------------------------------------------------
mode a 'close_after_bytes 20000'
try via "$a_port" fp_copy -c 'copy c from stdin' <"$work/copy.tsv"
[[ $RC -ne 0 ]] || fail "close_after_bytes: the COPY succeeded"
[[ $(direct 'select count(*) from c') == 0 ]] ||
  fail "close_after_bytes: rows of the cut COPY are visible"
grep -q 'fault close_after_bytes 20000: .*client->server 20000 of' \
  "$work/a.log" || fail "close_after_bytes: not cut at 20000 bytes"
wait_for 'CONTEXT:  COPY c, line' "$TMP_PG_LOG" ||
  fail "close_after_bytes: the server did not see a COPY cut midway"
mode a pass
try via "$a_port" fp_copy -c 'copy c from stdin' <"$work/copy.tsv"
[[ $RC -eq 0 && $(direct 'select count(*) from c') == 100000 ]] ||
  fail "close_after_bytes: the COPY fails in pass mode too"
pass "close_after_bytes 20000: cuts a COPY after 20000 bytes, nothing lands"

# --- stall ----------------------------------------------------------------
mkfifo "$work/in"
psql -X -qAt "$(dsn "$a_port" fp_stall)" <"$work/in" >"$work/stall.out" 2>&1 &
stall_psql=$!
exec 7>"$work/in"
echo "select 'one';" >&7
wait_for '^one$' "$work/stall.out" || fail "stall: no answer before stall"
mode a stall
echo "select 'two';" >&7
sleep 1.5
! grep -q '^two$' "$work/stall.out" || fail "stall: a stalled query answered"
start=$SECONDS
try via "$a_port" fp_stall_new -c 'select 1'
[[ $RC -ne 0 && $((SECONDS - start)) -ge 2 ]] ||
  fail "stall: a new connection did not time out (exit $RC)"
mode a pass
wait_for '^two$' "$work/stall.out" || fail "stall: no answer after stall"
exec 7>&-
wait "$stall_psql" || fail "stall: psql failed after the stall"
grep -q 'conn [0-9]*: fault stall' "$work/a.log" &&
  grep -q 'conn [0-9]*: forwarding again' "$work/a.log" ||
  fail "stall: not logged"
pass "stall: an open connection waits, then resumes; a new one times out"

# --- refuse ---------------------------------------------------------------
rm -f "$work/in"
mkfifo "$work/in"
psql -X -qAt "$(dsn "$a_port" fp_open)" <"$work/in" >"$work/open.out" 2>&1 &
open_psql=$!
exec 8>"$work/in"
echo "select 'before';" >&8
wait_for '^before$' "$work/open.out" || fail "refuse: no answer before"
mode a refuse
start=$SECONDS
try via "$a_port" fp_refused -c 'select 1'
[[ $RC -ne 0 && $((SECONDS - start)) -lt 2 ]] ||
  fail "refuse: a new connection was not turned away at once (exit $RC)"
echo "select 'during';" >&8
wait_for '^during$' "$work/open.out" ||
  fail "refuse: an open connection stopped working"
grep -q 'fault refuse: reset at once' "$work/a.log" ||
  fail "refuse: not logged"
pass "refuse: new connections fail at once, open ones keep working"

# --- blackhole ------------------------------------------------------------
mode a blackhole
start=$SECONDS
try via "$a_port" fp_black -c 'select 1'
[[ $RC -ne 0 && $((SECONDS - start)) -ge 2 ]] ||
  fail "blackhole: a new connection did not time out (exit $RC)"
echo "select 'swallowed';" >&8
sleep 1
mode a pass
sleep 1
! grep -q '^swallowed$' "$work/open.out" ||
  fail "blackhole: a swallowed query was answered"
# psql waits for the swallowed answer for ever: stop it.
exec 8>&-
kill -TERM "$open_psql"
wait "$open_psql" || true
no_session fp_open ||
  fail "blackhole: the server session outlived its client"
grep -q 'fault blackhole: bytes are read and discarded' "$work/a.log" ||
  fail "blackhole: not logged"
pass "blackhole: nothing answers, not even after the mode changes back"

# --- once: ----------------------------------------------------------------
mode a once:drop_commit_request
try via "$a_port" fp_once1 -c 'begin' -c 'create table t3 (x int)' \
  -c 'commit'
[[ $RC -ne 0 && $(direct "select to_regclass('t3') is null") == t ]] ||
  fail "once: the first COMMIT was not dropped"
try via "$a_port" fp_once2 -c 'begin' -c 'create table t3 (x int)' \
  -c 'commit'
[[ $RC -eq 0 && $(direct "select to_regclass('t3') is not null") == t ]] ||
  fail "once: the second COMMIT was dropped too"
mode a once:drop_commit_request
try via "$a_port" fp_once3 -c 'begin' -c 'create table t4 (x int)' \
  -c 'commit'
[[ $RC -ne 0 && $(direct "select to_regclass('t4') is null") == t ]] ||
  fail "once: rewriting the control file did not re-arm it"
pass "once:drop_commit_request drops one COMMIT; rewriting re-arms it"

# --- raw protocol: COMMIT split across reads, or sharing one read ---------
# be32 N: N as four big-endian bytes, as printf escapes.
be32() {
  printf '\\x%02x' $(($1 >> 24 & 255)) $(($1 >> 16 & 255)) \
    $(($1 >> 8 & 255)) $(($1 & 255))
}
# startup APP >FILE: a protocol 3.0 startup packet (no SSLRequest first).
startup() {
  local body="user\\0postgres\\0database\\0$db\\0application_name\\0$1\\0\\0"
  local n
  n=$(printf "$body" | wc -c)
  printf "$(be32 $((n + 8)))$(be32 196608)$body"
}
# query SQL >FILE: a simple-query message.
query() { printf "Q$(be32 $((${#1} + 5)))%s\\0" "$1"; }
# raw PORT FILE...: one connection; each FILE in one write, 0.3 s apart.
raw() {
  local port=$1
  shift
  (
    exec 3<>"/dev/tcp/127.0.0.1/$port"
    for f in "$@"; do
      cat "$f" >&3
      sleep 0.3
    done
    sleep 0.5
  ) 2>/dev/null || true
}
for t in r1 r2 r3 r4; do
  { startup "fp_$t"; query 'BEGIN'; query "CREATE TABLE $t (x int)"; } \
    >"$work/$t.head"
  query 'COMMIT' >"$work/$t.commit"
  cat "$work/$t.head" "$work/$t.commit" >"$work/$t.all"
  head -c 3 "$work/$t.commit" >"$work/$t.c1"
  head -c 7 "$work/$t.commit" | tail -c 4 >"$work/$t.c2"
  tail -c +8 "$work/$t.commit" >"$work/$t.c3"
done
mode a pass
raw "$a_port" "$work/r1.all"
[[ $(direct "select to_regclass('r1') is not null") == t ]] ||
  fail "raw: the hand-made stream does not commit in pass mode"
mode a drop_commit_request
raw "$a_port" "$work/r2.all"
[[ $(direct "select to_regclass('r2') is null") == t ]] ||
  fail "raw: a COMMIT sharing a read with other messages went through"
raw "$a_port" "$work/r3.head" "$work/r3.c1" "$work/r3.c2" "$work/r3.c3"
[[ $(direct "select to_regclass('r3') is null") == t ]] ||
  fail "raw: a COMMIT split over three reads went through"
mode a drop_commit_reply
raw "$a_port" "$work/r4.head" "$work/r4.c1" "$work/r4.c2" "$work/r4.c3"
[[ $(direct "select to_regclass('r4') is not null") == t ]] ||
  fail "raw: drop_commit_reply with a split COMMIT did not commit"
[[ $(grep -c 'fault drop_commit_reply: dropped' "$work/a.log") -eq 2 ]] ||
  fail "raw: drop_commit_reply did not drop the reply"
pass "COMMIT found when split over reads and when sharing a read"

# --- many connections at once ---------------------------------------------
mode a pass
start=$SECONDS
many=()
for i in $(seq 20); do
  via "$a_port" "fp_many_$i" -c 'select pg_sleep(4), 7' \
    >"$work/many.$i.txt" 2>&1 &
  many+=($!)
done
for i in $(seq 35); do
  open=$(direct "select count(*) from pg_stat_activity
                 where application_name like 'fp_many_%'")
  [[ $open -eq 20 ]] && break
  sleep 0.1
done
for p in "${many[@]}"; do
  wait "$p" || fail "many: a psql failed"
done
[[ $open -eq 20 ]] || fail "many: $open of 20 sessions at once"
[[ $(cat "$work"/many.*.txt | grep -c '^|7$') -eq 20 ]] ||
  fail "many: not all 20 answered"
[[ $((SECONDS - start)) -lt 9 ]] || fail "many: too slow"
rm -f "$work"/many.*.txt
pass "20 concurrent connections"

# --- cancel requests reach the server -------------------------------------
psql -X -qAt "$(dsn "$a_port" fp_cancel)" -c 'select pg_sleep(30)' \
  >"$work/cancel.txt" 2>&1 &
cancel_psql=$!
sleep 1
kill -INT "$cancel_psql"
wait "$cancel_psql" || true
grep -q 'canceling statement due to user request' "$work/cancel.txt" ||
  fail "cancel: the query was not cancelled"
grep -q 'CancelRequest forwarded' "$work/a.log" ||
  fail "cancel: not logged"
rm -f "$work/cancel.txt"
pass "a CancelRequest (psql ^C) is forwarded"

# --- TCP upstream (b -> a -> unix socket) ---------------------------------
start_proxy b --upstream-tcp "127.0.0.1:$a_port"
[[ $(via "$b_port" fp_tcp -c 'select 6 * 7') == 42 ]] ||
  fail "tcp upstream: pass"
direct 'truncate c'
mode b 'close_after_bytes 30000'
try via "$b_port" fp_tcp_copy -c 'copy c from stdin' <"$work/copy.tsv"
[[ $RC -ne 0 && $(direct 'select count(*) from c') == 0 ]] ||
  fail "tcp upstream: close_after_bytes did not cut the COPY"
grep -q 'fault close_after_bytes 30000: .*client->server 30000 of' \
  "$work/b.log" || fail "tcp upstream: not cut at 30000 bytes"
wait_for '\(client\|upstream\) read failed: Connection reset by peer' \
  "$work/a.log" || fail "tcp upstream: proxy a saw no RST"
mode b drop_commit_request
try via "$b_port" fp_tcp_dreq -c 'begin' -c 'create table t5 (x int)' \
  -c 'commit'
[[ $RC -ne 0 && $(direct "select to_regclass('t5') is null") == t ]] ||
  fail "tcp upstream: drop_commit_request"
pass "--upstream-tcp: pass, close_after_bytes (RST), drop_commit_request"

# --- SIGTERM --------------------------------------------------------------
for name in b a; do
  pid_var=${name}_pid
  start=$SECONDS
  kill -TERM "${!pid_var}"
  rc=0
  wait "${!pid_var}" || rc=$?
  [[ $rc -eq 0 && $((SECONDS - start)) -le 2 ]] ||
    fail "SIGTERM: proxy $name exit $rc after $((SECONDS - start)) s"
  tail -n 1 "$work/$name.log" | grep -q 'stopped$' ||
    fail "SIGTERM: proxy $name did not log its stop"
done
pids=()
pass "SIGTERM stops both proxies with exit 0"
echo "fault_proxy_test: all passed"
