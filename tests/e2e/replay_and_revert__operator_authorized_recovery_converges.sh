#!/usr/bin/env bash
# Recovery with the real binary and login roles only (docs/guide/recover.md): the
# operator's replay and revert are called in SQL as the invoice_operator
# login (the replay/revert commands of the CLI call the same functions),
# every load runs as invoice_loader.
#   1. a wrong manifest quarantines the batch (65); loading it again
#      without a replay exits 65 and changes nothing;
#   2. replay; the next load, with the corrected manifest, is killed right
#      after the transaction that consumed the authorization
#      (INVOICE_LOADER_FAILPOINT=after_received); a plain rerun converges:
#      published once, the authorization consumed once, by that attempt;
#   3. a revert whose session is killed before COMMIT changes nothing; the
#      revert run again happens once: nothing shown, watermark none, one
#      batch_reverted;
#   4. the same bytes without a replay are not loaded; a corrected file
#      (new bytes) for the date publishes normally.
# Each step checks counts, totals, watermark, notifications and states.
source "$(dirname "$0")/lib.sh"

op() { psql -X -qAt -v ON_ERROR_STOP=1 -d "dbname=$E2E_DB user=invoice_operator" -c "$1"; }
register_source acme-erp --start-date 2026-11-28
csv=$(sample "$WORK/day1")
write_manifest "$csv" 20 4300.00

# 1. quarantined, and a load without a replay changes nothing
load --source acme-erp --business-date 2026-11-28 --input "$csv"
expect_rc 65
batch=$(q "select batch_id from ingest.batch_overview where source = 'acme-erp'")
events=$(q "select count(*) from ingest.batch_event_overview where batch_id = $batch")
load --source acme-erp --business-date 2026-11-28 --input "$csv"
expect_rc 65
expect_eq "no replay: state" quarantined "$(q "select state from ingest.batch_overview where batch_id = $batch")"
expect_eq "no replay: no event" "$events" \
  "$(q "select count(*) from ingest.batch_event_overview where batch_id = $batch")"
expect_eq "no replay: one notification" "batch_quarantined" \
  "$(q "select string_agg(kind, ' ') from ingest.notification where batch_id = $batch")"

