#!/usr/bin/env bash
# Faults on the wire, through tests/tools/fault_proxy.  The COMMIT of the
# publishing transaction is lost both ways:
#   request lost: the server never sees COMMIT and rolls back; the loader
#     gets an in-doubt error, reconnects, finds the batch still validated
#     (pg_xact_status: aborted) and publishes it: exit 0, published once;
#   reply lost: the server committed; the loader, in doubt, reconnects,
#     finds the batch published and does not publish again: exit 0, one
#     version set, one notification;
# and the connection is reset in the middle of the COPY.
source "$(dirname "$0")/lib.sh"
[[ -x $FAULT_PROXY ]] || fail "no fault proxy at $FAULT_PROXY (build with BUILD_TESTING=ON)"

control=$WORK/control
echo pass >"$control"
"$FAULT_PROXY" --listen 127.0.0.1:0 --upstream-unix "$PGHOST/.s.PGSQL.$PGPORT" \
  --control "$control" --log "$WORK/proxy.log" --exit-after 600 &
proxy=$!
trap 'kill $proxy 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 100); do grep -q "listening on" "$WORK/proxy.log" 2>/dev/null && break; sleep 0.05; done
port=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$WORK/proxy.log" | head -n 1)
[[ -n $port ]] || fail "the proxy did not say where it listens"
set_mode() { echo "$1" >"$control.tmp" && mv "$control.tmp" "$control"; }
via_proxy() {
  set +e
  "$INVOICE_LOADER" --dsn "host=127.0.0.1 port=$port dbname=$E2E_DB user=invoice_loader" "$@" \
    >"$WORK/out" 2>"$WORK/err"
  RC=$?
  set -e
}

for how in request reply; do
  src=lost-$how
  register_source "$src" --start-date 2026-11-28
  csv=$(sample_for "$src" "$WORK/$how" 2026-11-28)
  set_mode "once:drop_commit_$how after publish_batch"
  via_proxy load --source "$src" --business-date 2026-11-28 --input "$csv"
  expect_rc 0
  grep -q "fault drop_commit_$how" "$WORK/proxy.log" || fail "$how: the fault was not injected"
  expect_output_has "class=in_doubt"
  expect_output_has "session resumed"
  if [[ $how == request ]]; then
    expect_output_has "lost_transaction=aborted"
  else
    expect_output_has "lost_transaction=committed"
  fi
  expect_eq "$how: published once" "20|4200.00" \
    "$(q "select count(*) || '|' || sum(gross_amount) from reporting.invoice where source = '$src'")"
  expect_eq "$how: versions" 20 "$(q "select count(*) from reporting.invoice_version where source = '$src'")"
  expect_eq "$how: one notification" 1 \
    "$(q "select count(*) from ingest.notification as n join ingest.batch as b using (batch_id)
          where b.source = '$src'")"
  expect_eq "$how: watermark" 2026-11-28 "$(watermark_of "$src")"
  expect_eq "$how: published by the one attempt" "1:published" \
    "$(q "select string_agg(a.attempt_no || ':' || a.outcome, ' ' order by a.attempt_no)
          from ingest.attempt_overview as a join ingest.batch as b using (batch_id)
          where b.source = '$src'")"
  expect_eq "$how: published once in the event log" 1 \
    "$(q "select count(*) from ingest.batch_event_overview as e join ingest.batch as b using (batch_id)
          where b.source = '$src' and e.to_state = 'published'")"
done

# The network resets mid-COPY (after 200,000 bytes of the session): the
# loader reconnects, finds the batch still received (the COPY's transaction
# died with the connection) and stages it again.
src=lost-copy
register_source "$src" --start-date 2026-11-28
csv=$("$REPO/scripts/gen-invoices.sh" --source "$src" "$WORK/copy" 2026-11-28 20000)
total=$(sed 's/.*"control_total":"\([-0-9.]*\)".*/\1/' "$csv.manifest.json")
set_mode "once:close_after_bytes 200000"
via_proxy load --source "$src" --business-date 2026-11-28 --input "$csv"
expect_rc 0
grep -q "fault close_after_bytes" "$WORK/proxy.log" || fail "copy: the fault was not injected"
expect_output_has "session resumed"
expect_output_has "state=received"
expect_eq "copy: published once" "20000|$total" \
  "$(q "select count(*) || '|' || sum(gross_amount) from reporting.invoice where source = '$src'")"
expect_eq "copy: staged once" 20000 \
  "$(q "select staged_count from ingest.batch where source = '$src'")"
check_invariants
