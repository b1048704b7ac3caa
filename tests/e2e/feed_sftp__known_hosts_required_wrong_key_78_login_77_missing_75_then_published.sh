#!/usr/bin/env bash
# sftp:// feeds (docs/guide/set-up-a-source.md, "Feeds"), against a
# loopback SFTP server (tests/tools/sftp_server.py, paramiko) with one user,
# counted by the server's log: without a known_hosts file the loader
# refuses before connecting (78); a host key that known_hosts does not
# hold is refused as configuration (78) before any login; a wrong password
# from the netrc file is a credential (77) after one login; a missing file
# is not delivered yet (75); none of these is retried.  A server that
# never answers is retried by the one retry layer, one connection a try,
# until the budget is spent (75).  Nothing is registered by any of them.
# The right ones publish the sample batch, one open of the file and one of
# its manifest; a rerun of the same URL publishes nothing new; catch-up
# works through an sftp feed URL template.  No line shows the password or
# the URL's user.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/feed_lib.sh"

register_source acme-erp --start-date 2026-11-28
f=$(feed_sample 2026-11-28)
sha=$(sha256sum "$WWW/$f" | cut -d' ' -f1)

# The loader reads known_hosts from $HOME/.ssh only.
export HOME=$WORK/home
mkdir -p "$HOME/.ssh"
password='s3cret feed pass'
printf 'feeduser\n%s\n' "$password" >"$WORK/sftp.credentials"
printf 'machine 127.0.0.1 login feeduser password "%s"\n' "$password" >"$WORK/netrc"
printf 'machine 127.0.0.1 login feeduser password "not the one"\n' >"$WORK/netrc.wrong"
chmod 600 "$WORK/netrc" "$WORK/netrc.wrong"

# Debian's python3-paramiko is for Debian's python3 (scripts/install-deps.sh).
/usr/bin/python3 "$REPO/tests/tools/sftp_server.py" --root "$WWW" \
  --credentials "$WORK/sftp.credentials" --known-hosts "$WORK/server.known_hosts" \
  --port 0 --lifetime 300 --log "$WORK/sftp.log" >"$WORK/sftp.port" 2>"$WORK/sftp.err" &
SFTP_PID=$!
# (no HTTP server here: this replaces feed_lib.sh's trap)
STALL_PID=''
trap 'kill "$SFTP_PID" ${STALL_PID:+"$STALL_PID"} 2>/dev/null || true; rm -rf "$WORK"' EXIT
port=$(port_of sftp)
url=sftp://feeduser@127.0.0.1:$port/$f

# events KIND [FIELD VALUE]: how many events of that kind the server logged.
events() {
  local n
  n=$(grep -c "\"event\": \"$1\"${2:+.*\"$2\": $3}" "$WORK/sftp.log" 2>/dev/null) || true
  echo "${n:-0}"
}
sload() { fload --source acme-erp --business-date "$1" --input "$2" --netrc-file "$3" --retry-budget 60; }
not_retried() {
  grep -q 'step failed; retrying' "$WORK/err" && fail "$1 was retried"
  grep -qF "$password" "$WORK/out" "$WORK/err" && fail "$1: the password is shown"
  grep -q feeduser "$WORK/out" "$WORK/err" && fail "$1: the URL's user is shown"
  return 0
}

# No known_hosts at all: refused before any connection.
sload 2026-11-28 "$url" "$WORK/netrc"
expect_rc 78
expect_output_has "sftp needs a readable known_hosts file"
expect_eq "no known_hosts: connections" 0 "$(events connect)"
not_retried "no known_hosts"
nothing_registered

# known_hosts holds another key for this host and port: refused as
# configuration, before any login.
/usr/bin/python3 -c 'import paramiko, sys
print(f"[127.0.0.1]:{sys.argv[1]} ssh-rsa {paramiko.RSAKey.generate(2048).get_base64()}")' \
  "$port" >"$HOME/.ssh/known_hosts"
sload 2026-11-28 "$url" "$WORK/netrc"
expect_rc 78
expect_eq "wrong host key: connections" 1 "$(events connect)"
expect_eq "wrong host key: logins" 0 "$(events login)"
not_retried "a wrong host key"
nothing_registered

