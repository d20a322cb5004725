#!/usr/bin/env python3
"""How big a bundle's timelines are, and the least any exact encoding of their cells could take.

    python3 scripts/timeline-size.py BUNDLE.json

Prints the bundle's gzip -9 size (compact JSON) with and without `runs[].timeline`, their ratio,
and a floor for exact cells: given each transaction's whole-run histogram (already in the bundle
without timelines), the cells add which bucket each sample fell in. For a value seen m times over B
buckets there are C(m + B - 1, m) placements, so an encoder that could represent every placement
needs log2 of that many bits; summed over values and transactions, this is the floor the ratio is
compared with (an encoder that knows more about the data, e.g. that it drifts over time, may beat it
on such data; on stationary data it cannot). Used for decision 0052's and 0061's bundle-size figures.

Reads both forms of a transaction's cells (docs/bundle-format.md#transactiontimeline): the plain
`cells` and the compact `cell_steps`. `python3 scripts/timeline-size.py --plain A.json B.json`
instead checks that two bundles carry the same timelines once both are read into the plain form
(e.g. an example bundle before and after it was rewritten in steps).
"""
import copy
import gzip
import json
import sys
from math import lgamma, log


def gz(obj):
    return len(gzip.compress(json.dumps(obj, separators=(",", ":")).encode(), 9))


def log2_choose(n, k):
    return (lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1)) / log(2)


def cells_of_steps(steps):
    """`cell_steps` to `cells`: per bucket, index steps, each followed by -(count - 1) when above 1."""
    cells = []
    for row in steps:
        cell, index = [], 0
        for d in row:
            if d < 0:
                cell[-1] = 1 - d
            else:
                index = d if not cell else index + d
                cell += [index, 1]
        cells.append(cell)
    return cells


def plain(tx):
    """A transaction's timeline in the plain form (cells, values_ms, samples, sum_ms)."""
    tx = dict(tx)
    if "value_steps" in tx:
        values, v = [], 0
        for d in tx.pop("value_steps"):
            v += d
            values.append(float(v))
        tx["values_ms"] = values
    values = tx.get("values_ms", [])
    if "cell_steps" in tx:
        cells = tx["cells"] = cells_of_steps(tx.pop("cell_steps"))
        tx.setdefault("samples", [sum(c[1::2]) for c in cells])
        if "sum_ms" not in tx:
            sums = []
            for c in cells:
                s = 0.0
                for i in range(0, len(c), 2):
                    s += values[c[i]] * float(c[i + 1])
                sums.append(s)
            tx["sum_ms"] = sums
    for key, empty in (("values_ms", []), ("cells", []), ("sum_ms", [])):
        if tx.get(key) == empty:
            tx.pop(key, None)
    return tx


def plain_bundle(bundle):
    for run in bundle["runs"]:
        timeline = run.get("timeline")
        if timeline:
            timeline["transactions"] = [plain(tx) for tx in timeline.get("transactions", [])]
    return bundle


def main(path):
    bundle = json.load(open(path, encoding="utf-8"))
    whole = gz(bundle)
    bare = copy.deepcopy(bundle)
    for run in bare["runs"]:
        run.pop("timeline", None)
    without = gz(bare)
    floor_bits, samples = 0.0, 0
    for run in bundle["runs"]:
        timeline = run.get("timeline")
        if not timeline:
            continue
        buckets = timeline["buckets"]
        for tx in timeline["transactions"]:
            counts = {}
            for cells in plain(tx).get("cells", []):
                for i in range(0, len(cells) - 1, 2):
                    counts[cells[i]] = counts.get(cells[i], 0) + cells[i + 1]
            samples += sum(counts.values())
            floor_bits += sum(log2_choose(m + buckets - 1, m) for m in counts.values())
    floor = without + floor_bits / 8
    print(f"gzip -9, compact JSON: {whole:,} B with timelines, {without:,} B without: {whole / without:.2f}x")
    if samples:
        print(
            f"floor for exact cells: {floor_bits / 8:,.0f} B ({floor_bits / samples:.2f} bits a sample, "
            f"{samples:,} samples): at least {floor / without:.2f}x the bundle without timelines"
        )


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--plain":
        a, b = (plain_bundle(json.load(open(p, encoding="utf-8"))) for p in sys.argv[2:])
        sys.exit(0 if a == b else "the bundles' timelines (or other parts) differ")
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
