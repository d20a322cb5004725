"""The pandas peer of scripts/bench-ingest.sh: `read_csv` of a JTL, then per label count, errors, min,
max, mean and p50/p90/p95/p99 by nearest rank (sorted[ceil(p*n/100) - 1]). pandas' own
`quantile(interpolation='higher')` takes sorted[ceil(q*(n-1))], which is not nearest rank (for
n = 10 and the median it gives the 6th value, nearest rank the 5th), so each label's values are
sorted with numpy and read by rank: the exact equivalent, still one `groupby`.

    python pandas_table.py FILE     prints {"secs", "version", "table"} as one JSON line

secs runs from read_csv to the finished table (the interpreter's start and pandas' import are not
in it).
"""
import json
import sys
import time

import numpy as np
import pandas as pd


def table(path):
    df = pd.read_csv(path, usecols=["elapsed", "label", "success"],
                     dtype={"elapsed": "int64", "label": "str", "success": "bool"},
                     true_values=["true", "TRUE", "True"], false_values=["false", "FALSE", "False"])
    out = []
    failed = ~df["success"]
    for label, g in df.groupby("label", sort=False):
        v = np.sort(g["elapsed"].to_numpy())
        n = len(v)
        rank = lambda p: int(v[(p * n + 99) // 100 - 1])
        out.append({"label": label, "count": n, "errors": int(failed.loc[g.index].sum()), "min": int(v[0]),
                    "max": int(v[-1]), "mean": float(v.sum() / n), "p50": rank(50), "p90": rank(90),
                    "p95": rank(95), "p99": rank(99)})
    return out


if __name__ == "__main__":
    t0 = time.perf_counter()
    t = table(sys.argv[1])
    secs = time.perf_counter() - t0
    print(json.dumps({"secs": secs, "version": pd.__version__, "table": t}))
