#!/usr/bin/env bash
# Four eyes with the real binary, a loader login and two operator logins
# (A and B) for a source added with --require-approval:
#   1. load exits 75 "awaiting approval", naming the batch and approve;
#      readers see nothing (invoices, watermark, notifications), the batch
#      is validated and written; a plain rerun says the same and changes
#      nothing; the sweep does not publish it; the next date waits behind
#      it (75); status (text, JSON, Prometheus) shows it;
#   2. approve killed before its COMMIT changes nothing; approve publishes
#      it once (one batch_published); approving it again exits 78;
#   3. the next date, written and awaiting approval, is rejected (a kill
#      before the reject's COMMIT first): quarantined, nothing of it shown,
#      watermark kept; rejecting again exits 78; its replay, asked by A,
#      waits for B's confirm, then the load writes it again, awaiting
#      approval, and B approves it;
#   4. A's revert of it only records a request; A's confirm exits 77; B's
#      confirm killed before COMMIT changes nothing; B's confirm reverts it
#      (one batch_reverted), the audit names both; confirming again or an
#      unknown action exits 78; an undo to a date asked by B takes effect
#      on A's confirm;
#   5. a login that is not an operator gets 77 from approve, reject and
#      confirm.
# Each step checks counts, totals, watermark, notifications and states.
source "$(dirname "$0")/lib.sh"

suffix=$RANDOM
opa=four_eyes_a_$suffix opb=four_eyes_b_$suffix
q "create role $opa login in role invoice_operator; create role $opb login in role invoice_operator"
trap 'q "drop role if exists $opa; drop role if exists $opb" >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT

