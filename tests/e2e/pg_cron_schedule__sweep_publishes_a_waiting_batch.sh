#!/usr/bin/env bash
# schedule install with the real pg_cron 1.4.2 (the test cluster preloads
# it, scripts/with-tmp-pg.sh): the job it makes runs CALL ingest.sweep()
# every minute, and within a minute's tick a validated batch that was
# waiting for its day publishes without the loader; cron.job_run_details
# shows the run succeeded; installing twice leaves one job; schedule
# remove removes it.  Before installing, a probe job proves pg_cron can run
# a job as the role: for a role that cannot log in, install exits 78,
# says what to set and schedules nothing.  The sweep records its runs:
# status shows the last one; when the job later cannot connect (its role
# made one that cannot log in), the last success stops moving and the
# shipped InvoiceSweepFailing alert fires on the real metrics (promtool).
# The waits are bounded polls (at most 150 s each).
source "$(dirname "$0")/lib.sh"

cronq() { psql -X -qAt -v ON_ERROR_STOP=1 -d postgres -c "$1"; }
name="invoice-loader sweep $E2E_DB"
trap 'cronq "select cron.unschedule(jobid) from cron.job where jobname like '"'invoice-loader %'"'" >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT
runs_of() { # runs_of STATUS: runs of the sweep job with that status
  cronq "select count(*) from cron.job_run_details as d join cron.job as j using (jobid)
         where j.jobname = '$name' and d.status = '$1'"
}
# A role the server's pg_hba.conf rejects (its first lines, for this role
# only, removed again at the end), as a login pg_cron cannot make.
hba=$(cronq "show hba_file")
cp "$hba" "$WORK/pg_hba.conf.orig"
cronq "drop role if exists e2e_cron_rejected; create role e2e_cron_rejected login in role invoice_loader" >/dev/null
restore_hba() { cp "$WORK/pg_hba.conf.orig" "$hba"; cronq "select pg_reload_conf()" >/dev/null; }
trap 'restore_hba || true; cronq "select cron.unschedule(jobid) from cron.job where jobname like '"'invoice-loader %'"'" >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT
{ printf 'local all e2e_cron_rejected reject\nhost all e2e_cron_rejected all reject\n'
  cat "$WORK/pg_hba.conf.orig"; } >"$hba"
cronq "select pg_reload_conf()" >/dev/null

# pg_cron cannot log in as the role: the probe's run fails, nothing is
# scheduled, and the message says what to set.
set +e
"$INVOICE_LOADER" --dsn "dbname=$E2E_DB" schedule install --run-as e2e_cron_rejected \
  >"$WORK/out" 2>"$WORK/err"
RC=$?
set -e
expect_rc 78
expect_output_has "pg_cron could not run a job in $E2E_DB as e2e_cron_rejected"
expect_output_has "pg_hba.conf"
expect_output_has "nothing was scheduled"
expect_eq "no job after a failed probe" 0 \
  "$(cronq "select count(*) from cron.job where jobname like 'invoice-loader %'")"
# A role that may not log in at all: pg_cron refuses the job itself.
cronq "drop role if exists e2e_cron_nologin; create role e2e_cron_nologin nologin in role invoice_loader" >/dev/null
set +e
"$INVOICE_LOADER" --dsn "dbname=$E2E_DB" schedule install --run-as e2e_cron_nologin \
  >"$WORK/out" 2>"$WORK/err"
RC=$?
set -e
expect_rc 78
expect_output_has "pg_cron refused a job as e2e_cron_nologin"
expect_eq "no job after a refused probe" 0 \
  "$(cronq "select count(*) from cron.job where jobname like 'invoice-loader %'")"

register_source acme-erp --start-date 2026-11-28
day1=$(sample "$WORK/d1" 2026-11-28)
day2=$(sample "$WORK/d2" 2026-11-29)
load --source acme-erp --business-date 2026-11-29 --input "$day2"
expect_rc 75
expect_eq "day 2 waits" validated "$(q "select state from ingest.batch where business_date = '2026-11-29'")"

# As the DBA (a superuser: pg_cron schedules for another role only then).
"$INVOICE_LOADER" --dsn "dbname=$E2E_DB" schedule install >"$WORK/out" 2>"$WORK/err" ||
  fail "schedule install failed: $(cat "$WORK/err")"
expect_output_has "scheduled job"
expect_output_has "checked: pg_cron ran a probe job in $E2E_DB as invoice_loader"
expect_eq "the probe job is gone" 0 \
  "$(cronq "select count(*) from cron.job where jobname like 'invoice-loader probe%'")"
"$INVOICE_LOADER" --dsn "dbname=$E2E_DB" schedule install --no-check --schedule '* * * * *' >"$WORK/out" 2>"$WORK/err" ||
  fail "a second schedule install failed: $(cat "$WORK/err")"
expect_output_has "updated job"
expect_output_has "not checked (--no-check)"
expect_eq "one job after two installs" "1|CALL ingest.sweep()|$E2E_DB|invoice_loader|* * * * *" \
  "$(cronq "select count(*) over () || '|' || command || '|' || database || '|' || username || '|' || schedule
            from cron.job where jobname = '$name'")"

# Day 1 by the loader; day 2 then only by the sweep.
load --source acme-erp --business-date 2026-11-28 --input "$day1"
expect_rc 0
for ((i = 0; i < 75; i++)); do
  [[ $(q "select state from ingest.batch where business_date = '2026-11-29'") == published ]] && break
  sleep 2
