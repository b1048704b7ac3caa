#!/usr/bin/env python3
"""check_log_lines.py REFERENCE LOG...: every line the loader wrote to stderr
in the end-to-end suite (collected by tests/e2e/lib.sh) matches the log
schema that REFERENCE (docs/reference/logs.md) states, so the reference
cannot drift from the binary:

  * a JSON line is one object whose first keys are ts, level, run_id, msg,
    with ts UTC with milliseconds, a known level and a UUID run id; a text
    line is "TS LEVEL run=UUID key=value ... message";
  * every other key is one of the tables "Fields" and "Retries", and its
    value has a type the table gives (number, string, object);
  * a line may start with an sd-daemon priority prefix (<3>, <4>, <6>, <7>);
  * a usage error in text form ("invoice-loader: ..." and "Run
    'invoice-loader --help' for usage.") is the one other line allowed.

Prints one line per problem (with the file and line) and exits 1 when there
is any; prints how many lines it read otherwise.
"""
import json
import re
import sys

TS = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
TEXT = re.compile(r"^(\S+) (DEBUG|INFO|WARN|ERROR) run=(\S+)(?: (.*))?$")
PREFIX = re.compile(r"^<[3467]>")
FIELD = re.compile(r'^([a-z_0-9]+)=("(?:[^"\\]|\\.)*"|\S+)(?: |$)')
LEVELS = {"debug", "info", "warn", "error"}


def schema(reference):
    """{key: {types}} from the reference's Fields and Retries tables."""
    types = {}
    section = None
    for line in open(reference, encoding="utf-8"):
        if line.startswith("## "):
            section = line[3:].strip()
            continue
        if section not in ("Fields", "Retries") or not line.startswith("| `"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        keys = re.findall(r"`([a-z_0-9]+)`", cells[0])
        kinds = [k.strip() for k in cells[1].split(",")]
        for i, key in enumerate(keys):
            kind = kinds[i] if len(kinds) == len(keys) else cells[1]
            types.setdefault(key, set()).update(
                t.strip() for t in re.split(r"\bor\b", kind))
    return types


def json_type(v):
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, dict):
        return "object"
    return type(v).__name__


def check_json(line, types):
    try:
        d = json.loads(line)
    except ValueError as e:
        return [f"not JSON: {e}"]
    if not isinstance(d, dict):
        return ["not a JSON object"]
    problems = []
    if list(d)[:4] != ["ts", "level", "run_id", "msg"]:
        problems.append(f"first keys {list(d)[:4]}, not ts, level, run_id, msg")
    if not TS.match(str(d.get("ts", ""))):
        problems.append(f"ts {d.get('ts')!r}")
    if d.get("level") not in LEVELS:
        problems.append(f"level {d.get('level')!r}")
    if not UUID.match(str(d.get("run_id", ""))):
        problems.append(f"run_id {d.get('run_id')!r}")
    for key, value in list(d.items())[4:]:
        if key not in types:
            problems.append(f"key {key!r} is not in the reference")
        elif json_type(value) not in types[key]:
            problems.append(f"{key} is a {json_type(value)}, the reference says "
                            f"{' or '.join(sorted(types[key]))}")
    return problems


def check_text(line, types):
    m = TEXT.match(line)
    if not m:
        return ["neither a log line nor a usage error"]
    problems = []
    if not TS.match(m.group(1)):
        problems.append(f"time {m.group(1)!r}")
    if not UUID.match(m.group(3)):
        problems.append(f"run id {m.group(3)!r}")
    rest = m.group(4) or ""
    while True:
        f = FIELD.match(rest)
        if not f or f.group(1) not in types:
            break  # the message
        key, value = f.group(1), f.group(2)
        if types[key] == {"number"} and not re.match(r"^-?\d+(\.\d+)?$", value):
            problems.append(f"{key}={value} is not a number")
        rest = rest[f.end():]
    return problems


def main():
    reference, logs = sys.argv[1], sys.argv[2:]
    types = schema(reference)
    if not types:
        print(f"check_log_lines: no Fields table in {reference}")
        return 1
    read = bad = 0
    for path in logs:
        for n, raw in enumerate(open(path, encoding="utf-8", errors="replace"), 1):
            line = PREFIX.sub("", raw.rstrip("\n"))
            if not line.strip():
                continue
            read += 1
            if line.startswith("invoice-loader: ") or \
                    line == "Run 'invoice-loader --help' for usage.":
                continue
            check = check_json if line.startswith("{") else check_text
            for p in check(line, types):
                bad += 1
                print(f"{path}:{n}: {p}: {line[:200]}")
    print(f"check_log_lines: {read} lines read, {bad} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
