#!/usr/bin/env bash
# tests/tools/http_server_test.sh: check every scripted mode of
# http_server.py (tests/tools/README.md) with curl(1), including the
# request counts tests rely on.  ctest runs it as tools.http_server.
# Exit status: 0 all passed, 1 a check failed, 77 python3, curl or openssl
# missing (ctest: skipped).
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
  local f
  for f in "$work"/*.err; do
    [[ -f $f ]] && { echo "--- $f" >&2; cat "$f" >&2; }
  done
  exit 1
}

# start NAME ARGS...: run a server in the background, set $port.
start() { start_server "$1" python3 "$here/http_server.py" --lifetime 120 "${@:2}"; }

mkdir -p "$work/root"
printf 'invoice_number,gross\nA-1,10.00\nA-2,20.00\n' >"$work/root/day.csv"
printf 'invoice_number,gross\nB-1,99.00\n' >"$work/root/other.csv"

# --- refusals -----------------------------------------------------------
rc=0
python3 "$here/http_server.py" --root "$work/root" --host 0.0.0.0 \
  --lifetime 5 >/dev/null 2>&1 || rc=$?
[[ $rc -eq 64 ]] || fail "a non-loopback --host gave $rc, not 64"
pass "refuses a non-loopback address"

# --- plain HTTP, scripted -----------------------------------------------
start plain --root "$work/root" --script '{
  "/day.csv": ["503", "503", "200"],
  "/slow.csv": ["429"],
  "/later.csv": ["503:5"],
  "/auth.csv": ["401"],
  "/cut.csv": ["cut"],
  "/stall.csv": ["stall:20"],
  "/swap.csv": ["as:other.csv"],
  "/drop.csv": ["drop"],
  "/moved.csv": ["redirect:/other.csv", "redirect:/other.csv"],
  "/hook": ["500", "500", "200", "400"]}'
cp "$work/root/day.csv" "$work/root/cut.csv"
cp "$work/root/day.csv" "$work/root/stall.csv"
base="http://127.0.0.1:$port"
# get ARGS...: the status; body and headers in $work/body, $work/headers.
get() {
  rm -f "$work/body"
  : >"$work/body"
  curl -sS -o "$work/body" -D "$work/headers" -w '%{http_code}' "$@" \
    2>>"$work/curl.err"
}
count() { curl -sS "$base/_count?path=$1"; }

codes=""
for _ in 1 2 3 4; do codes+="$(get "$base/day.csv") "; done
[[ $codes == "503 503 200 200 " ]] || fail "503 twice then 200: got $codes"
cmp -s "$work/body" "$work/root/day.csv" || fail "200 body differs"
[[ $(count /day.csv) == 4 ]] || fail "count of /day.csv is not 4"
[[ $(count /never.csv) == 0 ]] || fail "count of an unasked path is not 0"
pass "503 twice then 200, four requests counted"

[[ $(get "$base/slow.csv") == 429 ]] || fail "no 429"
grep -qi '^Retry-After: 1' "$work/headers" || fail "429 without Retry-After: 1"
[[ $(get "$base/later.csv") == 503 ]] || fail "no 503:5"
grep -qi '^Retry-After: 5' "$work/headers" || fail "503:5 without Retry-After"
pass "429 with Retry-After: 1, 503 with a scripted Retry-After"

[[ $(get "$base/auth.csv") == 401 ]] || fail "no 401"
grep -qi '^WWW-Authenticate: Basic' "$work/headers" || fail "401 without WWW-Authenticate"
[[ $(get "$base/nothere.csv") == 404 ]] || fail "no 404 for a missing file"
pass "401 and 404"

rc=0
get "$base/cut.csv" >/dev/null || rc=$?
[[ $rc -eq 18 ]] || fail "cut body: curl exit $rc, not 18"
[[ $(get "$base/cut.csv") == 200 ]] || fail "cut did not happen only once"
cmp -s "$work/body" "$work/root/cut.csv" || fail "after the cut, body differs"
pass "a body cut in the middle once (curl 18), then whole"

rc=0
get --speed-limit 1 --speed-time 1 "$base/stall.csv" >/dev/null || rc=$?
[[ $rc -eq 28 ]] || fail "stall: curl exit $rc, not 28 (low-speed limit)"
pass "stall: headers then silence, the client's low-speed limit fires"

rc=0
get "$base/drop.csv" >/dev/null || rc=$?
[[ $rc -eq 52 ]] || fail "drop: curl exit $rc, not 52 (empty reply)"
pass "drop: connection closed without an answer"

[[ $(get "$base/moved.csv") == 302 ]] || fail "redirect: no 302"
grep -qi '^Location: /other.csv' "$work/headers" || fail "redirect: no Location"
[[ $(get -L "$base/moved.csv") == 200 ]] || fail "redirect: -L did not follow"
cmp -s "$work/body" "$work/root/other.csv" || fail "redirect: not the target"
[[ $(get "$base/moved.csv") == 404 ]] || fail "redirect: script not used up"
pass "redirect:TARGET answers 302 with Location"

[[ $(get "$base/swap.csv") == 200 ]] || fail "as: no 200"
cmp -s "$work/body" "$work/root/other.csv" || fail "as: not other.csv's body"
pass "as:FILE serves another file under this path"

# Content changed between two requests: a new ETag and body.
get "$base/day.csv" >/dev/null
etag1=$(tr -d '\r' <"$work/headers" | sed -n 's/^ETag: //Ip')
lm1=$(tr -d '\r' <"$work/headers" | sed -n 's/^Last-Modified: //Ip')
[[ -n $etag1 && -n $lm1 ]] || fail "no ETag or Last-Modified"
[[ $(get -H "If-None-Match: $etag1" "$base/day.csv") == 304 ]] ||
  fail "If-None-Match with the current ETag did not give 304"
[[ ! -s $work/body ]] || fail "304 with a body"
[[ $(get -H "If-Modified-Since: $lm1" "$base/day.csv") == 304 ]] ||
  fail "If-Modified-Since with the current date did not give 304"
printf 'invoice_number,gross\nA-1,11.00\n' >"$work/root/day.csv"
[[ $(get -H "If-None-Match: $etag1" "$base/day.csv") == 200 ]] ||
  fail "a changed file still gave 304"
cmp -s "$work/body" "$work/root/day.csv" || fail "changed body not served"
etag2=$(tr -d '\r' <"$work/headers" | sed -n 's/^ETag: //Ip')
[[ $etag2 != "$etag1" ]] || fail "ETag unchanged after a change"
curl -sS "$base/_requests?path=/day.csv" | grep -q '"status": 304, "bytes": 0' ||
  fail "/_requests does not show the 304"
pass "ETag/Last-Modified, 304 on If-None-Match and If-Modified-Since, change detected"

# Webhook mode.
statuses=""
for i in 1 2 3 4; do
  statuses+="$(curl -sS -o /dev/null -w '%{http_code}' -X POST \
    -H 'Content-Type: application/json' -H "Idempotency-Key: key-$i" \
    --data "{\"n\":$i}" "$base/hook") "
done
[[ $statuses == "500 500 200 400 " ]] || fail "webhook statuses: $statuses"
posts=$(curl -sS "$base/_requests?path=/hook")
for i in 1 2 3 4; do
  grep -q "\"Idempotency-Key\": \"key-$i\"" <<<"$posts" || fail "key-$i not recorded"
  grep -q "\"body\": \"{\\\\\"n\\\\\":$i}\"" <<<"$posts" || fail "body $i not recorded"
done
[[ $(count /hook) == 4 ]] || fail "webhook count is not 4"
pass "webhook: 500 twice, 200, 400; bodies and Idempotency-Keys recorded"

# Control endpoints: a new script at run time, then a reset.
curl -sS -X POST --data '{"/day.csv": ["410"]}' "$base/_script" >/dev/null
[[ $(get "$base/day.csv") == 410 ]] || fail "/_script did not take"
curl -sS -X POST "$base/_reset" >/dev/null
[[ $(count /day.csv) == 0 ]] || fail "/_reset did not clear the counts"
pass "/_script and /_reset"

# --- HTTPS with a generated CA ------------------------------------------
start tls --root "$work/root" --tls --tls-dir "$work/tls"
[[ -s $work/tls/ca.pem && -s $work/tls/other-ca.pem ]] || fail "no CA files"
tbase="https://127.0.0.1:$port"
[[ $(get --cacert "$work/tls/ca.pem" "$tbase/day.csv") == 200 ]] ||
  fail "HTTPS with the right CA failed"
[[ $(get --cacert "$work/tls/ca.pem" "https://localhost:$port/day.csv") == 200 ]] ||
  fail "HTTPS by the name localhost failed"
rc=0
get --cacert "$work/tls/other-ca.pem" "$tbase/day.csv" >/dev/null || rc=$?
[[ $rc -eq 60 ]] || fail "wrong CA: curl exit $rc, not 60"
[[ $(curl -sS --cacert "$work/tls/ca.pem" "$tbase/_count?path=/day.csv") == 2 ]] ||
  fail "the refused handshake was counted as a request"
pass "HTTPS: the generated CA is trusted, another CA refused (curl 60)"

# --- lifetime -------------------------------------------------------------
python3 "$here/http_server.py" --root "$work/root" --lifetime 1 \
  >/dev/null 2>&1 &
life=$!
pids+=("$life")
for ((i = 0; i < 50; i++)); do
  kill -0 "$life" 2>/dev/null || break
  sleep 0.1
done
kill -0 "$life" 2>/dev/null && fail "--lifetime 1 did not stop the server"
pass "--lifetime stops the server by itself"

echo "all http_server checks passed"
