"""The table of scripts/bench-ui.sh: reads the benchmarks' output (BENCH lines of
e2e/tests/bench_ui.rs and the switch benchmarks' lines), measures the dist's sizes, file names and
the e2e server's cache headers, and prints every figure with its target and previous value
(bench/ui/previous.txt); writes the same table to target/bench-ui/last-run.txt.

usage: python3 bench/ui/report.py RAW_LOG DIST LOAD_BEFORE LOAD_AFTER
"""
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
HASHED = re.compile(r"-[0-9a-f]{16}(_bg)?\.(js|wasm|css)$")


def figures(raw):
    """key -> (median, detail) from the benchmarks' output."""
    out = {}
    for line in raw.splitlines():
        m = re.search(r"BENCH (\S+) (\S+)(.*)", line)
        if m:
            out[m.group(1)] = (float(m.group(2)), m.group(3).strip())
        # (cargo prints a test's first output on the line of its name.)
        # The switch benchmarks of e2e/tests/bench_ui.rs (medians of 9 switches).
        m = re.search(r"switch baseline, 3 runs x 2,000 transactions( with histograms)?: median (\d+) ms \(min (\d+), max (\d+)", line)
        if m:
            key = "switch_2000_histograms" if m.group(1) else "switch_2000"
            out[key] = (float(m.group(2)), f"min={m.group(3)} max={m.group(4)} n=9 switches")
    return out


def gz(path):
    """Bytes of `gzip -9 -n`, the tool check-size.sh uses (Python's zlib makes other streams)."""
    return len(subprocess.run(["gzip", "-9", "-n", "-c", path], check=True, capture_output=True).stdout)


def sizes(dist, out):
    """The app wasm and the first view's files, gzip -9, as scripts/check-size.sh (the CI's gate)
    counts them: index.html, the files it names (the icon among them) and the landing page's
    example list. 1 KB = 1,000 B, as scripts/check-size.sh counts."""
    html = open(os.path.join(dist, "index.html"), encoding="utf-8").read()
    # Quoted or not: a release build's index.html is minified (docs/decisions/0063).
    found = re.findall(r'(?:href|src)=(?:"(?:/runlens/)?([^"\s:]+)"|(?:/runlens/)?(\w[\w./-]*)(?=[\s>]))', html)
    names = sorted({quoted or bare for quoted, bare in found})
    first = ["index.html"] + names + [n for n in ["examples/index.json"] if os.path.exists(os.path.join(dist, n))]
    wasm = [n for n in first if n.startswith("runlens-") and n.endswith("_bg.wasm")]
    lines = []
    total = 0
    for n in first:
        g = gz(os.path.join(dist, n))
        total += g
        lines.append(f"    {n}: {os.path.getsize(os.path.join(dist, n)) / 1000:.1f} KB, gzip -9 {g / 1000:.1f} KB")
    if wasm:
        out["wasm_gzip_kb"] = (gz(os.path.join(dist, wasm[0])) / 1000, wasm[0])
    out["first_view_gzip_kb"] = (total / 1000, f"{len(first)} files")
    return lines


def names(dist):
    files = sorted(os.listdir(dist))
    hashed = [f for f in files if HASHED.search(f)]
    plain = [f for f in files if f not in hashed]
    return [f"    hashed by Trunk: {', '.join(hashed)}", f"    not hashed: {', '.join(plain)}"]


def headers(dist):
    """The cache headers of the e2e server (e2e/serve.py) for the page, the glue, the wasm."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    root = tempfile.mkdtemp(prefix="runlens-bench-ui-")
    os.symlink(os.path.abspath(dist), os.path.join(root, "runlens"))
    server = subprocess.Popen([sys.executable, os.path.join(ROOT, "e2e/serve.py"), str(port), root])
    lines = []
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), 0.1).close()
                break
            except OSError:
                time.sleep(0.05)
        for name in ["index.html", "boot.js"] + sorted(f for f in os.listdir(dist) if f.startswith("runlens-")):
            req = urllib.request.Request(f"http://127.0.0.1:{port}/runlens/{name}", method="HEAD")
            with urllib.request.urlopen(req) as r:
                h = {k: r.headers.get(k) for k in ["Cache-Control", "ETag", "Last-Modified", "Expires"]}
            shown = ", ".join(f"{k}: {v}" for k, v in h.items() if v) or "none"
            lines.append(f"    {name}: {shown}")
    finally:
        server.terminate()
        server.wait()
        os.remove(os.path.join(root, "runlens"))
        os.rmdir(root)
    lines.append("    (no Cache-Control: browsers cache heuristically, ~10% of the age since Last-Modified;")
    lines.append("     GitHub Pages sends Cache-Control: max-age=600 for every file, hashed or not)")
    return lines


def previous():
    rows = []
    for line in open(os.path.join(HERE, "previous.txt"), encoding="utf-8"):
        if line.strip() and not line.startswith("#"):
            key, target, prev, what = line.rstrip("\n").split("\t")
            rows.append((key, target, prev, what))
    return rows


def main():
    raw_path, dist, load_before, load_after = sys.argv[1:5]
    out = figures(open(raw_path, encoding="utf-8", errors="replace").read())
    size_lines = sizes(dist, out)
    rows = previous()
    unit = lambda k: "KB" if k.endswith("_kb") else "MB" if k.endswith("_mb") else "" if k.startswith("embeds_watched") or k.endswith("_at_install") else "ms"
    w = max(len(r[3]) for r in rows)
    text = [f"runlens UI benchmarks, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, dist {os.path.abspath(dist)}",
            f"load (uptime) before: {load_before}", f"load (uptime) after:  {load_after}",
            f"medians; BENCH_REPS={os.environ.get('BENCH_REPS', '5')} repetitions (the 50 MB bundle: twice that less one; switches: 9)", "",
            f"{'figure':<{w}}  {'median':>10}  {'target':<12}  {'previous':<22}  spread"]
    for key, target, prev, what in rows:
        if key in out:
            v, detail = out[key]
            shown = f"{v:,.1f} {unit(key)}" if unit(key) in ("KB", "MB") else f"{v:,.0f} {unit(key)}".rstrip()
        else:
            shown, detail = "missing", "(benchmark failed or skipped; see target/bench-ui/raw.txt)"
        text.append(f"{what:<{w}}  {shown:>10}  {target:<12}  {prev:<22}  {detail}")
    extra = [k for k in out if k not in {r[0] for r in rows}]
    for k in extra:
        text.append(f"  ({k}: {out[k][0]:,.1f} {out[k][1]})")
    text += ["", "5. first view's files:"] + size_lines
    text += ["", "4. file names in the dist:"] + names(dist)
    text += ["", "4. cache headers of the e2e server (e2e/serve.py):"] + headers(dist)
    report = "\n".join(text) + "\n"
    print(report, end="")
    os.makedirs(os.path.join(ROOT, "target/bench-ui"), exist_ok=True)
    with open(os.path.join(ROOT, "target/bench-ui/last-run.txt"), "w", encoding="utf-8") as f:
        f.write(report)


if __name__ == "__main__":
    main()
