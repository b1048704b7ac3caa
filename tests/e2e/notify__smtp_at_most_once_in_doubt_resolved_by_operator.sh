#!/usr/bin/env bash
# E-mail sink, at most once: one message per publication with a Message-ID
# derived from the dedupe key; the credentials come from the --config file
# and never show; the after_notify_send failpoint (250 received, not yet
# marked) and a connection dropped after DATA each leave the row in_doubt,
# and reruns never resend it; `notify resolve` (operator only) settles it,
# recorded in ingest.operator_action; resolved as pending, it is sent again
# with the same Message-ID.  Both sinks: a webhook refusal (400) sends no
# mail; both accepting dispatches the row.  A 451 after DATA (the server
# said no: nothing delivered) is retried; a 554 is failed, not retried.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/notify_lib.sh"

mid() { # the Message-ID of a dedupe key made of [a-z_0-9:] only
  echo "<${1//:/.}@invoice-loader>"
}

register_source acme-erp --start-date 2026-11-27
publish 2026-11-27 2026-11-28
start_smtp '[]' --auth 'notifier:s3cret-pw'
cfg=$WORK/notify.conf
cat >"$cfg" <<CONF
[notify]
smtp-url = smtp://notifier:s3cret-pw@127.0.0.1:$SMTP_PORT
mail-from = loader@example.com
mail-to = ops@example.com, audit@example.com
CONF
chmod 600 "$cfg"

# The same URL on the command line is refused, without echoing it.
notify --once --smtp-url "smtp://notifier:s3cret-pw@127.0.0.1:$SMTP_PORT" \
  --mail-from loader@example.com --mail-to ops@example.com
expect_rc 78
expect_output_has "password on the command line"
! grep -q "s3cret-pw" "$WORK/out" "$WORK/err" || fail "the refusal echoed the password"
expect_eq "nothing sent" "0 pending:2" "$(smtp_count) $(states)"

notify --config "$cfg" --once
expect_rc 0
expect_output_has "notify: 2 dispatched, 0 failed, 0 in doubt, 0 left pending"
expect_eq "messages" 2 "$(smtp_count accepted)"
expect_eq "states" "dispatched:2" "$(states)"
expect_eq "Message-IDs from the dedupe keys" \
  "$(q "select string_agg(dedupe_key, ' ' order by notification_id) from ingest.notification" |
     tr ' ' '\n' | while read -r k; do mid "$k"; done | paste -sd' ')" \
  "$(smtp_message_ids | paste -sd' ')"
for rcpt in ops@example.com audit@example.com; do
  grep -qF "$rcpt" "$MAILDIR/log.jsonl" || fail "not sent to $rcpt: $(cat "$MAILDIR/log.jsonl")"
done
first=$(find "$MAILDIR" -name '*.eml' | sort | head -n1)
for want in "Source:         acme-erp" "Business date:  2026-11-27" "Control total:  4200.00" \
            "Records:        20" "Kind:           batch_published"; do
  grep -qF "$want" "$first" || fail "the message lacks [$want]: $(cat "$first")"
done
! grep -q "s3cret-pw" "$WORK/out" "$WORK/err" || fail "the SMTP password was printed"

notify --config "$cfg" --once
expect_rc 0
expect_eq "messages after a rerun" 2 "$(smtp_count)"

# 250 received, killed before the mark: in_doubt, never resent.
publish 2026-11-29
id3=$(q "select notification_id from ingest.notification where state = 'pending'")
set +e
INVOICE_LOADER_FAILPOINT=after_notify_send "$INVOICE_LOADER" \
  --dsn "dbname=$E2E_DB user=invoice_loader" notify --config "$cfg" --once \
  >"$WORK/out" 2>"$WORK/err"
RC=$?
set -e
expect_rc 137
expect_eq "messages after the failpoint" 3 "$(smtp_count accepted)"
expect_eq "the row is in_doubt" in_doubt "$(q "select state from ingest.notification where notification_id = $id3")"
notify --config "$cfg" --once
expect_rc 0
expect_eq "an in_doubt row is not resent" 3 "$(smtp_count)"

