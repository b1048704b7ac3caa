#!/usr/bin/env bash
# Webhook answers: 500 twice then 200 is retried by the one retry layer
# (3 requests) and dispatched; a 400 is failed at once (1 request) with the
# status and the answer's first bytes recorded; a webhook answering 503
# past the retry budget leaves the row pending, exit 75, and a later run
# sends it with the same key.  A 401 is ours to fix: the row stays pending,
# exit 77, one request.  A run that stops at an unreachable webhook counts
# every notification it leaves pending.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/notify_lib.sh"

register_source acme-erp --start-date 2026-11-27
start_http '{"/retry": ["500", "500", "200"], "/bad": ["400"], "/down": ["503", "503", "503"], "/auth": ["401"], "/away": ["503", "503"]}'

publish 2026-11-27
notify --once --webhook-url "$HOOK/retry"
expect_rc 0
expect_eq "requests: 500, 500, 200" 3 "$(http_count /retry)"
expect_eq "one key for all three" 1 "$(http_keys /retry | sort -u | wc -l)"
expect_eq "state" "dispatched:1" "$(states)"

publish 2026-11-28
notify --once --webhook-url "$HOOK/bad"
expect_rc 0
expect_output_has "1 failed"
expect_eq "a 400 is not retried" 1 "$(http_count /bad)"
expect_eq "states" "dispatched:1 failed:1" "$(states)"
expect_eq "status and answer recorded" "400|scripted 400" \
  "$(q "select last_status || '|' || btrim(response_head) from ingest.outbox where state = 'failed'")"
notify --once --webhook-url "$HOOK/bad"
expect_rc 0
expect_eq "a failed row is not sent again" 1 "$(http_count /bad)"

publish 2026-11-29
notify --once --webhook-url "$HOOK/down" --retry-attempts 3 --retry-budget 60
expect_rc 75
expect_output_has "1 left pending"
expect_eq "three tries, then given up" 3 "$(http_count /down)"
expect_eq "states" "dispatched:1 failed:1 pending:1" "$(states)"
notify --once --webhook-url "$HOOK/down"
expect_rc 0
expect_eq "sent later, with the same key" 1 "$(http_keys /down | sort -u | wc -l)"
expect_eq "states" "dispatched:2 failed:1" "$(states)"

publish 2026-11-30
notify --once --webhook-url "$HOOK/auth"
expect_rc 77
expect_eq "a 401 is not retried" 1 "$(http_count /auth)"
expect_eq "the row stays pending" "dispatched:2 failed:1 pending:1" "$(states)"
notify --once --webhook-url "$HOOK/auth"
expect_rc 0
expect_eq "states" "dispatched:3 failed:1" "$(states)"

# Three pending and the webhook away: the run stops at the first, and its
# summary counts every row it leaves pending, not only the one it tried.
publish 2026-12-01 2026-12-02 2026-12-03
notify --once --webhook-url "$HOOK/away" --retry-attempts 1
expect_rc 75
expect_eq "one request" 1 "$(http_count /away)"
expect_eq "states" "dispatched:3 failed:1 pending:3" "$(states)"
expect_output_has "3 left pending"
notify --once --webhook-url "$HOOK/away" --retry-attempts 1
expect_rc 75
expect_output_has "3 left pending"
notify --once --webhook-url "$HOOK/auth"
expect_rc 0
expect_output_has "3 dispatched, 0 failed, 0 in doubt, 0 left pending"
expect_eq "states at the end" "dispatched:6 failed:1" "$(states)"
expect_eq "watermark" 2026-12-03 "$(watermark_of acme-erp)"
expect_eq "published" "140 invoices, 29400.00 gross" "$(published_state)"
check_invariants
