#!/usr/bin/env bash
# tests/tools/smtp_server_test.sh: check every scripted action of
# smtp_server.py (tests/tools/README.md) with curl(1).  ctest runs it as
# tools.smtp_server.  Exit status: 0 all passed, 1 a check failed, 77
# python3, curl or openssl missing (ctest: skipped).
set -euo pipefail

for tool in python3 curl openssl; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "skipped: $tool is not installed"
    exit 77
  fi
done
# shellcheck source=tests/tools/test_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/test_lib.sh"
fail() {
  echo "FAIL: $*" >&2
  for f in "$work"/*.err "$work"/rec*/log.jsonl; do
    [[ -f $f ]] && { echo "--- $f" >&2; cat "$f" >&2; }
  done
  exit 1
}

# start NAME ARGS...: run a server in the background, set $port.
start() {
  start_server "$1" python3 "$here/smtp_server.py" --lifetime 120 \
    --record-dir "$work/rec-$1" "${@:2}"
}

printf '%s\r\n' "From: loader@example.com" "To: finance@example.com" \
  "Message-ID: <m-1@invoice-loader>" "Subject: test" "" "line one" \
  ".starts with a dot" >"$work/msg"
send() {
  curl -sS --mail-from loader@example.com --mail-rcpt finance@example.com \
    -T "$work/msg" "$@" 2>>"$work/curl.err"
}

rc=0
python3 "$here/smtp_server.py" --record-dir "$work/x" --host 0.0.0.0 \
  --lifetime 5 >/dev/null 2>&1 || rc=$?
[[ $rc -eq 64 ]] || fail "a non-loopback --host gave $rc, not 64"
pass "refuses a non-loopback address"

start plain --script '["accept", "drop_after_data", "reject_rcpt:550",
  "reject_data:554", "reject_mail:451", "drop_before_data"]'
url="smtp://127.0.0.1:$port"
results=""
for _ in 1 2 3 4 5 6 7; do
  rc=0
  send "$url" || rc=$?
  results+="$rc "
done
# curl: 0 ok; 56 recv error (dropped before the 250); 55 RCPT failed;
# 8 weird reply (554 after DATA); 55 MAIL failed; 56/55 dropped on DATA.
read -r -a r <<<"$results"
[[ ${r[0]} == 0 ]] || fail "accept: curl exit ${r[0]}"
[[ ${r[1]} != 0 ]] || fail "drop_after_data: curl succeeded"
[[ ${r[2]} == 55 ]] || fail "reject_rcpt: curl exit ${r[2]}"
[[ ${r[3]} != 0 ]] || fail "reject_data: curl succeeded"
[[ ${r[4]} == 55 ]] || fail "reject_mail: curl exit ${r[4]}"
[[ ${r[5]} != 0 ]] || fail "drop_before_data: curl succeeded"
[[ ${r[6]} == 0 ]] || fail "after the script: curl exit ${r[6]}"
log="$work/rec-plain/log.jsonl"
outcomes=$(python3 -c '
import json, sys
print(" ".join(json.loads(l)["outcome"] for l in open(sys.argv[1])))' "$log")
[[ $outcomes == "accepted dropped rejected rejected rejected dropped accepted" ]] ||
  fail "outcomes: $outcomes"
[[ $(grep -c '"message_id": "<m-1@invoice-loader>"' "$log") == 3 ]] ||
  fail "Message-ID not recorded for the three whole messages"
grep -q '^\.starts with a dot' "$work/rec-plain/0001.eml" ||
  fail "dot-stuffing not undone"
cmp -s <(head -c 20 "$work/msg") <(head -c 20 "$work/rec-plain/0002.eml") ||
  fail "the dropped message was not recorded whole"
pass "accept, drop after DATA (recorded), reject RCPT/DATA/MAIL, drop before DATA"

mkdir -p "$work/tls"
python3 - "$here" "$work/tls" <<'EOF'
import sys
sys.path.insert(0, sys.argv[1])
import http_server
http_server.make_certs(sys.argv[2])
EOF
start tls --tls-dir "$work/tls" --auth 'mailer:pw0rd'
url="smtp://127.0.0.1:$port"
rc=0
send --ssl-reqd --cacert "$work/tls/ca.pem" -u mailer:pw0rd "$url" || rc=$?
[[ $rc -eq 0 ]] || fail "STARTTLS + AUTH: curl exit $rc"
rc=0
send --ssl-reqd --cacert "$work/tls/other-ca.pem" -u mailer:pw0rd "$url" || rc=$?
[[ $rc -eq 60 ]] || fail "STARTTLS with a wrong CA: curl exit $rc, not 60"
rc=0
send --ssl-reqd --cacert "$work/tls/ca.pem" -u mailer:wrong "$url" || rc=$?
[[ $rc -eq 67 ]] || fail "wrong password: curl exit $rc, not 67"
rc=0
send "$url" || rc=$?
[[ $rc -ne 0 ]] || fail "MAIL without AUTH was accepted"
[[ $(grep -c '"outcome": "accepted"' "$work/rec-tls/log.jsonl") == 1 ]] ||
  fail "not exactly one accepted message over TLS"
pass "STARTTLS with the generated CA, AUTH required and checked"

echo "all smtp_server checks passed"
