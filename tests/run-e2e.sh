#!/usr/bin/env bash
# tests/run-e2e.sh [TEST...]: run the end-to-end tests (tests/e2e/*.sh, or
# the ones named) with the real binary against the running throwaway
# cluster (PG* from scripts/with-tmp-pg.sh, PGUSER a superuser).
# The schema is migrated once into a template; every test gets its own
# database copied from it, dropped afterwards when the test passed.
# Every test's loader stderr (what tests/e2e/lib.sh's expect_rc saw) is
# kept, and after the tests one more check reads every line against the
# log schema of docs/reference/logs.md (tests/tools/check_log_lines.py).
# Prints one line per test and "e2e: N passed, M failed" last.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
export REPO=$repo
export INVOICE_LOADER=${INVOICE_LOADER:-$repo/build/loader/invoice-loader}
export FAULT_PROXY=${FAULT_PROXY:-$(dirname "$INVOICE_LOADER")/../tests/fault_proxy}
[[ -x $INVOICE_LOADER ]] || { echo "run-e2e: no binary at $INVOICE_LOADER (build first)" >&2; exit 70; }

template=invoice_e2e_template
export PGOPTIONS="${PGOPTIONS:-} -c client_min_messages=warning"
psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "drop database if exists $template" \
  -c "create database $template"
"$INVOICE_LOADER" -q --dsn "dbname=$template" migrate >/dev/null

if [[ $# -gt 0 ]]; then tests=("$@"); else tests=("$repo"/tests/e2e/*__*.sh); fi

passed=0 failed=0 n=0
failed_names=()
log_lines=$(mktemp -d)
trap 'rm -rf "$log_lines"' EXIT
for t in "${tests[@]}"; do
  n=$((n + 1))
  name=$(basename "$t" .sh)
  db=invoice_e2e_$n
  psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "drop database if exists $db" \
    -c "create database $db template $template"
  start=$(date +%s)
  if E2E_DB=$db E2E_LOG_LINES=$log_lines/$name.log bash "$t" >"/tmp/e2e.$$.log" 2>&1; then
    passed=$((passed + 1))
    echo "ok $n - $name ($(( $(date +%s) - start ))s)"
    psql -X -q -d postgres -c "drop database $db" || true
  else
    failed=$((failed + 1))
    failed_names+=("$name")
    echo "not ok $n - $name"
    sed 's/^/    /' "/tmp/e2e.$$.log"
  fi
  rm -f "/tmp/e2e.$$.log"
done

n=$((n + 1))
if compgen -G "$log_lines/*.log" >/dev/null; then
  if python3 "$repo/tests/tools/check_log_lines.py" "$repo/docs/reference/logs.md" \
    "$log_lines"/*.log >"/tmp/e2e.$$.log" 2>&1; then
    passed=$((passed + 1))
    echo "ok $n - log_lines__every_stderr_line_matches_the_reference ($(tail -n 1 "/tmp/e2e.$$.log"))"
  else
    failed=$((failed + 1))
    failed_names+=("log_lines__every_stderr_line_matches_the_reference")
    echo "not ok $n - log_lines__every_stderr_line_matches_the_reference"
    head -n 60 "/tmp/e2e.$$.log" | sed 's/^/    /'
  fi
  rm -f "/tmp/e2e.$$.log"
fi

echo "e2e: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
