"""Static file server of the end-to-end tests. It sends what GitHub Pages sends and a self-hosting
server must send (README, "Deploying"): `Access-Control-Allow-Origin: *`, without which a
sandboxed iframe (an opaque origin, for which every request is cross-origin) cannot load the
module, the wasm or the stylesheet, and the `application/wasm` type.

usage: python3 serve.py PORT DIRECTORY
"""
import functools
import http.server
import sys


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".js": "text/javascript",
        ".json": "application/json",
    }

    def end_headers(self):
        self.send_header("Access-Control-Allow-Origin", "*")
        super().end_headers()

    def log_message(self, *args):
        pass


port, directory = int(sys.argv[1]), sys.argv[2]
server = http.server.ThreadingHTTPServer(("127.0.0.1", port), functools.partial(Handler, directory=directory))
server.serve_forever()
