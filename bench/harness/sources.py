"""Several sources at once (scripts/bench-sources.sh): a company with many
ERPs runs one loader per source, all in the same night. Do the sources'
loads get in each other's way?

- The files: scripts/gen-invoices.sh, --per-source invoices for each of
  --sources sources (erp-1, erp-2, ...) for BATCH_DATE, and 1,000 for the
  day before (the readers' keys), in DATA_DIR/sources/ (reused:
  deterministic).
- The template bench_tpl_sources: migrated, every source registered from
  the day before, that day's file loaded and published.
- Per repetition, each into a fresh copy of the template:
    sequential  the sources' loads one after the other (the baseline);
    concurrent  all of them at once, one loader process per source.
  Every load must publish all its records (checked in the database).
  While they run, two pgbench clients look up one invoice by key across
  the sources as invoice_reader (bench/sources/lookup.pgbench, a fixed
  rate) and one pgbench client samples pg_stat_activity 20 times a second
  as the superuser (bench/sources/sample_waits.pgbench): every loader
  backend waiting on a lock, with the application names of the backends
  it waits for (each loader has PGAPPNAME bench-<source>), and readers'
  waits as well. A wait between
  two different sources' loaders is what the design says cannot happen:
  publications take a lock per source, staging is partitioned by batch.
- The rows: throughput of both (invoices per second, all sources), the
  concurrent run's wall time against the sequential one, the readers'
  worst lookup in each, and the lock waits seen (between sources, and
  within a source).
Bounded: every load and pgbench run has a time limit.
"""

import datetime
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from harness import history
from harness.common import (BATCH_DATE, BENCH, REPO, Failure, cached_file,
                            default_json, drop_db, fresh_db, inside_env,
                            loader_path, loader_version, loadavg, machine,
                            machine_lines, note, plain_table, psql, rounded,
                            run_quietly, utc_now, write_json)

TEMPLATE = "bench_tpl_sources"
PREVIOUS = (datetime.date.fromisoformat(BATCH_DATE) -
            datetime.timedelta(days=1)).isoformat()
PER_SOURCE_BEFORE = 1000  # the day before: the readers' keys
RATE = 200                # lookups per second, both reader clients together
SAMPLES_PER_S = 20        # pg_stat_activity samples per second
LOAD_LIMIT_S = 1800       # no load of this benchmark may take longer
PGBENCH = "/usr/lib/postgresql/15/bin/pgbench"


def names(count):
    return [f"erp-{i}" for i in range(1, count + 1)]


def kind_of(wait):
    """Who waited for whom: a reader for anything, a loader for another
    source's loader, for its own source's (another process of the same
    source), or for anything else."""
    if not wait["waiter"].startswith("bench-"):
        return "readers"
    if not wait["blocker"].startswith("bench-"):
        return "on other sessions"
    return ("within a source" if wait["blocker"] == wait["waiter"]
            else "between sources")


def generated(source, date):
    def command(d, count):
        return [str(REPO / "scripts" / "gen-invoices.sh"), "--source",
                source, str(d), date, str(count)]
    return command


