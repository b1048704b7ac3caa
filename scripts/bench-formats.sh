#!/usr/bin/env bash
# bench-formats.sh: what reading a file as its system writes it costs.  The
# same records loaded as a European ERP writes them (semicolons,
# windows-1252, amounts 1.234,56, dates DD.MM.YYYY, German header names
# and codes, gzip; the source's format file is bench/formats/european.json)
# and in the contract's own format, in the same run.
#
# Usage: scripts/bench-formats.sh [--records N] [--reps R] [--data-dir DIR]
#                                 [--json PATH]
#        scripts/bench-formats.sh --smoke   (2000 invoices, once)
#   --records N     invoices in the file (default 1000000)
#   --reps R        loads of each file, alternating (default 3)
#   --data-dir DIR  where the generated files are kept and reused
#                   (default /var/tmp/invoice-loader-bench)
#   --json PATH     every measurement, as JSON (default
#                   DIR/results/formats-<UTC time>.json)
#   -h, --help      this text
#
# A thin wrapper: the benchmark is bench/run.py (Python 3, standard library
# only), `python3 bench/run.py formats ARGS`, on its own throwaway cluster
# (scripts/with-tmp-pg.sh); the method is in bench/harness/formats.py.  It
# prints each file's load time and their ratio (the target: at most 1.3x).
# A benchmark, not a test: it exits 0 whether or not the target is met, 70
# when a load did not publish, 64 for a usage error.
set -euo pipefail
# shellcheck source=scripts/lib/help.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/help.sh"
for arg in "$@"; do help_if_asked "$0" "$arg"; done
exec python3 "$(dirname "${BASH_SOURCE[0]}")/../bench/run.py" formats "$@"
