#!/usr/bin/env bash
# The fault soak.  Day after day, one fault of a random kind hits the load
# of that day's file, then a plain rerun must publish it; the day's data
# and the invariant checker are checked after every day.
# Fault kinds:
#   failpoint  SIGKILL at a random boundary (INVOICE_LOADER_FAILPOINT),
#              half of the time a second one on the rerun;
#   kill       SIGKILL at a random moment (exit 137, or 0 if it was done);
#   term       SIGTERM at a random moment: exit 75 once the loader handles
#              signals, 143 until then (or 0 if it was done);
#   terminate  pg_terminate_backend of the loader's session (57P01): the
#              run itself must still publish (exit 0);
#   outage     the server stops (fast or immediate, at random) at a random
#              moment and stays down 1..FAULT_OUTAGE_MAX s: the run itself
#              must still publish (exit 0: an outage shorter than the
#              retry budget costs time, never the outcome);
#   sources    two other sources (beta-erp, gamma-erp) load their next date
#              at the same time as acme-erp, and one of the three loads,
#              drawn at random, is killed at a random boundary: the other
#              two publish untouched (each source has its own publication
#              lock and its own staging partition), and plain reruns
#              publish the killed one.
# The sequence of faults is fixed by the seed; the moments depend on the
# machine's speed.  The summary prints the faults by kind and the
# violations, which must be 0.
#
# Environment: FAULT_ITERATIONS days (default 12, the CI size),
# FAULT_SEED (default 20261128), FAULT_OUTAGE_MAX seconds (default 3),
# FAULT_SUMMARY a file to write the summary to (it also goes to stderr,
# which tests/run-e2e.sh shows only for a failed test).
# A release soak of at least 1,000 faults:
#   FAULT_ITERATIONS=1000 FAULT_OUTAGE_MAX=30 scripts/with-tmp-pg.sh \
#     bash tests/run-e2e.sh tests/e2e/randomized_faults__fixed_seed_converges.sh
source "$(dirname "$0")/lib.sh"
: "${TMP_PG_CTL:?needs scripts/with-tmp-pg.sh}"
# shellcheck disable=SC2086  # TMP_PG_CTL is a command line, split on purpose
trap '$TMP_PG_CTL -w start >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT

seed=${FAULT_SEED:-20261128}
RANDOM=$seed
iterations=${FAULT_ITERATIONS:-12}
outage_max=${FAULT_OUTAGE_MAX:-3}
points=(after_received mid_copy after_staged after_validated
        after_write_commit before_publish_commit after_publish_commit)
kinds=(none failpoint failpoint kill term terminate outage outage sources)
others=(beta-erp gamma-erp)
other_days=0  # dates the other sources have published, from 2026-01-01
dsn="dbname=$E2E_DB user=invoice_loader"
# An outage must cost time, never the outcome: the budget is far longer
# than the longest outage, the tries unbounded in effect.
retry=(--retry-budget $((outage_max * 4 + 60)) --retry-attempts 100)
declare -A faults=() other_csv=()
violations=0 down_seconds=0 started=$(date +%s)

# start_load DATE CSV [ENV...]: the day's load in the background.
start_load() {
  local date=$1 csv=$2; shift 2
  env "$@" "$INVOICE_LOADER" --dsn "$dsn" load --source acme-erp --business-date "$date" \
    --input "$csv" "${retry[@]}" >"$WORK/out" 2>"$WORK/err" &
  loader=$!
}
# start_other SOURCE DATE CSV [ENV...]: another source's load in the
# background; its pid in other_pid[SOURCE], its output in $WORK/SOURCE.*.
declare -A other_pid=()
start_other() {
  local source=$1 date=$2 csv=$3; shift 3
  env "$@" "$INVOICE_LOADER" --dsn "$dsn" load --source "$source" --business-date "$date" \
    --input "$csv" "${retry[@]}" >"$WORK/$source.out" 2>"$WORK/$source.err" &
  other_pid[$source]=$!
}
# A random moment within the first 60 ms of a load (a day's load of the
# sample takes about 45 ms here; a fault after its end finds it done).
random_pause() { sleep "0.$(printf '%03d' $((RANDOM % 60)))"; }
count() { faults[$1]=$(( ${faults[$1]:-0} + 1 )); }
# violation WHAT: counted; the soak goes on, the test fails at the end.
violation() { violations=$((violations + 1)); echo "VIOLATION day $i ($kind): $*" >&2; }
expect_exit() {  # expect_exit DESCRIPTION ALLOWED...
  local what=$1; shift
  local ok
  for ok in "$@"; do [[ $RC == "$ok" ]] && return 0; done
  violation "$what: exit $RC, expected one of $*"
  sed 's/^/    /' "$WORK/err" >&2
}

