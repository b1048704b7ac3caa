#!/usr/bin/env bash
# bench.sh: the project's performance benchmark: how fast is
# `invoice-loader load` against plain `psql \copy` and pgloader, how much
# memory does it take, and does publication slow down over a long history?
#
# Usage: scripts/bench.sh [--reps N] [--data-dir DIR] [--with-10m]
#                         [--skip-history] [--skip-publish] [--skip-tuned]
#                         [--skip-locale] [--skip-catch-up] [--skip-files]
#                         [--big N]
#                         [--history-size N] [--days N] [--lookups N]
#                         [--reads N] [--dup-lines N] [--dup-cap S]
#                         [--json PATH | --record]
#        scripts/bench.sh --smoke    (seconds; CI: the seed figures once,
#                         tiny over-history, reads and catch-up rows)
#        scripts/bench.sh --dev      (every row once at small scale, under a
#                         minute: for working on the harness)
#   --reps N          repetitions of every 100k/1M/10M figure, of the
#                     over-history and of the tuned rows (default 3); the
#                     20-invoice and catch-up figures take 5 (1 with --smoke
#                     or --dev)
#   --data-dir DIR    where the generated files are kept and reused
#                     (default /var/tmp/invoice-loader-bench)
#   --with-10m        also a 10M-invoice file (about 1.4 GB; long)
#   --skip-history    leave out every row over a history: the load over it
#                     (and its tuned row), the reads, and the publish
#                     benchmark's row (their rows say "skipped")
#   --skip-publish    leave out only the publish benchmark's row (its own
#                     cluster and its own 5M history, about 3 minutes)
#   --skip-tuned      leave out the rows with the server settings
#                     docs/guide/operate.md recommends
#   --skip-locale     leave out the big file's load into a database of the
#                     libc locale de_DE.UTF-8 (shown against the C one)
#   --skip-catch-up   leave out the catch-up row
#   --skip-files      leave out the 100k/1M/10M files' rows (the history
#                     rows alone; the over-history file keeps --big's size)
#   --big N           the size of the file the 1M targets and pgloader are
#                     measured on, and of the over-history file (default
#                     1000000); for development, e.g. --big 100000 (the
#                     separate 100k size is then dropped)
#   --history-size N  versions of history under the over-history rows and
#                     the publish benchmark (default 5000000)
#   --days N          business dates of the catch-up row (default 30; 3
#                     with --smoke, 5 with --dev)
#   --lookups N       lookups of one invoice by key (default 200)
#   --reads N         full count-and-sum reads of reporting.invoice
#                     (default 5; 3 with --smoke or --dev)
#   --dup-lines N     lines of each duplicate-heavy file (default 50000;
#                     100 with --smoke or --dev)
#   --dup-cap S       stop a duplicate-heavy load after S seconds (default
#                     600); its row says "> S s (stopped)"
#   --json PATH       every measurement, as JSON (default
#                     DIR/results/load-<UTC time>.json)
#   --record          also keep the run's summary (commit, date, machine,
#                     PostgreSQL settings, every figure with its target) as
#                     bench/results/<UTC date>_<commit>.json, the
#                     measurement history (bench/results/README.md); not
#                     with --smoke, --dev or --json; commit the file
#   -h, --help        this text
# --dev is --reps 1 --big 20000 --history-size 100000 --days 5 --lookups 50
# --dup-lines 100 unless given; --smoke runs 20,000 versions of history, a
# 200-invoice over-history file, 20 lookups and 3 days, no tuned rows.
#
# A thin wrapper: the benchmark is bench/run.py (Python 3, standard library
# only), `python3 bench/run.py load ARGS`; the SQL it runs is in
# bench/<topic>/*.sql.
#
# Targets (ratios of medians measured in the same run; docs/PERFORMANCE.md
# says what limits each):
#   1M invoices, file to published, empty history  <= 7x psql \copy of the
#                                                     same file (stretch 4x)
#   its COPY phase (received->staged)               <= 1.2x psql \copy
#   1M invoices over a 5M-version history, 6% amendments and 3% voids of
#     its most recent keys                          <= 10x psql \copy of the
#                                                     same file; its ratio to
#                                                     the empty-history load
#                                                     printed (stretch 1.5x)
#   the same two loads with the server settings of docs/guide/operate.md: shown
#   the 1M load into a database of the libc locale de_DE.UTF-8 / into the
#     C one: shown
#   pgloader on the 1M file / load on the 1M file   >= 2x (stretch 3x)
#   10M invoices (--with-10m)                       <= 11x the 1M load
#   loader peak RSS, 100k, 1M (and 10M) files       <= 64 MB each
#   20 invoices (seed), process start to published  shown against psql
#     \copy (its former 3x target is retired: docs/PERFORMANCE.md; the
#     table still prints it)
#   catch-up of 30 days of 20 invoices in one run   <= 30x one day's load
#   publishing a 10k batch over 5M versions         <= 1.2x over none
#   reading reporting.invoice over the history after the load (count and
#     sum; one invoice by key): shown, kept in the JSON to compare runs
#   readers' worst lookup while the 1M batch publishes over the history
#                                                   <= 50 ms
#   that publication step (the publishing transaction)  <= 100 ms
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
#   4. duplicate-heavy files (bench/harness/duplicates.py; validation was
#      once quadratic in identical repeats):
#      in every repetition, files of --dup-lines lines from
#      scripts/gen-invoices.sh --repeats R (no repeats, 5% and 50% identical
#      repeats), each loaded as the source's second business date into a
#      fresh copy of a template in which a 1,000-record batch for the day
#      before was published and the staging tables were then vacuumed and
#      analyzed empty (as autovacuum leaves them), under timeout --dup-cap;
#      rows: the load and its validation, with the repeats' ratio to the file
#      without; "skipped" when scripts/gen-invoices.sh has no --repeats;
#      `python3 bench/run.py duplicates [--lines N] [CASE...]` runs them alone;
#   5. catch-up (bench/harness/catchup.py): --days files of 20 invoices
#      (scripts/gen-invoices.sh, dates ending 2026-11-28, in DIR/days/), a
#      template whose source starts on the first date with the feed URL
#      DIR/days/acme-erp_{date}.csv; in each seed repetition, `catch-up
#      --until <last date>` into a fresh copy (every date must publish with
#      its 20 invoices), then `load` of the first date into another: the
#      ratio is catch-up / one day;
#   6. over a history (bench/harness/overhistory.py): --history-size
#      versions built once, untimed, into the template bench_tpl_hist by
#      bench/publish/history.sql (the publish benchmark's layout, watermark
#      the day before the batch); a file of --big invoices: 91% new
#      (scripts/gen-invoices.sh), then 6% amendments (revision + 1, amounts
#      1.00 further from zero) and 3% voids (revision + 1, VOID) of the
#      history's most recent current keys, read from the template by
#      bench/history/amendments.sql; its manifest computed over its bytes;
#      in every repetition, after the 1M file's: the load into a fresh copy
#      of the template (checked: published, merge_counts inserted/amended/
#      voided as built, reporting.invoice shows the new and amended ones),
#      then psql \copy of the same file, then the file's amended and voided
#      invoices alone (its tail under its header, a manifest of its own)
#      into another fresh copy (checked the same way; shown, no target: what
#      the 9% cost that new invoices do not); after the last repetition's load,
#      on its database, as invoice_reader: --reads times the full `select
#      count(*), sum(gross_amount) from reporting.invoice` and --lookups
#      lookups of one invoice by (source, invoice_number) through a
#      prepared statement, keys sampled by bench/history/sample_keys.sql,
#      all client-timed (psql \timing); the figure per lookup is the median;
#      then (bench/harness/readers.py) one more load of the same file into
#      a fresh copy, not counted among the repetitions, with two pgbench
#      clients (PostgreSQL's own) as invoice_reader looking up one invoice
#      by key at 200 lookups/s in all for a bounded time, 3 s alone first;
#      pgbench's per-lookup log against the batch's validated->published
#      events gives the lookups during the publication (the worst is the
#      wait) and those before the load (the baseline);
#   6b. a database of the libc locale de_DE.UTF-8 (bench/harness/
#      libc_locale.py): a template like the first but from template0 with
#      that locale, as Debian's pg_createcluster makes one; in every
#      repetition, after the 1M load into the C database (the seed's with
#      --smoke), the same file into a fresh copy of it; its row, "shown",
#      is its ratio to the C load (migration 0027 made invoice numbers
#      compare by bytes; a text key without COLLATE "C" would show here).
#      The locale must be installed (locale-gen): the benchmark does not
#      generate it, and its row says "skipped" without it;
#   7. the recommended settings (bench/harness/tuned.py): the `name = value`
#      lines of the code block after "Recommended server settings" in
#      docs/guide/operate.md, set by ALTER SYSTEM, the cluster restarted
#      ($TMP_PG_CTL restart) and each setting checked; then --reps
#      repetitions of the 1M load and its \copy, and the over-history load
#      and its \copy (the same templates); rows "shown";
#   8. the publish benchmark (scripts/bench-publish.sh --reps N --no-explain,
#      its own cluster, a history of --history-size versions, about 80 s to
#      build at 5M): its publication-over-history row goes into this table,
#      its own table and repetitions are printed after this one's;
#   9. prints the machine, the PostgreSQL settings that matter (the
#      defaults: the tuned ones are in the workload section), one markdown
#      table (figure | median | min | max | baseline | baseline median |
#      ratio | target | met; a stretch target says "stretch met" and is not
#      counted among the targets) and every repetition's raw numbers;
#      writes all of it, every measurement included, to the JSON file
#      (over_history.reads keeps the read figures for a later run to compare).
# A benchmark, not a test: it exits 0 whether or not the targets are met, and
# non-zero only when something failed: a load that did not publish (exit
# status, batch state, reporting.invoice count; over the history also
# merge_counts: exit 70), or, outside
# --smoke, a baseline that failed or loaded a different count (reported in
# its row, exit 70 after the report); 64 for a usage error.
set -euo pipefail
# shellcheck source=scripts/lib/help.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/help.sh"
for arg in "$@"; do help_if_asked "$0" "$arg"; done
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")

