#!/usr/bin/env bash
# A run that died after a checkpoint (received, staged or validated) is
# resumed by the next plain load: it continues from that checkpoint, the
# dead attempt is recorded as abandoned, and the end state equals an
# uninterrupted run: 20 invoices, 4200.00, watermark, one notification.
# The dead run is played through the loader role's own SQL entry points.
source "$(dirname "$0")/lib.sh"

cols='{invoice_number,revision,status,document_type,customer_id,invoice_date,due_date,currency,net_amount,tax_amount,gross_amount,description}'
n=0
for stop_at in received staged validated; do
  n=$((n + 1))
  src=resume-$stop_at
  register_source "$src" --start-date 2026-11-28
  csv=$(sample "$WORK/$stop_at")
  sed -i 's/"source":"acme-erp",//' "$csv.manifest.json"   # the sample is acme-erp's
  manifest=$(cat "$csv.manifest.json")
  sha=$(sha256sum "$csv" | cut -d' ' -f1)
  size=$(stat -c %s "$csv")

  ids=$(q "set role invoice_loader;
           select batch_id || ' ' || attempt_id from ingest.begin_attempt(jsonb_build_object(
             'source', '$src', 'business_date', '2026-11-28', 'sha256', '$sha',
             'size_bytes', $size, 'file_name', 'dead-run.csv', 'had_bom', false,
             'columns', '$cols'::text[], 'problems', '[]'::jsonb, 'manifest', '$manifest',
             'expect_count', null, 'expect_total', null, 'run_id', gen_random_uuid(),
             'host', 'lost-host', 'pid', 1, 'file_records', 20))")
  read -r batch attempt <<<"$ids"
  if [[ $stop_at != received ]]; then
    tail -n +2 "$csv" | awk -v b="$batch" '{ print b "," NR "," $0 }' >"$WORK/staged-$n.csv"
    psql -X -q -v ON_ERROR_STOP=1 -d "$E2E_DB" <<SQL
begin;
set local role invoice_loader;
-- a new session of the dead run: it takes the runner lock again first, as
-- the loader does after a lost session (staging rows are only the lock
-- holder's, migrations/0011)
\o /dev/null
select ingest.resume_attempt($attempt);
\o
\copy staging.invoice_line (batch_id, record_no, invoice_number, revision, status, document_type, customer_id, invoice_date, due_date, currency, net_amount, tax_amount, gross_amount, description) from '$WORK/staged-$n.csv' with (format csv)
select ingest.mark_staged($batch, $attempt, 20);
commit;
SQL
  fi
  if [[ $stop_at == validated ]]; then
    q "set role invoice_loader; select state from ingest.validate_batch($batch, $attempt)" >/dev/null
  fi
  expect_eq "$stop_at: state left by the dead run" "$stop_at" \
    "$(q "select state from ingest.batch_overview where batch_id = $batch")"

  load --source "$src" --business-date 2026-11-28 --input "$csv"
  expect_rc 0
  expect_eq "$stop_at: batch" "$batch|published" \
    "$(q "select batch_id || '|' || state from ingest.batch_overview where source = '$src'")"
  expect_eq "$stop_at: published" "20|4200.00" \
    "$(q "select count(*) || '|' || sum(gross_amount) from reporting.invoice where source = '$src'")"
  expect_eq "$stop_at: versions" 20 \
    "$(q "select count(*) from reporting.invoice_version where source = '$src'")"
  expect_eq "$stop_at: watermark" "2026-11-28" "$(watermark_of "$src")"
  expect_eq "$stop_at: one notification" 1 \
    "$(q "select count(*) from ingest.notification where batch_id = $batch")"
  expect_eq "$stop_at: attempts" "1:abandoned 2:published" \
    "$(q "select string_agg(attempt_no || ':' || outcome, ' ' order by attempt_no)
          from ingest.attempt_overview where batch_id = $batch")"
  expect_eq "$stop_at: each checkpoint once" "received staged validated published" \
    "$(q "select string_agg(to_state, ' ' order by event_id) from ingest.batch_event_overview
          where batch_id = $batch")"
done
