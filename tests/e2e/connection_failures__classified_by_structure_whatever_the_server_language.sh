#!/usr/bin/env bash
# Connection failures are classified from libpq's structure, never from
# its wording (a translated server must not change the outcome), against a cluster of this test's own whose
# lc_messages is German and whose pg_hba asks role alice for a SCRAM
# password over the unix socket:
#   - a wrong password exits 77 after exactly one attempt (one client
#     backend in the server log, one 28P01), never retried: against an
#     account-lockout policy a second try would lock the account;
#   - no password at all (the server asks, none is there) exits 77, once;
#   - an unknown database exits 78;
#   - gssencmode=require over the unix socket, where libpq cannot have GSS
#     encryption, exits 78, once (libpq gives up before sending a byte);
#   - a malformed DSN, an unknown service (in the DSN or PGSERVICE) and
#     values libpq does not accept (sslmode=bogus, an unknown
#     target_session_attrs, hosts and ports that do not pair up) exit 78
#     with no connection attempt at all;
#   - the right password, through a service file, connects (the premise:
#     the role and pg_hba work).
source "$(dirname "$0")/lib.sh"
: "${TMP_PG_BIN:?needs scripts/with-tmp-pg.sh}"
trap 'own_cluster_stop de; rm -rf "$WORK"' EXIT

ensure_locale de_DE.UTF-8
# %b %p %e first on every line: backend type, pid and SQLSTATE, to count
# connection attempts without reading the (German) message text.
own_cluster de "lc_messages = 'de_DE.UTF-8'" "log_connections = on" \
  "log_line_prefix = '%b %p %e '"
pg() { psql -X -qAt -v ON_ERROR_STOP=1 -h "$OWN_HOST" -p "$OWN_PORT" -U postgres -d postgres "$@"; }
pg -c "create role alice login password 'correct horse'"
{ echo "local all alice scram-sha-256"; cat "$OWN_HOST/data/pg_hba.conf"; } >"$WORK/hba"
as_server cp "$WORK/hba" "$OWN_HOST/data/pg_hba.conf"
pg -c "select pg_reload_conf()" >/dev/null
# The reload is asynchronous: wait until a password is really asked for.
hba_active() { pg -c "select count(*) from pg_hba_file_rules where user_name = '{alice}'" | grep -qx 1; }
wait_for 10 "pg_hba reloaded" hba_active
# The loader refuses a password in --dsn: it comes from a password file
# (or PGPASSWORD, or a service file), as in production.
printf '*:*:*:alice:Tr0ub4dor-9f3\n' >"$WORK/pgpass.bad"
chmod 600 "$WORK/pgpass.bad"
export PGPASSFILE=$WORK/no-pgpass  # no ~/.pgpass may answer for us

log=$OWN_HOST/server.log
# Every accepted connection logs "connection received" (log_connections)
# before it is a client backend: %b is then "not initialized".
backends_now() { grep -c '^not initialized [0-9]* 00000 ' "$log" || true; }
attempts_since() { echo $(( $(backends_now) - $1 )); }
password_failures() { grep -c '^client backend [0-9]* 28P01 FATAL' "$log" || true; }

loader() {
  set +e
  "$INVOICE_LOADER" --dsn "$1" status >"$WORK/out" 2>"$WORK/err"
  RC=$?
  set -e
}
base="host=$OWN_HOST port=$OWN_PORT dbname=postgres"

# The premise: this server answers in German.
set +e
PGPASSWORD=wrong psql -X -h "$OWN_HOST" -p "$OWN_PORT" -U alice -d postgres -c 'select 1' \
  >/dev/null 2>"$WORK/psql.err"
set -e
grep -q "Passwort-Authentifizierung" "$WORK/psql.err" \
  || fail "the server does not answer in German: $(cat "$WORK/psql.err")"

# Wrong password: 77, one attempt, one 28P01.
before=$(backends_now)
failed_before=$(password_failures)
PGPASSFILE=$WORK/pgpass.bad loader "$base user=alice"
expect_rc 77
expect_output_has "28P01"
grep -q "retrying" "$WORK/err" && fail "a wrong password was retried"
grep -q "Tr0ub4dor" "$WORK/out" "$WORK/err" && fail "the password was printed"
expect_eq "connection attempts for a wrong password" 1 "$(attempts_since "$before")"
expect_eq "failed password checks" $((failed_before + 1)) \
  "$(password_failures)"

# No password available although the server asks for one: 77, once.
before=$(backends_now)
loader "$base user=alice"
expect_rc 77
expect_eq "connection attempts without a password" 1 "$(attempts_since "$before")"

# Unknown role (28000 from the server): 77, once.
before=$(backends_now)
loader "$base user=nobody"
expect_rc 77
expect_output_has "28000"
expect_eq "connection attempts for an unknown role" 1 "$(attempts_since "$before")"

# Unknown database (3D000): 78, once.
before=$(backends_now)
loader "host=$OWN_HOST port=$OWN_PORT dbname=no_such_db user=postgres"
expect_rc 78
expect_output_has "3D000"
expect_eq "connection attempts for an unknown database" 1 "$(attempts_since "$before")"

# GSS encryption required over the unix socket: 78, once.
before=$(backends_now)
loader "$base user=postgres gssencmode=require"
expect_rc 78
expect_output_has "GSSAPI encryption required"
expect_eq "connection attempts requiring GSS over a socket" 1 "$(attempts_since "$before")"

# Malformed DSNs, unknown services and values libpq does not accept: 78,
# nothing reaches the server.
cat >"$WORK/pg_service.conf" <<EOF
[known]
host=$OWN_HOST
port=$OWN_PORT
dbname=postgres
user=alice
EOF
export PGSERVICEFILE=$WORK/pg_service.conf
before=$(backends_now)
for dsn in "$base user=alice colour=red" "$base user='alice" "postgresql://[::1" \
           "service=unknown" "service=unknown $base" \
           "$base user=alice sslmode=bogus" "$base user=alice target_session_attrs=sometimes" \
           "host=$OWN_HOST,$OWN_HOST,$OWN_HOST port=$OWN_PORT,$OWN_PORT dbname=postgres user=alice"; do
  loader "$dsn"
  expect_rc 78
done
PGSERVICE=unknown loader ""
expect_rc 78
expect_eq "connection attempts for malformed DSNs, unknown services and refused values" 0 \
  "$(attempts_since "$before")"

# The right password through the known service connects (the server has no
# loader schema, so status fails after connecting, with a SQL error, not
# a connection error).
before=$(backends_now)
PGPASSWORD='correct horse' loader "service=known"
grep -q "cannot connect" "$WORK/err" && fail "the right password did not connect: $(cat "$WORK/err")"
expect_eq "connection attempts with the right password" 1 "$(attempts_since "$before")"
# ...and the wrong one through the same service: 77, once.
before=$(backends_now)
PGPASSWORD=wrong loader "service=known"
expect_rc 77
expect_eq "connection attempts for a wrong password from a service" 1 "$(attempts_since "$before")"

# The main cluster is untouched by all this.
expect_eq "main cluster batches" 0 "$(q 'select count(*) from ingest.batch')"
