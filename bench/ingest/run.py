#!/usr/bin/env python3
"""Times runlens' JTL ingest against its peers on one generated file and checks every table
(scripts/bench-ingest.sh installs the tools and calls this; see README, "Developing").

    run.py --rows 1000000 [--reps 5] [--tools ID ...] [--quiet-budget-min 20] [--retries 1]
    run.py --memory [--rows 1000000] [--memory-rows 5000000 21500000] [--memory-reps 3]
    run.py --src [--reps 5] [--src-loads 20]

--src: the file dropped (runlens, 2 workers), the same file by `?src=` (2 workers; from the
download handed to a ready worker to the table on screen) and the plain stream of the same URL (a
worker fetches it and drops the bytes), alternated in every round, fresh browser each; then the
target, `?src=` ≤ drop + stream, met or not. --src-loads N: then N `?src=` loads in a row, each
checked against the answers; any failure makes the run fail (exit status 1).

Default mode: `reps` rounds; each waits for a quiet machine (machine.Quiet), then runs every tool
once (round-robin, so background noise spreads evenly); a run during which other processes used
more than 5 % of a core is repeated up to `retries` times. Prints median, min–max, the ratio to
runlens in Chromium with 2 workers, peak memory and ✓/✗ per tool against the generator's answers.

--memory: runlens in Chromium only, with 1 and 2 workers, on the main file and on larger files
(generated, deleted after): the renderer's peak memory during the ingest over its size just
before the drop, and the longest main-thread task from the drop to the table.

Data, raw results and browser profiles go to target/bench-ingest/ (nothing there is committed).
"""
import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import time

import checks
import machine
import tools as T
from server import ResultServer

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BASE = "runlens-chromium-2w"


def say(msg=""):
    print(msg, flush=True)


def generate(work, rows):
    """scripts/gen_jtl.py ROWS (seed 1, deterministic) with its answers; kept while the run lasts."""
    path, answers = os.path.join(work, f"jtl-{rows}.csv"), os.path.join(work, f"answers-{rows}.json")
    if not (os.path.exists(path) and os.path.exists(answers)):
        say(f"generating {rows:,} rows into {path} …")
        t = time.monotonic()
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "gen_jtl.py"), str(rows), path + ".part",
                        "--answers", answers], check=True)
        os.replace(path + ".part", path)
        say(f"  {os.path.getsize(path) / 1e6:,.1f} MB in {time.monotonic() - t:.0f} s")
    with open(answers) as f:
        return path, json.load(f)


def measure(ctx, tool, path, run_id):
    timeout = 120 + 120 * os.path.getsize(path) / 1e9
    if tool.kind in ("runlens", "peer", "memory", "floor"):
        return T.run_browser(ctx["srv"], ctx["marks"], tool, os.path.basename(path), run_id, ctx["tmp"], timeout, ctx["settle"])
    return T.run_native(tool, path, ctx["tmp"], timeout)


def verify(r, tool, answers):
    if not r.get("ok") or tool.kind == "floor":
        return
    # A `?src=` load is checked as shown (a downloaded file is not kept in IndexedDB).
    r["mismatches"] = [] if tool.how.get("src") else checks.check(r.pop("table", None), answers)
    if tool.kind == "runlens":
        r["mismatches"] += checks.check_shown(r.pop("shown_csv", None), answers)


def one(ctx, tool, path, answers, n, retries, quiet):
    for attempt in range(retries + 1):
        r = measure(ctx, tool, path, f"{int(time.time())}-{n}-{attempt}")
        r["disturbed"] = r["foreign_cpu_s"] > max(0.05, 0.05 * r["wall_s"])
        if not r["disturbed"] or attempt == retries:
            break
        say(f"    {tool.id}: disturbed (others used {r['foreign_cpu_s']:.2f} CPU-s in {r['wall_s']:.1f} s); again")
        quiet.wait(say)
    verify(r, tool, answers)
    r.update(tool=tool.id, attempt=attempt)
    return r