done
expect_eq "day 2 published by the sweep" published \
  "$(q "select state from ingest.batch where business_date = '2026-11-29'")"
expect_eq "by the sweep's attempt" ingest.sweep \
  "$(q "select a.host from ingest.batch_event as e join ingest.attempt as a using (attempt_id)
        where e.to_state = 'published' and e.batch_id = (select batch_id from ingest.batch
                                                         where business_date = '2026-11-29')")"
expect_eq "watermark" 2026-11-29 "$(watermark_of acme-erp)"
expect_eq "invoices" "40 invoices, 8400.00 gross" "$(published_state)"
expect_eq "publish notifications" 2 "$(notifications batch_published)"
for ((i = 0; i < 30; i++)); do
  [[ $(cronq "select count(*) from cron.job_run_details as d join cron.job as j using (jobid)
              where j.jobname = '$name' and d.status = 'succeeded'") -gt 0 ]] && break
  sleep 1
done
[[ $(cronq "select count(*) from cron.job_run_details as d join cron.job as j using (jobid)
            where j.jobname = '$name' and d.status = 'succeeded'") -gt 0 ]] ||
  fail "cron.job_run_details shows no succeeded run: $(cronq "select status, return_message from cron.job_run_details order by runid desc limit 3")"

run invoice_loader status
expect_rc 0
expect_output_has "Sweep: last run ended"
expect_output_has "succeeded; last success"
run invoice_loader status --format prometheus
expect_rc 0
cp "$WORK/out" "$WORK/sweeping.prom"
before=$(q "select extract(epoch from last_succeeded_at)::bigint from ingest.sweep_overview")
expect_eq "the metric is the recorded last success" \
  "invoice_loader_sweep_last_success_timestamp_seconds $before" \
  "$(grep '^invoice_loader_sweep_last_success_timestamp_seconds ' "$WORK/sweeping.prom")"

# The job's role is one pg_hba.conf rejects (as after a change of
# pg_hba.conf): pg_cron's runs fail before the sweep starts.
failed_before=$(runs_of failed)
cronq "update cron.job set username = 'e2e_cron_rejected' where jobname = '$name'" >/dev/null
for ((i = 0; i < 75; i++)); do
  [[ $(runs_of failed) -gt $failed_before ]] && break
  sleep 2
done
[[ $(runs_of failed) -gt $failed_before ]] || fail "pg_cron recorded no failed run of the job"
run invoice_loader status --format prometheus
expect_rc 0
cp "$WORK/out" "$WORK/failing.prom"
expect_eq "the last success did not move" \
  "invoice_loader_sweep_last_success_timestamp_seconds $before" \
  "$(grep '^invoice_loader_sweep_last_success_timestamp_seconds ' "$WORK/failing.prom")"
if command -v promtool >/dev/null; then
  # Each file's samples held for 30 minutes, timestamps shifted so that the
  # test's time 0 is now: while the sweep ran, nothing fires 5 minutes on;
  # with the job failing, the alert fires once its last success is 15
  # minutes old (plus the rule's 5 minutes).
  python3 - "$WORK" "$REPO/packaging/prometheus/invoice-loader.rules.yml" <<'PY' >"$WORK/rules_test.yml"
import json, os, sys, time
sys.path.insert(0, os.path.join(os.environ["REPO"], "tests", "tools"))
from prom_series import series
work, rules = sys.argv[1:3]
now = time.time()
fired = [{"exp_labels": {"severity": "ticket"},
          "exp_annotations": {"summary": "the invoice-loader sweep has not succeeded lately; invoice-loader status shows its last run, pg_cron's cron.job_run_details why"}}]
tests = [{"name": "sweeping", "interval": "1m", "input_series": series(f"{work}/sweeping.prom", now),
          "alert_rule_test": [{"eval_time": "5m", "alertname": "InvoiceSweepFailing", "exp_alerts": []}]},
         {"name": "failing", "interval": "1m", "input_series": series(f"{work}/failing.prom", now),
          "alert_rule_test": [{"eval_time": "25m", "alertname": "InvoiceSweepFailing", "exp_alerts": fired}]}]
print(json.dumps({"rule_files": [rules], "evaluation_interval": "1m", "tests": tests}, indent=1))
PY
  promtool test rules "$WORK/rules_test.yml" >"$WORK/promtool.out" 2>&1 \
    || { cat "$WORK/promtool.out"; fail "InvoiceSweepFailing does not fire as it should"; }
fi
cronq "update cron.job set username = 'invoice_loader' where jobname = '$name'" >/dev/null

"$INVOICE_LOADER" --dsn "dbname=$E2E_DB" schedule remove >"$WORK/out" 2>"$WORK/err" ||
  fail "schedule remove failed: $(cat "$WORK/err")"
expect_output_has "removed 1 job"
expect_eq "jobs after remove" 0 "$(cronq "select count(*) from cron.job where jobname = '$name'")"
"$INVOICE_LOADER" --dsn "dbname=$E2E_DB" schedule remove >"$WORK/out" 2>"$WORK/err" ||
  fail "a second schedule remove failed"
expect_output_has "nothing to remove"
restore_hba
cronq "drop role e2e_cron_nologin; drop role e2e_cron_rejected" >/dev/null
check_invariants
