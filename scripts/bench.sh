#!/usr/bin/env bash
# bench.sh: the project's performance benchmark (issue 5): how fast is
# `invoice-loader load` against plain `psql \copy` and pgloader, how much
# memory does it take, and does publication slow down over a long history?
#
# Usage: scripts/bench.sh [--reps N] [--data-dir DIR] [--with-10m]
#                         [--skip-history] [--big N] [--history-size N]
#                         [--dup-lines N] [--dup-cap S] [--json PATH]
#        scripts/bench.sh --smoke    (the 20-invoice figures once: seconds; CI)
#   --reps N          repetitions of every 100k/1M/10M figure (default 3);
#                     the 20-invoice figures take 5 (1 with --smoke)
#   --data-dir DIR    where the generated files are kept and reused
#                     (default /var/tmp/invoice-loader-bench)
#   --with-10m        also a 10M-invoice file (about 1.4 GB; long)
#   --skip-history    leave out the publish-over-history figure (its row
#                     says "skipped")
#   --big N           the size of the file the 1M targets and pgloader are
#                     measured on (default 1000000); for development, e.g.
#                     --big 100000 (the separate 100k size is then dropped)
#   --history-size N  versions of history for the publish benchmark
#                     (default 5000000; smaller only for development)
#   --dup-lines N     lines of each duplicate-heavy file (default 50000;
#                     100 with --smoke)
#   --dup-cap S       stop a duplicate-heavy load after S seconds (default
#                     600); its row says "> S s (stopped)"
#   --json PATH       every measurement, as JSON (default
#                     DIR/results/load-<UTC time>.json)
#   -h, --help        this text
#
# A thin wrapper: the benchmark is bench/run.py (Python 3, standard library
# only), `python3 bench/run.py load ARGS`; the SQL it runs is in
# bench/<topic>/*.sql.
#
# Targets (ratios of medians measured in the same run):
#   load of 1M invoices, file to published, empty history  <= 4x psql \copy
#   its COPY phase (received->staged)                      <= 1.2x psql \copy
#   publishing a 10k batch over 5M versions of history     <= 1.5x over none
#   loader peak RSS, 100k, 1M (and 10M) invoice files       <= 64 MB each, flat
#   load of the 20-invoice seed batch, process start to published
#                                                          <= 5x psql \copy
#   pgloader on the 1M file / load on the 1M file          >= 10x
#   load --input http://127.0.0.1:PORT/... of the 1M file  <= 1.1x the same
#     (download into the spool, then the same load)           load of the
#                                                             local file
#
# What it does, on its own throwaway cluster (scripts/with-tmp-pg.sh; the
# harness re-invokes itself inside with --inside; fsync on unless
# WITH_TMP_PG_FAST=1 is in the environment, as for bench-publish.sh):
#   1. the files: the seed sample (scripts/make-sample.sh: 20 invoices,
#      4,200.00) and scripts/gen-invoices.sh files of 100k, 1M (10M) records
#      for 2026-11-28, each in DIR/<name>/ with its manifest; generation is
#      deterministic, so a file whose manifest is there is reused;
#   2. one template database, migrated, source acme-erp registered with the
#      file's date as start date (the batch is the source's first date);
#   3. per repetition and file size, one after the other, so that drift hits
#      all of them: the loader, then psql \copy, then (on the 1M file; on
#      the seed file with --smoke) pgloader, each into its own fresh
#      database, after a CHECKPOINT (no dirty buffers of the previous step),
#      the database dropped after use:
#        load      invoice-loader load, as invoice_loader, into a copy of the
#                  template (CREATE DATABASE ... STRATEGY FILE_COPY);
#        \copy     psql -c '\copy t from FILE with (format csv, header)'
#                  into a new logged table of one text column per CSV
#                  header column;
#        load_url  the same load with --input and --manifest as http://
#                  URLs of the same files, served on loopback by
#                  tests/tools/http_server.py (seed and big files only), into
#                  an empty --spool-dir (so every repetition downloads); its
#                  row says "skipped" when the tree has no http_server.py or
#                  the loader no --spool-dir;
#        pgloader  Debian's pgloader, LOAD CSV (skip header, '"' quotes) into
#                  such a table, created beforehand, no truncate; it reaches
#                  the socket-only server as
#                  postgresql://postgres@unix:$PGHOST:$PGPORT/DB;
#                  when it is not installed (scripts/install-deps.sh installs
#                  it; the benchmark never does), its row says so;
#      every command is the harness's own child: its whole process is timed
#      (time.perf_counter_ns, start to exit) and its peak RSS is os.wait4's
#      ru_maxrss; the loader's phases come from the database's own records:
#      ingest.batch_event_overview (received->staged: COPY;
#      staged->validated: validation; validated->published: publication)
#      and ingest.attempt_overview (the whole attempt);
#   4. duplicate-heavy files (issue 14 item 5; bench/harness/duplicates.py):
#      in every repetition, files of --dup-lines lines from
#      scripts/gen-invoices.sh --repeats R (no repeats, 5% and 50% identical
#      repeats), each loaded as the source's second business date into a
#      fresh copy of a template in which a 1,000-record batch for the day
#      before was published and the staging tables were then vacuumed and
#      analyzed empty (as autovacuum leaves them), under timeout --dup-cap;
#      rows: the load and its validation, with the repeats' ratio to the file
#      without; "skipped" when scripts/gen-invoices.sh has no --repeats;
#      `python3 bench/run.py duplicates [--lines N] [CASE...]` runs them alone;
#   5. the publish benchmark (scripts/bench-publish.sh --reps N --no-explain,
#      its own cluster, a history of --history-size versions, about 80 s to
#      build at 5M): its publication-over-history row goes into this table,
#      its own table and repetitions are printed after this one's;
#   6. prints the machine, the PostgreSQL settings that matter, one markdown
#      table (figure | median | min | max | baseline | baseline median |
#      ratio | target | met) and every repetition's raw numbers; writes all
#      of it, every measurement included, to the JSON file.
# A benchmark, not a test: it exits 0 whether or not the targets are met, and
# non-zero only when something failed: a load that did not publish (exit
# status, batch state, reporting.invoice count: exit 70), or, outside
# --smoke, a baseline that failed or loaded a different count (reported in
# its row, exit 70 after the report); 64 for a usage error.
set -euo pipefail
# shellcheck source=scripts/lib/help.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/help.sh"
for arg in "$@"; do help_if_asked "$0" "$arg"; done
exec python3 "$(dirname "${BASH_SOURCE[0]}")/../bench/run.py" load "$@"
