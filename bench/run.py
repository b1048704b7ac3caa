#!/usr/bin/env python3
"""bench/run.py: the benchmarks of invoice-loader (Python 3 standard library
only: Debian's python3 is enough).

  bench/run.py [load] [options]   what scripts/bench.sh runs: the loader
                                  against psql \\copy and pgloader, peak RSS,
                                  loads over a history and reads over it,
                                  catch-up, the same with the recommended
                                  server settings, and the publish-over-
                                  history row
  bench/run.py publish [options]  what scripts/bench-publish.sh runs:
                                  publication over an empty history and
                                  over N versions
  bench/run.py duplicates [CASE]  duplicate-heavy files alone (the rows
                                  bench/run.py load also measures)
  bench/run.py sources [options]  what scripts/bench-sources.sh runs:
                                  several sources' loads at once against
                                  the same loads one after the other
  bench/run.py formats [options]  a file in a European ERP's format
                                  against the same records in the
                                  contract's, in the same run

Each benchmark starts its own throwaway cluster: it runs itself again under
scripts/with-tmp-pg.sh with --inside, and reads PG* from the environment
there. The SQL it runs is in bench/<topic>/*.sql. It prints the same tables
as the shell scripts did and writes every measurement to a JSON file
(--json PATH; default DATA_DIR/results/<benchmark>-<UTC time>.json).

Exit status: 0 whether or not the targets are met; 64 usage; 70 when
something failed (a load that did not publish; outside --smoke, also a
baseline that failed or loaded a different count). A missing pgloader is
not a failure: its row says so.
"""

import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
if "--inside" in sys.argv and sys.argv[1] in ("load", "duplicates", "formats"):
    # The measured children's parent, forked while this process is small
    # (harness/spawner.py says why).
    from harness import spawner  # pylint: disable=wrong-import-position
    spawner.start()

# pylint: disable=wrong-import-position
import argparse  # noqa: E402

from harness.common import (DEFAULT_DATA_DIR, REPO, SAFE_PATH,  # noqa: E402
                            Failure, loader_path)

EX_USAGE, EX_SOFTWARE = 64, 70


class Parser(argparse.ArgumentParser):
    """Usage errors exit 64 (sysexits EX_USAGE), as the scripts did."""

    def error(self, message):
        self.print_usage(sys.stderr)
        print(f"{self.prog}: {message}", file=sys.stderr)
        sys.exit(EX_USAGE)


def count(text):
    """A whole number from 1 to 10^8 - 1."""
    if not text.isdigit() or len(text) > 8 or int(text) < 1:
        raise argparse.ArgumentTypeError(
            f"'{text}' is not a whole number from 1 below 10^8")
    return int(text)


def whole(text):
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number")
    return int(text)


def common_options(p):
    p.add_argument("--data-dir", default=DEFAULT_DATA_DIR, metavar="DIR",
                   help="where the generated files are kept and reused, and "
                   f"results/ for the JSON (default {DEFAULT_DATA_DIR})")
    p.add_argument("--json", metavar="PATH",
                   help="write every measurement here (default "
                   "DATA_DIR/results/<benchmark>-<UTC time>.json)")
    p.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)


