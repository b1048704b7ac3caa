#!/usr/bin/env bash
# notify --follow: dispatches what is pending, then a publication made while
# it runs, woken by LISTEN (the polling interval is an hour, so only the
# channel can wake it); SIGTERM ends it cleanly with exit 0 and its summary.
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
expect_eq "watermark" 2026-11-28 "$(watermark_of acme-erp)"
check_invariants
