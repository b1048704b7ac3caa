#!/usr/bin/env bash
# bench/duplicates/run.sh: how validation scales with identical duplicate
# records (once 48,000 records loaded in 2.6 s, the same plus
# 2,000 identical repeats took 65-122 s).  A benchmark, not a test: it
# prints figures and exits 0 unless a load failed to publish.
#
# Usage: bash bench/duplicates/run.sh [--lines N] [--cap SECONDS] [--reps N]
#                                     [--data-dir DIR] [--json PATH] [CASE...]
#   (scripts/with-tmp-pg.sh bash bench/duplicates/run.sh ... works too; the
#   harness starts its own cluster either way)
# A thin wrapper: `python3 bench/run.py duplicates ARGS`; the method and the
# cases (plain, dup4, dup5, dup50) are in bench/harness/duplicates.py, and
# bench/run.py load (scripts/bench.sh) measures plain, dup5 and dup50 too.
set -euo pipefail
exec python3 "$(dirname "${BASH_SOURCE[0]}")/../run.py" duplicates "$@"
