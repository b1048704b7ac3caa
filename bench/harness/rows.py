"""One row of the load benchmark's table from raw figures: the cells
(figure | median | min | max | baseline | baseline median | ratio | target
| met) and the numbers that go into the JSON. Used by the rows of
harness/overhistory.py, catchup.py and tuned.py."""

import statistics

from harness.common import rounded


def fmt_ms(v, places=1):
    return rounded(v, places) + " ms"


def row(key, figure, xs, base_name=None, base_xs=None, *, target=None,
        kind="ratio", places=1, shown=False, stretch=None):
    """The row KEY (its sort key) for FIGURE measured as XS (ms).

    BASE_XS, when given, are the baseline's measurements (ms) and the ratio
    is median(XS) / median(BASE_XS). TARGET: the must target, judged on the
    ratio (kind "ratio": at most; "speedup": baseline / median, at least)
    or in ms (kind "max_ms": the worst of XS at most; "median_ms": the
    median at most).
    SHOWN: no target, the target column says "shown". STRETCH: a stretch
    limit on the ratio, judged in its own words ("stretch met"), not
    counted among the targets. Returns (key, cells, numbers)."""
    if not xs:
        return None
    med, lo, hi = statistics.median(xs), min(xs), max(xs)
    base = statistics.median(base_xs) if base_xs else None
    ratio = None
    if base:
        ratio = base / med if kind == "speedup" else med / base
    target_text = met = ""
    if target is not None and kind in ("max_ms", "median_ms"):
        judged = hi if kind == "max_ms" else med
        target_text = ("max " if kind == "max_ms" else "") + \
            f"<= {target} ms"
        met = "met" if judged <= target else "NOT met"
    elif target is not None:
        target_text = (f">= {target}x" if kind == "speedup"
                       else f"<= {target}x")
        if ratio is None:
            met = "not measured"
        elif kind == "speedup":
            met = "met" if ratio >= target else "NOT met"
        else:
            met = "met" if ratio <= target else "NOT met"
    elif stretch is not None:
        target_text = f"stretch <= {stretch}x"
        if ratio is not None:
            met = "stretch met" if ratio <= stretch else "stretch NOT met"
    elif shown:
        target_text = "shown"
    cells = [figure, fmt_ms(med, places), fmt_ms(lo, places),
             fmt_ms(hi, places), base_name or "",
             fmt_ms(base, places) if base is not None else "",
             rounded(ratio, 2) + "x" if ratio is not None else "",
             target_text, met]
    return (key, cells, {"figure": figure, "median": med, "min": lo,
                         "max": hi, "baseline": base_name,
                         "baseline_median": base, "ratio": ratio,
                         "target": target_text, "met": met, "values": xs})


def skipped(key, figure, why):
    """A row that was left out, saying why."""
    cells = [f"{figure}: {why}", "skipped", "", "", "", "", "", "",
             "skipped"]
    return (key, cells, {"figure": figure, "met": "skipped",
                         "missing": why})
