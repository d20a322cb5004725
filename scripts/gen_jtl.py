#!/usr/bin/env python3
# Copied from the shared benchmark material of the runlens team (shared/bench/gen_jtl.py); unchanged below.
"""Deterministic JMeter 5.x CSV JTL generator (FOLIO mod-search shaped), stdlib only.

    gen_jtl.py ROWS OUT [--seed N] [--answers OUT.json]

Same ROWS and seed -> byte-identical file. 50 labels (a few contain commas and are
quoted), per-label log-normal elapsed with a Pareto tail, ~1% failures (429/500),
20 threads, epoch-ms timestamps non-decreasing with jitter over 60 minutes.

--answers writes the exact expected statistics per label (and "TOTAL"):
  count, errors (success == false), mean (sum/count, float), min, max,
  p50, p90, p95, p99 by NEAREST RANK: the smallest v with at least p% of the
  samples <= v, i.e. sorted[ceil(p*n/100) - 1] (1-based rank ceil(p*n/100));
  throughput = count / ((max(timeStamp + elapsed) - min(timeStamp)) / 1000) per second,
  JMeter's Aggregate Report definition.
"""
import argparse
import json
import math
import random

HEADER = ("timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,"
          "failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect")
START_MS = 1_700_000_000_000
WINDOW_MS = 60 * 60 * 1000
THREADS = 20
PERCENTILES = (50, 90, 95, 99)
FAILURES = (("429", "Too Many Requests", "Test failed: code expected to be 200 but was 429"),
            ("500", "Internal Server Error", "Assertion failed: response contains \"errors\", see log"))

SEARCHES = [
    "title all 3 word sentence", "title all 1 word", "title exact phrase",
    "keyword all 2 words", "keyword any 5 words", "contributors all name",
    "contributors, name and role", "subjects all 2 words", "subjects, browse around",
    "isbn exact", "issn exact", "oclc number", "hrid exact", "id exact",
    "classification, LC number", "callNumber browse", "callNumber, shelving order",
    "holdings.fullCallNumber", "items.barcode exact", "items.effectiveLocationId",
    "facets: source, language", "facets: instanceTypeId", "sort by title asc",
    "sort by contributors desc", "offset 1000 limit 100",
]
PATHS = ["/search/instances", "/search/authorities", "/browse/subjects/instances",
         "/browse/call-numbers/instances", "/search/instances/facets"]


def make_labels(rng):
    """50 (label, mu, sigma, weight) tuples; mu/sigma of ln(elapsed ms)."""
    labels = []
    for i in range(50):
        path = PATHS[i % len(PATHS)]
        label = f"MSF_GET {path}: {SEARCHES[i % len(SEARCHES)]}"
        if i >= len(SEARCHES):
            label += " (cold cache)"
        mu = math.log(rng.uniform(40, 900))
        sigma = rng.uniform(0.25, 0.9)
        weight = 1.0 / (1 + i) ** 0.8  # Zipf-like: a few hot labels, a long thin tail
        labels.append((label, mu, sigma, weight))
    return labels


def csv_field(s):
    return '"' + s.replace('"', '""') + '"' if any(c in s for c in ',"\n') else s


def nearest_rank(sorted_vals, p):
    return sorted_vals[-(-p * len(sorted_vals) // 100) - 1]


def stats(vals, errors, first_ts, last_end):
    vals.sort()
    n = len(vals)
    out = {"count": n, "errors": errors, "mean": sum(vals) / n, "min": vals[0], "max": vals[-1]}
    out.update({f"p{p}": nearest_rank(vals, p) for p in PERCENTILES})
    out["throughput"] = n / ((last_end - first_ts) / 1000)
    return out


def generate(rows, out_path, seed, answers_path=None):
    rng = random.Random(seed)
    labels = make_labels(rng)
    names = [l[0] for l in labels]
    quoted = [csv_field(n) for n in names]
    urls = [csv_field("http://okapi:9130" + n.split(" ", 2)[1].rstrip(":") + "?query=" +
                      n.split(": ", 1)[1].replace(" ", "%20")) for n in names]
    weights = [l[3] for l in labels]
    fail_quoted = [(c, m, csv_field(f)) for c, m, f in FAILURES]
    step = WINDOW_MS / rows
    per = [[] for _ in labels] if answers_path else None
    errs = [0] * len(labels)
    first = [None] * len(labels)
    last_end = [0] * len(labels)

    lognorm, rnd, pareto = rng.lognormvariate, rng.random, rng.paretovariate
    idx = rng.choices(range(len(labels)), weights, k=rows)
    buf = [HEADER]
    with open(out_path, "w", newline="\n") as f:
        for i in range(rows):
            k = idx[i]
            _, mu, sigma, _ = labels[k]
            ts = START_MS + int(i * step + rnd() * step)
            elapsed = int(lognorm(mu, sigma)) + 1
            if rnd() < 0.005:  # heavy tail: GC pauses, cold shards, retries
                elapsed = int(elapsed * min(pareto(1.3), 60))
            if rnd() < 0.01:  # failure: 40% 429 (fast reject), 60% 500
                code, msg, fmsg = fail_quoted[0] if rnd() < 0.4 else fail_quoted[1]
                if code == "429":
                    elapsed = 1 + elapsed // 50
                ok = "false"
                errs[k] += 1
            else:
                code, msg, fmsg, ok = "200", "OK", "", "true"
            latency = elapsed - int(elapsed * rnd() * 0.1)
            connect = int(rnd() * 4) if rnd() < 0.05 else 0
            nbytes = 300 + int(rnd() * 40000) if ok == "true" else 180
            buf.append(f"{ts},{elapsed},{quoted[k]},{code},{msg},MSF 1-{i % THREADS + 1},text,{ok},"
                       f"{fmsg},{nbytes},{412 + k},{THREADS},{THREADS},{urls[k]},{latency},0,{connect}")
            if per is not None:
                per[k].append(elapsed)
                if first[k] is None:
                    first[k] = ts
                last_end[k] = max(last_end[k], ts + elapsed)
            if len(buf) >= 20000:
                f.write("\n".join(buf) + "\n")
                buf.clear()
        if buf:
            f.write("\n".join(buf) + "\n")

    if answers_path:
        answers = {"percentile_definition": "nearest-rank: sorted[ceil(p*n/100)-1]",
                   "throughput_definition": "count / ((max(ts+elapsed) - min(ts)) / 1000), per second",
                   "labels": {}}
        for k, name in enumerate(names):
            if per[k]:
                answers["labels"][name] = stats(per[k], errs[k], first[k], last_end[k])
        used = [k for k in range(len(names)) if per[k]]
        answers["labels"]["TOTAL"] = stats([v for k in used for v in per[k]], sum(errs),
                                           min(first[k] for k in used), max(last_end[k] for k in used))
        with open(answers_path, "w") as f:
            json.dump(answers, f, indent=1)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("rows", type=int)
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--answers", help="write exact expected per-label statistics as JSON")
    a = ap.parse_args()
    generate(a.rows, a.out, a.seed, a.answers)