# killed ROLE FAILPOINT ARGS...: the loader as ROLE, killed at FAILPOINT.
killed() {
  local who=$1 point=$2; shift 2
  set +e
  INVOICE_LOADER_FAILPOINT=$point "$INVOICE_LOADER" --dsn "dbname=$E2E_DB user=$who" "$@" \
    >"$WORK/out" 2>"$WORK/err"
  RC=$?
  set -e
  expect_rc 137
}
state_of() { q "select state from ingest.batch where batch_id = $1"; }
kinds_of() { q "select coalesce(string_agg(kind, ' ' order by notification_id), '-')
                from ingest.notification where batch_id = $1"; }
# Everything a reader or a dispatcher could see, as one line.
seen() {
  q "select (select count(*) || ' ' || coalesce(sum(gross_amount), 0) from reporting.invoice)
            || ' | ' || coalesce((select business_date::text from ingest.watermark
                                  where source = 'acme-erp'), 'none')
            || ' | ' || (select count(*) from ingest.notification)"
}
# The batch's own rows: state, written versions, listed as written.
batch_rows() {
  q "select b.state || ' ' || (select count(*) from core.invoice_version as v where v.batch_id = b.batch_id)
            || ' ' || coalesce((select p.awaits_approval::text || '/' || coalesce(p.approved_by_action::text, '-')
                                from ingest.pending_publication as p where p.batch_id = b.batch_id), 'none')
     from ingest.batch as b where b.batch_id = $1"
}

register_source acme-erp --start-date 2026-11-28 --require-approval
expect_output_has "approval required"
d1=$(sample "$WORK/d1" 2026-11-28)
d2=$(sample "$WORK/d2" 2026-11-29)

# 1. The batch waits for approval, unseen.
load --source acme-erp --business-date 2026-11-28 --input "$d1"
expect_rc 75
b1=$(q "select batch_id from ingest.batch where business_date = '2026-11-28'")
expect_output_has "awaiting approval"
expect_output_has "invoice-loader approve --batch $b1"
expect_eq "awaiting: nothing seen" "0 0 | none | 0" "$(seen)"
expect_eq "awaiting: validated, written, awaiting" "validated 20 true/-" "$(batch_rows "$b1")"
events=$(q "select count(*) from ingest.batch_event where batch_id = $b1")

load --source acme-erp --business-date 2026-11-28 --input "$d1"
expect_rc 75
expect_output_has "awaiting approval"
expect_eq "rerun: nothing seen" "0 0 | none | 0" "$(seen)"
expect_eq "rerun: the batch unchanged" "validated 20 true/-" "$(batch_rows "$b1")"
expect_eq "rerun: no checkpoint" "$events" "$(q "select count(*) from ingest.batch_event where batch_id = $b1")"

q "call ingest.sweep()"
expect_eq "sweep: nothing seen" "0 0 | none | 0" "$(seen)"
expect_eq "sweep: the batch unchanged" "validated 20 true/-" "$(batch_rows "$b1")"

load --source acme-erp --business-date 2026-11-29 --input "$d2"
expect_rc 75
b2=$(q "select batch_id from ingest.batch where business_date = '2026-11-29'")
expect_output_has "batch $b1 (written, awaiting approval"
expect_eq "the next date waits, not written" "validated 0 none" "$(batch_rows "$b2")"

run "$opa" status --format json
expect_rc 0
expect_eq "status json: one awaiting approval" 1 \
  "$(python3 -c 'import json,sys; print(json.load(sys.stdin)["sources"][0]["awaiting_approval"])' <"$WORK/out")"
run "$opa" status
expect_rc 0
expect_output_has "1 batch(es) awaiting approval"
expect_output_has "invoice-loader approve --batch $b1"
run "$opa" status --format prometheus
expect_rc 0
grep -qx 'invoice_loader_batches_awaiting_approval{source="acme-erp"} 1' "$WORK/out" ||
  fail "the metric does not show the batch awaiting approval"

# 2. Approve: killed before COMMIT, then for real, then again.
killed "$opa" before_approval_commit approve --batch "$b1" --reason "totals checked"
expect_eq "approve killed: nothing seen" "0 0 | none | 0" "$(seen)"
expect_eq "approve killed: the batch unchanged" "validated 20 true/-" "$(batch_rows "$b1")"
expect_eq "approve killed: no action" 0 "$(q "select count(*) from ingest.operator_action")"
run "$opa" approve --batch "$b1" --reason "totals checked"
expect_rc 0
expect_output_has "approved and published"
expect_eq "approved: shown once" "20 4200.00 | 2026-11-28 | 1" "$(seen)"
expect_eq "approved: published" "published 20 none" "$(batch_rows "$b1")"
expect_eq "approved: one batch_published" batch_published "$(kinds_of "$b1")"
expect_eq "approved: audited" "approve $opa" \
  "$(q "select action || ' ' || db_user from ingest.operator_action where batch_id = $b1")"
run "$opb" approve --batch "$b1" --reason "again"
expect_rc 78
expect_eq "approve again: nothing changed" "20 4200.00 | 2026-11-28 | 1" "$(seen)"

# 3. The next date: written now, awaiting; rejected; replayed with four
#    eyes; approved.
load --source acme-erp --business-date 2026-11-29 --input "$d2"
expect_rc 75
expect_output_has "awaiting approval"
expect_eq "day 2 awaiting: written" "validated 20 true/-" "$(batch_rows "$b2")"
expect_eq "day 2 awaiting: the first day alone seen" "20 4200.00 | 2026-11-28 | 1" "$(seen)"
killed "$opb" before_reject_commit reject --batch "$b2" --reason "the sender withdrew it"
expect_eq "reject killed: the batch unchanged" "validated 20 true/-" "$(batch_rows "$b2")"
expect_eq "reject killed: nothing else" "20 4200.00 | 2026-11-28 | 1" "$(seen)"
run "$opb" reject --batch "$b2" --reason "the sender withdrew it"
expect_rc 0
expect_eq "rejected: quarantined, its versions gone" "quarantined 0 none" "$(batch_rows "$b2")"
expect_eq "rejected: one batch_quarantined" batch_quarantined "$(kinds_of "$b2")"
expect_eq "rejected: readers see the first day alone" "20 4200.00 | 2026-11-28 | 2" "$(seen)"
expect_eq "rejected: the rule" "0 approval.rejected" \
  "$(q "select record_no || ' ' || rule from ingest.rejection where batch_id = $b2")"
run "$opb" reject --batch "$b2" --reason "again"
expect_rc 78
load --source acme-erp --business-date 2026-11-29 --input "$d2"
expect_rc 65
expect_eq "a load of the rejected bytes changes nothing" "quarantined 0 none" "$(batch_rows "$b2")"

run "$opa" replay --batch "$b2" --reason "the sender confirmed it after all"
expect_rc 0
expect_output_has "awaiting confirmation"
replay_request=$(q "select action_id from ingest.operator_action where batch_id = $b2 and action = 'request'")
expect_eq "replay request: no authorization yet" 0 \
  "$(q "select count(*) from ingest.replay_authorization where batch_id = $b2")"
load --source acme-erp --business-date 2026-11-29 --input "$d2"
expect_rc 65
run "$opb" confirm --action "$replay_request"
expect_rc 0
expect_eq "replay confirmed: one authorization" 1 \
  "$(q "select count(*) from ingest.replay_authorization where batch_id = $b2")"
load --source acme-erp --business-date 2026-11-29 --input "$d2"
expect_rc 75
expect_output_has "awaiting approval"
expect_eq "replayed: written again, awaiting" "validated 20 true/-" "$(batch_rows "$b2")"
expect_eq "replayed: unseen" "20 4200.00 | 2026-11-28 | 2" "$(seen)"
run "$opb" approve --batch "$b2" --reason "checked"
expect_rc 0
expect_eq "day 2 approved" "40 8400.00 | 2026-11-29 | 3" "$(seen)"
expect_eq "day 2: quarantined, then published" "batch_quarantined batch_published" "$(kinds_of "$b2")"

# 4. A revert waits for a second operator.
run "$opa" revert --batch "$b2" --reason "published before the sender's sign-off"
expect_rc 0
expect_output_has "awaiting confirmation"
request=$(q "select action_id from ingest.operator_action
             where batch_id = $b2 and action = 'request' and requested_action = 'revert'")
expect_output_has "invoice-loader confirm --action $request"
expect_eq "revert request: nothing changed" "40 8400.00 | 2026-11-29 | 3" "$(seen)"
run "$opa" status
expect_rc 0
expect_output_has "Awaiting confirmation"
run "$opa" status --format prometheus
expect_rc 0
grep -qx 'invoice_loader_actions_awaiting_confirmation{source="acme-erp"} 1' "$WORK/out" ||
  fail "the metric does not show the request awaiting confirmation"
run "$opa" confirm --action "$request"
expect_rc 77
expect_eq "the requester's confirm: nothing changed" "40 8400.00 | 2026-11-29 | 3" "$(seen)"
killed "$opb" before_confirm_commit confirm --action "$request"
expect_eq "confirm killed: nothing changed" "40 8400.00 | 2026-11-29 | 3" "$(seen)"
expect_eq "confirm killed: still unconfirmed" 0 \
  "$(q "select count(*) from ingest.confirmation where request_action_id = $request")"
run "$opb" confirm --action "$request"
expect_rc 0
expect_output_has "confirmed by $opb"
expect_eq "confirmed: the revert took effect" "20 4200.00 | 2026-11-28 | 4" "$(seen)"
expect_eq "confirmed: reverted" "reverted 0 none" "$(batch_rows "$b2")"
expect_eq "confirmed: one batch_reverted" "batch_quarantined batch_published batch_reverted" "$(kinds_of "$b2")"
expect_eq "the audit names both" "revert $opb $opa $request" \
  "$(q "select action || ' ' || db_user || ' ' || requested_by || ' ' || confirms_action
        from ingest.operator_action where batch_id = $b2 and action = 'revert'")"
run "$opb" confirm --action "$request"
expect_rc 78
run "$opb" confirm --action 999999
expect_rc 78

run "$opb" revert --source acme-erp --to-date 2026-11-27 --reason "the whole feed was wrong"
expect_rc 0
expect_output_has "awaiting confirmation"
expect_eq "undo request: nothing changed" "20 4200.00 | 2026-11-28 | 4" "$(seen)"
undo=$(q "select action_id from ingest.operator_action where requested_action = 'revert_to_date'")
run "$opa" confirm --action "$undo"
expect_rc 0
expect_eq "undo confirmed" "0 0 | none | 5" "$(seen)"
expect_eq "undo: the first day reverted" "reverted 0 none" "$(batch_rows "$b1")"

# 5. Not an operator.
for cmd in "approve --batch $b1 --reason x" "reject --batch $b1 --reason x" "confirm --action $undo"; do
  # shellcheck disable=SC2086
  run invoice_loader $cmd
  expect_rc 77
done
expect_eq "refusals: nothing changed" "0 0 | none | 5" "$(seen)"

check_invariants