# The connection dropped after DATA, before the 250: in_doubt, not resent.
kill "$SMTP_PID"
start_smtp '["drop_after_data"]'
publish 2026-11-30
id4=$(q "select notification_id from ingest.notification where state = 'pending'")
key4=$(q "select dedupe_key from ingest.notification where notification_id = $id4")
mailargs=(--smtp-url "smtp://127.0.0.1:$SMTP_PORT" --mail-from loader@example.com --mail-to ops@example.com)
notify --once "${mailargs[@]}"
expect_rc 0
expect_output_has "1 in doubt"
expect_eq "one transaction, dropped" "1 1" "$(smtp_count) $(smtp_count dropped)"
expect_eq "states" "dispatched:2 in_doubt:2" "$(states)"
notify --once "${mailargs[@]}"
expect_rc 0
expect_eq "not resent" 1 "$(smtp_count)"

# The operator settles them.
run invoice_loader notify resolve --notification "$id3" --as dispatched --reason "found it"
expect_rc 77
expect_eq "a loader cannot resolve" in_doubt "$(q "select state from ingest.notification where notification_id = $id3")"
run invoice_operator notify resolve --notification "$id3" --as dispatched --reason "message in the ops mailbox"
expect_rc 0
expect_output_has "notification $id3 resolved as dispatched"
expect_eq "resolved" dispatched "$(q "select state from ingest.notification where notification_id = $id3")"
expect_eq "operator action" "notification_resolve|invoice_operator|message in the ops mailbox" \
  "$(q "select action || '|' || db_user || '|' || reason from ingest.operator_action
        where notification_id = $id3")"
run invoice_operator notify resolve --notification "$id3" --as dispatched --reason again
expect_rc 78
run invoice_operator notify resolve --notification 999999 --as pending --reason none
expect_rc 78
run invoice_operator notify resolve --notification "$id4" --as pending --reason "not in the mailbox"
expect_rc 0
notify --once "${mailargs[@]}"
expect_rc 0
expect_output_has "notify: 1 dispatched"
expect_eq "sent once more, accepted" "2 1" "$(smtp_count) $(smtp_count accepted)"
expect_eq "with the same Message-ID" "$(mid "$key4") $(mid "$key4")" "$(smtp_message_ids | paste -sd' ')"
expect_eq "states" "dispatched:4" "$(states)"
expect_eq "operator actions" 2 "$(q "select count(*) from ingest.operator_action where action = 'notification_resolve'")"

# Both sinks: the webhook first; its refusal sends no mail.
start_http '{"/bad": ["400"]}'
publish 2026-12-01
notify --once --webhook-url "$HOOK/bad" "${mailargs[@]}"
expect_rc 0
expect_output_has "1 failed"
expect_eq "no mail after a webhook refusal" 2 "$(smtp_count)"
publish 2026-12-02
notify --once --webhook-url "$HOOK/ok" "${mailargs[@]}"
expect_rc 0
expect_eq "both sinks got it" "1 3" "$(http_count /ok) $(smtp_count)"
expect_eq "states" "dispatched:5 failed:1" "$(states)"
expect_eq "sink recorded" webhook+smtp "$(q "select sink from ingest.outbox order by notification_id desc limit 1")"

kill "$SMTP_PID"
start_smtp '["reject_data:451", "accept", "reject_data:554"]'
mailargs=(--smtp-url "smtp://127.0.0.1:$SMTP_PORT" --mail-from loader@example.com --mail-to ops@example.com)
publish 2026-12-03
notify --once "${mailargs[@]}"
expect_rc 0
expect_eq "451 then accepted" "2 1" "$(smtp_count) $(smtp_count accepted)"
expect_eq "states" "dispatched:6 failed:1" "$(states)"
publish 2026-12-04
notify --once "${mailargs[@]}"
expect_rc 0
expect_output_has "1 failed"
expect_eq "554 not retried (rejected: the 451 and the 554)" "3 2" "$(smtp_count) $(smtp_count rejected)"
expect_eq "states" "dispatched:6 failed:2" "$(states)"
expect_eq "the refusal's code recorded" 554 \
  "$(q "select last_status from ingest.outbox order by notification_id desc limit 1")"
expect_eq "watermark" 2026-12-04 "$(watermark_of acme-erp)"
expect_eq "published" "160 invoices, 33600.00 gross" "$(published_state)"
check_invariants
