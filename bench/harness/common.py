"""What both benchmarks share: running SQL files and timed children against
the benchmark's own cluster, the machine report, tables, rounding, JSON.

Everything here talks to the cluster scripts/with-tmp-pg.sh started, through
the PG* variables it exports; nothing reaches any other server.
"""

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from harness import spawner

BENCH = Path(__file__).resolve().parent.parent  # bench/
REPO = BENCH.parent
SOURCE = "acme-erp"
BATCH_DATE = "2026-11-28"
DEFAULT_DATA_DIR = "/var/tmp/invoice-loader-bench"
# The paths go into a psql \copy command and a pgloader command file.
SAFE_PATH = re.compile(r"^[A-Za-z0-9._/-]+$")
IDENTIFIER = re.compile(r"^[a-z_][a-z0-9_]*$")


class Failure(Exception):
    """Something failed that a benchmark cannot carry on without (exit 70)."""


def note(message):
    """A progress line on stderr, led by the time of day."""
    print(time.strftime("%H:%M:%S") + "  " + message, file=sys.stderr,
          flush=True)


def loader_path():
    return os.environ.get("INVOICE_LOADER",
                          str(REPO / "build" / "loader" / "invoice-loader"))


def inside_env():
    """The environment of everything a benchmark starts inside its cluster."""
    env = dict(os.environ)
    env["PGOPTIONS"] = (env.get("PGOPTIONS", "") +
                        " -c client_min_messages=warning").strip()
    # psql would otherwise take the client encoding from the locale (C).
    env["PGCLIENTENCODING"] = "UTF8"
    env["LC_ALL"] = "C"
    return env


def psql(db, sql_file, /, **variables):
    """Run bench/SQL_FILE in DB as the cluster's superuser with the psql
    variables given; return its rows (lists of strings, NULL as '')."""
    cmd = ["psql", "-X", "-qAt", "-v", "ON_ERROR_STOP=1", "-F", "\x1f",
           "-d", db, "-f", str(BENCH / sql_file)]
    for name, value in variables.items():
        cmd += ["-v", f"{name}={value}"]
    done = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, check=False)
    if done.returncode != 0:
        sys.stderr.write(done.stderr)
        raise Failure(f"psql -f bench/{sql_file} in {db} failed "
                      f"(exit {done.returncode})")
    return [line.split("\x1f") for line in done.stdout.splitlines()]


def value(db, sql_file, /, **variables):
    """The first field of the first row of psql(...)."""
    rows = psql(db, sql_file, **variables)
    return rows[0][0] if rows else None


def run_quietly(cmd, what, env=None):
    """Run CMD, its output kept; on failure print it and raise Failure."""
    done = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, env=env, check=False)
    if done.returncode != 0:
        sys.stderr.write(done.stdout + done.stderr)
        raise Failure(f"{what} failed (exit {done.returncode})")
    return done.stdout


class Child:
    """One finished timed process."""

    def __init__(self, rc, wall_ns, rss_kb, out, err):
        self.rc, self.wall_ns, self.rss_kb = rc, wall_ns, rss_kb
        self.out, self.err = out, err

    @property
    def wall_ms(self):
        return self.wall_ns / 1e6

    def output(self):
        """Its stdout and stderr, for a failure report."""
        return (self.out.read_text(errors="replace") +
                self.err.read_text(errors="replace"))


def rss_floor():
    """The peak RSS a child reports that runs true: the least any measured
    child can report (see harness/spawner.py); in the JSON and the workload
    section, so that a figure near it reads as what it is."""
    return spawner.run([program("true")], os.environ, os.devnull,
                       os.devnull)[1]


def program(name):
    """NAME's path (searched on PATH unless it has a slash)."""
    found = shutil.which(name)
    if not found:
        raise Failure(f"{name} not found")
    return os.path.abspath(found)


