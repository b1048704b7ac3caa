#!/usr/bin/env bash
# package.sh: build the Debian package of invoice-loader into build/.
#
# Usage: scripts/package.sh [extra cmake configure arguments...]
#        scripts/package.sh --help   (this text; builds nothing)
#
# Configures and builds build/ as scripts/build.sh does (release flags,
# RelWithDebInfo; the package strips the binary), then runs CPack's DEB
# generator (cmake/Packaging.cmake): build/invoice-loader_<version>_<arch>.deb,
# with Depends from dpkg-shlibdeps.  Needs dpkg-dev (dpkg-shlibdeps) and
# help2man for the man page (scripts/install-deps.sh installs both).  Prints
# the path of the .deb on its last line.
set -euo pipefail
# shellcheck source=scripts/lib/help.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/help.sh"
for arg in "$@"; do help_if_asked "$0" "$arg"; done

cd "$(dirname "${BASH_SOURCE[0]}")/.."
for tool in dpkg-shlibdeps help2man; do
  command -v "$tool" >/dev/null ||
    { echo "package: $tool not found; run scripts/install-deps.sh" >&2; exit 69; }
done
bash scripts/build.sh "$@" >/dev/null
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' build/CMakeCache.txt)
arch=$(dpkg --print-architecture)
deb=build/invoice-loader_${version}_${arch}.deb
rm -f "$deb"
(cd build && cpack --config CPackConfig.cmake -G DEB >/dev/null)
[[ -f $deb ]] || { echo "package: cpack did not write $deb" >&2; exit 1; }
echo "$PWD/$deb"
