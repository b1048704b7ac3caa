#!/usr/bin/env bash
# bench-publish.sh: how long does publishing a nightly batch take over an
# empty history, and over a history of N published versions?  And reverting
# it again (ingest.revert_batch): O(batch), never O(history)?
#
# Usage: scripts/bench-publish.sh [--history N] [--batch M] [--reps R]
#                                 [--explain | --no-explain] [--explain-min-ms T]
#                                 [--analyzed-empty] [--data-dir DIR]
#                                 [--json PATH]
#        scripts/bench-publish.sh --smoke        (N=20000, M=20: seconds)
#   --history N   versions in core.invoice_version before the batch (default 5000000)
#   --batch M     invoices in the measured batch (default 10000)
#   --reps R      measured loads per history (default 5)
#   --explain     always capture the plans of publish_batch's statements
#   --no-explain  never; by default they are captured when the target is missed
#   --explain-min-ms T   only statements taking T ms or more (default 100)
#   --analyzed-empty     also measure an empty history whose statistics were
#                 taken while it was empty (VACUUM ANALYZE after migrate)
#   --data-dir DIR  where results/ goes (default /var/tmp/invoice-loader-bench)
#   --json PATH   every measurement, as JSON (default
#                 DIR/results/publish-<UTC time>.json)
#   -h, --help    this text
# --smoke sets N and M unless --history or --batch are given.
#
# A thin wrapper: the benchmark is bench/run.py (Python 3, standard library
# only), `python3 bench/run.py publish ARGS`; the history is built by
# bench/publish/history.sql, the other SQL is in bench/<topic>/*.sql.
#
# What it does, on its own throwaway cluster (scripts/with-tmp-pg.sh; the
# harness re-invokes itself inside with --inside; WITH_TMP_PG_FAST=1 in the
# environment gives fsync = off, the default is on):
#   1. template databases, migrated, source acme-erp registered:
#      bench_empty  no history; the source's start date is the batch's date;
#        left as migrate leaves it (never vacuumed nor analyzed, like a new
#        installation: the planner assumes 10 pages per empty table);
#      bench_empty_analyzed  (--analyzed-empty) the same after VACUUM
#        (FREEZE, ANALYZE): the planner then believes the tables are empty;
#      bench_history  N versions built directly in SQL as the superuser
#        (FK triggers off: the rows are consistent by construction): one
#        published ingest.batch per business date (500 dates before the
#        batch's, fake sha256 values, with their attempt, checkpoint events
#        and a dispatched notification), 80% of the versions current and the
#        rest superseded (per 20 invoices: 16 with one revision, 3 with two,
#        1 with three, each later revision published 3 business dates after
#        the previous one; 1 in 100 ends VOID), rows in publication order;
#        the watermark is the last history date, so the batch's date is
#        watermark + 1; then VACUUM (FREEZE, ANALYZE) and CHECKPOINT;
#   2. one batch of M new invoices (scripts/gen-invoices.sh) for that date;
#   3. R repetitions, alternating empty / history: each loads the same file
#      with the real binary (invoice-loader load, as invoice_loader) into a
#      fresh copy of the template (CREATE DATABASE ... STRATEGY FILE_COPY,
#      which checkpoints), so every repetition does the same work against
#      the same state, with a warm OS cache and cold shared buffers;
#   4. the durations come from the database's own records:
#      ingest.batch_event_overview (received->staged: COPY;
#      staged->validated: validation; validated->published: publication,
#      up to the state change, before the commit) and
#      ingest.attempt_overview (the whole attempt, begin to finish);
#      then the published batch is reverted (ingest.revert_batch, as the
#      invoice_operator login, one statement in autocommit), timed by the
#      client (psql \timing: the whole transaction, commit included): its M
#      versions move to core.invoice_version_reverted, the watermark goes
#      back, the later-publication check reads the source's batches; it
#      restores nothing (the batch is all new invoices, as it must be to be
#      the same revert over both histories), the restoring update being an
#      index lookup on superseded_by_batch_id that finds no row; when the
#      schema has no ingest.revert_batch, the revert row says "skipped";
#   5. prints the machine, the PostgreSQL settings that matter, one table
#      (figure | median | min | max | ratio | target | met) and every
#      repetition, and writes them, every measurement included, to the JSON
#      file; targets (medians): publication over the history takes at most
#      1.2x the same over the empty history, the revert at most 1.5x;
#   6. when publication's target is missed (or --explain), one more load
#      into a fresh history copy with auto_explain (ANALYZE, BUFFERS,
#      triggers, nested statements) and prints the plans of the statements
#      of ingest.publish_batch that took --explain-min-ms or more.  That run
#      is not in the table.
# A benchmark, not a test: it exits 0 whether or not the target is met, and
# non-zero only when something failed (a load that did not publish: 70;
# 64 for a usage error).
set -euo pipefail
# shellcheck source=scripts/lib/help.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/help.sh"
for arg in "$@"; do help_if_asked "$0" "$arg"; done
exec python3 "$(dirname "${BASH_SOURCE[0]}")/../bench/run.py" publish "$@"
