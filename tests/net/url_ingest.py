#!/usr/bin/env python3
"""url_ingest.py - `godeye ingest URL` against a loopback server (httpd.py).

    url_ingest.py --bin BUILD/cli --fixture tests/fixtures/godeye/pairing.jsonl

A good capture (plain, gzip Content-Encoding, chunked, through a redirect)
gives exactly the counts of a file ingest and the same trace on re-fetch;
every failure (404, stall past --timeout, a body cut short, a redirect to
file://, a body over --max-bytes) exits 1 with one line naming the URL and
the reason, and writes nothing.  A 64 MiB body is ingested with a bounded
peak RSS (no copy of the body in memory).
"""
import argparse
import atexit
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import httpd  # noqa: E402

failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


class Godeye:
    def __init__(self, bindir, tmp):
        self.bin = os.path.join(bindir, "godeye")
        self.env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
        self.env["TZ"] = "UTC"
        self.tmp = tmp

    def run(self, db, *args):
        """Returns (exit, stdout, stderr, peak RSS in KiB)."""
        with tempfile.TemporaryFile() as o, tempfile.TemporaryFile() as e:
            p = subprocess.Popen([self.bin, "--db", os.path.join(self.tmp, db)] + list(args),
                                 stdout=o, stderr=e, stdin=subprocess.DEVNULL, env=self.env)
            _, status, usage = os.wait4(p.pid, 0)
            p.returncode = os.waitstatus_to_exitcode(status)
            o.seek(0)
            e.seek(0)
            return p.returncode, o.read().decode(), e.read().decode(), usage.ru_maxrss

    def ingest(self, db, src, *opts):
        rc, out, err, _ = self.run(db, "ingest", "--format", "json", *opts, src)
        return rc, (json.loads(out) if rc == 0 else None), err

    def count(self, db, table):
        rc, out, err, _ = self.run(db, "sql", "--format", "json",
                                   f"SELECT count(*) AS n FROM {table}")
        return json.loads(out)[0]["n"] if rc == 0 else f"error: {err.strip()}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--fixture", required=True)
    a = ap.parse_args()
    signal.alarm(300)  # the whole test is bounded even if a transfer hangs
    body = open(a.fixture, "rb").read()
    srv = httpd.start(body)
    base = f"http://127.0.0.1:{srv.server_address[1]}"
    tmp = tempfile.mkdtemp(prefix="godeye-url-")
    atexit.register(shutil.rmtree, tmp, True)  # the suite leaves no temporary folder
    g = Godeye(a.bin, tmp)

    rc, ref, err = g.ingest("file.db", a.fixture)
    check(rc == 0, f"file ingest exits 0 ({err.strip()})")
    ref = ref[0]
    keys = ("format", "events", "skipped", "dispatches", "blocks")

    rc, got, err = g.ingest("url.db", base + "/good.jsonl")
    check(rc == 0, f"URL ingest exits 0 ({err.strip()})")
    got = got[0] if got else {}
    for k in keys:
        check(got.get(k) == ref[k], f"URL ingest {k} = {got.get(k)}, file ingest {ref[k]}")
    check(got.get("source") == base + "/good.jsonl", "the source is the URL")
    check(got.get("duplicate") is False, "first fetch is new")
    for k in ("dispatch", "block", "sample", "raw_event"):
        n_url, n_file = g.count("url.db", k), g.count("file.db", k)
        check(n_url == n_file, f"{k} rows: {n_url} from the URL, {n_file} from the file")

    for route in ("/good.jsonl", "/gzip.jsonl", "/chunked.jsonl", "/redirect.jsonl"):
        rc, again, err = g.ingest("url.db", base + route)
        again = again[0] if again else {}
        check(rc == 0 and again.get("duplicate") is True and again.get("trace") == got.get("trace"),
              f"re-fetch {route}: same content, same trace {got.get('trace')} ({again}, {err.strip()})")
    check(g.count("url.db", "trace") == 1, "still one trace after re-fetching")

    rc, gz, err = g.ingest("gzip.db", base + "/gzip.jsonl")
    gz = gz[0] if gz else {}
    check(rc == 0 and all(gz.get(k) == ref[k] for k in keys),
          f"gzip Content-Encoding gives the file's counts ({gz}, {err.strip()})")

    dispatches = g.count("url.db", "dispatch")
    cases = [
        ("/missing", [], "HTTP 404 from server"),
        ("/slow", ["--timeout", "2"], "Operation timed out after 2"),
        ("/short", [], "transfer closed with 1000 bytes remaining to read"),
        ("/to-file", [], "redirect refused (only http and https): "),
        ("/good.jsonl", ["--max-bytes", "1000"], "body larger than the cap of 1000 bytes"),
        ("/chunked.jsonl", ["--max-bytes", "1000"], "body larger than the cap of 1000 bytes"),
    ]
    for route, opts, reason in cases:
        url = base + route
        rc, out, err, _ = g.run("url.db", "ingest", *opts, url)
        lines = err.splitlines()
        prefix = f"godeye ingest: '{url}': {reason}"
        check(rc == 1, f"{route} {' '.join(opts)}: exit {rc}, expected 1")
        check(len(lines) == 1 and lines[0].startswith(prefix),
              f"{route}: one line starting {prefix!r}, got {err!r}")
        check(out == "", f"{route}: nothing on stdout")
    check(g.count("url.db", "trace") == 1 and g.count("url.db", "dispatch") == dispatches,
          "failed fetches wrote nothing")

    # credentials never stored or shown: userinfo dropped, secret query values redacted
    host = base[len("http://"):]
    rc, got, err = g.ingest("creds.db", f"http://alice:s3cret@{host}/good.jsonl?token=abc123&v=2")
    shown = f"{base}/good.jsonl?token=REDACTED&v=2"
    check(rc == 0 and got[0].get("source") == shown,
          f"source stored as {got[0].get('source') if got else None!r}, expected {shown!r} ({err.strip()})")
    rc, out, err, _ = g.run("creds.db", "traces", "--format", "json")
    check(rc == 0 and "s3cret" not in out and "abc123" not in out, "traces shows no credential")
    rc, out, err, _ = g.run("creds.db", "ingest", f"http://alice:s3cret@{host}/missing?api_key=zzz9")
    check(rc == 1 and "s3cret" not in err and "zzz9" not in err
          and err.startswith(f"godeye ingest: '{base}/missing?api_key=REDACTED': HTTP 404"),
          f"a failed fetch names the URL without credentials: {err!r}")

    rc, out, err, rss = g.run("big.db", "ingest", "--format", "json", base + "/padded?mb=64")
    rep = json.loads(out)[0] if rc == 0 else {}
    check(rc == 0 and rep.get("dispatches") == ref["dispatches"],
          f"64 MiB body ingested ({rep.get('dispatches')} dispatches, {err.strip()})")
    # AddressSanitizer's shadow memory and quarantine make RSS meaningless
    limit = 48 * 1024 if "ASAN_OPTIONS" not in os.environ else 1024 * 1024
    check(0 < rss < limit, f"peak RSS {rss // 1024} MiB for a 64 MiB body (limit {limit // 1024})")

    srv.shutdown()
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
