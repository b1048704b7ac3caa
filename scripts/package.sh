#!/usr/bin/env bash
# package.sh: build the Debian package of invoice-loader into build/ (or
# into DIR with --build-dir DIR, a relative DIR taken from the current
# directory).
#
# Usage: scripts/package.sh [--build-dir DIR] [extra cmake configure arguments...]
#        scripts/package.sh --help   (this text; builds nothing)
#
# Configures and builds build/ (or DIR) as scripts/build.sh does (release
# flags, RelWithDebInfo; the package strips the binary), then runs CPack's
# DEB generator (cmake/Packaging.cmake): DIR/invoice-loader_<version>_<arch>.deb,
# with Depends from dpkg-shlibdeps (the shared libraries the binary links:
# libpq5, libcurl4, libpqxx-6.4, ...).  Needs dpkg-dev (dpkg-shlibdeps) and
# help2man for the man page (scripts/install-deps.sh installs both).  Prints
# the path of the .deb on its last line.
set -euo pipefail
# shellcheck source=scripts/lib/help.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/help.sh"
for arg in "$@"; do help_if_asked "$0" "$arg"; done

build_dir=build
if [[ ${1:-} == --build-dir ]]; then
  [[ -n ${2:-} ]] || { echo "usage: $0 [--build-dir DIR] [cmake arguments...]" >&2; exit 64; }
  build_dir=$(realpath -m -- "$2")
  shift 2
fi
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build_dir=$(realpath -m -- "$build_dir")
for tool in dpkg-shlibdeps help2man; do
  command -v "$tool" >/dev/null ||
    { echo "package: $tool not found; run scripts/install-deps.sh" >&2; exit 69; }
done
bash scripts/build.sh --build-dir "$build_dir" "$@" >/dev/null
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:[A-Z]*=//p' "$build_dir/CMakeCache.txt")
arch=$(dpkg --print-architecture)
deb=$build_dir/invoice-loader_${version}_${arch}.deb
rm -f "$deb"
(cd "$build_dir" && cpack --config CPackConfig.cmake -G DEB >/dev/null)
[[ -f $deb ]] || { echo "package: cpack did not write $deb" >&2; exit 1; }

echo "$deb"