register_source acme-erp --start-date 2026-01-01
for s in "${others[@]}"; do register_source "$s" --start-date 2026-01-01; done
expect_count=0
for ((i = 0; i < iterations; i++)); do
  date=$(date -d "2026-01-01 + $i days" +%F)
  csv=$(sample "$WORK/d$i" "$date")
  kind=${kinds[RANDOM % ${#kinds[@]}]}
  RC=0
  case $kind in
    none)
      start_load "$date" "$csv"
      { wait $loader; } 2>/dev/null || RC=$?
      expect_exit "plain load" 0
      ;;
    failpoint)
      point=${points[RANDOM % ${#points[@]}]}
      count "failpoint:$point"
      start_load "$date" "$csv" INVOICE_LOADER_FAILPOINT="$point"
      { wait $loader; } 2>/dev/null || RC=$?
      expect_exit "failpoint $point" 137
      if ((RANDOM % 2)); then  # a second fault on the rerun
        point=${points[RANDOM % ${#points[@]}]}
        count "failpoint:$point"
        start_load "$date" "$csv" INVOICE_LOADER_FAILPOINT="$point"
        RC=0
        { wait $loader; } 2>/dev/null || RC=$?
        # The batch may be published by now, when the point lies behind
        # the checkpoint the first fault left: then the run ends at once.
        expect_exit "second failpoint $point" 137 0
      fi
      ;;
    kill)
      count kill
      start_load "$date" "$csv"
      random_pause
      kill -KILL $loader 2>/dev/null || true
      { wait $loader; } 2>/dev/null || RC=$?
      expect_exit "SIGKILL" 137 0
      [[ $RC == 0 ]] && count "kill:after_the_end"
      ;;
    term)
      count term
      start_load "$date" "$csv"
      random_pause
      kill -TERM $loader 2>/dev/null || true
      { wait $loader; } 2>/dev/null || RC=$?
      expect_exit "SIGTERM" 75 143 0
      count "term:exit_$RC"
      ;;
    terminate)
      count terminate
      start_load "$date" "$csv"
      # As soon as there is a session (psql itself takes some 20 ms a look;
      # at most 20 looks).
      hit=0
      for _ in $(seq 20); do
        hit=$(q "select count(*) from (select pg_terminate_backend(pid) from pg_stat_activity
                                       where application_name = 'invoice-loader'
                                         and datname = current_database()) as t")
        [[ $hit -gt 0 ]] && break
        kill -0 $loader 2>/dev/null || break
      done
      [[ $hit -gt 0 ]] || count "terminate:no_session_then"
      { wait $loader; } 2>/dev/null || RC=$?
      expect_exit "pg_terminate_backend" 0
      ;;
    outage)
      how=fast
      ((RANDOM % 2)) && how=immediate
      seconds=$((1 + RANDOM % outage_max))
      count outage
      count "outage:$how"
      start_load "$date" "$csv"
      random_pause
      # shellcheck disable=SC2086
      $TMP_PG_CTL -m $how -w stop >/dev/null
      sleep "$seconds"
      # shellcheck disable=SC2086
      $TMP_PG_CTL -w start >/dev/null
      down_seconds=$((down_seconds + seconds))
      { wait $loader; } 2>/dev/null || RC=$?
      expect_exit "outage of ${seconds}s ($how)" 0
      ;;
    sources)
      point=${points[RANDOM % ${#points[@]}]}
      victim=$((RANDOM % 3))  # 0: acme-erp, 1 and 2: the others
      count sources
      count "sources:$point"
      other_date=$(date -d "2026-01-01 + $other_days days" +%F)
      for j in 0 1; do
        s=${others[j]}
        out=$("$REPO/scripts/gen-invoices.sh" --source "$s" "$WORK/o$i" "$other_date" 20)
        if ((victim == j + 1)); then
          start_other "$s" "$other_date" "$out" INVOICE_LOADER_FAILPOINT="$point"
        else
          start_other "$s" "$other_date" "$out"
        fi
        other_csv[$s]=$out
      done
      if ((victim == 0)); then
        start_load "$date" "$csv" INVOICE_LOADER_FAILPOINT="$point"
      else
        start_load "$date" "$csv"
      fi
      { wait $loader; } 2>/dev/null || RC=$?
      if ((victim == 0)); then expect_exit "acme-erp killed at $point" 137
      else expect_exit "acme-erp beside a killed source" 0; fi
      for j in 0 1; do
        s=${others[j]} ORC=0
        { wait "${other_pid[$s]}"; } 2>/dev/null || ORC=$?
        want=0
        ((victim == j + 1)) && want=137
        [[ $ORC == "$want" ]] || { violation "$s (victim $victim, $point): exit $ORC, expected $want"
                                   sed 's/^/    /' "$WORK/$s.err" >&2; }
        # the other sources' plain reruns (the killed one publishes now)
        "$INVOICE_LOADER" --dsn "$dsn" load --source "$s" --business-date "$other_date" \
          --input "${other_csv[$s]}" >"$WORK/$s.out" 2>"$WORK/$s.err" \
          || violation "$s: plain rerun exit $?"
      done
      other_days=$((other_days + 1))
      for s in "${others[@]}"; do
        [[ $(q "select count(*) from reporting.invoice where source = '$s'") == $((other_days * 20)) ]] \
          || violation "$s: $(q "select count(*) from reporting.invoice where source = '$s'") invoices, expected $((other_days * 20))"
        [[ $(watermark_of "$s") == "$other_date" ]] || violation "$s: watermark $(watermark_of "$s"), expected $other_date"
      done
      ;;
  esac
  # The plain rerun publishes (or finds published) the day.
  load --source acme-erp --business-date "$date" --input "$csv"
  [[ $RC == 0 ]] || { violation "plain rerun: exit $RC"; sed 's/^/    /' "$WORK/err" >&2; }
  expect_count=$((expect_count + 20))
  if ! (
    expect_eq "day $i ($kind): invoices" "$expect_count" \
      "$(q "select count(*) from reporting.invoice where source = 'acme-erp'")"
    expect_eq "day $i: watermark" "$date" "$(watermark_of acme-erp)"
    expect_eq "day $i: batches published" "$((i + 1 + 2 * other_days))" \
      "$(q "select count(*) from ingest.batch where state = 'published'")"
    check_invariants
  ); then
    violation "the database after day $i"
  fi
done
[[ $(notifications batch_published) == $((iterations + 2 * other_days)) ]] \
  || violation "publish notifications: $(notifications batch_published), expected $((iterations + 2 * other_days))"

# Faults injected: every failpoint, kill, term, terminate and outage (the
# entries with a colon other than failpoint:* are breakdowns).
total=0
for k in "${!faults[@]}"; do
  case $k in failpoint:* | kill | term | terminate | outage | sources) total=$((total + faults[$k])) ;; esac
done
# Faults that found the run already over did nothing.
missed=$(( ${faults[kill:after_the_end]:-0} + ${faults[term:exit_0]:-0} + ${faults[terminate:no_session_then]:-0} ))
{
  echo "soak: seed $seed, $iterations days, $total faults ($((total - missed)) hit a running load), $(( $(date +%s) - started )) s"
  for k in $(printf '%s\n' "${!faults[@]}" | sort); do
    echo "soak:   $k ${faults[$k]}"
  done
  echo "soak:   server down ${down_seconds} s in all"
  echo "soak: violations $violations"
} | tee "${FAULT_SUMMARY:-/dev/null}" >&2
[[ $violations == 0 ]] || fail "$violations violation(s)"
