#!/usr/bin/env bash
# Every procedure of the runbook (docs/guide/recover.md), run as written:
# for each, the real binary brings a source of its own into the procedure's
# symptom, the procedure's sh blocks run literally under logins that hold
# only the documented roles (the DBA's reference-data step as the owner),
# then each of its check queries runs as the runbook says (psql as the
# operator) and its rows must match the `-->` lines under it.  The test
# also checks the database itself afterwards (state, invoices, watermark,
# notifications) and fails when the runbook has a procedure it does not
# run, or a check query without its expected rows.
source "$(dirname "$0")/lib.sh"

runbook=$REPO/docs/guide/recover.md
mkdir -p "$WORK/bin"
ln -s "$INVOICE_LOADER" "$WORK/bin/invoice-loader"
export PATH=$WORK/bin:$PATH

suffix=$RANDOM
alice=alice_loader_$suffix bob=bob_operator_$suffix carol=carol_operator_$suffix
q "create role $alice login in role invoice_loader; create role $bob login in role invoice_operator;
   create role $carol login in role invoice_operator"
trap 'q "drop role if exists $alice; drop role if exists $bob; drop role if exists $carol" >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT
export LOADER_DSN="dbname=$E2E_DB user=$alice"
export OPERATOR_DSN="dbname=$E2E_DB user=$bob"
export SECOND_OPERATOR_DSN="dbname=$E2E_DB user=$carol"
export OWNER_DSN="dbname=$E2E_DB"
export SOURCE DATE BATCH INPUT MANIFEST FIXED_INPUT NOTIFICATION="" ACTION=""

