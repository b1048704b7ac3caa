"""prom_series: promtool rule-test input from a metrics file the loader
wrote (status --format prometheus), for the e2e tests of the shipped
alerting rules.

series(path, now): each sample of the file as a promtool input series held
for 30 minutes (one sample a minute), with every *_timestamp_seconds value
shifted by now, so that the test's time 0 is the moment the file was
written and an alert's `time() - timestamp` reads as it would have then.
"""


def series(path, now):
    out = []
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        key, value = line.rsplit(" ", 1)
        v = float(value)
        if key.split("{")[0].endswith("_timestamp_seconds"):
            v -= now
        out.append({"series": key, "values": f"{v!r}+0x30"})
    return out
