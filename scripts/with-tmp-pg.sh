#!/usr/bin/env bash
# with-tmp-pg.sh: run a command against a throwaway PostgreSQL 15 cluster.
#
# Usage: scripts/with-tmp-pg.sh CMD [ARGS...]
#   e.g. scripts/with-tmp-pg.sh psql -c 'select 1'
#        scripts/with-tmp-pg.sh --help   (this text; CMD's own --help
#        still passes: scripts/with-tmp-pg.sh psql --help)
#
# What it does (after PostgREST's withTmpDb):
#   1. makes a fresh directory with mktemp -d (owned by postgres when run as
#      root, mode 755) and runs initdb in DIR/data: --no-locale,
#      UTF8, trust authentication, superuser "postgres";
#   2. configures the server to listen ONLY on a unix socket in DIR (no
#      TCP), with shared_preload_libraries = 'pg_cron' and
#      cron.database_name = 'postgres' (cron.host = DIR, so pg_cron reaches
#      the server over the socket), logging to DIR/server.log;
#   3. starts it and waits until it accepts connections (pg_ctl -w);
#   4. runs CMD with these variables exported:
#        PGHOST=DIR PGPORT=<port> PGUSER=postgres PGDATABASE=postgres
#        TMP_PG_DIR=DIR  TMP_PG_DATA=DIR/data  TMP_PG_LOG=DIR/server.log
#        TMP_PG_BIN=/usr/lib/postgresql/15/bin (also put first in PATH)
#        TMP_PG_CTL="<pg_ctl -D DIR/data -l DIR/server.log, as the server's
#                    user>": word-split it, as in
#                    $TMP_PG_CTL restart -m immediate
#                    $TMP_PG_CTL stop -m fast; $TMP_PG_CTL start
#      (PGHOSTADDR, PGSERVICE and PGPASSWORD are unset: they would point
#      clients elsewhere);
#   5. on exit, INT or TERM: stops the cluster (pg_ctl -m immediate stop)
#      and removes DIR; exits with CMD's status.
#
# Environment:
#   WITH_TMP_PG_FAST=1   fsync = off (tests only; a crash of the machine,
#                        not of PostgreSQL, could then lose data). Default: on.
#   WITH_TMP_PG_KEEP=1   keep DIR (stopped) and print where it is.
#   TMPDIR               parent of DIR (default /tmp; /tmp is used instead
#                        when the postgres user cannot reach it or the path
#                        has characters that would break word splitting).
#
# initdb refuses to run as root: as root, initdb and pg_ctl run as the
# postgres user (runuser -u postgres --); otherwise as the current user.
# The port only names the socket file inside the private DIR, so it cannot
# collide with another server; it is random to keep URLs in logs distinct.
set -euo pipefail
# shellcheck source=scripts/lib/help.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/help.sh"
help_if_asked "$0" "${1:-}"

readonly pg_bin=/usr/lib/postgresql/15/bin

if [[ $# -eq 0 ]]; then
  echo "usage: $0 CMD [ARGS...]" >&2
  exit 64
fi
for tool in initdb pg_ctl postgres; do
  if [[ ! -x $pg_bin/$tool ]]; then
    echo "with-tmp-pg: $pg_bin/$tool not found; run scripts/install-deps.sh" >&2
    exit 69
  fi
done

# The server's user: postgres when we are root (initdb refuses root).
as_server=()
if [[ $EUID -eq 0 ]]; then
  if ! id postgres >/dev/null 2>&1; then
    echo "with-tmp-pg: running as root but there is no 'postgres' user" >&2
    exit 69
  fi
  as_server=(runuser -u postgres --)
fi

# A path we can word-split safely and the server's user can reach.
usable_dir() {
  [[ $1 =~ ^[A-Za-z0-9._/-]+$ ]] || return 1
  if [[ $EUID -eq 0 ]]; then
    runuser -u postgres -- test -x "$1" || return 1
  fi
}

dir=$(mktemp -d "${TMPDIR:-/tmp}/tmp-pg.XXXXXXXX")
if ! usable_dir "$(dirname "$dir")"; then
  rmdir "$dir"
  dir=$(mktemp -d /tmp/tmp-pg.XXXXXXXX)
fi
chmod 755 "$dir"
if [[ $EUID -eq 0 ]]; then
  chown postgres:postgres "$dir"
fi
data=$dir/data
log=$dir/server.log
port=$((5433 + RANDOM % 20000))
while [[ -e $dir/.s.PGSQL.$port ]]; do
  port=$((5433 + RANDOM % 20000))
done

# pg_ctl as the server's user; cwd is DIR so that the user can read it
# (root's cwd is often /root); -l keeps every (re)start logging to the file,
# never to the caller's stdout.
pg_ctl=("${as_server[@]}" env -C "$dir" "$pg_bin/pg_ctl" -D "$data" -l "$log")

started=
# shellcheck disable=SC2317  # invoked by the traps below
cleanup() {
  local status=$?
  trap - EXIT INT TERM
  if [[ -n $started ]]; then
    "${pg_ctl[@]}" -m immediate stop >/dev/null 2>&1 || true
    # Still there (pg_ctl could not stop it)? Then it goes by force.
    if [[ -f $data/postmaster.pid ]]; then
      local pid
      pid=$(head -n 1 "$data/postmaster.pid" 2>/dev/null || true)
      if [[ $pid =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null; then
        kill -KILL "$pid" 2>/dev/null || true
        sleep 1
      fi
    fi
  fi
  if [[ ${WITH_TMP_PG_KEEP:-} == 1 ]]; then
    echo "with-tmp-pg: kept $dir (data: $data, log: $log)" >&2
  else
    rm -rf "$dir"
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if ! "${as_server[@]}" env -C "$dir" "$pg_bin/initdb" --pgdata="$data" \
  --no-locale --encoding=UTF8 --auth=trust -U postgres --nosync \
  >"$dir/initdb.log" 2>&1; then
  echo "with-tmp-pg: initdb failed:" >&2
  cat "$dir/initdb.log" >&2
  exit 70
fi

fsync=on
if [[ ${WITH_TMP_PG_FAST:-} == 1 ]]; then
  fsync=off
fi
cat >>"$data/postgresql.conf" <<EOF

# --- scripts/with-tmp-pg.sh ---
listen_addresses = ''
unix_socket_directories = '$dir'
port = $port
fsync = $fsync
shared_preload_libraries = 'pg_cron'
cron.database_name = 'postgres'
cron.host = '$dir'
EOF

started=1
if ! "${pg_ctl[@]}" -w -t 60 start >"$dir/pg_ctl.log" 2>&1; then
  echo "with-tmp-pg: the server did not start:" >&2
  cat "$dir/pg_ctl.log" "$log" >&2 || true
  exit 70
fi

unset PGHOSTADDR PGSERVICE PGPASSWORD
export PGHOST=$dir PGPORT=$port PGUSER=postgres PGDATABASE=postgres
export TMP_PG_DIR=$dir TMP_PG_DATA=$data TMP_PG_LOG=$log TMP_PG_BIN=$pg_bin
export TMP_PG_CTL="${pg_ctl[*]}"
export PATH=$pg_bin:$PATH

status=0
"$@" || status=$?
exit "$status"
