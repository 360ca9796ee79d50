#!/usr/bin/env python3
"""msgshare_check.py - repeated Looper message texts share one row (#25 item 12).

usage: msgshare_check.py GODEYE

A generated capture of 60,000 dispatches cycling through 20,000 distinct
texts (more than the writer's bounded cache holds, so the cache alone
forgets them): the message table must hold exactly 20,000 rows, one per
text, and every dispatch points at a row.
"""
import atexit
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

N, DISTINCT = 60000, 20000


def main():
    godeye = sys.argv[1]
    tmp = tempfile.mkdtemp(prefix="godeye-msgshare-")
    atexit.register(shutil.rmtree, tmp, True)  # the suite leaves no temporary folder
    cap = os.path.join(tmp, "c.jsonl")
    t = 1700000000000
    with open(cap, "w") as f:
        f.write('{"type":"meta","app":"com.example.msg","pid":100,"main_tid":100}\n')
        for i in range(N):
            k = i % DISTINCT
            m = "(android.os.Handler) {%x} com.example.Task@%x: %d" % (k, 0x9f8e7d6 + k, k % 7)
            f.write('{"type":"looper","ts":%d,"msg":">>>>> Dispatching to Handler %s"}\n' % (t, m))
            f.write('{"type":"looper","ts":%d,"msg":"<<<<< Finished to Handler %s"}\n' % (t + 3, m))
            t += 5
    db = os.path.join(tmp, "g.db")
    r = subprocess.run([godeye, "ingest", cap], env=dict(os.environ, GODEYE_DB=db), capture_output=True, text=True)
    problems = []
    if r.returncode:
        problems.append("ingest exit %d: %s" % (r.returncode, r.stderr))
    else:
        c = sqlite3.connect(db)
        rows, texts = c.execute("SELECT count(*), count(DISTINCT text) FROM message").fetchone()
        if (rows, texts) != (DISTINCT, DISTINCT):
            problems.append("message rows %d for %d distinct texts, want %d" % (rows, texts, DISTINCT))
        n = c.execute("SELECT count(*) FROM dispatch d JOIN message m ON m.id = d.message"
                      " WHERE m.handler = 'android.os.Handler'").fetchone()[0]
        if n != N:
            problems.append("%d dispatches with a message, want %d" % (n, N))
        c.close()
    for p in problems:
        print(p)
    print("%d passed, %d failed" % (0 if problems else 1, 1 if problems else 0))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
