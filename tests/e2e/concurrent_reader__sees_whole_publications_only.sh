#!/usr/bin/env bash
# Readers see whole publications only: while five batches (20,000 invoices
# each, consecutive business dates) are loaded one after another in the
# background, a reader (invoice_reader) reads the count and the gross sum of
# reporting.invoice in ONE statement, over and over, until the loaders have
# finished (bounded by them, not by time).  Every observation must be the
# totals of a whole number of published batches (0 to 5), and they never go
# back; afterwards the database holds exactly the five batches.
source "$(dirname "$0")/lib.sh"

readonly days=(2026-11-28 2026-11-29 2026-11-30 2026-12-01 2026-12-02)
readonly per_file=20000
readonly observe='select count(*), coalesce(sum(gross_amount),0) from reporting.invoice'

# to_cents: "count|amount" lines on stdin -> "count|cents" (exact: every
# amount here has at most 2 decimals; a third decimal would be a bug and
# comes out as "bad").
to_cents() {
  awk -F'|' '{
    s = $2; sign = 1
    if (s ~ /^-/) { sign = -1; s = substr(s, 2) }
    n = split(s, p, ".")
    frac = (n > 1) ? p[2] : ""
    if (s !~ /^[0-9]+(\.[0-9]+)?$/ || length(frac) > 2) { print $1 "|bad:" $2; next }
    while (length(frac) < 2) frac = frac "0"
    printf "%s|%.0f\n", $1, sign * (p[1] * 100 + frac)
  }'
}

register_source acme-erp --start-date "${days[0]}"

# The files, and the totals after 0, 1, ..., 5 whole publications.
files=()
echo "0|0" >"$WORK/allowed"
invoices=0 cents=0
for day in "${days[@]}"; do
  csv=$("$REPO/scripts/gen-invoices.sh" "$WORK/in" "$day" "$per_file")
  files+=("$csv")
  total=$(sed -n 's/.*"control_total":"\([^"]*\)".*/\1/p' "$csv.manifest.json")
  invoices=$((invoices + per_file))
  cents=$((cents + $(echo "0|$total" | to_cents | cut -d'|' -f2)))
  echo "$invoices|$cents" >>"$WORK/allowed"
done
final=$(tail -n 1 "$WORK/allowed")

# The loaders: one file after the other, in date order, in the background.
(
  for i in "${!days[@]}"; do
    rc=0
    "$INVOICE_LOADER" --dsn "dbname=$E2E_DB user=invoice_loader" load --source acme-erp \
      --business-date "${days[$i]}" --input "${files[$i]}" \
      >"$WORK/load.$i.out" 2>"$WORK/load.$i.err" || rc=$?
    echo "${days[$i]} $rc" >>"$WORK/load.rc"
  done
  touch "$WORK/loaders.done"
) &
loaders=$!

# The reader: each psql -c is its own statement (and transaction), five per
# connection; it runs until the loaders are done.
: >"$WORK/observations"
while [[ ! -e $WORK/loaders.done ]] && kill -0 "$loaders" 2>/dev/null; do
  psql -X -qAt -v ON_ERROR_STOP=1 -U invoice_reader -d "$E2E_DB" \
    -c "$observe" -c "$observe" -c "$observe" -c "$observe" -c "$observe" \
    >>"$WORK/observations" 2>"$WORK/reader.err" || fail "the reader failed: $(cat "$WORK/reader.err")"
done
wait "$loaders"
psql -X -qAt -v ON_ERROR_STOP=1 -U invoice_reader -d "$E2E_DB" -c "$observe" \
  >>"$WORK/observations" || fail "the last read failed"

for i in "${!days[@]}"; do
  expect_eq "load of ${days[$i]} (exit status)" "${days[$i]} 0" "$(sed -n "$((i + 1))p" "$WORK/load.rc")"
done

# Each observation is one of the allowed totals, in non-decreasing order.
to_cents <"$WORK/observations" >"$WORK/observed"
verdict=$(awk -F'|' '
  FNR == NR { step[$0] = FNR - 1; next }
  !($0 in step) { print "line " FNR ": [" $0 "] is not the total of whole publications"; bad = 1; exit }
  step[$0] < last { print "line " FNR ": [" $0 "] goes back to " step[$0] " publications after " last; bad = 1; exit }
  { last = step[$0]; seen[$0] = 1 }
  END { if (bad) exit; n = 0; for (s in seen) ++n; print "ok " FNR " " n }
' "$WORK/allowed" "$WORK/observed")
[[ $verdict == ok* ]] || fail "$verdict (allowed: $(paste -sd' ' "$WORK/allowed"))"
read -r _ observations distinct <<<"$verdict"
echo "observations: $observations, distinct totals seen: $distinct of 6"
((observations > 20)) || fail "only $observations observations: the reader hardly ran"
# At least two different totals: the reads really overlapped the publications.
((distinct >= 2)) || fail "the reader saw only one state; it did not overlap the publications"
expect_eq "last observation" "$final" "$(tail -n 1 "$WORK/observed")"

# The final state: exactly the five batches.
expect_eq "published (count|cents)" "$final" \
  "$(q "select count(*) || '|' || (coalesce(sum(gross_amount), 0) * 100)::bigint from reporting.invoice")"
expect_eq "versions" "$invoices" "$(q 'select count(*) from reporting.invoice_version')"
expect_eq "states" "published published published published published" \
  "$(q "select string_agg(state, ' ' order by business_date) from ingest.batch_overview")"
expect_eq "watermark" "${days[4]}" "$(watermark_of acme-erp)"
expect_eq "publish notifications" 5 "$(notifications batch_published)"
expect_eq "quarantine notifications" 0 "$(notifications batch_quarantined)"
