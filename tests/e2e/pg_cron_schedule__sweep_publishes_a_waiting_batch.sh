#!/usr/bin/env bash
# schedule install with the real pg_cron 1.4.2 (the test cluster preloads
# it, scripts/with-tmp-pg.sh): the job it makes runs CALL ingest.sweep()
# every minute, and within a minute's tick a validated batch that was
# waiting for its day publishes without the loader; cron.job_run_details
# shows the run succeeded; installing twice leaves one job; schedule
# remove removes it.  The wait is a bounded poll (at most 150 s).
source "$(dirname "$0")/lib.sh"

cronq() { psql -X -qAt -v ON_ERROR_STOP=1 -d postgres -c "$1"; }
name="invoice-loader sweep $E2E_DB"
trap 'cronq "select cron.unschedule(jobid) from cron.job where jobname = '"'$name'"'" >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT

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
"$INVOICE_LOADER" --dsn "dbname=$E2E_DB" schedule install --schedule '* * * * *' >"$WORK/out" 2>"$WORK/err" ||
  fail "a second schedule install failed: $(cat "$WORK/err")"
expect_output_has "updated job"
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

"$INVOICE_LOADER" --dsn "dbname=$E2E_DB" schedule remove >"$WORK/out" 2>"$WORK/err" ||
  fail "schedule remove failed: $(cat "$WORK/err")"
expect_output_has "removed 1 job"
expect_eq "jobs after remove" 0 "$(cronq "select count(*) from cron.job where jobname = '$name'")"
"$INVOICE_LOADER" --dsn "dbname=$E2E_DB" schedule remove >"$WORK/out" 2>"$WORK/err" ||
  fail "a second schedule remove failed"
expect_output_has "nothing to remove"
check_invariants
