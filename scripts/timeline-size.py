#!/usr/bin/env python3
"""How big a bundle's timelines are, and the least any exact encoding of their cells could take.

    python3 scripts/timeline-size.py BUNDLE.json

Prints the bundle's gzip -9 size (compact JSON) with and without `runs[].timeline`, their ratio,
and a floor for exact cells: given each transaction's whole-run histogram (already in the bundle
without timelines), the cells add which bucket each sample fell in. For a value seen m times over B
buckets there are C(m + B - 1, m) placements, so an encoder that could represent every placement
needs log2 of that many bits; summed over values and transactions, this is the floor the ratio is
compared with (an encoder that knows more about the data, e.g. that it drifts over time, may beat it
on such data; on stationary data it cannot). Used for decision 0052's bundle-size figures.
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
            for cells in tx.get("cells", []):
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
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
