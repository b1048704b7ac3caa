#!/usr/bin/env bash
# bench-publish.sh: how long does publishing a nightly batch take over an
# empty history, and over a history of N published versions?  And reverting
# it again (ingest.revert_batch, issue 10): O(batch), never O(history)?
#
# Usage: scripts/bench-publish.sh [--history N] [--batch M] [--reps R]
#                                 [--explain | --no-explain] [--explain-min-ms T]
#                                 [--analyzed-empty]
#        scripts/bench-publish.sh --smoke        (N=20000, M=20: seconds)
#   --history N   versions in core.invoice_version before the batch (default 5000000)
#   --batch M     invoices in the measured batch (default 10000)
#   --reps R      measured loads per history (default 5)
#   --explain     always capture the plans of publish_batch's statements
#   --no-explain  never; by default they are captured when the target is missed
#   --explain-min-ms T   only statements taking T ms or more (default 100)
#   --analyzed-empty     also measure an empty history whose statistics were
#                 taken while it was empty (VACUUM ANALYZE after migrate)
#   -h, --help    this text
#
# What it does, on its own throwaway cluster (scripts/with-tmp-pg.sh; this
# script re-invokes itself inside with --inside; WITH_TMP_PG_FAST=1 in the
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
#      index lookup on superseded_by_batch_id that finds no row;
#   5. prints the machine, the PostgreSQL settings that matter, one table
#      (figure | median | min | max | ratio | target | met) and every
#      repetition; targets: publication and revert over the history take at
#      most 1.5x the same over the empty history (medians);
#   6. when the target is missed (or --explain), one more load into a fresh
#      history copy with auto_explain (ANALYZE, BUFFERS, triggers, nested statements)
#      and prints the plans of the statements of ingest.publish_batch that
#      took --explain-min-ms or more.  That run is not in the table.
# A benchmark, not a test: it exits 0 whether or not the target is met, and
# non-zero only when something failed (a load that did not publish).
set -euo pipefail
# shellcheck source=scripts/lib/bench_report.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/bench_report.sh"
# shellcheck source=scripts/lib/help.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/help.sh"
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"

usage() {
  sed -n "5,16p" "$0" >&2
  exit 64
}

history=5000000 batch=10000 reps=5 explain=auto explain_min_ms=100 inside='' analyzed_empty=''
while [[ $# -gt 0 ]]; do
  case $1 in
    --inside) inside=1; shift ;;
    --history) [[ $# -ge 2 ]] || usage; history=$2; shift 2 ;;
    --batch) [[ $# -ge 2 ]] || usage; batch=$2; shift 2 ;;
    --reps) [[ $# -ge 2 ]] || usage; reps=$2; shift 2 ;;
    --smoke) history=20000 batch=20; shift ;;
    --explain) explain=always; shift ;;
    --no-explain) explain=never; shift ;;
    --analyzed-empty) analyzed_empty=1; shift ;;
    --explain-min-ms) [[ $# -ge 2 ]] || usage; explain_min_ms=$2; shift 2 ;;
    -h | --help) script_help "$0" ;;
    *) echo "bench-publish: unknown argument '$1'" >&2; usage ;;
  esac
done
for v in history batch reps explain_min_ms; do
  [[ ${!v} =~ ^[0-9]+$ ]] || { echo "bench-publish: --${v//_/-} wants a whole number" >&2; exit 64; }
done
((history >= 1 && batch >= 1 && reps >= 1)) ||
  { echo "bench-publish: --history, --batch and --reps must be at least 1" >&2; exit 64; }

loader=${INVOICE_LOADER:-$repo/build/loader/invoice-loader}

if [[ -z $inside ]]; then
  if [[ ! -x $loader ]]; then
    echo "bench-publish: building $loader" >&2
    cmake -S "$repo" -B "$repo/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
    cmake --build "$repo/build" -j"$(nproc)" --target invoice-loader >/dev/null
  fi
  args=(--history "$history" --batch "$batch" --reps "$reps" --explain-min-ms "$explain_min_ms")
  if [[ -n $analyzed_empty ]]; then args+=(--analyzed-empty); fi
  case $explain in
    always) args+=(--explain) ;;
    never) args+=(--no-explain) ;;
  esac
  exec scripts/with-tmp-pg.sh "$0" --inside "${args[@]}"
fi

# ---------------------------------------------------------------- inside
load_at_start=$(cut -d" " -f1-3 /proc/loadavg)
export PGOPTIONS="${PGOPTIONS:-} -c client_min_messages=warning"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