# 2. replay, a load killed after consuming it, a plain rerun
superseded=$(op "select superseded_attempt_no || ' ' || superseded_run_id
                 from ingest.replay_batch($batch, 'sender corrected the manifest')")
# The attempt that quarantined the batch (1), not the rerun that changed
# nothing (2).
expect_eq "replay supersedes the attempt that quarantined the batch" \
  "$(q "select attempt_no || ' ' || run_id from ingest.attempt_overview
        where batch_id = $batch and attempt_no = 1")" "$superseded"
expect_eq "the operator's login is recorded" "invoice_operator replay" \
  "$(q "select db_user || ' ' || action from ingest.operator_action where batch_id = $batch")"
write_manifest "$csv" 20 4200.00
# Killed inside the transaction that consumes the authorization, before its
# COMMIT: nothing is consumed, the next load still may.
set +e
INVOICE_LOADER_FAILPOINT=before_register_commit "$INVOICE_LOADER" --dsn "dbname=$E2E_DB user=invoice_loader" \
  load --source acme-erp --business-date 2026-11-28 --input "$csv" >"$WORK/out" 2>"$WORK/err"
RC=$?
set -e
expect_rc 137
expect_eq "killed before consuming: state, replays, unused authorizations" "quarantined|0|1" \
  "$(q "select state || '|' || replays || '|' || (select count(*) from ingest.replay_authorization as r
                                                where r.batch_id = b.batch_id and r.consumed_at is null)
        from ingest.batch as b where b.batch_id = $batch")"
set +e
INVOICE_LOADER_FAILPOINT=after_received "$INVOICE_LOADER" --dsn "dbname=$E2E_DB user=invoice_loader" \
  load --source acme-erp --business-date 2026-11-28 --input "$csv" >"$WORK/out" 2>"$WORK/err"
RC=$?
set -e
expect_rc 137
expect_eq "killed after consuming: state, replays, totals" "received|1|4200.00" \
  "$(q "select state || '|' || replays || '|' || control_total from ingest.batch where batch_id = $batch")"
expect_eq "killed after consuming: authorization used by attempt 3" "1|0|3" \
  "$(q "select count(*) || '|' || count(*) filter (where consumed_at is null) || '|'
               || max(a.attempt_no)
        from ingest.replay_authorization as r
        left join ingest.attempt as a on a.attempt_id = r.consumed_by_attempt_id
        where r.batch_id = $batch")"
load --source acme-erp --business-date 2026-11-28 --input "$csv"
expect_rc 0
expect_eq "replayed: published" "20 invoices, 4200.00 gross" "$(published_state)"
expect_eq "replayed: watermark" 2026-11-28 "$(watermark_of acme-erp)"
expect_eq "replayed: attempts" "1:quarantined 2:quarantined 3:abandoned 4:published" \
  "$(q "select string_agg(attempt_no || ':' || outcome, ' ' order by attempt_no)
        from ingest.attempt_overview where batch_id = $batch")"
expect_eq "replayed: notifications" "batch_quarantined:0 batch_published:1" \
  "$(q "select string_agg(kind || ':' || round, ' ' order by notification_id) from ingest.outbox
        where batch_id = $batch")"
expect_eq "replayed: current rejections none, earlier kept" "0|1" \
  "$(q "select (select count(*) from ingest.rejection where batch_id = $batch) || '|'
               || (select count(*) from ingest.rejection_superseded where batch_id = $batch)")"
check_invariants

# 3. a revert killed before COMMIT, then the revert
psql -X -q -d "dbname=$E2E_DB user=invoice_operator application_name=revert-victim" \
  -c "begin" -c "select * from ingest.revert_batch($batch, 'killed')" -c "select pg_sleep(120)" \
  -c "commit" >/dev/null 2>&1 &
victim=$!
for ((i = 0; i < 200; ++i)); do
  [[ $(q "select count(*) from pg_stat_activity where application_name = 'revert-victim'
          and query like '%pg_sleep%'") == 1 ]] && break
  sleep 0.1
done
expect_eq "the revert waits before COMMIT" t \
  "$(q "select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'revert-victim'")"
wait "$victim" || true
expect_eq "killed revert: nothing changed" "published|20 invoices, 4200.00 gross|2026-11-28|0|0" \
  "$(q "select state from ingest.batch where batch_id = $batch")|$(published_state)|$(watermark_of acme-erp)|$(q "select count(*) from ingest.operator_action where action = 'revert'")|$(notifications batch_reverted)"
# The same through the command, killed before its COMMIT: nothing changed.
set +e
INVOICE_LOADER_FAILPOINT=before_revert_commit "$INVOICE_LOADER" --dsn "dbname=$E2E_DB user=invoice_operator" \
  revert --batch "$batch" --reason "killed" >"$WORK/out" 2>"$WORK/err"
RC=$?
set -e
expect_rc 137
expect_eq "killed revert command: nothing changed" "published|20 invoices, 4200.00 gross|2026-11-28|0|0" \
  "$(q "select state from ingest.batch where batch_id = $batch")|$(published_state)|$(watermark_of acme-erp)|$(q "select count(*) from ingest.operator_action where action = 'revert'")|$(notifications batch_reverted)"
reverted=$(op "select reverted_versions || ' ' || coalesce(watermark::text, 'none')
               from ingest.revert_batch($batch, 'the sender published the wrong file')")
expect_eq "revert: versions, watermark" "20 none" "$reverted"
expect_eq "reverted: state, nothing shown, watermark" "reverted|0 invoices, 0 gross|none" \
  "$(q "select state from ingest.batch where batch_id = $batch")|$(published_state)|$(watermark_of acme-erp)"
expect_eq "reverted: one revert, one batch_reverted" "1|1" \
  "$(q "select count(*) from ingest.operator_action where action = 'revert'")|$(notifications batch_reverted)"
expect_eq "reverted: versions kept in history" 20 \
  "$(q "select count(*) from core.invoice_version_reverted where batch_id = $batch")"

# 4. the same bytes need a replay; a corrected file loads normally
load --source acme-erp --business-date 2026-11-28 --input "$csv"
expect_rc 78   # a reverted batch without a replay
expect_output_has "an operator must replay it"
expect_eq "no replay: still reverted, nothing shown" "reverted|0 invoices, 0 gross" \
  "$(q "select state from ingest.batch where batch_id = $batch")|$(published_state)"
fixed=$(sample "$WORK/fixed")
sed -i '2s/Monthly subscription/Monthly subscription (corrected)/' "$fixed"
write_manifest "$fixed" 20 4200.00
cmp -s "$csv" "$fixed" && fail "the corrected file has the same bytes"
load --source acme-erp --business-date 2026-11-28 --input "$fixed"
expect_rc 0
expect_eq "corrected file: published" "20 invoices, 4200.00 gross" "$(published_state)"
expect_eq "corrected file: a new batch" 1 \
  "$(q "select count(*) from ingest.batch where state = 'published' and batch_id <> $batch")"
expect_eq "corrected file: watermark" 2026-11-28 "$(watermark_of acme-erp)"
check_invariants
