#!/usr/bin/env python3
"""ch_diff_cap.py - `godeye diff --clickhouse` holds a bounded answer (#53 item 7).

    ch_diff_cap.py --bin BUILD/cli

A stand-in ClickHouse on loopback: the selection matches 1 trace, and its
blocks answer streams one block row per group, N distinct groups.  With
20,000 groups a side (the cap, GD_DIFF_FLEET_MAX_NAMES) the diff answers;
with 20,001, and with a million, it stops with one line naming the cap,
exit 1, its peak RSS below the cap's (before: every row held, about 5 KB a
group: 104 MB at 20,000 groups, linear, no cap).  Prints each run's peak
RSS.  CAP_NS="N ..." runs other counts, CAP_LOG=1 prints the queries.
"""
import argparse
import http.server
import json
import os
import subprocess
import sys
import tempfile
import threading
import urllib.parse

failures = []
GROUPS = [0]


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        n = int(self.headers.get("Content-Length", 0) or 0)
        q = self.rfile.read(n).decode(errors="replace") + self.path
        if os.environ.get("CAP_LOG"):
            sys.stderr.write("Q %s\n" % urllib.parse.unquote(q)[:300])
        self.send_response(200)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()

        def chunk(b):
            self.wfile.write(b"%x\r\n%s\r\n" % (len(b), b))

        if "count() AS n, sumIf(exposure_ms" in q:
            chunk(b'{"n":1,"minutes":1}\n')
        elif "FROM blocks FINAL" in q and "LIMIT" in q:
            buf = []
            for i in range(GROUPS[0]):
                buf.append('{"group":"com.x.G%d.run","kind":"long","duration_ms":300}\n' % i)
                if len(buf) == 5000:
                    chunk("".join(buf).encode())
                    buf = []
            if buf:
                chunk("".join(buf).encode())
        self.wfile.write(b"0\r\n\r\n")

    do_GET = do_POST

    def log_message(self, *a):
        pass


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    a = ap.parse_args()
    godeye = os.path.join(a.bin, "godeye")
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    url = "http://127.0.0.1:%d" % srv.server_address[1]
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, GODEYE_DB=os.path.join(tmp, "g.db"))
        for n in [int(x) for x in os.environ.get("CAP_NS", "20000 20001 1000000").split()]:
            GROUPS[0] = n
            out, errf = os.path.join(tmp, "out"), os.path.join(tmp, "err")
            with open(out, "w") as o, open(errf, "w") as e:
                p = subprocess.Popen([godeye, "diff", "--clickhouse", url, "--format", "json",
                                      "version=1", "version=2"], stdout=o, stderr=e, env=env)
                _, st, ru = os.wait4(p.pid, 0)
            rc = os.waitstatus_to_exitcode(st)
            err = open(errf).read().strip().splitlines()
            print("%d groups: exit %d, peak RSS %.1f MB" % (n, rc, ru.ru_maxrss / 1024))
            if n == 20000:
                rows = json.load(open(out))
                check(rc == 0 and len(rows) == 20000, "%d groups: exit 0, 20000 rows (exit %d, %s)" % (n, rc, err))
            else:
                want = ("godeye diff: '%s': a selection has more than 20000 block groups, pages, windows and"
                        " launches (the fleet cap of godeye-diff(1)): narrow it" % url)
                check(rc == 1 and err == [want], "%d groups: exit 1, one line naming the cap (got %d, %r)"
                      % (n, rc, err[:2]))
            # under ASan (scripts/test.sh --sanitize) every allocation carries
            # its redzones and quarantine: the bound is 4 times as wide there
            limit = 150 if "ASAN_OPTIONS" not in os.environ else 600
            check(ru.ru_maxrss < limit * 1024, "%d groups: peak RSS under %d MB" % (n, limit))
    srv.shutdown()
    if failures:
        print("%d failed" % len(failures))
        sys.exit(1)


if __name__ == "__main__":
    main()
