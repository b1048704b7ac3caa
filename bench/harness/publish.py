"""The publish-over-history benchmark (scripts/bench-publish.sh): how long
publishing a nightly batch takes over an empty history, and over a history
of N published versions. Runs inside its own cluster; see the header of
scripts/bench-publish.sh for the method."""

import hashlib
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from harness import history as hist
from harness.common import (BATCH_DATE, REPO, SOURCE, Failure,
                            default_json, fresh_db, inside_env, loader_path,
                            loader_version, loadavg, machine, machine_lines,
                            note, plain_table, psql, rounded, run_quietly,
                            step_times, utc_now, value, write_json)

# figure, metric: the rows of the table, per scenario.
FIGURES = [("COPY (received->staged)", "copy_ms"),
           ("validation (staged->validated)", "validate_ms"),
           ("publication (validated->published)", "publish_ms"),
           ("whole attempt (attempt_overview)", "attempt_ms"),
           ("revert of the batch (client-timed)", "revert_ms")]
# Over the history / over none, medians: publication (<= 1.2x),
# and the revert (O(batch), never O(history): <= 1.5x).
TARGET_RATIOS = {"publish_ms": 1.2, "revert_ms": 1.5}
NO_REVERT = "no ingest.revert_batch in this schema"


def load_into(loader, db, csv, sha256, work):
    """Load the batch file, as the loader role, into DB; its step times.
    Raises Failure unless the batch is published."""
    cmd = [loader, "--dsn", f"dbname={db} user=invoice_loader", "load",
           "--source", SOURCE, "--business-date", BATCH_DATE, "--input",
           str(csv)]
    done = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, check=False)
    times = step_times(db, sha256)
    if done.returncode != 0 or not times or times["state"] != "published":
        sys.stderr.write(done.stdout + done.stderr)
        raise Failure(f"the load into {db} did not publish "
                      f"(exit {done.returncode})")
    return times


def fresh_copy(db, template_db):
    fresh_db(db, template_db)
    psql("postgres", "db/checkpoint.sql")


def scenario_label(scenario, versions):
    return {"empty": ", empty history",
            "empty_analyzed": ", empty history, ANALYZEd"}.get(
                scenario, f", {versions} versions")


def revert(db, batch_id, expected):
    """Revert batch BATCH_ID in DB (bench/publish/revert.sql): the client's
    time in ms; Failure unless it reverted EXPECTED versions."""
    got = ms = None
    for row in psql(f"dbname={db} user=invoice_operator",
                    "publish/revert.sql", batch_id=batch_id):
        m = re.match(r"^Time: ([0-9.]+) ms", row[0])
        if m:
            ms = float(m.group(1))
        elif row[0].isdigit():
            got = int(row[0])
    if got != expected or ms is None:
        raise Failure(f"the revert of batch {batch_id} in {db} did not "
                      f"revert {expected} versions (reverted {got})")
    return ms


def figures(results, scenarios, versions, with_revert):
    """The table's rows (and their numbers): per figure, each scenario's
    median, min, max, its ratio to the empty history's median, and the
    targets on publication and revert over the history."""
    rows = []
    for figure, metric in FIGURES:
        if metric == "revert_ms" and not with_revert:
            rows.append({"figure": figure, "metric": metric, "met": "",
                         "missing": NO_REVERT, "target": "",
                         "cells": [f"{figure}: {NO_REVERT}", "skipped", "",
                                   "", "", "", ""]})
            continue
        stats = {}
        for s in scenarios:
            xs = [r[metric] for r in results if r["scenario"] == s]
            stats[s] = (statistics.median(xs), min(xs), max(xs))
        empty = stats["empty"][0]
        for s in scenarios:
            med, lo, hi = stats[s]
            ratio = med / empty if s != "empty" and empty else None
            target = met = ""
            if s == "history" and metric in TARGET_RATIOS:
                target = f"<= {TARGET_RATIOS[metric]}x"
                met = ("met" if med <= TARGET_RATIOS[metric] * empty
                       else "NOT met")
            rows.append({
                "figure": figure + scenario_label(s, versions),
                "scenario": s, "metric": metric, "median": med, "min": lo,
                "max": hi, "empty_median": empty, "ratio": ratio,
                "cells": [figure + scenario_label(s, versions), rounded(med),
                          rounded(lo), rounded(hi),
                          rounded(ratio, 2) + "x" if ratio is not None
                          else "", target, met],
                "target": target, "met": met})
    return rows


