#!/usr/bin/env bash
# build.sh: configure and build invoice-loader into build/ at the repo root,
# whatever the current directory.
#
# Usage: scripts/build.sh [extra cmake configure arguments...]
#   e.g. scripts/build.sh -DINVOICE_LOADER_WERROR=ON
#        scripts/build.sh --help   (this text; -h or --help anywhere)
#
# Runs: cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@"
#       cmake --build build -j"$(nproc)"
set -euo pipefail
# shellcheck source=scripts/lib/help.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/help.sh"
for arg in "$@"; do help_if_asked "$0" "$arg"; done

cd "$(dirname "${BASH_SOURCE[0]}")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@"
cmake --build build -j"$(nproc)"
