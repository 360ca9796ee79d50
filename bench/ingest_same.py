#!/usr/bin/env python3
"""ingest_same.py - checks that two godeye binaries write identical databases:
each ingests the same input into a new database of its own, then every
table of the two is dumped (rows sorted, trace.ingested_at, the ingest's
own clock, left out) and compared, and so are the schemas (the sorted
CREATE texts of sqlite_master) and PRAGMA user_version / application_id.

    bench/ingest_same.py BASE_GODEYE NEW_GODEYE INPUT [INPUT ...]   (exit 0: all identical)

Each INPUT (a file or a folder) is ingested alone.  python3 standard
library only.
"""
import hashlib
import os
import sqlite3
import subprocess
import sys
import tempfile


def ingest(godeye, db, path):
    r = subprocess.run([godeye, "--db", db, "ingest", "-q", "--no-progress", path],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return r.returncode, r.stderr.strip()


def dump(db):
    """{name: digest} of every table and of the schema."""
    c = sqlite3.connect(db)
    out = {"(schema)": hashlib.sha256("\n".join(sorted(
        r[0] or "" for r in c.execute("SELECT sql FROM sqlite_master"))).encode()).hexdigest(),
        "(pragmas)": "%s %s" % (c.execute("PRAGMA user_version").fetchone()[0],
                                c.execute("PRAGMA application_id").fetchone()[0])}
    for (t,) in c.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").fetchall():
        cols = [r[1] for r in c.execute('PRAGMA table_info("%s")' % t)
                if not (t == "trace" and r[1] == "ingested_at")]
        sel = ", ".join('"%s"' % x for x in cols)
        h = hashlib.sha256()
        n = 0
        for row in c.execute('SELECT %s FROM "%s" ORDER BY %s' % (sel, t, sel)):
            h.update(repr(row).encode())
            n += 1
        out[t] = "%d rows %s" % (n, h.hexdigest()[:16])
    c.close()
    return out


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    base, new, inputs = sys.argv[1], sys.argv[2], sys.argv[3:]
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for k, path in enumerate(inputs):
            dumps = []
            for side, godeye in (("base", base), ("new", new)):
                db = os.path.join(tmp, "%s-%d.db" % (side, k))
                dumps.append((ingest(godeye, db, path), dump(db) if os.path.exists(db) else {}))
            (ra, da), (rb, db_) = dumps
            diff = sorted(t for t in set(da) | set(db_) if da.get(t) != db_.get(t))
            if ra != rb:
                diff.append("exit/stderr: %r vs %r" % (ra, rb))
            rows = sum(int(v.split()[0]) for t, v in db_.items() if not t.startswith("("))
            print("%s %s: %d tables, %d rows%s" % ("ok  " if not diff else "DIFF", path,
                                                   len(db_) - 2, rows, "" if not diff else ": " + ", ".join(diff)))
            bad += bool(diff)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
