#!/usr/bin/env bash
# The runbook (docs/guide/recover.md) executed literally: each procedure's
# fenced sh blocks run as written, under login roles that hold only the
# documented roles (never a superuser, except the DBA's reference-data
# step), then its sql check blocks; after each the test checks counts,
# totals, watermark, notifications and states itself.
source "$(dirname "$0")/lib.sh"

runbook=$REPO/docs/guide/recover.md
mkdir -p "$WORK/bin"
ln -s "$INVOICE_LOADER" "$WORK/bin/invoice-loader"
export PATH=$WORK/bin:$PATH

# Two logins that hold only the documented roles.
suffix=$RANDOM
alice=alice_loader_$suffix bob=bob_operator_$suffix
q "create role $alice login in role invoice_loader; create role $bob login in role invoice_operator"
trap 'q "drop role if exists $alice; drop role if exists $bob" >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT
export LOADER_DSN="dbname=$E2E_DB user=$alice"
export OPERATOR_DSN="dbname=$E2E_DB user=$bob"
export OWNER_DSN="dbname=$E2E_DB"

# blocks NAME LANG: the LANG blocks of procedure NAME, as one script.
blocks() {
  awk -v name="$1" -v lang="$2" '
    /^<!-- procedure: / { inproc = ($3 == name); next }
    /^## / { inproc = 0 }
    inproc && $0 == "```" lang { inblock = 1; next }
    inblock && /^```$/ { inblock = 0; next }
    inblock { print }' "$runbook"
}
# procedure NAME: run its sh blocks (must exist), then its section's checks.
procedure() {
  local name=$1 script
  script=$(blocks "$name" sh)
  [[ -n $script ]] || fail "recover.md has no sh block for procedure $name"
  echo "--- procedure $name"
  set +e
  bash -euo pipefail -c "$script" >"$WORK/out" 2>"$WORK/err"
  RC=$?
  set -e
  expect_rc 0
}
# checks NAME: the sql blocks of the section holding procedure NAME.
checks() {
  local sql
  sql=$(awk -v name="$1" '
    /^<!-- procedure: / && $3 == name { insec = 1 }
    insec && /^## / { exit }
    insec && /^```sql$/ { inblock = 1; next }
    inblock && /^```$/ { inblock = 0; next }
    inblock { print }' "$runbook")
  [[ -n $sql ]] || return 0
  # (psql reads variables like :batch in a script, not in -c)
  printf '%s\n' "$sql" |
    psql -X -q "$OPERATOR_DSN" -v ON_ERROR_STOP=1 -v batch="$BATCH" -v source="$SOURCE" -v date="$DATE" \
      -v notification="${NOTIFICATION:-0}" \
      >"$WORK/checks" 2>&1 || fail "the checks of $1 failed: $(cat "$WORK/checks")"
}
batch_of() { q "select batch_id from ingest.batch where source = '$1' and business_date = '$2' order by batch_id desc limit 1"; }
state_of() { q "select state from ingest.batch where batch_id = $1"; }

# 1. Reconciliation: the manifest's control total was wrong; the sender
#    corrects it; replay; load.
export SOURCE=acme-erp DATE=2026-11-28
run "$bob" source add "$SOURCE" --start-date "$DATE"
expect_rc 0
export INPUT; INPUT=$(sample "$WORK/r1" "$DATE")
export MANIFEST=$INPUT.manifest.json
sed -i 's/4200.00/4300.00/' "$MANIFEST"
run "$alice" load --source "$SOURCE" --business-date "$DATE" --input "$INPUT"
expect_rc 65
export BATCH; BATCH=$(batch_of "$SOURCE" "$DATE")
# Without a replay, a second load changes nothing.
run "$alice" load --source "$SOURCE" --business-date "$DATE" --input "$INPUT"
expect_rc 65
expect_eq "still quarantined" quarantined "$(state_of "$BATCH")"
sed -i 's/4300.00/4200.00/' "$MANIFEST"
procedure reconciliation-corrected-manifest
# The replay names the attempt that quarantined the batch, not the rerun.
expect_output_has "supersedes attempt 1 (run $(q "select run_id from ingest.attempt where batch_id = $BATCH and attempt_no = 1"))"
checks reconciliation-corrected-manifest
expect_eq "after the replay" published "$(state_of "$BATCH")"
expect_eq "published" "20 invoices, 4200.00 gross" "$(published_state)"
expect_eq "watermark" "$DATE" "$(watermark_of "$SOURCE")"
expect_eq "notifications" "1 published, 1 quarantined" \
  "$(q "select count(*) filter (where kind = 'batch_published') || ' published, '
          || count(*) filter (where kind = 'batch_quarantined') || ' quarantined'
        from ingest.notification where batch_id = $BATCH")"
expect_eq "the replay, by bob, superseding attempt 1" "replay $bob 1" \
  "$(q "select action || ' ' || db_user || ' ' || superseded_attempt_no from ingest.operator_action where batch_id = $BATCH")"
# status --batch: the authorization, who gave it, why, and the attempt and
# run that used it (the third: the procedure's load).
run "$bob" status --batch "$BATCH" --format json
expect_rc 0
expect_eq "status: the replay used by attempt 3 and its run" \
  "replay $bob 1 3 $(q "select run_id from ingest.attempt where batch_id = $BATCH and attempt_no = 3")" \
  "$(python3 -c 'import json, sys
for a in json.load(sys.stdin)["operator_actions"]:
    print(a["action"], a["db_user"], a["superseded_attempt_no"], a["used_by_attempt_no"], a["used_by_run_id"])' <"$WORK/out")"
run "$bob" status --batch "$BATCH"
expect_rc 0
expect_output_has "used_by_attempt"
expect_output_has "$(q "select run_id from ingest.attempt where batch_id = $BATCH and attempt_no = 3")"
expect_eq "the authorization was used once" 1 \
  "$(q "select count(*) from ingest.replay_authorization where batch_id = $BATCH and consumed_at is not null")"

# 2. Validation: a currency missing from the reference data; the DBA adds
#    it, the operator replays.
export SOURCE=beta-erp DATE=2026-11-28
run "$bob" source add "$SOURCE" --start-date "$DATE"
expect_rc 0
mkdir -p "$WORK/r2"
"$REPO/scripts/make-sample.sh" "$WORK/r2s" "$DATE" >/dev/null
sed 's/,EUR,/,XTS,/' "$WORK/r2s/acme-erp_$DATE.csv" >"$WORK/r2/xts.csv"
printf '{"source":"beta-erp","business_date":"%s","record_count":20,"control_total":"4200.00"}\n' \
  "$DATE" >"$WORK/r2/xts.csv.manifest.json"
INPUT=$WORK/r2/xts.csv MANIFEST=$INPUT.manifest.json
run "$alice" load --source "$SOURCE" --business-date "$DATE" --input "$INPUT"
expect_rc 65
expect_output_has "currency.unknown"
BATCH=$(batch_of "$SOURCE" "$DATE")
procedure validation-missing-currency
checks validation-missing-currency
expect_eq "currency added: published" published "$(state_of "$BATCH")"
expect_eq "currency added: invoices" "20 4200.00" \
  "$(q "select count(*) || ' ' || sum(gross_amount) from reporting.invoice where source = '$SOURCE'")"
expect_eq "currency added: the earlier attempt's rejections kept" 20 \
  "$(q "select count(distinct record_no) from ingest.rejection_superseded where batch_id = $BATCH")"
expect_eq "currency added: watermark" "$DATE" "$(watermark_of "$SOURCE")"

# 2b. Validation under all-or-nothing, then the source switched to partial:
#     one record's net + tax is not its gross.
export SOURCE=gamma-erp
run "$bob" source add "$SOURCE" --start-date "$DATE"
expect_rc 0
awk -F, 'NR == 4 { $9 = sprintf("%.2f", $9 + 1) } { print }' OFS=, \
  "$WORK/r2s/acme-erp_$DATE.csv" >"$WORK/r2/sum.csv"
printf '{"source":"gamma-erp","business_date":"%s","record_count":20,"control_total":"4200.00"}\n' \
  "$DATE" >"$WORK/r2/sum.csv.manifest.json"
INPUT=$WORK/r2/sum.csv MANIFEST=$INPUT.manifest.json
run "$alice" load --source "$SOURCE" --business-date "$DATE" --input "$INPUT"
expect_rc 65
expect_output_has "amounts.sum"
BATCH=$(batch_of "$SOURCE" "$DATE")
procedure validation-partial-policy
checks validation-partial-policy
expect_eq "partial: published" published "$(state_of "$BATCH")"
expect_eq "partial: accepted, rejected" "19 1" \
  "$(q "select accepted_count || ' ' || rejected_count from ingest.batch where batch_id = $BATCH")"
expect_eq "partial: the rejection" "3 amounts.sum" \
  "$(q "select record_no || ' ' || rule from ingest.rejection where batch_id = $BATCH")"
expect_eq "partial: invoices" 19 "$(q "select count(*) from reporting.invoice where source = '$SOURCE'")"
expect_eq "partial: watermark" "$DATE" "$(watermark_of "$SOURCE")"

# 3. Wrong data published: revert, then the corrected file.
export SOURCE=acme-erp DATE=2026-11-29
INPUT=$(sample "$WORK/r3" "$DATE")
run "$alice" load --source "$SOURCE" --business-date "$DATE" --input "$INPUT"
expect_rc 0
BATCH=$(batch_of "$SOURCE" "$DATE")
before_revert=$(q "select count(*) || ' ' || sum(gross_amount) from reporting.invoice_as_of(
                     (select published_at from ingest.batch where batch_id = $BATCH) - interval '1 millisecond')
                   where source = 'acme-erp'")
export FIXED_INPUT=$WORK/r3/fixed.csv
head -n 11 "$INPUT" >"$FIXED_INPUT"
total=$(tail -n +2 "$FIXED_INPUT" | awk -F, '{ s += $11 } END { printf "%.2f", s }')
printf '{"source":"acme-erp","business_date":"%s","record_count":10,"control_total":"%s"}\n' \
  "$DATE" "$total" >"$FIXED_INPUT.manifest.json"
# The revert alone first (the procedure's first line), to compare.
run "$bob" revert --batch "$BATCH" --reason "checking the state between revert and reload"
expect_rc 0
expect_eq "reverted" reverted "$(state_of "$BATCH")"
expect_eq "reporting.invoice is what it was before the publication" "$before_revert" \
  "$(q "select count(*) || ' ' || sum(gross_amount) from reporting.invoice where source = 'acme-erp'")"
expect_eq "watermark back" 2026-11-28 "$(watermark_of acme-erp)"
expect_eq "one batch_reverted" 1 "$(q "select count(*) from ingest.notification where batch_id = $BATCH and kind = 'batch_reverted'")"
run "$alice" load --source "$SOURCE" --business-date "$DATE" --input "$INPUT"
expect_rc 78
expect_output_has "replay"
# The procedure's revert is refused now (the batch is reverted, 78), so the
# test runs its second line, the corrected file, the way the runbook says.
script=$(blocks wrong-data-corrected-file sh)
[[ $(grep -c 'invoice-loader' <<<"$script") == 2 ]] || fail "wrong-data-corrected-file is not revert + load"
run "$alice" load --source "$SOURCE" --business-date "$DATE" --input "$FIXED_INPUT"
expect_rc 0
checks wrong-data-corrected-file
expect_eq "corrected: published" 30 "$(q "select count(*) from reporting.invoice where source = 'acme-erp'")"
expect_eq "corrected: watermark" "$DATE" "$(watermark_of acme-erp)"

# 4. The same bytes again: revert the corrected batch, replay, load.
BATCH=$(batch_of "$SOURCE" "$DATE") INPUT=$FIXED_INPUT
procedure wrong-data-same-file-again
checks wrong-data-same-file-again
expect_eq "replayed after revert: published" published "$(state_of "$BATCH")"
expect_eq "invoices after the same bytes again" 30 "$(q "select count(*) from reporting.invoice where source = 'acme-erp'")"
expect_eq "publish notifications of that batch (one per round)" 2 \
  "$(q "select count(*) from ingest.notification where batch_id = $BATCH and kind = 'batch_published'")"

# 5. A notification in doubt (as a killed e-mail send leaves it; the notify
#    tests make that for real), settled by the operator as the runbook says.
export NOTIFICATION
NOTIFICATION=$(q "select notification_id from ingest.notification
                  where batch_id = $BATCH and kind = 'batch_published' order by notification_id limit 1")
q "update ingest.outbox set state = 'in_doubt', in_doubt_at = now() where notification_id = $NOTIFICATION"
procedure notification-in-doubt
checks notification-in-doubt
expect_eq "settled as dispatched" dispatched \
  "$(q "select state from ingest.notification where notification_id = $NOTIFICATION")"
expect_eq "by the operator, recorded" "notification_resolve $bob" \
  "$(q "select action || ' ' || db_user from ingest.operator_action
        where notification_id = $NOTIFICATION")"

# 6. The other procedures exist and name only the loader's commands.
for p in schema-corrected-file schema-source-setting \
         retry-budget commit-in-doubt abandoned-attempt; do
  script=$(blocks "$p" sh)
  [[ -n $script ]] || fail "procedure $p has no commands"
  while read -r word _; do
    [[ $word == invoice-loader || $word == psql || $word == -c* ]] ||
      fail "procedure $p runs [$word]"
  done < <(grep -v '^ *$' <<<"$script" | sed 's/^ *//')
done
check_invariants
