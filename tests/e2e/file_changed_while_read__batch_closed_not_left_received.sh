#!/usr/bin/env bash
# A file that changes while it is read: pass 1
# registered its SHA-256, pass 2 reads other bytes.  The run closes the
# batch it registered (quarantined, rule batch.abandoned, the reason
# stored) and exits 65, so no received batch is left for ever and no
# mixed batch is staged; the completed file (new bytes) then loads as a
# new batch and publishes once.  The loader is stopped (SIGSTOP) during
# pass 2 while the end of its file is rewritten in place: the waits are
# bounded polls, not timings.
source "$(dirname "$0")/lib.sh"

register_source acme-erp --start-date 2026-11-28
csv=$("$REPO/scripts/gen-invoices.sh" "$WORK" 2026-11-28 300000)

"$INVOICE_LOADER" --dsn "dbname=$E2E_DB user=invoice_loader" load --source acme-erp \
  --business-date 2026-11-28 --input "$csv" >"$WORK/out" 2>"$WORK/err" &
pid=$!
for ((i = 0; i < 600; i++)); do
  [[ $(q "select count(*) from pg_stat_activity where application_name = 'invoice-loader'
          and state = 'active' and query ilike 'copy staging.invoice_valid%'") -gt 0 ]] && break
  kill -0 "$pid" 2>/dev/null || fail "the loader ended before its COPY"
  sleep 0.05
done
kill -STOP "$pid"
# The sender rewrites the last record in place (same file, same inode).
python3 - "$csv" <<'PY'
import os, sys
path = sys.argv[1]
with open(path, 'r+b') as f:
    data = f.read()
    at = data.rindex(b'workshop')
    f.seek(at)
    f.write(b'Workshop')
PY
kill -CONT "$pid"
set +e
wait "$pid"; RC=$?
set -e
expect_rc 65
expect_output_has "changed while it was being loaded"
expect_eq "the batch is closed, not left received" "quarantined|batch.abandoned" \
  "$(q "select b.state || '|' || r.rule from ingest.batch as b
        join ingest.rejection as r using (batch_id)")"
expect_eq "its attempt is closed quarantined" quarantined \
  "$(q "select outcome from ingest.attempt order by attempt_id limit 1")"
expect_eq "nothing staged of it" 0 "$(q 'select count(*) from staging.invoice_valid')"
expect_eq "nothing published" "0 invoices, 0 gross" "$(published_state)"
expect_eq "watermark" none "$(watermark_of acme-erp)"
expect_eq "no received batch left" 0 "$(q "select count(*) from ingest.batch where state = 'received'")"

# The sender's complete file, with its manifest: a new batch, published.
sha=$(sha256sum "$csv" | cut -d' ' -f1)
sed -i "s/\"sha256\":\"[0-9a-f]*\"/\"sha256\":\"$sha\"/" "$csv.manifest.json"
load --source acme-erp --business-date 2026-11-28 --input "$csv"
expect_rc 0
expect_eq "batches: the closed one and the published one" "published quarantined" \
  "$(q "select string_agg(state, ' ' order by state) from ingest.batch")"
expect_eq "invoices" 300000 "$(q 'select count(*) from reporting.invoice')"
expect_eq "watermark after the complete file" 2026-11-28 "$(watermark_of acme-erp)"
expect_eq "one publication notified" 1 "$(notifications batch_published)"
check_invariants
