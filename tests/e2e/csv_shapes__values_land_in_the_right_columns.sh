#!/usr/bin/env bash
# Columns are matched by name in any order; CRLF, a BOM, quoted commas,
# doubled quotes and embedded newlines are kept exactly; a stray quote or a
# short record quarantines the file naming the record.
source "$(dirname "$0")/lib.sh"

register_source acme-erp --start-date 2026-11-28
{
  printf '\xef\xbb\xbf'
  printf 'currency,tax_amount,net_amount,gross_amount,invoice_number,revision,status,document_type,customer_id,invoice_date,description\r\n'
  printf 'EUR,19.00,100.00,119.00,A-1,0,ISSUED,INVOICE,C-9,2026-11-28,"two\r\nlines, one ""quote"""\r\n'
  printf 'EUR,-1.90,-10.00,-11.90,CN-1,0,ISSUED,CREDIT_NOTE,C-9,2026-11-27,plain\r\n'
} >"$WORK/shapes.csv"
write_manifest "$WORK/shapes.csv" 2 107.10

load --source acme-erp --business-date 2026-11-28 --input "$WORK/shapes.csv"
expect_rc 0
expect_eq "A-1 amounts" "100.00|19.00|119.00" \
  "$(q "select net_amount || '|' || tax_amount || '|' || gross_amount from reporting.invoice where invoice_number = 'A-1'")"
expect_eq "A-1 description" "$(printf 'two\r\nlines, one "quote"')" \
  "$(q "select description from reporting.invoice where invoice_number = 'A-1'")"
expect_eq "CN-1 has no due date and no trailing CR" "-11.90|null|plain" \
  "$(q "select gross_amount || '|' || coalesce(due_date::text, 'null') || '|' || description from reporting.invoice where invoice_number = 'CN-1'")"
expect_eq "BOM recorded" "t" "$(q "select had_bom from ingest.batch")"

# A stray quote in record 2.
{
  printf 'invoice_number,revision,status,document_type,customer_id,invoice_date,currency,net_amount,tax_amount,gross_amount\n'
  printf 'B-1,0,ISSUED,INVOICE,C-1,2026-11-28,EUR,1.00,0.00,1.00\n'
  printf 'B-2,0,ISSUED,INVOICE,C"1,2026-11-28,EUR,1.00,0.00,1.00\n'
} >"$WORK/stray.csv"
write_manifest "$WORK/stray.csv" 2 2.00
load --source acme-erp --business-date 2026-11-28 --input "$WORK/stray.csv"
expect_rc 65
expect_output_has "csv.quoting"
expect_eq "rejection names record 2" "2|csv.quoting" \
  "$(q "select r.record_no || '|' || r.rule from ingest.rejection as r join ingest.batch as b using (batch_id) where b.file_name = 'stray.csv'")"
expect_eq "published unchanged" "2 invoices, 107.10 gross" "$(published_state)"

# Unknown columns: read past (neither staged nor published) where the source
# allows them, a quarantine naming them where it does not.
register_source loose --start-date 2026-11-28 --allow-unknown-columns
register_source strict --start-date 2026-11-28
printf 'colour,invoice_number,revision,status,document_type,customer_id,invoice_date,currency,net_amount,tax_amount,gross_amount,weight\nred,U-1,0,ISSUED,INVOICE,C1,2026-11-28,EUR,10.00,2.00,12.00,5kg\n' \
  >"$WORK/unknown.csv"
load --source loose --business-date 2026-11-28 --input "$WORK/unknown.csv" --expect-count 1 --expect-total 12.00
expect_rc 0
expect_eq "allowed unknown columns: the invoice publishes" "U-1|12.00" \
  "$(q "select invoice_number || '|' || gross_amount from reporting.invoice where source = 'loose'")"
expect_eq "allowed unknown columns: the contract's columns are recorded" \
  "{invoice_number,revision,status,document_type,customer_id,invoice_date,currency,net_amount,tax_amount,gross_amount}" \
  "$(q "select columns from ingest.batch where source = 'loose'")"
load --source strict --business-date 2026-11-28 --input "$WORK/unknown.csv" --expect-count 1 --expect-total 12.00
expect_rc 65
expect_output_has "unknown columns colour, weight"
expect_eq "strict source: nothing published" 0 "$(q "select count(*) from reporting.invoice where source = 'strict'")"
