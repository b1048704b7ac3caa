#!/usr/bin/env bash
# bench.sh: the project's performance benchmark (issue 5): how fast is
# `invoice-loader load` against plain `psql \copy` and pgloader, how much
# memory does it take, and does publication slow down over a long history?
#
# Usage: scripts/bench.sh [--reps N] [--data-dir DIR] [--with-10m]
#                         [--skip-history] [--big N] [--history-size N]
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
#   --history-size N  versions of history for scripts/bench-publish.sh
#                     (default 5000000; smaller only for development)
#   -h, --help        this text
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
# What it does, on its own throwaway cluster (scripts/with-tmp-pg.sh; this
# script re-invokes itself inside with --inside; fsync on unless
# WITH_TMP_PG_FAST=1 is in the environment, as for bench-publish.sh):
#   1. the files: the seed sample (scripts/make-sample.sh: 20 invoices,
#      4,200.00) and scripts/gen-invoices.sh files of 100k, 1M (10M) records
#      for 2026-11-28, each in DIR/<name>/ with its manifest; generation is
#      deterministic, so a file whose manifest is there is reused;
#   2. one template database, migrated, source acme-erp registered with the
#      file's date as start date (the batch is the source's first date);
#   3. per repetition and file size, one after the other, so that drift hits
#      all of them: the loader, then psql \copy, then (on the 1M file)
#      pgloader, each into its own fresh database, after a CHECKPOINT (no
#      dirty buffers of the previous step), the database dropped after use:
#        load      invoice-loader load, as invoice_loader, into a copy of the
#                  template (CREATE DATABASE ... STRATEGY FILE_COPY);
#        \copy     psql -c '\copy t from FILE with (format csv, header)'
#                  into a new logged table of one text column per CSV
#                  header column;
#        load_url  the same load with --input and --manifest as http://
#                  URLs of the same files, served on loopback by
#                  tests/tools/http_server.py (seed and big files only), into
#                  an empty --spool-dir (so every repetition downloads);
#        pgloader  Debian's pgloader, LOAD CSV (skip header, '"' quotes) into
#                  such a table, created beforehand, no truncate; it reaches
#                  the socket-only server as
#                  postgresql://postgres@unix:$PGHOST:$PGPORT/DB;
#      every command runs under /usr/bin/time -v (peak RSS) and its whole
#      process is timed, wall clock, start to exit; the loader's phases come
#      from the database's own records: ingest.batch_event_overview
#      (received->staged: COPY; staged->validated: validation;
#      validated->published: publication) and ingest.attempt_overview (the
#      whole attempt);
#   4. scripts/bench-publish.sh --reps N --no-explain (its own cluster, a
#      history of --history-size versions, about 80 s to build at 5M): its
#      publication-over-history row goes into this table, its own table
#      and repetitions are printed after this one's;
#   5. prints the machine, the PostgreSQL settings that matter, one markdown
#      table (figure | median | min | max | baseline | baseline median |
#      ratio | target | met) and every repetition's raw numbers.
# A benchmark, not a test: it exits 0 whether or not the targets are met, and
# non-zero only when something failed: a load that did not publish (exit
# status, batch state, reporting.invoice count), a baseline that loaded a
# different count, a tool that could not be installed.
# Installs what it needs and lacks (Debian packages time, pgloader).
set -euo pipefail
# shellcheck source=scripts/lib/bench_report.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/bench_report.sh"
export LC_ALL=C
repo=$(cd "$(dirname "$0")/.." && pwd)

help() {
  sed -n '2,/^set -euo pipefail$/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
  exit 0
}
usage_error() {
  echo "bench: $1" >&2
  sed -n '6,8p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 64
}

