#!/usr/bin/env bash
# bench-sources.sh: do several sources' nightly loads get in each other's
# way?  One loader process per source, all at once, against the same loads
# one after the other, with readers looking invoices up the whole time.
#
# Usage: scripts/bench-sources.sh [--sources N] [--per-source M] [--reps R]
#                                 [--data-dir DIR] [--json PATH]
#        scripts/bench-sources.sh --smoke   (3 sources x 200 invoices, once)
#   --sources N     sources, one loader process each (default 8)
#   --per-source M  invoices in each source's file (default 100000)
#   --reps R        repetitions of each mode, alternating (default 3)
#   --data-dir DIR  where the generated files are kept and reused
#                   (default /var/tmp/invoice-loader-bench)
#   --json PATH     every measurement, as JSON (default
#                   DIR/results/sources-<UTC time>.json)
#   -h, --help      this text
#
# A thin wrapper: the benchmark is bench/run.py (Python 3, standard library
# only), `python3 bench/run.py sources ARGS`, on its own throwaway cluster
# (scripts/with-tmp-pg.sh); the method is in bench/harness/sources.py and
# its SQL in bench/sources/.  It prints each mode's wall time and
# throughput, the concurrent run's throughput against the sequential one,
# the readers' worst lookup in each mode, and the lock waits of the loader
# backends, sampled from pg_stat_activity (between sources there should be
# none: each source has its own publication lock and staging is
# partitioned by batch).
# A benchmark, not a test: it exits 0 whether or not the loads overlap
# well, 70 when a load did not publish, 64 for a usage error.
set -euo pipefail
# shellcheck source=scripts/lib/help.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/help.sh"
for arg in "$@"; do help_if_asked "$0" "$arg"; done
exec python3 "$(dirname "${BASH_SOURCE[0]}")/../bench/run.py" sources "$@"
