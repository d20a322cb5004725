#!/usr/bin/env python3
"""A CPU profile of the page's main thread while it opens a link, taken in real time through
ChromeDriver and the DevTools protocol (V8's sampling profiler), with the top functions printed.

    source scripts/env.sh                      # CHROME and CHROMEDRIVER (scripts/setup.sh)
    python3 scripts/cpu_profile.py DIST QUERY [--file PATH]... [--out PROFILE.json] [--top N]

DIST is a release build made with `--public-url /runlens/`; for function names in the profile,
build one whose wasm keeps its name section (in a copy of index.html, add `-g` to the page's
`data-wasm-opt-params`). Each `--file` is served at `/files/NAME`, so a query reaches it with
`src=../files/NAME`. The page is opened three times first (the build's files come from the
HTTP cache, as in scripts/bench-ui.sh), then once while the profiler records, until the view is
ready (the same checks as e2e/tests/bench_ui.rs) and a second longer. For example:

    python3 scripts/cpu_profile.py target/prof-dist 'src=../files/big.json&view=overview' --file /tmp/big.json

The saved profile opens in Chromium's DevTools (Performance panel, "Load profile").
"""
import argparse
import collections
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import screenshots  # noqa: E402  (its ChromeDriver client and file server)

READY = {
    "overview": "document.querySelector('[data-testid=summary] .summary-line') && document.querySelector('table[data-table=runs] tbody tr')",
    "latency": "document.querySelector('table[data-table=latency] tbody tr') && document.querySelector('.chart .main-svg')",
}
OTHER = "document.querySelector('table[data-table] tbody tr') || document.querySelector('.chart .main-svg')"


def summary(profile, top):
    """Self and inclusive time per function (name, script), in ms."""
    nodes = {n["id"]: n for n in profile["nodes"]}
    parent = {c: n["id"] for n in profile["nodes"] for c in n.get("children", [])}
    key = lambda n: (n["callFrame"]["functionName"] or "(anonymous)", n["callFrame"]["url"].rsplit("/", 1)[-1])
    own, incl = collections.Counter(), collections.Counter()
    deltas = profile["timeDeltas"][1:] + [0]
    for sample, dt in zip(profile["samples"], deltas):
        own[key(nodes[sample])] += dt / 1000
        seen, x = set(), sample
        while x is not None:
            k = key(nodes[x])
            if k not in seen:
                incl[k] += dt / 1000
                seen.add(k)
            x = parent.get(x)
    for title, c in (("self", own), ("inclusive", incl)):
        print(f"--- {title} time, ms")
        for (name, url), ms in c.most_common(top):
            print(f"{ms:9.1f}  {name[:110]}  {url[:40]}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dist")
    ap.add_argument("query")
    ap.add_argument("--file", action="append", default=[])
    ap.add_argument("--out", default="cpu-profile.json")
    ap.add_argument("--top", type=int, default=30)
    a = ap.parse_args()
    base = screenshots.serve(a.dist, a.file)
    url = base + "?" + a.query
    view = dict(p.split("=", 1) for p in a.query.split("&") if "=" in p).get("view", "overview")
    ready = f"return !!({READY.get(view, OTHER)}) && !document.querySelector('.busy')"
    d = screenshots.Driver()
    args = ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900"]
    caps = {"goog:chromeOptions": {"binary": os.environ.get("CHROME", "chromium"), "args": args}}
    sid = d.call("POST", "/session", {"capabilities": {"alwaysMatch": caps}})["sessionId"]
    call = lambda m, p, b=None: d.call(m, f"/session/{sid}{p}", b)
    cdp = lambda cmd, params=None: call("POST", "/goog/cdp/execute", {"cmd": cmd, "params": params or {}})

    def open_until_ready():
        call("POST", "/url", {"url": url})
        deadline = time.time() + 60
        while not call("POST", "/execute/sync", {"script": ready, "args": []}):
            if time.time() > deadline:
                raise SystemExit(f"not ready within 60 s: {url}")
            time.sleep(0.02)
        return call("POST", "/execute/sync", {"script": "return performance.now()", "args": []})

    try:
        for _ in range(3):
            open_until_ready()
        # The landing page, of the same origin: the renderer (and its profiler) stays the same.
        call("POST", "/url", {"url": base})
        time.sleep(0.5)
        cdp("Profiler.enable")
        cdp("Profiler.setSamplingInterval", {"interval": 200})
        cdp("Profiler.start")
        t = open_until_ready()
        time.sleep(1.0)
        profile = cdp("Profiler.stop")["profile"]
    finally:
        call("DELETE", "")
        d.close()
    with open(a.out, "w") as f:
        json.dump(profile, f)
    print(f"ready {t:.0f} ms after navigation start (polled); profile in {a.out}")
    summary(profile, a.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
