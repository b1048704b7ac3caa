#!/usr/bin/env bash
# The per-record field rules are decided in two places (sql/ERRCODES.md):
# the loader's pass over the file (typed rows COPYed into
# staging.invoice_valid) and ingest.failing_records (raw rows in
# staging.invoice_line, staged without the loader).  The shared corpus
# tests/corpus/field_rules.csv goes both ways, each into a source of its
# own with a partial policy that takes every share: once through
# `invoice-loader load`, once by psql as a caller without the loader would
# (begin_attempt, the raw rows, mark_staged, validate_batch,
# publish_batch).  A gross amount that cannot be read makes the control
# total unprovable, which quarantines the file (reconcile.control_total),
# and so does one with more decimals than its currency's minor unit once
# the part has several currencies (a total per currency is written in its
# minor unit), so the corpus is split: the records whose gross amount can
# enter a proven total publish, the others are quarantined.  Both ways must give the same
# rejection rows (record, rule, sentence, gross amount), the same batch
# state and counts, and for the published part the same versions (every
# column, the content hash and its form) and merge counts; and the corpus
# must make every field rule fail at least once, so that nothing is agreed
# on by never being tried.
source "$(dirname "$0")/lib.sh"

corpus=$REPO/tests/corpus/field_rules.csv
[[ -f $corpus ]] || fail "no corpus at $corpus"
date=2026-11-28
cols="{invoice_number,revision,status,document_type,customer_id,invoice_date,due_date,currency,net_amount,tax_amount,gross_amount,description}"

# split PART: the corpus records whose gross amount can enter a proven
# total (PART provable: readable, and for a currency of ingest.currency
# within its minor unit) or not (PART unprovable), as CSV with the
# corpus's header in $WORK/PART.csv, and their manifest next to it (every
# record; the sum of the readable gross amounts, per currency of
# ingest.currency in its minor unit when the part has several); prints
# the record count.
# The split keeps each record's bytes as they are in the corpus (a quoted
# empty field stays quoted: '' for COPY, not NULL), so csv.reader is fed
# one line at a time and the lines it took for a record are written out.
cat >"$WORK/split.py" <<'PY'
import csv, json, re, sys
from decimal import Decimal
path, part, out, date, units = sys.argv[1:6]
unit = {c: int(u) for c, u in (p.split(':') for p in units.split())}
def readable(v):
    return (re.fullmatch(r'-?[0-9]+(\.[0-9]+)?', v) is not None
            and len(v.lstrip('-').split('.')[0]) <= 18)
taken = []
def lines(f):
    for line in f:
        taken.append(line)
        yield line
with open(path, newline='', encoding='utf-8') as f:
    reader = csv.reader(lines(f))
    header = next(reader)
    head = ''.join(taken)
    taken.clear()
    records = []
    for fields in reader:
        records.append((fields, ''.join(taken)))
        taken.clear()
g = header.index('gross_amount')
c = header.index('currency')
def provable(r):
    v = r[g]
    return readable(v) and (r[c] not in unit
                            or len(v.partition('.')[2]) <= unit[r[c]])
rows = [(r, raw) for r, raw in records if provable(r) == (part == 'provable')]
with open(out, 'w', newline='', encoding='utf-8') as f:
    f.write(head)
    for _, raw in rows:
        f.write(raw if raw.endswith('\n') else raw + '\n')
manifest = {"source": "", "business_date": date, "record_count": len(rows)}
known = sorted({r[c] for r, _ in rows if r[c] in unit})
if len(known) > 1:
    manifest["control_totals"] = {
        k: str(sum((Decimal(r[g]) for r, _ in rows if r[c] == k and readable(r[g])),
                   Decimal(0)).quantize(Decimal(1).scaleb(-unit[k])))
        for k in known}
else:
    manifest["control_total"] = str(sum((Decimal(r[g]) for r, _ in rows if readable(r[g])),
                                        Decimal(0)))
with open(out + '.manifest.json', 'w') as f:
    json.dump(manifest, f)
