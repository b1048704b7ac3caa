#!/usr/bin/env bash
# Webhooks signed per the Standard Webhooks specification, checked by a
# receiver written independently (Python's hmac, hashlib and base64):
#   1. with webhook-secret in the --config file, every POST (a 500 then
#      the retry's 200) carries webhook-id (the Idempotency-Key, the same
#      on the retry), a current webhook-timestamp and a webhook-signature
#      that verifies with the secret over id.timestamp.body, and not with
#      another secret; dispatched once;
#   2. rotation: webhook-secret (new) and webhook-secret-previous (old)
#      send two signatures, one verifying with each;
#   3. a secret on the command line, or one not of the form whsec_<base64>,
#      exits 78 without showing it and sends nothing: the notification
#      stays pending.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/notify_lib.sh"

old=whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
new=whsec_$(head -c 32 /dev/urandom | base64 -w0)
register_source acme-erp --start-date 2026-11-27
start_http '{"/hook": ["500", "200"]}'

config() { # CONFIG-LINES...: a 0600 [notify] config file, path printed
  local f=$WORK/notify-$RANDOM.conf
  printf '[notify]\n' >"$f"
  printf '%s\n' "$@" >>"$f"
  chmod 600 "$f"
  echo "$f"
}
# verify SECRET...: for every request to /hook, whether each SECRET's
# signature is among the request's signatures, as "id-same ts-ok s1 s2 ..."
verify() {
  http_bodies /hook | python3 -c '
import base64, hashlib, hmac, json, sys, time
for r in json.load(sys.stdin):
    h = r["headers"]
    msg_id, ts = h.get("webhook-id"), h.get("webhook-timestamp")
    sigs = h.get("webhook-signature", "").split()
    out = ["id-same" if msg_id == h.get("Idempotency-Key") else "id-differs",
           "ts-ok" if ts and abs(int(ts) - time.time()) < 300 else "ts-bad"]
    for secret in sys.argv[1:]:
        key = base64.b64decode(secret[len("whsec_"):])
        mac = hmac.new(key, (msg_id + "." + ts + "." + r["body"]).encode(), hashlib.sha256)
        out.append("ok" if "v1," + base64.b64encode(mac.digest()).decode() in sigs else "no")
    print(" ".join(out))' "$@"
}

# 1. one secret; a 500 first, then the retry
publish 2026-11-27
notify --config "$(config "webhook-secret = $old")" --once --webhook-url "$HOOK/hook"
expect_rc 0
expect_eq "1: both tries signed with the secret, not with another" \
  "id-same ts-ok ok no|id-same ts-ok ok no" "$(verify "$old" "$new" | paste -sd'|')"
expect_eq "1: one webhook-id for both tries" 1 \
  "$(http_bodies /hook | python3 -c 'import json,sys; print(len({r["headers"]["webhook-id"] for r in json.load(sys.stdin)}))')"
expect_eq "1: states" "dispatched:1" "$(states)"
grep -qF -- "${old#whsec_}" "$WORK/out" "$WORK/err" && fail "the secret reached the output"

# 2. rotation: two signatures
curl -sf -X POST "$HOOK/_reset" >/dev/null
publish 2026-11-28
notify --config "$(config "webhook-secret = $new" "webhook-secret-previous = $old")" --once \
  --webhook-url "$HOOK/hook"
expect_rc 0
expect_eq "2: one request, signed with the new and the old secret" "id-same ts-ok ok ok" \
  "$(verify "$new" "$old")"
expect_eq "2: two signatures" 2 \
  "$(http_bodies /hook | python3 -c 'import json,sys; print(len(json.load(sys.stdin)[0]["headers"]["webhook-signature"].split()))')"
expect_eq "2: states" "dispatched:2" "$(states)"

# 3. refusals: nothing sent, the notification pending
curl -sf -X POST "$HOOK/_reset" >/dev/null
publish 2026-11-29
notify --once --webhook-url "$HOOK/hook" --webhook-secret "$old"
expect_rc 78
expect_output_has "--webhook-secret is given on the command line"
notify --config "$(config "webhook-secret = whsec_not-base64!")" --once --webhook-url "$HOOK/hook"
expect_rc 78
expect_output_has "webhook-secret in the --config file is not a Standard Webhooks secret"
grep -qF -- "not-base64!" "$WORK/out" "$WORK/err" && fail "the malformed secret was printed"
notify --config "$(config "webhook-secret-previous = $old")" --once --webhook-url "$HOOK/hook"
expect_rc 78
expect_eq "3: nothing sent" 0 "$(http_count /hook)"
expect_eq "3: states" "dispatched:2 pending:1" "$(states)"
check_invariants
