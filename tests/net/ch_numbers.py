#!/usr/bin/env python3
"""ch_numbers.py - numbers out of range in a ClickHouse answer (#53 item 3).

    ch_numbers.py --bin BUILD/cli

A stand-in ClickHouse on loopback answers every query of `godeye diff
--clickhouse` with one row whose count is 1e300 (then -1, 2.5): godeye
range-checks it before any conversion and fails with one line naming it,
exit 1.  Before, gate.c cast it with (long), undefined behaviour (UBSan:
"1e+300 is outside the range of representable values of type 'long'"),
and went on with a garbage count.
"""
import argparse
import http.server
import os
import subprocess
import sys
import tempfile
import threading

failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def serve(answer):
    class H(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            n = int(self.headers.get("Content-Length", 0) or 0)
            self.rfile.read(n)
            body = answer[0].encode() + b"\n"
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST

        def log_message(self, *a):
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    a = ap.parse_args()
    godeye = os.path.join(a.bin, "godeye")
    answer = [""]
    srv = serve(answer)
    url = "http://127.0.0.1:%d" % srv.server_address[1]
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, GODEYE_DB=os.path.join(tmp, "g.db"))
        for row, shown in (('{"n":1e300,"minutes":1}', "1e+300"), ('{"n":-1,"minutes":1}', "-1"),
                           ('{"n":2.5,"minutes":1}', "2.5"), ('{"n":3,"minutes":1e400}', None)):
            answer[0] = row
            p = subprocess.run([godeye, "diff", "--clickhouse", url, "version=1", "version=2"],
                               capture_output=True, text=True, env=env, timeout=60)
            err = p.stderr.strip().splitlines()
            if shown:
                want = "godeye diff: '%s': clickhouse: trace count out of range in the answer: %s" % (url, shown)
            else:  # 1e400 is no JSON number jansson reads: the answer itself is refused
                want = None
            check(p.returncode == 1, "%s: exit 1 (got %d)" % (row, p.returncode))
            check(len(err) == 1, "%s: one line on stderr (got %r)" % (row, err))
            if want:
                check(err and err[0] == want, "%s: %r (got %r)" % (row, want, err[:1]))
            check("runtime error" not in p.stderr, "%s: no UBSan report" % row)
    srv.shutdown()
    if failures:
        print("%d failed" % len(failures))
        sys.exit(1)


if __name__ == "__main__":
    main()
