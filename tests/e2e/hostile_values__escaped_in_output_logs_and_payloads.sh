#!/usr/bin/env bash
# A supplier's file cannot forge log lines or send terminal escapes:
# values with control characters (an ESC colour sequence in an
# invoice number, a newline plus a fake log line in a currency) are
# rejected, and the rejection report on stdout, the log lines on stderr
# (text and JSON), ingest.rejection and the outbox payload hold them as
# \xNN, never raw.
source "$(dirname "$0")/lib.sh"

csv=$(sample "$WORK")
register_source acme-erp --start-date 2026-11-28
# record 1: ESC[31m in invoice_number; record 2: a quoted currency with a
# newline and a forged log line in it
awk -F, 'NR == 2 { $1 = "ACME\033[31m-1" }
         NR == 3 { $8 = "\"E\n2026-11-28T00:00:00.000Z INFO forged=1 batch published\"" }
         { print }' OFS=, "$csv" >"$WORK/bad.csv"
printf '{"source":"acme-erp","business_date":"2026-11-28","record_count":20,"control_total":"4200.00"}\n' \
  >"$WORK/bad.csv.manifest.json"

for format in text json; do
  load --log-format "$format" --source acme-erp --business-date 2026-11-28 --input "$WORK/bad.csv"
  expect_rc 65
  LC_ALL=C grep -q $'\033' "$WORK/out" "$WORK/err" && fail "a raw ESC reached the output ($format)"
  grep -q '^2026-11-28T00:00:00.000Z INFO forged=1' "$WORK/out" "$WORK/err" &&
    fail "a forged log line reached the output ($format)"
  expect_output_has 'ACME\x1b[31m-1'
  expect_output_has 'E\x0a2026-11-28T00:00:00.000Z INFO forged=1'
done
python3 - "$WORK/err" <<'PY' || fail "a JSON log line does not parse"
import json, sys
for l in open(sys.argv[1]).read().splitlines():
    json.loads(l)
PY
expect_eq "rejections with raw control characters" 0 \
  "$(q "select count(*) from ingest.rejection where detail ~ '[\x01-\x1f\x7f]' or invoice_number ~ '[\x01-\x1f\x7f]'")"
expect_eq "the outbox payload holds none" 0 \
  "$(q "select count(*) from ingest.outbox where payload::text ~ '\\\\u00(0[0-9a-f]|1[0-9a-f])'")"
expect_eq "quarantined, nothing published" "quarantined|0 invoices, 0 gross|none" \
  "$(q "select state from ingest.batch")|$(published_state)|$(watermark_of acme-erp)"
expect_eq "one batch_quarantined" 1 "$(notifications batch_quarantined)"

# An operator's reason pasted from a ticket: stored as typed, but the text
# output of status shows its ESC, BEL and bidi override (U+202E) escaped,
# like the JSON output does, never raw.
batch=$(q "select batch_id from ingest.batch")
reason=$(printf 'ticket \033]0;pwned\007 \342\200\256 done\tnow\rok')
run invoice_operator replay --batch "$batch" --reason "$reason"
expect_rc 0
expect_eq "the reason stored as typed" 1 \
  "$(q "select count(*) from ingest.operator_action where reason = E'ticket \\x1b]0;pwned\\x07 \\u202e done\\tnow\\rok'")"
run invoice_operator status --batch "$batch" --format json
expect_rc 0
LC_ALL=C grep -q $'\033\|\007' "$WORK/out" "$WORK/err" &&
  fail "a raw ESC or BEL reached the JSON status output"
expect_output_has 'ticket \u001b]0;pwned\u0007'
run invoice_operator status --batch "$batch"
expect_rc 0
LC_ALL=C grep -q $'\033\|\007\|\342\200\256' "$WORK/out" "$WORK/err" &&
  fail "a raw ESC, BEL or U+202E reached the text status output"
expect_output_has 'ticket \x1b]0;pwned\x07 \u202e done now ok'
expect_eq "still quarantined, nothing published" "quarantined|0 invoices, 0 gross|none" \
  "$(q "select state from ingest.batch")|$(published_state)|$(watermark_of acme-erp)"

# A value echoed by a command-line error is escaped too; nothing is added.
run invoice_operator source add evil --feed-url "$(printf 'https://h.example/\033[2J{date}.csv')"
expect_rc 78
LC_ALL=C grep -q $'\033' "$WORK/out" "$WORK/err" && fail "a raw ESC reached a command-line error"
expect_output_has 'https://h.example/\x1b[2J'
expect_eq "no source added" acme-erp "$(q "select string_agg(source, ',') from ingest.source")"