# The right key, the wrong password: one login, refused, a credential.
cp "$WORK/server.known_hosts" "$HOME/.ssh/known_hosts"
sload 2026-11-28 "$url" "$WORK/netrc.wrong"
expect_rc 77
expect_eq "wrong password: connections" 2 "$(events connect)"
expect_eq "wrong password: failed logins" 1 "$(events login ok false)"
expect_eq "wrong password: opens" 0 "$(events open)"
not_retried "a wrong password"
nothing_registered

# A file that is not there (yet): not delivered, 75.
sload 2026-11-29 "sftp://feeduser@127.0.0.1:$port/acme-erp_2026-11-29.csv" "$WORK/netrc"
expect_rc 75
expect_output_has "not delivered yet"
expect_eq "missing file: opens" 1 "$(events open ok false)"
not_retried "a missing file"
nothing_registered

# A server that accepts and never speaks (hung before its SSH banner):
# each try ends at --connect-timeout, and the one retry layer tries again
# until the budget is spent (75): one connection per try, counted by the
# server, nothing registered.
/usr/bin/python3 "$REPO/tests/tools/sftp_server.py" --stall --root "$WWW" \
  --credentials "$WORK/sftp.credentials" --known-hosts "$WORK/stall.known_hosts" \
  --port 0 --lifetime 300 --log "$WORK/stall.log" >"$WORK/stall.port" 2>"$WORK/stall.err" &
STALL_PID=$!
stall_port=$(port_of stall)
fload --source acme-erp --business-date 2026-11-28 --netrc-file "$WORK/netrc" \
  --input "sftp://feeduser@127.0.0.1:$stall_port/$f" --connect-timeout 1 --retry-budget 5
expect_rc 75
expect_output_has "retry budget exhausted"
retries=$(grep -c 'step=download try=' "$WORK/err") || true
((retries >= 1)) || fail "a hung server was not retried"
expect_eq "hung server: connections (one per try)" $((retries + 1)) \
  "$(grep -c '"event": "connect"' "$WORK/stall.log")"
grep -qF "$password" "$WORK/out" "$WORK/err" && fail "hung server: the password is shown"
nothing_registered

# The right ones: the file and its manifest, once each; published.
sload 2026-11-28 "$url" "$WORK/netrc"
expect_rc 0
expect_eq "opens of the file" 1 "$(grep -c "\"path\": \"/$f\", \"ok\": true" "$WORK/sftp.log")"
expect_eq "opens of the manifest" 1 \
  "$(grep -c "\"path\": \"/$f.manifest.json\", \"ok\": true" "$WORK/sftp.log")"
not_retried "the load"
one_published 2026-11-28 "$sha"
expect_eq "batch file name" "$f" "$(q 'select file_name from ingest.batch')"

# The same URL again: sftp has no conditional request, so the file is
# fetched again; its bytes are the published batch, so nothing new.
sload 2026-11-28 "$url" "$WORK/netrc"
expect_rc 0
expect_eq "rerun: opens of the file" 2 "$(grep -c "\"path\": \"/$f\", \"ok\": true" "$WORK/sftp.log")"
not_retried "the rerun"
one_published 2026-11-28 "$sha"

# catch-up through an sftp feed URL template (a second source): both
# dates, in order, one open each.
for d in 2026-11-28 2026-11-29; do sample_for acme-sftp "$WWW/feed" "$d" >/dev/null; done
register_source acme-sftp --start-date 2026-11-28 \
  --feed-url "sftp://feeduser@127.0.0.1:$port/feed/acme-erp_{date}.csv"
run invoice_loader catch-up --spool-dir "$SPOOL" --source acme-sftp --until 2026-11-29 \
  --netrc-file "$WORK/netrc"
expect_rc 0
for d in 2026-11-28 2026-11-29; do
  grep -q "^$d published: batch [0-9]* published: 20 records" "$WORK/out" \
    || fail "catch-up: no published line for $d"
  expect_eq "catch-up: opens for $d" 1 \
    "$(grep -c "\"path\": \"/feed/acme-erp_$d.csv\", \"ok\": true" "$WORK/sftp.log")"
done
not_retried "the catch-up"
expect_eq "catch-up: batches" "2026-11-28:published 2026-11-29:published" \
  "$(q "select string_agg(business_date || ':' || state, ' ' order by business_date) from ingest.batch where source = 'acme-sftp'")"
expect_eq "published" "60 invoices, 12600.00 gross" "$(published_state)"
expect_eq "catch-up: watermark" 2026-11-29 "$(watermark_of acme-sftp)"
expect_eq "notifications" 3 "$(notifications batch_published)"
check_invariants
