"""Readers during a publication (the readers' wait and the publishing
transaction's rows): how long consumers wait for reporting.invoice while a
big batch publishes over the history, and how long the publication step takes.

One extra load of the over-history file (harness/overhistory.py) into a
fresh copy of its template, after the timed repetitions and not counted
among them, with pgbench (PostgreSQL's own, from the cluster's bin
directory) running lookups of one invoice by key as invoice_reader the
whole time:

- pgbench -n -M prepared -c 2 -j 2 -R RATE -T SECONDS -l: two clients, a
  fixed total rate (so the readers take a small, constant share of the two
  cores), bounded in time: SECONDS is 1.5 times the slowest timed
  over-history load plus the idle lead and a margin. Its per-transaction
  log (client, number, latency in us, script, epoch s, us, schedule lag)
  gives each lookup's start and end on the machine's clock. The script is
  bench/readers/lookup.pgbench over the keys of bench/readers/keys.sql.
- For the first IDLE_S seconds nothing else runs: those lookups are the
  baseline. Then the load starts; its publication interval is read from
  the batch's checkpoint events (bench/readers/window.sql: validated ->
  published, the server's clock_timestamp(), the same clock).
- "During" are the lookups whose interval overlaps the publication's. The
  row's target is the issue's: the worst of them under 50 ms. If pgbench
  ended before the publication did, the run fails: the window was not
  covered. A publication so short that no lookup fell into it (--smoke)
  gives a skipped row that says so.
- The publication step's own row (validated->published: the analyze, the
  write of the versions, then the publishing transaction) is shown; the
  publishing transaction's (from the end of the write, written_at in the
  published event's detail, to the published event: the write's commit,
  the loader's next statement and the switch) carries the issue's 100 ms
  target.
"""

import glob
import math
import os
import subprocess
import time

from harness.common import (BENCH, SOURCE, Failure, drop_db, fresh_db, note,
                            psql, rounded)
from harness.overhistory import TEMPLATE, label
from harness.rows import row, skipped

IDLE_S = 3          # readers alone before the load starts
RATE = 200          # lookups per second, both clients together
KEYS = 10000        # keys the readers draw from
PGBENCH = "/usr/lib/postgresql/15/bin/pgbench"


class ReadersDuringPublication:
    def __init__(self, bench, over, why_not):
        self.b, self.over = bench, over
        self.missing = why_not or over.missing
        self.result, self.lags = {}, []

    def measure(self):
        if self.missing:
            return
        b, over, db = self.b, self.over, "bench_readers"
        fresh_db(db, TEMPLATE)
        keys = int(psql(db, "readers/keys.sql", source=SOURCE,
                        n=KEYS)[0][0])
        loads = over.xs("hist", "load")
        seconds = IDLE_S + math.ceil(1.5 * max(loads) / 1000) + 5
        prefix = b.work / "readers"
        for old in glob.glob(f"{prefix}.*"):
            os.remove(old)
        with open(b.work / "pgbench.out", "wb") as out:
            readers = subprocess.Popen(
                [PGBENCH, "-n", "-M", "prepared", "-c", "2", "-j", "2",
                 "-R", str(RATE), "-T", str(seconds), "-l",
                 f"--log-prefix={prefix}", "-D", f"nkeys={keys}",
                 "-D", f"source={SOURCE}", "-U", "invoice_reader",
                 "-f", str(BENCH / "readers" / "lookup.pgbench"), db],
                stdin=subprocess.DEVNULL, stdout=out, stderr=out)
        try:
            time.sleep(IDLE_S)
            load_started = time.time()
            child, t, _ = over.load_checked(db, "load_readers")
            rc = readers.wait(timeout=seconds + 60)
        finally:
            if readers.poll() is None:
                readers.kill()
                readers.wait()
        if rc != 0:
            raise Failure(f"pgbench (the readers) exited {rc}: "
                          f"{(b.work / 'pgbench.out').read_text()}")
        start, written, end = (float(x) for x in
                               psql(db, "readers/window.sql",
                                    batch_id=t["batch_id"])[0])
        drop_db(db)
        lookups = self.lookups(prefix)
        if not lookups or max(e for _, e, _ in lookups) < end:
            raise Failure("the readers stopped before the publication "
                          f"ended (pgbench -T {seconds})")
        idle = [ms for s, e, ms in lookups if e < load_started]
        during = [ms for s, e, ms in lookups if s <= end and e >= start]
        self.result = {
            "idle_ms": idle, "during_ms": during, "rate": RATE,
            "keys": keys, "pgbench_seconds": seconds,
            "publish_ms": t["publish_ms"], "load_ms": child.wall_ms,
            "switch_ms": round((end - written) * 1000, 1),
            "window": [start, written, end],
            "worst_lag_ms": max(lag for *_, lag in self.lags) if self.lags
            else None}
        if not during or not idle:
            # a publication of a few milliseconds (--smoke) may fall
            # between two lookups: the rows say so
            note(f"readers: {len(during)} lookups during the "
                 f"{t['publish_ms']} ms publication, {len(idle)} before the "
                 "load")
            return
        note(f"readers during the publication ({len(during)} lookups): "
             f"worst {rounded(max(during), 1)} ms, idle worst "
             f"{rounded(max(idle), 1)} ms; publication "
             f"{t['publish_ms']} ms, of which the publishing transaction "
             f"{self.result['switch_ms']} ms")

    def lookups(self, prefix):
        """(start epoch s, end epoch s, latency ms) of every logged lookup;
        also keeps (end, schedule lag ms) in self.lags."""
        out, self.lags = [], []
        for path in glob.glob(f"{prefix}.*"):
            with open(path, encoding="ascii") as fh:
                for line in fh:
                    f = line.split()
                    # client, number, latency us, script, epoch s, us[, lag]
                    latency = int(f[2]) / 1e6
                    ended = int(f[4]) + int(f[5]) / 1e6
                    out.append((ended - latency, ended, latency * 1000))
                    if len(f) > 6:
                        self.lags.append((ended, int(f[6]) / 1000))
        return out

    def rows(self):
        what = self.over.what() if not self.over.missing else ""
        if self.missing:
            return [skipped((2, 3, 0), "readers during a publication over "
                            "a history", self.missing)]
        r = self.result
        if not r:
            return []
        if not r["during_ms"] or not r["idle_ms"]:
            return [skipped((2, 3, 0), "readers during a publication over a "
                            "history", f"{len(r['during_ms'])} lookups fell "
                            f"in the {r['publish_ms']} ms publication, "
                            f"{len(r['idle_ms'])} before the load")]
        return [x for x in (
            row((2, 3, 1), "reporting.invoice: one invoice by key while "
                f"{what} publish (2 pgbench readers, {r['rate']} lookups/s "
                "in all; the worst is the wait)", r["during_ms"],
                "the same readers before the load", r["idle_ms"],
                target=50, kind="max_ms", places=3),
            row((2, 3, 2), "publication step (validated->published: "
                "analyze, the write of the versions, then the publishing "
                f"transaction) with those readers, {label(self.over.records)}"
                f" over {label(self.over.versions)}", [r["publish_ms"]]),
            row((2, 3, 3), "the publishing transaction (the end of the "
                "write to the published event; it includes the write's "
                "commit) with those readers, "
                f"{label(self.over.records)} over "
                f"{label(self.over.versions)}", [r["switch_ms"]],
                target=100, kind="median_ms")) if x is not None]

    def json(self):
        return {"missing": self.missing, **self.result}
