# tests/e2e/feed_lib.sh: sourced (after lib.sh) by the feed_*__*.sh tests.
# A loopback HTTP(S) server (tests/tools/http_server.py) serving $WORK/www,
# started with a random free port and a bounded lifetime, killed by the
# EXIT trap; request counts come from its /_count endpoint.
# shellcheck shell=bash

WWW=$WORK/www
SPOOL=$WORK/spool
mkdir -p "$WWW"
HTTP_PID='' HTTP_PORT='' HTTP_SCHEME=http HTTP_CURL=(curl -sS --max-time 10)
trap 'if [[ -n $HTTP_PID ]]; then kill "$HTTP_PID" 2>/dev/null || true; fi; rm -rf "$WORK"' EXIT

# start_server / start_tls_server: serve $WWW (HTTPS with its own CA in
# $WORK/tls: ca.pem, and other-ca.pem that signed nothing); sets
# HTTP_PORT and BASE.
start_server() { serve; }
start_tls_server() {
  HTTP_SCHEME=https
  HTTP_CURL=(curl -sS --max-time 10 --cacert "$WORK/tls/ca.pem")
  serve --tls --tls-dir "$WORK/tls"
}
serve() {
  python3 "$REPO/tests/tools/http_server.py" --root "$WWW" --host 127.0.0.1 \
    --port 0 --lifetime 300 --log "$WORK/http.log" "$@" \
    >"$WORK/http.port" 2>"$WORK/http.err" &
  HTTP_PID=$!
  HTTP_PORT=$(port_of http)
  BASE=$HTTP_SCHEME://127.0.0.1:$HTTP_PORT
}

# port_of NAME: the port a test server started in the background printed
# first to $WORK/NAME.port (waiting up to 10 s); fails the test with its
# $WORK/NAME.err when there is none.
port_of() {
  local i port
  for ((i = 0; i < 100; i++)); do
    [[ -s $WORK/$1.port ]] && break
    sleep 0.1
  done
  port=$(head -n 1 "$WORK/$1.port")
  [[ $port =~ ^[0-9]+$ ]] || fail "${1}_server did not start: $(cat "$WORK/$1.err")"
  echo "$port"
}

# requests PATH: how many requests the server saw for PATH.
requests() { "${HTTP_CURL[@]}" "$BASE/_count?path=$1"; }
# set_script JSON: replace those paths' scripted actions.
set_script() { "${HTTP_CURL[@]}" -X POST --data "$1" "$BASE/_script" >/dev/null; }
# reset_counts: forget the counts, records and script.
reset_counts() { "${HTTP_CURL[@]}" -X POST "$BASE/_reset" >/dev/null; }

# feed_sample DATE [SOURCE]: the sample batch for DATE under $WWW (its
# manifest next to it, for SOURCE, default acme-erp); prints the file name.
feed_sample() {
  local date=$1 src=${2:-acme-erp} csv
  csv=$(sample_for "$src" "$WWW" "$date")
  basename "$csv"
}

# fload ARGS...: load with the spool in $WORK.
fload() { load --spool-dir "$SPOOL" "$@"; }

# nothing_registered: no batch, no attempt, nothing published.
nothing_registered() {
  expect_eq "batches" 0 "$(q 'select count(*) from ingest.batch')"
  expect_eq "attempts" 0 "$(q 'select count(*) from ingest.attempt')"
  expect_eq "published" "0 invoices, 0 gross" "$(published_state)"
  expect_eq "notifications" 0 "$(q 'select count(*) from ingest.notification')"
}

# one_published DATE SHA256: exactly one batch, published, with those
# bytes, the sample's 20 invoices and one notification.
one_published() {
  expect_eq "batches" 1 "$(q 'select count(*) from ingest.batch')"
  expect_eq "batch" "published|$2" "$(q 'select state || '"'|'"' || sha256 from ingest.batch')"
  expect_eq "published" "20 invoices, 4200.00 gross" "$(published_state)"
  expect_eq "watermark" "$1" "$(watermark_of acme-erp)"
  expect_eq "notifications" 1 "$(notifications batch_published)"
  check_invariants
}
