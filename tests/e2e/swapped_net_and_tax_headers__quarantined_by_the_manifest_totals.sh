#!/usr/bin/env bash
# A file whose header names net_amount and tax_amount the wrong way round
# passes every record rule (net + tax = gross either way) and the control
# total (it covers gross).  With the manifest's optional net_total and
# tax_total it is quarantined (exit 65, rules reconcile.net_total and
# reconcile.tax_total), nothing is published, and the one notification is
# batch_quarantined, announced on channel invoice_loader_outbox with the
# payload {"notification_id", "batch_id", "kind"}.  The file with the
# right header and the same manifest totals then publishes.
source "$(dirname "$0")/lib.sh"

csv=$(sample "$WORK")
register_source acme-erp --start-date 2026-11-28

# The true sums of the sample, read off the file (columns 9 and 10).
read -r net tax <<<"$(tail -n +2 "$csv" | awk -F, '{ n += $9 * 100; t += $10 * 100 }
                       END { printf "%.2f %.2f\n", n / 100, t / 100 }')"
[[ $net != "$tax" ]] || fail "the sample's net and tax sums are equal; the test proves nothing"
add_totals() {  # add_totals MANIFEST: net_total and tax_total added
  sed -i "s/}\$/,\"net_total\":\"$net\",\"tax_total\":\"$tax\"}/" "$1"
}

sed '1s/net_amount,tax_amount/tax_amount,net_amount/' "$csv" >"$WORK/swapped.csv"
grep -q '^.*,tax_amount,net_amount,' "$WORK/swapped.csv" || fail "the header was not swapped"
cp "$csv.manifest.json" "$WORK/swapped.csv.manifest.json"
sed -i 's/,"sha256":"[0-9a-f]*"//' "$WORK/swapped.csv.manifest.json"   # other bytes now
add_totals "$WORK/swapped.csv.manifest.json"

# A listener on the outbox channel: psql prints what arrived after its
# next command (bounded: one read of at most 10 s per line).
coproc LISTENER { psql -X -qAt -d "$E2E_DB" 2>&1; }
# bash unsets LISTENER_PID when the coprocess ends: keep it.
listener_pid=$LISTENER_PID
echo 'listen invoice_loader_outbox; select 1;' >&"${LISTENER[1]}"
read -r -t 10 ready <&"${LISTENER[0]}" || fail "the listener did not start"

load --source acme-erp --business-date 2026-11-28 --input "$WORK/swapped.csv"
expect_rc 65
expect_output_has "reconcile.net_total"
batch=$(q "select batch_id from ingest.batch_overview where file_name = 'swapped.csv'")
expect_eq "state" "quarantined" "$(q "select state from ingest.batch_overview where batch_id = $batch")"
expect_eq "rules" "0 reconcile.net_total,0 reconcile.tax_total" \
  "$(q "select string_agg(record_no || ' ' || rule, ',' order by rule) from ingest.rejection
        where batch_id = $batch")"
expect_eq "published" "0 invoices, 0 gross" "$(published_state)"
expect_eq "watermark" "none" "$(watermark_of acme-erp)"
expect_eq "notifications" "batch_quarantined" \
  "$(q "select string_agg(kind, ',') from ingest.notification where batch_id = $batch")"

echo 'select 2;' >&"${LISTENER[1]}"   # psql prints notifications after a result
heard=''
for _ in 1 2 3; do
  read -r -t 10 line <&"${LISTENER[0]}" || break
  heard+="$line "
  [[ $line == *'Asynchronous notification'* ]] && break
done
id=$(q "select notification_id from ingest.notification where batch_id = $batch")
expect_output() { [[ $heard == *"$1"* ]] || fail "listener: expected [$1] in [$heard]"; }
expect_output "payload \"{\"kind\": \"batch_quarantined\", \"batch_id\": $batch, \"notification_id\": $id}\""
echo '\q' >&"${LISTENER[1]}"
wait "$listener_pid" 2>/dev/null || true

# The right header with the same totals reconciles and publishes.
cp "$csv.manifest.json" "$WORK/right.manifest.json"
add_totals "$WORK/right.manifest.json"
load --source acme-erp --business-date 2026-11-28 --input "$csv" --manifest "$WORK/right.manifest.json"
expect_rc 0
expect_eq "published" "20 invoices, 4200.00 gross" "$(published_state)"
expect_eq "publish notifications" 1 "$(notifications batch_published)"
check_invariants
