#!/usr/bin/env bash
# status that tells the truth: an unknown batch or source
# exits 78; last_error is empty once a batch is published; --state,
# --since and --limit filter; a blocked source gets a "next action" line
# naming the command; --format prometheus is valid textfile format with
# the numbers the database holds (a quarantined batch whose date has
# published since not counted), and still a valid exposition with
# invoice_loader_up 0 and exit 75 when the database is out of reach; the
# next deadline of a source with one; the shipped alerts fire on these
# expositions (promtool) exactly where they should.
source "$(dirname "$0")/lib.sh"

register_source acme-erp --start-date 2026-11-28 --deadline 09:00
day1=$(sample "$WORK/d1" 2026-11-28)
day2=$(sample "$WORK/d2" 2026-11-29)
day4=$(sample "$WORK/d4" 2026-12-01)

# Day 1 publishes after a failed try (the manifest was off); the failure
# must not show as the published batch's last error.
load --source acme-erp --business-date 2026-11-28 --input "$day1" --expect-count 20 --expect-total 4200.00
expect_rc 0
sed -i 's/"control_total":"4200.00"/"control_total":"4200.01"/; s/"control_total": "4200.00"/"control_total": "4200.01"/' "$day2.manifest.json"
load --source acme-erp --business-date 2026-11-29 --input "$day2"
expect_rc 65
q2=$(q "select batch_id from ingest.batch where business_date = '2026-11-29'")
load --source acme-erp --business-date 2026-12-01 --input "$day4"
expect_rc 75
run invoice_loader status --format prometheus
expect_rc 0
cp "$WORK/out" "$WORK/quarantined.prom"  # day 2 quarantined, its date not published

run invoice_loader status --batch 999
expect_rc 78
expect_output_has "no batch 999"
run invoice_operator status --source nope
expect_rc 78
expect_output_has "unknown source nope"

json() { run invoice_loader status --format json "$@"; expect_rc 0; cat "$WORK/out"; }
jq_py() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }

expect_eq "published batch has no last_error" None \
  "$(json --state published | jq_py "d['batches'][0]['last_error']")"
expect_eq "--state quarantined" "$q2" \
  "$(json --state quarantined | jq_py "','.join(str(b['batch_id']) for b in d['batches'])")"
expect_eq "--since 2026-11-29" "2026-12-01,2026-11-29" \
  "$(json --since 2026-11-29 | jq_py "','.join(b['business_date'] for b in d['batches'])")"
expect_eq "--limit 1" 1 "$(json --limit 1 | jq_py "len(d['batches'])")"
expect_eq "the quarantined batch's last_error" reconcile.control_total \
  "$(json --batch "$q2" | jq_py "'reconcile.control_total' if 'reconcile.control_total' in d['batches'][0]['last_error'] else d['batches'][0]['last_error']")"

run invoice_loader status
expect_rc 0
expect_output_has "Next actions"
expect_output_has "invoice-loader replay --batch $q2 --reason TEXT"
run invoice_loader status --source acme-erp --state validated --format json
expect_rc 0

# Once day 2 is replaced by a good file, day 4 waits for 2026-11-30.
good2=$(sample "$WORK/g2" 2026-11-29)
sed -i 's/4200.00/4200.00/' "$good2.manifest.json"
printf '\n' >>"$good2"  # other bytes than the quarantined file (a trailing blank line)
load --source acme-erp --business-date 2026-11-29 --input "$good2" --expect-count 20 --expect-total 4200.00
expect_rc 0
# A rerun of it does nothing, and is not the last load status reports.
load --source acme-erp --business-date 2026-11-29 --input "$good2" --expect-count 20 --expect-total 4200.00
expect_rc 0
expect_output_has "already published"
expect_eq "the last load is the one that published" published \
  "$(json --source acme-erp | jq_py "d['sources'][0]['last_load']['outcome']")"
run invoice_loader status --source acme-erp
expect_output_has "waits for 2026-11-30"
expect_output_has "catch-up --source acme-erp"

# A sweep ran (its metrics appear), then the Prometheus textfile format,
# checked line by line.
psql -X -q -v ON_ERROR_STOP=1 -d "$E2E_DB" -c "CALL ingest.sweep()"
expect_eq "day 4 still waits for 2026-11-30 after the sweep" validated \
  "$(q "select state from ingest.batch where business_date = '2026-12-01'")"
