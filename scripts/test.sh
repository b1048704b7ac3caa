#!/usr/bin/env bash
# test.sh: install, build and run every test suite of invoice-loader.
#
# Usage: scripts/test.sh          (from any directory; CI: .ci/run)
#
# Stages, each with a header; all of them run even when one fails:
#   install-deps  scripts/install-deps.sh (no network when all is installed)
#   format        scripts/format.sh --check (clang-format, .clang-format)
#   build         scripts/build.sh -DBUILD_TESTING=ON (a cached OFF in
#                 build/ would leave ctest nothing to run), plus
#                 -DINVOICE_LOADER_WERROR=ON when CI=true
#   ctest         ctest --test-dir build --output-on-failure
#                 --no-tests=error --parallel $(nproc) --label-exclude
#                 '^(sql|e2e)$' (Catch2 unit tests, CLI smoke tests, the
#                 test servers' own tests; the pgTAP and e2e tests that
#                 ctest also lists run in the stages below)
#   package       scripts/package.sh (the .deb, into build/), then
#                 tests/package/deb_installs_and_runs.sh on it (dpkg -x:
#                 --version, --help, man -l, Depends, units, lintian), then
#                 tests/package/deb_lifecycle.sh on it and the previous
#                 release's .deb (tests/package/previous_release_deb.sh:
#                 built from git history into build/previous-release-deb,
#                 once per commit, without optimisation: only its files and
#                 maintainer scripts count): dpkg --root upgrade, install, remove,
#                 purge with the maintainer scripts
#   sql, e2e      tests/run-sql-tests.sh, then tests/run-e2e.sh, inside ONE
#                 throwaway cluster (scripts/with-tmp-pg.sh: PGHOST, PGPORT,
#                 PGUSER, PGDATABASE, TMP_PG_* are set), with stdin from
#                 /dev/null, INVOICE_LOADER=<repo>/build/loader/invoice-loader
#                 and INVOICE_LOADER_BUILD_DIR=<repo>/build exported; a script
#                 that does not exist yet is reported as skipped.  Before
#                 them the previous release's loader starts building in the
#                 background (tests/e2e/previous_release.sh, into
#                 build/previous-release, PREVIOUS_RELEASE_DIR) for the
#                 upgrade test, which waits for it.
#   bench-smoke   scripts/bench.sh --smoke, scripts/bench-publish.sh
#                 --smoke, scripts/bench-sources.sh --smoke and
#                 scripts/bench-formats.sh --smoke (each its own
#                 cluster, a few hundred invoices at most): keep the
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
stage format bash scripts/format.sh --check
stage build bash scripts/build.sh "${build_args[@]}"
# In parallel: the longest tests wait on their own servers (tools.*,
# net.transfer), and each test picks free ports and its own temp files.
# The pgTAP files and e2e tests are ctest tests too (labels sql, e2e: one
# cluster each, for running one by name); here they run on one cluster below.
stage ctest ctest --test-dir build --output-on-failure --no-tests=error \
  --parallel "$(nproc)" --label-exclude '^(sql|e2e)$'
# shellcheck disable=SC2016  # "$@" and $(...) are the inner bash's
stage package bash -c 'deb=$(bash scripts/package.sh "$@" | tail -n 1) || exit 1
  rc=0
  bash tests/package/deb_installs_and_runs.sh "$deb" || rc=1
  previous=$(bash tests/package/previous_release_deb.sh build/previous-release-deb \
    -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS=-O0 | tail -n 1) || { previous=; rc=1; }
  bash tests/package/deb_lifecycle.sh "$deb" ${previous:+"$previous"} || rc=1
  exit "$rc"' package "${build_args[@]}"

results=$(mktemp)
trap 'rm -f "$results"' EXIT
# The upgrade test's previous release, built in the background (niced)
# while the SQL suite runs; the test waits for it (tests/e2e/previous_release.sh).
export PREVIOUS_RELEASE_DIR=$PWD/build/previous-release
mkdir -p "$PREVIOUS_RELEASE_DIR"
bash tests/e2e/previous_release.sh "$PREVIOUS_RELEASE_DIR" \
  >"$PREVIOUS_RELEASE_DIR.log" 2>&1 </dev/null &
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

# The benchmarks are not tests; their smoke runs (seconds) keep them working.
stage bench-smoke env INVOICE_LOADER="$PWD/build/loader/invoice-loader" \
  bash -c 'bash scripts/bench.sh --smoke && bash scripts/bench-publish.sh --smoke &&
    bash scripts/bench-sources.sh --smoke && bash scripts/bench-formats.sh --smoke'

wait  # the previous release's build, long finished unless the database stages failed early
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
