"""A source's file format (scripts/bench-formats.sh): what reading a file
as its system writes it costs against the same records in the contract's
own format, in the same run.

- The files: scripts/gen-invoices.sh writes --records invoices for
  BATCH_DATE in the contract's format (DATA_DIR/formats/, reused:
  deterministic); bench/formats/european.py writes the same records as a
  European ERP would: semicolons, windows-1252, amounts 1.234,56, dates
  DD.MM.YYYY, German header names, gzip (bench/formats/european.json is
  the source's format file). Both files have the same manifest totals.
- Per repetition, alternating which goes first, each into a fresh
  database from a template (migrated; source "plain" with the contract's
  format, source "erp" with the European one): one `load`, timed fork to
  exit, which must publish every record.
- The row: the medians of both and their ratio (the target: at most
  1.3x).
"""

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from harness.common import (BATCH_DATE, BENCH, REPO, Failure, cached_file,
                            default_json, drop_db, fresh_db, inside_env,
                            loader_path, loader_version, loadavg, machine,
                            machine_lines, note, plain_table, psql, rounded,
                            run_quietly, timed, utc_now, write_json)

TEMPLATE = "bench_tpl_formats"
TARGET = 1.3


def run(args):
    started, load_at_start = utc_now(), loadavg()
    loader = loader_path()
    os.environ.update(inside_env())
    work = Path(tempfile.mkdtemp(prefix="bench-formats."))
    try:
        return _run(args, loader, work, started, load_at_start)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def prepare(args, loader):
    directory = Path(args.data_dir) / "formats"
    plain = cached_file(directory, f"acme-erp_{BATCH_DATE}.csv", args.records,
                        lambda d, n: [str(REPO / "scripts" / "gen-invoices.sh"),
                                      str(d), BATCH_DATE, str(n)])
    european = Path(str(plain["csv"]).replace(".csv", ".european.csv.gz"))
    stamp = Path(str(european) + ".source-sha256")
    if not (european.is_file() and stamp.is_file() and
            stamp.read_text() == plain["sha256"]):
        note(f"writing {european}")
        subprocess.run([sys.executable, str(BENCH / "formats" / "european.py"),
                        str(plain["csv"]), str(european)], check=True)
        stamp.write_text(plain["sha256"])
    fresh_db(TEMPLATE, "template1")
    dsn = f"dbname={TEMPLATE} user=invoice_operator"
    run_quietly([loader, "-q", "--dsn", f"dbname={TEMPLATE}", "migrate"],
                f"migrate of {TEMPLATE}")
    run_quietly([loader, "-q", "--dsn", dsn, "source", "add", "plain",
                 "--start-date", BATCH_DATE], "source add plain")
    run_quietly([loader, "-q", "--dsn", dsn, "source", "add", "erp",
                 "--start-date", BATCH_DATE, "--format-file",
                 str(BENCH / "formats" / "european.json")], "source add erp")
    return plain, european


def measure(loader, work, rep, name, source, csv, manifest, records):
    db = f"bench_formats_{name}"
    fresh_db(db, TEMPLATE)
    try:
        child = timed(f"{name}-{rep}", [
            loader, "-q", "--dsn", f"dbname={db} user=invoice_loader", "load",
            "--source", source, "--business-date", BATCH_DATE, "--input",
            str(csv), "--manifest", str(manifest)], work)
        published = psql(db, "formats/published.sql", source=source)
        if child.rc != 0 or int(published[0][0]) != records:
            raise Failure(f"the {name} load did not publish {records} "
                          f"invoices (exit {child.rc}):\n{child.output()}")
        return child.wall_ns / 1e6
    finally:
        drop_db(db)


def _run(args, loader, work, started, load_at_start):
    plain, european = prepare(args, loader)
    # The manifest names its source and the plain file's SHA-256: each
    # load gets its own.
    manifests = {}
    for name, source, f in (("plain", "plain", plain["csv"]),
                            ("european", "erp", european)):
        m = json.loads(Path(plain["manifest"]).read_text())
        m["source"] = source
        m.pop("sha256", None)
        manifests[name] = work / f"{name}.manifest.json"
        manifests[name].write_text(json.dumps(m))
    times = {"plain": [], "european": []}
    for rep in range(1, args.reps + 1):
        order = ("plain", "european") if rep % 2 else ("european", "plain")
        for name in order:
            csv = plain["csv"] if name == "plain" else european
            source = "plain" if name == "plain" else "erp"
            times[name].append(measure(loader, work, rep, name, source, csv,
                                       manifests[name], plain["records"]))
    med = {k: statistics.median(v) for k, v in times.items()}
    ratio = med["european"] / med["plain"]
    facts = machine()
    out = [""] + machine_lines(facts, load_at_start, loadavg())
    out += ["== workload",
            f"loader: {loader} ({loader_version(loader)})",
            f"{plain['records']} invoices for {BATCH_DATE}, the contract's "
            f"format ({plain['bytes']} bytes) and a European ERP's "
            f"(semicolons, windows-1252, 1.234,56, DD.MM.YYYY, renamed "
            f"headers, gzip: {european.stat().st_size} bytes); {args.reps} "
            "loads of each, alternating, each into a fresh database",
            "", "== results (ms, load fork to exit)"]
    out += plain_table([["file", "median", "min", "max"]] + [
        [k, rounded(med[k]), rounded(min(v)), rounded(max(v))]
        for k, v in times.items()])
    out += ["", f"European format / the contract's: {rounded(ratio, 2)}x "
            f"(target: at most {TARGET}x)"]
    print("\n".join(out), flush=True)
    write_json(args.json or default_json(args.data_dir, "formats"), {
        "benchmark": "formats", "started_at": started,
        "finished_at": utc_now(), "argv": sys.argv[1:],
        "options": {"records": plain["records"], "reps": args.reps},
        "machine": facts, "load_average": {"start": load_at_start,
                                           "end": loadavg()},
        "loader": {"path": loader, "version": loader_version(loader)},
        "summary": {"median_ms": med, "ratio": ratio, "target": TARGET},
        "measurements": times})
    return 0
