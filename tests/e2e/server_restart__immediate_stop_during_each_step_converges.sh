#!/usr/bin/env bash
# pg_ctl restart -m immediate (a crash, then recovery) while the loader is
# inside COPY, inside validation and inside publication: the loader's
# session dies, it reconnects within its retry budget, resumes from the
# checkpoint the database kept, and ends with exit 0 and exactly the data
# of an uninterrupted run.
source "$(dirname "$0")/lib.sh"
: "${TMP_PG_CTL:?needs scripts/with-tmp-pg.sh}"
# shellcheck disable=SC2086  # TMP_PG_CTL is a command line, split on purpose
restart_server() { $TMP_PG_CTL -m immediate -w restart >/dev/null; }
trap '$TMP_PG_CTL -w start >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT

records=60000
# (publication: during the write of the versions, its long transaction)
for step in copy:"copy staging" validate:"validate_batch" publish:"write_batch"; do
  name=${step%%:*} pattern=${step#*:}
  src=restart-$name
  register_source "$src" --start-date 2026-11-28
  csv=$("$REPO/scripts/gen-invoices.sh" --source "$src" "$WORK/$name" 2026-11-28 $records)
  total=$(sed 's/.*"control_total":"\([-0-9.]*\)".*/\1/' "$csv.manifest.json")
  # validation holds still for the fault (hold_validation, lib.sh)
  [[ $name == validate ]] && hold_validation psql -X -q -d "$E2E_DB"

  "$INVOICE_LOADER" --dsn "dbname=$E2E_DB user=invoice_loader" load --source "$src" \
    --business-date 2026-11-28 --input "$csv" --retry-attempts 30 --retry-budget 300 \
    >"$WORK/out" 2>"$WORK/err" &
  loader=$!
  inject_when_active $loader "$pattern" q restart_server
  RC=0
  wait $loader || RC=$?
  release_validation
  [[ $INJECTED == yes ]] || fail "$name: the loader finished before the restart could be injected"
  expect_rc 0
  grep -q "retrying" "$WORK/err" || fail "$name: the loader did not log a retry"
  expect_eq "$name: published" "$records|$total" \
    "$(q "select count(*) || '|' || sum(gross_amount) from reporting.invoice where source = '$src'")"
  expect_eq "$name: watermark" 2026-11-28 "$(watermark_of "$src")"
  expect_eq "$name: one notification" 1 \
    "$(q "select count(*) from ingest.notification as n join ingest.batch as b using (batch_id)
          where b.source = '$src'")"
done
check_invariants
