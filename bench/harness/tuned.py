"""The loads with the server settings docs/guide/operate.md recommends (the
"recommended settings" rows): row 1 (the big file over an empty history) and
row 2 (over the history), each against psql \\copy of the same file under
the same settings; shown, no target.

The settings are read from the code block after "Recommended server
settings" in docs/guide/operate.md (one `name = value` a line), so the
benchmark measures what the document recommends. After the default-settings
repetitions the run sets them with ALTER SYSTEM on its own cluster,
restarts it ($TMP_PG_CTL restart, scripts/with-tmp-pg.sh), checks that
each took effect, and measures --reps repetitions again, alternating the
same four processes; the templates (and the history) are kept across the
restart.

Whether the restarted server's shared memory is in huge pages is recorded,
not changed: that needs the kernel's vm.nr_hugepages, a setting of the host
the benchmark leaves alone (docs/guide/operate.md says how to reserve them;
with 4 GB of shared buffers in 4 kB pages a 1M load took about 20% longer,
docs/PERFORMANCE.md "What limits the targets").
"""

import os
import re

from harness.common import (REPO, Failure, huge_pages_in_use,
                            huge_pages_line, note, psql, run_quietly)
from harness.overhistory import label
from harness.rows import row, skipped

DOC = REPO / "docs" / "guide" / "operate.md"
MARKER = "Recommended server settings"
SETTING = re.compile(r"^([a-z_]+)\s*=\s*'?([^'#]*?)'?\s*(#.*)?$")


def recommended():
    """[(name, value)] from docs/guide/operate.md, or a string saying why
    there are none."""
    if not DOC.is_file():
        return "no docs/guide/operate.md"
    text = DOC.read_text(encoding="utf-8")
    at = text.find(MARKER)
    if at < 0:
        return f'no "{MARKER}" in docs/guide/operate.md'
    m = re.search(r"```[a-z]*\n(.*?)```", text[at:], re.S)
    if not m:
        return f'no code block after "{MARKER}" in docs/guide/operate.md'
    out = []
    for line in m.group(1).splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        s = SETTING.match(line)
        if not s:
            return f"cannot read '{line}' in docs/guide/operate.md"
        out.append((s.group(1), s.group(2)))
    return out or f'an empty block after "{MARKER}"'


class Tuned:
    def __init__(self, bench, over, why_not):
        self.b, self.over = bench, over
        found = recommended()
        self.settings = found if isinstance(found, list) else []
        self.missing = why_not or (None if self.settings else found)
        self.applied = {}
        self.huge_pages = None

    def apply(self):
        """ALTER SYSTEM, restart, check."""
        for name, val in self.settings:
            psql("postgres", "tuned/alter_system.sql", name=name, value=val)
        note("restarting the cluster with the recommended settings: " +
             ", ".join(f"{n} = {v}" for n, v in self.settings))
        run_quietly(os.environ["TMP_PG_CTL"].split() +
                    ["-w", "-t", "300", "restart", "-m", "fast"],
                    "the restart with the recommended settings")
        for name, _ in self.settings:
            ok, now = psql("postgres", "tuned/show.sql", name=name)[0]
            if ok != "t":
                raise Failure(f"{name} did not take effect after the "
                              f"restart (it is {now})")
            self.applied[name] = now
        self.huge_pages = huge_pages_in_use()
        note(huge_pages_line(self.huge_pages))

    def run(self, reps, big):
        """REPS repetitions of the big file's load and \\copy, then the
        over-history load and \\copy, after apply()."""
        if self.missing:
            note(f"rows with the recommended settings skipped: "
                 f"{self.missing}")
            return
        self.apply()
        for rep in range(1, reps + 1):
            if big is not None:
                f = dict(big, role="big_tuned")
                self.b.measure_load(f, rep)
                self.b.measure_copy(f, rep)
            self.over.measure(rep, role="hist_tuned")

    def rows(self, big):
        figure = "with the server settings of docs/guide/operate.md"
        if self.missing:
            return [skipped((5, 0, 0), f"loads {figure}", self.missing)]
        xs = self.over.xs
        out = []
        if big is not None:
            out.append(row((5, 0, 1), "load, file to published, "
                           f"{label(big['records'])} invoices, empty history, "
                           f"{figure}", xs("big_tuned", "load"),
                           "psql \\copy, the same settings",
                           xs("big_tuned", "psql_copy"), shown=True))
        if not self.over.missing:
            out.append(row((5, 0, 2), f"load, file to published, "
                           f"{self.over.what()}, {figure}",
                           xs("hist_tuned", "load"),
                           "psql \\copy, the same settings",
                           xs("hist_tuned", "psql_copy"), shown=True))
            if big is not None and big["records"] == self.over.records:
                out.append(row((5, 0, 3), "load over the history / load "
                               f"over an empty history, {figure}",
                               xs("hist_tuned", "load"),
                               "load, empty history, the same settings",
                               xs("big_tuned", "load"), shown=True))
        return [r for r in out if r is not None]

    def workload_lines(self):
        if self.missing:
            return [f"recommended settings: skipped ({self.missing})"]
        return ["recommended settings (docs/guide/operate.md; ALTER SYSTEM "
                "and a restart after the other repetitions): " +
                ", ".join(f"{n} = {v}" for n, v in self.applied.items()),
                "  " + huge_pages_line(self.huge_pages)]

    def json(self):
        return {"missing": self.missing, "recommended": dict(self.settings),
                "applied": self.applied, "huge_pages": self.huge_pages}
