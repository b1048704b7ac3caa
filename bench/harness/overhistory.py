"""Loads over a long history (the over-history and reads rows): the
big file's size of invoices, 6% of them amendments and 3% voids of the
history's most recent keys, 91% new, loaded into a copy of a template that
holds --history-size versions; against psql \\copy of the same file; then
reading reporting.invoice over that history.

- The history is built once per run into the template bench_tpl_hist
  (harness/history.py, bench/publish/history.sql: the publish benchmark's
  layout), untimed; every repetition loads into a fresh copy of it
  (CREATE DATABASE ... TEMPLATE, after which timed() checkpoints).
- The file: the first 91% are scripts/gen-invoices.sh's records for
  BATCH_DATE (new keys: the history ends the day before), then the amended
  and voided records, read from the template itself by
  bench/history/amendments.sql: the most recent current keys at their
  revision + 1. Reading them from the history, rather than recomputing
  history.sql's numbering in a generator, keeps one definition of the keys;
  it costs one indexed query per run. The manifest (record_count,
  control_total, sha256) is computed here over the written bytes.
- The same amended and voided records alone (the file's tail under its
  header, with a manifest of its own) are loaded into another fresh copy
  after each default-settings load: what the 9% cost that a file of new
  invoices does not (docs/PERFORMANCE.md, "Where the time goes");
  shown, no target.
- After every load: the batch is published, merge_counts says inserted,
  amended and voided exactly as the file was built, and reporting.invoice
  shows its new and amended invoices (a load that quarantined or merged
  something else is a failure, not a figure).
- The reads run after the last default-settings repetition, on its
  database, as invoice_reader through psql (client-timed, \\timing): the
  full count and sum of reporting.invoice --reads times, and --lookups
  lookups of one invoice by key (a prepared statement, keys sampled by
  bench/history/sample_keys.sql), reported per lookup.
"""

import csv as csvmod
import hashlib
import json
import re
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

from harness import history
from harness.common import (BATCH_DATE, BENCH, REPO, SOURCE, Failure,
                            cached_file, drop_db, fresh_db, note, psql,
                            rounded, step_times, timed, value)
from harness.load_report import LOAD_METRICS
from harness.rows import row, skipped

TEMPLATE = "bench_tpl_hist"
AMENDED_PCT, VOIDED_PCT = 6, 3
TIME = re.compile(r"^Time: ([0-9.]+) ms")
FULL_READ = "select count(*), sum(gross_amount) from reporting.invoice;"


def with_manifest(role, csv, records, total, sha256):
    """Write CSV's manifest (RECORDS, control TOTAL, SHA256) next to it;
    the file as the load benchmark describes its files, in ROLE."""
    manifest = Path(str(csv) + ".manifest.json")
    manifest.write_text(json.dumps({
        "source": SOURCE, "business_date": BATCH_DATE,
        "record_count": records, "control_total": str(total),
        "sha256": sha256}) + "\n")
    return {"role": role, "csv": csv, "manifest": manifest,
            "records": records, "sha256": sha256,
            "bytes": csv.stat().st_size}


def label(n):
    if n % 1000000 == 0:
        return f"{n // 1000000}M"
    if n % 1000 == 0:
        return f"{n // 1000}k"
    return str(n)


