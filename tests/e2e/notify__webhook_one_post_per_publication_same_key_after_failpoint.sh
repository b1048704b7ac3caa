#!/usr/bin/env bash
# Webhook sink: one POST per publication with the body claim_notifications
# builds and Idempotency-Key = the dedupe key; a rerun sends nothing; the
# after_notify_send failpoint (delivered, not marked) leaves the row pending
# and the rerun sends the SAME key again, never a new one.  The loads'
# state (invoices, watermark) is untouched by dispatching.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/notify_lib.sh"

register_source acme-erp --start-date 2026-11-27
publish 2026-11-27 2026-11-28
start_http
state_before=$(published_state)

notify --once --webhook-url "$HOOK/hook"
expect_rc 0
expect_output_has "notify: 2 dispatched, 0 failed, 0 in doubt, 0 left pending"
expect_eq "POSTs" 2 "$(http_count /hook)"
expect_eq "states" "dispatched:2" "$(states)"
expect_eq "keys sent = dedupe keys" \
  "$(q "select string_agg(dedupe_key, ' ' order by notification_id) from ingest.notification")" \
  "$(http_keys /hook | paste -sd' ')"
# The body carries what the contract names, numbers exact.
http_bodies /hook | python3 -c '
import json, sys
reqs = json.load(sys.stdin)
b = json.loads(reqs[0]["body"])
for k in ("batch_id", "source", "business_date", "kind", "record_count",
          "control_total", "accepted_count", "rejected_count", "published_at"):
    assert k in b, k
assert b["kind"] == "batch_published" and b["source"] == "acme-erp", b
assert b["business_date"] == "2026-11-27" and b["record_count"] == 20, b
assert str(b["control_total"]) in ("4200.00", "4200.0", "4200"), b
assert b["accepted_count"] == 20 and b["rejected_count"] == 0, b
assert reqs[0]["headers"]["Content-Type"] == "application/json", reqs[0]
assert reqs[0]["body"].find("4200.00") >= 0, "control total not exact"
' || fail "webhook body: $(http_bodies /hook)"
expect_eq "sink and status recorded" "webhook:200" \
  "$(q "select string_agg(distinct sink || ':' || last_status, ' ') from ingest.outbox")"

notify --once --webhook-url "$HOOK/hook"
expect_rc 0
expect_output_has "notify: 0 dispatched"
expect_eq "POSTs after a rerun" 2 "$(http_count /hook)"

# Delivered, then killed before the mark.
publish 2026-11-29
key=$(q "select dedupe_key from ingest.notification where state = 'pending'")
set +e
INVOICE_LOADER_FAILPOINT=after_notify_send "$INVOICE_LOADER" \
  --dsn "dbname=$E2E_DB user=invoice_loader" notify --once --webhook-url "$HOOK/hook" \
  >"$WORK/out" 2>"$WORK/err"
RC=$?
set -e
expect_rc 137
expect_eq "POSTs after the failpoint" 3 "$(http_count /hook)"
expect_eq "the row is pending again (its claim ended with the session)" \
  "dispatched:2 pending:1" "$(states)"
notify --once --webhook-url "$HOOK/hook"
expect_rc 0
expect_eq "POSTs after the rerun" 4 "$(http_count /hook)"
expect_eq "the resend carries the same key" "$key $key" \
  "$(http_keys /hook | tail -n 2 | paste -sd' ')"
expect_eq "states at the end" "dispatched:3" "$(states)"
expect_eq "tries of the resent row" 2 \
  "$(q "select tries from ingest.notification where dedupe_key = '$key'")"
expect_eq "published before dispatching" "40 invoices, 8400.00 gross" "$state_before"
expect_eq "published after (three loads, dispatching changed nothing)" \
  "60 invoices, 12600.00 gross" "$(published_state)"
expect_eq "watermark" 2026-11-29 "$(watermark_of acme-erp)"
check_invariants