reps=3 data_dir=/var/tmp/invoice-loader-bench with_10m='' skip_history='' big=1000000
history_size=5000000 smoke='' inside=''
while [[ $# -gt 0 ]]; do
  case $1 in
    --inside) inside=1; shift ;;
    --reps) [[ $# -ge 2 ]] || usage_error "--reps wants a value"; reps=$2; shift 2 ;;
    --data-dir) [[ $# -ge 2 ]] || usage_error "--data-dir wants a value"; data_dir=$2; shift 2 ;;
    --with-10m) with_10m=1; shift ;;
    --skip-history) skip_history=1; shift ;;
    --big) [[ $# -ge 2 ]] || usage_error "--big wants a value"; big=$2; shift 2 ;;
    --history-size) [[ $# -ge 2 ]] || usage_error "--history-size wants a value"; history_size=$2; shift 2 ;;
    --smoke) smoke=1; shift ;;
    -h | --help) help ;;
    *) usage_error "unknown argument '$1'" ;;
  esac
done
for v in reps big history_size; do
  [[ ${!v} =~ ^[0-9]{1,8}$ ]] || usage_error "--${v//_/-} wants a whole number below 10^8"
done
reps=$((10#$reps)) big=$((10#$big)) history_size=$((10#$history_size))
((reps >= 1 && big >= 1 && history_size >= 1)) ||
  usage_error "--reps, --big and --history-size must be at least 1"
# The paths go into a psql \copy command and a pgloader URL unquoted.
data_dir=$(realpath -m "$data_dir")
[[ $data_dir =~ ^[A-Za-z0-9._/-]+$ ]] ||
  usage_error "--data-dir may only hold A-Z a-z 0-9 . _ / - (it is put into commands unquoted)"

loader=${INVOICE_LOADER:-$repo/build/loader/invoice-loader}
cd "$repo"

# need_package COMMAND PACKAGE: install the Debian package when COMMAND is missing.
need_package() {
  if command -v "$1" >/dev/null; then return 0; fi
  echo "bench: installing the Debian package $2 (for $1)" >&2
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
           apt-get install -y -qq --no-install-recommends "$2"; } >&2; then
    echo "bench: could not install the Debian package $2, which provides $1;" \
         "install it (apt-get install $2) and run again" >&2
    exit 69
  fi
}

if [[ -z $inside ]]; then
  if [[ ! -x $loader ]]; then
    echo "bench: building $loader" >&2
    cmake -S "$repo" -B "$repo/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
    cmake --build "$repo/build" -j"$(nproc)" --target invoice-loader >/dev/null
  fi
  need_package /usr/bin/time time
  if [[ -z $smoke ]]; then need_package pgloader pgloader; fi
  args=(--reps "$reps" --data-dir "$data_dir" --big "$big" --history-size "$history_size")
  if [[ -n $smoke ]]; then args+=(--smoke); fi
  if [[ -n $with_10m ]]; then args+=(--with-10m); fi
  if [[ -n $skip_history ]]; then args+=(--skip-history); fi
  exec scripts/with-tmp-pg.sh "$0" --inside "${args[@]}"
fi

# ---------------------------------------------------------------- inside
load_at_start=$(cut -d" " -f1-3 /proc/loadavg)
export PGOPTIONS="${PGOPTIONS:-} -c client_min_messages=warning"
# psql would otherwise pick the client encoding from the locale (C: SQL_ASCII).
export PGCLIENTENCODING=UTF8
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

readonly source=acme-erp
readonly batch_date=2026-11-28
small_reps=5
if [[ -n $smoke ]]; then small_reps=1; fi

psql_su() { psql -X -q -v ON_ERROR_STOP=1 "$@"; }
val() { psql -X -qAt -v ON_ERROR_STOP=1 "$@"; }
note() { printf '%s  %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
fail() {
  echo "bench: $*" >&2
  exit 70
}
# manifest_field CSV FIELD: a number or string field of CSV's manifest.
manifest_field() {
  sed -n "s/.*\"$2\": *\"\{0,1\}\([^\",}]*\).*/\1/p" "$1.manifest.json"
}

# ---------------------------------------------------------------- the files
# cached_file NAME COUNT GENERATOR: DIR/NAME/<csv>, written by GENERATOR
# OUT_DIR DATE COUNT unless its manifest says it is already there with COUNT
# records; prints the CSV's path.
cached_file() {
  local dir=$data_dir/$1 count=$2 generator=$3 csv
  csv=$dir/${source}_$batch_date.csv
  if [[ -f $csv && -f $csv.manifest.json && $(manifest_field "$csv" record_count) == "$count" ]]; then
    note "reusing $csv"
  else
    note "generating $csv ($count invoices)"
    csv=$("$generator" "$dir" "$batch_date" "$count")
  fi
  echo "$csv"
}
seed_sample() { scripts/make-sample.sh "$1" "$2"; }   # always 20 invoices
generated() { scripts/gen-invoices.sh --source "$source" "$1" "$2" "$3"; }

# The seed sample, then the generated sizes, each with a role: big (the 1M
# targets and pgloader) or size (the others: memory is what they are for).
seed_csv=$(cached_file seed 20 seed_sample)
sizes=()
declare -A csv_of role_of
if [[ -z $smoke ]]; then
  if ((big > 100000)); then sizes+=(100000); fi
  sizes+=("$big")
  if [[ -n $with_10m && $big -ne 10000000 ]]; then sizes+=(10000000); fi
  for n in "${sizes[@]}"; do
    csv_of[$n]=$(cached_file "n$n" "$n" generated)
    role_of[$n]=size
  done
  role_of[$big]=big
fi

# ---------------------------------------------------------------- measuring
note "template database bench_tpl: migrated, source $source from $batch_date"
createdb bench_tpl
"$loader" -q --dsn "dbname=bench_tpl" migrate >/dev/null
"$loader" -q --dsn "dbname=bench_tpl user=invoice_operator" \
  source add "$source" --start-date "$batch_date" >/dev/null
psql_su -d postgres -c 'create table bench_raw (
  role text, records integer, rep integer, tool text, metric text, value numeric)'

# record ROLE RECORDS REP TOOL METRIC=VALUE...: one raw measurement each.
record() {
  local role=$1 records=$2 rep=$3 tool=$4 mv values=()
  shift 4
  for mv in "$@"; do
    values+=("('$role', $records, $rep, '$tool', '${mv%%=*}', ${mv#*=})")
  done
  val -d postgres -c "insert into bench_raw values $(IFS=,; echo "${values[*]}")" >/dev/null
}

# fresh_db DB [TEMPLATE]: drop and create DB, as a copy of TEMPLATE
# (default template0).
fresh_db() {
  psql_su -d postgres -c "drop database if exists $1" \
    -c "create database $1 template ${2:-template0} strategy file_copy"
}

# text_table DB CSV: in DB, the logged table bench_text with one text column
# per column of CSV's header.
text_table() {
  local header col cols=()
  IFS=, read -ra header < <(head -n 1 "$2")
  for col in "${header[@]}"; do
    [[ $col =~ ^[a-z_][a-z0-9_]*$ ]] || fail "unexpected header column '$col' in $2"
    cols+=("$col text")
  done
  psql_su -d "$1" -c "create table bench_text ($(IFS=,; echo "${cols[*]}"))"
}

# timed NAME CMD...: a CHECKPOINT (so that no step pays for the dirty
# buffers of the one before), then CMD under /usr/bin/time -v, its output in
# $work/NAME.{out,err}; sets wall_ms (the whole process, start to exit, from
# bash's clock: no fork on the clock) and rss_kb (its peak resident set);
# returns CMD's status.
timed() {
  local name=$1 rc=0 t0 t1
  shift
  psql_su -d postgres -c checkpoint
  t0=${EPOCHREALTIME/./}
  /usr/bin/time -v -o "$work/$name.time" "$@" >"$work/$name.out" 2>"$work/$name.err" || rc=$?
  t1=${EPOCHREALTIME/./}
  wall_ms=$(((t1 - t0) / 1000)).$(((t1 - t0) % 1000 / 100))
  rss_kb=$(awk -F': *' '/Maximum resident set size/ { print $2 }' "$work/$name.time")
  return "$rc"
}

# expect_rows NAME DB COUNT: bench_text in DB holds COUNT rows, or fail
# (with NAME's output).
expect_rows() {
  local got
  got=$(val -d "$2" -c 'select count(*) from bench_text')
  [[ $got == "$3" ]] || {
    cat "$work/$1.out" "$work/$1.err" >&2
    fail "$1 loaded $got rows of $3 into $2"
  }
}

# measure_load ROLE CSV REP [TOOL INPUT]: the loader, into a fresh copy of
# the template, reading INPUT (default CSV; a URL for TOOL load_url, its
# manifest at INPUT.manifest.json) with an empty spool; fails unless the
# batch is published with every invoice of the file.
measure_load() {
  local role=$1 csv=$2 rep=$3 tool=${4:-load} input=${5:-$2} db=bench_load rc=0 n sha row
  n=$(manifest_field "$csv" record_count)
  sha=$(manifest_field "$csv" sha256)
  fresh_db "$db" bench_tpl
  rm -rf "$work/spool"
  local manifest=$csv.manifest.json
  if [[ $input != "$csv" ]]; then manifest=$input.manifest.json; fi
  timed load "$loader" --dsn "dbname=$db user=invoice_loader" load --source "$source" \
    --business-date "$batch_date" --input "$input" --manifest "$manifest" \
    --spool-dir "$work/spool" || rc=$?
  row=$(step_times "$db" "sha256 = '$sha'")
  local bid state invoices copy_ms validate_ms publish_ms attempt_ms
  IFS='|' read -r bid state copy_ms validate_ms publish_ms attempt_ms <<<"$row"
  invoices=$(val -d "$db" -c "select count(*) from reporting.invoice where batch_id = ${bid:-0}")
  if [[ $rc -ne 0 || $state != published || $invoices != "$n" ]]; then
    cat "$work/load.out" "$work/load.err" >&2
    fail "the load of $csv did not publish: exit $rc, state '${state:-none}'," \
         "${invoices:-no} invoices in reporting.invoice (want $n)"
  fi
  record "$role" "$n" "$rep" "$tool" "wall_ms=$wall_ms" "rss_kb=$rss_kb" "copy_ms=$copy_ms" \
    "validate_ms=$validate_ms" "publish_ms=$publish_ms" "attempt_ms=$attempt_ms"
  note "rep $rep, $n invoices: $tool $wall_ms ms (COPY $copy_ms, validation $validate_ms," \
       "publication $publish_ms), peak RSS $rss_kb kB"
  psql_su -d postgres -c "drop database $db"
}

# measure_copy ROLE CSV REP: psql \copy of the same file into a fresh text
# table.
measure_copy() {
  local role=$1 csv=$2 rep=$3 db=bench_copy rc=0 n
  n=$(manifest_field "$csv" record_count)
  fresh_db "$db"
  text_table "$db" "$csv"
  timed copy psql -X -q -v ON_ERROR_STOP=1 -d "$db" \
    -c "\\copy bench_text from '$csv' with (format csv, header true)" || rc=$?
  [[ $rc -eq 0 ]] || { cat "$work/copy.err" >&2; fail "psql \\copy of $csv failed (exit $rc)"; }
  expect_rows copy "$db" "$n"
  record "$role" "$n" "$rep" psql_copy "wall_ms=$wall_ms" "rss_kb=$rss_kb"
  note "rep $rep, $n invoices: psql \\copy $wall_ms ms"
  psql_su -d postgres -c "drop database $db"
}

# measure_pgloader ROLE CSV REP: pgloader, the same file into a fresh text
# table.  The server listens on a unix socket only: pgloader's URL names the
# socket's directory and port (postgresql://USER@unix:DIR:PORT/DB).
# pgloader exits 0 even when it rejects rows, hence the count.
measure_pgloader() {
  local role=$1 csv=$2 rep=$3 db=bench_pgloader rc=0 n cols
  n=$(manifest_field "$csv" record_count)
  fresh_db "$db"
  text_table "$db" "$csv"
  cols=$(head -n 1 "$csv" | sed 's/,/, /g')
  cat >"$work/pgloader.load" <<EOF
LOAD CSV
  FROM '$csv' WITH ENCODING utf-8 ($cols)
  INTO postgresql://$PGUSER@unix:$PGHOST:$PGPORT/$db
       TARGET TABLE public.bench_text
  WITH skip header = 1, fields optionally enclosed by '"', fields terminated by ','
;
EOF
  timed pgloader pgloader --root-dir "$work/pgloader-root" "$work/pgloader.load" || rc=$?
  [[ $rc -eq 0 ]] || {
    cat "$work/pgloader.out" "$work/pgloader.err" >&2
    fail "pgloader failed on $csv (exit $rc)"
  }
  expect_rows pgloader "$db" "$n"
  record "$role" "$n" "$rep" pgloader "wall_ms=$wall_ms" "rss_kb=$rss_kb"
  note "rep $rep, $n invoices: pgloader $wall_ms ms"
  psql_su -d postgres -c "drop database $db"
}

# The files over HTTP on loopback, for load_url: tests/tools/http_server.py
# serving DIR (its first line on stdout is the port), stopped by the trap.
python3 "$repo/tests/tools/http_server.py" --root "$data_dir" --host 127.0.0.1 --port 0 \
  --lifetime 86400 >"$work/http.port" 2>"$work/http.err" &
http_pid=$!
trap 'kill "$http_pid" 2>/dev/null || true; rm -rf "$work"' EXIT
for ((i = 0; i < 100; i++)); do [[ -s $work/http.port ]] && break; sleep 0.1; done
http_port=$(head -n 1 "$work/http.port")
[[ $http_port =~ ^[0-9]+$ ]] || fail "tests/tools/http_server.py did not start: $(cat "$work/http.err")"
# url_of CSV: its URL on that server.
url_of() { echo "http://127.0.0.1:$http_port/${1#"$data_dir"/}"; }

# Loader and baselines alternate within each repetition.
for ((rep = 1; rep <= small_reps; ++rep)); do
  measure_load seed "$seed_csv" "$rep"
  measure_load seed "$seed_csv" "$rep" load_url "$(url_of "$seed_csv")"
  measure_copy seed "$seed_csv" "$rep"
done
for ((rep = 1; rep <= reps; ++rep)); do
  for n in "${sizes[@]}"; do
    measure_load "${role_of[$n]}" "${csv_of[$n]}" "$rep"
    if [[ ${role_of[$n]} == big ]]; then
      measure_load big "${csv_of[$n]}" "$rep" load_url "$(url_of "${csv_of[$n]}")"
    fi
    measure_copy "${role_of[$n]}" "${csv_of[$n]}" "$rep"
    if [[ ${role_of[$n]} == big ]]; then measure_pgloader big "${csv_of[$n]}" "$rep"; fi
  done
done

# ---------------------------------------------------------------- history
# The row "figure|median|min|max|baseline|baseline median|ratio|target|met"
# of publication over the history, from bench-publish.sh's table, whose
# columns are figure | median | min | max | ratio to empty | target | met.
history_figure="publication (validated->published) of a 10k batch over $history_size versions"
history_row="$history_figure|skipped|||||||skipped"
if [[ -z $smoke && -z $skip_history ]]; then
  note "scripts/bench-publish.sh --history $history_size --reps $reps (its own cluster)"
  INVOICE_LOADER=$loader scripts/bench-publish.sh --history "$history_size" --reps "$reps" \
    --no-explain >"$work/history.out" || fail "scripts/bench-publish.sh failed (exit $?)"
  history_row=$(awk -F' *[|] *' -v figure="$history_figure" '
    $1 ~ /^publication .*, empty history$/ { base = $2 }
    $6 ~ /^<=/ { med = $2; lo = $3; hi = $4; ratio = $5; target = $6; met = $7 }
    END {
      if (med == "" || base == "") exit 1
      printf "%s|%s ms|%s ms|%s ms|the same, empty history|%s ms|%s|%s|%s\n",
             figure, med, lo, hi, base, ratio, target, met
    }' "$work/history.out") || fail "no publication-over-history row in bench-publish.sh's table"
fi

# ---------------------------------------------------------------- report
# md_table: pipe-separated lines, the first the header, as an aligned
# markdown table.
md_table() {
  awk -F'|' '
    { for (i = 1; i <= NF; ++i) { cell[NR, i] = $i; if (length($i) > w[i]) w[i] = length($i) }
      n = NR; if (NF > nf) nf = NF }
    END {
      for (r = 1; r <= n; ++r) {
        line = "|"
        for (i = 1; i <= nf; ++i) line = line sprintf(i == 1 ? " %-*s |" : " %*s |", w[i], cell[r, i])
        print line
        if (r == 1) {
          line = "|"
          for (i = 1; i <= nf; ++i) { dash = sprintf("%*s", w[i] + 2, ""); gsub(/ /, "-", dash); line = line dash "|" }
          print line
        }
      }
    }'
}

# The figures from the medians, each line led by a sort key: section 1 the
# times per file (seed first, then by size), 2 the history, 3 peak memory.
# The ratio targets apply to the seed sample and the big (1M) file, the
# memory target to every generated file.
val -d postgres -F '|' -c "
  create function pg_temp.size_label(n integer, role text) returns text language sql as \$\$
    select case when role = 'seed' then n || ' invoices (seed)'
                when n % 1000000 = 0 then n / 1000000 || 'M invoices'
                when n % 1000 = 0 then n / 1000 || 'k invoices'
                else n || ' invoices' end \$\$;
  create function pg_temp.fmt(v numeric, metric text) returns text language sql as \$\$
    select case when metric = 'rss_kb' then round(v / 1024, 1) || ' MB'
                else round(v, 1) || ' ms' end \$\$;
  with stats as (
    select role, records, tool, metric,
           percentile_cont(0.5) within group (order by value::float8)::numeric as med,
           min(value) as lo, max(value) as hi
    from bench_raw group by role, records, tool, metric),
  files as (select distinct role, records from bench_raw),
  spec as (
    select f.role, f.records, s.*
    from files as f
    cross join lateral (values
      (1, 1, 'load, file to published', 'load', 'wall_ms',
       'psql \\copy', f.role, f.records, 'psql_copy', 'wall_ms',
       'ratio', case f.role when 'seed' then 5 when 'big' then 4 end),
      (1, 2, 'COPY phase of load (received->staged)', 'load', 'copy_ms',
       'psql \\copy', f.role, f.records, 'psql_copy', 'wall_ms',
       'ratio', case f.role when 'big' then 1.2 end),
      (1, 3, 'load vs pgloader, end to end (ratio: pgloader / load)', 'load', 'wall_ms',
       'pgloader', f.role, f.records, 'pgloader', 'wall_ms', 'speedup', 10),
      (1, 4, 'validation (staged->validated)', 'load', 'validate_ms',
       null, null, null, null, null, null, null),
      (1, 5, 'publication (validated->published)', 'load', 'publish_ms',
       null, null, null, null, null, null, null),
      (1, 6, 'whole attempt (attempt_overview)', 'load', 'attempt_ms',
       null, null, null, null, null, null, null),
      (1, 7, 'load --input http://127.0.0.1 (download, then the same load)', 'load_url',
       'wall_ms', 'load of the local file', f.role, f.records, 'load', 'wall_ms',
       'ratio', case f.role when 'big' then 1.1 end),
      (3, 1, 'loader peak RSS', 'load', 'rss_kb',
       case when f.role <> 'seed' then 'loader, 20 invoices (seed)' end, 'seed', 20,
       case when f.role <> 'seed' then 'load' end, 'rss_kb',
       'memory', case when f.role <> 'seed' then 64 end))
      as s(section, ord, figure, tool, metric, base_name, base_role, base_records, base_tool,
           base_metric, kind, target)),
  fig as (
    select sp.*, m.med, m.lo, m.hi, b.med as base_med,
           case sp.kind when 'speedup' then b.med / nullif(m.med, 0)
                        else m.med / nullif(b.med, 0) end as ratio
    from spec as sp
    join stats as m on (m.role, m.records, m.tool, m.metric) = (sp.role, sp.records, sp.tool, sp.metric)
    left join stats as b
      on (b.role, b.records, b.tool, b.metric)
       = (sp.base_role, sp.base_records, sp.base_tool, sp.base_metric)
    where sp.base_tool is null or b.med is not null)
  select f.section, f.role <> 'seed', f.records, f.ord,
         f.figure || ', ' || pg_temp.size_label(f.records, f.role),
         pg_temp.fmt(f.med, f.metric), pg_temp.fmt(f.lo, f.metric), pg_temp.fmt(f.hi, f.metric),
         coalesce(f.base_name, ''), coalesce(pg_temp.fmt(f.base_med, f.base_metric), ''),
         coalesce(round(f.ratio, 2) || 'x', ''),
         case f.kind when 'ratio' then '<= ' || f.target || 'x'
                     when 'speedup' then '>= ' || f.target || 'x'
                     when 'memory' then '<= ' || f.target || ' MB' else '' end,
         case when f.target is null then ''
              when case f.kind when 'ratio' then f.ratio <= f.target
                               when 'speedup' then f.ratio >= f.target
                               else f.hi <= f.target * 1024 end then 'met'
              else 'NOT met' end
  from fig as f" >"$work/figures"
echo "2|f|0|0|$history_row" >>"$work/figures"
sort -t'|' -k1,1n -k2,2 -k3,3n -k4,4n "$work/figures" | cut -d'|' -f5- >"$work/table"

echo
report_machine "$load_at_start"
echo "== workload"
echo "loader: $loader ($("$loader" --version 2>&1 | head -n 1))"
if [[ -z $smoke ]]; then echo "pgloader: $(pgloader --version 2>&1 | head -n 1)"; fi
for csv in "$seed_csv" "${csv_of[@]}"; do
  echo "file: $csv, $(manifest_field "$csv" record_count) invoices, $(wc -c <"$csv") bytes"
done
echo "repetitions: $small_reps of the seed figures${sizes[*]:+, $reps of the others};" \
     "each run into a fresh database after a CHECKPOINT"
echo
echo "== results (medians; ratio = median / baseline median; for pgloader baseline / median)"
{
  echo "figure|median|min|max|baseline|baseline median|ratio|target|met"
  cat "$work/table"
} | md_table
echo
echo "targets met: $(grep -c '|met$' "$work/table" || true)" \
     "of $(grep -c '|\(NOT \)\{0,1\}met$' "$work/table" || true)"
echo "loader peak RSS side by side (invoices: largest of the repetitions):" \
     "$(val -d postgres -c "
          select string_agg(records || ': ' || peak || ' kB', ', ' order by role <> 'seed', records)
          from (select role, records, max(value) as peak from bench_raw
                where tool = 'load' and metric = 'rss_kb' group by role, records) as p")"
echo
echo "== every repetition (ms, kB)"
val -d postgres -F '|' -c "
  select rep, records, tool,
         max(value) filter (where metric = 'wall_ms'),
         max(value) filter (where metric = 'rss_kb'),
         coalesce(max(value) filter (where metric = 'copy_ms')::text, ''),
         coalesce(max(value) filter (where metric = 'validate_ms')::text, ''),
         coalesce(max(value) filter (where metric = 'publish_ms')::text, ''),
         coalesce(max(value) filter (where metric = 'attempt_ms')::text, '')
  from bench_raw
  group by role, records, rep, tool
  order by role <> 'seed', records, rep, array_position(array['load', 'psql_copy', 'pgloader'], tool)" |
  { echo "rep|invoices|tool|process wall|peak RSS|COPY|validation|publication|attempt"; cat; } |
  md_table
if [[ -s $work/history.out ]]; then
  echo
  echo "== scripts/bench-publish.sh --history $history_size --reps $reps"
  sed -n '/^== workload/,$p' "$work/history.out"
fi
