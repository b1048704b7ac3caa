#!/usr/bin/env bash
# A European ERP export, loaded as delivered with the source's format file
# (tests/fixtures/erp_de): semicolons, windows-1252, 1.234,56, DD.MM.YYYY,
# German headers and codes, no revision column (a default), gzip.
#   1. a format file with an unknown key, a value outside its set or a
#      mapping to an unknown column: exit 78, nothing stored;
#   2. the export publishes; its totals equal an independent sum of the
#      delivered bytes (Python's own cp1252 codec and decimal parsing);
#      umlauts and the euro sign arrive as UTF-8; the batch records the
#      format version and the default; status shows the format;
#   3. values not of the declared form are rejected, never reinterpreted:
#      1234.56 and 1,234.56 under 1.234,56, an ISO date and 31.11.2026
#      under DD.MM.YYYY, an unmapped code; each rejection's detail shows
#      the value as delivered and as read (and the reject file has them);
#   4. encodings: a byte windows-1252 leaves undefined, a UTF-8 file
#      declared windows-1252, a windows-1252 file declared UTF-8: each
#      csv.encoding naming the record and the column, nothing published;
#   5. a new format version does not change how registered bytes are
#      read: a rerun of the published file is a no-op, its batch keeps
#      version 1;
#   6. no header: tab-separated, ISO-8859-15, columns by position;
#   7. source check reads a sample with the format and writes nothing;
#   8. a source that allows unknown columns keeps them with each version
#      (reporting.invoice_version.extra), whatever the format.
# After each step: invoices, amounts, watermark, notifications, batch
# states.
source "$(dirname "$0")/lib.sh"

fixture=$REPO/tests/fixtures/erp_de
day=2026-11-28

# 1. format files refused before anything is stored
register_source erp-de --start-date "$day"
bad_format() {  # NAME JSON: source add refuses it with 78
  printf '%s\n' "$2" >"$WORK/$1.json"
  run invoice_operator source add erp-de --format-file "$WORK/$1.json"
  expect_rc 78
}
bad_format unknown_key '{"delimiter": ";", "thousands": "."}'
expect_output_has 'unknown key "thousands"'
bad_format bad_date '{"date_format": "DD-MM-YYYY"}'
expect_output_has "date_format may be"
bad_format bad_column '{"columns": {"Nummer": "invoice_no"}}'
expect_output_has '"invoice_no", which is not a contract column'
bad_format bad_encoding '{"encoding": "UTF-16"}'
bad_format same_chars '{"delimiter": ";", "decimal_separator": ",", "group_separator": ","}'
expect_eq "1: no format stored" "0|" \
  "$(q "select (select count(*) from ingest.source_format) || '|' || coalesce(format_version::text, '')
        from ingest.source where source = 'erp-de'")"

# 2. the export, gzipped, with its format
run invoice_operator source add erp-de --format-file "$fixture/format.json"
expect_rc 0
expect_output_has "file format version 1 (delimiter ;"
csv=$WORK/rechnungen_$day.csv.gz
gzip -n -c "$fixture/rechnungen_$day.csv" >"$csv"
# The independent sum: Python's cp1252 codec and its own reading of the
# German amounts (grouping dots out, decimal comma to a point).
python3 - "$fixture/rechnungen_$day.csv" "$csv.manifest.json" "$WORK/expected" <<'PY'
import csv, io, json, sys
from decimal import Decimal
text = open(sys.argv[1], 'rb').read().decode('cp1252')
rows = list(csv.DictReader(io.StringIO(text, newline=''), delimiter=';'))
amount = lambda s: Decimal(s.replace('.', '').replace(',', '.'))
total = sum(amount(r['Brutto']) for r in rows)
issued = [r for r in rows if r['Status'] == 'offen']
json.dump({"source": "erp-de", "business_date": "2026-11-28", "record_count": len(rows),
           "control_totals": {"EUR": f"{total:.2f}"}}, open(sys.argv[2], 'w'))
with open(sys.argv[3], 'w') as out:
    out.write(f"{len(issued)} {sum(amount(r['Brutto']) for r in issued):.2f}\n")
    out.write(f"{len(rows)} {total:.2f}\n")
PY
run invoice_loader load --source erp-de --business-date "$day" --input "$csv"
expect_rc 0
expect_eq "2: current invoices and gross" "$(sed -n 1p "$WORK/expected")" \
  "$(q "select count(*) || ' ' || sum(gross_amount) from reporting.invoice where source = 'erp-de'")"
