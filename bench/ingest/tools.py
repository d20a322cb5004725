"""The tools scripts/bench-ingest.sh times, and how one measurement of each is taken.

Native tools run as a fresh process per measurement under /usr/bin/time (its %M is the process's
peak resident size); each prints its own time from opening the file to the finished table, so
the interpreter's start and imports are not counted. Browser tools run in a fresh headless
Chromium with a fresh profile per measurement (cold), launched with the page's URL; the page posts
its timings and table to the local server, and POST /mark brackets the timed part so the
renderer's peak memory can be reset and read around it (see server.py, drop.js, peers.mjs).
"""
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
import urllib.parse

import machine

HERE = os.path.dirname(os.path.abspath(__file__))
CHROMIUM = os.environ.get("CHROME", "/usr/bin/chromium")
# The research harness' flags (no unrelated work, no reaching out) and the project's (TOOLCHAIN.md);
# `--expose-gc` lets drop.js collect garbage before it reads what the tab kept (`kept_mb`).
CHROME_FLAGS = ["--js-flags=--expose-gc", "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--enable-precise-memory-info",
                "--disable-dev-shm-usage", "--window-size=1280,900"]


class Tool:
    def __init__(self, id, title, kind, **how):
        self.id, self.title, self.kind, self.how = id, title, kind, how


def tools(env):
    """Every tool, in the order of the printed table."""
    return [
        Tool("runlens-chromium-1w", "runlens · Chromium · 1 worker (drop → table on screen)", "runlens", workers=1),
        Tool("runlens-chromium-2w", "runlens · Chromium · 2 workers (drop → table on screen)", "runlens", workers=2),
        Tool("duckdb-wasm-eh", "DuckDB-Wasm 1.32.0 eh · Chromium (File → table)", "peer", peer="duckdb-wasm-eh"),
        Tool("papaparse", "Papa Parse 5.7.1 + sort · Chromium (File → table)", "peer", peer="papaparse"),
        # No table: the File's bytes read in workers and dropped (BYOB stream, as runlens reads
        # a range), the floor under any in-tab tool's time.
        Tool("read-floor-1w", "floor: the File read in 1 worker, no parsing · Chromium", "floor", peer="read-1w"),
        Tool("read-floor-2w", "floor: the File read in 2 workers (a half each), no parsing · Chromium", "floor", peer="read-2w"),
        # run.py --src: the same file by `?src=` (download and import, from the download handed to
        # a ready worker to the table), and the floor under it, the URL streamed and dropped.
        Tool("runlens-chromium-2w-src", "runlens · Chromium · 2 workers (?src= download → table on screen)", "runlens",
             workers=2, src=True),
        Tool("stream-url", "floor: the file's URL fetched in a worker, body read and dropped · Chromium", "floor",
             peer="stream-url"),
        # Diagnosis of the `?src=` path before decision 0059 (run it with --tools blob-glue).
        Tool("blob-glue", "diagnosis: the URL's chunks glued into a Blob in a worker, its halves read by 2 workers",
             "floor", peer="blob-glue"),
        Tool("runlens-native-1t", "runlens · native · 1 thread (file → table)", "native",
             cmd=[env["example"], "{file}", "1"]),
        Tool("runlens-native-2t", "runlens · native · 2 threads (file → table)", "native",
             cmd=[env["example"], "{file}", "2"]),
        Tool("duckdb-cli", "DuckDB CLI 1.5.6 (query time)", "duckdb", cmd=[env["duckdb"]]),
        Tool("pandas", "pandas 3.1.1 read_csv + groupby (file → table)", "native",
             cmd=[env["python"], os.path.join(HERE, "pandas_table.py"), "{file}"]),
        # The same importer on bytes already in memory (bench/ingest/parse): wasm in a worker of
        # a fresh Chromium against native, the code alone, without the file's way into the tab.
        Tool("runlens-wasm-memory", "runlens · wasm in a Chromium worker · bytes in memory (first import)", "memory"),
        Tool("runlens-native-memory", "runlens · native · bytes in memory (first import)", "native",
             cmd=[env["parse_native"], "{file}"]),
        # The same parse.wasm in Node's V8 (the machine's Node): the engine's share of the ratio.
        Tool("runlens-wasm-node", "runlens · wasm in Node · bytes in memory (first import)", "native",
             cmd=[env["node"], os.path.join(HERE, "parse_node.mjs"), env["parse_wasm"], "{file}"]),
    ]


