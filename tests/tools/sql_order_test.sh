#!/usr/bin/env bash
# sql_order_test.sh: the check that keeps sql/ORDER complete
# (cmake/SqlOrder.cmake, run at configure and build) passes on the tree as
# it is and fails, naming the line to add or remove, for a file of sql/
# that ORDER does not list, a line naming no file, and a file listed twice.
# Works on a scratch copy of sql/; the tree is not touched.
# Usage: tests/tools/sql_order_test.sh [REPO]   (ctest: build.sql_order_is_checked)
set -euo pipefail
repo=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
check() { cmake -DSRC_DIR="$work" -P "$repo/cmake/SqlOrder.cmake" >"$work/out" 2>&1; }
fresh() { rm -rf "$work/sql"; cp -r "$repo/sql" "$work/sql"; }

fresh
check || { cat "$work/out" >&2; fail "the tree's own sql/ORDER is refused"; }

fresh
echo 'select 1;' >"$work/sql/ingest/zz_new_step.sql"
if check; then fail "a file missing from sql/ORDER passed"; fi
grep -q 'sql/ingest/zz_new_step.sql is not listed in sql/ORDER: add the line' "$work/out" ||
  fail "no 'add the line' message: $(cat "$work/out")"
grep -q '^ *ingest/zz_new_step.sql$' "$work/out" || fail "the line to add is not shown alone"
grep -q 'at the end of sql/ORDER' "$work/out" || fail "the message does not say where"

fresh
rm "$work/sql/ingest/status_report.sql"
if check; then fail "a line naming no file passed"; fi
grep -q 'sql/ORDER lists ingest/status_report.sql, but there is no file sql/ingest/status_report.sql: remove that line' \
  "$work/out" || fail "no 'remove that line' message: $(cat "$work/out")"

fresh
echo 'ingest/transition.sql' >>"$work/sql/ORDER"
if check; then fail "a file listed twice passed"; fi
grep -q 'sql/ORDER lists ingest/transition.sql twice: remove the later line' "$work/out" ||
  fail "no 'twice' message: $(cat "$work/out")"
echo "sql_order_test: ok"