expect_eq "2: every version, the VOID included" "$(sed -n 2p "$WORK/expected")" \
  "$(q "select count(*) || ' ' || sum(gross_amount) from reporting.invoice_version where source = 'erp-de'")"
expect_eq "2: values as read" \
  "RE-2026-1001|0|ISSUED|INVOICE|2026-11-24|2026-12-24|1000.00|Büromöbel
RE-2026-1004|0|ISSUED|CREDIT_NOTE|2026-11-25||-119.00|Gutschrift zu RE-2026-1001 (Mängel)
RE-2026-1005|0|VOID|INVOICE|2026-11-26|2026-12-26|297.50|Storno: Preis 250 €
RE-2026-1006|0|ISSUED|INVOICE|2026-11-26|2026-12-10|1469135.79|Jahresvertrag \"Wartung\"" \
  "$(q "select concat_ws('|', invoice_number, revision, status, document_type, invoice_date,
                        coalesce(due_date::text, ''),
                        case when invoice_number = 'RE-2026-1001' then net_amount else gross_amount end,
                        description)
        from reporting.invoice_version
        where invoice_number in ('RE-2026-1001', 'RE-2026-1004', 'RE-2026-1005', 'RE-2026-1006')
        order by invoice_number")"
expect_eq "2: the batch records its format and default" "published|1|{revision=0}" \
  "$(q "select state || '|' || format_version || '|' || defaults::text from ingest.batch where source = 'erp-de'")"
expect_eq "2: watermark" "$day" "$(watermark_of erp-de)"
expect_eq "2: publication notifications" 1 "$(notifications batch_published)"
run invoice_operator status
expect_rc 0
expect_output_has "erp-de: version 1, delimiter ;, header, windows-1252, amounts 1.234,56, dates DD.MM.YYYY, 11 columns renamed, 1 default, 2 value maps"
b2=$(q "select batch_id from ingest.batch where source = 'erp-de'")
run invoice_operator status --batch "$b2"
expect_rc 0
expect_output_has "Read with file format version 1; defaults revision=0"
run invoice_operator status --batch "$b2" --format json
expect_eq "2: status JSON names the format" "1 [\"revision=0\"]" \
  "$(python3 -c 'import json,sys; b=json.load(open(sys.argv[1]))["batches"][0]; print(b["format_version"], json.dumps(b["defaults"]))' "$WORK/out")"

# 3. values not of the declared form
day3=2026-11-29
python3 - "$fixture/rechnungen_$day.csv" "$WORK/forms.csv" <<'PY'
import sys
lines = open(sys.argv[1], 'rb').read().split(b'\r\n')
header, first = lines[0], lines[1].split(b';')
def rec(n, **change):
    f = list(first); f[0] = b'RE-2026-2%03d' % n
    for k, v in change.items(): f[int(k[1:])] = v.encode('cp1252')
    return b';'.join(f)
rows = [rec(1, c4='1234.56', c5='0,00', c6='1234.56'),   # plain point: not the form
        rec(2, c4='1,234.56', c5='0,00', c6='1,234.56'), # English grouping
        rec(3, c1='2026-11-28'),                         # ISO date
        rec(4, c1='31.11.2026'),                         # no such day
        rec(5, c9='bezahlt'),                            # no value map entry
        rec(6)]                                          # a good one
open(sys.argv[2], 'wb').write(b'\r\n'.join([header] + rows) + b'\r\n')
PY
run invoice_loader load --source erp-de --business-date "$day3" --input "$WORK/forms.csv" \
  --expect-count 6 --expect-total 0
expect_rc 65
b3=$(q "select batch_id from ingest.batch where file_name = 'forms.csv'")
expect_eq "3: rules by record" \
  "1 gross_amount.format