run invoice_loader status --format prometheus
expect_rc 0
python3 - "$WORK/out" "$REPO/docs/reference/metrics.md" <<'PY' || fail "status --format prometheus is not valid textfile format"
import re, sys
name = r'[a-zA-Z_:][a-zA-Z0-9_:]*'
sample = re.compile(r'^(' + name + r')(\{(' + name + r'="(?:[^"\\]|\\.)*")(,' + name +
                    r'="(?:[^"\\]|\\.)*")*\})? (-?[0-9.e+]+|NaN)$')
helped, typed, seen = set(), set(), {}
for line in open(sys.argv[1]).read().splitlines():
    if line.startswith('# HELP '):
        helped.add(line.split()[2]); continue
    if line.startswith('# TYPE '):
        parts = line.split(); assert parts[3] in ('gauge', 'counter'), line
        typed.add(parts[2]); continue
    m = sample.match(line)
    assert m, 'bad line: ' + line
    assert m.group(1) in helped and m.group(1) in typed, 'no HELP/TYPE before ' + line
    seen[line.rsplit(' ', 1)[0]] = float(line.rsplit(' ', 1)[1])
def v(key): return seen[key]
assert v('invoice_loader_batches{source="acme-erp",state="published"}') == 2, seen
# the quarantined day 2 was replaced by a good file: nothing is left to do
# for it, so it is not counted (the batch itself stays quarantined)
assert v('invoice_loader_batches{source="acme-erp",state="quarantined"}') == 0, seen
assert v('invoice_loader_up') == 1, seen
assert v('invoice_loader_last_publication_gross{source="acme-erp",currency="EUR"}') == 4200, seen
assert v('invoice_loader_last_attempt_outcome{source="acme-erp",outcome="published"}') == 1, seen
import time
assert abs(v('invoice_loader_last_success_timestamp_seconds{source="acme-erp"}') - time.time()) < 600, seen
assert not any(k.startswith('invoice_loader_watermark_age') for k in seen), 'a frozen age gauge'
assert v('invoice_loader_batches{source="acme-erp",state="validated"}') == 1, seen
import calendar
assert v('invoice_loader_watermark_timestamp_seconds{source="acme-erp"}') == \
    calendar.timegm((2026, 11, 29, 0, 0, 0)), seen
assert v('invoice_loader_notifications{source="acme-erp",state="pending"}') >= 2, seen
assert v('invoice_loader_last_load_records{source="acme-erp"}') == 20, seen
assert v('invoice_loader_sweep_last_run_failed') == 0, seen
assert abs(v('invoice_loader_sweep_last_success_timestamp_seconds') - time.time()) < 600, seen
assert v('invoice_loader_sweep_last_run_timestamp_seconds') >= \
    v('invoice_loader_sweep_last_success_timestamp_seconds'), seen
# every family the reference lists is written, and no other
documented = set(re.findall(r'^\| `(invoice_loader_[a-z_]+)`', open(sys.argv[2]).read(), re.M))
written = {k.split('{')[0] for k in seen}
assert written == documented, (sorted(written - documented), sorted(documented - written))
# watermark 2026-11-29: 2026-11-30 is due on 2026-12-01 at 09:00 UTC
assert v('invoice_loader_next_deadline_timestamp_seconds{source="acme-erp"}') == \
    calendar.timegm((2026, 12, 1, 9, 0, 0)), seen
PY
cp "$WORK/out" "$WORK/healthy.prom"
expect_eq "the quarantined batch stays quarantined" quarantined \
  "$(q "select state from ingest.batch where batch_id = $q2")"

# An e-mail whose outcome is unknown (as the SMTP dispatcher leaves it when
# the connection drops after DATA): the notification is in doubt.
q "update ingest.outbox set state = 'in_doubt', in_doubt_at = now()
   where notification_id = (select min(notification_id) from ingest.outbox)" >/dev/null
run invoice_loader status --format prometheus
expect_rc 0
grep -q '^invoice_loader_notifications{source="acme-erp",state="in_doubt"} 1$' "$WORK/out" ||
  fail "the in-doubt notification is not counted"
cp "$WORK/out" "$WORK/in_doubt.prom"
if command -v promtool >/dev/null; then
  promtool check metrics <"$WORK/out" || fail "promtool check metrics refuses the exposition"
fi

# The database out of reach: still a valid exposition, saying so, and the
# exit code of an unreachable database.
set +e
"$INVOICE_LOADER" --dsn "host=$WORK port=1 dbname=$E2E_DB user=invoice_loader connect_timeout=2" \
  status --format prometheus >"$WORK/out" 2>"$WORK/err"
