#!/usr/bin/env bash
# Staging rows are the loading run's alone (migrations/0011, IV221): a
# loader session that does not hold a batch cannot add rows to it, neither
# to a received batch another run registered nor to a staged one, and the
# batch then loads as if nothing happened.  A batch wedged by rows written
# next to its own anyway (the owner can, past the trigger; before 0011 any
# loader session could, and every later load exited 70 with IV204) goes
# back to received with the reason, is staged again and publishes once;
# its publication is announced on invoice_loader_outbox with the payload
# {"notification_id", "batch_id", "kind"}.
source "$(dirname "$0")/lib.sh"

cols='{invoice_number,revision,status,document_type,customer_id,invoice_date,due_date,currency,net_amount,tax_amount,gross_amount,description}'
stray_insert() {  # stray_insert BATCH: one row as invoice_loader; prints the SQLSTATE or "inserted"
  psql -X -qAt -d "$E2E_DB" <<SQL 2>&1
set client_min_messages = notice;
set role invoice_loader;
do \$\$
begin
  insert into staging.invoice_line (batch_id, record_no, invoice_number, revision, status,
    document_type, customer_id, invoice_date, currency, net_amount, tax_amount, gross_amount)
  values ($1, 99, 'STRAY-1', '0', 'ISSUED', 'INVOICE', 'C', '2026-11-20', 'EUR', '1.00', '0.00', '1.00');
  raise notice 'inserted';
exception when others then
  raise notice 'sqlstate %', sqlstate;
end
\$\$;
SQL
}

# 1. A received batch whose run is gone (its session ended): refused.
register_source acme-erp --start-date 2026-11-28
csv=$(sample "$WORK/a")
manifest=$(cat "$csv.manifest.json")
sha=$(sha256sum "$csv" | cut -d' ' -f1)
size=$(stat -c %s "$csv")
batch=$(q "set role invoice_loader;
           select batch_id from ingest.begin_attempt(jsonb_build_object(
             'source', 'acme-erp', 'business_date', '2026-11-28', 'sha256', '$sha',
             'size_bytes', $size, 'file_name', 'dead-run.csv', 'had_bom', false,
             'columns', '$cols'::text[], 'problems', '[]'::jsonb, 'manifest', '$manifest',
             'expect_count', null, 'expect_total', null, 'run_id', gen_random_uuid(),
             'host', 'lost-host', 'pid', 1, 'file_records', 20))")
expect_eq "received batch: stray insert" "NOTICE:  sqlstate IV221" "$(stray_insert "$batch")"
expect_eq "no such batch: stray insert" "NOTICE:  sqlstate IV221" "$(stray_insert 999999)"
expect_eq "nothing staged" 0 "$(q "select (select count(*) from staging.invoice_line)
                                           + (select count(*) from staging.invoice_valid)")"
load --source acme-erp --business-date 2026-11-28 --input "$csv"
expect_rc 0
expect_eq "published" "20 invoices, 4200.00 gross" "$(published_state)"

# 2. A staged batch (the run killed after staging): refused as well.
register_source other-erp --start-date 2026-11-28
csv2=$(sample_for other-erp "$WORK/b" 2026-11-28)
sed -i 's/,"sha256":"[0-9a-f]*"//' "$csv2.manifest.json"
sed 's/$/\r/' "$csv2" >"$WORK/b/other.csv"   # other bytes than acme-erp's file
mv "$csv2.manifest.json" "$WORK/b/other.csv.manifest.json"
set +e
INVOICE_LOADER_FAILPOINT=after_staged "$INVOICE_LOADER" --dsn "dbname=$E2E_DB user=invoice_loader" \
  load --source other-erp --business-date 2026-11-28 --input "$WORK/b/other.csv" >"$WORK/out" 2>"$WORK/err"
set -e
batch2=$(q "select batch_id from ingest.batch_overview where source = 'other-erp'")
expect_eq "killed after staged" staged "$(q "select state from ingest.batch_overview where batch_id = $batch2")"
expect_eq "staged batch: stray insert" "NOTICE:  sqlstate IV221" "$(stray_insert "$batch2")"
expect_eq "staged rows untouched" 20 "$(q "select count(*) from staging.invoice_valid where batch_id = $batch2")"

# 3. The owner writes a raw row next to its typed ones anyway (past the
#    trigger): the batch is wedged as a loader session could wedge it
#    before 0011.
psql -X -q -v ON_ERROR_STOP=1 -d "$E2E_DB" <<SQL
set session_replication_role = replica;
insert into staging.invoice_line (batch_id, record_no, invoice_number)
values ($batch2, 21, 'STRAY-2');
SQL
expect_eq "wedged" "1|20" "$(q "select (select count(*) from staging.invoice_line where batch_id = $batch2)
                                  || '|' || (select count(*) from staging.invoice_valid where batch_id = $batch2)")"

coproc LISTENER { psql -X -qAt -d "$E2E_DB" 2>&1; }
# bash unsets LISTENER_PID when the coprocess ends: keep it.
listener_pid=$LISTENER_PID
echo 'listen invoice_loader_outbox; select 1;' >&"${LISTENER[1]}"
read -r -t 10 ready <&"${LISTENER[0]}" || fail "the listener did not start"

load --source other-erp --business-date 2026-11-28 --input "$WORK/b/other.csv"
expect_rc 0
expect_eq "other-erp published" "20|4200.00" \
  "$(q "select count(*) || '|' || sum(gross_amount) from reporting.invoice where source = 'other-erp'")"
expect_eq "checkpoints" "received staged received staged validated published" \
  "$(q "select string_agg(to_state, ' ' order by event_id) from ingest.batch_event_overview
        where batch_id = $batch2")"
expect_eq "the reason names the mismatch" 1 \
  "$(q "select count(*) from ingest.batch_event where batch_id = $batch2
        and from_state = 'staged' and to_state = 'received'
        and detail ->> 'reason' like 'staged records do not match the checkpoint (1 raw rows for 20 staged records, 20 typed rows%'")"
expect_eq "the stray row is gone" 0 \
  "$(q "select count(*) from staging.invoice_line where invoice_number like 'STRAY-%'")"
expect_eq "one publication" 1 \
  "$(q "select count(*) from ingest.notification where batch_id = $batch2 and kind = 'batch_published'")"

echo 'select 2;' >&"${LISTENER[1]}"   # psql prints notifications after a result
heard=''
for _ in 1 2 3; do
  read -r -t 10 line <&"${LISTENER[0]}" || break
  heard+="$line "
  [[ $line == *'Asynchronous notification'* ]] && break
done
id=$(q "select notification_id from ingest.notification where batch_id = $batch2")
[[ $heard == *"payload \"{\"kind\": \"batch_published\", \"batch_id\": $batch2, \"notification_id\": $id}\""* ]] ||
  fail "listener: no publish payload for batch $batch2 in [$heard]"
echo '\q' >&"${LISTENER[1]}"
wait "$listener_pid" 2>/dev/null || true

# A plain rerun changes nothing.
load --source other-erp --business-date 2026-11-28 --input "$WORK/b/other.csv"
expect_rc 0
expect_eq "still one publication" 1 \
  "$(q "select count(*) from ingest.notification where batch_id = $batch2 and kind = 'batch_published'")"
check_invariants