class OverHistory:
    """The template, the file, and the loads, \\copy and reads over it;
    the measurements go into the load benchmark's list (roles hist and
    hist_tuned), so its every-repetition table shows them."""

    def __init__(self, bench, versions, records, lookups, reads, why_not):
        self.b, self.versions, self.records = bench, versions, records
        self.lookups, self.reads_n = lookups, reads
        self.missing = why_not  # why the rows are skipped, or None
        self.amended = records * AMENDED_PCT // 100
        self.voided = records * VOIDED_PCT // 100
        self.new = records - self.amended - self.voided
        self.file = self.amend_file = self.facts = None
        self.reads = {}

    # ------------------------------------------------------------ setup
    def prepare(self):
        if self.missing:
            note(f"over-history rows skipped: {self.missing}")
            return
        note(f"template {TEMPLATE}: {self.versions} versions of history")
        self.facts = history.build(self.b.loader, TEMPLATE, self.versions)
        self.file = self.make_file()

    def make_file(self):
        data = Path(self.b.args.data_dir) / "over-history"

        def gen(d, count):
            return [str(REPO / "scripts" / "gen-invoices.sh"), "--source",
                    SOURCE, str(d), BATCH_DATE, str(count)]

        new = cached_file(data / f"new{self.new}",
                          f"{SOURCE}_{BATCH_DATE}.csv", self.new, gen)
        tail = self.b.work / "amendments.csv"
        with open(tail, "wb") as out:
            done = subprocess.run(
                ["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", TEMPLATE,
                 "-v", f"source={SOURCE}", "-v", f"amended={self.amended}",
                 "-v", f"voided={self.voided}", "-f",
                 str(BENCH / "history" / "amendments.sql")],
                stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.PIPE,
                check=False)
        if done.returncode != 0:
            raise Failure("bench/history/amendments.sql failed: " +
                          done.stderr.decode(errors="replace"))
        with open(tail, newline="", encoding="utf-8") as fh:
            recs = list(csvmod.reader(fh))
        statuses = [r[2] for r in recs]
        if (statuses.count("ISSUED"), statuses.count("VOID")) != (
                self.amended, self.voided):
            raise Failure(f"the history of {TEMPLATE} has too few current "
                          f"keys for {self.amended} amendments and "
                          f"{self.voided} voids")
        total = Decimal(json.loads(new["manifest"].read_text())[
            "control_total"]) + sum(Decimal(r[10]) for r in recs)
        out_dir = data / f"h{self.versions}-n{self.records}"
        out_dir.mkdir(parents=True, exist_ok=True)
        csv = out_dir / f"{SOURCE}_{BATCH_DATE}.csv"
        digest = hashlib.sha256()
        with open(csv, "wb") as out:
            for part in (new["csv"], tail):
                with open(part, "rb") as fh:
                    while chunk := fh.read(1 << 20):
                        digest.update(chunk)
                        out.write(chunk)
        note(f"{csv}: {self.new} new, {self.amended} amended, "
             f"{self.voided} voided invoices")
        self.amend_file = self.amendments_file(data, new["csv"], tail, recs)
        return with_manifest("hist", csv, self.records, total,
                             digest.hexdigest())

    def amendments_file(self, data, new_csv, tail, recs):
        """The amended and voided records (TAIL, read as RECS) alone under
        the header of NEW_CSV, with their manifest."""
        with open(new_csv, "rb") as fh:
            header = fh.readline()
        out_dir = data / f"h{self.versions}-a{len(recs)}"
        out_dir.mkdir(parents=True, exist_ok=True)
        csv = out_dir / f"{SOURCE}_{BATCH_DATE}.csv"
        body = header + tail.read_bytes()
        csv.write_bytes(body)
        return with_manifest("hist_amend", csv, len(recs),
                             sum(Decimal(r[10]) for r in recs),
                             hashlib.sha256(body).hexdigest())

    # ------------------------------------------------------------ measuring
    def measure(self, rep, role="hist", keep=False):
        """One load into a fresh copy of the template, checked, then \\copy
        of the same file (the load benchmark's own). KEEP: leave the
        loaded database for the reads (self.read_back)."""
        if self.missing:
            return
        f, db = dict(self.file, role=role), "bench_hist"
        fresh_db(db, TEMPLATE)
        b = self.b
        child, t, counts = self.load_checked(db, "load")
        b.record(f, rep, "load", child, batch_id=t["batch_id"],
                 merge_counts=counts, **{k: t[k] for k in LOAD_METRICS})
        note(f"rep {rep}, {self.records} invoices over {self.versions} "
             f"versions ({role}): load {rounded(child.wall_ms)} ms (COPY "
             f"{t['copy_ms']}, validation {t['validate_ms']}, publication "
             f"{t['publish_ms']})")
        if keep:
            self.read_back(db)
        drop_db(db)
        b.measure_copy(f, rep)
        if role == "hist":
            self.measure_amendments(rep)

    def measure_amendments(self, rep):
        """The amended and voided records alone, into a fresh copy."""
        f, db = self.amend_file, "bench_hist"
        fresh_db(db, TEMPLATE)
        child, t, counts = self.load_checked(
            db, "load_amend", f, {"inserted": 0, "amended": self.amended,
                                  "voided": self.voided}, self.amended)
        self.b.record(f, rep, "load", child, batch_id=t["batch_id"],
                      merge_counts=counts,
                      **{k: t[k] for k in LOAD_METRICS})
        note(f"rep {rep}, the {f['records']} amended and voided invoices "
             f"alone over {self.versions} versions: load "
             f"{rounded(child.wall_ms)} ms (COPY {t['copy_ms']}, validation "
             f"{t['validate_ms']}, publication {t['publish_ms']})")
        drop_db(db)

    def load_checked(self, db, name, f=None, want=None, visible=None):
        """The loader on the over-history file (or F, expected to merge as
        WANT says and show VISIBLE invoices) into DB (a fresh copy of the
        template), timed as NAME; (child, step times, merge_counts), or
        Failure unless it published exactly what the file was built for."""
        f, b = f or self.file, self.b
        child = timed(name, [
            b.loader, "--dsn", f"dbname={db} user=invoice_loader", "load",
            "--source", SOURCE, "--business-date", BATCH_DATE, "--input",
            str(f["csv"]), "--manifest", str(f["manifest"])], b.work)
        t = step_times(db, f["sha256"]) or {"batch_id": 0, "state": None}
        counts = {}
        if t["state"] == "published":
            counts = json.loads(value(db, "history/merge_counts.sql",
                                      batch_id=t["batch_id"]) or "{}")
        want = want or {"inserted": self.new, "amended": self.amended,
                        "voided": self.voided}
        visible = self.new + self.amended if visible is None else visible
        got = {k: counts.get(k) for k in want}
        shown = int(value(db, "report/published_invoices.sql",
                          batch_id=t["batch_id"]))
        if child.rc != 0 or t["state"] != "published" or got != want or \
                shown != visible:
            sys.stderr.write(child.output())
            raise Failure(
                f"the load of {f['csv']} over {self.versions} versions did "
                f"not do what the file was built for: exit {child.rc}, state "
                f"'{t['state'] or 'none'}', merge_counts {got} (want {want}),"
                f" {shown} invoices in reporting.invoice (want "
                f"{visible})")
        return child, t, counts

    def timed_psql(self, db, name, lines):
        """Run LINES as a psql script in DB as invoice_reader with \\timing
        on; (the client's times in ms, the other output lines)."""
        script = self.b.work / f"{name}.sql"
        script.write_text("\n".join(["\\timing on"] + lines) + "\n")
        done = subprocess.run(
            ["psql", "-X", "-qAt", "-v", "ON_ERROR_STOP=1", "-d",
             f"dbname={db} user=invoice_reader", "-f", str(script)],
            stdin=subprocess.DEVNULL, capture_output=True, text=True,
            check=False)
        if done.returncode != 0:
            raise Failure(f"the {name} reads in {db} failed: {done.stderr}")
        times, other = [], []
        for line in done.stdout.splitlines():
            m = TIME.match(line)
            (times.append(float(m.group(1))) if m else other.append(line))
        return times, other

    def read_back(self, db):
        """Row 9: the full count and sum, and lookups by key, over the
        history the last load left."""
        full, out = self.timed_psql(db, "full", [FULL_READ] * self.reads_n)
        keys = [r[0] for r in psql(db, "history/sample_keys.sql",
                                   source=SOURCE, n=self.lookups)]
        lines = ["prepare one(text, text) as select * from reporting.invoice"
                 " where source = $1 and invoice_number = $2;"]
        lines += [f"execute one('{SOURCE}', '{k}');" for k in keys]
        times, found = self.timed_psql(db, "lookup", lines)
        if len(full) != self.reads_n or len(found) != len(keys) or \
                len(times) != len(keys) + 1:
            raise Failure(f"the reads in {db}: {len(full)} full reads, "
                          f"{len(found)} of {len(keys)} keys found")
        self.reads = {"versions": self.facts["versions"] + self.records,
                      "current_invoices": int(out[0].split("|")[0]),
                      "full_ms": full, "lookup_ms": times[1:],
                      "lookups": len(keys)}
        note(f"reads over {self.reads['versions']} versions: full "
             f"{rounded(min(full))}-{rounded(max(full))} ms, lookup median "
             f"{rounded(sorted(times[1:])[len(keys) // 2], 3)} ms")

    # ------------------------------------------------------------ rows
    def xs(self, role, tool, metric="wall_ms", records=None):
        return [m[metric] for m in self.b.measurements
                if m["role"] == role and m["tool"] == tool and
                (records is None or m["records"] == records) and
                m.get(metric) is not None]

    def what(self):
        return (f"{label(self.records)} invoices over {label(self.versions)}"
                f" versions ({AMENDED_PCT}% amended, {VOIDED_PCT}% voided)")

    def rows(self, big_records):
        """Rows 2 and 9 (section 2, after the publish benchmark's row)."""
        if self.missing:
            return [skipped((2, 1, 0), "load over a history, and reading "
                            "reporting.invoice over it", self.missing)]
        out = [row((2, 1, 1), f"load, file to published, {self.what()}",
                   self.xs("hist", "load"), "psql \\copy, the same file",
                   self.xs("hist", "psql_copy"), target=10)]
        if self.records == big_records:
            out.append(row(
                (2, 1, 2), f"load over {label(self.versions)} versions / "
                "load over an empty history (the row 1 file)",
                self.xs("hist", "load"), "load, empty history",
                self.xs("big", "load", records=big_records), stretch=1.5))
        for order, (name, metric) in enumerate((
                ("validation (staged->validated)", "validate_ms"),
                ("publication (validated->published)", "publish_ms")), 3):
            out.append(row((2, 1, order), f"{name}, {self.what()}",
                           self.xs("hist", "load", metric)))
        alone = (f"the {label(self.amended + self.voided)} amended and "
                 f"voided invoices of that file alone, over "
                 f"{label(self.versions)} versions")
        out.append(row((2, 1, 5), f"load, file to published, {alone}",
                       self.xs("hist_amend", "load"),
                       "load of the whole file", self.xs("hist", "load"),
                       shown=True))
        out.append(row((2, 1, 6), f"publication (validated->published), "
                       f"{alone}", self.xs("hist_amend", "load", "publish_ms"),
                       "publication of the whole file",
                       self.xs("hist", "load", "publish_ms"), shown=True))
        r = self.reads
        if r:
            v = label(r["versions"]) if r["versions"] % 1000 == 0 \
                else str(r["versions"])
            out.append(row((2, 2, 1), "reporting.invoice: count(*), "
                           f"sum(gross_amount) over {v} versions (client)",
                           r["full_ms"], shown=True))
            out.append(row((2, 2, 2), "reporting.invoice: one invoice by "
                           f"key, per lookup ({r['lookups']} lookups, "
                           "prepared)", r["lookup_ms"], shown=True,
                           places=3))
        return [x for x in out if x is not None]

    def workload_lines(self):
        if self.missing:
            return [f"over-history rows: skipped ({self.missing})"]
        f = self.facts
        return [f"history (template {TEMPLATE}): {f['versions']} versions "
                f"({f['current']} current, {f['invoices']} invoices), "
                f"{f['batches']} batches, {f['database_size']}, built in "
                f"{f['build_ms'] // 1000} s (not timed)",
                f"over-history file: {self.file['csv']}, {self.records} "
                f"invoices ({self.new} new, {self.amended} amended, "
                f"{self.voided} voided), {self.file['bytes']} bytes; its "
                f"amended and voided invoices alone: "
                f"{self.amend_file['csv']}"]

    def json(self):
        return {"missing": self.missing, "history": self.facts,
                "amended": self.amended, "voided": self.voided,
                "new": self.new,
                "file": {k: str(v) if isinstance(v, Path) else v
                         for k, v in (self.file or {}).items()},
                "amendments_file": {k: str(v) if isinstance(v, Path) else v
                                    for k, v in
                                    (self.amend_file or {}).items()},
                "reads": self.reads}
