#!/usr/bin/env python3
"""raw_db.py - the raw sqlite3 connection stays inside the store (#45 item 4).

gd_store_db (store/sql.h) hands out the store's sqlite3*; outside
lib/store/ only the files of ALLOWED may call it (docs/architecture.md,
"The raw sqlite3 * leaves the opaque store for these only").  What the
others need has a store function: gd_store_last_id, gd_store_changes,
gd_store_errmsg, gd_store_function, gd_store_journal_*.  Exit 0 when no
other file calls it, 1 with one line per call found elsewhere.

  raw_db.py --root SRC
"""
import argparse
import os
import re
import sys

ALLOWED = {
    "lib/query/sql.c",            # godeye sql: authorizer, --timeout, statements one after another
    "tests/unit/check_states.c",  # counting a query's SQLite operations
    "tests/unit/check_startups.c",
    "tests/unit/check_plans.c",   # EXPLAIN QUERY PLAN of the statements a real ingest and query ran
}
DIRS = ("lib", "cli", "tests", "tools", "bench")
CALL = re.compile(r"\bgd_store_db\s*\(")


def calls(rel, text):
    """'FILE:LINE' of each gd_store_db call in text outside lib/store/ and ALLOWED."""
    if rel.startswith("lib/store/") or rel in ALLOWED:
        return []
    return ["%s:%d" % (rel, text.count("\n", 0, m.start()) + 1) for m in CALL.finditer(text)]


def selftest():
    """The checker can fail: a call in ingest is found, one in query/sql.c
    and in the store are not."""
    got = (calls("lib/ingest/writer.c", "x;\n  sqlite3_changes(gd_store_db(w->s));\n")
           + calls("lib/query/sql.c", "gd_store_db(s)") + calls("lib/store/store.c", "gd_store_db(s)"))
    if got != ["lib/ingest/writer.c:2"]:
        print("raw_db: selftest failed: %r" % got)
        return False
    return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    a = ap.parse_args()
    if not selftest():
        return 1
    found, n = [], 0
    for top in DIRS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(a.root, top)):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("build"))
            for f in sorted(filenames):
                if not f.endswith((".c", ".h")):
                    continue
                path = os.path.join(dirpath, f)
                rel = os.path.relpath(path, a.root).replace(os.sep, "/")
                with open(path, encoding="utf-8", errors="replace") as fh:
                    found += calls(rel, fh.read())
                n += 1
    for f in found:
        print("%s: gd_store_db outside the store (a store function instead, or list it in raw_db.py"
              " and docs/architecture.md)" % f)
    print("raw_db: %d files, %d calls of gd_store_db outside lib/store/ and the %d allowed files"
          % (n, len(found), len(ALLOWED)))
    return 1 if found or n == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
