#!/usr/bin/env python3
"""In-browser timings of the window (issue 30), in real time through WebDriver (never a virtual clock):

  1. moving the window: the latency view of two 1-hour, 50-transaction, 20-user runs, the window's
     "from" edited (600 s, then 900 s, in turn); from the change event to the first frame that shows
     the re-judged table (a MutationObserver, then requestAnimationFrame), nine moves;
  2. the Timeline view ready: from the click on its tab to the first frame with its Plotly figure,
     the latency view (and so Plotly.js) already loaded, five times.

    source scripts/env.sh
    python3 /work/shared/bench/gen_jtl.py 72000 /tmp/a.jtl --seed 1   # or ../shared/bench/gen_jtl.py
    python3 /work/shared/bench/gen_jtl.py 72000 /tmp/b.jtl --seed 2
    runlens import --run base /tmp/a.jtl --run cand /tmp/b.jtl --baseline base -o /tmp/hour.json
    python3 scripts/bench-window.py DIST /tmp/hour.json

DIST is a release build made with `--public-url /runlens/`. Prints medians (ms) with min and max.
"""
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from screenshots import Driver, serve  # noqa: E402

MOVE = """const [from, done] = arguments;
const first = () => document.querySelector('table[data-table=latency] tbody tr:nth-child(1)').textContent;
const before = first();
const seen = new MutationObserver(() => { if (first() !== before) { seen.disconnect();
  requestAnimationFrame(() => done(performance.now() - t0)); } });
seen.observe(document.querySelector('main'), {subtree: true, childList: true, characterData: true});
const input = document.querySelector('.window-from');
const t0 = performance.now(); input.value = from; input.dispatchEvent(new Event('change'));"""

TIMELINE = """const [done] = arguments;
const ready = () => document.querySelector('.timeline .chart .main-svg');
const seen = new MutationObserver(() => { if (ready()) { seen.disconnect();
  requestAnimationFrame(() => done(performance.now() - t0)); } });
seen.observe(document.body, {subtree: true, childList: true});
const t0 = performance.now(); document.querySelector("button.tab[data-view='timeline']").click();"""


def wait(d, sid, script, seconds=60):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if d.call("POST", f"/session/{sid}/execute/sync", {"script": script, "args": []}):
            return
        time.sleep(0.2)
    raise SystemExit(f"timed out waiting for: {script}")


def report(name, values):
    print(f"{name}: median {statistics.median(values):.1f} ms (min {min(values):.1f}, max {max(values):.1f}, n={len(values)})")


def main(argv):
    if len(argv) != 2:
        print(__doc__)
        return 2
    dist, bundle = argv
    base = serve(dist, [bundle])
    d = Driver()
    caps = {"goog:chromeOptions": {"binary": os.environ.get("CHROME", "chromium"),
                                   "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900"]}}
    sid = d.call("POST", "/session", {"capabilities": {"alwaysMatch": caps}})["sessionId"]
    try:
        d.call("POST", f"/session/{sid}/timeouts", {"script": 60000})
        name = os.path.basename(bundle)
        url = f"{base}?src=../files/{name}&view=latency&base=base&cand=cand&window=300-3300"
        d.call("POST", f"/session/{sid}/url", {"url": url})
        wait(d, sid, "return !!document.querySelector('table[data-table=latency] tbody tr') && !!document.querySelector('.window-from')")
        moves = []
        for i in range(9):
            ms = d.call("POST", f"/session/{sid}/execute/async", {"script": MOVE, "args": ["900" if i % 2 == 0 else "600"]})
            moves.append(ms)
            time.sleep(0.3)
        report("window moved, latency view re-judged", moves)
        ready = []
        for _ in range(5):
            d.call("POST", f"/session/{sid}/execute/sync", {"script": "document.querySelector(\"button.tab[data-view='latency']\").click()", "args": []})
            wait(d, sid, "return !!document.querySelector('table[data-table=latency] tbody tr')")
            time.sleep(0.5)
            ready.append(d.call("POST", f"/session/{sid}/execute/async", {"script": TIMELINE, "args": []}))
            time.sleep(0.5)
        report("Timeline view ready after its tab is clicked", ready)
    finally:
        d.call("DELETE", f"/session/{sid}")
        d.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