1 net_amount.format
2 gross_amount.format
2 net_amount.format
3 invoice_date.format
4 invoice_date.format
5 status.value" \
  "$(q "select record_no || ' ' || rule from ingest.rejection where batch_id = $b3
        and rule not like 'reconcile.%' order by record_no, rule")"
expect_eq "3: delivered and read in the details" \
  "1|net_amount \"1234.56\" is not of the declared form -1.234,56
3|invoice_date \"2026-11-28\" is not of the declared form DD.MM.YYYY
4|invoice_date \"31.11.2026\" read as \"2026-11-31\"
5|status \"bezahlt\" is not in the format's values map" \
  "$(q "select record_no || '|' || case record_no
                 when 1 then substring(detail from 'net_amount \"1234.56\" is not of the declared form [^;)]*')
                 when 3 then substring(detail from 'invoice_date \"[^\"]*\" is not of the declared form [^;)]*')
                 when 4 then substring(detail from 'invoice_date \"31.11.2026\" read as \"[^\"]*\"')
                 when 5 then substring(detail from 'status \"bezahlt\" is not in [^;)]*') end
        from ingest.rejection where batch_id = $b3 and record_no in (1, 3, 4, 5)
          and rule in ('net_amount.format', 'invoice_date.format', 'status.value')
        order by record_no")"
run invoice_operator status --batch "$b3" --rejections --format json
expect_rc 0
python3 - "$WORK/out" <<'PY' || fail "3: the reject file lacks the delivered values"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {(r["record_no"], r["rule"]): r for r in rows}
r = by[(4, "invoice_date.format")]
assert r["fields"]["invoice_date"] == "31.11.2026", r
assert "read as" in r["detail"], r
assert by[(1, "net_amount.format")]["fields"]["net_amount"] == "1234.56"
PY
expect_eq "3: nothing more published" "$(sed -n 1p "$WORK/expected")" \
  "$(q "select count(*) || ' ' || sum(gross_amount) from reporting.invoice where source = 'erp-de'")"
expect_eq "3: watermark" "$day" "$(watermark_of erp-de)"
expect_eq "3: quarantined" quarantined "$(q "select state from ingest.batch where batch_id = $b3")"

# 4. encodings
encoding_case() {  # LABEL FILE SOURCE EXPECTED-DETAIL-PART
  run invoice_loader load --source "$3" --business-date 2026-11-30 --input "$2" \
    --expect-count 10 --expect-total 0
  expect_rc 65
  expect_eq "4 $1: rule" "csv.encoding" \
    "$(q "select string_agg(r.rule, ',') from ingest.rejection as r
          join ingest.batch_overview as b using (batch_id) where b.file_name = '$(basename "$2")'")"
  local detail
  detail=$(q "select r.detail from ingest.rejection as r
              join ingest.batch_overview as b using (batch_id) where b.file_name = '$(basename "$2")'")
  [[ $detail == *"$4"* ]] || fail "4 $1: detail [$detail] lacks [$4]"
}
python3 - "$fixture/rechnungen_$day.csv" "$WORK" <<'PY'
import sys
raw = open(sys.argv[1], 'rb').read()
# 0x81 is no character in windows-1252; record 2, in Beschreibung
open(sys.argv[2] + '/undefined.csv', 'wb').write(raw.replace(b'Schreibtische', b'Schreib\x81tische'))
open(sys.argv[2] + '/utf8.csv', 'wb').write(raw.decode('cp1252').encode('utf-8'))
PY
encoding_case "undefined byte" "$WORK/undefined.csv" erp-de \
  "record 2, column 11 (Beschreibung): byte 81 is not a character in windows-1252"
encoding_case "UTF-8 declared windows-1252" "$WORK/utf8.csv" erp-de \
  "the file looks like UTF-8"
sed 's/"windows-1252"/"UTF-8"/' "$fixture/format.json" >"$WORK/utf8-format.json"
register_source erp-de-utf8 --start-date "$day" --format-file "$WORK/utf8-format.json"
cp "$fixture/rechnungen_$day.csv" "$WORK/cp1252.csv"
encoding_case "windows-1252 declared UTF-8" "$WORK/cp1252.csv" erp-de-utf8 \
  "the header, column 3 is not valid UTF-8: unexpected byte 0x6C"
expect_eq "4: nothing more published" "$(sed -n 1p "$WORK/expected")" \
  "$(q "select count(*) || ' ' || sum(gross_amount) from reporting.invoice")"
expect_eq "4: watermarks" "$day|none" "$(watermark_of erp-de)|$(watermark_of erp-de-utf8)"

# 5. a new format version; registered bytes are read as they were
sed 's/"DD.MM.YYYY"/"YYYY-MM-DD"/' "$fixture/format.json" >"$WORK/v2.json"
run invoice_operator source add erp-de --format-file "$WORK/v2.json"
expect_rc 0
expect_output_has "file format version 2"
run invoice_operator source add erp-de --format-file "$WORK/v2.json"
expect_output_has "file format version 2"
run invoice_loader load --source erp-de --business-date "$day" --input "$csv"
expect_rc 0
expect_output_has "already published"
expect_eq "5: versions stored, batch keeps 1" "2|1" \
  "$(q "select (select count(*) from ingest.source_format where source = 'erp-de') || '|' ||
               (select format_version from ingest.batch where file_name = 'rechnungen_$day.csv.gz')")"
expect_eq "5: publications" 1 "$(notifications batch_published)"

# 6. no header: tab-separated ISO-8859-15 (the euro sign is A4 there)
cat >"$WORK/positional.json" <<'JSON'
{"delimiter": "\t", "header": false, "encoding": "ISO-8859-15",
 "columns": ["invoice_number", "invoice_date", "customer_id", "currency",
             "net_amount", "tax_amount", "gross_amount", null, "description"],
 "defaults": {"revision": "0", "status": "ISSUED", "document_type": "INVOICE"}}
JSON
register_source erp-pos --start-date "$day" --format-file "$WORK/positional.json"
printf 'P-1\t2026-11-28\tK-1\tEUR\t10.00\t1.90\t11.90\tignored\tPreis 10 \xa4\nP-2\t2026-11-28\tK-2\tEUR\t20.00\t3.80\t23.80\tignored\tzwei\n' \
  >"$WORK/positional.tsv"
run invoice_loader load --source erp-pos --business-date "$day" --input "$WORK/positional.tsv" \
  --expect-count 2 --expect-total 35.70
expect_rc 0
expect_eq "6: positional values" "P-1|11.90|Preis 10 €
P-2|23.80|zwei" \
  "$(q "select invoice_number || '|' || gross_amount || '|' || description
        from reporting.invoice where source = 'erp-pos' order by 1")"
expect_eq "6: watermark" "$day" "$(watermark_of erp-pos)"
expect_eq "6: publications" 2 "$(notifications batch_published)"

# 7. source check: the mapping, the records as read, every rejection; no
# write (the counts of batches and rejections stay)
run invoice_operator source add erp-de --format-file "$fixture/format.json"
expect_rc 0
expect_output_has "file format version 3"
before=$(q "select count(*) || '/' || (select count(*) from ingest.rejection_row) from ingest.batch")
run invoice_operator source check erp-de --input "$fixture/rechnungen_$day.csv" --records 2
expect_rc 0
expect_output_has "Währung -> currency"
expect_output_has "(default) -> revision=0"
expect_output_has "record 1: invoice_number=RE-2026-1001 revision=0 status=ISSUED document_type=INVOICE customer_id=K-100 invoice_date=2026-11-24 due_date=2026-12-24 currency=EUR net_amount=1000.00 tax_amount=190.00 gross_amount=1190.00 description=Büromöbel"
expect_output_has "Every record passes the field rules."
run invoice_loader source check erp-de --input "$WORK/forms.csv"
expect_rc 65
expect_output_has "5 of 6 records fail a field rule"
expect_output_has 'record 4 (RE-2026-2004): invoice_date.format: invoice_date "31.11.2026" (as delivered: invoice_date "31.11.2026" read as "2026-11-31")'
run invoice_loader source check erp-de --input "$WORK/undefined.csv"
expect_rc 65
expect_output_has "csv.encoding (record 2): record 2, column 11 (Beschreibung): byte 81"
expect_eq "7: nothing written" "$before" \
  "$(q "select count(*) || '/' || (select count(*) from ingest.rejection_row) from ingest.batch")"

# 8. unknown columns kept: the sample with two more columns
csv8=$(sample "$WORK/8" 2026-11-28)
awk -F, 'BEGIN { OFS = "," } NR == 1 { print $0, "cost_centre", "order_ref"; next }
         { print $0, "CC-" NR, (NR == 2 ? "" : "\"PO " NR "\"") }' "$csv8" >"$WORK/8/extra.csv"
write_manifest "$WORK/8/extra.csv" 20 4200.00
register_source acme-erp --start-date 2026-11-28 --allow-unknown-columns
run invoice_loader load --source acme-erp --business-date 2026-11-28 --input "$WORK/8/extra.csv"
expect_rc 0
expect_eq "8: extras kept as delivered" \
  '20|{"order_ref": null, "cost_centre": "CC-2"}|{"order_ref": "PO 21", "cost_centre": "CC-21"}' \
  "$(q "select count(v.extra) || '|' || min(v.extra::text) filter (where c.record_no = 1) || '|' ||
               min(v.extra::text) filter (where c.record_no = 20)
        from reporting.invoice_version as v join core.invoice_version as c using (source, invoice_number, revision)
        where v.source = 'acme-erp'")"
expect_eq "8: not part of the content" 20 \
  "$(q "select count(*) from core.invoice_version where source = 'acme-erp' and content_hash_version = 2")"
check_invariants
