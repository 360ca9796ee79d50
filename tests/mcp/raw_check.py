#!/usr/bin/env python3
"""raw_check.py - `godeye mcp` spoken to line by line (#49): malformed
lines and requests get their JSON-RPC errors (-32700, -32600, -32601,
-32602, -32002; -32603 for resources/list without a database), notifications and responses no answer, every line of stdout is
one protocol message, the server outlives all of it and ends at EOF;
protocol versions are negotiated as the specification's lifecycle says.

    raw_check.py --bin BUILD/cli --examples examples
"""
import argparse
import atexit
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

PASSED = []


def check(name, cond, detail=""):
    if not cond:
        print(f"FAIL {name}: {detail}")
        sys.exit(1)
    PASSED.append(name)


def run(godeye, db, lines, extra=()):
    """Sends the lines, closes stdin; the replies by id (None for id null) in order."""
    p = subprocess.run([godeye, "--db", db, "mcp", *extra], input="\n".join(lines) + "\n",
                       capture_output=True, text=True, timeout=120)
    out = [json.loads(l) for l in p.stdout.split("\n") if l]
    return p, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--examples", required=True)
    a = ap.parse_args()
    godeye = os.path.join(a.bin, "godeye")
    tmp = tempfile.mkdtemp(prefix="godeye-mcp-raw-")
    atexit.register(shutil.rmtree, tmp, True)  # the suite leaves no temporary folder
    db = os.path.join(tmp, "ex.db")
    ex = sorted(glob.glob(os.path.join(a.examples, "*.jsonl"))) + sorted(glob.glob(os.path.join(a.examples, "*.txt")))
    subprocess.run([godeye, "--db", db, "ingest", "-q", *ex], check=True)

    init = lambda v, i=1: json.dumps({"jsonrpc": "2.0", "id": i, "method": "initialize",
                                      "params": {"protocolVersion": v, "capabilities": {},
                                                 "clientInfo": {"name": "raw", "version": "1"}}})
    lines = [
        init("2025-06-18"),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        "this is not json",                                              # -32700
        '{"jsonrpc": "2.0", "id": 2, "method": "ping"',                  # -32700 (cut)
        "[]",                                                            # -32600 batch
        '[{"jsonrpc": "2.0", "id": 3, "method": "ping"}]',               # -32600 batch
        '"a string"',                                                    # -32600
        '{"jsonrpc": "1.0", "id": 4, "method": "ping"}',                 # -32600
        '{"jsonrpc": "2.0", "id": 5}',                                   # -32600 no method
        '{"jsonrpc": "2.0", "id": {"x": 1}, "method": "ping"}',          # -32600 id
        '{"jsonrpc": "2.0", "id": 6, "method": 7}',                      # -32600 method
        '{"jsonrpc": "2.0", "id": 7, "method": "no/such"}',              # -32601
        '{"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": [1]}',            # -32602
        '{"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "x"}}',  # -32602
        '{"jsonrpc": "2.0", "id": 10, "method": "tools/call", "params": {"name": "top", "arguments": 3}}',
        '{"jsonrpc": "2.0", "id": 11, "method": "resources/read", "params": {"uri": "file:///etc/passwd"}}',
        '{"jsonrpc": "2.0", "id": 12, "result": {}}',                    # a response: no answer
        '{"jsonrpc": "2.0", "method": "no/such/notification"}',          # a notification: none
        "",                                                              # blank: none
        '{"jsonrpc": "2.0", "id": "s", "method": "ping"}',
        '{"jsonrpc": "2.0", "id": 13, "method": "tools/call", "params": {"name": "traces", "arguments": {}}}',
        "x" * (2 << 20),                                                 # over 1 MB: -32700
        '{"jsonrpc": "2.0", "id": 14, "method": "ping"}',
    ]
    p, out = run(godeye, db, lines)
    check("exit 0 at EOF", p.returncode == 0, p.returncode)
    check("stderr: one line saying what it serves", p.stderr.startswith("godeye mcp: serving '"), p.stderr)
    codes = [(m.get("id"), m["error"]["code"]) if "error" in m else (m.get("id"), "ok") for m in out]
    want = [(1, "ok"), (None, -32700), (None, -32700), (None, -32600), (None, -32600), (None, -32600),
            (4, -32600), (5, -32600), (None, -32600), (6, -32600), (7, -32601), (8, -32602), (9, -32602),
            (10, -32602), (11, -32002), ("s", "ok"), (13, "ok"), (None, -32700), (14, "ok")]
    check("one answer per request, the JSON-RPC codes", codes == want, codes)
    check("every message is JSON-RPC 2.0", all(m["jsonrpc"] == "2.0" for m in out))
    check("negotiated the requested version", out[0]["result"]["protocolVersion"] == "2025-06-18")
    check("the message of the unknown tool", out[12]["error"]["message"] == "unknown tool 'x' (tools/list names them)",
          out[12])
    check("traces after all of it: six", out[16]["result"]["structuredContent"]["total"] == 6, out[16])

    for asked, got in [("2025-11-25", "2025-11-25"), ("2024-11-05", "2024-11-05"), ("2025-03-26", "2025-03-26"),
                       ("2099-01-01", "2025-11-25"), ("1999-01-01", "2025-11-25")]:
        _, o = run(godeye, db, [init(asked)])
        check(f"version {asked} answered {got}", o[0]["result"]["protocolVersion"] == got, o)
    _, o = run(godeye, db, ['{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}'])
    check("initialize without protocolVersion: -32602", o[0]["error"]["code"] == -32602, o)

    # a database that is not there: the calls fail as tool errors, the server stays
    _, o = run(godeye, os.path.join(tmp, "none.db"),
               ['{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "top"}}',
                '{"jsonrpc": "2.0", "id": 3, "method": "resources/list"}',
                '{"jsonrpc": "2.0", "id": 2, "method": "ping"}'])
    r = o[0]["result"]
    check("a missing database is a tool error", r["isError"] and r["content"][0]["text"].startswith("godeye top: "), r)
    e = o[1].get("error", {})
    check("resources/list without a database: -32603 naming why", e.get("code") == -32603 and
          e.get("message", "").startswith("godeye traces failed: ") and "no database here" in e["message"], o[1])
    check("and the server answers on", o[2] == {"jsonrpc": "2.0", "id": 2, "result": {}}, o)

    p = subprocess.run([godeye, "mcp", "--max-rows", "0"], capture_output=True, text=True)
    check("a bad option: exit 2, nothing on stdout", p.returncode == 2 and p.stdout == "", p)
    print(f"{len(PASSED)} passed, 0 failed")


if __name__ == "__main__":
    main()
