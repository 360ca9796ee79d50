#!/usr/bin/env python3
"""methods_scale.py - how the per-method sums and the call tree grow with the
number of distinct methods (#25 items 5 and 6; timing here, never in tests).

usage: methods_scale.py GODEYE [N ...]   (default 32768 131072)

For each N: a JSONL capture with one 4 s dispatch on the main thread holding
N distinct methods (class/method names, one enter/exit each, nested two deep
in pairs), ingested into a fresh database; then `methods --block 1` and
`methods --tree` on it.  Prints the wall time of each step and the ratio of
each step's time to the first N's, beside the ratio of N: linear work gives
ratios close to N's.  python3 standard library only.
"""
import os
import subprocess
import sys
import tempfile
import time


def gen(path, n):
    t0 = 1700000000000.0
    with open(path, "w") as f:
        f.write('{"type":"meta","pid":100,"package":"com.example.scale"}\n')
        f.write('{"type":"looper","ts":%.3f,"phase":"begin","msg":">>>>> Dispatching to Handler '
                '(android.os.Handler) {1} null: 0"}\n' % t0)
        step = 4000.0 / (2 * n + 2)
        ts = t0 + step
        for i in range(0, n, 2):
            f.write('{"type":"method","ts":%.4f,"phase":"enter","class":"com/example/C%d","method":"m%d"}\n' % (ts, i, i))
            ts += step
            if i + 1 < n:
                f.write('{"type":"method","ts":%.4f,"phase":"enter","class":"com/example/C%d","method":"m%d"}\n' % (ts, i + 1, i + 1))
                ts += step
                f.write('{"type":"method","ts":%.4f,"phase":"exit","class":"com/example/C%d","method":"m%d"}\n' % (ts, i + 1, i + 1))
                ts += step
            f.write('{"type":"method","ts":%.4f,"phase":"exit","class":"com/example/C%d","method":"m%d"}\n' % (ts, i, i))
            ts += step
        f.write('{"type":"looper","ts":%.3f,"phase":"end","msg":"<<<<< Finished to Handler (android.os.Handler) {1} null"}\n'
                % (t0 + 4100.0))


def timed(argv, env):
    t = time.monotonic()
    r = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode:
        sys.exit("%s: exit %d: %s" % (" ".join(argv), r.returncode, r.stderr))
    return time.monotonic() - t


def main():
    godeye = sys.argv[1]
    sizes = [int(x) for x in sys.argv[2:]] or [32768, 131072]
    rows = []
    with tempfile.TemporaryDirectory(prefix="godeye-mscale-") as tmp:
        for n in sizes:
            cap = os.path.join(tmp, "c%d.jsonl" % n)
            gen(cap, n)
            env = dict(os.environ, GODEYE_DB=os.path.join(tmp, "g%d.db" % n))
            rows.append((n, timed([godeye, "ingest", cap], env),
                         timed([godeye, "methods", "--block", "1", "--format", "json"], env),
                         timed([godeye, "methods", "--tree", "--format", "json"], env)))
    base = rows[0]
    print("| methods | ratio | ingest s | ratio | methods --block s | ratio | methods --tree s | ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for n, i, b, t in rows:
        print("| %d | %.1f | %.2f | %.1f | %.2f | %.1f | %.2f | %.1f |" % (
            n, n / base[0], i, i / base[1], b, b / base[2], t, t / base[3]))


if __name__ == "__main__":
    main()
