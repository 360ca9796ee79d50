#!/usr/bin/env python3
"""folder_scale.py - folder ingest time per file against the folder's size
(#25 item 7; timing here, never in tests).

usage: folder_scale.py GODEYE [N ...]   (default 500 2000 8000)

For each N: a folder of N small JSONL captures (one 300 ms dispatch each)
ingested into a fresh database; prints wall and CPU (user + sys of the
child) and the CPU ratio beside N's ratio: linear work gives ratios close
to N's.  On a shared machine read the CPU column: the wall time includes
the waits for a core.  python3 standard library only.
"""
import os
import resource
import subprocess
import sys
import tempfile
import time


def main():
    godeye = sys.argv[1]
    sizes = [int(x) for x in sys.argv[2:]] or [500, 2000, 8000]
    rows = []
    with tempfile.TemporaryDirectory(prefix="godeye-fscale-") as tmp:
        for n in sizes:
            d = os.path.join(tmp, "f%d" % n)
            os.makedirs(d)
            for i in range(n):
                t = 1700000000000 + i * 10000
                with open(os.path.join(d, "c%05d.jsonl" % i), "w") as f:
                    f.write('{"type":"meta","pid":100,"package":"com.example.f"}\n')
                    f.write('{"type":"looper","ts":%d,"phase":"begin","msg":">>>>> Dispatching to Handler '
                            '(android.os.Handler) {1} null: 0"}\n' % t)
                    f.write('{"type":"looper","ts":%d,"phase":"end","msg":"<<<<< Finished to Handler '
                            '(android.os.Handler) {1} null"}\n' % (t + 300))
            env = dict(os.environ, GODEYE_DB=os.path.join(tmp, "g%d.db" % n))
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.monotonic()
            r = subprocess.run([godeye, "ingest", d], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            wall = time.monotonic() - t0
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            if r.returncode:
                sys.exit("ingest %s: exit %d" % (d, r.returncode))
            # peak RSS: the largest of the children so far (the sizes grow, so this run's)
            rows.append((n, wall, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime), r1.ru_maxrss / 1024))
    print("| files | ratio | wall s | wall ratio | CPU s | CPU ratio | CPU ms per file | peak RSS MB |")
    print("|---|---|---|---|---|---|---|---|")
    for n, w, c, m in rows:
        print("| %d | %.1f | %.2f | %.1f | %.2f | %.1f | %.2f | %.1f |" % (n, n / rows[0][0], w, w / rows[0][1], c,
                                                              c / rows[0][2], 1000 * c / n, m))


if __name__ == "__main__":
    main()