readonly source=acme-erp
readonly batch_date=2026-11-28
dates=500
if ((history < 10 * dates)); then dates=$(((history + 9) / 10)); fi

psql_su() { psql -X -q -v ON_ERROR_STOP=1 "$@"; }
val() { psql -X -qAt -v ON_ERROR_STOP=1 "$@"; }
now_ms() { date +%s%3N; }
note() { printf '%s  %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

# template DB START_DATE: a migrated database with the source registered.
template() {
  local db=$1 start=$2
  createdb "$db"
  "$loader" -q --dsn "dbname=$db" migrate >/dev/null
  "$loader" -q --dsn "dbname=$db user=invoice_operator" \
    source add "$source" --start-date "$start" >/dev/null
}

note "templates: bench_empty, bench_history ($history versions over $dates business dates)"
template bench_empty "$batch_date"
if [[ -n $analyzed_empty ]]; then
  createdb -T bench_empty bench_empty_analyzed
  psql_su -d bench_empty_analyzed -c 'vacuum (freeze, analyze)'
fi

first_date=$(val -c "select (date '$batch_date' - $dates)::text")
template bench_history "$first_date"
build_start=$(now_ms)
# Keys: 20 invoices make 25 versions (16 x 1, 3 x 2, 1 x 3 revisions), so
# keys = 0.8 N and each date brings keys/dates new invoices.
psql_su -d bench_history \
  -v source="$source" -v batch_date="$batch_date" -v dates="$dates" \
  -v keys_per_date="$(( (history * 4 / 5 + dates - 1) / dates ))" <<'SQL'
set session_replication_role = replica;  -- no FK triggers: consistent by construction
set work_mem = '512MB';
set maintenance_work_mem = '512MB';
begin;

insert into ingest.batch (source, business_date, sha256, size_bytes, file_records, file_name, columns,
                          state, manifest, record_count, control_total, staged_count,
                          accepted_count, rejected_count, distinct_keys, created_at,
                          updated_at, published_at)
select :'source', t.day, encode(sha256(convert_to('bench-history:' || t.day, 'UTF8')), 'hex'),
       0, 0, :'source' || '_' || t.day || '.csv',
       array['invoice_number', 'revision', 'status', 'document_type', 'customer_id',
             'invoice_date', 'due_date', 'currency', 'net_amount', 'tax_amount',
             'gross_amount', 'description'],
       'published', null, 0, 0, 0, 0, 0, 0, t.at, t.at, t.at
from generate_series(0, :dates - 1) as d(i)
cross join lateral (select :'batch_date'::date - :dates + d.i as day,
                           (:'batch_date'::date - :dates + d.i + 1)::timestamptz
                             + interval '2 hours' as at) as t
order by d.i;

create temp table hb as
select b.batch_id, b.business_date, b.published_at,
       (row_number() over (order by b.business_date) - 1)::integer as i
from ingest.batch as b where b.source = :'source';
create unique index on hb (i);
analyze hb;

insert into core.invoice_version (source, invoice_number, revision, status, document_type,
                                  customer_id, invoice_date, due_date, currency, net_amount,
                                  tax_amount, gross_amount, description, content_hash,
                                  batch_id, record_no, is_current, supersedes_revision,
                                  superseded_by_batch_id, superseded_at, published_at)
select :'source', 'INV-' || to_char(b0.business_date, 'YYYYMMDD') || '-' || lpad(k.j::text, 6, '0'),
       r.r,
       case when r.r = k.revs - 1 and k.j % 100 = 0 then 'VOID' else 'ISSUED' end,
       case when k.credit then 'CREDIT_NOTE' else 'INVOICE' end,
       'CUST-' || lpad((k.k % 5000 + 1)::text, 5, '0'),
       b0.business_date - k.j % 5, b0.business_date - k.j % 5 + 30, 'EUR',
       a.net, a.tax, a.net + a.tax,
       'history invoice ' || k.k || ' revision ' || r.r,
       sha256(convert_to(k.k || ':' || r.r, 'UTF8')),
       bv.batch_id, k.j, r.r = k.revs - 1, case when r.r > 0 then r.r - 1 end,
       bn.batch_id, bn.published_at, bv.published_at
from (select g as k, (g / :keys_per_date)::integer as d0, (g % :keys_per_date + 1)::integer as j,
             g % 20 = 7 as credit,
             case when g % 20 = 0 then 3 when g % 20 between 1 and 3 then 2 else 1 end as revs
      from generate_series(0::bigint, :keys_per_date::bigint * :dates - 1) as g) as k
cross join lateral generate_series(0, k.revs - 1) as r(r)
join hb as b0 on b0.i = k.d0
join hb as bv on bv.i = least(k.d0 + 3 * r.r, :dates - 1)
left join hb as bn on r.r < k.revs - 1 and bn.i = least(k.d0 + 3 * (r.r + 1), :dates - 1)
cross join lateral (
  select (case when k.credit then -1 else 1 end
          * (1000 + (k.k * 7919 + r.r * 104729) % 499000) / 100.0)::numeric(14, 2) as net) as n
cross join lateral (
  select n.net, round(n.net * case when k.j % 4 = 0 then 0.07 else 0.19 end, 2) as tax) as a
order by bv.i, k.k, r.r;

update ingest.batch as b
   set file_records = c.n, record_count = c.n, staged_count = c.n, accepted_count = c.n, distinct_keys = c.n,
       control_total = c.gross, size_bytes = c.n * 140,
       manifest = jsonb_build_object('source', b.source, 'business_date', b.business_date,
                                     'record_count', c.n, 'control_total', c.gross::text),
       merge_counts = jsonb_build_object('inserted', c.n - c.amended, 'amended', c.amended,
                                         'voided', 0, 'late', 0, 'unchanged', 0,
                                         'duplicates', 0, 'rejected', 0, 'records', c.n)
  from (select v.batch_id, count(*)::integer as n, sum(v.gross_amount) as gross,
               count(*) filter (where v.revision > 0)::integer as amended
        from core.invoice_version as v group by v.batch_id) as c
 where c.batch_id = b.batch_id;

insert into ingest.attempt (batch_id, attempt_no, run_id, host, pid, db_user, backend_pid,
                            state_at_start, state_at_end, started_at, finished_at, outcome)
select hb.batch_id, 1, md5('bench-attempt:' || hb.batch_id)::uuid, 'bench', 1, 'invoice_loader',
       1, 'received', 'published', hb.published_at - interval '2 minutes', hb.published_at,
       'published'
from hb order by hb.i;

insert into ingest.batch_event (batch_id, attempt_id, from_state, to_state, at, db_user)
select hb.batch_id, case when s.n > 0 then a.attempt_id end, s.from_state, s.to_state,
       hb.published_at - (3 - s.n) * interval '30 seconds', 'invoice_loader'
from hb
join ingest.attempt as a on a.batch_id = hb.batch_id
cross join (values (0, null, 'received'), (1, 'received', 'staged'),
                   (2, 'staged', 'validated'), (3, 'validated', 'published'))
  as s(n, from_state, to_state)
order by hb.i, s.n;

insert into ingest.outbox (batch_id, kind, dedupe_key, payload, created_at, dispatched_at, state)
select b.batch_id, 'batch_published', 'batch_published:' || b.batch_id,
       jsonb_build_object('batch_id', b.batch_id, 'source', b.source,
                          'business_date', b.business_date, 'sha256', b.sha256,
                          'counts', b.merge_counts),
       b.published_at, b.published_at + interval '1 minute', 'dispatched'
from ingest.batch as b order by b.batch_id;

insert into ingest.source_watermark (source, business_date, batch_id, advanced_at)
select :'source', hb.business_date, hb.batch_id, hb.published_at
from hb order by hb.i desc limit 1;
commit;
reset session_replication_role;
vacuum (freeze, analyze);
checkpoint;
SQL
build_ms=$(($(now_ms) - build_start))

IFS='|' read -r h_versions h_current h_keys h_batches h_mark h_size < <(val -d bench_history -c "
  select count(*), count(*) filter (where is_current), count(distinct invoice_number),
         (select count(*) from ingest.batch),
         (select business_date from ingest.watermark),
         pg_size_pretty(pg_database_size(current_database()))
  from core.invoice_version")
[[ $h_mark == "$(val -c "select (date '$batch_date' - 1)::text")" ]] ||
  { echo "bench-publish: the history's watermark is $h_mark, not the day before $batch_date" >&2; exit 70; }
note "history built in $((build_ms / 1000)) s: $h_versions versions ($h_current current, $h_keys keys), $h_batches batches, database $h_size"

csv=$("$repo/scripts/gen-invoices.sh" --source "$source" "$work" "$batch_date" "$batch")

psql_su -d postgres -c 'create table bench_result (
  scenario text, rep int, batch_id bigint, copy_ms numeric, validate_ms numeric,
  publish_ms numeric, attempt_ms numeric, revert_ms numeric)'

# load_into DB: load the batch file, as the loader role, into DB.
load_into() {
  local db=$1 rc=0
  "$loader" --dsn "dbname=$db user=invoice_loader" load --source "$source" \
    --business-date "$batch_date" --input "$csv" >"$work/load.out" 2>"$work/load.err" || rc=$?
  if [[ $rc -ne 0 || $(val -d "$db" -c "select state from ingest.batch_overview
                                        where sha256 = '$(sha256sum <"$csv" | cut -c1-64)'") != published ]]; then
    echo "bench-publish: the load into $db did not publish (exit $rc):" >&2
    cat "$work/load.out" "$work/load.err" >&2
    exit 70
  fi
}

fresh_copy() {
  psql_su -d postgres -c "drop database if exists $1" \
    -c "create database $1 template $2 strategy file_copy" -c 'checkpoint'
}

# One repetition: a fresh copy of the template, one load, its durations.
measure() {
  local scenario=$1 rep=$2 db=bench_run
  fresh_copy "$db" "bench_$scenario"
  load_into "$db"
  local row bid copy_ms validate_ms publish_ms attempt_ms
  row=$(step_times "$db" true)   # load_into checked that it is published
  IFS="|" read -r bid _ copy_ms validate_ms publish_ms attempt_ms <<<"$row"
  # The revert of what was just published: the batch's versions leave,
  # the watermark goes back (what it superseded: nothing here, all new).
  local revert_ms
  revert_ms=$(psql -X -qAt -v ON_ERROR_STOP=1 -d "dbname=$db user=invoice_operator" \
                -c '\timing on' -c "select reverted_versions from ingest.revert_batch($bid, 'bench')" |
              awk -v n="$batch" '
                /^[0-9]+$/ { got = $1 }
                /^Time: / { ms = $2 }
                END { if (got != n || ms == "") exit 1; print ms }') ||
    { echo "bench-publish: the revert of batch $bid in $db did not revert $batch versions" >&2; exit 70; }
  val -d postgres -c "insert into bench_result values ('$scenario', $rep, $bid, $copy_ms,
    $validate_ms, $publish_ms, $attempt_ms, round($revert_ms, 1))" >/dev/null
  note "rep $rep $scenario: copy $copy_ms ms, validation $validate_ms ms, publication $publish_ms ms, attempt $attempt_ms ms, revert $revert_ms ms"
}

for ((rep = 1; rep <= reps; ++rep)); do
  measure empty "$rep"
  if [[ -n $analyzed_empty ]]; then measure empty_analyzed "$rep"; fi
  measure history "$rep"
done

# ---------------------------------------------------------------- report
echo
report_machine "$load_at_start"
echo "== workload"
echo "loader: $loader ($("$loader" --version 2>&1 | head -n 1))"
echo "history: $h_versions versions ($h_current current, $h_keys invoices) in $h_batches published batches, database $h_size, built in $((build_ms / 1000)) s"
echo "batch: $batch new invoices for $batch_date (watermark $h_mark), $(wc -c <"$csv") bytes; $reps repetitions per history, each into a fresh copy"
echo
echo "== results (ms; medians over $reps repetitions)"
val -d postgres -F '|' -c "
  with m as (
    select scenario, f.figure, f.ord, f.ms
    from bench_result
    cross join lateral (values ('COPY (received->staged)', 1, copy_ms),
                               ('validation (staged->validated)', 2, validate_ms),
                               ('publication (validated->published)', 3, publish_ms),
                               ('whole attempt (attempt_overview)', 4, attempt_ms),
                               ('revert of the batch (client-timed)', 5, revert_ms))
      as f(figure, ord, ms)),
  s as (
    select scenario, figure, ord,
           percentile_cont(0.5) within group (order by ms) as med, min(ms) as lo, max(ms) as hi
    from m group by scenario, figure, ord)
  select s.figure || case s.scenario when 'empty' then ', empty history'
                                     when 'empty_analyzed' then ', empty history, ANALYZEd'
                                     else ', $h_versions versions' end,
         round(s.med::numeric, 1), s.lo, s.hi,
         case when s.scenario <> 'empty'
              then round((s.med / nullif(e.med, 0))::numeric, 2) || 'x' else '' end,
         case when s.scenario = 'history' and s.ord in (3, 5) then '<= 1.5x' else '' end,
         case when s.scenario = 'history' and s.ord in (3, 5)
              then case when s.med <= 1.5 * e.med then 'met' else 'NOT met' end else '' end
  from s join s as e on e.figure = s.figure and e.scenario = 'empty'
  order by s.ord, s.scenario = 'history', s.scenario" >"$work/table"
{
  echo "figure|median|min|max|ratio to empty|target|met"
  cat "$work/table"
} | awk -F'|' '
  { for (i = 1; i <= NF; ++i) { cell[NR, i] = $i; if (length($i) > w[i]) w[i] = length($i) } n = NR; nf = NF }
  END {
    for (r = 1; r <= n; ++r) {
      line = ""
      for (i = 1; i <= nf; ++i)
        line = line sprintf(i == 1 ? "%-*s" : " | %*s", w[i], cell[r, i])
      print line
      if (r == 1) { gsub(/[^|]/, "-", line); print line }
    }
  }'
# (the plans below are publication's: its target decides)
met=$(awk -F'|' '$1 ~ /^publication/ && $7 != "" { print $7 }' "$work/table")
echo
echo "== every repetition (ms): scenario rep copy validation publication attempt revert"
val -d postgres -F ' ' -c "select scenario, rep, copy_ms, validate_ms, publish_ms, attempt_ms, revert_ms
                           from bench_result order by rep, scenario = 'history', scenario"

if [[ $explain == always || ($explain == auto && $met != met) ]]; then
  echo
  echo "== EXPLAIN (ANALYZE, BUFFERS) of ingest.publish_batch statements taking >= $explain_min_ms ms"
  echo "   (auto_explain, one extra load into a fresh history copy, not in the table;"
  echo "   timing instrumentation makes it slower than the measured runs)"
  fresh_copy bench_run bench_history
  psql_su -d postgres \
    -c "alter database bench_run set session_preload_libraries = 'auto_explain'" \
    -c "alter database bench_run set auto_explain.log_min_duration = $explain_min_ms" \
    -c "alter database bench_run set auto_explain.log_analyze = on" \
    -c "alter database bench_run set auto_explain.log_buffers = on" \
    -c "alter database bench_run set auto_explain.log_triggers = on" \
    -c "alter database bench_run set auto_explain.log_nested_statements = on"
  log_from=$(($(stat -c %s "$TMP_PG_LOG") + 1))
  load_into bench_run
  val -d bench_run -c "select 'publication in this run: ' || round(extract(epoch from
      max(at) filter (where to_state = 'published') - max(at) filter (where to_state = 'validated'))
      * 1000, 1) || ' ms' from ingest.batch_event_overview
      where batch_id = (select max(batch_id) from ingest.batch_overview)"
  # A log entry starts with a timestamp; its CONTEXT (the function and line)
  # is a separate line of the same form and belongs to it.  Keep the
  # auto_explain entries of publish_batch: a summary, slowest first, then
  # the plans in execution order.
  tail -c "+$log_from" "$TMP_PG_LOG" | awk '
    function flush() {
      if (entry ~ /duration: [0-9.]+ ms +plan:/ &&
          (entry ~ /function ingest\.publish_batch/ || entry ~ /from ingest\.publish_batch\(/)) {
        ++n; plan[n] = entry
        match(entry, /duration: [0-9.]+ ms/); ms[n] = substr(entry, RSTART + 10, RLENGTH - 13) + 0
        where[n] = "top level"
        if (match(entry, /publish_batch\(bigint,bigint\) line [0-9]+/))
          where[n] = "line " substr(entry, RSTART + 34, RLENGTH - 34)
        match(entry, /Query Text: /); t = substr(entry, RSTART + 12)
        if (index(t, "\n")) t = substr(t, 1, index(t, "\n") - 1)
        gsub(/ +/, " ", t); text[n] = substr(t, 1, 100)
      }
      entry = ""
    }
    /^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9] [0-9:.]+ [A-Z]+ \[[0-9]+\] (CONTEXT|DETAIL|HINT|STATEMENT): / {
      entry = entry "\n" $0; next
    }
    /^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9] / { flush(); entry = $0; next }
    { entry = entry "\n" $0 }
    END {
      flush()
      for (i = 1; i <= n; ++i) order[i] = i
      for (i = 2; i <= n; ++i)
        for (j = i; j > 1 && ms[order[j]] > ms[order[j - 1]]; --j) {
          t = order[j]; order[j] = order[j - 1]; order[j - 1] = t
        }
      print "-- summary (ms, where in ingest.publish_batch, statement):"
      for (i = 1; i <= n; ++i)
        printf "%10.1f  %-10s  %s\n", ms[order[i]], where[order[i]], text[order[i]]
      print ""
      for (i = 1; i <= n; ++i) print plan[i] "\n"
    }'
fi
