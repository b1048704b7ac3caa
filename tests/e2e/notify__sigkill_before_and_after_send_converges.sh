#!/usr/bin/env bash
# SIGKILL of notify at each point of a send, each checked afterwards:
#  - webhook, before anything was sent (the sink refuses connections, the
#    dispatcher is between retries): pending, claim released with the
#    session; the rerun sends it once;
#  - webhook, after the request reached the sink (the server stalls its
#    answer): pending; the rerun sends the SAME key again;
#  - e-mail, after the in_doubt mark, before any byte reached a server:
#    in_doubt, and no later run sends it; resolved as pending by the
#    operator, the next run sends it once.
# The published data and the watermark never change.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/notify_lib.sh"

register_source acme-erp --start-date 2026-11-27
publish 2026-11-27
start_http '{"/slow": ["stall:60"]}'
start_smtp
closed_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
dispatcher_gone() {
  [[ $(q "select count(*) from pg_stat_activity where application_name = 'invoice-loader'
          and datname = '$E2E_DB'") == 0 ]]
}
kill9() { kill -KILL "$1"; wait "$1" 2>/dev/null || true; wait_until "the dispatcher's session to end" dispatcher_gone; }
key=$(q "select dedupe_key from ingest.notification")

# 1. before send: retrying a refused connection.
notify_bg k1 --once --webhook-url "http://127.0.0.1:$closed_port/hook" --retry-attempts 100 --retry-budget 600
wait_until "a retry" grep -q "retrying" "$WORK/k1.err"
kill9 "$NOTIFY_PID"
expect_eq "pending after the kill" "pending:1" "$(states)"
notify --once --webhook-url "$HOOK/hook"
expect_rc 0
expect_eq "sent once by the rerun" 1 "$(http_count /hook)"
expect_eq "state" "dispatched:1" "$(states)"

# 2. after the request reached the sink, before its answer.
publish 2026-11-28
key=$(q "select dedupe_key from ingest.notification where state = 'pending'")
notify_bg k2 --once --webhook-url "$HOOK/slow"
wait_until "the request at the sink" count_is /slow 1
kill9 "$NOTIFY_PID"
expect_eq "pending after the kill" "dispatched:1 pending:1" "$(states)"
notify --once --webhook-url "$HOOK/slow"
expect_rc 0
expect_eq "sent again" 2 "$(http_count /slow)"
expect_eq "with the same key" "$key $key" "$(http_keys /slow | paste -sd' ')"
expect_eq "state" "dispatched:2" "$(states)"

# 3. e-mail: killed after the in_doubt mark, before anything was sent.
publish 2026-11-29
id=$(q "select notification_id from ingest.notification where state = 'pending'")
notify_bg k3 --once --smtp-url "smtp://127.0.0.1:$closed_port" --mail-from loader@example.com \
  --mail-to ops@example.com --retry-attempts 100 --retry-budget 600
wait_until "a retry" grep -q "retrying" "$WORK/k3.err"
kill9 "$NOTIFY_PID"
expect_eq "in_doubt after the kill" in_doubt "$(q "select state from ingest.notification where notification_id = $id")"
mail=(--smtp-url "smtp://127.0.0.1:$SMTP_PORT" --mail-from loader@example.com --mail-to ops@example.com)
notify --once "${mail[@]}"
expect_rc 0
expect_eq "never sent automatically" 0 "$(smtp_count)"
run invoice_operator notify resolve --notification "$id" --as pending --reason "not in the mailbox"
expect_rc 0
notify --once "${mail[@]}"
expect_rc 0
expect_eq "sent once after the operator's resolve" 1 "$(smtp_count accepted)"
expect_eq "states" "dispatched:3" "$(states)"
expect_eq "watermark" 2026-11-29 "$(watermark_of acme-erp)"
expect_eq "published" "60 invoices, 12600.00 gross" "$(published_state)"
check_invariants
