#!/usr/bin/env bash
# tests/e2e/previous_release.sh DIR: build the loader of the previous
# release into DIR/invoice-loader, for the upgrade test
# (upgrade__previous_release_data_kept_and_loads_on_as_if_never_upgraded.sh).
# The previous release is the commit before the one that added the newest
# file of migrations/, or HEAD while that file is not committed; its tree
# comes from the git history (git archive), so this needs a clone.  Built
# without optimisation (only its behaviour counts), under `nice`, holding
# DIR/.lock (flock) throughout: scripts/test.sh starts it in the background
# before the database stages, and the test waits on the lock, then builds
# it itself if no binary is there.  Does nothing when DIR already holds the
# binary of that commit.  The build's output goes to DIR/build.log.
set -euo pipefail

dir=${1:?usage: tests/e2e/previous_release.sh DIR}
repo=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$dir"
exec 9>"$dir/.lock"
flock 9

git -C "$repo" rev-parse --git-dir >/dev/null 2>&1 || {
  echo "previous_release: $repo has no git history; the upgrade test builds the previous release from it: use a clone" >&2
  exit 1
}
newest=$(cd "$repo/migrations" && find . -maxdepth 1 -name '*.sql' | sort | tail -n 1)
newest=${newest#./}
added=$(git -C "$repo" log -1 --format=%H --diff-filter=A -- "migrations/$newest")
if [[ -n $added ]]; then
  commit=$(git -C "$repo" rev-parse "$added^")
else
  commit=$(git -C "$repo" rev-parse HEAD)
fi
if [[ -x $dir/invoice-loader && $(cat "$dir/commit" 2>/dev/null) == "$commit" ]]; then
  exit 0
fi

rm -rf "$dir/src" "$dir/invoice-loader" "$dir/commit"
mkdir "$dir/src"
git -C "$repo" archive "$commit" | tar -x -C "$dir/src"
if ! { nice cmake -S "$dir/src" -B "$dir/src/build" -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS=-O0 &&
       nice cmake --build "$dir/src/build" -j"$(nproc)" --target invoice-loader; } >"$dir/build.log" 2>&1; then
  tail -n 40 "$dir/build.log" >&2
  echo "previous_release: building the loader of $commit failed (all of it: $dir/build.log)" >&2
  exit 1
fi
cp "$dir/src/build/loader/invoice-loader" "$dir/invoice-loader.tmp"
mv "$dir/invoice-loader.tmp" "$dir/invoice-loader"
echo "$commit" >"$dir/commit"
rm -rf "$dir/src"
