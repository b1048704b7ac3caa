"""The load benchmark's figures and report (scripts/bench.sh): the table's
rows from the measurements of harness/load.py's Bench, and the printed
report. A mixin of Bench, kept apart to keep each file readable."""

import statistics
import subprocess

from harness.common import (loadavg, loader_version, machine_lines,
                            md_table, rounded)

TOOLS = ("load", "load_url", "psql_copy", "pgloader")
LOAD_METRICS = ("copy_ms", "validate_ms", "publish_ms", "attempt_ms")
NOT_INSTALLED = "not installed (scripts/install-deps.sh)"


def size_label(f):
    n = f["records"]
    if f["role"] == "seed":
        return f"{n} invoices (seed)"
    if n % 1000000 == 0:
        return f"{n // 1000000}M invoices"
    if n % 1000 == 0:
        return f"{n // 1000}k invoices"
    return f"{n} invoices"


def fmt(v, metric):
    if metric == "rss_kb":
        return rounded(v / 1024) + " MB"
    return rounded(v) + " ms"


class Figures:
    """Bench's figures and report (it has the files, the measurements and
    the parts added later: over, catchup, tuned, duplicates)."""

    # ------------------------------------------------------------ figures
    def stats(self):
        groups = {}
        for m in self.measurements:
            for metric in ("wall_ms", "rss_kb") + LOAD_METRICS:
                if m.get(metric) is not None:
                    key = (m["role"], m["records"], m["tool"], metric)
                    groups.setdefault(key, []).append(m[metric])
        return {k: (statistics.median(v), min(v), max(v))
                for k, v in groups.items()}

    def figures(self, history_figure, history):
        """The table's rows, each (sort key, cells, numbers). Section 1 the
        times per file (seed first, then by size), 2 the history, 3 peak
        memory. The ratio targets apply to the seed sample and the big (1M)
        file, the memory target to every generated file."""
        stats = self.stats()
        seed = self.files[0]
        big_f = next((f for f in self.files if f["role"] == "big"), seed)
        pg_file = self.pgloader_file()
        rows = []
        for i, f in enumerate(sorted(self.files, key=lambda f: (
                f["role"] != "seed", f["records"]))):
            same = (f["role"], f["records"])
            not_seed = f["role"] != "seed"
            spec = [
                # section, ord, figure, metric, baseline name, baseline key
                # (role, records, tool, metric), kind, target; the measured
                # tool is load unless the metric says tool:metric
                (1, 1, "load, file to published" + (
                    " (stretch <= 4x)" if f["role"] == "big" else ""),
                 "wall_ms", "psql \\copy",
                 same + ("psql_copy", "wall_ms"), "ratio",
                 {"seed": 3, "big": 7}.get(f["role"])),
                (1, 2, "COPY phase of load (received->staged)", "copy_ms",
                 "psql \\copy", same + ("psql_copy", "wall_ms"), "ratio",
                 1.2 if f["role"] == "big" else None),
                (1, 3, "load vs pgloader, end to end (ratio: pgloader / "
                 "load; stretch >= 3x)", "wall_ms", "pgloader",
                 same + ("pgloader", "wall_ms"), "speedup",
                 2 if f["role"] == "big" else None),
                (1, 4, "validation (staged->validated)", "validate_ms",
                 None, None, None, None),
                (1, 5, "publication (validated->published)", "publish_ms",
                 None, None, None, None),
                (1, 6, "whole attempt (attempt_overview)", "attempt_ms",
                 None, None, None, None),
                (1, 7, "load --input http://127.0.0.1 (download, then the "
                 "same load)", "load_url:wall_ms", "load of the local file",
                 same + ("load", "wall_ms"), "ratio",
                 1.1 if f["role"] == "big" else None),
                (1, 8, "load vs the load of the " + size_label(big_f) +
                 " file", "wall_ms", "load, " + size_label(big_f),
                 ("big", big_f["records"], "load", "wall_ms"), "ratio",
                 11 if f["records"] == 10 * big_f["records"] else None)
                if f["role"] == "size" and f["records"] > big_f["records"]
                else None,
                (3, 1, "loader peak RSS", "rss_kb",
                 "loader, 20 invoices (seed)" if not_seed else None,
                 (seed["role"], seed["records"], "load", "rss_kb")
                 if not_seed else None, "memory",
                 64 if not_seed else None),
            ]
            for section, order, figure, metric, base_name, base_key, kind, \
                    target in filter(None, spec):
                tool, _, metric = metric.rpartition(":")
                main = stats.get(same + (tool or "load", metric))
                if main is None:
                    if tool and self.no_url and \
                            f["role"] in ("seed", "big"):
                        cells = [f"{figure}, {size_label(f)}: {self.no_url}",
                                 "skipped", "", "", "", "", "", "",
                                 "skipped"]
                        rows.append(((section, i, order), cells,
                                     {"figure": cells[0], "met": "skipped"}))
                    continue
                med, lo, hi = main
                base = stats.get(base_key) if base_key else None
                why = self.why_missing(f, base_key, pg_file)
                if base_key and base is None and why is None:
                    continue
                ratio = None
                if base is not None and base[0]:
                    ratio = (base[0] / med if kind == "speedup"
                             else med / base[0])
                target_text = ""
                if target is not None:
                    target_text = {"ratio": f"<= {target}x",
                                   "speedup": f">= {target}x",
                                   "memory": f"<= {target} MB"}[kind]
                met = ""
                if target is not None:
                    if kind == "memory":
                        met = "met" if hi <= target * 1024 else "NOT met"
                    elif ratio is None:
                        met = "not measured"
                    elif kind == "ratio":
                        met = "met" if ratio <= target else "NOT met"
                    else:
                        met = "met" if ratio >= target else "NOT met"
                cells = [f"{figure}, {size_label(f)}", fmt(med, metric),
                         fmt(lo, metric), fmt(hi, metric), base_name or "",
                         fmt(base[0], base_key[3]) if base is not None
                         else (why or ""),
                         rounded(ratio, 2) + "x" if ratio is not None else "",
                         target_text, met]
                rows.append(((section, i, order), cells, {
                    "figure": cells[0], "role": f["role"],
                    "records": f["records"], "metric": metric,
                    "median": med, "min": lo, "max": hi,
                    "baseline": base_name,
                    "baseline_median": base[0] if base else None,
                    "baseline_missing": why if base is None else None,
                    "ratio": ratio, "target": target_text, "met": met}))
        if history is None:
            cells = [history_figure, "skipped", "", "", "", "", "", "",
                     "skipped"]
            rows.append(((2, 0, 0), cells, {"figure": history_figure,
                                            "met": "skipped"}))
        else:
            p = history["publication_over_history"]
            cells = [history_figure, rounded(p["median"]) + " ms",
                     rounded(p["min"]) + " ms", rounded(p["max"]) + " ms",
                     "the same, empty history",
                     rounded(p["empty_median"]) + " ms",
                     rounded(p["ratio"], 2) + "x" if p["ratio"] is not None
                     else "", p["target"], p["met"]]
            rows.append(((2, 0, 0), cells, {"figure": history_figure, **p}))
        rows += self.duplicates.rows(4)
        big = big_f if big_f["role"] == "big" else None
        rows += self.catchup.rows()
        rows += self.over.rows(big_f["records"] if big else None)
        rows += self.readers.rows()
        rows += self.tuned.rows(big)
        rows += self.libc_locale.rows()
        rows.sort(key=lambda r: r[0])
        return rows

    def why_missing(self, f, base_key, pg_file):
        """Why a baseline has no figure for file F: pgloader not installed,
        or the baseline failed; None when it was not meant to run."""
        if not base_key:
            return None
        tool = base_key[2]
        if tool == "pgloader" and f is pg_file and not self.pgloader:
            return NOT_INSTALLED
        for x in self.failures:
            if (x["tool"], x["role"], x["records"]) == (tool, f["role"],
                                                         f["records"]):
                return f"failed: {x['error']}"
        return None

    # ------------------------------------------------------------ report
    def report(self, rows, load_at_start, facts, history_text):
        out = [""] + machine_lines(facts, load_at_start, loadavg())
        out += ["== workload",
                f"loader: {self.loader} ({loader_version(self.loader)})"]
        if self.pgloader:
            done = subprocess.run([self.pgloader, "--version"],
                                  capture_output=True, text=True,
                                  check=False)
            lines = (done.stdout + done.stderr).splitlines()
            out.append(f"pgloader: {lines[0] if lines else '?'}")
        else:
            out.append(f"pgloader: {NOT_INSTALLED}")
        out.append(f"peak RSS: os.wait4's ru_maxrss of each child (fork, "
                   f"exec); a child that runs true reports "
                   f"{self.rss_floor_kb} kB, the floor")
        for f in self.files:
            out.append(f"file: {f['csv']}, {f['records']} invoices, "
                       f"{f['bytes']} bytes")
        out += self.over.workload_lines() + self.tuned.workload_lines()
        out += self.libc_locale.workload_lines()
        if not self.catchup.missing:
            out.append(f"catch-up: {self.catchup.days} dates "
                       f"({self.catchup.dates[0]} to "
                       f"{self.catchup.dates[-1]}) of 20 invoices, feed "
                       f"{self.catchup.json()['feed']}")
        others = f", {self.args.reps} of the others" if len(self.files) > 1 \
            else ""
        d = self.duplicates
        if not d.missing:
            out.append(f"duplicate-heavy files: {d.lines} lines each "
                       f"({', '.join(d.cases)}), the source's second date "
                       "after staging was vacuumed and analyzed empty, "
                       f"stopped after {d.cap} s")
        out += [f"repetitions: {self.small_reps} of the seed figures{others};"
                " each run into a fresh database after a CHECKPOINT", "",
                "== results (medians; ratio = median / baseline median; for "
                "pgloader baseline / median)"]
        out += md_table([["figure", "median", "min", "max", "baseline",
                          "baseline median", "ratio", "target", "met"]] +
                        [r[1] for r in rows])
        met = sum(1 for r in rows if r[1][-1] == "met")
        judged = sum(1 for r in rows if r[1][-1] in ("met", "NOT met"))
        unmeasured = sum(1 for r in rows if r[1][-1] == "not measured")
        out += ["", f"targets met: {met} of {judged}" +
                (f" ({unmeasured} not measured)" if unmeasured else "")]
        peaks = {}
        for m in self.measurements:
            if m["tool"] == "load" and m["role"] in ("seed", "size", "big"):
                k = (m["role"] != "seed", m["records"])
                peaks[k] = max(peaks.get(k, 0), m["rss_kb"])
        out.append("loader peak RSS side by side (invoices: largest of the "
                   "repetitions): " + ", ".join(
                       f"{k[1]}: {v} kB" for k, v in sorted(peaks.items())))
        out += ["", "== every repetition (ms, kB)"]
        reps = {}
        for m in self.measurements:
            reps[(m["role"] != "seed", m["role"].endswith("_tuned"),
                  m["role"].startswith("hist"), m["records"], m["rep"],
                  TOOLS.index(m["tool"]))] = m
        table = [["rep", "invoices", "tool", "process wall", "peak RSS",
                  "COPY", "validation", "publication", "attempt"]]
        for _, m in sorted(reps.items()):
            what = {"hist": " (over the history)", "big_tuned": " (tuned)",
                    "hist_tuned": " (over the history, tuned)",
                    "big_locale": " (de_DE.UTF-8 database)",
                    "seed_locale": " (seed, de_DE.UTF-8 database)"}
            table.append([str(m["rep"]), str(m["records"]) +
                          what.get(m["role"], ""), m["tool"],
                          rounded(m["wall_ms"]), str(m["rss_kb"])] +
                         [rounded(m[k]) if m.get(k) is not None else ""
                          for k in LOAD_METRICS])
        table += self.duplicates.repetition_rows()
        table += self.catchup.repetition_rows()
        out += md_table(table)
        if self.failures:
            out += ["", "== baselines that failed"]
            out += [f"rep {x['rep']}, {x['records']} invoices, {x['tool']}: "
                    f"{x['error']}" for x in self.failures]
        if history_text:
            out += ["", f"== bench/run.py publish --history "
                        f"{self.args.history_size} --reps {self.args.reps}",
                    history_text.rstrip("\n")]
        print("\n".join(out), flush=True)
