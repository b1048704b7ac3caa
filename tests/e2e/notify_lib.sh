# shellcheck shell=bash
# tests/e2e/notify_lib.sh: sourced by the notify__*.sh tests after lib.sh.
# The sinks are the real loopback servers of tests/tools (README there).
# (HTTP_PORT, HTTP_PID, SMTP_PORT, SMTP_PID, HOOK, MAILDIR, NOTIFY_PID are
# read by the tests.)
# shellcheck disable=SC2034
#
# start_http [SCRIPT_JSON]: the webhook server (http_server.py), its port
#   in HTTP_PORT, the base URL in HOOK (http://127.0.0.1:PORT).
# http_count PATH: the requests that path got so far.
# http_keys PATH: the Idempotency-Key of each request to PATH, one a line.
# start_smtp [SCRIPT_JSON] [more options]: the SMTP server (smtp_server.py)
#   recording into a new MAILDIR, its port in SMTP_PORT.
# smtp_count [OUTCOME]: transactions in its log (of that outcome).
# smtp_message_ids: the Message-ID of every recorded message, one a line.
# publish DATE...: the sample batch for each date, loaded to published.
# notify ARGS...: `notify` as invoice_loader (RC, $WORK/out, $WORK/err).
# notify_bg NAME ARGS...: the same in the background, its pid (the
#   loader's own, for kill -KILL) in NOTIFY_PID, output in $WORK/NAME.out
#   and $WORK/NAME.err; any still running when the test ends is killed.
# states: "state:count ..." of every notification.
# count_is PATH N / states_are STATES: for wait_until (evaluated each poll).
# wait_until DESCRIPTION COMMAND...: poll (10 ms apart, at most 30 s) until
#   COMMAND succeeds; fail otherwise.
# shellcheck disable=SC2120 # the script is optional
start_http() {
  local script='{}'
  [[ -n ${1:-} ]] && script=$1
  mkdir -p "$WORK/www"
  rm -f "$WORK/http.port"
  python3 "$REPO/tests/tools/http_server.py" --root "$WORK/www" \
    --script "$script" --lifetime 300 >"$WORK/http.port" 2>"$WORK/http.err" &
  HTTP_PID=$!
  wait_until "the webhook server to listen" test -s "$WORK/http.port"
  HTTP_PORT=$(head -n1 "$WORK/http.port")
  HOOK=http://127.0.0.1:$HTTP_PORT
}
http_count() { curl -sf "$HOOK/_count?path=$1"; }
http_keys() {
  curl -sf "$HOOK/_requests?path=$1" |
    python3 -c 'import json,sys; [print(r["headers"].get("Idempotency-Key", "")) for r in json.load(sys.stdin)]'
}
http_bodies() { curl -sf "$HOOK/_requests?path=$1"; }
# shellcheck disable=SC2120 # the script is optional
start_smtp() {
  local script=${1:-[]}
  shift || true
  MAILDIR=$(mktemp -d "$WORK/mail.XXXXXX") # each server its own record
  rm -f "$WORK/smtp.port"
  python3 "$REPO/tests/tools/smtp_server.py" --record-dir "$MAILDIR" \
    --script "$script" --lifetime 300 "$@" >"$WORK/smtp.port" 2>"$WORK/smtp.err" &
  SMTP_PID=$!
  wait_until "the SMTP server to listen" test -s "$WORK/smtp.port"
  SMTP_PORT=$(head -n1 "$WORK/smtp.port")
}
smtp_count() {
  if [[ ! -f $MAILDIR/log.jsonl ]]; then echo 0; return; fi
  if [[ -z ${1:-} ]]; then wc -l <"$MAILDIR/log.jsonl"; return; fi
  grep -c "\"outcome\": *\"$1\"" "$MAILDIR/log.jsonl" || true
}
smtp_message_ids() {
  [[ -f $MAILDIR/log.jsonl ]] || return 0
  python3 -c 'import json,sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("message_id"): print(r["message_id"])' "$MAILDIR/log.jsonl"
}
publish() {
  local d csv
  for d in "$@"; do
    csv=$(sample "$WORK/in" "$d")
    load --source acme-erp --business-date "$d" --input "$csv"
    expect_rc 0
  done
}
notify() { run invoice_loader notify "$@"; }
notify_bg() {
  local name=$1; shift
  "$INVOICE_LOADER" --dsn "dbname=$E2E_DB user=invoice_loader" \
    notify "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" &
  NOTIFY_PID=$!
  NOTIFY_PIDS+=("$NOTIFY_PID")
}
states() {
  q "select coalesce(string_agg(state || ':' || n, ' ' order by state), '')
     from (select state, count(*) as n from ingest.notification group by state) as s"
}
count_is() { [[ $(http_count "$1") == "$2" ]]; }
states_are() { [[ $(states) == "$1" ]]; }
wait_until() {
  local what=$1 i
  shift
  for ((i = 0; i < 3000; i++)); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.01
  done
  fail "timed out waiting for $what"
}
NOTIFY_PIDS=()
stop_servers() {
  local p
  for p in "${NOTIFY_PIDS[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
  for p in ${HTTP_PID:-} ${SMTP_PID:-}; do kill "$p" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap stop_servers EXIT
