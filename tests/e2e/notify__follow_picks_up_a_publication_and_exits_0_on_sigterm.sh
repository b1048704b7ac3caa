#!/usr/bin/env bash
# notify --follow: dispatches what is pending, then a publication made while
# it runs, woken by LISTEN (the polling interval is an hour, so only the
# channel can wake it); SIGTERM ends it cleanly with exit 0 and its summary.
# A running e-mail dispatcher does not keep an in_doubt row from the
# operator: `notify resolve` works while it runs, and as pending the row is
# sent again (same Message-ID) at its next poll.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/notify_lib.sh"

register_source acme-erp --start-date 2026-11-27
publish 2026-11-27
start_http
notify_bg follow --follow --poll-interval 3600 --webhook-url "$HOOK/hook"
wait_until "the pending notification sent" count_is /hook 1
wait_until "it marked" states_are "dispatched:1"

publish 2026-11-28
wait_until "the new publication sent" count_is /hook 2
wait_until "it marked" states_are "dispatched:2"
kill -0 "$NOTIFY_PID" || fail "the dispatcher is gone: $(cat "$WORK/follow.err")"

kill -TERM "$NOTIFY_PID"
RC=0
wait "$NOTIFY_PID" || RC=$?
expect_rc 0
grep -qF "notify: 2 dispatched, 0 failed, 0 in doubt, 0 left pending; stopped by a signal" "$WORK/follow.out" ||
  fail "summary: $(cat "$WORK/follow.out" "$WORK/follow.err")"
expect_eq "keys" "$(q "select string_agg(dedupe_key, ' ' order by notification_id) from ingest.notification")" \
  "$(http_keys /hook | paste -sd' ')"

start_smtp '["drop_after_data"]'
notify_bg mail --follow --poll-interval 1 --smtp-url "smtp://127.0.0.1:$SMTP_PORT" \
  --mail-from loader@example.com --mail-to ops@example.com
publish 2026-11-29
id=$(q "select max(notification_id) from ingest.notification")
# logged once the mail's outcome is known (the row was in_doubt before)
wait_until "the dropped mail in doubt" grep -q "will not be resent" "$WORK/mail.err"
expect_eq "state" in_doubt "$(q "select state from ingest.notification where notification_id = $id")"
expect_eq "sent once" 1 "$(smtp_count)"
run invoice_operator notify resolve --notification "$id" --as pending --reason "not in the mailbox"
expect_rc 0
wait_until "the resend" states_are "dispatched:3"
expect_eq "two transactions, the second accepted" "2 1" "$(smtp_count) $(smtp_count accepted)"
expect_eq "one Message-ID" 1 "$(smtp_message_ids | sort -u | wc -l)"
kill -TERM "$NOTIFY_PID"
RC=0
wait "$NOTIFY_PID" || RC=$?
expect_rc 0
expect_eq "watermark" 2026-11-29 "$(watermark_of acme-erp)"
check_invariants