def show_run(r):
    mm = r.get("mismatches")
    state = "ERROR " + str(r.get("error"))[:300] if not r.get("ok") else (
        "read, no table" if mm is None else "exact" if not mm else f"MISMATCH x{len(mm)}: {mm[:2]}")
    secs = r.get("secs")
    extra = f" extra={r['extra_mb']:.0f}MB" if r.get("extra_mb") is not None else ""
    extra += f" kept={r['kept_mb']:.0f}MB" if r.get("kept_mb") is not None else ""
    if r.get("again_notice_s") is not None:
        extra += f" notice={r['busy'].get('notice_s', 0):.3f}s again={r['again_notice_s']:.3f}s"
    task = f" longtask={r['longtask_max_ms']:.0f}ms" if r.get("longtask_max_ms") is not None else ""
    by = r.get("cpu_by")
    cpu = f" cpu={r['cpu_s']:.2f}s(r{by['renderer']:.2f}+b{by['browser']:.2f}+o{by['other']:.2f})" if by else ""
    say(f"    {r['tool']:20s} {'-' if secs is None else f'{secs:.3f}s':>8} peak={r.get('peak_mb', 0):.0f}MB{extra}{task}{cpu}"
        f" others={r['foreign_cpu_s']:.2f}cpu-s {state}")


def fmt_s(x):
    return "–" if x is None else f"{x:.3f}"


def summary(rows, tool_list, rounds):
    say("\n## Results (medians; time from the file in hand to the finished table)\n")
    by = {t.id: [r for r in rows if r["tool"] == t.id] for t in tool_list}
    base = [r["secs"] for r in by.get(BASE, []) if r.get("ok")]
    base_m = statistics.median(base) if base else None
    say("| tool | median s | min–max s | × runlens Chromium 2 workers | peak memory MB | longest main-thread task ms | browser CPU s: renderer + browser process + other | table |")
    say("|---|---:|---:|---:|---|---:|---|:---:|")
    for t in tool_list:
        rs = by[t.id]
        ok = [r for r in rs if r.get("ok")]
        if not ok:
            why = (rs[0].get("error") or "") if rs else "not run"
            say(f"| {t.title} | – | – | – | – | – | – | ✗ {why.splitlines()[0][:120] if why else ''} |")
            continue
        secs = sorted(r["secs"] for r in ok)
        m = statistics.median(secs)
        mem = f"{statistics.median(r.get('peak_mb', 0) for r in ok):.0f} " + (
            "(renderer VmHWM" if t.kind in ("runlens", "peer", "floor") else "(max RSS")
        if t.kind == "memory":
            mem = "– (not measured: the file is held whole in the tab"
        extra = [r["extra_mb"] for r in ok if r.get("extra_mb") is not None]
        if t.kind == "runlens" and extra:
            mem += f"; +{statistics.median(extra):.0f} during the ingest"
        kept = [r["kept_mb"] for r in ok if r.get("kept_mb") is not None]
        if t.kind == "runlens" and kept:
            mem += f", +{statistics.median(kept):.0f} kept 5 s after, garbage collected"
        tasks = [r["longtask_max_ms"] for r in ok if r.get("longtask_max_ms") is not None]
        exact = "✓" if len(ok) == len(rs) and all(r.get("mismatches") == [] for r in ok) else "✗"
        if t.kind == "floor":
            exact = "no table:"
        # The CPU the browser used in the timed part (medians of each figure, so they need not add up).
        cpus = [r for r in ok if r.get("cpu_by")]
        cpu = "–"
        if cpus:
            part = lambda k: statistics.median(r["cpu_by"][k] for r in cpus)
            cpu = (f"{statistics.median(r['cpu_s'] for r in cpus):.2f}: {part('renderer'):.2f} + {part('browser'):.2f} + "
                   f"{part('other'):.2f}")
        say(f"| {t.title} | {m:.3f} | {secs[0]:.3f}–{secs[-1]:.3f} | {f'{m / base_m:.2f}×' if base_m else '–'} | {mem}) | "
            f"{f'{statistics.median(tasks):.0f}' if tasks else '–'} | {cpu} | {exact} {len(ok)}/{len(rs)} |")
    # The same importer compiled to wasm (one worker, its reading of the file left out) against
    # native (one thread): the floor is 1.3.
    wasm = [(r["worker"]["ms"] - r["worker"]["read_ms"]) / 1000 for r in by.get("runlens-chromium-1w", []) if r.get("ok") and r.get("worker")]
    native = [r["secs"] for r in by.get("runlens-native-1t", []) if r.get("ok")]
    if wasm and native:
        w, n = statistics.median(wasm), statistics.median(native)
        reads = [r["worker"]["read_ms"] / 1000 for r in by.get("runlens-chromium-1w", []) if r.get("ok") and r.get("worker")]
        say(f"\nwasm / native, the same importer on one core: {w:.3f} s in the worker (parse and aggregate; "
            f"reading the file took another {statistics.median(reads):.3f} s) / {n:.3f} s native = {w / n:.2f}")
    # The code alone: bytes already in memory, the first import of a fresh tab / process, and warm.
    wm = [r for r in by.get("runlens-wasm-memory", []) if r.get("ok")]
    nm = [r for r in by.get("runlens-native-memory", []) if r.get("ok")]
    if wm and nm:
        med = lambda rs, k: statistics.median(r[k] for r in rs if r.get(k) is not None)
        say(f"wasm / native, the same importer on bytes in memory (no file reading): first import {med(wm, 'secs'):.3f} / "
            f"{med(nm, 'secs'):.3f} s = {med(wm, 'secs') / med(nm, 'secs'):.2f}; warm {med(wm, 'warm_s'):.3f} / "
            f"{med(nm, 'warm_s'):.3f} s = {med(wm, 'warm_s') / med(nm, 'warm_s'):.2f}")
        # The same parse.wasm in Node's V8: what the engine, not the code, adds in Chromium.
        vn = [r for r in by.get("runlens-wasm-node", []) if r.get("ok")]
        if vn:
            say(f"  the same wasm in {vn[0].get('version')}: first import {med(vn, 'secs') / med(nm, 'secs'):.2f}, "
                f"warm {med(vn, 'warm_s') / med(nm, 'warm_s'):.2f} × native")
    for t in tool_list:
        bad = next((r for r in by[t.id] if r.get("mismatches") or not r.get("ok")), None)
        if bad:
            why = bad["mismatches"][:3] if bad.get("mismatches") else str(bad.get("error"))[:400]
            say(f"✗ {t.id}: {len(bad.get('mismatches') or [])} mismatches / error: {why}")
    say("\nMachine before each round: " + "; ".join(
        f"#{i + 1} {'quiet' if q['quiet'] else 'NOT quiet'} (load1 {q['load1']:.2f}, others {q['others_busy'] * 100:.0f}% CPU, "
        f"rustc {q['rustc']}, cargo {q['cargo']}, waited {q['waited_s']:.0f} s)" for i, q in enumerate(rounds)))
    dist = {t.id: sum(1 for r in by[t.id] if r.get("disturbed")) for t in tool_list}
    say("Runs disturbed by other processes (after retries): " + (", ".join(f"{k} {v}" for k, v in dist.items() if v) or "none"))


