"""Local-only HTTP server of scripts/bench-ingest.sh (127.0.0.1, a free port).

Adapted from the shared research harness (shared/research/browser-perf-harness/server.py: sendfile,
`Cache-Control: no-store`, POST /result); added here: the runlens build under /runlens/ with the
benchmark's drop script put into its index.html, and POST /mark, which the page calls just before
the drop and just after the table is on screen, so the runner can reset and read the renderer's
peak memory at those moments (the request returns only when the runner has done so).

    GET  /runlens/...       the release build (RUNLENS_DIST); index.html gets <script src="/bench/drop.js">
    GET  /bench/...         this folder (drop.js, peers.html, peers.mjs)
    GET  /node_modules/...  this folder's node_modules (DuckDB-Wasm, Papa Parse)
    GET  /data/...          the generated JTL files
    POST /result            the page's JSON result (handed to the runner through a queue)
    POST /mark              {run, phase}: calls ResultServer.on_mark(obj) and answers its JSON
    POST /log               printed to stderr
"""
import json
import os
import queue
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

HERE = os.path.dirname(os.path.abspath(__file__))
DROP_TAG = b'<script src="/bench/drop.js"></script>'


class Handler(SimpleHTTPRequestHandler):
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map,
                      ".mjs": "text/javascript", ".js": "text/javascript",
                      ".wasm": "application/wasm", ".csv": "text/csv", ".jtl": "text/csv",
                      ".json": "application/json", ".html": "text/html"}

    def translate_path(self, path):
        path = path.split("?", 1)[0].split("#", 1)[0]
        roots = {"/runlens/": self.server.dist, "/bench/": HERE,
                 "/node_modules/": os.path.join(HERE, "node_modules"), "/data/": self.server.data}
        for prefix, root in roots.items():
            if path.startswith(prefix):
                rest = os.path.normpath("/" + path[len(prefix):]).lstrip("/")
                return os.path.join(root, rest)
        return os.path.join(HERE, "does-not-exist")

    def log_message(self, fmt, *args):
        pass

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        if path in ("/runlens/", "/runlens/index.html"):
            with open(os.path.join(self.server.dist, "index.html"), "rb") as f:
                body = f.read().replace(b"</head>", DROP_TAG + b"\n</head>", 1)
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()

    def copyfile(self, source, outputfile):
        # zero-copy send of the (large) file body
        outputfile.flush()
        try:
            self.connection.sendfile(source)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def do_POST(self):
        n = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(n)
        try:
            obj = json.loads(body)
        except ValueError:
            obj = {"unparsable": body[:2000].decode("utf-8", "replace")}
        answer = b""
        if self.path.startswith("/result"):
            self.server.results.put(obj)
        elif self.path.startswith("/mark"):
            answer = json.dumps(self.server.on_mark(obj)).encode()
        elif self.path.startswith("/log"):
            print("[page]", json.dumps(obj)[:2000], file=sys.stderr, flush=True)
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)


class ResultServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, dist, data):
        super().__init__(("127.0.0.1", 0), Handler)
        self.dist, self.data = dist, data
        self.results = queue.Queue()
        self.on_mark = lambda obj: {}
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)

    @property
    def port(self):
        return self.server_address[1]

    def start(self):
        self.thread.start()
        return self
