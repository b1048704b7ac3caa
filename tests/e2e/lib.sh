# tests/e2e/lib.sh: sourced by every end-to-end test.  The runner
# (tests/run-e2e.sh) gives each test its own freshly migrated database and
# exports:
#   INVOICE_LOADER  the real binary under test
#   E2E_DB          the test's database (PG* point at the throwaway cluster;
#                   PGUSER is a superuser, used only to inspect and set up)
#   REPO            the repository root
# A test stops at its first failed expectation (exit 1) and prints why.
set -euo pipefail

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

fail() {
  echo "FAIL: $*" >&2
  if [[ -s $WORK/out || -s $WORK/err ]]; then
    echo "--- last loader stdout:" >&2; cat "$WORK/out" >&2 || true
    echo "--- last loader stderr:" >&2; cat "$WORK/err" >&2 || true
  fi
  exit 1
}

# q SQL: one value (or rows, |-separated) read as the superuser.
q() { psql -X -qAt -v ON_ERROR_STOP=1 -d "$E2E_DB" -c "$1"; }

# run ROLE ARGS...: run the loader as ROLE (invoice_loader, invoice_operator),
# keeping its exit status in RC and its output in $WORK/out and $WORK/err.
run() {
  local role=$1; shift
  set +e
  "$INVOICE_LOADER" --dsn "dbname=$E2E_DB user=$role" "$@" >"$WORK/out" 2>"$WORK/err"
  RC=$?
  set -e
}
load() { run invoice_loader load "$@"; }

# expect_rc CODE: the last run's exit status.  Its stderr is kept for the
# runner's check of every log line against the reference
# (tests/tools/check_log_lines.py), when the runner asks (E2E_LOG_LINES).
expect_rc() {
  if [[ -n ${E2E_LOG_LINES:-} && -s $WORK/err ]]; then
    cat "$WORK/err" >>"$E2E_LOG_LINES"
  fi
  [[ $RC == "$1" ]] || fail "exit status: expected $1, got $RC"
}
expect_eq() { [[ $2 == "$3" ]] || fail "$1: expected [$2], got [$3]"; }
expect_output_has() {
  grep -qF -- "$1" "$WORK/out" "$WORK/err" || fail "output does not mention [$1]"
}

# sample DIR [DATE]: the sample nightly batch (20 invoices, 4200.00) and
# its manifest; prints the CSV path.
sample() {
  local dir=$1 date=${2:-2026-11-28}
  "$REPO/scripts/make-sample.sh" "$dir" "$date" >/dev/null
  echo "$dir/acme-erp_$date.csv"
}

# register_source NAME [options]: as the operator.
register_source() {
  run invoice_operator source add "$@"
  expect_rc 0
}

# write_manifest CSV COUNT TOTAL [DATE]: a manifest next to CSV.
write_manifest() {
  local csv=$1 count=$2 total=$3 date=${4:-2026-11-28}
  printf '{"source":"acme-erp","business_date":"%s","record_count":%s,"control_total":"%s"}\n' \
    "$date" "$count" "$total" >"$csv.manifest.json"
}

# The published state, as one comparable line.
published_state() {
  q "select count(*) || ' invoices, ' || coalesce(sum(gross_amount), 0) || ' gross'
     from reporting.invoice"
}
watermark_of() { q "select coalesce((select business_date::text from ingest.watermark where source = '$1'), 'none')"; }
notifications() { q "select count(*) from ingest.notification where kind = '$1'"; }

