#!/usr/bin/env bash
# Three dispatchers started at once over 20 pending notifications, both
# sinks: every Idempotency-Key reaches the webhook exactly once and every
# Message-ID the mail server exactly once; each row claimed once
# (tries = 1) and dispatched.  The three are held at their first claim by a
# lock on the outbox until all three wait, then released together.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/notify_lib.sh"

register_source acme-erp --start-date 2026-11-01
dates=()
for d in $(seq -w 1 20); do dates+=("2026-11-$d"); done
publish "${dates[@]}"
expect_eq "pending" "pending:20" "$(states)"
start_http
start_smtp

PGAPPNAME=outbox_holder psql -X -q -d "$E2E_DB" \
  -c "begin; lock table ingest.outbox in access exclusive mode; select pg_sleep(60); commit;" \
  >/dev/null 2>&1 &
holder=$!
holding() {
  [[ $(q "select count(*) from pg_locks as l join pg_stat_activity as a using (pid)
          where a.application_name = 'outbox_holder' and l.granted
            and l.relation = 'ingest.outbox'::regclass") == 1 ]]
}
wait_until "the outbox lock" holding
pids=()
for n in 1 2 3; do
  notify_bg "d$n" --once --batch-size 2 --webhook-url "$HOOK/hook" \
    --smtp-url "smtp://127.0.0.1:$SMTP_PORT" --mail-from loader@example.com --mail-to ops@example.com
  pids+=("$NOTIFY_PID")
done
three_waiting() {
  [[ $(q "select count(*) from pg_stat_activity
          where application_name = 'invoice-loader' and wait_event_type = 'Lock'
            and datname = '$E2E_DB'") == 3 ]]
}
wait_until "three dispatchers waiting for their claim" three_waiting
q "select pg_cancel_backend(pid) from pg_stat_activity where application_name = 'outbox_holder'" >/dev/null
wait "$holder" || true
for n in 1 2 3; do
  RC=0
  wait "${pids[n - 1]}" || RC=$?
  [[ $RC == 0 ]] || fail "dispatcher $n exited $RC: $(cat "$WORK/d$n.err")"
done

expect_eq "POSTs" 20 "$(http_count /hook)"
expect_eq "distinct keys at the webhook" 20 "$(http_keys /hook | sort -u | wc -l)"
expect_eq "keys = the outbox's" \
  "$(q "select string_agg(dedupe_key, ' ' order by dedupe_key) from ingest.notification")" \
  "$(http_keys /hook | sort | paste -sd' ')"
expect_eq "mails" 20 "$(smtp_count accepted)"
expect_eq "distinct Message-IDs" 20 "$(smtp_message_ids | sort -u | wc -l)"
expect_eq "states" "dispatched:20" "$(states)"
expect_eq "each row claimed once" 1 "$(q "select string_agg(distinct tries::text, ',') from ingest.outbox")"
total=$(( $(sed -n "s/^notify: \([0-9]*\) dispatched.*/\1/p" "$WORK"/d?.out | paste -sd+) ))
expect_eq "the three summaries add up" 20 "$total"
claimers=$(q "select count(distinct claimed_by) from ingest.outbox")
[[ $claimers -ge 2 ]] || fail "only $claimers dispatcher(s) claimed rows: not concurrent"
echo "claimers: $claimers"
expect_eq "watermark" 2026-11-20 "$(watermark_of acme-erp)"
check_invariants
