"""chbench.py - the `godeye push` measure of bench.py against a loopback
clickhouse-server (started in a temporary folder the way
tests/net/clickhouse_push.py does, unless CLICKHOUSE_URL names a running one).

The baseline is ClickHouse accepting the very same rows pre-rendered in
files: `godeye push` is run once through a recording proxy, which keeps
every request it forwards (URL query, Content-Type/Content-Encoding and body,
bodies into files).  The baseline replays the INSERT requests from those
files with one `curl --data-binary @file URL --next ...` process: same
format (whatever `godeye push` sends: JSONEachRow, TabSeparated,
RowBinary...; PUSH_FORMAT is read off the recorded queries, never assumed),
same batches, same bytes.  Before each run of either side the database is
dropped; before a baseline run the recorded non-INSERT statements (CREATE
DATABASE/TABLE) are replayed untimed, so that the timed part is the inserts
only, while `godeye push` is timed with its own CREATE ... IF NOT EXISTS
and its "already pushed?" query (its real work).

python3 standard library only.
"""

import http.client
import http.server
import importlib.util
import os
import re
import shutil
import tempfile
import threading
import urllib.parse
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _chp():
    spec = importlib.util.spec_from_file_location(
        "clickhouse_push", os.path.join(ROOT, "tests", "net", "clickhouse_push.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def server(log):
    """(url, stop) of a clickhouse-server; (None, None) when none can run."""
    url = os.environ.get("CLICKHOUSE_URL")
    if url:
        return url.rstrip("/"), lambda: None
    chp = _chp()
    if not chp.SERVER:
        return None, None
    tmp = tempfile.mkdtemp(prefix="godeye-bench-ch-")
    log("starting clickhouse-server in %s" % tmp)
    url, stop = chp.start_server(tmp)

    def stop_and_clean():
        stop()
        shutil.rmtree(tmp, ignore_errors=True)
    return url, stop_and_clean


def ch(url, sql):
    return urllib.request.urlopen(url + "/", data=sql.encode(), timeout=120).read().decode()


class _Recorder(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def _body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            out = b""
            while True:
                n = int(self.rfile.readline().split(b";")[0], 16)
                if n == 0:
                    self.rfile.readline()
                    return out
                out += self.rfile.read(n)
                self.rfile.readline()
        return self.rfile.read(int(self.headers.get("Content-Length", "0")))

    def _forward(self, method):
        body = self._body() if method == "POST" else None
        st = self.server.state
        hdrs = {k: v for k, v in self.headers.items()
                if k.lower() in ("content-type", "content-encoding", "authorization")
                or k.lower().startswith("x-clickhouse")}
        st["requests"].append((method, self.path, hdrs, body))
        up = urllib.parse.urlsplit(st["upstream"])
        c = http.client.HTTPConnection(up.hostname, up.port, timeout=300)
        c.request(method, self.path, body=body, headers=hdrs)
        r = c.getresponse()
        data = r.read()
        c.close()
        self.send_response(r.status)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Content-Type", r.getheader("Content-Type", "text/plain"))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        self._forward("POST")

    def do_GET(self):
        self._forward("GET")


def record(argv_of, upstream, outdir):
    """Runs argv_of(proxy_url) through a recording proxy; returns the
    requests [(method, path, headers, body)]."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    httpd.state = {"upstream": upstream, "requests": []}
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    try:
        import subprocess
        subprocess.run(argv_of("http://127.0.0.1:%d" % httpd.server_address[1]), check=True,
                       stdout=subprocess.DEVNULL)
    finally:
        httpd.shutdown()
        httpd.server_close()
    return httpd.state["requests"]


def query_of(path):
    q = urllib.parse.parse_qs(urllib.parse.urlsplit(path).query)
    return q.get("query", [""])[0]


def is_insert(req):
    method, path, _, body = req
    return method == "POST" and query_of(path).lstrip().upper().startswith("INSERT")


def write_replay(requests, url, outdir):
    """The curl command replaying the INSERT requests from files, and the
    formats they use."""
    os.makedirs(outdir, exist_ok=True)
    argv = ["curl", "-sS", "--fail", "--no-progress-meter", "-o", "/dev/null"]
    formats, n, size = set(), 0, 0
    for req in requests:
        if not is_insert(req):
            continue
        method, path, hdrs, body = req
        f = os.path.join(outdir, "insert-%04d.bin" % n)
        with open(f, "wb") as o:
            o.write(body)
        size += len(body)
        m = re.search(r"FORMAT\s+(\w+)", query_of(path), re.I)
        formats.add(m.group(1) if m else "?")
        if n:
            argv += ["--next", "-sS", "--fail", "--no-progress-meter", "-o", "/dev/null"]
        for k, v in hdrs.items():
            argv += ["-H", "%s: %s" % (k, v)]
        if "content-type" not in (k.lower() for k in hdrs):
            argv += ["-H", "Content-Type:"]
        argv += ["--data-binary", "@" + f, url + path]
        n += 1
    return argv, sorted(formats), n, size


def setup_statements(requests):
    """The recorded non-INSERT POSTs that create the database and tables."""
    return [r for r in requests if r[0] == "POST" and not is_insert(r)
            and re.match(r"\s*CREATE", (r[3] or b"").decode("utf-8", "replace") or query_of(r[1]), re.I)]


def replay(url, reqs):
    for method, path, hdrs, body in reqs:
        rq = urllib.request.Request(url + path, data=body, headers=hdrs, method=method)
        urllib.request.urlopen(rq, timeout=120).read()