def parser():
    top = Parser(prog="bench/run.py", description=__doc__.split("\n\n")[1],
                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = top.add_subparsers(dest="benchmark",
                             metavar="{load,publish,duplicates,sources,formats}")

    load = sub.add_parser("load", help="the load benchmark (scripts/bench.sh)",
                          description="invoice-loader load against psql "
                          "\\copy and pgloader; see scripts/bench.sh --help")
    load.add_argument("--smoke", action="store_true",
                      help="the 20-invoice figures once, and tiny variants "
                      "of the over-history, reads and catch-up rows "
                      "(20,000 versions, 200 invoices, 3 days); no tuned "
                      "rows (seconds; CI)")
    load.add_argument("--dev", action="store_true",
                      help="every row once at small scale (under a minute):"
                      " --reps 1 --big 20000 --history-size 100000 --days 5"
                      " --lookups 50 --dup-lines 100, unless given")
    load.add_argument("--reps", type=count, metavar="N",
                      help="repetitions of every 100k/1M/10M figure, of the "
                      "over-history and tuned rows (default 3); the "
                      "20-invoice and catch-up figures take 5 (1 with "
                      "--smoke or --dev)")
    load.add_argument("--with-10m", action="store_true",
                      help="also a 10M-invoice file (about 1.4 GB; long)")
    load.add_argument("--skip-history", action="store_true",
                      help="leave out every row over a history: the load "
                      "over it, its reads, its tuned row, and the "
                      "publish benchmark's row")
    load.add_argument("--skip-publish", action="store_true",
                      help="leave out only the publish benchmark's row "
                      "(its own cluster and history)")
    load.add_argument("--skip-tuned", action="store_true",
                      help="leave out the rows with the recommended server "
                      "settings of docs/guide/operate.md")
    load.add_argument("--skip-locale", action="store_true",
                      help="leave out the load into a database of the libc "
                      "locale de_DE.UTF-8")
    load.add_argument("--skip-catch-up", action="store_true",
                      help="leave out the catch-up row")
    load.add_argument("--skip-files", action="store_true",
                      help="leave out the 100k, 1M (and 10M) files' rows "
                      "(for the history rows alone; the over-history file "
                      "keeps the --big size)")
    load.add_argument("--big", type=count, metavar="N",
                      help="the size of the file the 1M targets and pgloader "
                      "are measured on, and of the over-history file "
                      "(default 1000000)")
    load.add_argument("--history-size", type=count, metavar="N",
                      help="versions of history for the over-history rows "
                      "and the publish benchmark (default 5000000)")
    load.add_argument("--days", type=count, metavar="N",
                      help="business dates of 20 invoices in the catch-up "
                      "row (default 30; 3 with --smoke)")
    load.add_argument("--lookups", type=count, metavar="N",
                      help="lookups of one invoice by key over the history "
                      "(default 200; 20 with --smoke)")
    load.add_argument("--reads", type=count, metavar="N",
                      help="full count-and-sum reads over the history "
                      "(default 5; 3 with --smoke or --dev)")
    load.add_argument("--dup-lines", type=count, metavar="N",
                      help="lines of each duplicate-heavy file (default "
                      "50000; 100 with --smoke)")
    load.add_argument("--dup-cap", type=count, default=600, metavar="S",
                      help="stop a duplicate-heavy load after S seconds "
                      "(default 600)")
    common_options(load)

    pub = sub.add_parser("publish", help="publication over history "
                         "(scripts/bench-publish.sh)",
                         description="publishing a batch over an empty "
                         "history and over N versions; see "
                         "scripts/bench-publish.sh --help")
    pub.add_argument("--smoke", action="store_true",
                     help="--history 20000 --batch 20 (seconds; CI)")
    pub.add_argument("--history", type=count, metavar="N",
                     help="versions in core.invoice_version before the batch "
                     "(default 5000000)")
    pub.add_argument("--batch", type=count, metavar="M",
                     help="invoices in the measured batch (default 10000)")
    pub.add_argument("--reps", type=count, default=5, metavar="R",
                     help="measured loads per history (default 5)")
    ex = pub.add_mutually_exclusive_group()
    ex.add_argument("--explain", dest="explain", action="store_const",
                    const="always", help="always capture the plans of "
                    "publish_batch's statements")
    ex.add_argument("--no-explain", dest="explain", action="store_const",
                    const="never", help="never; by default they are "
                    "captured when the target is missed")
    pub.add_argument("--explain-min-ms", type=whole, default=100,
                     metavar="T", help="only statements taking T ms or more "
                     "(default 100)")
    pub.add_argument("--analyzed-empty", action="store_true",
                     help="also an empty history analyzed while empty")
    pub.set_defaults(explain="auto")
    common_options(pub)

    dup = sub.add_parser("duplicates", help="duplicate-heavy files alone "
                         "(was bench/duplicates/run.sh)",
                         description="validation of files with identical "
                         "duplicate records, each the source's second date "
                         "after staging was analyzed empty; see "
                         "bench/harness/duplicates.py")
    dup.add_argument("--lines", type=count, default=50000, metavar="N",
                     help="lines of every file (default 50000)")
    dup.add_argument("--cap", type=count, default=600, metavar="S",
                     help="stop a load that takes longer (default 600)")
    dup.add_argument("--reps", type=count, default=1, metavar="N",
                     help="loads per case (default 1)")
    dup.add_argument("cases", nargs="*", metavar="CASE",
                     choices=["plain", "dup4", "dup5", "dup50"],
                     help="plain, dup4, dup5, dup50 (default: all four)")
    common_options(dup)

    src = sub.add_parser("sources", help="several sources at once "
                         "(scripts/bench-sources.sh)",
                         description="one loader process per source, all "
                         "at once, against the same loads one after the "
                         "other, with readers; see bench/harness/sources.py")
    src.add_argument("--smoke", action="store_true",
                     help="--sources 3 --per-source 200 --reps 1 (seconds;"
                     " CI)")
    src.add_argument("--sources", type=count, metavar="N",
                     help="sources, one loader each (default 8)")
    src.add_argument("--per-source", type=count, metavar="M",
                     help="invoices in each source's file (default 100000)")
    src.add_argument("--reps", type=count, metavar="R",
                     help="repetitions of each mode, alternating (default "
                     "3)")
    common_options(src)

    fmt = sub.add_parser("formats", help="a source's file format",
                         description="a file as a European ERP writes it "
                         "(semicolons, windows-1252, 1.234,56, DD.MM.YYYY, "
                         "renamed headers, gzip) against the same records "
                         "in the contract's format; see "
                         "bench/harness/formats.py")
    fmt.add_argument("--smoke", action="store_true",
                     help="--records 2000 --reps 1 (seconds; CI)")
    fmt.add_argument("--records", type=count, metavar="N",
                     help="invoices in the file (default 1000000)")
    fmt.add_argument("--reps", type=count, metavar="R",
                     help="loads of each file, alternating (default 3)")
    common_options(fmt)
    return top


def parse(argv):
    """The load benchmark is the default: `run.py --smoke` is
    `run.py load --smoke`."""
    if not argv or argv[0] not in ("load", "publish", "duplicates",
                                   "sources", "formats", "-h", "--help"):
        argv = ["load"] + argv
    args = parser().parse_args(argv)
    args.data_dir = os.path.realpath(args.data_dir)
    if not SAFE_PATH.match(args.data_dir):
        parser().error("--data-dir may only hold A-Z a-z 0-9 . _ / - (it is "
                       "put into a psql \\copy command and a pgloader file)")
    if args.json:
        args.json = os.path.abspath(args.json)
    if args.benchmark == "load":
        small = args.smoke or args.dev
        for name, full, dev, smoke in (
                ("reps", 3, 1, 3), ("big", 1000000, 20000, 1000000),
                ("history_size", 5000000, 100000, 5000000),
                ("days", 30, 5, 3), ("lookups", 200, 50, 20),
                ("reads", 5, 3, 3), ("dup_lines", None, 100, None)):
            if getattr(args, name) is None:
                setattr(args, name, smoke if args.smoke else
                        dev if args.dev else full)
        args.small_reps = 1 if small else 5
    if args.benchmark == "publish":
        smoke = (20000, 20) if args.smoke else (5000000, 10000)
        args.history = args.history or smoke[0]
        args.batch = args.batch or smoke[1]
    if args.benchmark == "sources":
        small = (3, 200, 1) if args.smoke else (8, 100000, 3)
        args.sources = args.sources or small[0]
        args.per_source = args.per_source or small[1]
        args.reps = args.reps or small[2]
    if args.benchmark == "formats":
        small = (2000, 1) if args.smoke else (1000000, 3)
        args.records = args.records or small[0]
        args.reps = args.reps or small[1]
    return argv, args


def outside(argv):
    """Build the loader if it is missing, then run this same command again
    inside a throwaway cluster."""
    loader = loader_path()
    if not os.access(loader, os.X_OK):
        print(f"bench: building {loader}", file=sys.stderr)
        import subprocess  # pylint: disable=import-outside-toplevel
        build = REPO / "build"
        subprocess.run(["cmake", "-S", str(REPO), "-B", str(build),
                        "-DCMAKE_BUILD_TYPE=RelWithDebInfo"], check=True,
                       stdout=subprocess.DEVNULL)
        subprocess.run(["cmake", "--build", str(build), f"-j{os.cpu_count()}",
                        "--target", "invoice-loader"], check=True,
                       stdout=subprocess.DEVNULL)
    wrapper = str(REPO / "scripts" / "with-tmp-pg.sh")
    # -I -S: no site-packages, no PYTHON* variables (the standard library
    # is all it uses), and a smaller process to fork children from.
    os.execv(wrapper, [wrapper, sys.executable, "-I", "-S",
                       os.path.abspath(__file__), argv[0], "--inside"] +
             argv[1:])


def main(argv):
    argv, args = parse(argv)
    if not args.inside:
        outside(argv)
    # pylint: disable=import-outside-toplevel
    if args.benchmark == "publish":
        from harness import publish as benchmark
    elif args.benchmark == "duplicates":
        from harness import duplicates as benchmark
    elif args.benchmark == "sources":
        from harness import sources as benchmark
    elif args.benchmark == "formats":
        from harness import formats as benchmark
    else:
        from harness import load as benchmark
    try:
        return benchmark.run(args)
    except Failure as e:
        print(f"bench: {e}", file=sys.stderr)
        return EX_SOFTWARE


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
