#!/usr/bin/env bash
# pg_ctl stop -m immediate while CALL ingest.sweep() is inside
# publish_batch (held there by a session that holds the source's
# publication lock), then start: the parts the sweep committed before
# (abandoned attempts closed) are kept, the publication in flight and its
# attempt are gone, nothing is half done (watermark, states,
# notifications as before).  The crash emptied staging (unlogged): the
# next sweep finds the waiting batch's rows lost and sends it back to
# received (recorded on its attempt), writes the deadline notifications;
# plain reruns of the loads then publish everything once.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/sweep_lib.sh"
: "${TMP_PG_CTL:?needs scripts/with-tmp-pg.sh}"
# shellcheck disable=SC2086  # TMP_PG_CTL is a command line, split on purpose
trap 'exec 7>&- 2>/dev/null || true; $TMP_PG_CTL -w start >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT

register_source acme-erp --start-date 2026-11-28
register_source initech --start-date 2026-11-28
today=$(q "select (now() at time zone 'UTC')::date")
operator_sql "select ingest.add_source('globex', p_start_date => date '$today' - 3,
                                       p_deadline => time '00:00')" >/dev/null

declare -A csv
for d in 2026-11-28 2026-11-29 2026-11-30 2026-12-01; do
  csv[$d]=$(sample "$WORK/$d" "$d")
done
for d in 2026-11-29 2026-11-30 2026-12-01; do
  load --source acme-erp --business-date "$d" --input "${csv[$d]}"
  expect_rc 75
done
load --source acme-erp --business-date 2026-11-28 --input "${csv[2026-11-28]}"
expect_rc 0
# A loader killed after staging: its attempt stays open, its lock is gone.
initech_csv=$(sample_for initech "$WORK/initech" 2026-11-28)
INVOICE_LOADER_FAILPOINT=after_staged load --source initech --business-date 2026-11-28 \
  --input "$initech_csv"
expect_rc 137
expect_eq "the killed loader's attempt is open" 1 \
  "$(q "select count(*) from ingest.attempt where finished_at is null")"

hold_publication acme-erp
sweep_bg sweep-a
a=$SWEEP_PID
wait_for_lock_wait sweep-a
# shellcheck disable=SC2086
$TMP_PG_CTL -m immediate -w stop >/dev/null
sweep_wait "$a"
[[ $RC != 0 ]] || fail "the sweep reported success although the server stopped under it"
exec 7>&- 2>/dev/null || true
wait "$HOLDER_PID" 2>/dev/null || true
# shellcheck disable=SC2086
$TMP_PG_CTL -w start >/dev/null

expect_eq "the abandoned attempt, closed before the stop, stays closed" "abandoned" \
  "$(q "select string_agg(a.outcome, ',') from ingest.attempt as a join ingest.batch as b using (batch_id)
        where b.source = 'initech'")"
expect_eq "no sweep attempt survived (the publication in flight rolled back)" 0 \
  "$(q "select count(*) from ingest.attempt where host = 'ingest.sweep'")"
expect_eq "states after the stop" "2026-11-28 published|2026-11-29 validated|2026-11-30 validated|2026-12-01 validated" \
  "$(q "select string_agg(business_date || ' ' || state, '|' order by business_date)
        from ingest.batch where source = 'acme-erp'")"
expect_eq "watermark after the stop" 2026-11-28 "$(watermark_of acme-erp)"
expect_eq "notifications after the stop" "batch_published 1" \
  "$(q "select string_agg(kind || ' ' || n, ',') from (select kind, count(*) as n
        from ingest.notification group by kind) as k")"

sweep_now
expect_rc 0
expect_eq "the next sweep found the staged rows lost: received again" "received|failed restage" \
  "$(q "select b.state || '|' || a.outcome || ' ' || a.error_class
        from ingest.batch as b join ingest.attempt as a using (batch_id)
        where b.business_date = '2026-11-29' and a.host = 'ingest.sweep'")"
expect_eq "watermark after the next sweep" 2026-11-28 "$(watermark_of acme-erp)"
expect_eq "deadline notifications written once" 3 \
  "$(q "select count(*) from ingest.notification where kind = 'deadline_missed'")"

for d in 2026-11-29 2026-11-30 2026-12-01; do
  load --source acme-erp --business-date "$d" --input "${csv[$d]}"
  expect_rc 0
done
load --source initech --business-date 2026-11-28 --input "$initech_csv"
expect_rc 0
sweep_now
expect_rc 0

expect_eq "watermark at the end" 2026-12-01 "$(watermark_of acme-erp)"
expect_eq "published" "100 invoices, 21000.00 gross" "$(published_state)"
expect_eq "one publish notification per batch" "5|5" \
  "$(q "select count(*) || '|' || count(distinct batch_id) from ingest.notification
        where kind = 'batch_published'")"
expect_eq "deadline notifications still once" 3 \
  "$(q "select count(*) from ingest.notification where kind = 'deadline_missed'")"
check_invariants