class Sources:
    def __init__(self, args, loader, work):
        self.args, self.loader, self.work = args, loader, work
        self.sources = names(args.sources)
        self.dir = Path(args.data_dir) / "sources"
        self.files, self.before = {}, {}
        self.measurements = []

    # ------------------------------------------------------------ prepare
    def prepare(self):
        for s in self.sources:
            self.before[s] = cached_file(
                self.dir, f"{s}_{PREVIOUS}.csv", PER_SOURCE_BEFORE,
                generated(s, PREVIOUS))
            self.files[s] = cached_file(
                self.dir / f"n{self.args.per_source}", f"{s}_{BATCH_DATE}.csv",
                self.args.per_source, generated(s, BATCH_DATE))
        note(f"template {TEMPLATE}: {len(self.sources)} sources, "
             f"{PER_SOURCE_BEFORE} invoices each published for {PREVIOUS}")
        fresh_db(TEMPLATE, "template1")
        run_quietly([self.loader, "-q", "--dsn", f"dbname={TEMPLATE}",
                     "migrate"], f"migrate of {TEMPLATE}")
        for s in self.sources:
            run_quietly([self.loader, "-q", "--dsn",
                         f"dbname={TEMPLATE} user=invoice_operator", "source",
                         "add", s, "--start-date", PREVIOUS],
                        f"source add {s}")
            run_quietly(self.load_command(TEMPLATE, s, self.before[s],
                                          PREVIOUS), f"load of {s} {PREVIOUS}")
        psql(TEMPLATE, "sources/keys.sql")
        psql(TEMPLATE, "publish/vacuum.sql")

    def load_command(self, db, source, f, date):
        return [self.loader, "-q", "--dsn",
                f"dbname={db} user=invoice_loader", "load", "--source",
                source, "--business-date", date, "--input", str(f["csv"]),
                "--manifest", str(f["manifest"])]

    # ------------------------------------------------------------ measure
    def start_watchers(self, db, name, seconds):
        """The readers and the lock-wait sampler, for SECONDS at most."""
        prefix = self.work / f"{name}-readers"
        common = [PGBENCH, "-n", "-T", str(seconds)]
        readers = subprocess.Popen(
            common + ["-M", "prepared", "-c", "2", "-j", "2", "-R", str(RATE),
                      "-l", f"--log-prefix={prefix}", "-U", "invoice_reader",
                      "-D", f"nkeys={len(self.sources) * PER_SOURCE_BEFORE}",
                      "-f", str(BENCH / "sources" / "lookup.pgbench"), db],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=open(self.work / f"{name}-readers.err", "wb"))
        sampler = subprocess.Popen(
            common + ["-c", "1", "-R", str(SAMPLES_PER_S), "-f",
                      str(BENCH / "sources" / "sample_waits.pgbench"), db],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=open(self.work / f"{name}-sampler.err", "wb"))
        return prefix, [readers, sampler]

    def run_loads(self, db, concurrent):
        """Every source's load, at once or one after the other; the wall
        time of all of them (ms)."""
        env = dict(os.environ)
        started, children = time.perf_counter_ns(), []
        for s in self.sources:
            env["PGAPPNAME"] = f"bench-{s}"
            out = open(self.work / f"load-{s}.out", "wb")
            child = subprocess.Popen(
                self.load_command(db, s, self.files[s], BATCH_DATE),
                stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                env=env)
            children.append((s, child))
            if not concurrent:
                self.wait(s, child)
        for s, child in children:
            self.wait(s, child)
        return (time.perf_counter_ns() - started) / 1e6

    def wait(self, source, child):
        try:
            rc = child.wait(timeout=LOAD_LIMIT_S)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
            raise Failure(f"the load of {source} took over {LOAD_LIMIT_S} s")
        if rc != 0:
            sys.stderr.write((self.work / f"load-{source}.out").read_text(
                errors="replace"))
            raise Failure(f"the load of {source} exited {rc}")

    def measure(self, rep, mode):
        db = "bench_sources"
        fresh_db(db, TEMPLATE)
        psql("postgres", "db/checkpoint.sql")
        expected = len(self.sources) * self.args.per_source
        # the sampler and readers outlive the loads by a margin; a
        # sequential run takes longer, so the limit is generous
        seconds = max(60, expected // 2000) * 4
        prefix, watchers = self.start_watchers(db, f"{mode}-{rep}", seconds)
        time.sleep(1)  # the watchers connected
        wall_ms = self.run_loads(db, mode == "concurrent")
        for w in watchers:
            w.terminate()
        for w in watchers:
            w.wait(timeout=30)
        published, shown = (int(x) for x in psql(
            db, "sources/published.sql", date=BATCH_DATE)[0])
        if published != len(self.sources) or shown != expected + \
                len(self.sources) * PER_SOURCE_BEFORE:
            raise Failure(f"{mode} rep {rep}: {published} sources published, "
                          f"{shown} invoices shown")
        waits = [tuple(r) for r in psql(db, "sources/waits.sql")]
        lookups = self.lookups(prefix)
        drop_db(db)
        m = {"mode": mode, "rep": rep, "wall_ms": round(wall_ms, 1),
             "invoices": expected,
             "per_s": round(expected / (wall_ms / 1000), 1),
             "lookups": len(lookups),
             "worst_lookup_ms": max(lookups) if lookups else None,
             "waits": [{"waiter": w, "blocker": b, "lock": k, "samples":
                        int(n)} for w, b, k, n in waits]}
        self.measurements.append(m)
        cross = sum(x["samples"] for x in m["waits"]
                    if kind_of(x) == "between sources")
        note(f"rep {rep} {mode}: {rounded(wall_ms)} ms, {m['per_s']} "
             f"invoices/s, worst lookup {ms_or_none(m['worst_lookup_ms'])} "
             f"of {len(lookups)}, lock-wait samples between sources "
             f"{cross}")

    @staticmethod
    def lookups(prefix):
        """Latencies (ms) of every logged lookup."""
        out = []
        for path in prefix.parent.glob(prefix.name + ".*"):
            with open(path, encoding="ascii") as fh:
                # client, number, latency us, script, epoch s, us; the
                # last line may be cut short: pgbench is stopped by a
                # signal once the loads are done
                out += [int(f[2]) / 1000 for f in map(str.split, fh)
                        if len(f) >= 6]
        return out

    # ------------------------------------------------------------ report
    def rows(self):
        def of(mode, key):
            return [m[key] for m in self.measurements if m["mode"] == mode
                    and m[key] is not None]

        n, per = len(self.sources), self.args.per_source
        seq, con = of("sequential", "wall_ms"), of("concurrent", "wall_ms")
        rows = [
            ["all loads, one after the other (baseline)",
             rounded(statistics.median(seq)), rounded(min(seq)),
             rounded(max(seq)), rounded(statistics.median(
                 of("sequential", "per_s")))],
            ["all loads at once, one process per source",
             rounded(statistics.median(con)), rounded(min(con)),
             rounded(max(con)), rounded(statistics.median(
                 of("concurrent", "per_s")))]]
        speedup = statistics.median(seq) / statistics.median(con)
        waits = {}
        for m in self.measurements:
            for w in m["waits"]:
                kind = kind_of(w)
                key = (m["mode"], kind, w["lock"])
                waits[key] = waits.get(key, 0) + w["samples"]
        return rows, speedup, waits, {
            "sources": n, "per_source": per,
            "sequential_median_ms": statistics.median(seq),
            "concurrent_median_ms": statistics.median(con),
            "speedup": speedup,
            "worst_lookup_ms": {mode: max(of(mode, "worst_lookup_ms"),
                                          default=None)
                                for mode in ("sequential", "concurrent")},
            "lock_wait_samples_between_sources": sum(
                v for (_, kind, _), v in waits.items()
                if kind == "between sources")}


def ms_or_none(v):
    """A latency for the report; a run so short that pgbench, stopped by a
    signal, flushed no log line has none to show."""
    return "none logged" if v is None else f"{rounded(v, 1)} ms"


def run(args):
    started, load_at_start = utc_now(), loadavg()
    loader = loader_path()
    os.environ.update(inside_env())
    work = Path(tempfile.mkdtemp(prefix="bench-sources."))
    try:
        return _run(args, loader, work, started, load_at_start)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _run(args, loader, work, started, load_at_start):
    b = Sources(args, loader, work)
    b.prepare()
    for rep in range(1, args.reps + 1):
        # alternating, so that drift on the host hits both
        for mode in (("sequential", "concurrent") if rep % 2 else
                     ("concurrent", "sequential")):
            b.measure(rep, mode)
    rows, speedup, waits, summary = b.rows()
    facts = machine()
    n, per = summary["sources"], summary["per_source"]
    out = [""] + machine_lines(facts, load_at_start, loadavg())
    out += ["== workload",
            f"loader: {loader} ({loader_version(loader)})",
            f"{n} sources x {per} invoices for {BATCH_DATE} (each source "
            f"with {PER_SOURCE_BEFORE} published the day before); "
            f"{args.reps} repetitions of each mode, alternating; readers: 2 "
            f"pgbench clients, {RATE} lookups/s in all",
            "", "== results (ms; medians)"]
    out += plain_table([["figure", "median", "min", "max", "invoices/s"]] +
                       rows)
    out += ["", f"at once / one after the other: {rounded(speedup, 2)}x "
            "the throughput",
            "readers' worst lookup: sequential "
            f"{ms_or_none(summary['worst_lookup_ms']['sequential'])}, "
            "concurrent "
            f"{ms_or_none(summary['worst_lookup_ms']['concurrent'])}",
            "lock waits (samples at "
            f"{SAMPLES_PER_S}/s): " + (", ".join(
                f"{mode}, {kind}, {lock}: {v}"
                for (mode, kind, lock), v in sorted(waits.items()))
                or "none")]
    print("\n".join(out), flush=True)
    write_json(args.json or default_json(args.data_dir, "sources"), {
        "benchmark": "sources", "started_at": started,
        "finished_at": utc_now(), "argv": sys.argv[1:],
        "options": {"sources": n, "per_source": per, "reps": args.reps},
        "machine": facts, "load_average": {"start": load_at_start,
                                           "end": loadavg()},
        "loader": {"path": loader, "version": loader_version(loader)},
        "summary": summary, "measurements": b.measurements})
    return 0
