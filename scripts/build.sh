#!/usr/bin/env bash
# build.sh: configure and build invoice-loader into build/ at the repo root,
# whatever the current directory.
#
# Usage: scripts/build.sh [extra cmake configure arguments...]
#   e.g. scripts/build.sh -DINVOICE_LOADER_WERROR=ON
#
# Runs: cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@"
#       cmake --build build -j"$(nproc)"
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@"
cmake --build build -j"$(nproc)"
