#!/usr/bin/env python3
"""push_http.py - `godeye push` against a stand-in ClickHouse HTTP server on loopback.

    push_http.py --bin BUILD/cli --fixture F.jsonl

The stand-in answers by path (#25 item 18):
    /ok/        200 "0" to every statement (tables created, no trace there yet)
    /moved/     302 with a Location (redacted in the message: its password)
    /silent/    500 with an empty body
    /hang/      reads the request and never answers
    /reset/     resets the connection of an INSERT before reading its body
and checks: a 3xx is reported with its status and Location; a status
without a body with its status; `--timeout 2` ends a request that hangs
(with curl's reason), where it used to wait 600 s; a database error names
the database file, not the server.  Every wait is a hang guard, not a timing.
"""
import argparse
import atexit
import http.server
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import urllib.parse

failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def do_POST(self):
        if self.path.startswith("/reset/") and "INSERT" in urllib.parse.unquote_plus(self.path):
            # killed mid-request: the connection reset, the body unread
            import socket
            import struct
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
            self.close_connection = True
            return
        n = int(self.headers.get("Content-Length") or 0)
        sent = b""
        if n:
            sent = self.rfile.read(n)
        elif self.headers.get("Transfer-Encoding") == "chunked":
            while True:
                size = int(self.rfile.readline().split(b";")[0], 16)
                self.rfile.read(size + 2)
                if size == 0:
                    break
        if self.path.startswith("/hang/"):
            self.server.stop.wait(120)  # until the test ends
            return
        if self.path.startswith("/moved/"):
            self.send_response(302)
            self.send_header("Location", "http://admin:s3cret@127.0.0.1:1/ch/?x=1")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        code, body = (500, b"") if self.path.startswith("/silent/") else (200, b"0\n")
        if code == 200 and sent.startswith(b"SELECT") and sent.endswith(b"FORMAT JSONEachRow"):
            body = b""  # no rows (the trace's tags on the server: none there)
        self.send_response(code)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--fixture", required=True)
    a = ap.parse_args()
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    srv.stop = threading.Event()
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    base = "http://127.0.0.1:%d" % srv.server_address[1]
    tmp = tempfile.mkdtemp(prefix="godeye-push-")
    atexit.register(shutil.rmtree, tmp, True)  # the suite leaves no temporary folder
    db = os.path.join(tmp, "g.db")
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    env["GODEYE_DB"] = db
    godeye = os.path.join(a.bin, "godeye")

    def run(*args):
        p = subprocess.run([godeye] + list(args), capture_output=True, env=env, timeout=120)
        return p.returncode, p.stdout.decode(), p.stderr.decode().strip()

    rc, out, err = run("ingest", "-q", a.fixture)
    check(rc == 0, "ingest the fixture (%s)" % err)

    rc, out, err = run("push", "--clickhouse", base + "/moved/")
    check(rc == 1 and err == "godeye push: '%s/moved/': clickhouse: HTTP 302 redirect to "
          "'http://127.0.0.1:1/ch/?x=1' (not followed: give that URL)" % base,
          "a 302 names its status and Location, credentials dropped: %r" % err)

    rc, out, err = run("push", "--clickhouse", base + "/silent/")
    check(rc == 1 and err == "godeye push: '%s/silent/': clickhouse: HTTP 500 without a message" % base,
          "a 500 without a body names its status: %r" % err)

    rc, out, err = run("push", "--clickhouse", base + "/hang/", "--timeout", "2")
    check(rc == 1 and err == "godeye push: '%s/hang/': clickhouse: no answer within 2 s" % base,
          "--timeout 2 ends a request that never gets an answer: %r" % err)
    # without --timeout the stall limit (30 s without a byte) ends it: the
    # message names that limit, not the 600 s of a whole request (#53 item 9)
    rc, out, err = run("push", "--clickhouse", base + "/hang/")
    check(rc == 1 and err.startswith("godeye push: '%s/hang/': clickhouse: no answer: nothing received "
                                     "for 30 s (after 3" % base),
          "a stalled request names the stall limit: %r" % err)
    rc, out, err = run("push", "--clickhouse", base + "/reset/")
    check(rc == 1 and "onnection reset" in err and "rewind" not in err,
          "a server that resets the connection mid-INSERT is a connection reset: %r" % err)
    rc, out, err = run("push", "--clickhouse", base + "/ok/", "--timeout", "0")
    check(rc == 2 and err == "godeye push: --timeout takes 1..86400 seconds", "--timeout 0 is a usage error: %r" % err)

    # a database error (a table gone) names the database file, not the server
    con = sqlite3.connect(db)
    con.execute("DROP TABLE dispatch")
    con.commit()
    con.close()
    rc, out, err = run("push", "--clickhouse", base + "/ok/", "--format", "json")
    check(rc == 1 and err.startswith("godeye push: '%s': " % db) and "no such table: dispatch" in err,
          "a database error names the database: %r" % err)
    srv.stop.set()
    srv.shutdown()
    print("%d passed, %d failed" % (0 if failures else 1, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
