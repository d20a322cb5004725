"""Checks of scripts/bench-ingest.sh: every tool's per-label table against the generator's answers
(scripts/gen_jtl.py --answers: nearest-rank percentiles computed by sorting every label's values),
and runlens' table as shown (its CSV export) against the same answers formatted as runlens shows
numbers (src/format.rs `number`).
"""
import csv
import io
import math
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal

EXACT = ("count", "min", "max", "p50", "p90", "p95", "p99")


def labels_of(answers):
    return {k: v for k, v in answers["labels"].items() if k != "TOTAL"}


def check(table, answers):
    """Mismatches of `table` (rows of label, count, errors?, min, max, mean, p50..p99) against the
    answers: every label present once, integers equal, the mean within 1e-9 relative, errors equal
    where the tool gives them."""
    if not table:
        return ["no table"]
    want = labels_of(answers)
    bad, seen = [], set()
    for r in table:
        label = r.get("label")
        if label in seen:
            bad.append(f"label {label[:50]!r} twice")
        seen.add(label)
        a = want.get(label)
        if a is None:
            bad.append(f"unexpected label {str(label)[:60]!r}")
            continue
        for k in EXACT:
            if r.get(k) != a[k]:
                bad.append(f"{label[:40]!r} {k}: {r.get(k)} != {a[k]}")
        if r.get("errors") is not None and r["errors"] != a["errors"]:
            bad.append(f"{label[:40]!r} errors: {r['errors']} != {a['errors']}")
        mean = r.get("mean")
        if mean is None or not math.isclose(mean, a["mean"], rel_tol=1e-9, abs_tol=0):
            bad.append(f"{label[:40]!r} mean: {mean} != {a['mean']}")
    bad += [f"missing label {label[:60]!r}" for label in want if label not in seen]
    return bad


def thousands(v, decimals):
    s = f"{abs(v):,.{decimals}f}"
    return ("−" if v < 0 and float(s.replace(",", "")) != 0 else "") + s


def fmt_number(v):
    """src/format.rs `number`: whole numbers and values from 100 on without decimals, from 10 on
    one, below that two; thousands separated by commas; trailing zeros of the fraction dropped.
    A value exactly half-way between two roundings (rare: a mean such as 211.5) may be shown
    either way, so the set of acceptable texts is returned."""
    a = abs(v)
    decimals = 0 if a == math.trunc(a) or a >= 100 else 1 if a >= 10 else 2
    out = set()
    for mode in (ROUND_HALF_EVEN, ROUND_HALF_UP):
        r = float(Decimal(v).quantize(Decimal(1).scaleb(-decimals), rounding=mode))
        s = thousands(r, decimals)
        if decimals > 0 and "." in s:
            s = s.rstrip("0").rstrip(".")
        out.add(s)
    return out


SHOWN = {"Samples": "count", "Errors": "errors", "Mean (ms)": "mean", "Median (ms)": "p50",
         "p90 (ms)": "p90", "p95 (ms)": "p95", "p99 (ms)": "p99", "Min (ms)": "min", "Max (ms)": "max"}


def check_shown(csv_text, answers):
    """Mismatches of runlens' latency table as exported (CSV) against the formatted answers."""
    if not csv_text:
        return ["no CSV export of the latency table"]
    rows = list(csv.DictReader(io.StringIO(csv_text)))
    want = labels_of(answers)
    bad, seen = [], set()
    for r in rows:
        label = r.get("Transaction", "")
        seen.add(label)
        a = want.get(label)
        if a is None:
            bad.append(f"shown: unexpected label {label[:60]!r}")
            continue
        for col, key in SHOWN.items():
            expect = fmt_number(a[key])
            if r.get(col) not in expect:
                bad.append(f"shown: {label[:40]!r} {col}: {r.get(col)!r} != {' or '.join(sorted(expect))}")
    bad += [f"shown: missing label {label[:60]!r}" for label in want if label not in seen]
    return bad