print(len(rows))
PY
units=$(q "select string_agg(code || ':' || minor_unit, ' ') from ingest.currency")
split() { python3 "$WORK/split.py" "$corpus" "$1" "$WORK/$1.csv" "$date" "$units"; }

# manifest_for CSV SOURCE: the split's manifest, for SOURCE.
manifest_for() {
  python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); m["source"]=sys.argv[2]; print(json.dumps(m))' \
    "$1.manifest.json" "$2"
}

# by_loader CSV SOURCE STATE: load CSV into SOURCE; the batch ends in STATE.
by_loader() {
  local csv=$1 src=$2
  cp "$csv" "$WORK/$src.csv"
  manifest_for "$csv" "$src" >"$WORK/$src.csv.manifest.json"
  load --source "$src" --business-date "$date" --input "$WORK/$src.csv"
  case $3 in published) expect_rc 0 ;; *) expect_rc 65 ;; esac
}

# by_sql CSV SOURCE STATE: stage CSV's raw rows by psql, as COPY (format
# csv) stores them, validate, and publish unless STATE is quarantined.
by_sql() {
  local csv=$1 src=$2 records manifest publish=false
  [[ $3 == published ]] && publish=true
  records=$(python3 -c 'import csv,sys; print(sum(1 for _ in csv.DictReader(open(sys.argv[1], newline="", encoding="utf-8"))))' "$csv")
  manifest=$(manifest_for "$csv" "$src")
  psql -X -q -v ON_ERROR_STOP=1 -v publish="$publish" -d "$E2E_DB" >"$WORK/$src.out" 2>&1 <<SQL \
    || { cat "$WORK/$src.out"; fail "the SQL path failed for $src"; }
create temp table corpus (record_no integer generated always as identity,
  invoice_number text, revision text, status text, document_type text, customer_id text,
  invoice_date text, due_date text, currency text, net_amount text, tax_amount text,
  gross_amount text, description text);
\copy corpus (invoice_number, revision, status, document_type, customer_id, invoice_date, due_date, currency, net_amount, tax_amount, gross_amount, description) from '$csv' with (format csv, header true)
grant select on corpus to invoice_loader;
set role invoice_loader;
select batch_id, attempt_id from ingest.begin_attempt(jsonb_build_object(
  'source', '$src', 'business_date', '$date', 'sha256', encode(sha256('$src'::bytea), 'hex'),
  'size_bytes', $(stat -c %s "$csv"), 'file_name', '$src-by-psql.csv', 'had_bom', false,
  'columns', '$cols'::text[], 'problems', '[]'::jsonb, 'manifest', \$m\$$manifest\$m\$,
  'expect_count', null, 'expect_total', null, 'run_id', gen_random_uuid(),
  'host', 'psql', 'pid', pg_backend_pid(), 'file_records', $records)) \gset
insert into staging.invoice_line (batch_id, record_no, invoice_number, revision, status,
  document_type, customer_id, invoice_date, due_date, currency, net_amount, tax_amount,
  gross_amount, description)
select :batch_id, c.record_no, c.invoice_number, c.revision, c.status, c.document_type,
       c.customer_id, c.invoice_date, c.due_date, c.currency, c.net_amount, c.tax_amount,
       c.gross_amount, c.description
from corpus as c;
select ingest.mark_staged(:batch_id, :attempt_id, $records);
select ingest.analyze_staging('validation', :batch_id);
select state from ingest.validate_batch(:batch_id, :attempt_id);
\if :publish
select ingest.analyze_staging('publication', :batch_id);
select outcome from ingest.publish_batch(:batch_id, :attempt_id);
select ingest.finish_attempt(:attempt_id, 'published', null, null, null);
\else
select ingest.finish_attempt(:attempt_id, 'quarantined', null, null, null);
\endif
SQL
}