# section NAME LANG: the LANG blocks from procedure NAME's marker to the
# next marker or heading.
section() {
  awk -v name="$1" -v lang="$2" '
    /^<!-- procedure: / { inproc = ($3 == name); next }
    /^## / { inproc = 0 }
    inproc && $0 == "```" lang { inblock = 1; next }
    inblock && /^```$/ { inblock = 0; next }
    inblock { print }' "$runbook"
}

# before NAME: the sql blocks of NAME's section above its marker (what
# the operator reads before acting).
before() {
  awk -v name="$1" '
    /^## / { buf = ""; inblock = 0; next }
    /^<!-- procedure: / { if ($3 == name) { printf "%s", buf; exit } buf = ""; next }
    $0 == "```sql" { inblock = 1; next }
    inblock && /^```$/ { inblock = 0; next }
    inblock { buf = buf $0 "\n" }' "$runbook"
}

ran=()
# procedure NAME: run its sh blocks as one script (exit 0 expected), then
# compare its checks.
procedure() {
  local name=$1 script
  script=$(section "$name" sh)
  [[ -n $script ]] || fail "recover.md has no sh block for procedure $name"
  echo "--- procedure $name"
  set +e
  bash -euo pipefail -c "$script" >"$WORK/out" 2>"$WORK/err"
  RC=$?
  set -e
  expect_rc 0
  compare "$name" "$(section "$name" sql)"
  ran+=("$name")
}

# compare NAME SQL: each query of SQL (checks of procedure NAME), then its
# rows compared with the `-->` lines under it ($SOURCE, $DATE, $BATCH,
# $NOTIFICATION replaced by their values, `*` any text).
compare() {
  local name=$1 dir=$WORK/checks.$1 n i got exp pat
  rm -rf "$dir"; mkdir -p "$dir"
  printf '%s\n' "$2" | awk -v dir="$dir" '
    /^--> ?/ { sub(/^--> ?/, ""); print > (dir "/" n ".exp"); next }
    /^ *$/ { next }
    { if (!open) { n++; open = 1 } print > (dir "/" n ".sql"); if (/; *$/) open = 0 }'
  n=$(find "$dir" -name '*.sql' | wc -l)
  (( n > 0 )) || fail "procedure $name has no check query"
  for ((i = 1; i <= n; i++)); do
    [[ -s $dir/$i.exp ]] || fail "check $i of $name says nothing of what it shows: $(cat "$dir/$i.sql")"
    psql -X -At "$OPERATOR_DSN" -v ON_ERROR_STOP=1 -v batch="$BATCH" -v source="$SOURCE" \
      -v date="$DATE" -v notification="${NOTIFICATION:-0}" -f "$dir/$i.sql" >"$dir/$i.got" 2>&1 ||
      fail "check $i of $name failed: $(cat "$dir/$i.got")"
    expect_eq "$name check $i: rows" "$(wc -l <"$dir/$i.exp")" "$(wc -l <"$dir/$i.got")"
    while IFS= read -r exp <&3 && IFS= read -r got <&4; do
      exp=${exp//'$SOURCE'/$SOURCE} exp=${exp//'$DATE'/$DATE}
      exp=${exp//'$BATCH'/$BATCH} exp=${exp//'$NOTIFICATION'/$NOTIFICATION}
      pat=${exp//\\/\\\\} pat=${pat//\?/\\?} pat=${pat//\[/\\[}
      # shellcheck disable=SC2053
      [[ $got == $pat ]] ||
        fail "$name check $i shows [$got], the runbook says [$exp]: $(cat "$dir/$i.sql")"
    done 3<"$dir/$i.exp" 4<"$dir/$i.got"
  done
}

batch_of() { q "select batch_id from ingest.batch where source = '$1' and business_date = '$2' order by batch_id desc limit 1"; }
state_of() { q "select state from ingest.batch where batch_id = $1"; }
shown() { q "select count(*) || ' ' || coalesce(sum(gross_amount), 0) from reporting.invoice where source = '$1'"; }
# files SOURCE DIR DATE: the sample batch (20 invoices, 4200.00) with a
# manifest naming SOURCE; prints the CSV path.
files() {
  local csv
  csv=$(sample "$2" "$3")
  sed -i "s/\"acme-erp\"/\"$1\"/" "$csv.manifest.json"
  echo "$csv"
}
# manifest CSV SOURCE DATE COUNT TOTAL: a manifest without a checksum.
manifest() {
  printf '{"source":"%s","business_date":"%s","record_count":%s,"control_total":"%s"}\n' \
    "$2" "$3" "$4" "$5" >"$1.manifest.json"
}
loader_as() { local who=$1; shift; run "$who" "$@"; }
start() {
  SOURCE=$1 DATE=${2:-2026-11-28} BATCH="" FIXED_INPUT="" MANIFEST=""
  loader_as "$bob" source add "$SOURCE" --start-date 2026-11-28
  expect_rc 0
}

# 1a. A file whose header misses a column; the sender's corrected file.
start schema-a
INPUT=$WORK/1a/bad.csv
good=$(files "$SOURCE" "$WORK/1a" "$DATE")
sed '1s/customer_id/customer/' "$good" >"$INPUT"
manifest "$INPUT" "$SOURCE" "$DATE" 20 4200.00
loader_as "$alice" load --source "$SOURCE" --business-date "$DATE" --input "$INPUT"
expect_rc 65
expect_output_has "header.missing_column"
BATCH=$(batch_of "$SOURCE" "$DATE") FIXED_INPUT=$good
procedure schema-corrected-file
expect_eq "schema-a: the corrected file shown" "20 4200.00" "$(shown "$SOURCE")"
expect_eq "schema-a: the bad batch stays" quarantined "$(state_of "$BATCH")"

# 1b. An extra column the source should allow; a plain rerun first (it
#     changes nothing, and the replay must not name it).
start schema-b
files "$SOURCE" "$WORK/1b" "$DATE" >/dev/null
INPUT=$WORK/1b/extra.csv
awk 'NR == 1 { print $0 ",extra"; next } { print $0 ",x" }' "$WORK/1b/acme-erp_$DATE.csv" >"$INPUT"
manifest "$INPUT" "$SOURCE" "$DATE" 20 4200.00
for expected in 1 2; do
  loader_as "$alice" load --source "$SOURCE" --business-date "$DATE" --input "$INPUT"
  expect_rc 65
done
expect_output_has "header.unknown_column"
BATCH=$(batch_of "$SOURCE" "$DATE")
procedure schema-source-setting
expect_eq "schema-b: shown" "20 4200.00" "$(shown "$SOURCE")"
expect_eq "schema-b: the replay names attempt 1" 1 \
  "$(q "select superseded_attempt_no from ingest.operator_action where batch_id = $BATCH")"

# 2a. One record's net + tax is not its gross, all-or-nothing; the source
#     switched to partial.
start partial
good=$(files "$SOURCE" "$WORK/2a" "$DATE")
INPUT=$WORK/2a/sum.csv
awk -F, 'NR == 4 { $9 = sprintf("%.2f", $9 + 1) } { print }' OFS=, "$good" >"$INPUT"
manifest "$INPUT" "$SOURCE" "$DATE" 20 4200.00
loader_as "$alice" load --source "$SOURCE" --business-date "$DATE" --input "$INPUT"
expect_rc 65
expect_output_has "amounts.sum"
BATCH=$(batch_of "$SOURCE" "$DATE")
procedure validation-partial-policy
expect_eq "partial: the rejection" "3 amounts.sum" \
  "$(q "select record_no || ' ' || rule from ingest.rejection where batch_id = $BATCH")"
expect_eq "partial: shown" 19 "$(q "select count(*) from reporting.invoice where source = '$SOURCE'")"
expect_eq "partial: watermark" "$DATE" "$(watermark_of "$SOURCE")"

# 2b. A currency missing from the reference data; the owner adds it.
start currency
good=$(files "$SOURCE" "$WORK/2b" "$DATE")
INPUT=$WORK/2b/xts.csv
sed 's/,EUR,/,XTS,/' "$good" >"$INPUT"
manifest "$INPUT" "$SOURCE" "$DATE" 20 4200.00
loader_as "$alice" load --source "$SOURCE" --business-date "$DATE" --input "$INPUT"
expect_rc 65
expect_output_has "currency.unknown"
BATCH=$(batch_of "$SOURCE" "$DATE")
procedure validation-missing-currency
expect_eq "currency: shown" "20 4200.00" "$(shown "$SOURCE")"
expect_eq "currency: watermark" "$DATE" "$(watermark_of "$SOURCE")"

# 3. The manifest's control total was wrong; a plain rerun; the sender
#    corrects the manifest.
start recon
INPUT=$(files "$SOURCE" "$WORK/3" "$DATE") MANIFEST=$INPUT.manifest.json
sed -i 's/4200.00/4300.00/' "$MANIFEST"
for expected in 1 2; do
  loader_as "$alice" load --source "$SOURCE" --business-date "$DATE" --input "$INPUT"
  expect_rc 65
done
BATCH=$(batch_of "$SOURCE" "$DATE")
sed -i 's/4300.00/4200.00/' "$MANIFEST"
procedure reconciliation-corrected-manifest
expect_eq "recon: shown" "20 4200.00" "$(shown "$SOURCE")"
expect_eq "recon: notifications" "batch_quarantined batch_published" \
  "$(q "select string_agg(kind, ' ' order by notification_id) from ingest.notification where batch_id = $BATCH")"

# 4. Retry budget exhausted: a run killed after registering the batch,
#    then one that cannot get the batch while another session holds its
#    runner lock, for longer than its --retry-budget (exit 75).  (A
#    database away for longer is the same symptom; stopping the server
#    here would stop every other scenario's cluster too.)
start retry
INPUT=$(files "$SOURCE" "$WORK/4" "$DATE")
set +e
INVOICE_LOADER_FAILPOINT=after_received invoice-loader --dsn "$LOADER_DSN" load --source "$SOURCE" \
  --business-date "$DATE" --input "$INPUT" >"$WORK/out" 2>"$WORK/err"
RC=$?
set -e
expect_rc 137
BATCH=$(batch_of "$SOURCE" "$DATE")
mkfifo "$WORK/hold"
psql -X -q -d "$E2E_DB" <"$WORK/hold" >/dev/null &
holder=$!
exec 9>"$WORK/hold"
echo "select pg_advisory_lock(k.key1, k.key2) from ingest.runner_lock_key('$SOURCE', '$DATE') as k;" >&9
for ((i = 0; i < 100; i++)); do
  [[ $(q "select count(*) from pg_locks where locktype = 'advisory' and granted and pid <> pg_backend_pid()") -gt 0 ]] && break
  sleep 0.1
done
loader_as "$alice" load --source "$SOURCE" --business-date "$DATE" --input "$INPUT" --retry-budget 2
expect_rc 75
exec 9>&-
wait "$holder" || true
expect_eq "retry: still received" received "$(state_of "$BATCH")"
procedure retry-budget
expect_eq "retry: shown" "20 4200.00" "$(shown "$SOURCE")"

# 5. Commit in doubt: the loader dies after sending the publication's
#    COMMIT, before reading the reply (the nearest a test can come to a
#    connection lost during COMMIT).
start doubt
INPUT=$(files "$SOURCE" "$WORK/5" "$DATE")
set +e
INVOICE_LOADER_FAILPOINT=after_publish_commit invoice-loader --dsn "$LOADER_DSN" load --source "$SOURCE" \
  --business-date "$DATE" --input "$INPUT" >"$WORK/out" 2>"$WORK/err"
RC=$?
set -e
expect_rc 137
BATCH=$(batch_of "$SOURCE" "$DATE")
procedure commit-in-doubt
expect_eq "doubt: shown once" "20 4200.00" "$(shown "$SOURCE")"

# 6. Abandoned attempt: killed once the versions were written, before the
#    publishing transaction.
start abandon
INPUT=$(files "$SOURCE" "$WORK/6" "$DATE")
set +e
INVOICE_LOADER_FAILPOINT=after_write_commit invoice-loader --dsn "$LOADER_DSN" load --source "$SOURCE" \
  --business-date "$DATE" --input "$INPUT" >"$WORK/out" 2>"$WORK/err"
RC=$?
set -e
expect_rc 137
BATCH=$(batch_of "$SOURCE" "$DATE")
expect_eq "abandon: written, unseen" "0 0" "$(shown "$SOURCE")"
procedure abandoned-attempt
expect_eq "abandon: shown" "20 4200.00" "$(shown "$SOURCE")"

# 7a. Wrong data published on the second date; reverted, then the
#     sender's corrected file (its first ten records).
start wrong-a
loader_as "$alice" load --source "$SOURCE" --business-date 2026-11-28 \
  --input "$(files "$SOURCE" "$WORK/7a1" 2026-11-28)"
expect_rc 0
DATE=2026-11-29 INPUT=$(files "$SOURCE" "$WORK/7a" 2026-11-29)
loader_as "$alice" load --source "$SOURCE" --business-date "$DATE" --input "$INPUT"
expect_rc 0
BATCH=$(batch_of "$SOURCE" "$DATE")
FIXED_INPUT=$WORK/7a/fixed.csv
head -n 11 "$INPUT" >"$FIXED_INPUT"
manifest "$FIXED_INPUT" "$SOURCE" "$DATE" 10 \
  "$(tail -n +2 "$FIXED_INPUT" | awk -F, '{ s += $11 } END { printf "%.2f", s }')"
procedure wrong-data-corrected-file
expect_eq "wrong-a: the first date and the corrected file" 30 \
  "$(q "select count(*) from reporting.invoice where source = '$SOURCE'")"
expect_eq "wrong-a: watermark" "$DATE" "$(watermark_of "$SOURCE")"

# 7b. Published before the sender's confirmation: reverted, then the same
#     bytes replayed.
start wrong-b
loader_as "$alice" load --source "$SOURCE" --business-date 2026-11-28 \
  --input "$(files "$SOURCE" "$WORK/7b1" 2026-11-28)"
expect_rc 0
DATE=2026-11-29 INPUT=$(files "$SOURCE" "$WORK/7b" 2026-11-29)
loader_as "$alice" load --source "$SOURCE" --business-date "$DATE" --input "$INPUT"
expect_rc 0
BATCH=$(batch_of "$SOURCE" "$DATE")
procedure wrong-data-same-file-again
expect_eq "wrong-b: both dates" 40 "$(q "select count(*) from reporting.invoice where source = '$SOURCE'")"
expect_eq "wrong-b: watermark" "$DATE" "$(watermark_of "$SOURCE")"

# 8. A notification in doubt (as a killed e-mail send leaves it; the
#    notify tests make that for real), settled as dispatched.
NOTIFICATION=$(q "select notification_id from ingest.notification
                  where batch_id = $BATCH and kind = 'batch_published' order by notification_id limit 1")
q "update ingest.outbox set state = 'in_doubt', in_doubt_at = now() where notification_id = $NOTIFICATION"
sql=$(before notification-in-doubt)
[[ -n $sql ]] || fail "the runbook no longer shows how to find the notification in doubt"
compare notification-in-doubt-found "$sql"
procedure notification-in-doubt
expect_eq "in doubt: settled" dispatched \
  "$(q "select state from ingest.notification where notification_id = $NOTIFICATION")"
expect_eq "in doubt: the others untouched" 0 \
  "$(q "select count(*) from ingest.notification where state <> 'pending' and notification_id <> $NOTIFICATION")"

# 9. A late amendment of an invoice in a closed period; the operator
#    reopens, replays, the loader loads, the operator closes again.
start closed
loader_as "$alice" load --source "$SOURCE" --business-date 2026-11-28 \
  --input "$(files "$SOURCE" "$WORK/9a" 2026-11-28)"
expect_rc 0
export CLOSED_THROUGH=2026-11-27
loader_as "$bob" period close --source "$SOURCE" --through "$CLOSED_THROUGH" --reason "November closed"
expect_rc 0
DATE=2026-11-29 INPUT=$WORK/9b/amended.csv
mkdir -p "$WORK/9b"
{ head -n 1 "$WORK/9a/acme-erp_2026-11-28.csv"
  sed -n 2p "$WORK/9a/acme-erp_2026-11-28.csv" | awk -F, 'BEGIN { OFS = "," } { $2 = 1; $12 = "amended"; print }'
} >"$INPUT"
manifest "$INPUT" "$SOURCE" "$DATE" 1 "$(sed -n 2p "$INPUT" | cut -d, -f11)"
loader_as "$alice" load --source "$SOURCE" --business-date "$DATE" --input "$INPUT"
expect_rc 65
expect_output_has "period.closed"
BATCH=$(batch_of "$SOURCE" "$DATE")
procedure closed-period-reopen
expect_eq "closed: the amendment is current" "1 amended" \
  "$(q "select revision || ' ' || description from reporting.invoice
        where source = '$SOURCE' and invoice_number = 'ACME-20261128-001'")"
expect_eq "closed: closed again" "$CLOSED_THROUGH" \
  "$(q "select locked_through from ingest.source where source = '$SOURCE'")"
expect_eq "closed: watermark" "$DATE" "$(watermark_of "$SOURCE")"

# 10. Three nights published, the last two wrong: undone to the first.
start undo
for d in 2026-11-28 2026-11-29 2026-11-30; do
  loader_as "$alice" load --source "$SOURCE" --business-date "$d" \
    --input "$(files "$SOURCE" "$WORK/10-$d" "$d")"
  expect_rc 0
done
DATE=2026-11-28
procedure undo-to-date
expect_eq "undo: the first night alone" "20 4200.00" "$(shown "$SOURCE")"
expect_eq "undo: two reverts" 2 \
  "$(q "select count(*) from ingest.operator_action as o join ingest.batch as b using (batch_id)
        where b.source = '$SOURCE' and o.action = 'revert'")"

# 11a. A batch of a source with --require-approval awaits approval; the
#      operator approves it.
start approve
loader_as "$bob" source add "$SOURCE" --require-approval
expect_rc 0
INPUT=$(files "$SOURCE" "$WORK/11a" "$DATE")
loader_as "$alice" load --source "$SOURCE" --business-date "$DATE" --input "$INPUT"
expect_rc 75
expect_output_has "awaiting approval"
BATCH=$(batch_of "$SOURCE" "$DATE")
expect_eq "approve: unseen before" "0 0" "$(shown "$SOURCE")"
procedure awaiting-approval-approve
expect_eq "approve: shown" "20 4200.00" "$(shown "$SOURCE")"
expect_eq "approve: one publication notification" batch_published \
  "$(q "select string_agg(kind, ' ') from ingest.notification where batch_id = $BATCH")"

# 11b. The same, rejected.
start reject
loader_as "$bob" source add "$SOURCE" --require-approval
expect_rc 0
INPUT=$(files "$SOURCE" "$WORK/11b" "$DATE")
loader_as "$alice" load --source "$SOURCE" --business-date "$DATE" --input "$INPUT"
expect_rc 75
BATCH=$(batch_of "$SOURCE" "$DATE")
procedure awaiting-approval-reject
expect_eq "reject: nothing shown" "0 0" "$(shown "$SOURCE")"
expect_eq "reject: no watermark" none "$(watermark_of "$SOURCE")"
expect_eq "reject: one quarantine notification" batch_quarantined \
  "$(q "select string_agg(kind, ' ') from ingest.notification where batch_id = $BATCH")"

# 12. A revert of such a source, requested by one operator, confirmed by
#     another.
start confirm
loader_as "$bob" source add "$SOURCE" --require-approval
expect_rc 0
INPUT=$(files "$SOURCE" "$WORK/12" "$DATE")
loader_as "$alice" load --source "$SOURCE" --business-date "$DATE" --input "$INPUT"
expect_rc 75
BATCH=$(batch_of "$SOURCE" "$DATE")
loader_as "$bob" approve --batch "$BATCH" --reason "checked"
expect_rc 0
loader_as "$bob" revert --batch "$BATCH" --reason "published before the sender confirmed it"
expect_rc 0
expect_output_has "awaiting confirmation"
ACTION=$(q "select action_id from ingest.operator_action where batch_id = $BATCH and action = 'request'")
expect_eq "confirm: still shown before" "20 4200.00" "$(shown "$SOURCE")"
procedure confirm-action
expect_eq "confirm: nothing shown" "0 0" "$(shown "$SOURCE")"
expect_eq "confirm: no watermark" none "$(watermark_of "$SOURCE")"
expect_eq "confirm: the revert by the second operator" "revert $carol $bob" \
  "$(q "select action || ' ' || db_user || ' ' || requested_by from ingest.operator_action
        where batch_id = $BATCH and confirms_action = $ACTION")"

# 13. A truncated full extract (2 of the 20 invoices): quarantined by the
#     guard; a) the sender's complete extract, b) the closures are real.
# truncated SOURCE DIR: night 1 published, night 2 truncated and
# quarantined; sets INPUT, DATE, BATCH.
truncated() {
  loader_as "$bob" source add "$SOURCE" --extract full
  expect_rc 0
  loader_as "$alice" load --source "$SOURCE" --business-date 2026-11-28 \
    --input "$(files "$SOURCE" "$WORK/$2" 2026-11-28)"
  expect_rc 0
  DATE=2026-11-29 INPUT=$WORK/$2/truncated.csv
  head -n 3 "$WORK/$2/acme-erp_2026-11-28.csv" >"$INPUT"
  manifest "$INPUT" "$SOURCE" "$DATE" 2 \
    "$(awk -F, 'NR > 1 { s += $11 } END { printf "%.2f", s }' "$INPUT")"
  loader_as "$alice" load --source "$SOURCE" --business-date "$DATE" --input "$INPUT"
  expect_rc 65
  expect_output_has "extract.absent_share"
  BATCH=$(batch_of "$SOURCE" "$DATE")
  expect_eq "$SOURCE: nothing closed" "20 4200.00" "$(shown "$SOURCE")"
}
start truncated-a
truncated "$SOURCE" 13a
FIXED_INPUT=$WORK/13a/complete.csv
{ cat "$WORK/13a/acme-erp_2026-11-28.csv"
  echo 'ACME-20261129-001,0,ISSUED,INVOICE,CUST-001,2026-11-29,2026-12-29,EUR,100.00,19.00,119.00,New'
} >"$FIXED_INPUT"
manifest "$FIXED_INPUT" "$SOURCE" "$DATE" 21 4319.00
procedure truncated-extract-corrected-file
expect_eq "truncated-a: the complete extract shown" "21 4319.00" "$(shown "$SOURCE")"
expect_eq "truncated-a: watermark" "$DATE" "$(watermark_of "$SOURCE")"
start truncated-b
truncated "$SOURCE" 13b
procedure truncated-extract-allow
expect_eq "truncated-b: 18 closed by absence" 2 \
  "$(q "select count(*) from reporting.invoice where source = '$SOURCE'")"
expect_eq "truncated-b: history keeps them" 18 \
  "$(q "select count(*) from reporting.invoice_version where source = '$SOURCE' and closed_by_absence")"
expect_eq "truncated-b: one publication notified" 1 \
  "$(q "select count(*) from ingest.notification where batch_id = $BATCH and kind = 'batch_published'")"

BATCH=$(q "select batch_id from ingest.batch where source = 'closed' and state = 'published'
           order by batch_id desc limit 1")

# Reading status, as the conventions show it: the replay of wrong-b, with
# the attempt and run that used it.
script=$(awk '/^## Conventions/ { c = 1 } c && /^## 1\./ { exit }
              c && $0 == "```sh" { b = 1; next } b && /^```$/ { b = 0; next } b { print }' "$runbook")
[[ $script == *"status --batch"* ]] || fail "the conventions no longer show status --batch"
set +e
bash -euo pipefail -c "$script" >"$WORK/out" 2>"$WORK/err"
RC=$?
set -e
expect_rc 0
expect_output_has "used_by_attempt"
expect_output_has "$(q "select run_id from ingest.attempt where batch_id = $BATCH order by attempt_no desc limit 1")"

# Every procedure of the runbook ran.
expect_eq "the runbook's procedures, all run" \
  "$(grep -o '^<!-- procedure: [a-z-]*' "$runbook" | sed 's/.* //' | sort | tr '\n' ' ')" \
  "$(printf '%s\n' "${ran[@]}" | sort | tr '\n' ' ')"
check_invariants
