#!/usr/bin/env bash
# Every command but migrate checks the schema first: an
# unmigrated database or one older than the binary exits 78 with "run
# `invoice-loader migrate`", a newer one exits 78 naming both versions;
# --version names the commit and the schema the binary expects, and
# migrate --status lists applied and pending migrations.
source "$(dirname "$0")/lib.sh"

newest=$(basename "$(ls "$REPO"/migrations/*.sql | sort | tail -n 1)" .sql)
previous=$(basename "$(ls "$REPO"/migrations/*.sql | sort | tail -n 2 | head -n 1)" .sql)

run invoice_loader --version
expect_rc 0
expect_output_has "schema $newest"
grep -Eq '^commit [0-9a-f]{7,}' "$WORK/out" || fail "--version has no commit line"
grep -Eq '^libpq [0-9]+\.[0-9]+' "$WORK/out" || fail "--version has no libpq line"

# Unmigrated: a database of the cluster nobody migrated.
bare=${E2E_DB}_bare
psql -X -q -d postgres -c "drop database if exists $bare" -c "create database $bare"
trap 'psql -X -q -d postgres -c "drop database if exists $bare" >/dev/null 2>&1; rm -rf "$WORK"' EXIT
set +e
"$INVOICE_LOADER" --dsn "dbname=$bare" status >"$WORK/out" 2>"$WORK/err"; RC=$?
set -e
expect_rc 78
expect_output_has 'run `invoice-loader migrate`'
"$INVOICE_LOADER" --dsn "dbname=$bare" migrate --status >"$WORK/out" 2>"$WORK/err" ||
  fail "migrate --status on an unmigrated database"
expect_output_has "$newest"
grep -q "^0001_roles_and_schemas.*pending" "$WORK/out" || fail "0001 is not pending"

# Older: migrated up to the migration before the newest (the test hook).
INVOICE_LOADER_TEST_MIGRATE_TO=${previous%%_*} \
  "$INVOICE_LOADER" -q --dsn "dbname=$bare" migrate >/dev/null
expect_eq "applied up to" "${previous%%_*}" \
  "$(psql -X -qAt -d "$bare" -c 'select lpad(max(version)::text, 4, $$0$$) from loader_meta.schema_migration')"
set +e
"$INVOICE_LOADER" --dsn "dbname=$bare user=invoice_loader" load --source acme-erp \
  --business-date 2026-11-28 --input "$(sample "$WORK")" >"$WORK/out" 2>"$WORK/err"; RC=$?
set -e
expect_rc 78
expect_output_has 'run `invoice-loader migrate`'
expect_eq "nothing registered in the older database" 0 \
  "$(psql -X -qAt -d "$bare" -c 'select count(*) from ingest.batch')"
"$INVOICE_LOADER" --dsn "dbname=$bare" migrate --status >"$WORK/out" 2>"$WORK/err"
grep -q "^$newest .*pending" "$WORK/out" || fail "$newest is not listed as pending"
grep -q "^0001_roles_and_schemas .*applied at" "$WORK/out" || fail "0001 is not listed as applied"
expect_output_has "1 pending"

# Migrated to the end, the same command runs.
"$INVOICE_LOADER" -q --dsn "dbname=$bare" migrate >/dev/null
set +e
"$INVOICE_LOADER" --dsn "dbname=$bare user=invoice_loader" status >"$WORK/out" 2>"$WORK/err"; RC=$?
set -e
expect_rc 0

# Newer: a migration this binary does not carry.
q "insert into loader_meta.schema_migration (version, name, sha256) values (9999, '9999_from_the_future.sql', 'x')"
run invoice_loader status
expect_rc 78
expect_output_has "9999_from_the_future is newer than this binary's $newest"
run invoice_operator source add acme-erp
expect_rc 78
expect_eq "no source registered against a newer schema" 0 "$(q 'select count(*) from ingest.source')"
