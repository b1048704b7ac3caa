"""Many small days in one catch-up (the catch-up row):
`invoice-loader catch-up` over --days consecutive business dates of 20
invoices each, against one `load` of one such day.

- The files: scripts/gen-invoices.sh, 20 invoices per date, the dates
  ending at BATCH_DATE, in DATA_DIR/days/ (reused: deterministic); the
  source's feed URL is the path template DATA_DIR/days/<source>_{date}.csv
  (catch-up takes a path; each manifest is next to its file).
- The template bench_tpl_days: migrated, the source registered from the
  first date with that feed URL. Every measurement goes into a fresh copy.
- catch-up --until <last date>: its whole process timed; then every date
  must be published with all its invoices. The baseline: `load` of the
  first date's file, the same template, the same way.
"""

import datetime
import sys
from pathlib import Path

from harness import history
from harness.common import (BATCH_DATE, SOURCE, REPO, Failure, cached_file,
                            drop_db, fresh_db, note, psql, rounded, timed)
from harness.rows import row, skipped

TEMPLATE = "bench_tpl_days"
PER_DAY = 20


class CatchUp:
    def __init__(self, bench, days, why_not):
        self.b, self.days, self.missing = bench, days, why_not
        last = datetime.date.fromisoformat(BATCH_DATE)
        self.dates = [(last - datetime.timedelta(days=days - 1 - i))
                      .isoformat() for i in range(days)]
        self.dir = Path(bench.args.data_dir) / "days"
        self.files = []
        self.measurements = []

    def prepare(self):
        if self.missing:
            note(f"catch-up row skipped: {self.missing}")
            return

        def gen(date):
            def command(d, count):
                return [str(REPO / "scripts" / "gen-invoices.sh"),
                        "--source", SOURCE, str(d), date, str(count)]
            return command

        self.files = [cached_file(self.dir, f"{SOURCE}_{d}.csv", PER_DAY,
                                  gen(d)) for d in self.dates]
        note(f"template {TEMPLATE}: source {SOURCE} from {self.dates[0]}, "
             f"feed {self.dir}/{SOURCE}_{{date}}.csv")
        history.template(self.b.loader, TEMPLATE, self.dates[0],
                         f"{self.dir}/{SOURCE}_{{date}}.csv")

    def run_one(self, tool, rep, cmd, dates):
        db = "bench_days"
        fresh_db(db, TEMPLATE)
        spool = self.b.work / "spool-days"
        child = timed(tool, [self.b.loader, "--dsn",
                             f"dbname={db} user=invoice_loader"] + cmd +
                      ["--spool-dir", str(spool)], self.b.work)
        published, shown = (int(x) for x in psql(
            db, "catchup/published.sql", source=SOURCE)[0])
        if child.rc != 0 or published != dates or \
                shown != dates * PER_DAY:
            sys.stderr.write(child.output())
            raise Failure(f"{tool} of {dates} date(s) into {db}: exit "
                          f"{child.rc}, {published} published, {shown} "
                          f"invoices (want {dates}, {dates * PER_DAY})")
        drop_db(db)
        self.measurements.append({"tool": tool, "rep": rep, "days": dates,
                                  "wall_ms": round(child.wall_ms, 3),
                                  "rss_kb": child.rss_kb})
        note(f"rep {rep}: {tool} of {dates} date(s) "
             f"{rounded(child.wall_ms)} ms")

    def measure(self, rep):
        if self.missing:
            return
        self.run_one("catch_up", rep, ["catch-up", "--source", SOURCE,
                                       "--until", self.dates[-1]], self.days)
        first = self.files[0]
        self.run_one("load_one_day", rep, [
            "load", "--source", SOURCE, "--business-date", self.dates[0],
            "--input", str(first["csv"])], 1)

    def rows(self, section=1, i=0, order=8):
        figure = (f"catch-up of {self.days} days ({PER_DAY} invoices each) "
                  "in one run")
        if self.missing:
            return [skipped((section, i, order), figure, self.missing)]
        xs = [m["wall_ms"] for m in self.measurements
              if m["tool"] == "catch_up"]
        base = [m["wall_ms"] for m in self.measurements
                if m["tool"] == "load_one_day"]
        r = row((section, i, order), figure, xs, "load of one such day",
                base, target=30 if self.days == 30 else None,
                shown=self.days != 30)
        return [r] if r else []

    def repetition_rows(self):
        return [[str(m["rep"]), f"{m['days']} x {PER_DAY}", m["tool"],
                 rounded(m["wall_ms"]), str(m["rss_kb"]), "", "", "", ""]
                for m in self.measurements]

    def json(self):
        return {"missing": self.missing, "days": self.days,
                "per_day": PER_DAY, "dates": self.dates,
                "feed": f"{self.dir}/{SOURCE}_{{date}}.csv",
                "measurements": self.measurements}
