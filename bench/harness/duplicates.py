"""Duplicate-heavy files: how validation scales with identical duplicate
records (48,000 records once took 2.6 s and the same plus 2,000 identical
repeats 65-122 s). Ported from bench/duplicates/run.sh of the
branch sqlhard (commit b396abe), same method:

- the files come from scripts/gen-invoices.sh --repeats R (after LINES - R
  records, R byte-identical repeats of records 1, 2, ...; the manifest
  counts and totals every line), in DATA_DIR/duplicates/l<LINES>/;
- each load is the source's second business date: a 1,000-record file for
  the day before is published first, then the staging tables are vacuumed
  and analyzed, as autovacuum does after a publication empties them (the
  state the slowness was found in; a fresh database never analyzed does not
  show it). Here that state is a template, bench_tpl_dup, and every load
  goes into a fresh copy of it (FILE_COPY keeps the statistics);
- a load over the cap is stopped (timeout; its backend terminated) and its
  row says so; the step times are the database's own.

Cases: plain (no repeats), dup4 (4%: 48,000 + 2,000 at 50,000 lines, the
issue's case), dup5 (5%), dup50 (half the lines repeat the other half).
bench/run.py load measures plain, dup5 and dup50 in every repetition;
bench/run.py duplicates [CASE...] runs them alone and prints run.sh's
table.
"""

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from harness.common import (BATCH_DATE, REPO, SOURCE, Failure, cached_file,
                            default_json, drop_db, fresh_db, inside_env,
                            loader_path, loadavg, machine, machine_lines,
                            note, psql, rounded, rss_floor, run_quietly,
                            step_times, timed, utc_now, write_json)

BEFORE = "2026-11-27"  # the warm-up batch's date, the source's first
CASES = ("plain", "dup4", "dup5", "dup50")
IN_LOAD = ("plain", "dup5", "dup50")  # the cases bench/run.py load measures
TEMPLATE = "bench_tpl_dup"
GEN = REPO / "scripts" / "gen-invoices.sh"


