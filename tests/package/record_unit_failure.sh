#!/usr/bin/env bash
# record_unit_failure: packaging/record-unit-failure (the script of
# invoice-loader-failure@.service, the loader units' OnFailure=) writes, into
# the directory INVOICE_LOADER_TEXTFILE_DIR names, one textfile-collector
# file per unit holding invoice_loader_unit_last_failure_timestamp_seconds
# with the unit's name and the time of the call; a second failure replaces
# the file (atomically: no temporary file is left behind), another unit
# gets its own file; a bad unit name exits 64 and a missing directory 1,
# writing nothing.  promtool (Debian's prometheus package) accepts the
# file, and the shipped alerting rule InvoiceLoaderUnitFailed fires on it
# while the failure is less than 24 hours old, and not after.
#
# Usage: tests/package/record_unit_failure.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
script=$repo/packaging/record-unit-failure
rules=$repo/packaging/prometheus/invoice-loader.rules.yml

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
ok() { echo "ok - $*"; }
not_ok() { echo "not ok - $*"; failed=1; }
check() { # check DESCRIPTION CMD...
  local what=$1; shift
  if "$@"; then ok "$what"; else not_ok "$what"; fi
}

# shellcheck disable=SC2317  # called through check
promtool_accepts() { promtool check metrics <"$1" >/dev/null 2>&1; }

dir=$work/textfile
mkdir "$dir"
record() { INVOICE_LOADER_TEXTFILE_DIR=$dir sh "$script" "$@"; }
unit=invoice-loader-catch-up.service
file=$dir/invoice-loader-unit-failure-invoice-loader-catch-up.prom

before=$(date +%s)
rc=0; record "$unit" >"$work/out" 2>&1 || rc=$?
after=$(date +%s)
check "record-unit-failure $unit exits 0" test "$rc" = 0
check "it writes $(basename "$file")" test -f "$file"
sample=$(grep -v '^#' "$file" 2>/dev/null || true)
stamp=${sample##* }
check "the file's sample is the unit's failure timestamp ($sample)" \
  test "${sample% *}" = "invoice_loader_unit_last_failure_timestamp_seconds{unit=\"$unit\"}"
check "the timestamp is the time of the call ($before <= $stamp <= $after)" \
  test "$before" -le "${stamp:-0}" -a "${stamp:-0}" -le "$after"
check "the file is readable by node-exporter (mode 0644)" \
  test "$(stat -c %a "$file" 2>/dev/null)" = 644
if command -v promtool >/dev/null; then
  check "promtool check metrics accepts the file" promtool_accepts "$file"
else
  echo "ok - # SKIP promtool not installed"
fi

record "$unit" >/dev/null 2>&1
record invoice-loader-notify.service >/dev/null 2>&1
check "a second failure of the unit replaces its sample (one line)" \
  test "$(grep -vc '^#' "$file")" = 1
check "another unit gets its own file" \
  test -f "$dir/invoice-loader-unit-failure-invoice-loader-notify.prom"
check "no temporary file is left behind" \
  test "$(find "$dir" -type f ! -name '*.prom' | wc -l)" = 0

rc=0; record 'bad"unit' >/dev/null 2>&1 || rc=$?
check "a unit name with a quote exits 64" test "$rc" = 64
rc=0; record >/dev/null 2>&1 || rc=$?
check "no unit name exits 64" test "$rc" = 64
rc=0
INVOICE_LOADER_TEXTFILE_DIR=$work/missing sh "$script" "$unit" >/dev/null 2>&1 || rc=$?
check "a missing textfile directory exits 1 and creates nothing" \
  test "$rc" = 1 -a ! -e "$work/missing"
check "only the two units' files were written" test "$(find "$dir" -type f | wc -l)" = 2

# The shipped rule on that sample, held for 30 minutes, timestamps shifted
# so that the test's time 0 is now: a failure of now fires at 20 minutes; a
# failure 25 hours old does not.
if command -v promtool >/dev/null; then
  now=$(date +%s)
  series=${sample% *}
  cat >"$work/rules_test.yml" <<YAML
rule_files: ["$rules"]
evaluation_interval: 1m
tests:
  - name: a failure just now
    interval: 1m
    input_series:
      - series: '$series'
        values: '$((stamp - now))+0x30'
    alert_rule_test:
      - eval_time: 20m
        alertname: InvoiceLoaderUnitFailed
        exp_alerts:
          - exp_labels: {severity: page, unit: $unit}
            exp_annotations:
              summary: "$unit failed on ; systemctl status $unit, journalctl -u $unit"
  - name: a failure 25 hours ago
    interval: 1m
    input_series:
      - series: '$series'
        values: '$((stamp - now - 25 * 3600))+0x30'
    alert_rule_test:
      - eval_time: 20m
        alertname: InvoiceLoaderUnitFailed
        exp_alerts: []
YAML
  if promtool test rules "$work/rules_test.yml" >"$work/promtool.out" 2>&1; then
    ok "InvoiceLoaderUnitFailed fires for a failure of now, not for one 25 hours old"
  else
    not_ok "InvoiceLoaderUnitFailed:"; sed 's/^/#   /' "$work/promtool.out"
  fi
else
  echo "ok - # SKIP promtool not installed"
fi
exit "$failed"
