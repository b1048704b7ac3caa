#!/usr/bin/env bash
# libpq is compiled into the loader and opens MIT Kerberos's GSSAPI and
# OpenLDAP only when it first calls them (loader/src/db/pq_lazy.cpp,
# INVOICE_LOADER_STATIC_LIBPQ).  In a private mount namespace where both
# libraries are unreadable (/dev/null bound over them; root needed):
#   - a load over the Unix socket publishes, and nothing says a library is
#     missing: neither is ever opened;
#   - `status` over TCP (the fault proxy, passing everything) connects:
#     libpq asks GSSAPI for a Kerberos ticket there, the stand-in says once
#     which library is missing and which package has it (a line of the
#     run's log: its run id; with --log-format json, JSON like every other
#     line), and libpq goes on without GSS encryption as it would without
#     a ticket;
#   - with gssencmode=require the connection is refused, and the refusal
#     carries libpq's reason (exit 78: configuration, since no wait brings
#     GSS encryption where it cannot be had);
#   - an ldap:// line of pg_service.conf fails with libpq's "could not
#     create LDAP structure" and the missing library named (exit 78, a
#     configuration for a person to fix);
# and outside the namespace the same TCP `status` opens GSSAPI quietly,
# and a load with gssencmode=require and no Kerberos ticket exits 78
# after one connection to the proxy, not retried.
source "$(dirname "$0")/lib.sh"
[[ $EUID -eq 0 ]] || fail "needs root: the libraries are hidden in a private mount namespace"
command -v unshare >/dev/null || fail "needs unshare(1) (util-linux)"
trap '[[ -n ${PROXY_PID:-} ]] && kill "$PROXY_PID" 2>/dev/null; rm -rf "$WORK"' EXIT

gssapi=$(readlink -f /lib/x86_64-linux-gnu/libgssapi_krb5.so.2)
ldap=$(readlink -f /lib/x86_64-linux-gnu/libldap-2.5.so.0)
[[ -f $gssapi && -f $ldap ]] || fail "no GSSAPI or LDAP library to hide ($gssapi, $ldap)"

# at DSN ARGS...: the loader with DSN, as it is; hidden DSN ARGS...: the
# same with both libraries unreadable.  RC, $WORK/out and $WORK/err as
# run() keeps them.
wrap=()
at() {
  local dsn=$1; shift
  set +e
  "${wrap[@]}" "$INVOICE_LOADER" --dsn "$dsn" "$@" >"$WORK/out" 2>"$WORK/err"
  RC=$?
  set -e
}
hidden() {
  # shellcheck disable=SC2016  # $1, $2 and $@ are the inner bash's
  wrap=(unshare --mount --propagation private -- bash -c '
    mount --bind /dev/null "$1" && mount --bind /dev/null "$2" || exit 90
    shift 2
    exec "$@"' _ "$gssapi" "$ldap")
  at "$@"
  wrap=()
  [[ $RC != 90 ]] || fail "could not bind /dev/null over the libraries"
}
# lines of the run's log (the run id first) naming the library and package
missing_gssapi() { grep -c "run=[0-9a-f-]* .*cannot load libgssapi_krb5.so.2 .*install libgssapi-krb5-2" "$WORK/err" || true; }
missing_ldap() { grep -c "run=[0-9a-f-]* .*cannot load libldap-2.5.so.0 .*install libldap-2.5-0" "$WORK/err" || true; }

# 1. A load over the Unix socket: published, no library opened.
register_source acme-erp --start-date 2026-11-28
csv=$(sample "$WORK/in")
hidden "dbname=$E2E_DB user=invoice_loader" load --source acme-erp \
  --business-date 2026-11-28 --input "$csv"
expect_rc 0
expect_eq "missing-library lines of the socket load" 0 "$(( $(missing_gssapi) + $(missing_ldap) ))"
on() { psql -X -qAt -v ON_ERROR_STOP=1 -d "$E2E_DB" "$@"; }
expect_one_publication "socket load without GSSAPI and LDAP" on acme-erp 20 4200.00 2026-11-28
check_invariants

# 2. Over TCP: libpq looks for a Kerberos ticket; without GSSAPI it goes on.
start_fault_proxy
tcp="host=127.0.0.1 port=$PROXY_PORT dbname=$E2E_DB user=invoice_loader"
hidden "$tcp" status
expect_rc 0
expect_output_has "acme-erp"
expect_eq "GSSAPI named as missing, once" 1 "$(missing_gssapi)"
expect_eq "LDAP never asked for" 0 "$(missing_ldap)"
hidden "$tcp" --log-format json status
expect_rc 0
python3 - "$WORK/err" <<'PY' || fail "the JSON log does not report the missing GSSAPI once, as JSON"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]  # every line JSON
hits = [l for l in lines if "cannot load libgssapi_krb5.so.2" in l["msg"]]
assert len(hits) == 1 and hits[0]["run_id"] and hits[0]["level"] == "warn", lines
PY

# 3. GSS encryption required: refused, with libpq's reason.
hidden "$tcp gssencmode=require" status
expect_rc 78
expect_output_has "GSSAPI encryption required"
expect_eq "GSSAPI named as missing (require)" 1 "$(missing_gssapi)"

# 4. An ldap:// service line: libpq cannot look it up, and says so.
printf '[ldapsvc]\nldap://127.0.0.1:9/dc=example,dc=invalid?description?one?(cn=x)\n' \
  >"$WORK/pg_service.conf"
PGSERVICEFILE=$WORK/pg_service.conf hidden "service=ldapsvc" status
expect_rc 78
expect_output_has "could not create LDAP structure"
expect_eq "LDAP named as missing" 1 "$(missing_ldap)"

# 5. The control: outside the namespace the TCP status opens GSSAPI quietly.
run invoice_loader status  # (socket: the premise that status works at all)
expect_rc 0
at "$tcp" status
expect_rc 0
expect_eq "missing-library lines with both libraries present" 0 \
  "$(( $(missing_gssapi) + $(missing_ldap) ))"
# GSSAPI present, no ticket (KRB5CCNAME names an empty cache): a load that
# requires GSS encryption stops at once, configuration, one connection.
accepted() { grep -c "accepted from" "$PROXY_LOG" || true; }
before=$(accepted)
KRB5CCNAME=FILE:$WORK/no-such-ccache at "$tcp gssencmode=require" load \
  --source acme-erp --business-date 2026-11-29 --input "$csv"
expect_rc 78
expect_output_has "GSSAPI encryption required"
grep -q "retrying" "$WORK/err" && fail "gssencmode=require without a ticket was retried"
expect_eq "proxy connections for the load that requires GSS" 1 "$(( $(accepted) - before ))"

# The database after all of it: still the one publication.
expect_one_publication "after the connection attempts" on acme-erp 20 4200.00 2026-11-28
check_invariants
echo "ok: socket load and TCP status without GSSAPI and LDAP, require and ldap:// refused with the library named"