ENTRY = re.compile(r"^\d{4}-\d\d-\d\d ")
CONTINUATION = re.compile(
    r"^\d{4}-\d\d-\d\d [0-9:.]+ [A-Z]+ \[\d+\] "
    r"(CONTEXT|DETAIL|HINT|STATEMENT): ")


def publish_plans(log_text):
    """The auto_explain entries of ingest.publish_batch's statements in a
    server log: (ms, where, statement, plan) in execution order. An entry
    starts with a timestamp; its CONTEXT (the function and line) is a
    separate line of the same form and belongs to it."""
    entries, entry = [], None
    for line in log_text.splitlines():
        if CONTINUATION.match(line) or not ENTRY.match(line):
            if entry is not None:
                entry += "\n" + line
            continue
        if entry is not None:
            entries.append(entry)
        entry = line
    if entry is not None:
        entries.append(entry)
    plans = []
    for e in entries:
        if not re.search(r"duration: [0-9.]+ ms +plan:", e):
            continue
        if ("function ingest.publish_batch" not in e
                and "from ingest.publish_batch(" not in e):
            continue
        ms = float(re.search(r"duration: ([0-9.]+) ms", e).group(1))
        m = re.search(r"publish_batch\([^)]*\) line (\d+)", e)
        where = f"line {m.group(1)}" if m else "top level"
        text = ""
        m = re.search(r"Query Text: (.*)", e)
        if m:
            text = re.sub(r" +", " ", m.group(1))[:100]
        plans.append((ms, where, text, e))
    return plans


def explain(loader, csv, sha256, work, min_ms):
    """One more load into a fresh history copy under auto_explain; the
    plans of publish_batch's statements taking MIN_MS or more."""
    lines = ["== EXPLAIN (ANALYZE, BUFFERS) of ingest.publish_batch "
             f"statements taking >= {min_ms} ms",
             "   (auto_explain, one extra load into a fresh history copy, "
             "not in the table;",
             "   timing instrumentation makes it slower than the measured "
             "runs)"]
    fresh_copy("bench_run", "bench_history")
    psql("postgres", "publish/auto_explain.sql", db="bench_run", min_ms=min_ms)
    log = Path(os.environ["TMP_PG_LOG"])
    log_from = log.stat().st_size
    load_into(loader, "bench_run", csv, sha256, work)
    ms = value("bench_run", "publish/newest_publication.sql")
    lines.append(f"publication in this run: {ms} ms")
    with open(log, "rb") as f:
        f.seek(log_from)
        plans = publish_plans(f.read().decode("utf-8", "replace"))
    lines.append("-- summary (ms, where in ingest.publish_batch, statement):")
    for p in sorted(plans, key=lambda p: -p[0]):
        lines.append(f"{p[0]:10.1f}  {p[1]:<10}  {p[2]}")
    lines.append("")
    for p in plans:
        lines += [p[3], ""]
    return lines, [{"ms": p[0], "where": p[1], "statement": p[2]}
                   for p in plans]


