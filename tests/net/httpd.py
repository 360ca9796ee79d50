#!/usr/bin/env python3
"""httpd.py - a loopback HTTP server with misbehaving routes for URL ingest tests.

Serves one capture file in the ways a real network fails:

    /good.jsonl       the file (Content-Length)
    /gzip.jsonl       the file with Content-Encoding: gzip
    /chunked.jsonl    the file, chunked (no Content-Length)
    /redirect.jsonl   302 to /good.jsonl
    /to-file          302 to file:///etc/passwd
    /missing          404
    /slow             200, half the file, then silence (STALL seconds) and close
    /short            Content-Length 1000 bytes larger than what is sent, then close
    /padded?mb=N      N MiB of JSON lines of an unknown kind after the file, chunked

Used as a module (start() returns the server, bound to a free 127.0.0.1
port, serving from a daemon thread) or run alone for a given time:
    httpd.py FILE SECONDS   prints the port, serves, exits after SECONDS.
"""
import gzip
import http.server
import sys
import threading
import time
import urllib.parse

STALL = 8  # seconds /slow stays silent: longer than the tests' --timeout


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    body = b""

    def log_message(self, fmt, *args):
        pass

    def send_body(self, data, extra=None, length=None):
        self.send_response(200)
        self.send_header("Content-Type", "application/x-ndjson")
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(data) if length is None else length))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def chunk(self, data):
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))

    def start_chunked(self):
        self.send_response(200)
        self.send_header("Content-Type", "application/x-ndjson")
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Connection", "close")
        self.end_headers()

    def redirect(self, where):
        self.send_response(302)
        self.send_header("Location", where)
        self.send_header("Content-Length", "0")
        self.send_header("Connection", "close")
        self.end_headers()

    def do_GET(self):
        url = urllib.parse.urlparse(self.path)
        path, query = url.path, urllib.parse.parse_qs(url.query)
        body = self.body
        self.close_connection = True
        try:
            if path == "/good.jsonl":
                self.send_body(body)
            elif path == "/gzip.jsonl":
                self.send_body(gzip.compress(body), {"Content-Encoding": "gzip"})
            elif path == "/chunked.jsonl":
                self.start_chunked()
                for i in range(0, len(body), 700):
                    self.chunk(body[i:i + 700])
                self.wfile.write(b"0\r\n\r\n")
            elif path == "/redirect.jsonl":
                self.redirect("/good.jsonl")
            elif path == "/to-file":
                self.redirect("file:///etc/passwd")
            elif path == "/slow":
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(body[:len(body) // 2])
                self.wfile.flush()
                time.sleep(STALL)
            elif path == "/short":
                self.send_body(body, length=len(body) + 1000)
            elif path == "/padded":
                mb = int(query.get("mb", ["1"])[0])
                line = b'{"type":"x_padding","ts":1700000000000,"pad":"' + b"a" * 990 + b'"}\n'
                self.start_chunked()
                self.chunk(body)
                block = line * 64
                for _ in range(mb * 1048576 // len(block)):
                    self.chunk(block)
                self.wfile.write(b"0\r\n\r\n")
            else:
                self.send_error(404)
        except (BrokenPipeError, ConnectionResetError):
            pass


def start(body):
    """Serves `body` (bytes) on a free loopback port; returns the server."""
    handler = type("H", (Handler,), {"body": body})
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    srv.daemon_threads = True
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


if __name__ == "__main__":
    srv = start(open(sys.argv[1], "rb").read())
    print(srv.server_address[1], flush=True)
    time.sleep(float(sys.argv[2]))
    srv.shutdown()
