#!/usr/bin/env bash
# scripts.help (ctest): every helper script's --help (and -h) prints its
# usage on stdout, exits 0, writes nothing on stderr, and does nothing else:
# run in an empty directory, which must stay empty (make-sample.sh used to
# create ./--help and demo.sh used to install, build and run the demo).
#
# Usage: tests/scripts_help.sh REPO
set -euo pipefail
repo=${1:?usage: tests/scripts_help.sh REPO}
scripts=(make-sample demo gen-invoices with-tmp-pg bench bench-publish bench-sources bench-formats
         build install-deps package format)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/cwd"
failed=0
for s in "${scripts[@]}"; do
  for flag in --help -h; do
    rc=0
    (cd "$work/cwd" && bash "$repo/scripts/$s.sh" "$flag" \
       >"$work/out" 2>"$work/err" </dev/null) || rc=$?
    problem=''
    if [[ $rc != 0 ]]; then problem="exit $rc"
    elif ! grep -q '^Usage: scripts/' "$work/out"; then problem="no 'Usage: scripts/' line"
    elif [[ -s $work/err ]]; then problem="stderr: $(head -c 200 "$work/err")"
    elif [[ -n $(ls -A "$work/cwd") ]]; then problem="created $(ls -A "$work/cwd")"
    fi
    if [[ -n $problem ]]; then
      echo "not ok - scripts/$s.sh $flag: $problem"
      failed=1
      rm -rf "${work:?}/cwd" && mkdir "$work/cwd"
    else
      echo "ok - scripts/$s.sh $flag"
    fi
  done
done
exit "$failed"
