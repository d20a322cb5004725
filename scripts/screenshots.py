#!/usr/bin/env python3
"""Screenshots of runlens pages in headless Chromium, taken through WebDriver in real time.

Chromium's own `--screenshot` mode shoots at the load event (or under a virtual clock, which holds
the ingest worker's download at "0 B"), before a bundle opened by `?src=` is on screen. This
drives ChromeDriver instead: it opens each page, waits until it is idle, and saves the PNG.

    source scripts/env.sh                       # CHROME and CHROMEDRIVER (scripts/setup.sh)
    python3 scripts/screenshots.py DIST OUT_DIR NAME=QUERY[@WIDTH[xHEIGHT]][:dark] ...

DIST is a release build made with `--public-url /runlens/` (e.g. target/e2e-dist, as
scripts/test.sh builds it); QUERY is the part after `?`. For example:

    python3 scripts/screenshots.py target/e2e-dist /tmp/shots \\
        'overview=src=examples/folio-mod-search-eureka.json&view=overview' \\
        'narrow=src=examples/folio-reindex-orchid-vs-poppy.json&view=overview@400:dark'
"""
import base64
import functools
import http.server
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(dist, files=()):
    """Serves DIST under /runlens/ (as GitHub Pages serves a project site) and each of `files` at
    /files/NAME (a query reaches it with `src=../files/NAME`); returns the base URL."""
    root = tempfile.mkdtemp(prefix="runlens-shots-")
    os.symlink(os.path.abspath(dist), os.path.join(root, "runlens"))
    os.mkdir(os.path.join(root, "files"))
    for f in files:
        os.symlink(os.path.abspath(f), os.path.join(root, "files", os.path.basename(f)))
    handler = functools.partial(QuietHandler, directory=root)
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{srv.server_address[1]}/runlens/"


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class Driver:
    def __init__(self):
        self.port = free_port()
        self.proc = subprocess.Popen([os.environ.get("CHROMEDRIVER", "chromedriver"), f"--port={self.port}"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            try:
                self.call("GET", "/status")
                return
            except OSError:
                time.sleep(0.1)
        raise SystemExit("ChromeDriver did not start (is CHROMEDRIVER set? source scripts/env.sh)")

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", method=method, data=data,
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=60) as r:
            return json.load(r)["value"]

    def shot(self, url, width, dark, out, height=None):
        args = ["--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", f"--window-size={width},900"]
        if dark:
            args.append("--force-dark-mode")
        caps = {"goog:chromeOptions": {"binary": os.environ.get("CHROME", "chromium"), "args": args}}
        sid = self.call("POST", "/session", {"capabilities": {"alwaysMatch": caps}})["sessionId"]
        try:
            if width < 500 or height:
                # Chromium's windows are at least 500 px wide; narrower (or taller) pages are emulated.
                metrics = {"width": width, "height": height or 900, "deviceScaleFactor": 1, "mobile": False}
                self.call("POST", f"/session/{sid}/goog/cdp/execute",
                          {"cmd": "Emulation.setDeviceMetricsOverride", "params": metrics})
            self.call("POST", f"/session/{sid}/url", {"url": url})
            # Idle: no file or download is being read (the busy box, src/ui/components/busy.rs, is gone).
            script = "return !document.querySelector('.busy')"
            deadline = time.time() + 20
            while time.time() < deadline and not self.call("POST", f"/session/{sid}/execute/sync", {"script": script, "args": []}):
                time.sleep(0.2)
            time.sleep(1.0)  # charts draw after the data is in
            png = self.call("GET", f"/session/{sid}/screenshot")
            with open(out, "wb") as f:
                f.write(base64.b64decode(png))
        finally:
            self.call("DELETE", f"/session/{sid}")

    def close(self):
        self.proc.kill()


def main(argv):
    if len(argv) < 3 or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    dist, out_dir, specs = argv[0], argv[1], argv[2:]
    os.makedirs(out_dir, exist_ok=True)
    base = serve(dist)
    driver = Driver()
    try:
        for spec in specs:
            name, _, query = spec.partition("=")
            dark = query.endswith(":dark")
            query = query.removesuffix(":dark")
            query, _, size = query.rpartition("@") if "@" in query else (query, "", "1280")
            width, _, height = size.partition("x")
            out = os.path.join(out_dir, f"{name}.png")
            driver.shot(f"{base}?{query}", int(width), dark, out, int(height) if height else None)
            print(out)
    finally:
        driver.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
