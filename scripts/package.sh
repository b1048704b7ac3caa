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
archives=()
if [[ $(cache INVOICE_LOADER_STATIC_LIBPQ) == ON ]]; then
  archives+=("$(cache PQ_STATIC_LIBRARY)" "$(cache PGCOMMON_SHLIB_LIBRARY)"
             "$(cache PGPORT_SHLIB_LIBRARY)")
fi
if [[ $(cache INVOICE_LOADER_STATIC_CXX) == ON ]]; then
  cxx=$(cache CMAKE_CXX_COMPILER)
  archives+=("$(cache PQXX_STATIC_LIBRARY)"
             "$(cache Boost_PROGRAM_OPTIONS_LIBRARY_RELEASE)"
             "$("$cxx" -print-file-name=libstdc++.a)"
             "$("$cxx" -print-file-name=libgcc_eh.a)")
fi
sources=()
for archive in "${archives[@]}"; do
  [[ $archive == *.a ]] || continue # a shared Boost: nothing compiled in
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
