#!/usr/bin/env bash
# Every refusal of the operator commands, with its exit code, and the
# database unchanged by each: a role without the privilege exits 77 and
# names the role the command needs, including invoice_reader, which may
# not even read the schema version (not "not migrated", 78); a malformed
# argument (a blank reason, a reason that is not UTF-8, a batch id that
# is not a number) exits 64; an unknown batch or notification and a
# batch in the wrong state exit 78.
source "$(dirname "$0")/lib.sh"

register_source acme-erp --start-date 2026-11-28
csv=$(sample "$WORK")
write_manifest "$csv" 20 4300.00
load --source acme-erp --business-date 2026-11-28 --input "$csv"
expect_rc 65
batch=$(q "select batch_id from ingest.batch where source = 'acme-erp'")

# Everything an operator command could change, as one line.
snapshot() {
  q "select (select string_agg(batch_id || ':' || state, ',' order by batch_id) from ingest.batch)
         || '|' || (select count(*) from ingest.operator_action)
         || '|' || (select count(*) from ingest.replay_authorization)
         || '|' || (select coalesce(string_agg(kind || ':' || state, ',' order by notification_id), '')
                    from ingest.notification)
         || '|' || (select string_agg(source, ',' order by source) from ingest.source)
         || '|' || (select count(*) from reporting.invoice)
         || '|' || (select count(*) from ingest.watermark)"
}
before=$(snapshot)
unchanged() { expect_eq "database unchanged after: $1" "$before" "$(snapshot)"; }

# A role without the privilege: 77, naming the role needed.
for cmd in "replay --batch $batch --reason r" "revert --batch $batch --reason r" \
  "notify resolve --notification 1 --as pending --reason r" "source add other"; do
  # shellcheck disable=SC2086
  run invoice_reader $cmd
  expect_rc 77
  expect_output_has "needs a login role that is a member of invoice_operator"
  grep -qF "not migrated" "$WORK/out" "$WORK/err" && fail "$cmd as invoice_reader: said not migrated"
  unchanged "invoice_reader $cmd"
done
run invoice_reader schedule install
expect_rc 77
expect_output_has "role invoice_reader may not read the database's schema version"
unchanged "invoice_reader schedule install"
run invoice_loader replay --batch "$batch" --reason r
expect_rc 77
expect_output_has "needs a login role that is a member of invoice_operator"
unchanged "invoice_loader replay"
run invoice_loader revert --batch "$batch" --reason r
expect_rc 77
unchanged "invoice_loader revert"

# Malformed arguments: 64, and the bytes of a bad reason never printed.
run invoice_operator replay --batch "$batch" --reason "   "
expect_rc 64
expect_output_has "--reason must say why"
unchanged "a blank reason"
run invoice_operator replay --batch "$batch" --reason "$(printf 'bad\xff\x1b]0;x\x07')"
expect_rc 64
expect_output_has "--reason is not valid UTF-8"
grep -q $'\x1b' "$WORK/out" "$WORK/err" && fail "the reason's ESC was printed"
unchanged "a reason that is not UTF-8"
run invoice_operator revert --batch abc --reason r
expect_rc 64
unchanged "a batch id that is not a number"
run invoice_operator replay --reason r
expect_rc 64
unchanged "no --batch"

# Unknown batch or notification, and the wrong state: 78.
run invoice_operator replay --batch 999999 --reason r
expect_rc 78
unchanged "replay of an unknown batch"
run invoice_operator revert --batch 999999 --reason r
expect_rc 78
unchanged "revert of an unknown batch"
run invoice_operator revert --batch "$batch" --reason "a quarantined batch"
expect_rc 78
unchanged "revert of a quarantined batch"
run invoice_operator notify resolve --notification 999999 --as pending --reason r
expect_rc 78
unchanged "resolve of an unknown notification"

# The one accepted action; repeated, it is the same authorization (0).
run invoice_operator replay --batch "$batch" --reason "sender corrected the manifest"
expect_rc 0
expect_eq "one replay recorded" "1|1" \
  "$(q "select count(*) || '|' || (select count(*) from ingest.replay_authorization)
        from ingest.operator_action")"
before=$(snapshot)
run invoice_operator replay --batch "$batch" --reason "twice"
expect_rc 0
expect_output_has "already authorized"
unchanged "a second replay before the load"
check_invariants
