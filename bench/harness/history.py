"""A long published history, built directly in SQL (bench/publish/
history.sql), shared by the publish benchmark (scripts/bench-publish.sh)
and the load benchmark's over-history rows (harness/overhistory.py).

The layout (history.sql's header has it in full): one published batch per
business date, the last one the day before BATCH_DATE, so that a file for
BATCH_DATE is the source's next date; 80% of the versions current; invoice
numbers INV-<date of the first revision>-<6 digits>, so the highest numbers
are the most recent keys.
"""

import datetime
import time

from harness.common import (BATCH_DATE, SOURCE, Failure, fresh_db, note,
                            psql, run_quietly)


def template(loader, db, start_date, feed_url=None):
    """A migrated database with the source registered from START_DATE
    (with FEED_URL as its catch-up template when given)."""
    fresh_db(db, "template1")
    run_quietly([loader, "-q", "--dsn", f"dbname={db}", "migrate"],
                f"migrate of {db}")
    run_quietly([loader, "-q", "--dsn", f"dbname={db} user=invoice_operator",
                 "source", "add", SOURCE, "--start-date", start_date] +
                (["--feed-url", feed_url] if feed_url else []),
                f"source add in {db}")


def dates_for(versions):
    """Business dates of a history of VERSIONS versions: 500, fewer for a
    small one (at least 10 versions a date)."""
    return 500 if versions >= 5000 else (versions + 9) // 10


def build(loader, db, versions):
    """DB as a template holding VERSIONS versions of history for SOURCE
    (watermark the day before BATCH_DATE), vacuumed, frozen, analyzed and
    checkpointed. Returns its facts: versions, current, invoices, batches,
    watermark, database_size, dates, build_ms."""
    dates = dates_for(versions)
    batch_day = datetime.date.fromisoformat(BATCH_DATE)
    template(loader, db,
             (batch_day - datetime.timedelta(days=dates)).isoformat())
    t0 = time.perf_counter_ns()
    psql(db, "publish/history.sql", source=SOURCE, batch_date=BATCH_DATE,
         dates=dates, keys_per_date=(versions * 4 // 5 + dates - 1) // dates)
    build_ms = (time.perf_counter_ns() - t0) // 1_000_000
    got, current, keys, batches, mark, size = psql(
        db, "publish/history_facts.sql")[0]
    if mark != (batch_day - datetime.timedelta(days=1)).isoformat():
        raise Failure(f"the history's watermark in {db} is {mark}, not the "
                      f"day before {BATCH_DATE}")
    note(f"{db}: {got} versions ({current} current, {keys} keys), "
         f"{batches} batches, database {size}, built in "
         f"{build_ms // 1000} s")
    return {"versions": int(got), "current": int(current),
            "invoices": int(keys), "batches": int(batches),
            "watermark": mark, "database_size": size, "dates": dates,
            "build_ms": build_ms}
