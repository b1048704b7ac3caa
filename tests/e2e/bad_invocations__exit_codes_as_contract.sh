#!/usr/bin/env bash
# The exit codes for inputs and options that are wrong, and that nothing
# is registered by them: a malformed command line (a value that is not
# what the option takes, an unknown option, an extra argument, bytes that
# are not UTF-8) exits 64 with the usage hint; a well-formed command line
# whose configuration is wrong (an unknown source, a password in the DSN,
# a bad value in the --config file) exits 78.
source "$(dirname "$0")/lib.sh"

csv=$(sample "$WORK")
register_source acme-erp --start-date 2026-11-28

load --source acme-erp --business-date 2026-11-28 --input "$WORK/nope.csv"
expect_rc 66
load --source acme-erp --business-date 2026-11-28 --input "$csv" --manifest "$WORK/nope.json"
expect_rc 66
load --source no-such-source --business-date 2026-11-28 --input "$csv"
expect_rc 78
expect_output_has "unknown source"
for bad_date in 2026-02-30 2026-13-01 26-11-28; do
  load --source acme-erp --business-date "$bad_date" --input "$csv"
  expect_rc 64
  expect_output_has "--business-date '$bad_date' is not a real date"
  expect_output_has "see 'invoice-loader load --help'"
done
load --business-date 2026-11-28 --input "$csv"
expect_rc 64
load --source acme-erp --business-date 2026-11-28 --input "$csv" --frob
expect_rc 64
expect_output_has "unknown option --frob for 'load'"
load --source acme-erp --business-date 2026-11-28 --input "$csv" extra.csv
expect_rc 64
expect_output_has "too many arguments for 'load'"
# --expect-total is a plain decimal or CODE=X with an upper-case code: a
# lower-case code is a malformed argument (64), refused before anything
# is registered.
load --source acme-erp --business-date 2026-11-28 --input "$csv" --expect-count 20 \
  --expect-total eur=4200.00
expect_rc 64
expect_output_has "CODE=X"
expect_eq "batches after a refused --expect-total" 0 "$(q "select count(*) from ingest.batch")"
run invoice_loader frobnicate
expect_rc 64
run invoice_loader --version --frob
expect_rc 64
[[ -s $WORK/out ]] && fail "--version --frob printed the version"
expect_output_has "unknown option --frob"
run invoice_loader status --batch abc
expect_rc 64
run invoice_operator replay --batch 1 --reason "   "
expect_rc 64
# Not UTF-8 in an argument: 64 naming the option, never the bytes.
run invoice_operator source add "$(printf 'bad\xffname')"
expect_rc 64
expect_output_has "argument 5 is not valid UTF-8" # after --dsn VALUE source add
run invoice_operator source add other --feed-url "$(printf 'https://h/\xc3(')"
expect_rc 64
expect_output_has "--feed-url is not valid UTF-8"
# The same bad value in the --config file is configuration: 78, naming
# the file.
printf '[load]\nretry-budget = soon\n' >"$WORK/bad.conf"
chmod 600 "$WORK/bad.conf"
run invoice_loader --config "$WORK/bad.conf" load --source acme-erp \
  --business-date 2026-11-28 --input "$csv"
expect_rc 78
expect_output_has "--config $WORK/bad.conf: --retry-budget 'soon'"
# Files that hold secrets follow one rule, with one message: a netrc file
# or a --config file readable by others is refused (78), never read.
printf 'machine 127.0.0.1 login u password s3cr3tXY\n' >"$WORK/open.netrc"
printf 'retry-budget = 60\n' >"$WORK/open.conf"
chmod 644 "$WORK/open.netrc" "$WORK/open.conf"
load --source acme-erp --business-date 2026-11-28 --input "file://$csv" \
  --netrc-file "$WORK/open.netrc"
expect_rc 78
expect_output_has "--netrc-file $WORK/open.netrc is refused"
grep -q s3cr3tXY "$WORK/out" "$WORK/err" && fail "the netrc's password was printed"
netrc_says=$(grep -o 'is refused: .*(chmod 600' "$WORK/err" | head -n 1)
run invoice_loader --config "$WORK/open.conf" load --source acme-erp \
  --business-date 2026-11-28 --input "$csv"
expect_rc 78
expect_output_has "--config $WORK/open.conf is refused"
expect_eq "one message for both files" "$netrc_says" \
  "$(grep -o 'is refused: .*(chmod 600' "$WORK/err" | head -n 1)"
[[ -n $netrc_says ]] || fail "no refusal found for the netrc file"
# A libpq service file that holds a password too; at 0600 it is used.
# (One without a password may stay readable: the connection test uses
# one at the default mode.)
printf '[acme]\ndbname=%s\nuser=invoice_loader\npassword=unused-on-this-socket\n' \
  "$E2E_DB" >"$WORK/open.service"
chmod 644 "$WORK/open.service"
set +e
PGSERVICEFILE="$WORK/open.service" "$INVOICE_LOADER" --dsn "service=acme" status \
  >"$WORK/out" 2>"$WORK/err"
RC=$?
set -e
expect_rc 78
expect_output_has "service file $WORK/open.service is refused"
expect_eq "one message for the service file too" "$netrc_says" \
  "$(grep -o 'is refused: .*(chmod 600' "$WORK/err" | head -n 1)"
chmod 600 "$WORK/open.service"
set +e
PGSERVICEFILE="$WORK/open.service" "$INVOICE_LOADER" --dsn "service=acme" status \
  >"$WORK/out" 2>"$WORK/err"
RC=$?
set -e
expect_rc 0
expect_eq "nothing registered by a malformed command line" 0 \
  "$(q 'select count(*) from ingest.batch')"
expect_eq "no source added by a malformed command line" "acme-erp" \
  "$(q "select string_agg(source, ',') from ingest.source")"
set +e
"$INVOICE_LOADER" --dsn "dbname=$E2E_DB user=invoice_loader password=hunter2" status >"$WORK/out" 2>"$WORK/err"
RC=$?
set -e
expect_rc 78
grep -q hunter2 "$WORK/out" "$WORK/err" && fail "the password was printed"
# The loader role may not register sources (SQLSTATE 42501 -> 77).
run invoice_loader source add sneaky
expect_rc 77
expect_eq "batches" 0 "$(q 'select count(*) from ingest.batch_overview')"
expect_eq "sources" "acme-erp" "$(q "select string_agg(source, ',') from ingest.source")"

# No manifest and no --expect-*: the delivery is not complete: exit 66
# and nothing registered, so the manifest can still come.
# (other bytes than the sample: the same bytes would be the same batch)
head -n 20 "$csv" >"$WORK/bare.csv"
load --source acme-erp --business-date 2026-11-28 --input "$WORK/bare.csv"
expect_rc 66
expect_output_has "bare.csv.manifest.json does not exist"
expect_eq "batches after a missing manifest" 0 "$(q 'select count(*) from ingest.batch')"
expect_eq "attempts after a missing manifest" 0 "$(q 'select count(*) from ingest.attempt')"

# --expect-count/--expect-total replace the manifest.
load --source acme-erp --business-date 2026-11-28 --input "$csv" --expect-count 20 --expect-total 4200.00
expect_rc 0
expect_eq "published" "20 invoices, 4200.00 gross" "$(published_state)"
