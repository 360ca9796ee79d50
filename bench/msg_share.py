#!/usr/bin/env python3
"""msg_share.py - database size of a capture of repeated Looper message texts
(#25 item 12; sizes and times here, never in tests).

usage: msg_share.py GODEYE [DISPATCHES [DISTINCT]]   (default 400000 40000)

A JSONL capture of DISPATCHES dispatches whose texts cycle through DISTINCT
texts (more than the writer's bounded text cache holds, so sharing depends
on the per-ingest hash table): gzip size, database size, their ratio, the
message rows and the ingest's wall time.  python3 standard library only.
"""
import gzip
import os
import sqlite3
import subprocess
import sys
import tempfile
import time


def gen(path, n, distinct):
    t = 1700000000000
    with open(path, "w") as f:
        f.write('{"type":"meta","app":"com.example.msg","pid":100,"main_tid":100}\n')
        for i in range(n):
            k = i % distinct
            m = ("(android.view.Choreographer$FrameHandler) {%x} android.view.Choreographer$"
                 "FrameDisplayEventReceiver@%x: %d" % (0x3c2b1a0 + k, 0x9f8e7d6 + k, k % 7))
            f.write('{"type":"looper","ts":%d,"msg":">>>>> Dispatching to Handler %s"}\n' % (t, m))
            f.write('{"type":"looper","ts":%d,"msg":"<<<<< Finished to Handler %s"}\n' % (t + 3, m))
            t += 5


def main():
    godeye = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 400000
    distinct = int(sys.argv[3]) if len(sys.argv) > 3 else 40000
    with tempfile.TemporaryDirectory(prefix="godeye-msg-") as tmp:
        cap = os.path.join(tmp, "c.jsonl")
        gen(cap, n, distinct)
        gz = cap + ".gz"
        with open(cap, "rb") as a, gzip.open(gz, "wb", 6) as b:
            b.write(a.read())
        db = os.path.join(tmp, "g.db")
        t0 = time.monotonic()
        r = subprocess.run([godeye, "ingest", gz], env=dict(os.environ, GODEYE_DB=db),
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wall = time.monotonic() - t0
        if r.returncode:
            sys.exit("ingest: exit %d: %s" % (r.returncode, r.stderr))
        c = sqlite3.connect(db)
        rows = c.execute("SELECT count(*) FROM message").fetchone()[0]
        c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        c.close()
        size = os.path.getsize(db)
        print("| dispatches | distinct texts | gzip bytes | database bytes | db / gzip | message rows | ingest s |")
        print("|---|---|---|---|---|---|---|")
        print("| %d | %d | %d | %d | %.1f | %d | %.2f |" % (n, distinct, os.path.getsize(gz), size,
                                                          size / os.path.getsize(gz), rows, wall))


if __name__ == "__main__":
    main()