DUCKDB_SQL = """.timer on
.mode json
SELECT label, count(*) AS count, count(*) FILTER (WHERE lower(success) = 'false') AS errors,
  min(elapsed) AS min, max(elapsed) AS max, avg(elapsed) AS mean,
  quantile_disc(elapsed, 0.5) AS p50, quantile_disc(elapsed, 0.9) AS p90,
  quantile_disc(elapsed, 0.95) AS p95, quantile_disc(elapsed, 0.99) AS p99
FROM read_csv('{file}', header = true, types = {{'elapsed': 'BIGINT', 'label': 'VARCHAR', 'success': 'VARCHAR'}})
GROUP BY label;
"""


def run_native(tool, path, tmp, timeout):
    """One process under /usr/bin/time; its JSON line (or DuckDB's output) becomes the result."""
    rss_file = os.path.join(tmp, "maxrss")
    cmd = ["/usr/bin/time", "-f", "%M", "-o", rss_file] + [a.replace("{file}", path) for a in tool.how["cmd"]]
    stdin = DUCKDB_SQL.format(file=path.replace("'", "''")) if tool.kind == "duckdb" else None
    snap0, t0 = machine.cpu_snapshot(), time.monotonic()
    p = subprocess.run(cmd, input=stdin, capture_output=True, text=True, timeout=timeout)
    wall = time.monotonic() - t0
    r = {"wall_s": wall, "foreign_cpu_s": machine.foreign_cpu_seconds(snap0, machine.cpu_snapshot(), {os.getpid()})}
    try:
        with open(rss_file) as f:
            r["peak_mb"] = int(f.read().split()[-1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    if p.returncode != 0:
        return {**r, "ok": False, "error": (p.stderr or p.stdout)[-600:]}
    try:
        if tool.kind == "duckdb":
            m = re.search(r"Run Time \(s\): real ([0-9.]+)", p.stdout)
            body = p.stdout[:m.start()] if m else p.stdout
            return {**r, "ok": m is not None, "secs": float(m.group(1)) if m else None, "table": json.loads(body)}
        out = json.loads(p.stdout.strip().splitlines()[-1])
        return {**r, "ok": True, "secs": out["secs"], "table": out["table"], "version": out.get("version"), "warm_s": out.get("warm_s")}
    except (ValueError, KeyError, IndexError, AttributeError) as e:
        return {**r, "ok": False, "error": f"unreadable output ({e}): {p.stdout[:300]}"}


class Marks:
    """Called by the server on POST /mark: before the drop, each renderer's VmHWM (the page's peak so
    far) and VmRSS are read and its VmHWM is reset; after the table, VmHWM is read again. Both
    times the CPU time of every process of the browser is read too: the CPU the timed part used,
    the renderer's (the page, its workers) apart from the browser process's (which serves a File's
    bytes) and the others' (GPU, network, storage). A few seconds after the table ('settled'),
    VmRSS once more: what the tab keeps of the drop."""

    def __init__(self):
        self.browser_pid, self.before, self.after, self.settled = None, {}, {}, {}
        self.cpu_before, self.cpu_after = {}, {}
        self.procs_before, self.procs_after = {}, {}

    def __call__(self, obj):
        if self.browser_pid is None:
            return {}
        cpu = machine.tree_cpu_ns(self.browser_pid)
        procs = machine.tree_process_cpu_ns(self.browser_pid)
        found = {r["pid"]: r for r in machine.renderers(self.browser_pid)}
        if obj.get("phase") == "before":
            self.before, self.cpu_before, self.cpu_after, self.settled = found, cpu, {}, {}
            self.procs_before, self.procs_after = procs, {}
            for pid in found:
                machine.reset_hwm(pid)
        elif obj.get("phase") == "settled":
            self.settled = found
        else:
            self.after, self.cpu_after, self.procs_after = found, cpu, procs
        return {}

    def cpu(self):
        """CPU seconds the browser's processes used between the two marks, by kind of process."""
        if not self.cpu_before or not self.cpu_after:
            return {}
        by = {"renderer": 0.0, "browser": 0.0, "other": 0.0}
        threads = {}
        for key, (kind, name, ns) in self.cpu_after.items():
            used = max((ns - self.cpu_before.get(key, (kind, name, 0))[2]) / 1e9, 0.0)
            by[kind if kind in by else "other"] += used
            # Threads of one kind and name together (a renderer's workers are all "DedicatedWorker").
            threads[f"{kind}/{name}"] = threads.get(f"{kind}/{name}", 0.0) + used
        busy = {k: round(v, 3) for k, v in sorted(threads.items(), key=lambda kv: -kv[1]) if v >= 0.005}
        # By kind, per process when it says more: a process's own total keeps the time of its
        # threads that ended between the marks (workers the page terminated), which the threads'
        # sum loses.
        for pid, (kind, ns) in self.procs_after.items():
            kind = kind if kind in by else "other"
            whole = max((ns - self.procs_before.get(pid, (kind, 0))[1]) / 1e9, 0.0)
            live = sum(v[2] - self.cpu_before.get(k, (kind, "", 0))[2] for k, v in self.cpu_after.items() if k[0] == pid) / 1e9
            by[kind] += max(whole - max(live, 0.0), 0.0)
        return {"cpu_s": sum(by.values()), "cpu_by": by, "cpu_threads": busy}

    def memory(self):
        """The page's renderer (the one that grew most) with its peak and its growth during the
        timed part, in MB."""
        if not self.after:
            return {}
        pid = max(self.after, key=lambda p: self.after[p]["hwm_kb"] - self.before.get(p, {}).get("rss_kb", 0))
        a, b = self.after[pid], self.before.get(pid)
        if b is None:
            return {"peak_mb": a["hwm_kb"] / 1024}
        out = {"peak_mb": max(a["hwm_kb"], b["hwm_kb"]) / 1024, "before_mb": b["rss_kb"] / 1024,
               "extra_mb": (a["hwm_kb"] - b["rss_kb"]) / 1024}
        if pid in self.settled:
            # What the renderer still holds a few seconds after the table (drop.js 'settled').
            out["kept_mb"] = (self.settled[pid]["rss_kb"] - b["rss_kb"]) / 1024
        return out


# run.py --again: each drop is followed, once it settled, by a second drop of the same bytes (drop.js).
AGAIN = False


def browser_url(srv, tool, file, run_id, settle_ms, timeout):
    if tool.kind == "runlens":
        frag = {"run": run_id, "file": file, "settle": settle_ms, "timeout": int(timeout)}
        if AGAIN:
            frag["again"] = 1
        src = ""
        if tool.how.get("src"):
            frag["mode"] = "src"
            src = "&src=" + urllib.parse.quote(f"/data/{file}", safe="")
        return (f"http://127.0.0.1:{srv.port}/runlens/?view=latency&workers={tool.how['workers']}{src}"
                f"#{urllib.parse.urlencode(frag)}")
    if tool.kind == "memory":
        return f"http://127.0.0.1:{srv.port}/bench/parse.html?" + urllib.parse.urlencode({"file": file, "run": run_id})
    q = urllib.parse.urlencode({"peer": tool.how["peer"], "file": file, "run": run_id, "settle": settle_ms})
    return f"http://127.0.0.1:{srv.port}/bench/peers.html?{q}"


def run_browser(srv, marks, tool, file, run_id, tmp, timeout, settle_ms):
    """One fresh headless Chromium (fresh profile) on the tool's page until it posts its result."""
    prof = tempfile.mkdtemp(prefix="profile-", dir=tmp)
    url = browser_url(srv, tool, file, run_id, settle_ms, timeout)
    log = open(os.path.join(tmp, "chromium.log"), "ab")
    snap0 = machine.cpu_snapshot()
    t0 = time.monotonic()
    proc = subprocess.Popen([CHROMIUM, *CHROME_FLAGS, f"--user-data-dir={prof}", url],
                            stdout=log, stderr=log, stdin=subprocess.DEVNULL)
    marks.browser_pid, marks.before, marks.after = proc.pid, {}, {}
    marks.cpu_before, marks.cpu_after = {}, {}
    result, pids = None, []
    try:
        while time.monotonic() < t0 + timeout:
            try:
                r = srv.results.get(timeout=0.5)
            except Exception:
                if proc.poll() is not None:
                    break
                continue
            if r.get("run") == run_id:
                result = r
                break
        wall = time.monotonic() - t0
        pids = machine.descendants(proc.pid)
        mine = {os.getpid(), proc.pid, *pids}
        foreign = machine.foreign_cpu_seconds(snap0, machine.cpu_snapshot(), mine)
    finally:
        marks.browser_pid = None
        machine.stop_browser(proc, pids)
        log.close()
        shutil.rmtree(prof, ignore_errors=True)
    if result is None:
        result = {"ok": False, "error": f"no result within {timeout:.0f} s (see {tmp}/chromium.log)"}
    result.update(marks.memory())
    result.update(marks.cpu())
    result["wall_s"], result["foreign_cpu_s"] = wall, foreign
    result["secs"] = result.get("drop_to_table_s", result.get("src_to_table_s", result.get("file_to_table_s")))
    return result