def src_target(rows):
    """The `?src=` target of issue #30: src ≤ drop + stream, medians of the same run."""
    med = lambda tid: statistics.median([r["secs"] for r in rows if r["tool"] == tid and r.get("ok")] or [float("nan")])
    drop, src, stream = med("runlens-chromium-2w"), med("runlens-chromium-2w-src"), med("stream-url")
    met = src <= drop + stream
    say(f"\n?src= target: {src:.3f} s {'≤' if met else '>'} drop {drop:.3f} s + stream {stream:.3f} s = "
        f"{drop + stream:.3f} s: {'met' if met else 'NOT met'}")
    return met


def src_loads(ctx, tool, path, answers, n):
    """`n` `?src=` loads in a row, each checked; returns how many failed."""
    say(f"\n{n} ?src= loads in a row")
    failed = 0
    for i in range(n):
        r = measure(ctx, tool, path, f"{int(time.time())}-loop-{i}")
        verify(r, tool, answers)
        r.update(tool=tool.id, loop=i)
        ctx["raw"].write(json.dumps(r) + "\n")
        ctx["raw"].flush()
        bad = not r.get("ok") or r.get("mismatches")
        failed += bool(bad)
        show_run(r)
    say(f"?src= loads: {n - failed}/{n} exact, {failed} failed")
    return failed