batch_of() { q "select batch_id from ingest.batch where source = '$1'"; }
# differ SELECT-with-%s A B: rows of batch A that B lacks, and of B that A lacks
differ() {
  local a b
  a=$(printf "$1" "$2") b=$(printf "$1" "$3")
  echo "$(q "select count(*) from (($a) except all ($b)) as x") $(q "select count(*) from (($b) except all ($a)) as x")"
}

for part in provable unprovable; do
  n=$(split "$part")
  (( n > 0 )) || fail "the corpus has no $part records"
  state=published
  [[ $part == unprovable ]] && state=quarantined
  for way in loader sql; do
    register_source "$way-$part" --policy partial --max-rejected-share 1
  done
  by_loader "$WORK/$part.csv" "loader-$part" "$state"
  by_sql "$WORK/$part.csv" "sql-$part" "$state"
  L=$(batch_of "loader-$part") S=$(batch_of "sql-$part")
  expect_eq "$part: raw rows of the loader's batch (it sends typed rows) and of the psql one" \
    "0 $n" "$(q "select count(*) from staging.invoice_line where batch_id = $L") $(q "select count(*) from staging.invoice_line where batch_id = $S")"
  expect_eq "$part: states" "$state $state" \
    "$(q "select state from ingest.batch where batch_id = $L") $(q "select state from ingest.batch where batch_id = $S")"
  expect_eq "$part: rejection rows that differ (loader-only sql-only)" "0 0" "$(differ \
    "select record_no, invoice_number, rule, detail, gross_amount from ingest.rejection_row where batch_id = %s" "$L" "$S")"
  expect_eq "$part: accepted, rejected, distinct keys" \
    "$(q "select accepted_count || ' ' || rejected_count || ' ' || distinct_keys from ingest.batch where batch_id = $S")" \
    "$(q "select accepted_count || ' ' || rejected_count || ' ' || distinct_keys from ingest.batch where batch_id = $L")"
  (( $(q "select count(*) from ingest.rejection_row where batch_id = $L and record_no > 0") > 0 )) \
    || fail "$part: no record was rejected"
done

# The quoted empty fields of the corpus reached the SQL path as '' (not NULL).
(( $(q "select count(*) from staging.invoice_line as l join ingest.batch as b using (batch_id)
        where b.source like 'sql-%' and '' in (l.invoice_number, l.revision, l.status,
          l.document_type, l.customer_id, l.invoice_date, l.due_date, l.currency,
          l.net_amount, l.tax_amount, l.gross_amount, l.description)") > 0 )) \
  || fail "no quoted empty field reached the SQL path"

# The published part: the same versions and merge counts.
L=$(batch_of loader-provable) S=$(batch_of sql-provable)
expect_eq "published versions that differ (loader-only sql-only)" "0 0" "$(differ \
  "select invoice_number, revision, status, document_type, customer_id, invoice_date, due_date, currency, net_amount::text, tax_amount::text, gross_amount::text, description, content_hash, content_hash_version, record_no, is_current from core.invoice_version where batch_id = %s" "$L" "$S")"
expect_eq "merge counts" "$(q "select merge_counts from ingest.batch where batch_id = $S")" \
  "$(q "select merge_counts from ingest.batch where batch_id = $L")"
published=$(q "select count(*) from core.invoice_version where batch_id = $L")
(( published >= 10 )) || fail "only $published corpus records were published"
expect_eq "form-2 hashes the SQL function agrees with" "$published" "$(q "select count(*) from core.invoice_version
  where batch_id = $L and content_hash_version = 2
    and content_hash = ingest.content_hash(status, document_type, customer_id, invoice_date,
                                           due_date, currency, net_amount, tax_amount,
                                           gross_amount, description)")"

# The corpus tries every rule.
expect_eq "field rules the corpus never failed" "" "$(q "select coalesce(string_agg(f.rule, ', ' order by f.bit), '')
  from ingest.field_rule as f
  where not exists (select from ingest.rejection_row as r
                    join ingest.batch as b using (batch_id)
                    where b.source like 'loader-%' and r.rule = f.rule)")"
check_invariants
echo "corpus: $published published, the same both ways"