def timed(name, cmd, work, env=None):
    """A CHECKPOINT, then CMD with its output in WORK/NAME.{out,err}.

    The whole process is timed, fork to exit, with perf_counter_ns; its peak
    resident set is ru_maxrss of os.wait4 (kB on Linux), the figure
    /usr/bin/time -v reports; both taken by harness/spawner.py."""
    psql("postgres", "db/checkpoint.sql")
    out, err = work / f"{name}.out", work / f"{name}.err"
    cmd = [program(cmd[0])] + list(cmd[1:])
    rc, rss_kb, wall_ns = spawner.run(cmd, os.environ if env is None else env,
                                      out, err)
    return Child(rc, wall_ns, rss_kb, out, err)


def fresh_db(db, template="template0"):
    psql("postgres", "db/fresh.sql", db=db, template=template)


def drop_db(db):
    psql("postgres", "db/drop.sql", db=db)


def step_times(db, sha256=""):
    """The newest batch's (with SHA256, when given) step times, from the
    database's own records (bench/report/step_times.sql); None if none."""
    rows = psql(db, "report/step_times.sql", sha256=sha256)
    if not rows:
        return None
    bid, state, *ms = rows[0]
    names = ("copy_ms", "validate_ms", "publish_ms", "attempt_ms")
    times = {n: (float(v) if v != "" else None) for n, v in zip(names, ms)}
    return {"batch_id": int(bid), "state": state, **times}


def cached_file(directory, csv_name, count, generator):
    """DIRECTORY/CSV_NAME and its manifest, written by the command
    GENERATOR(DIRECTORY, COUNT) (which prints the CSV's path) unless the
    manifest says the file is already there with COUNT records and the
    stamp next to it (<csv>.generated-by) says the same script (and
    helpers), with the same arguments, wrote it: generation is deterministic, but a changed
    generator writes other bytes. A dict: csv, manifest, records, sha256,
    bytes."""
    csv = Path(directory) / csv_name
    manifest = Path(str(csv) + ".manifest.json")
    command = generator(directory, count)
    # the script's bytes (and those of the helpers it sources from lib/
    # next to it) and its arguments, not its path: a clone elsewhere
    # writes the same bytes
    script = Path(command[0])
    stamp = hashlib.sha256("\0".join(command[1:]).encode())
    for part in [script] + sorted((script.parent / "lib").glob("*.sh")):
        stamp.update(part.read_bytes())
    stamp = stamp.hexdigest() + "\n"
    stamp_file = Path(str(csv) + ".generated-by")
    if (csv.is_file() and manifest.is_file() and stamp_file.is_file() and
            stamp_file.read_text() == stamp and
            int(json.loads(manifest.read_text())["record_count"]) == count):
        note(f"reusing {csv}")
    else:
        note(f"generating {csv} ({count} invoices)")
        csv = Path(run_quietly(command, f"generating {csv}").strip())
        manifest = Path(str(csv) + ".manifest.json")
        Path(str(csv) + ".generated-by").write_text(stamp)
    m = json.loads(manifest.read_text())
    return {"csv": csv, "manifest": manifest,
            "records": int(m["record_count"]), "sha256": m["sha256"],
            "bytes": csv.stat().st_size}


def loadavg():
    with open("/proc/loadavg", encoding="ascii") as f:
        return " ".join(f.read().split()[:3])


def machine():
    """The machine and the server settings the figures were measured on."""
    mem_kb = meminfo().get("MemTotal")
    cpu = None
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    rows = psql("postgres", "report/server.sql")
    return {"nproc": os.cpu_count(), "memory_kb": mem_kb, "cpu": cpu,
            "postgresql": rows[0][1], "settings": dict(rows[1:]),
            "huge_pages": huge_pages_in_use()}


def meminfo():
    """/proc/meminfo as {name: int} (kB, or a count for HugePages_*)."""
    out = {}
    with open("/proc/meminfo", encoding="ascii") as f:
        for line in f:
            name, _, rest = line.partition(":")
            out[name] = int(rest.split()[0])
    return out


