#!/usr/bin/env bash
# HTTPS feeds: the server's certificate is verified against
# --cacert (or the [load] section of a --config file, mode 0600); a CA that
# did not sign it, or the system's CAs, refuse the server as a
# configuration error (exit 78) before any request reaches it, nothing
# registered.  Credentials come from a netrc file the config file names,
# and no line shows them.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/feed_lib.sh"

register_source acme-erp --start-date 2026-11-28
start_tls_server
f=$(feed_sample 2026-11-28)
sha=$(sha256sum "$WWW/$f" | cut -d' ' -f1)

# wrong_ca ARGS...: refused as configuration, no request served.
wrong_ca() {
  fload --source acme-erp --business-date 2026-11-28 --input "$BASE/$f" "$@"
  expect_rc 78
  expect_eq "wrong CA: requests" 0 "$(requests "/$f")"
  grep -q 'step failed; retrying' "$WORK/err" && fail "a certificate failure was retried"
  nothing_registered
}
wrong_ca --cacert "$WORK/tls/other-ca.pem"
expect_output_has "not retried, nothing was registered"
wrong_ca   # the system's CAs do not know the test CA either

# The wrong CA in the config file: the same.
printf '[load]\ncacert = %s\n' "$WORK/tls/other-ca.pem" >"$WORK/loader.conf"
chmod 600 "$WORK/loader.conf"
set +e
"$INVOICE_LOADER" --dsn "dbname=$E2E_DB user=invoice_loader" --config "$WORK/loader.conf" \
  load --spool-dir "$SPOOL" --source acme-erp --business-date 2026-11-28 --input "$BASE/$f" \
  >"$WORK/out" 2>"$WORK/err"
RC=$?
set -e
expect_rc 78
nothing_registered

# The right CA from the config file: published.
printf '[load]\ncacert = %s\n' "$WORK/tls/ca.pem" >"$WORK/loader.conf"
set +e
"$INVOICE_LOADER" --dsn "dbname=$E2E_DB user=invoice_loader" --config "$WORK/loader.conf" \
  load --spool-dir "$SPOOL" --source acme-erp --business-date 2026-11-28 --input "$BASE/$f" \
  >"$WORK/out" 2>"$WORK/err"
RC=$?
set -e
expect_rc 0
expect_eq "config: requests" 1 "$(requests "/$f")"
one_published 2026-11-28 "$sha"

# --cacert on the command line: the next day, over the same server.
g=$(feed_sample 2026-11-29)
fload --source acme-erp --business-date 2026-11-29 --input "$BASE/$g" --cacert "$WORK/tls/ca.pem"
expect_rc 0
expect_eq "--cacert: requests" 1 "$(requests "/$g")"
expect_eq "--cacert: batch" "published|$(sha256sum "$WWW/$g" | cut -d' ' -f1)" \
  "$(q "select state || '|' || sha256 from ingest.batch where business_date = '2026-11-29'")"
expect_eq "watermark" 2026-11-29 "$(watermark_of acme-erp)"
expect_eq "notifications" 2 "$(notifications batch_published)"
check_invariants

# Credentials from a netrc file named in the config file (top-level lines
# serve every command that has the option): the request carries them, no
# line shows them, even with -v.
printf 'machine 127.0.0.1 login feeduser password s3cr3tXY\n' >"$WORK/netrc"
chmod 600 "$WORK/netrc"
printf 'netrc-file = %s\ncacert = %s\n' "$WORK/netrc" "$WORK/tls/ca.pem" >"$WORK/loader.conf"
h=$(feed_sample 2026-11-30)
set +e
"$INVOICE_LOADER" -v --dsn "dbname=$E2E_DB user=invoice_loader" --config "$WORK/loader.conf" \
  load --spool-dir "$SPOOL" --source acme-erp --business-date 2026-11-30 --input "$BASE/$h" \
  >"$WORK/out" 2>"$WORK/err"
RC=$?
set -e
expect_rc 0
expect_eq "netrc: Authorization sent" "[present]" \
  "$("${HTTP_CURL[@]}" "$BASE/_requests?path=/$h" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["headers"].get("Authorization", "none"))')"
grep -q 's3cr3tXY\|feeduser' "$WORK/out" "$WORK/err" && fail "a credential is shown"
expect_eq "netrc: watermark" 2026-11-30 "$(watermark_of acme-erp)"
expect_eq "netrc: notifications" 3 "$(notifications batch_published)"
check_invariants
