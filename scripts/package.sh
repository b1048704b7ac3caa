#!/usr/bin/env bash
# package.sh: build the Debian package of invoice-loader into build/ (or
# into DIR with --build-dir DIR, a relative DIR taken from the current
# directory: e.g. build/shared-libpq for -DINVOICE_LOADER_STATIC_LIBPQ=OFF).
#
# Usage: scripts/package.sh [--build-dir DIR] [extra cmake configure arguments...]
#        scripts/package.sh --help   (this text; builds nothing)
#
# Configures and builds build/ (or DIR) as scripts/build.sh does (release
# flags, RelWithDebInfo; the package strips the binary), then runs CPack's
# DEB generator (cmake/Packaging.cmake): DIR/invoice-loader_<version>_<arch>.deb,
# with Depends from dpkg-shlibdeps, and Static-Built-Using naming the source
# packages (exact versions) of the archives linked into the binary: libpq's
# with INVOICE_LOADER_STATIC_LIBPQ, libpqxx's, Boost's and GCC's with
# INVOICE_LOADER_STATIC_CXX.  Needs dpkg-dev (dpkg-shlibdeps) and help2man
# for the man page (scripts/install-deps.sh installs both).  Prints the path
# of the .deb on its last line.
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
cache() { sed -n "s/^$1:[A-Z]*=//p" "$build_dir/CMakeCache.txt"; } # a build setting
version=$(cache CMAKE_PROJECT_VERSION)
arch=$(dpkg --print-architecture)
deb=$build_dir/invoice-loader_${version}_${arch}.deb
rm -f "$deb"
(cd "$build_dir" && cpack --config CPackConfig.cmake -G DEB >/dev/null)
[[ -f $deb ]] || { echo "package: cpack did not write $deb" >&2; exit 1; }

# Static-Built-Using (dpkg 1.21 knows the field): the code of these archives
# is in the binary, so a security update of one of them (libpq's above all)
# needs a rebuild of this package; the field says which sources, at which
# versions, the way Debian tracks statically linked packages.  CPack writes
# no such field, so the .deb is unpacked, given it, and built again (same
# files; dpkg-deb, not a hand-made archive).
# Which archives: the linker's map of the binary (loader/CMakeLists.txt
# asks for it) lists each archive member it took in its first section,
# "Archive member included to satisfy reference by file (symbol)", one
# "ARCHIVE(MEMBER)" line each.  Our own archives (relative paths, in the
# build tree) are not a Debian package's; libgcc.a and libc_nonshared.a go
# into every program GCC links on Debian, which Debian's packages do not
# name either.
map=$build_dir/loader/invoice-loader.map
[[ -f $map ]] || { echo "package: no linker map $map" >&2; exit 1; }
mapfile -t archives < <(
  awk '/^Archive member included/ { on = 1; next }
       on && /^[A-Z]/ { exit }
       on && match($0, /^\/[^ (]*\.a\(/) { print substr($0, 1, RLENGTH - 1) }' "$map" |
    sort -u | grep -Ev '/(libgcc|libc_nonshared)\.a$')
if ((${#archives[@]} == 0)) && [[ $(cache INVOICE_LOADER_STATIC_CXX) == ON ||
                                  $(cache INVOICE_LOADER_STATIC_LIBPQ) == ON ]]; then
  echo "package: the linker map $map names no archive" >&2
  exit 1
fi
sources=()
for archive in "${archives[@]}"; do
  owner=$(dpkg -S "$(readlink -f "$archive")" 2>/dev/null | head -n1) || owner=
  if [[ -z $owner ]]; then
    echo "package: $archive belongs to no Debian package; Static-Built-Using" \
         "does not name it" >&2
    continue
  fi
  sources+=("$(dpkg-query -W -f '${source:Package} (= ${source:Version})' \
               "${owner%%:*}")")
done
if ((${#sources[@]})); then
  field=$(printf '%s\n' "${sources[@]}" | sort -u | paste -sd, - | sed 's/,/, /g')
  unpacked=$(mktemp -d)
  trap 'rm -rf "$unpacked"' EXIT
  dpkg-deb -R "$deb" "$unpacked/root"
  # after the first field: the control file's one paragraph ends at its
  # first blank line, and every paragraph starts with a field
  awk -v field="Static-Built-Using: $field" '{ print } NR == 1 { print field }' \
    "$unpacked/root/DEBIAN/control" >"$unpacked/control"
  cp "$unpacked/control" "$unpacked/root/DEBIAN/control"
  dpkg-deb --root-owner-group -b "$unpacked/root" "$deb" >/dev/null
fi
echo "$deb"
