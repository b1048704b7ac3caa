#!/usr/bin/env bash
# test.sh: install, build and run every test suite of invoice-loader.
#
# Usage: scripts/test.sh          (from any directory; CI: .ci/run)
#
# Stages, each with a header; all of them run even when one fails:
#   install-deps  scripts/install-deps.sh (no network when all is installed)
#   build         scripts/build.sh -DBUILD_TESTING=ON (a cached OFF in
#                 build/ would leave ctest nothing to run), plus
#                 -DINVOICE_LOADER_WERROR=ON when CI=true
#   ctest         ctest --test-dir build --output-on-failure
#                 --no-tests=error (Catch2 unit tests, CLI smoke tests)
#   package       scripts/package.sh (the .deb, into build/), then
#                 tests/package/deb_installs_and_runs.sh on it (dpkg -x:
#                 --version, --help, man -l, Depends)
#   sql, e2e      tests/run-sql-tests.sh, then tests/run-e2e.sh, inside ONE
#                 throwaway cluster (scripts/with-tmp-pg.sh: PGHOST, PGPORT,
#                 PGUSER, PGDATABASE, TMP_PG_* are set), with stdin from
#                 /dev/null, INVOICE_LOADER=<repo>/build/loader/invoice-loader
#                 and INVOICE_LOADER_BUILD_DIR=<repo>/build exported; a script
#                 that does not exist yet is reported as skipped.  Before
#                 them two builds start in the background, niced, one after
#                 the other: the previous release's loader
#                 (tests/e2e/previous_release.sh, into build/previous-release,
#                 PREVIOUS_RELEASE_DIR) for the upgrade test, which waits for
#                 it, then the shared-libpq stage's package.
#   shared-libpq  the build distributions may choose (docs/OPERATIONS.md):
#                 scripts/package.sh --build-dir build/shared-libpq
#                 -DINVOICE_LOADER_STATIC_LIBPQ=OFF with the same flags (run
#                 in the background, its output in build/shared-libpq.log),
#                 its ctest, and tests/package/deb_installs_and_runs.sh
#                 --shared-libpq on its .deb (Depends libpq5, the binary
#                 loads libpq.so.5, Static-Built-Using without PostgreSQL)
#   bench-smoke   scripts/bench.sh --smoke and scripts/bench-publish.sh
#                 --smoke (each its own cluster, 20 invoices): keep the
#                 benchmarks working; not timed tests (a smoke run fails
#                 only when a load does not publish)
# Ends with one summary line per stage (its outcome and seconds) and the
# whole run's seconds; exits 1 when any stage failed.
# The cluster is always stopped and removed (with-tmp-pg.sh's trap).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

readonly db_stages=(sql:tests/run-sql-tests.sh e2e:tests/run-e2e.sh)

header() {
  printf '\n==> [%s] %s\n' "$1" "$2"
}

# Internal: run by the outer test.sh inside with-tmp-pg.sh; appends
# "<stage> <exit status|skipped>" lines to the file $2.
if [[ ${1:-} == --db-stages ]]; then
  results=$2
  for spec in "${db_stages[@]}"; do
    name=${spec%%:*}
    file=${spec#*:}
    header "$name" "$file (PGHOST=$PGHOST PGPORT=$PGPORT)"
    if [[ -f $file ]]; then
      rc=0 start=$SECONDS
      bash "$file" </dev/null || rc=$?
      echo "$name $rc $((SECONDS - start))" >>"$results"
    else
      echo "skipped: $file not present yet"
      echo "$name skipped" >>"$results"
    fi
  done
  exit 0
fi

names=()
outcomes=()
durations=()
failed=0
record() { # record NAME EXIT_STATUS|skipped [NOTE [SECONDS]]
  names+=("$1")
  durations+=("${4:+$4 s}")
  case $2 in
    0) outcomes+=("ok") ;;
    skipped) outcomes+=("skipped (${3:-not present yet})") ;;
    *) outcomes+=("FAILED (exit $2${3:+, $3})"); failed=1 ;;
  esac
}
stage() { # stage NAME CMD...
  local name=$1 rc=0 start=$SECONDS
  shift
  header "$name" "$*"
  "$@" || rc=$?
  record "$name" "$rc" "" "$((SECONDS - start))"
}

build_args=(-DBUILD_TESTING=ON)
if [[ ${CI:-} == true ]]; then
  build_args+=(-DINVOICE_LOADER_WERROR=ON)