RC=$?
set -e
expect_rc 75
expect_eq "the exposition when the database is away" \
  "# HELP invoice_loader_up Whether status could read the database (0: unreachable or the login refused).|# TYPE invoice_loader_up gauge|invoice_loader_up 0" \
  "$(paste -sd'|' "$WORK/out")"
if command -v promtool >/dev/null; then
  promtool check metrics <"$WORK/out" || fail "promtool check metrics refuses the down exposition"
fi
cp "$WORK/out" "$WORK/down.prom"

# The shipped alerting rules against these four expositions, with
# promtool (Debian's prometheus package): each file's samples held for
# 30 minutes, timestamps shifted so that the test's time 0 is now.  The
# quarantine fires only while its date is unpublished, the late watermark
# (2026-11-29, days ago) and the missed deadline in both files that have
# one, the outage only in the last; the sweep's in the second and third,
# where the last sweep succeeded 20 minutes before the evaluation; the
# notification in doubt in the third; nothing else fires.
if command -v promtool >/dev/null; then
  python3 - "$WORK" "$REPO/packaging/prometheus/invoice-loader.rules.yml" <<'PY' >"$WORK/rules_test.yml"
import json, os, sys, time
sys.path.insert(0, os.path.join(os.environ["REPO"], "tests", "tools"))
from prom_series import series
work, rules = sys.argv[1:3]
now = time.time()
late = {"exp_labels": {"severity": "page", "source": "acme-erp"},
        "exp_annotations": {"summary": "acme-erp: no business date has published since the watermark's; invoice-loader status --source acme-erp"}}
quarantined = {"exp_labels": {"severity": "ticket", "source": "acme-erp", "state": "quarantined"},
               "exp_annotations": {"summary": "acme-erp: a batch is quarantined and its date has not published; invoice-loader status --source acme-erp --state quarantined"}}
down = {"exp_labels": {"severity": "page"},
        "exp_annotations": {"summary": "invoice-loader status cannot read the database"}}
doubt = {"exp_labels": {"severity": "ticket", "source": "acme-erp", "state": "in_doubt"},
         "exp_annotations": {"summary": "acme-erp: a notification is in doubt; the runbook's section 8 resolves it"}}
sweep = {"exp_labels": {"severity": "ticket"},
         "exp_annotations": {"summary": "the invoice-loader sweep has not succeeded lately; invoice-loader status shows its last run, pg_cron's cron.job_run_details why"}}
deadline = {"exp_labels": {"severity": "page", "source": "acme-erp"},
            "exp_annotations": {"summary": "acme-erp: the next business date is past its deadline and not published; invoice-loader status --source acme-erp"}}
expect = {"quarantined.prom": {"InvoiceWatermarkLate": [late], "InvoiceQuarantined": [quarantined],
                               "InvoiceDeadlineMissed": [deadline]},
          "healthy.prom": {"InvoiceWatermarkLate": [late], "InvoiceDeadlineMissed": [deadline],
                           "InvoiceSweepFailing": [sweep]},
          "in_doubt.prom": {"InvoiceWatermarkLate": [late], "InvoiceDeadlineMissed": [deadline],
                            "InvoiceSweepFailing": [sweep], "InvoiceNotificationInDoubt": [doubt]},
          "down.prom": {"InvoiceLoaderDown": [down]}}
tests = []
for name, fired in expect.items():
    tests.append({"name": name, "interval": "1m", "input_series": series(f"{work}/{name}", now),
                  "alert_rule_test": [{"eval_time": "20m", "alertname": a, "exp_alerts": fired.get(a, [])}
                                      for a in ("InvoiceWatermarkLate", "InvoiceQuarantined",
                                                "InvoiceNotificationInDoubt", "InvoiceLoaderDown",
                                                "InvoiceDeadlineMissed", "InvoiceSweepFailing")]})
print(json.dumps({"rule_files": [rules], "evaluation_interval": "1m", "tests": tests}, indent=1))
PY
  promtool check rules "$REPO/packaging/prometheus/invoice-loader.rules.yml" >/dev/null \
    || fail "promtool check rules refuses the shipped rules"
  promtool test rules "$WORK/rules_test.yml" >"$WORK/promtool.out" 2>&1 \
    || { cat "$WORK/promtool.out"; fail "the shipped alerts do not fire as they should"; }
fi