def memory_mode(ctx, a, tool_list, main_rows):
    """runlens in Chromium on the main file and on larger ones (each deleted after): growth of the
    renderer's memory during the ingest, the longest main-thread task, and the time."""
    runlens = [t for t in tool_list if t.kind == "runlens"]
    rows = []
    for n_rows in [main_rows, *a.memory_rows]:
        size = n_rows * 200.6  # bytes a row of gen_jtl.py takes, near enough
        need_disk, need_ram = 2.6 * size, 4 << 30
        free = shutil.disk_usage(ctx["work"]).free
        if n_rows != main_rows and (free < need_disk or machine.mem_available_bytes() < need_ram):
            say(f"\n{n_rows:,} rows (~{size / 1e9:.1f} GB): skipped: needs {need_disk / 1e9:.0f} GB of free disk "
                f"(the file and the browser's copy of it) and {need_ram >> 30} GiB of free memory; this machine has "
                f"{free / 1e9:.0f} GB and {machine.mem_available_bytes() / 2**30:.0f} GiB")
            continue
        path, answers = generate(ctx["work"], n_rows)
        reps = a.memory_reps if size < 2e9 else 1
        say(f"\n{os.path.basename(path)}: {os.path.getsize(path) / 1e9:.2f} GB, {reps} run(s) per worker count")
        try:
            for rep in range(reps):
                q = ctx["quiet"].wait(say)
                say(f"  round {rep + 1}/{reps}: machine {'quiet' if q['quiet'] else 'NOT quiet'} {q}")
                for t in runlens:
                    r = one(ctx, t, path, answers, len(rows), a.retries, ctx["quiet"])
                    r.update(rows=n_rows, bytes=os.path.getsize(path))
                    show_run(r)
                    rows.append(r)
                    ctx["raw"].write(json.dumps(r) + "\n")
        finally:
            if n_rows != main_rows or not a.keep_data:
                for f in (path, path.replace("jtl-", "answers-").replace(".csv", ".json")):
                    if os.path.exists(f):
                        os.remove(f)
    say("\n## runlens in Chromium: memory and main thread during the ingest (medians)\n")
    say("| file | workers | drop → table s | renderer before the drop MB | peak extra during the ingest MB | renderer peak MB | longest main-thread task ms | table |")
    say("|---|---:|---:|---:|---:|---:|---:|:---:|")
    for n_rows in [main_rows, *a.memory_rows]:
        for t in runlens:
            rs = [r for r in rows if r["rows"] == n_rows and r["tool"] == t.id]
            ok = [r for r in rs if r.get("ok")]
            if not rs:
                continue
            med = lambda k: statistics.median(r[k] for r in ok if r.get(k) is not None) if any(r.get(k) is not None for r in ok) else None
            f = lambda v, d=0: "–" if v is None else f"{v:.{d}f}"
            exact = "✓" if ok and len(ok) == len(rs) and all(r.get("mismatches") == [] for r in ok) else "✗"
            err = "" if ok else " " + str(rs[0].get("error"))[:150]
            say(f"| {n_rows:,} rows, {rs[0]['bytes'] / 1e9:.2f} GB | {t.how['workers']} | {f(med('secs'), 3)} | {f(med('before_mb'))} | "
                f"{f(med('extra_mb'))} | {f(med('peak_mb'))} | {f(med('longtask_max_ms'))} | {exact}{err} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=1_000_000, help="rows of the generated JTL (1,000,000 ≈ 200 MB)")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--tools", nargs="+", help="only these tool ids")
    ap.add_argument("--quiet-budget-min", type=float, default=20, help="minutes to wait for a quiet machine, in all")
    ap.add_argument("--retries", type=int, default=1, help="repeat a run disturbed by other processes")
    ap.add_argument("--settle-ms", type=int, default=2000, help="the page waits this long after it loaded before the drop")
    ap.add_argument("--memory", action="store_true", help="memory mode (see above)")
    ap.add_argument("--memory-rows", type=int, nargs="*", default=[5_000_000, 21_500_000],
                    help="larger files of the memory mode (5,000,000 ≈ 1 GB; 21,500,000 ≈ 4.3 GB, past 2^32 bytes)")
    ap.add_argument("--memory-reps", type=int, default=3, help="runs per worker count in the memory mode (1 for files over 2 GB)")
    ap.add_argument("--again", action="store_true",
                    help="after each drop settled, drop the same bytes again and time both to their notice")
    ap.add_argument("--src", action="store_true", help="the `?src=` mode (see above)")
    ap.add_argument("--src-loads", type=int, default=0, help="with --src: this many `?src=` loads in a row after")
    ap.add_argument("--keep-data", action="store_true", help="keep the main generated file for the next run")
    a = ap.parse_args()
    T.AGAIN = a.again

    env = {"example": os.environ.get("BENCH_EXAMPLE", os.path.join(ROOT, "target", "worker", "examples", "ingest_table")),
           "parse_native": os.environ.get("BENCH_PARSE_NATIVE", os.path.join(ROOT, "target", "bench-parse", "release", "parse-native")),
           "duckdb": os.environ.get("BENCH_DUCKDB", "duckdb"),
           "node": os.environ.get("BENCH_NODE", "node"),
           "parse_wasm": os.path.join(ROOT, "target", "bench-ingest", "parse.wasm"),
           "python": os.environ.get("BENCH_PYTHON", os.path.join(ROOT, "target", "bench-venv", "bin", "python"))}
    dist = os.environ.get("RUNLENS_DIST", os.path.join(ROOT, "dist"))
    work = os.path.join(ROOT, "target", "bench-ingest")
    tmp = os.path.join(work, "tmp")
    os.makedirs(tmp, exist_ok=True)
    src_ids = ("runlens-chromium-2w", "runlens-chromium-2w-src", "stream-url")
    # The `?src=` tools run only when asked for (--src, or by id).
    tool_list = [t for t in T.tools(env) if (t.id in a.tools if a.tools else
                                              t.id in src_ids if a.src else t.id not in (*src_ids[1:], "blob-glue"))]
    if a.memory:
        tool_list = [t for t in tool_list if t.kind == "runlens"]
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so the running browser gets stopped
    machine.become_subreaper()
    marks = T.Marks()
    srv = ResultServer(dist, work)
    srv.on_mark = marks
    srv.start()
    out = os.path.join(work, time.strftime("results-%Y%m%d-%H%M%S"))
    os.makedirs(out)
    chromium = subprocess.run([T.CHROMIUM, "--version"], capture_output=True, text=True).stdout.strip()
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    say(f"runlens ingest benchmark: {chromium}; {cpu}, {os.cpu_count()} CPUs, "
        f"{os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30:.0f} GiB; dist {dist}; raw results {out}/raw.jsonl")
    ctx = {"srv": srv, "marks": marks, "tmp": tmp, "settle": a.settle_ms, "work": work,
           "quiet": machine.Quiet(a.quiet_budget_min * 60)}
    path = None
    try:
        with open(os.path.join(out, "raw.jsonl"), "w") as raw:
            ctx["raw"] = raw
            if a.memory:
                return memory_mode(ctx, a, tool_list, a.rows)
            path, answers = generate(work, a.rows)
            if a.src and a.reps == 0:
                src_tool = next(t for t in T.tools(env) if t.id == "runlens-chromium-2w-src")
                failed = src_loads(ctx, src_tool, path, answers, a.src_loads)
                sys.exit(1 if failed else 0)
            say(f"file: {path}, {a.rows:,} rows, {os.path.getsize(path) / 1e6:,.1f} MB; {a.reps} rounds of {len(tool_list)} tools")
            rows, rounds = [], []
            for rep in range(a.reps):
                q = ctx["quiet"].wait(say)
                rounds.append(q)
                say(f"round {rep + 1}/{a.reps}: machine {'quiet' if q['quiet'] else 'NOT quiet'} {q}")
                for t in tool_list:
                    r = one(ctx, t, path, answers, len(rows), a.retries, ctx["quiet"])
                    show_run(r)
                    rows.append(r)
                    raw.write(json.dumps(r) + "\n")
                    raw.flush()
            summary(rows, tool_list, rounds)
            if a.src:
                src_target(rows)
                if a.src_loads:
                    src_tool = next(t for t in tool_list if t.id == "runlens-chromium-2w-src")
                    if src_loads(ctx, src_tool, path, answers, a.src_loads):
                        sys.exit(1)
    finally:
        srv.shutdown()
        if path and not a.keep_data:
            for f in (path, path.replace("jtl-", "answers-").replace(".csv", ".json")):
                if os.path.exists(f):
                    os.remove(f)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