def huge_pages_in_use():
    """The server's huge_pages, the pages its shared memory needs,
    and the host's: reserved (vm.nr_hugepages) and held. PostgreSQL 15 does
    not say whether it got them (huge_pages = try falls back to 4 kB pages
    silently); a server that did holds at least the pages it needs, as
    reserved-unfaulted (Rsvd) or faulted (Total - Free) pages. The cluster
    is this host's (scripts/with-tmp-pg.sh), so /proc/meminfo is its."""
    setting, needed = psql("postgres", "report/huge_pages.sql")[0]
    m = {k[len("HugePages_"):]: v for k, v in meminfo().items()
         if k.startswith("HugePages_")}
    held = m.get("Total", 0) - m.get("Free", 0) + m.get("Rsvd", 0)
    needed = int(needed)
    return {"huge_pages": setting, "needed_pages": needed,
            "host_pages": m.get("Total", 0), "held_pages": held,
            "used": needed > 0 and setting != "off" and held >= needed}


def huge_pages_line(h):
    if h is None:
        return "huge pages: not checked"
    if h["used"]:
        return (f"huge pages: the shared memory is in huge pages "
                f"({h['needed_pages']} needed, {h['held_pages']} held of the "
                f"host's {h['host_pages']})")
    return (f"huge pages: not used (huge_pages = {h['huge_pages']}; "
            f"{h['needed_pages']} needed, the host reserves "
            f"{h['host_pages']}: vm.nr_hugepages, docs/guide/operate.md)")


def machine_lines(facts, load_at_start, load_at_end):
    """The "== machine" and "== PostgreSQL" sections."""
    mem = f"{facts['memory_kb'] / 1048576:.1f} GiB"
    cpu = f", {facts['cpu']}" if facts["cpu"] else ""
    settings = ", ".join(f"{k} = {v}" for k, v in facts["settings"].items())
    return ["== machine",
            f"nproc {facts['nproc']}, memory {mem}{cpu}",
            f"load average (1, 5, 15 min): {load_at_start} at the start, "
            f"{load_at_end} at the end",
            "== PostgreSQL", facts["postgresql"], settings,
            huge_pages_line(facts.get("huge_pages"))]


def loader_version(loader):
    done = subprocess.run([loader, "--version"], capture_output=True,
                          text=True, check=False)
    lines = (done.stdout + done.stderr).splitlines()
    return lines[0] if lines else "?"


def rounded(v, places=1):
    """V rounded half away from zero to PLACES decimals, as PostgreSQL's
    round(numeric, n) prints it (trailing zeros kept)."""
    q = Decimal(1).scaleb(-places)
    return str(Decimal(repr(float(v))).quantize(q, rounding=ROUND_HALF_UP))


def md_table(rows):
    """Rows of cells, the first the header, as an aligned markdown table:
    the first column left-aligned, the others right-aligned."""
    n = max(len(r) for r in rows)
    rows = [list(r) + [""] * (n - len(r)) for r in rows]
    w = [max(len(r[i]) for r in rows) for i in range(n)]
    out = []
    for k, r in enumerate(rows):
        cells = [r[0].ljust(w[0])] + [c.rjust(w[i]) for i, c in
                                      enumerate(r) if i > 0]
        out.append("|" + "|".join(f" {c} " for c in cells) + "|")
        if k == 0:
            out.append("|" + "|".join("-" * (x + 2) for x in w) + "|")
    return out


def plain_table(rows):
    """Rows of cells, the first the header, as "a | b | c" lines under a
    dashed line: the first column left-aligned, the others right-aligned."""
    n = max(len(r) for r in rows)
    rows = [list(r) + [""] * (n - len(r)) for r in rows]
    w = [max(len(r[i]) for r in rows) for i in range(n)]
    out = []
    for k, r in enumerate(rows):
        line = r[0].ljust(w[0]) + "".join(" | " + c.rjust(w[i])
                                          for i, c in enumerate(r) if i > 0)
        out.append(line)
        if k == 0:
            out.append(re.sub(r"[^|]", "-", line))
    return out


def default_json(data_dir, benchmark):
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    return Path(data_dir) / "results" / f"{benchmark}-{stamp}.json"


def write_json(path, document):
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    tmp.replace(path)
    note(f"every measurement: {path}")


def utc_now():
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