def run(args):
    """The benchmark, inside its cluster; prints the report, writes the
    JSON; returns the exit status."""
    started = utc_now()
    load_at_start = loadavg()
    loader = loader_path()
    os.environ.update(inside_env())
    work = Path(tempfile.mkdtemp(prefix="bench-publish."))
    try:
        return _run(args, loader, work, started, load_at_start)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _run(args, loader, work, started, load_at_start):
    history, batch, reps = args.history, args.batch, args.reps
    scenarios = ["empty"] + (["empty_analyzed"] if args.analyzed_empty
                             else []) + ["history"]

    note(f"templates: bench_empty, bench_history ({history} versions over "
         f"{hist.dates_for(history)} business dates)")
    hist.template(loader, "bench_empty", BATCH_DATE)
    if args.analyzed_empty:
        fresh_db("bench_empty_analyzed", "bench_empty")
        psql("bench_empty_analyzed", "publish/vacuum.sql")
    facts_h = hist.build(loader, "bench_history", history)
    versions, current, keys, batches, mark, size, build_ms = (
        facts_h[k] for k in ("versions", "current", "invoices", "batches",
                             "watermark", "database_size", "build_ms"))

    with_revert = value("bench_empty", "publish/has_revert.sql") == "t"
    if not with_revert:
        note(f"revert row skipped: {NO_REVERT}")
    csv = Path(run_quietly(
        [str(REPO / "scripts" / "gen-invoices.sh"), "--source", SOURCE,
         str(work), BATCH_DATE, str(batch)], "gen-invoices.sh").strip())
    sha256 = hashlib.sha256(csv.read_bytes()).hexdigest()

    results = []
    for rep in range(1, reps + 1):
        for s in scenarios:
            fresh_copy("bench_run", f"bench_{s}")
            t = load_into(loader, "bench_run", csv, sha256, work)
            # the revert of what was just published (nothing restored:
            # the batch is all new invoices)
            t["revert_ms"] = (revert("bench_run", t["batch_id"], batch)
                              if with_revert else None)
            results.append({"scenario": s, "rep": rep, **t})
            note(f"rep {rep} {s}: copy {t['copy_ms']} ms, validation "
                 f"{t['validate_ms']} ms, publication {t['publish_ms']} ms, "
                 f"attempt {t['attempt_ms']} ms" +
                 (f", revert {t['revert_ms']} ms" if with_revert else ""))

    rows = figures(results, scenarios, versions, with_revert)
    # the plans below are publication's: its target decides
    target_row = next(r for r in rows if r["metric"] == "publish_ms"
                      and r.get("scenario") == "history")
    facts = machine()
    out = [""] + machine_lines(facts, load_at_start, loadavg())
    out += ["== workload",
            f"loader: {loader} ({loader_version(loader)})",
            f"history: {versions} versions ({current} current, {keys} "
            f"invoices) in {batches} published batches, database {size}, "
            f"built in {build_ms // 1000} s",
            f"batch: {batch} new invoices for {BATCH_DATE} (watermark "
            f"{mark}), {csv.stat().st_size} bytes; {reps} repetitions per "
            "history, each into a fresh copy",
            "", f"== results (ms; medians over {reps} repetitions)"]
    out += plain_table([["figure", "median", "min", "max", "ratio to empty",
                         "target", "met"]] + [r["cells"] for r in rows])
    out += ["", "== every repetition (ms): scenario rep copy validation "
                "publication attempt revert"]
    order = {s: i for i, s in enumerate(scenarios)}
    for r in sorted(results, key=lambda r: (r["rep"], order[r["scenario"]])):
        out.append(" ".join([r["scenario"], str(r["rep"])] + [
            rounded(r[m]) if r[m] is not None else ""
            for _, m in FIGURES]))
    print("\n".join(out), flush=True)

    plans = None
    if args.explain == "always" or (args.explain == "auto"
                                    and target_row["met"] != "met"):
        lines, plans = explain(loader, csv, sha256, work, args.explain_min_ms)
        print("\n" + "\n".join(lines), flush=True)

    write_json(args.json or default_json(args.data_dir, "publish"), {
        "benchmark": "publish", "started_at": started,
        "finished_at": utc_now(), "argv": sys.argv[1:],
        "options": {"history": history, "batch": batch, "reps": reps,
                    "analyzed_empty": args.analyzed_empty,
                    "explain": args.explain,
                    "explain_min_ms": args.explain_min_ms},
        "machine": facts, "load_average": {"start": load_at_start,
                                           "end": loadavg()},
        "loader": {"path": loader, "version": loader_version(loader)},
        "history": facts_h,
        "batch": {"file": str(csv), "records": batch, "sha256": sha256,
                  "bytes": csv.stat().st_size, "business_date": BATCH_DATE},
        "measurements": results,
        "figures": [{k: v for k, v in r.items() if k != "cells"}
                    for r in rows],
        "publication_over_history": {
            "median": target_row["median"], "min": target_row["min"],
            "max": target_row["max"],
            "empty_median": target_row["empty_median"],
            "ratio": target_row["ratio"], "target": target_row["target"],
            "met": target_row["met"]},
        "revert_over_history": next(
            ({k: r[k] for k in ("median", "min", "max", "empty_median",
                                "ratio", "target", "met")}
             for r in rows if r["metric"] == "revert_ms"
             and r.get("scenario") == "history"), None),
        "explained_statements": plans})
    return 0