# check_invariants: the fault suite's checker (docs/reference/faults.md),
# run after recovery.  Fails the test on the first broken invariant:
#   I1 every published invoice once: reporting.invoice holds exactly the
#      current ISSUED versions, no key twice, versions contiguous per batch;
#   I2 each source's watermark is the last date of an unbroken run of
#      published dates from its first, and never ahead of published data;
#   I3 exactly one batch_published notification per published (or since
#      reverted) batch in its current round (replays consumed) and none for
#      any other, at most one notification per batch, kind and round, at most
#      one deadline_missed per source and business date;
#   I4 every batch in a final state (published, quarantined or reverted)
#      after a plain rerun, every state change one of ingest.batch_transition
#      (back to received only with its reason: staged rows lost in a crash,
#      or a replay), each checkpoint reached once since the last replay, no
#      attempt left open, staging holds nothing typed for a published batch.
check_invariants() {
  local bad
  bad=$(q "select count(*) from (select source, invoice_number from reporting.invoice
                                 group by 1, 2 having count(*) > 1) as d")
  expect_eq "I1 keys shown twice" 0 "$bad"
  bad=$(q "select count(*) from core.invoice_version as v
           where v.is_current and v.status = 'ISSUED'
             and not exists (select from reporting.invoice as r
                             where r.source = v.source and r.invoice_number = v.invoice_number)")
  expect_eq "I1 current versions missing from reporting.invoice" 0 "$bad"
  bad=$(q "select count(*) from core.invoice_version as v
           join ingest.batch as b using (batch_id) where b.state <> 'published'")
  expect_eq "I1 versions of unpublished batches" 0 "$bad"
  bad=$(q "select count(*) from ingest.pending_publication")
  expect_eq "I1 batches left written and not published" 0 "$bad"
  bad=$(q "select count(*) from ingest.batch as b
           where b.state = 'published'
             and (b.merge_counts ->> 'inserted')::int + (b.merge_counts ->> 'amended')::int
               + (b.merge_counts ->> 'voided')::int + (b.merge_counts ->> 'late')::int
               <> (select count(*) from core.invoice_version as v where v.batch_id = b.batch_id)")
  expect_eq "I1 versions per batch equal its merge counts" 0 "$bad"

  bad=$(q "with pub as (select source, business_date from ingest.batch where state = 'published'
                        group by 1, 2),
                 runs as (select source, business_date,
                                 business_date - (row_number() over (partition by source
                                                  order by business_date))::int as grp
                          from pub),
                 first_run as (select source, max(business_date) as last_date
                               from runs
                               where grp = (select min(grp) from runs as r2 where r2.source = runs.source)
                               group by source)
           select count(*) from first_run as f
           full join ingest.watermark as w using (source)
           where w.business_date is distinct from f.last_date")
  expect_eq "I2 watermark = end of the first unbroken run of published dates" 0 "$bad"

  bad=$(q "select count(*) from ingest.batch as b
           where (select count(*) from ingest.notification as n
                  join ingest.outbox as o using (notification_id)
                  where n.batch_id = b.batch_id and n.kind = 'batch_published'
                    and o.round = b.replays)
                 <> case when b.state in ('published', 'reverted') then 1 else 0 end")
  expect_eq "I3 batches without exactly one publish notification (if published or reverted) in their round" 0 "$bad"
  bad=$(q "select count(*) from (select batch_id from ingest.outbox
                                 where batch_id is not null
                                 group by batch_id, kind, round having count(*) > 1
                                 union all
                                 select null from ingest.notification
                                 where kind = 'deadline_missed'
                                 group by payload ->> 'source', payload ->> 'business_date'
                                 having count(*) > 1) as d")
  expect_eq "I3 repeated notifications" 0 "$bad"

  bad=$(q "select string_agg(batch_id || ':' || state, ' ') from ingest.batch
           where state not in ('published', 'quarantined', 'reverted')")
  expect_eq "I4 batches not final" "" "$bad"
  # the moves are the state machine's (ingest.batch_transition); back to
  # received only with its reason: staged rows lost in a crash, or a replay
  bad=$(q "select count(*) from ingest.batch_event as e
           where (e.from_state is null and e.to_state <> 'received')
              or (e.from_state is not null
                  and not exists (select from ingest.batch_transition as t
                                  where t.from_state = e.from_state and t.to_state = e.to_state))
              or (e.from_state in ('staged', 'validated') and e.to_state = 'received'
                  and not e.detail ? 'reason')
              or (e.from_state in ('quarantined', 'reverted') and e.to_state = 'received'
                  and not e.detail ? 'replay_action_id')")
  expect_eq "I4 illegal transitions" 0 "$bad"
  # each checkpoint once (since the batch's last replay)
  bad=$(q "select count(*) from ingest.batch as b
           where (select count(*) from ingest.batch_event as e where e.batch_id = b.batch_id
                  and e.to_state = b.state
                  and e.event_id >= coalesce((select max(r.event_id) from ingest.batch_event as r
                                              where r.batch_id = b.batch_id
                                                and r.detail ? 'replay_action_id'), 0)) <> 1")
  expect_eq "I4 each checkpoint reached once" 0 "$bad"
  expect_eq "I4 open attempts" 0 "$(q "select count(*) from ingest.attempt where finished_at is null")"
  expect_eq "I4 typed staging of published batches" 0 \
    "$(q "select count(*) from staging.invoice_valid as v join ingest.batch as b using (batch_id)
          where b.state = 'published'")"
}

# sample_for SOURCE DIR DATE: the sample batch for DATE, its manifest
# rewritten for SOURCE; prints the CSV path.
sample_for() {
  local src=$1 dir=$2 date=$3 csv
  csv=$(sample "$dir" "$date")
  sed -i "s/\"source\":\"acme-erp\"/\"source\":\"$src\"/" "$csv.manifest.json"
  echo "$csv"
}

# loader_active PATTERN [ASK]: whether a loader backend is running a query
# like %PATTERN% right now.  ASK runs one SQL statement and prints its value
# (default q; a test whose loader talks to another server passes its own).
loader_active() {
  local ask=${2:-q}
  [[ $("$ask" "select count(*) from pg_stat_activity
              where application_name = 'invoice-loader' and state = 'active'
                and query ilike '%$1%'" 2>/dev/null || echo 0) -gt 0 ]]
}

# inject_when_active PID PATTERN ASK CMD...: while process PID runs, look
# every 0.05 s (at most 5 minutes) for a loader query like PATTERN
# (loader_active); the first time one runs, run CMD.  INJECTED says whether
# it did (no: the process ended first, or the 5 minutes ran out).
inject_when_active() {
  local pid=$1 pattern=$2 ask=$3 i
  shift 3
  INJECTED=no
  for ((i = 0; i < 6000; i++)); do
    kill -0 "$pid" 2>/dev/null || return 0
    if loader_active "$pattern" "$ask"; then
      "$@"
      INJECTED=yes
      return 0
    fi
    sleep 0.05
  done
}

# hold_lock NAME TABLE MODE PSQL...: run PSQL (a psql command line with its
# connection, e.g. psql -X -d "$E2E_DB") in the background as a session
# that holds a MODE lock (e.g. share, access share) on TABLE until
# release_lock NAME, or until it is killed or its server goes.  Several
# names may be held at once.  Returns once the lock is held (at most 10 s).
declare -gA HOLD_PIDS=() HOLD_CMDS=()
hold_lock() {
  local name=$1 table=$2 mode=$3 i
  shift 3
  "$@" -c "begin" -c "lock table $table in $mode mode" \
    -c "select 'holding $name', pg_sleep(600)" >/dev/null 2>&1 &
  HOLD_PIDS[$name]=$!
  HOLD_CMDS[$name]=$(printf '%q ' "$@")
  for ((i = 0; i < 200; i++)); do
    [[ $("$@" -qAt -c "select count(*) from pg_stat_activity as a
                       join pg_locks as l on l.pid = a.pid
                       where a.query like '%holding $name''%' and a.pid <> pg_backend_pid()
                         and l.relation = '$table'::regclass and l.granted" 2>/dev/null) == 1 ]] \
      && return 0
    sleep 0.05
  done
  fail "hold_lock: the lock of $name on $table was not taken"
}
# release_lock NAME: end the session hold_lock NAME started (its backend
# would sit in pg_sleep, holding the lock, after its client is killed).
release_lock() {
  local name=$1
  [[ -n ${HOLD_PIDS[$name]:-} ]] || return 0
  eval "${HOLD_CMDS[$name]}" -qAt -c "\"select pg_terminate_backend(pid) from pg_stat_activity
                                        where query like '%holding $name''%'
                                          and pid <> pg_backend_pid()\"" >/dev/null 2>&1 || true
  kill "${HOLD_PIDS[$name]}" 2>/dev/null || true   # gone already when its server went
  wait "${HOLD_PIDS[$name]}" 2>/dev/null || true
  unset "HOLD_PIDS[$name]" "HOLD_CMDS[$name]"
}

# hold_validation PSQL...: hold_lock of a SHARE lock on staging.key_version.
# ingest.validate_batch's revision check (ingest.reject_revision_conflicts)
# starts by deleting the batch's rows of that table, and waits for the
# lock (nothing before validation writes it), so a fault test can inject
# its fault while the loader is inside validation however fast validation
# is: a 60,000-record validation now takes tens of
# milliseconds, less than the 50 ms polls of those tests could count on.
# (It held ingest.rejection_row until validation stopped writing
# rejections for a batch with none.)  release_validation ends it.
hold_validation() { hold_lock validation staging.key_version share "$@"; }
release_validation() { release_lock validation; }

# --- clusters of a test's own, locales, the fault proxy ----------------

# as_server CMD...: run CMD as the server's user (postgres when we are
# root: initdb and pg_ctl refuse root), from a directory it can read.
as_server() {
  if [[ $EUID -eq 0 ]]; then runuser -u postgres -- env -C / "$@"; else "$@"; fi
}

# own_cluster NAME [CONF_LINE...]: a throwaway cluster of this test alone
# in $WORK/NAME (trust for the superuser postgres, unix socket only, in
# $WORK/NAME), for settings that would disturb other tests (pg_hba,
# lc_messages).  Extra lines go into postgresql.conf.  Sets OWN_HOST and
# OWN_PORT; stop it with own_cluster_stop NAME (the test's EXIT trap must
# call it too).
own_cluster() {
  local name=$1; shift
  local dir=$WORK/$name
  mkdir -p "$dir"
  chmod 755 "$WORK" "$dir"
  [[ $EUID -eq 0 ]] && chown postgres:postgres "$dir"
  as_server "$TMP_PG_BIN/initdb" --pgdata="$dir/data" --no-locale --encoding=UTF8 \
    --auth=trust -U postgres --nosync >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; fail "initdb of $name failed"; }
  OWN_HOST=$dir
  OWN_PORT=$((5433 + RANDOM % 20000))
  {
    echo "listen_addresses = ''"
    echo "unix_socket_directories = '$dir'"
    echo "port = $OWN_PORT"
    echo "fsync = off"
    printf '%s\n' "$@"
  } >>"$dir/data/postgresql.conf"
  as_server "$TMP_PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start \
    >"$dir/pg_ctl.log" 2>&1 || { cat "$dir/pg_ctl.log" "$dir/server.log" >&2; fail "$name did not start"; }
}
own_cluster_stop() {
  [[ -f $WORK/$1/data/postmaster.pid ]] || return 0
  as_server "$TMP_PG_BIN/pg_ctl" -D "$WORK/$1/data" -m immediate -w stop >/dev/null 2>&1 || true
}

# ensure_locale de_DE.UTF-8: generate a locale (Debian's locales package)
# unless the system has it.
ensure_locale() {
  local want=$1 short
  short=$(echo "${want%%.*}.utf8" | tr '[:upper:]' '[:lower:]')
  locale -a | tr '[:upper:]' '[:lower:]' | grep -qx "$short" && return 0
  [[ $EUID -eq 0 ]] || fail "locale $want is missing and only root can generate it"
  command -v locale-gen >/dev/null || fail "locale-gen missing (Debian package locales)"
  sed -i "s/^# *$want/$want/" /etc/locale.gen
  locale-gen >/dev/null
  locale -a | tr '[:upper:]' '[:lower:]' | grep -qx "$short" || fail "could not generate $want"
}

# start_fault_proxy: tests/tools/fault_proxy in front of the main
# cluster's unix socket, mode pass.  Sets PROXY_PID, PROXY_PORT,
# PROXY_CONTROL and PROXY_LOG; set_proxy_mode MODE switches it.
start_fault_proxy() {
  [[ -x $FAULT_PROXY ]] || fail "no fault proxy at $FAULT_PROXY (build with BUILD_TESTING=ON)"
  PROXY_CONTROL=$WORK/proxy.control
  PROXY_LOG=$WORK/proxy.log
  echo pass >"$PROXY_CONTROL"
  "$FAULT_PROXY" --listen 127.0.0.1:0 --upstream-unix "$PGHOST/.s.PGSQL.$PGPORT" \
    --control "$PROXY_CONTROL" --log "$PROXY_LOG" --exit-after 900 &
  PROXY_PID=$!
  local _
  for _ in $(seq 100); do grep -q "listening on" "$PROXY_LOG" 2>/dev/null && break; sleep 0.05; done
  PROXY_PORT=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$PROXY_LOG" | head -n 1)
  [[ -n $PROXY_PORT ]] || fail "the proxy did not say where it listens"
}
set_proxy_mode() { echo "$1" >"$PROXY_CONTROL.tmp" && mv "$PROXY_CONTROL.tmp" "$PROXY_CONTROL"; }

# wait_for LIMIT_SECONDS DESCRIPTION CMD...: poll CMD every 0.1 s until it
# succeeds; fails the test after LIMIT_SECONDS (a bound on the loop, not a
# timing assertion).
wait_for() {
  local limit=$1 what=$2; shift 2
  local tries=$((limit * 10)) i
  for ((i = 0; i < tries; i++)); do
    if "$@"; then return 0; fi
    sleep 0.1
  done
  fail "gave up waiting for: $what"
}

# expect_one_publication LABEL PSQL_FN SOURCE RECORDS TOTAL DATE: on the
# server PSQL_FN reaches (a function taking psql's -c arguments), SOURCE
# holds exactly one publication of its DATE batch: the invoices and their
# total, the versions, the watermark, one notification, one batch, and it
# published.  The failover tests check the new primary with it.
expect_one_publication() {
  local label=$1 on=$2 src=$3 records=$4 total=$5 date=$6
  expect_eq "$label: published" "$records|$total" \
    "$($on -c "select count(*) || '|' || sum(gross_amount) from reporting.invoice where source = '$src'")"
  expect_eq "$label: versions" "$records" \
    "$($on -c "select count(*) from core.invoice_version where source = '$src'")"
  expect_eq "$label: watermark" "$date" \
    "$($on -c "select business_date from ingest.watermark where source = '$src'")"
  expect_eq "$label: one notification" 1 \
    "$($on -c "select count(*) from ingest.notification as n join ingest.batch as b using (batch_id)
               where b.source = '$src'")"
  expect_eq "$label: one batch, published" published \
    "$($on -c "select string_agg(state, ',') from ingest.batch where source = '$src'")"
}
