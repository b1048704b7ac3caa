#!/usr/bin/env bash
# tests/tools/sftp_server_test.sh: check sftp_server.py (tests/tools/
# README.md) with curl(1): a read, a missing file, a wrong password, a path
# outside the root, a write, a host key known_hosts does not hold, --stall,
# and its refusal of a non-loopback address, each with what the log says.  ctest
# runs it as tools.sftp_server.  Exit status: 0 all passed, 1 a check
# failed, 77 curl or Debian's python3-paramiko missing (ctest: skipped).
set -euo pipefail

if ! command -v curl >/dev/null 2>&1; then
  echo "skipped: curl is not installed"
  exit 77
fi
if ! /usr/bin/python3 -c 'import paramiko' 2>/dev/null; then
  echo "skipped: python3-paramiko is not installed (scripts/install-deps.sh)"
  exit 77
fi
# shellcheck source=tests/tools/test_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/test_lib.sh"
fail() {
  echo "FAIL: $*" >&2
  for f in "$work"/*.err "$work"/*.jsonl; do
    [[ -f $f ]] && { echo "--- $f" >&2; cat "$f" >&2; }
  done
  exit 1
}

mkdir -p "$work/root/in" "$work/home/.ssh" "$work/other-home/.ssh"
echo 'a,b' >"$work/root/in/day.csv"
echo 'not served' >"$work/secret.txt"
printf 'tester\npass word\n' >"$work/credentials"

# A non-loopback address is refused before anything listens.
set +e
/usr/bin/python3 "$here/sftp_server.py" --root "$work/root" --credentials "$work/credentials" \
  --known-hosts "$work/kh" --host 0.0.0.0 >/dev/null 2>"$work/refused.err"
rc=$?
set -e
[[ $rc == 64 ]] || fail "--host 0.0.0.0: exit $rc, expected 64"
[[ ! -e $work/kh ]] || fail "--host 0.0.0.0 wrote a known_hosts line"
pass "a non-loopback address is refused (64)"

# serve NAME ARGS...: a server of the test's root and user, set $port.
serve() {
  start_server "$1" /usr/bin/python3 "$here/sftp_server.py" --root "$work/root" \
    --credentials "$work/credentials" --lifetime 120 "${@:2}"
}

serve server --known-hosts "$work/home/.ssh/known_hosts" --log "$work/log.jsonl"
grep -q "^\[127.0.0.1\]:$port ssh-rsa " "$work/home/.ssh/known_hosts" \
  || fail "no known_hosts line for [127.0.0.1]:$port"
base=sftp://127.0.0.1:$port

# fetch HOME USERPASS PATH: curl's exit status; the body in $work/body.
fetch() {
  set +e
  HOME=$1 curl -sS --max-time 20 -u "$2" -o "$work/body" "$base/$3" 2>"$work/curl.err"
  echo $?
  set -e
}
count() { grep -c "$1" "$work/log.jsonl" || true; }

[[ $(fetch "$work/home" 'tester:pass word' in/day.csv) == 0 ]] || fail "read: $(cat "$work/curl.err")"
[[ $(cat "$work/body") == 'a,b' ]] || fail "read: wrong body"
[[ $(count '"path": "/in/day.csv", "ok": true') == 1 ]] || fail "read: not logged once"
pass "a read, logged"

[[ $(fetch "$work/home" 'tester:pass word' in/nope.csv) == 78 ]] || fail "missing file: not curl 78"
[[ $(count '"path": "/in/nope.csv", "ok": false') == 1 ]] || fail "missing file: not logged"
pass "a missing file is curl 78 (remote file not found)"

[[ $(fetch "$work/home" 'tester:wrong' in/day.csv) == 67 ]] || fail "wrong password: not curl 67"
[[ $(count '"event": "login", "user": "tester", "ok": false') == 1 ]] \
  || fail "wrong password: not logged"
pass "a wrong password is curl 67 (login denied)"

# (A link: curl itself removes ../ from a URL's path.)
ln -s ../../secret.txt "$work/root/in/link.txt"
[[ $(fetch "$work/home" 'tester:pass word' in/link.txt) == 9 ]] || fail "a file outside the root: not curl 9"
[[ $(count '"path": "/in/link.txt", "ok": false') == 1 ]] || fail "a file outside the root: not logged"
pass "a file outside the root is refused (curl 9, access denied)"

set +e
HOME=$work/home curl -sS --max-time 20 -u 'tester:pass word' -T "$work/secret.txt" \
  "$base/in/upload.txt" 2>"$work/curl.err"
rc=$?
set -e
[[ $rc != 0 && ! -e $work/root/in/upload.txt ]] || fail "a write was accepted"
pass "a write is refused (curl $rc)"

cp "$work/home/.ssh/known_hosts" "$work/other-home/.ssh/known_hosts"
/usr/bin/python3 -c 'import paramiko, sys
print(f"[127.0.0.1]:{sys.argv[1]} ssh-rsa {paramiko.RSAKey.generate(2048).get_base64()}")' \
  "$port" >"$work/other-home/.ssh/known_hosts"
logins=$(count '"event": "login"')
[[ $(fetch "$work/other-home" 'tester:pass word' in/day.csv) == 60 ]] || fail "another host key: not curl 60"
[[ $(count '"event": "login"') == "$logins" ]] || fail "another host key: a login was tried"
pass "a host key known_hosts does not hold is curl 60, before any login"

# --stall: the connection is accepted and logged, and nothing comes back.
serve stall --stall --known-hosts "$work/stall.known_hosts" --log "$work/stall.jsonl"
set +e
HOME=$work/home curl -sS --connect-timeout 1 --max-time 20 -u 'tester:pass word' \
  -o /dev/null "sftp://127.0.0.1:$port/in/day.csv" 2>"$work/curl.err"
rc=$?
set -e
[[ $rc == 28 ]] || fail "--stall: curl $rc, expected 28 (timed out)"
[[ $(grep -c '"event": "connect"' "$work/stall.jsonl") == 1 ]] || fail "--stall: the connection is not logged"
pass "--stall accepts, logs and never answers (curl 28)"
