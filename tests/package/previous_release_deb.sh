#!/usr/bin/env bash
# tests/package/previous_release_deb.sh DIR [cmake arguments...]: build the
# .deb of the previous release into DIR, for the upgrade half of
# deb_lifecycle.sh, and print its path on the last line.  The previous
# release is the parent of the newest commit that set CMakeLists.txt's
# project() version to the current one (git log -G on that line): the last
# commit of the version before.  Its tree comes from the git history (git
# archive), so this needs a clone.  Built as a release is, with that
# tree's own scripts/package.sh (-DBUILD_TESTING=OFF, under `nice`),
# holding DIR/.lock (flock) throughout; does nothing but print the path
# when DIR already holds the .deb of that commit (DIR/commit).  The
# build's output goes to DIR/build.log.
set -euo pipefail

dir=${1:?usage: tests/package/previous_release_deb.sh DIR [cmake arguments...]}
shift
repo=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
exec 9>"$dir/.lock"
flock 9

git -C "$repo" rev-parse --git-dir >/dev/null 2>&1 || {
  echo "previous_release_deb: $repo has no git history; the upgrade test builds the previous release from it: use a clone" >&2
  exit 1
}
version_of() { # version_of COMMIT: CMakeLists.txt's project() version there
  git -C "$repo" show "$1:CMakeLists.txt" 2>/dev/null |
    sed -n 's/^project([A-Za-z_]* VERSION \([0-9.]*\).*/\1/p'
}
current=$(version_of HEAD)
commit=
while read -r c; do
  parent_version=$(version_of "$c^")
  if [[ $(version_of "$c") == "$current" && -n $parent_version && $parent_version != "$current" ]]; then
    commit=$(git -C "$repo" rev-parse "$c^")
    break
  fi
done < <(git -C "$repo" log --format=%H -G'^project\(' HEAD -- CMakeLists.txt)
[[ -n $commit ]] || {
  echo "previous_release_deb: no commit before HEAD has a version other than $current" >&2
  exit 1
}

deb=$(find "$dir" -maxdepth 1 -name 'invoice-loader_*.deb' | head -n 1)
if [[ -n $deb && $(cat "$dir/commit" 2>/dev/null) == "$commit" ]]; then
  echo "$deb"
  exit 0
fi

rm -rf "$dir/src" "$dir/commit" "$dir"/invoice-loader_*.deb
mkdir "$dir/src"
git -C "$repo" archive "$commit" | tar -x -C "$dir/src"
start=$SECONDS
if ! nice bash "$dir/src/scripts/package.sh" --build-dir "$dir/src/build" \
       -DBUILD_TESTING=OFF "$@" >"$dir/build.log" 2>&1; then
  tail -n 40 "$dir/build.log" >&2
  echo "previous_release_deb: building the .deb of $commit failed (all of it: $dir/build.log)" >&2
  exit 1
fi
built=$(tail -n 1 "$dir/build.log")
mv "$built" "$dir/"
echo "$commit" >"$dir/commit"
rm -rf "$dir/src"
echo "previous_release_deb: $(basename "$built") of ${commit:0:7} built in $((SECONDS - start)) s" >&2
echo "$dir/$(basename "$built")"
