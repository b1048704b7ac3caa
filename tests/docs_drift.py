#!/usr/bin/env python3
"""docs_drift.py REPO: the documents state only what the binary has.

The command reference (docs/reference/commands.md) and the exit-code table
(docs/reference/exit-codes.md) are generated from the binary's tables and
checked against it (scripts/gen-reference.sh --check); this check holds
every other document to them and to the SQLSTATE registry:

  * every `invoice-loader [global options] COMMAND ...` line in the guides,
    the runbook, the references, the design notes, the README and the
    systemd units names a command the binary has, and only options that
    command (or the global table) has;
  * every "exit N", "exits N", "exit code N" names a code of the table, or
    128 + a signal's number (a shell's status of a killed process);
  * every IVnnn code named is in sql/ERRCODES.md.

Prints one line per problem (file:line) and exits 1 when there is any.
"""
import pathlib
import re
import sys

repo = pathlib.Path(sys.argv[1])


def commands_and_options():
    """{command: {--option}} from the generated command reference."""
    table, current = {}, None
    for line in (repo / "docs/reference/commands.md").read_text().splitlines():
        m = re.match(r"^## (.+)$", line)
        if m:
            current = m.group(1).strip().strip("`")
            table[current] = set()
            continue
        if current is not None:
            for opt in re.findall(r"^\s+(--[a-z][a-z0-9-]*)", line):
                table[current].add(opt)
            # Boost's form of a switch with a short name: "-v [ --verbose ]"
            for short, opt in re.findall(r"^\s+(-[a-z]) \[ (--[a-z][a-z0-9-]*) \]", line):
                table[current].update((short, opt))
    return table


def exit_codes():
    codes = set()
    for line in (repo / "docs/reference/exit-codes.md").read_text().splitlines():
        m = re.match(r"^\| (\d+) \|", line)
        if m:
            codes.add(int(m.group(1)))
    return codes


def sqlstates():
    return set(re.findall(r"^\| (IV\d{3}) ", (repo / "sql/ERRCODES.md").read_text(), re.M))


def documents():
    paths = [repo / "README.md", repo / "CONTRIBUTING.md"]
    for d in ("docs/guide", "docs/reference", "docs/design"):
        paths += sorted((repo / d).glob("*.md"))
    paths += sorted((repo / "packaging/systemd").glob("*"))
    generated = {repo / "docs/reference/commands.md", repo / "docs/reference/exit-codes.md"}
    return [p for p in paths if p.is_file() and p not in generated]


def logical_lines(text):
    """Lines with backslash continuations joined, with their first number."""
    out, buf, start = [], "", None
    for n, line in enumerate(text.splitlines(), 1):
        if start is None:
            start = n
        if line.rstrip().endswith("\\"):
            buf += line.rstrip()[:-1] + " "
            continue
        out.append((start, buf + line))
        buf, start = "", None
    return out


def main():
    table = commands_and_options()
    global_opts = table.get("Global options", set())
    names = sorted((c for c in table if c != "Global options"), key=len, reverse=True)
    codes, states = exit_codes(), sqlstates()
    switches = {"--version", "--help", "-h", "-q", "-v", "--quiet", "--verbose"}
    if not names or not codes or not states:
        print("docs_drift: could not read the command, exit-code or SQLSTATE tables")
        return 1
    problems = 0

    def problem(path, n, what):
        nonlocal problems
        problems += 1
        print(f"{path.relative_to(repo)}:{n}: {what}")

    for path in documents():
        for n, line in logical_lines(path.read_text()):
            for m in re.finditer(r"invoice-loader((?: +[^\s`|#;)\"']+)+)", line):
                words = m.group(1).split()
                i = 0
                while i < len(words) and words[i].startswith("-"):
                    opt = words[i].split("=", 1)[0]
                    if opt.startswith("--") and opt not in global_opts:
                        problem(path, n, f"{opt} is not a global option")
                    # a global option's value, unless it is a switch
                    i += 1 if ("=" in words[i] or opt in switches) else 2
                rest = " ".join(words[i:])
                command = next((c for c in names if rest == c or rest.startswith(c + " ")), None)
                if command is None:
                    continue  # prose ("invoice-loader sweep <database>"), not a command line
                for opt in re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", rest[len(command):]):
                    if opt not in table[command] and opt not in global_opts:
                        problem(path, n, f"`invoice-loader {command}` has no option {opt}")
            for m in re.finditer(r"\bexit(?:s|ing|ed)?(?: code| status| with)? (\d{1,3})\b", line):
                if int(m.group(1)) not in codes and not 128 < int(m.group(1)) < 160:
                    problem(path, n, f"exit {m.group(1)} is not in the exit-code table")
            for code in re.findall(r"\bIV\d{3}\b", line):
                if code not in states:
                    problem(path, n, f"{code} is not in sql/ERRCODES.md")
    print(f"docs_drift: {len(documents())} documents read, {problems} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
