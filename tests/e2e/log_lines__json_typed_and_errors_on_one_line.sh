#!/usr/bin/env bash
# What log shippers and on-call engineers read: under
# --log-format json every stderr line is one JSON object with the run id,
# the batch's source and business date, typed numbers and the merge counts
# as an object; a usage error is a JSON line too; the summary is on
# stdout; a missing privilege names the role the command needs; a
# quarantine's error record carries its first reasons; a retry's waits
# are numbers; every run ends with a record of its outcome, so that a
# refusal (78) or a wait (75) shows under -q --log-format json too, at
# error and warn.
source "$(dirname "$0")/lib.sh"

csv=$(sample "$WORK")
register_source acme-erp --start-date 2026-11-28

load --log-format json --source acme-erp --business-date 2026-11-28 --input "$csv"
expect_rc 0
grep -q "batch 1 published: 20 records" "$WORK/out" || fail "the summary is not on stdout"
python3 - "$WORK/err" <<'PY' || fail "the JSON log lines are not as documented"
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert lines, "no log lines"
for l in lines:
    d = json.loads(l)
    for k in ("ts", "level", "run_id", "msg", "source", "business_date"):
        assert k in d, (k, l)
    assert d["source"] == "acme-erp" and d["business_date"] == "2026-11-28", l
pub = [json.loads(l) for l in lines if json.loads(l)["msg"] == "batch published"]
assert len(pub) == 1, lines
p = pub[0]
assert isinstance(p["batch"], int) and isinstance(p["duration_ms"], int), p
assert isinstance(p["counts"], dict) and p["counts"]["records"] == 20, p
assert p["counts"]["accepted_gross"] == "4200.00", p
PY

# A usage error under --log-format json: one JSON line, exit 64.
run invoice_loader --log-format json load --source acme-erp
expect_rc 64
python3 -c "import json,sys; d=json.loads(open(sys.argv[1]).read()); assert d['level']=='error' and d['class']=='usage', d" "$WORK/err" ||
  fail "the usage error is not one JSON line: $(cat "$WORK/err")"

# -v: one line per step with its time.
csv2=$(sample "$WORK/d2" 2026-11-29)
load -v --source acme-erp --business-date 2026-11-29 --input "$csv2"
expect_rc 0
expect_eq "step lines at -v" 3 "$(grep -c 'step finished' "$WORK/err")"
grep 'step finished' "$WORK/err" | grep -q 'step=validation' || fail "no validation step line"
grep 'step finished' "$WORK/err" | grep -Eq 'duration_ms=[0-9]+' || fail "no step time"

# The loader role may not register sources: 77, naming the role needed.
run invoice_loader source add sneaky
expect_rc 77
expect_output_has "needs a login role that is a member of invoice_operator"
[[ $(wc -l <"$WORK/err") -eq 1 ]] || fail "the error is not one line: $(cat "$WORK/err")"
grep -q 'CONTEXT' "$WORK/err" && fail "CONTEXT shown without -v"
expect_eq "sources" acme-erp "$(q "select string_agg(source, ',') from ingest.source")"

# A quarantine is a log record with its first reasons: the next day's
# manifest is a cent off.
csv3=$(sample "$WORK/d3" 2026-11-30)
sed -i 's/"control_total": *"4200.00"/"control_total":"4200.01"/' "$csv3.manifest.json"
load --log-format json --source acme-erp --business-date 2026-11-30 --input "$csv3"
expect_rc 65
python3 - "$WORK/err" <<'PY' || fail "the quarantine's log record is not as documented"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]).read().splitlines()]
q = [r for r in recs if r["msg"] == "batch quarantined"]
assert len(q) == 1 and q[0]["level"] == "error", recs
assert "file: reconcile.control_total: " in q[0]["reasons"], q
assert isinstance(q[0]["batch"], int), q
PY
expect_eq "batch state" quarantined "$(q "select state from ingest.batch where business_date = '2026-11-30'")"

# outcome_record LEVEL OUTCOME EXIT: the err file is exactly one JSON
# record, the run's outcome (-q hides the rest).
outcome_record() {
  python3 - "$WORK/err" "$1" "$2" "$3" <<'PY' || fail "no $2 outcome record at $1: $(cat "$WORK/err")"
import json, sys
path, level, outcome, code = sys.argv[1:5]
recs = [json.loads(l) for l in open(path).read().splitlines()]
ends = [r for r in recs if r.get("outcome") == outcome]
assert len(ends) == 1, recs
e = ends[0]
assert e["level"] == level and e["exit_code"] == int(code) and e["command"] == "load", e
assert e["msg"], e
PY
}
# A date after the quarantined one waits for it: 75, a warn record.
csv4=$(sample "$WORK/d4" 2026-12-01)
load -q --log-format json --source acme-erp --business-date 2026-12-01 --input "$csv4"
expect_rc 75
outcome_record warn waiting 75
# The quarantined file loaded again as it is: quarantined still (65), an
# error record.
load -q --log-format json --source acme-erp --business-date 2026-11-30 --input "$csv3"
expect_rc 65
outcome_record error quarantined 65
# A reverted publication loaded again as it was: refused (78) until an
# operator replays it; an error record says so.
run invoice_operator revert --batch 2 --reason "log test"
expect_rc 0
load -q --log-format json --source acme-erp --business-date 2026-11-29 --input "$csv2"
expect_rc 78
outcome_record error refused 78
expect_eq "batch states" "published reverted quarantined validated" \
  "$(q "select string_agg(state, ' ' order by business_date) from ingest.batch")"
expect_eq "watermark after the revert" 2026-11-28 "$(q "select business_date from ingest.watermark")"

# A retried failure's waits are JSON numbers: the database out of reach
# for a 2 s budget.
set +e
"$INVOICE_LOADER" --log-format json --dsn "host=$WORK port=1 dbname=$E2E_DB connect_timeout=1" \
  load --source acme-erp --business-date 2026-12-01 --input "$csv" --retry-budget 2 \
  >"$WORK/out" 2>"$WORK/err"
RC=$?
set -e
expect_rc 75
python3 - "$WORK/err" <<'PY' || fail "the retry lines' numbers are not JSON numbers"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]).read().splitlines()]
retries = [r for r in recs if r["msg"] == "step failed; retrying"]
assert retries, recs
for r in retries:
    assert isinstance(r["delay_ms"], int) and isinstance(r["budget_left_ms"], int), r
PY
