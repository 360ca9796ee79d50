#!/usr/bin/env python3
"""floor_ir.py - godeye's Perfetto ingest against the sqlite3 shell loading
the very same rows into the very same layout, in instructions (#50): the
store's floor, measured where the machine's load does not move the figure.

    BUILD=build-rel bench/floor_ir.py TRACE...

For each trace: the shell script of bench.py's sqlite_floor_script (godeye
ingests the trace once, every table is dumped to CSV, the script creates
godeye's schema under godeye's pragmas and .imports the rows in one
transaction, the indexes built after them), then callgrind's Ir of the
whole process of `godeye --db NEW ingest TRACE` and of `sqlite3 NEW .read
SCRIPT`, and their ratio.  Needs valgrind; the shell is the system's
sqlite3, the same library godeye links.  python3 standard library only.
"""

import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402


def ir(argv):
    """callgrind's Ir of the whole process of argv (its output dropped)."""
    r = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + argv,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=True)
    m = re.search(r"Collected : (\d+)", r.stderr)
    if not m:
        sys.exit("floor_ir.py: no instruction count from valgrind for %s" % argv[0])
    return int(m.group(1))


def main(traces):
    if not traces:
        sys.exit("usage: floor_ir.py TRACE...")
    os.makedirs(bench.DATA, exist_ok=True)
    print("%-44s %9s %14s %14s %7s" % ("trace", "MB", "godeye Ir", "sqlite3 Ir", "ratio"))
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "t.db")
        for k, t in enumerate(traces):
            script = bench.sqlite_floor_script(100 + k, t)
            bench.rm_db(db)
            g = ir([bench.GODEYE, "--db", db, "ingest", "-q", "--no-progress", t])
            bench.rm_db(db)
            f = ir(["sqlite3", db, ".read " + script])
            bench.rm_db(db)
            print("%-44s %9.1f %14d %14d %7.3f" % (os.path.basename(t)[:44], os.path.getsize(t) / 1e6, g, f, g / f))
            sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv[1:])
