#!/usr/bin/env bash
# run-sql-tests.sh: the pgTAP suite (tests/sql) against a freshly migrated
# database.
#
# Usage: tests/run-sql-tests.sh [TEST_FILE_OR_DIR...]   (default: all of tests/sql)
#   normally inside a throwaway cluster, as scripts/test.sh does:
#     scripts/with-tmp-pg.sh bash tests/run-sql-tests.sh
#
# Assumes the PG* environment reaches a running cluster where PGUSER is a
# superuser, and the loader binary at ${INVOICE_LOADER:-build/loader/invoice-loader}.
#   1. creates the template database invoice_sqltest_tpl and migrates it with
#      the loader, twice: the second run must be a no-op (schema dump and
#      loader_meta.schema_migration unchanged);
#   2. installs pgTAP (schema tap, usable by every role: tests switch to
#      invoice_loader / invoice_operator / invoice_reader), dblink (schema
#      dblink, superuser only: second sessions) and the helpers
#      (tests/sql/_helpers/*.sql, schema tests);
#   3. creates invoice_sqltest from it (createdb -T) and runs
#      pg_prove --ext .sql -r over every directory of tests/sql but _helpers.
# Every test file runs in its own transaction and rolls back.
# Exit status: pg_prove's (or 1 when the set-up fails).
set -euo pipefail

# Paths given relative to the caller's directory stay valid after the cd.
absolute() {
  if [[ $1 == /* ]]; then printf '%s\n' "$1"; else printf '%s\n' "$PWD/$1"; fi
}
loader=${INVOICE_LOADER:+$(absolute "$INVOICE_LOADER")}
targets=()
for arg in "$@"; do
  targets+=("$(absolute "$arg")")
done

cd "$(dirname "${BASH_SOURCE[0]}")/.."
loader=${loader:-build/loader/invoice-loader}
tpl=invoice_sqltest_tpl
db=invoice_sqltest

if [[ ! -x $loader ]]; then
  echo "run-sql-tests: no loader binary at $loader (build it, or set INVOICE_LOADER)" >&2
  exit 1
fi

psql_tpl=(psql -X -q -v ON_ERROR_STOP=1 -d "$tpl")

PGOPTIONS='-c client_min_messages=warning' dropdb --if-exists "$db"
PGOPTIONS='-c client_min_messages=warning' dropdb --if-exists "$tpl"
createdb "$tpl"

# 1. Migrate, then migrate again: the second run must change nothing.
"$loader" --dsn "dbname=$tpl" migrate
schema_state() {
  # (\restrict lines carry a random key per dump)
  pg_dump --schema-only -d "$tpl" | grep -Ev '^\\(un)?restrict '
  "${psql_tpl[@]}" -A -t -c \
    'select version, name, sha256, applied_at from loader_meta.schema_migration order by version'
}
before=$(schema_state)
"$loader" --dsn "dbname=$tpl" migrate
after=$(schema_state)
if [[ $before != "$after" ]]; then
  echo "run-sql-tests: a second migrate changed the database:" >&2
  diff <(printf '%s\n' "$before") <(printf '%s\n' "$after") >&2 || true
  exit 1
fi

# 1b. The schema as migrate leaves it, against the committed
#     tests/schema.sql: drift shows in review.  Function bodies are left out
#     (their source is sql/, one file each); signatures, owners, grants,
#     tables, constraints, indexes and views stay.  After an intended change:
#     UPDATE_SCHEMA=1 tests/run-sql-tests.sh (inside scripts/with-tmp-pg.sh).
schema_dump() {
  pg_dump --schema-only --no-comments -d "$tpl" |
    grep -Ev '^\\(un)?restrict |^-- Dumped (from|by) ' |
    awk '/^    AS \$[A-Za-z_]*\$$/ { print "    AS <body in sql/>"; skip = 1; next }
         skip && /^\$[A-Za-z_]*\$;$/ { skip = 0; print ";"; next }
         !skip'
}
if [[ ${UPDATE_SCHEMA:-} == 1 ]]; then
  schema_dump >tests/schema.sql
  echo "run-sql-tests: tests/schema.sql rewritten"
elif ! diff -u tests/schema.sql <(schema_dump) >"${TMPDIR:-/tmp}/schema.diff.$$"; then
  echo "run-sql-tests: the migrated schema differs from tests/schema.sql:" >&2
  cat "${TMPDIR:-/tmp}/schema.diff.$$" >&2
  rm -f "${TMPDIR:-/tmp}/schema.diff.$$"
  echo "run-sql-tests: if the change is intended, regenerate it with UPDATE_SCHEMA=1" >&2
  exit 1
fi
rm -f "${TMPDIR:-/tmp}/schema.diff.$$"

# 2. pgTAP in its own schema: migration 0001 revokes PUBLIC's rights on
#    schema public, and the tests call pgTAP after `set local role`.
"${psql_tpl[@]}" <<'SQL'
create schema tap;
create extension pgtap with schema tap;
grant usage on schema tap to public;
-- dblink (contrib, shipped with postgresql-15): a second session, for the
-- tests of concurrent consumers and of time travel (their own commits).
create schema dblink;
create extension dblink with schema dblink;
SQL
for helper in tests/sql/_helpers/*.sql; do
  "${psql_tpl[@]}" --single-transaction -f "$helper"
done

# 3. The test database.  CREATE DATABASE copies neither the database's ACL
#    nor its settings: the ACL is set again as migration 0001 sets it, and
#    search_path finds pgTAP.
createdb -T "$tpl" "$db"
psql -X -q -v ON_ERROR_STOP=1 -d "$db" <<SQL
revoke all on database $db from public;
grant connect on database $db to invoice_loader, invoice_operator, invoice_reader;
alter database $db set search_path = "\$user", public, tap;
SQL

if [[ ${#targets[@]} -eq 0 ]]; then
  for dir in tests/sql/*/; do
    [[ $(basename "$dir") == _helpers ]] && continue
    targets+=("${dir%/}")
  done
fi

status=0
pg_prove --ext .sql -r -d "$db" "${targets[@]}" || status=$?
exit "$status"