fi

stage install-deps bash scripts/install-deps.sh
stage build bash scripts/build.sh "${build_args[@]}"
stage ctest ctest --test-dir build --output-on-failure --no-tests=error
# shellcheck disable=SC2016  # "$@" and $(...) are the inner bash's
stage package bash -c 'deb=$(bash scripts/package.sh "$@" | tail -n 1) &&
  bash tests/package/deb_installs_and_runs.sh "$deb"' package "${build_args[@]}"

results=$(mktemp)
shared_log=$PWD/build/shared-libpq.log
trap 'rm -f "$results" "$shared_log.rc"' EXIT
# Two builds in the background (niced), one after the other, while the
# database stages run, which leave a core idle most of the time: the
# upgrade test's previous release (the test waits for it:
# tests/e2e/previous_release.sh), then the shared-libpq stage's package
# (its build dir, output in $shared_log; the stage below tests it).
export PREVIOUS_RELEASE_DIR=$PWD/build/previous-release
mkdir -p "$PREVIOUS_RELEASE_DIR"
rm -f "$shared_log.rc"
mkdir -p build
{
  # (its failure is the upgrade test's to report)
  bash tests/e2e/previous_release.sh "$PREVIOUS_RELEASE_DIR" \
    >"$PREVIOUS_RELEASE_DIR.log" 2>&1 || true
  rc=0
  nice bash scripts/package.sh --build-dir build/shared-libpq \
    -DINVOICE_LOADER_STATIC_LIBPQ=OFF "${build_args[@]}" >"$shared_log" 2>&1 || rc=$?
  echo "$rc" >"$shared_log.rc"
} </dev/null &
background_builds=$!
header database "scripts/with-tmp-pg.sh: one cluster for ${db_stages[*]}"
db_rc=0
INVOICE_LOADER=$PWD/build/loader/invoice-loader \
  INVOICE_LOADER_BUILD_DIR=$PWD/build \
  bash scripts/with-tmp-pg.sh bash scripts/test.sh --db-stages "$results" \
  </dev/null || db_rc=$?
for spec in "${db_stages[@]}"; do
  name=${spec%%:*}
  file=${spec#*:}
  line=$(grep -m 1 "^$name " "$results" || true)
  if [[ -z $line ]]; then
    record "$name" "$db_rc" "did not run: with-tmp-pg.sh failed"
  elif [[ ${line#* } == skipped ]]; then
    record "$name" skipped "$file not present yet"
  else
    read -r _ rc seconds <<<"$line"
    record "$name" "$rc" "" "$seconds"
  fi
done

# The distribution's libpq instead of the one compiled in: its own build
# directory, so build/ (tested above) is left as it is; built in the
# background above, tested here.
# shellcheck disable=SC2317  # called by stage, below
shared_libpq() {
  wait "$background_builds" || true
  local rc deb
  rc=$(cat "$shared_log.rc" 2>/dev/null || echo "?")
  if [[ $rc != 0 ]]; then
    echo "scripts/package.sh --build-dir build/shared-libpq failed (exit $rc):"
    tail -n 40 "$shared_log"
    return 1
  fi
  deb=$(tail -n 1 "$shared_log")
  echo "built in the background: $deb"
  ctest --test-dir build/shared-libpq --no-tests=error --output-on-failure | tail -n 3 \
    && bash tests/package/deb_installs_and_runs.sh --shared-libpq "$deb"
}
stage shared-libpq shared_libpq

# The benchmarks are not tests; their smoke runs (seconds) keep them working.
stage bench-smoke env INVOICE_LOADER="$PWD/build/loader/invoice-loader" \
  bash -c 'bash scripts/bench.sh --smoke && bash scripts/bench-publish.sh --smoke'

wait  # nothing is left in the background by now (the builds: shared-libpq above)
printf '\n==> summary\n'
for i in "${!names[@]}"; do
  printf 'summary: %-13s %-7s %s\n' "${names[$i]}" "${durations[$i]}" "${outcomes[$i]}"
done
passed_stages=0 failed_stages=0
for o in "${outcomes[@]}"; do
  case $o in ok) passed_stages=$((passed_stages + 1)) ;; FAILED*) failed_stages=$((failed_stages + 1)) ;; esac
done
echo "stages: $passed_stages passed, $failed_stages failed, in $SECONDS s"
exit "$failed"