record=0
args=()
for arg in "$@"; do
  case $arg in
    --record) record=1 ;;
    --smoke | --dev | --json | --json=*)
      args+=("$arg")
      no_record=$arg
      ;;
    *) args+=("$arg") ;;
  esac
done
if ((!record)); then
  exec python3 "$repo/bench/run.py" load "${args[@]}"
fi
if [[ -n ${no_record:-} ]]; then
  echo "bench.sh: --record keeps full runs only; not with ${no_record%%=*}" >&2
  exit 64
fi

# --record: run with the raw JSON in a temporary file, then keep its summary
# under bench/results/ named by the UTC date and the commit measured (with
# "-dirty" when the work tree differs from it; "-2", "-3"... when a run of
# that commit on that day is already there).
commit=$(git -C "$repo" rev-parse --short=7 HEAD)
git -C "$repo" diff --quiet HEAD -- || commit+=-dirty
day=$(date -u +%F)
out=$repo/bench/results/${day}_${commit}.json
for ((n = 2; n < 100; n++)); do
  [[ -e $out ]] || break
  out=$repo/bench/results/${day}_${commit}-$n.json
done
raw=$(mktemp "${TMPDIR:-/tmp}/bench-record.XXXXXX")
trap 'rm -f "$raw"' EXIT
rc=0
python3 "$repo/bench/run.py" load "${args[@]}" --json "$raw" || rc=$?
if ((rc != 0)); then
  echo "bench.sh: the run failed (exit $rc); nothing recorded" >&2
  exit "$rc"
fi
python3 - "$raw" "$out" "$commit" "$day" \
  "scripts/bench.sh ${args[*]} --record" <<'PY'
"""Keep the summary of a load benchmark's JSON: the schema of
bench/results/README.md (the harness's own keys, plus commit and date)."""
import json
import sys

raw, out, commit, day, command = sys.argv[1:]
with open(raw, encoding="utf-8") as f:
    d = json.load(f)
figures = d["figures"]
met = sum(1 for x in figures if x.get("met") == "met")
judged = sum(1 for x in figures if x.get("met") in ("met", "NOT met"))
doc = {"benchmark": d["benchmark"], "commit": commit, "date": day,
       "source": "recorded", "command": command,
       "started_at": d["started_at"], "finished_at": d["finished_at"],
       "options": d["options"], "machine": d["machine"],
       "load_average": d["load_average"], "loader": d["loader"],
       "pgloader": d["pgloader"], "targets_met": {"met": met,
                                                  "judged": judged},
       "figures": figures}
with open(out, "w", encoding="utf-8") as f:
    f.write(json.dumps(doc, indent=2) + "\n")
print(f"bench.sh: recorded {out}", file=sys.stderr)
PY
