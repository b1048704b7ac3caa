"""The big file's load into a database of a libc locale (de_DE.UTF-8)
against the same load into the benchmark's C database: shown, no target.

Every other row runs in databases of the cluster's C collation (initdb
--no-locale), under which text compares with memcmp. A cluster made by
Debian's pg_createcluster takes the system's locale, under which every
B-tree comparison of two different texts is a strcoll() call. Migration
0027 gave the invoice numbers COLLATE "C" (a 1M load into a de_DE.UTF-8
database 13.3-15.0 s before, 9.9-10.3 s after, against 9.9-10.3 s in a C
one); this row keeps that visible, so that a text key added without it
shows as a ratio above 1.

The template bench_tpl_locale is made like bench_tpl (migrated, the source
registered) but from template0 with the locale; in every repetition, after
the big file's load into the C database, the same file is loaded into a
fresh copy of it. In --smoke the seed file is (as pgloader is measured on
it there). The locale must exist on the machine (Debian: locale-gen;
tests/e2e/lib.sh's ensure_locale makes it for the e2e tests, and
scripts/install-deps.sh installs the locales package): the benchmark does
not generate it, and the row says so when it is missing.
"""

import subprocess

from harness.common import SOURCE, BATCH_DATE, note, psql
from harness.overhistory import label
from harness.rows import row, skipped

LOCALE = "de_DE.UTF-8"
TEMPLATE = "bench_tpl_locale"


def installed(name):
    """Whether `locale -a` lists NAME (as glibc spells it: de_DE.utf8)."""
    short = (name.split(".")[0] + ".utf8").lower()
    done = subprocess.run(["locale", "-a"], capture_output=True, text=True,
                          check=False)
    return short in (x.strip().lower() for x in done.stdout.splitlines())


class LibcLocale:
    def __init__(self, bench, why_not):
        self.b = bench
        self.missing = why_not

    def prepare(self):
        """The template, or self.missing saying why there is none."""
        if self.missing:
            note(f"the load into a {LOCALE} database skipped: {self.missing}")
            return
        if not installed(LOCALE):
            self.missing = (f"the locale {LOCALE} is not installed (Debian: "
                            "locale-gen; tests/e2e/lib.sh ensure_locale)")
            note(f"the load into a {LOCALE} database skipped: {self.missing}")
            return
        note(f"template database {TEMPLATE}: locale {LOCALE}, migrated, "
             f"source {SOURCE} from {BATCH_DATE}")
        psql("postgres", "db/fresh_locale.sql", db=TEMPLATE, locale=LOCALE)
        self.b.migrate_template(TEMPLATE)

    def file(self):
        """The file this row loads: the big one, the seed in --smoke (None
        with --skip-files)."""
        role = "seed" if self.b.smoke else "big"
        return next((f for f in self.b.files if f["role"] == role), None)

    def measure(self, f, rep):
        """File F's load into a fresh copy of the locale's template."""
        if self.missing or f is None:
            return
        self.b.measure_load(dict(f, role=f["role"] + "_locale"), rep,
                            template=TEMPLATE)

    def rows(self):
        figure = f"load into a database of the libc locale {LOCALE}"
        f = self.file()
        if self.missing or f is None:
            return [skipped((5, 1, 0), figure,
                            self.missing or "--skip-files")]
        xs = self.b.over.xs
        r = row((5, 1, 1), f"load, file to published, "
                f"{label(f['records'])} invoices, into a database of the "
                f"libc locale {LOCALE} (invoice numbers COLLATE \"C\", "
                "migration 0027)", xs(f["role"] + "_locale", "load"),
                "the same load, C database", xs(f["role"], "load"),
                shown=True)
        return [r] if r is not None else []

    def workload_lines(self):
        if self.missing:
            return [f"{LOCALE} database: skipped ({self.missing})"]
        return [f"{LOCALE} database: {TEMPLATE} from template0 with "
                f"LOCALE '{LOCALE}', the big file (the seed in --smoke) "
                "loaded into a fresh copy after its load into the C one"]

    def json(self):
        return {"locale": LOCALE, "template": TEMPLATE,
                "missing": self.missing}
