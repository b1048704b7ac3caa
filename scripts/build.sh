#!/usr/bin/env bash
# build.sh: configure and build invoice-loader into build/ at the repo root,
# whatever the current directory (or into DIR with --build-dir DIR).
#
# Usage: scripts/build.sh [--build-dir DIR] [extra cmake configure arguments...]
#   e.g. scripts/build.sh -DINVOICE_LOADER_WERROR=ON
#        scripts/build.sh --build-dir build/asan \
#          -DCMAKE_CXX_FLAGS=-fsanitize=address
#        scripts/build.sh --help   (this text; -h or --help anywhere)
#
# Runs: cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@"
#       cmake --build build -j"$(nproc)"
# (a relative DIR is taken from the current directory)
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
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@"
cmake --build "$build_dir" -j"$(nproc)"