def repeats_of(case, lines):
    return {"plain": 0, "dup4": lines * 4 // 100, "dup5": lines * 5 // 100,
            "dup50": lines // 2}[case]


def case_label(case):
    return {"plain": "no repeats", "dup4": "4% identical repeats",
            "dup5": "5% identical repeats",
            "dup50": "50% identical repeats"}[case]


def lines_label(n):
    if n % 1000000 == 0:
        return f"{n // 1000000}M"
    if n % 1000 == 0:
        return f"{n // 1000}k"
    return str(n)


def unsupported():
    """Why the duplicate-heavy files cannot be made here, or None."""
    done = subprocess.run([str(GEN), "--help"], capture_output=True,
                          text=True, check=False)
    if "--repeats" not in done.stdout + done.stderr:
        return "scripts/gen-invoices.sh has no --repeats"
    return None


class Duplicates:
    """The files, the template and one measurement per (case, rep)."""

    def __init__(self, loader, data_dir, lines, cap, cases, work):
        self.loader, self.lines, self.cap = loader, lines, cap
        self.cases, self.work = list(cases), work
        self.dir = Path(data_dir) / "duplicates" / f"l{lines}"
        self.files = {}
        self.measurements = []
        self.missing = unsupported()
        self.timeout = shutil.which("timeout")

    def prepare(self):
        """The files and the template; nothing when --repeats is missing."""
        if self.missing:
            note(f"duplicate-heavy files skipped: {self.missing}")
            return

        def gen(date, repeats):
            def command(d, count):
                return [str(GEN), "--source", SOURCE] + (
                    ["--repeats", str(repeats)] if repeats else []) + [
                        str(d), date, str(count - repeats)]
            return command

        warm = cached_file(self.dir, f"{SOURCE}_{BEFORE}.csv", 1000,
                           gen(BEFORE, 0))
        for case in self.cases:
            r = repeats_of(case, self.lines)
            name = f"{SOURCE}_{BATCH_DATE}" + (f"_dup{r}" if r else "")
            self.files[case] = {"case": case, "repeats": r, **cached_file(
                self.dir, name + ".csv", self.lines, gen(BATCH_DATE, r))}
        note(f"template database {TEMPLATE}: {BEFORE} published, staging "
             "vacuumed and analyzed empty")
        fresh_db(TEMPLATE, "template1")
        run_quietly([self.loader, "-q", "--dsn", f"dbname={TEMPLATE}",
                     "migrate"], f"migrate of {TEMPLATE}")
        run_quietly([self.loader, "-q", "--dsn",
                     f"dbname={TEMPLATE} user=invoice_operator", "source",
                     "add", SOURCE, "--start-date", BEFORE],
                    f"source add in {TEMPLATE}")
        run_quietly([self.loader, "-q", "--dsn",
                     f"dbname={TEMPLATE} user=invoice_loader", "load",
                     "--source", SOURCE, "--business-date", BEFORE,
                     "--input", str(warm["csv"])],
                    f"the warm-up load into {TEMPLATE}")
        psql(TEMPLATE, "duplicates/vacuum_staging.sql")

    def measure(self, case, rep):
        """One load of CASE's file into a fresh copy of the template, under
        the cap; Failure unless it publishes or is stopped by the cap."""
        if self.missing:
            return
        f, db = self.files[case], "bench_dup"
        fresh_db(db, TEMPLATE)
        cmd = [self.loader, "--dsn", f"dbname={db} user=invoice_loader",
               "-q", "load", "--source", SOURCE, "--business-date",
               BATCH_DATE, "--input", str(f["csv"])]
        child = timed("dup", [self.timeout, str(self.cap)] + cmd, self.work)
        m = {"case": case, "lines": self.lines, "repeats": f["repeats"],
             "rep": rep, "wall_ns": child.wall_ns,
             "wall_ms": round(child.wall_ms, 3), "rss_kb": child.rss_kb,
             "exit": child.rc, "stopped": child.rc == 124}
        if child.rc == 124:
            # the loader is gone; its backend may still be validating
            psql("postgres", "duplicates/terminate.sql", db=db)
            self.measurements.append(m)
            note(f"rep {rep}, {case}: stopped after {self.cap} s")
            return
        t = step_times(db, f["sha256"])
        if child.rc != 0 or not t or t["state"] != "published":
            sys.stderr.write(child.output())
            raise Failure(f"the {case} load of {f['csv']} did not publish: "
                          f"exit {child.rc}, state "
                          f"'{(t or {}).get('state') or 'none'}'")
        m.update({k: t[k] for k in ("batch_id", "copy_ms", "validate_ms",
                                    "publish_ms", "attempt_ms")})
        self.measurements.append(m)
        note(f"rep {rep}, {case} ({self.lines} lines, {f['repeats']} "
             f"repeats): load {rounded(child.wall_ms)} ms, validation "
             f"{t['validate_ms']} ms")
        drop_db(db)

    # ------------------------------------------------------------ rows
    def rows(self, section):
        """Rows for bench/run.py load's table: per case, the load and its
        validation, the repeats' ratio to the plain file of the same run."""
        if self.missing:
            cells = ["duplicate-heavy files (5%, 50% identical repeats): "
                     f"{self.missing}", "skipped", "", "", "", "", "", "",
                     "skipped"]
            return [((section, 0, 0), cells, {"figure": cells[0],
                                              "met": "skipped",
                                              "missing": self.missing})]
        out = []
        for i, case in enumerate(self.cases):
            for order, figure, metric in (
                    (1, "load, file to published", "wall_ms"),
                    (2, "validation (staged->validated)", "validate_ms")):
                label = (f"{figure}, {lines_label(self.lines)} lines, "
                         f"{case_label(case)}")
                ms = [m for m in self.measurements if m["case"] == case]
                if not ms:
                    continue
                if any(m["stopped"] for m in ms):
                    cells = [label, f"> {self.cap} s (stopped)", "", "", "",
                             "", "", "", ""]
                    out.append(((section, i, order), cells,
                                {"figure": label, "case": case,
                                 "metric": metric, "stopped": True}))
                    continue
                xs = [m[metric] for m in ms]
                med = statistics.median(xs)
                base = ratio = None
                plain = [m[metric] for m in self.measurements
                         if m["case"] == "plain" and not m["stopped"]]
                if case != "plain" and plain:
                    base = statistics.median(plain)
                    ratio = med / base if base else None
                cells = [label, rounded(med) + " ms", rounded(min(xs)) +
                         " ms", rounded(max(xs)) + " ms",
                         "the same, no repeats" if base is not None else "",
                         rounded(base) + " ms" if base is not None else "",
                         rounded(ratio, 2) + "x" if ratio is not None else "",
                         "", ""]
                out.append(((section, i, order), cells, {
                    "figure": label, "case": case, "metric": metric,
                    "median": med, "min": min(xs), "max": max(xs),
                    "baseline_median": base, "ratio": ratio}))
        return out

    def repetition_rows(self):
        """Lines for the every-repetition table."""
        out = []
        for m in sorted(self.measurements, key=lambda m: (
                self.cases.index(m["case"]), m["rep"])):
            out.append([str(m["rep"]), f"{m['lines']} ({m['case']})",
                        "load" + (" (stopped)" if m["stopped"] else ""),
                        rounded(m["wall_ms"]), str(m["rss_kb"])] + [
                            rounded(m[k]) if m.get(k) is not None else ""
                            for k in ("copy_ms", "validate_ms", "publish_ms",
                                      "attempt_ms")])
        return out


def run(args):
    """bench/run.py duplicates: run.sh's table, one line per case and
    repetition; writes the JSON; 0, or 70 when a load did not publish."""
    started, load_at_start = utc_now(), loadavg()
    os.environ.update(inside_env())
    work = Path(tempfile.mkdtemp(prefix="bench-duplicates."))
    try:
        d = Duplicates(loader_path(), args.data_dir, args.lines, args.cap,
                       args.cases or CASES, work)
        if d.missing:
            raise Failure(d.missing)
        floor = rss_floor()
        d.prepare()
        for rep in range(1, args.reps + 1):
            for case in d.cases:
                d.measure(case, rep)
        facts = machine()
        out = [""] + machine_lines(facts, load_at_start, loadavg()) + [
            "", "| file | records | identical repeats | COPY ms | "
            "validation ms | publication ms | attempt ms |",
            "|---|---|---|---|---|---|---|"]
        for m in d.measurements:
            n = m["lines"] - m["repeats"]
            if m["stopped"]:
                out.append(f"| {m['case']} | {n} | {m['repeats']} | | "
                           f"> {args.cap} s (stopped) | | |")
            else:
                out.append(f"| {m['case']} | {n} | {m['repeats']} | " +
                           " | ".join(rounded(m[k]) for k in (
                               "copy_ms", "validate_ms", "publish_ms",
                               "attempt_ms")) + " |")
        print("\n".join(out), flush=True)
        write_json(args.json or default_json(args.data_dir, "duplicates"), {
            "benchmark": "duplicates", "started_at": started,
            "finished_at": utc_now(), "argv": sys.argv[1:],
            "options": {"lines": args.lines, "cap": args.cap,
                        "reps": args.reps, "cases": d.cases},
            "machine": facts, "rss_floor_kb": floor,
            "load_average": {"start": load_at_start, "end": loadavg()},
            "files": [{k: (str(v) if isinstance(v, Path) else v)
                       for k, v in f.items()} for f in d.files.values()],
            "measurements": d.measurements})
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)
