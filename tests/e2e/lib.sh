# tests/e2e/lib.sh: sourced by every end-to-end test.  The runner
# (tests/run-e2e.sh) gives each test its own freshly migrated database and
# exports:
#   INVOICE_LOADER  the real binary under test
#   E2E_DB          the test's database (PG* point at the throwaway cluster;
#                   PGUSER is a superuser, used only to inspect and set up)
#   REPO            the repository root
# A test stops at its first failed expectation (exit 1) and prints why.
set -euo pipefail

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

fail() {
  echo "FAIL: $*" >&2
  if [[ -s $WORK/out || -s $WORK/err ]]; then
    echo "--- last loader stdout:" >&2; cat "$WORK/out" >&2 || true
    echo "--- last loader stderr:" >&2; cat "$WORK/err" >&2 || true
  fi
  exit 1
}

# q SQL: one value (or rows, |-separated) read as the superuser.
q() { psql -X -qAt -v ON_ERROR_STOP=1 -d "$E2E_DB" -c "$1"; }

# run ROLE ARGS...: run the loader as ROLE (invoice_loader, invoice_operator),
# keeping its exit status in RC and its output in $WORK/out and $WORK/err.
run() {
  local role=$1; shift
  set +e
  "$INVOICE_LOADER" --dsn "dbname=$E2E_DB user=$role" "$@" >"$WORK/out" 2>"$WORK/err"
  RC=$?
  set -e
}
load() { run invoice_loader load "$@"; }

expect_rc() { [[ $RC == "$1" ]] || fail "exit status: expected $1, got $RC"; }
expect_eq() { [[ $2 == "$3" ]] || fail "$1: expected [$2], got [$3]"; }
expect_output_has() {
  grep -qF -- "$1" "$WORK/out" "$WORK/err" || fail "output does not mention [$1]"
}

# sample DIR [DATE]: the sample nightly batch (20 invoices, 4200.00) and
# its manifest; prints the CSV path.
sample() {
  local dir=$1 date=${2:-2026-11-28}
  "$REPO/scripts/make-sample.sh" "$dir" "$date" >/dev/null
  echo "$dir/acme-erp_$date.csv"
}

# register_source NAME [options]: as the operator.
register_source() {
  run invoice_operator source add "$@"
  expect_rc 0
}

# write_manifest CSV COUNT TOTAL [DATE]: a manifest next to CSV.
write_manifest() {
  local csv=$1 count=$2 total=$3 date=${4:-2026-11-28}
  printf '{"source":"acme-erp","business_date":"%s","record_count":%s,"control_total":"%s"}\n' \
    "$date" "$count" "$total" >"$csv.manifest.json"
}

# The published state, as one comparable line.
published_state() {
  q "select count(*) || ' invoices, ' || coalesce(sum(gross_amount), 0) || ' gross'
     from reporting.invoice"
}
watermark_of() { q "select coalesce((select business_date::text from ingest.watermark where source = '$1'), 'none')"; }
notifications() { q "select count(*) from ingest.notification where kind = '$1'"; }
