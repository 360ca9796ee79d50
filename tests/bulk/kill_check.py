#!/usr/bin/env python3
"""kill_check.py - kill -9 during a 100-file ingest leaves only whole traces.

    kill_check.py GODEYE

Generates 100 small godeye captures (distinct content, 1000 + 7*i Looper
dispatch pairs each), ingests them once completely into a reference
database, then again into a fresh database killed with SIGKILL once a few
traces are committed.  After the kill: the database passes
integrity_check, and every trace in it has exactly the rows of the same
file in the reference (trace events and skipped, dispatch rows,
raw_event rows), none of a trace's rows without its trace row.  Then the
same ingest again completes the set: 100 traces, each as in the
reference, the ones stored before the kill found already stored.
"""
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

N = 100


def capture(i):
    lines = ['{"type":"meta","app":"com.example.bulk%d","pid":100,"main_tid":100}' % i]
    ts = 1700000000000 + i * 1000000
    for k in range(1000 + 7 * i):
        lines.append('{"type":"looper","ts":%d,"msg":">>>>> Dispatching to Handler (android.os.Handler) {a%d} null: %d"}'
                     % (ts, k, k))
        ts += 3 + (k * 13 + i) % 40
        lines.append('{"type":"looper","ts":%d,"msg":"<<<<< Finished to Handler (android.os.Handler) {a%d} null"}' % (ts, k))
        ts += 2
    return "\n".join(lines) + "\n"


def rows(db):
    """{file name: (events, skipped, dispatch rows, raw_event rows)}, orphans, integrity."""
    c = sqlite3.connect(db)
    out = {}
    for tid, src, ev, sk in c.execute("SELECT id, source, events, skipped FROM trace"):
        nd = c.execute("SELECT count(*) FROM dispatch WHERE trace = ?", (tid,)).fetchone()[0]
        nr = c.execute("SELECT count(*) FROM raw_event WHERE trace = ?", (tid,)).fetchone()[0]
        out[os.path.basename(src)] = (ev, sk, nd, nr)
    orphans = c.execute("SELECT (SELECT count(*) FROM dispatch WHERE trace NOT IN (SELECT id FROM trace))"
                        " + (SELECT count(*) FROM raw_event WHERE trace NOT IN (SELECT id FROM trace))").fetchone()[0]
    ok = c.execute("PRAGMA integrity_check").fetchone()[0]
    c.close()
    return out, orphans, ok


def main():
    godeye = sys.argv[1]
    fails = 0

    def check(cond, what):
        nonlocal fails
        print(("ok: " if cond else "FAIL: ") + what)
        fails += 0 if cond else 1

    with tempfile.TemporaryDirectory() as tmp:
        caps = os.path.join(tmp, "caps")
        os.mkdir(caps)
        for i in range(N):
            with open(os.path.join(caps, "c%03d.jsonl" % i), "w") as f:
                f.write(capture(i))
        env = dict(os.environ, GODEYE_PROGRESS_DELAY="0")
        ref = os.path.join(tmp, "ref.db")
        r = subprocess.run([godeye, "--db", ref, "ingest", "-q", caps], env=env, capture_output=True, text=True)
        check(r.returncode == 0, "reference ingest exit %d %s" % (r.returncode, r.stderr[-300:]))
        want, orphans, ok = rows(ref)
        check(len(want) == N and all(v[2] == 1000 + 7 * int(k[1:4]) and v[1] == 0 for k, v in want.items()),
              "reference: %d traces, dispatches 1000 + 7*i each" % len(want))

        db = os.path.join(tmp, "killed.db")
        p = subprocess.Popen([godeye, "--db", db, "ingest", "-q", caps], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        seen = 0
        deadline = time.time() + 120
        while time.time() < deadline and p.poll() is None:
            try:
                c = sqlite3.connect("file:%s?mode=ro" % db, uri=True, timeout=0.1)
                seen = c.execute("SELECT count(*) FROM trace").fetchone()[0]
                c.close()
            except sqlite3.Error:
                seen = 0
            if seen >= 5:
                break
            time.sleep(0.01)
        killed = p.poll() is None
        if killed:
            os.kill(p.pid, signal.SIGKILL)
        p.wait()
        check(killed, "killed mid-ingest (after %d traces were seen committed)" % seen)
        got, orphans, ok = rows(db)
        check(ok == "ok", "integrity_check after the kill: %s" % ok)
        check(orphans == 0, "no dispatch or raw_event row without its trace (%d)" % orphans)
        check(0 < len(got) < N, "%d of %d traces stored before the kill" % (len(got), N))
        bad = [k for k, v in got.items() if want.get(k) != v]
        check(not bad, "every stored trace is whole (as in the reference): %s" % bad[:5])

        r = subprocess.run([godeye, "--db", db, "ingest", "--format", "json", caps], env=env,
                           capture_output=True, text=True)
        check(r.returncode == 0, "ingest again exit %d" % r.returncode)
        got2, orphans, ok = rows(db)
        check(got2 == want, "after the second ingest: %d traces, each as in the reference" % len(got2))
        import json
        dup = sum(1 for x in json.loads(r.stdout or "[]") if x.get("duplicate"))
        check(dup == len(got), "the %d traces stored before the kill were found already stored (%d)"
              % (len(got), dup))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
