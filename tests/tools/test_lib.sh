# tests/tools/test_lib.sh: sourced by the loopback servers' own tests
# (http_server_test.sh, smtp_server_test.sh, sftp_server_test.sh).
# Sets here (this directory), work (a temporary directory, removed at exit)
# and pids (servers to stop at exit: SIGTERM, then wait); defines pass and
# start_server.  The sourcing test defines fail MESSAGE (what to print
# besides MESSAGE, then exit 1) before it calls start_server.
# shellcheck shell=bash

# shellcheck disable=SC2034  # here and port are for the sourcing test
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d)
pids=()
cleanup() {
  local status=$? p
  trap - EXIT
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT

pass() { echo "ok - $*"; }

# start_server NAME CMD...: run CMD (a server that prints its port first)
# in the background, stdout to $work/NAME.port and stderr to
# $work/NAME.err; waits up to 10 s for the port and sets $port.
start_server() {
  local name=$1 i
  shift
  "$@" >"$work/$name.port" 2>"$work/$name.err" &
  pids+=($!)
  for ((i = 0; i < 100; i++)); do
    [[ -s $work/$name.port ]] && break
    sleep 0.1
  done
  port=$(head -n 1 "$work/$name.port")
  [[ $port =~ ^[0-9]+$ ]] || fail "$name did not print its port"
}
