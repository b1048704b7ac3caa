#!/usr/bin/env bash
# The COMMIT of a mark lost on the wire (tests/tools/fault_proxy), each
# checked afterwards:
#  - webhook, the reply of the dispatched mark lost (the server committed):
#    the mark is repeated from a new session and changes nothing: one POST,
#    dispatched, exit 0;
#  - webhook, the request lost (rolled back, the claim gone with the
#    session): the new session may not mark it (IV216); it is pending and
#    the next claim (of this run or the next) sends it again, same key;
#  - e-mail, the reply of the dispatched mark lost: repeated, one message;
#  - e-mail, the in_doubt mark's request lost: the new session holds no
#    claim, so the message is NOT sent on it; the row is pending and the
#    next claim (of this run or the next) sends it: one message in all.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/notify_lib.sh"
[[ -x $FAULT_PROXY ]] || fail "no fault proxy at $FAULT_PROXY (build with BUILD_TESTING=ON)"

control=$WORK/control
echo pass >"$control"
"$FAULT_PROXY" --listen 127.0.0.1:0 --upstream-unix "$PGHOST/.s.PGSQL.$PGPORT" \
  --control "$control" --log "$WORK/proxy.log" --exit-after 300 &
NOTIFY_PIDS+=("$!")
proxy_listening() { grep -q "listening on" "$WORK/proxy.log"; }
wait_until "the proxy" proxy_listening
port=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$WORK/proxy.log" | head -n 1)
set_mode() { echo "$1" >"$control.tmp" && mv "$control.tmp" "$control"; }
via_proxy() {
  set +e
  "$INVOICE_LOADER" --dsn "host=127.0.0.1 port=$port dbname=$E2E_DB user=invoice_loader" \
    notify "$@" >"$WORK/out" 2>"$WORK/err"
  RC=$?
  set -e
}
last_state() { q "select state from ingest.notification order by notification_id desc limit 1"; }
last_key() { q "select dedupe_key from ingest.notification order by notification_id desc limit 1"; }

register_source acme-erp --start-date 2026-11-27
start_http
start_smtp
mail=(--smtp-url "smtp://127.0.0.1:$SMTP_PORT" --mail-from loader@example.com --mail-to ops@example.com)

# webhook, reply lost
publish 2026-11-27
set_mode "once:drop_commit_reply after mark_notification"
via_proxy --once --webhook-url "$HOOK/a"
expect_rc 0
grep -q "fault drop_commit_reply" "$WORK/proxy.log" || fail "the fault was not injected"
expect_output_has "class=in_doubt"
expect_eq "one POST" 1 "$(http_count /a)"
expect_eq "dispatched" dispatched "$(last_state)"

# webhook, request lost
publish 2026-11-28
key=$(last_key)
set_mode "once:drop_commit_request after mark_notification"
via_proxy --once --webhook-url "$HOOK/b"
expect_rc 0
expect_output_has "the claim on the notification ended with a lost session"
set_mode pass
notify --once --webhook-url "$HOOK/b"
expect_rc 0
posts=$(http_count /b)
[[ $posts == 2 ]] || fail "expected 2 POSTs (one before the lost mark, one after), got $posts"
expect_eq "the same key both times" "$key $key" "$(http_keys /b | paste -sd' ')"
expect_eq "dispatched" dispatched "$(last_state)"

# e-mail, the dispatched mark's reply lost
publish 2026-11-29
faults=$(grep -c "fault drop_commit_reply" "$WORK/proxy.log")
set_mode "once:drop_commit_reply after dispatched"
via_proxy --once "${mail[@]}"
expect_rc 0
[[ $(grep -c "fault drop_commit_reply" "$WORK/proxy.log") -gt $faults ]] || fail "the fault was not injected"
expect_output_has "class=in_doubt"
expect_eq "one message" 1 "$(smtp_count accepted)"
expect_eq "dispatched" dispatched "$(last_state)"

# e-mail, the in_doubt mark's request lost: nothing sent on a lost claim
publish 2026-11-30
set_mode "once:drop_commit_request after in_doubt"
via_proxy --once "${mail[@]}"
expect_rc 0
expect_output_has "the claim on the notification ended with a lost session"
set_mode pass
notify --once "${mail[@]}"
expect_rc 0
expect_eq "one message per notification, none on the lost claim" "2 2" \
  "$(smtp_count) $(smtp_message_ids | sort -u | wc -l)"
expect_eq "states" "dispatched:4" "$(states)"
expect_eq "watermark" 2026-11-30 "$(watermark_of acme-erp)"
check_invariants
