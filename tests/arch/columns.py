#!/usr/bin/env python3
"""columns.py - queries read columns by name and rows through the one loop
(#24 item 7).

Fails (exit 1, one line per place) on
  - a column read by a number other than 0 in lib/: sqlite3_column_*(q, N)
    or gd_col_*(q, N) with N >= 1 (a SELECT's columns are named by an enum
    built from the same list as its text: GD_COL_ENUM / GD_COL_SQL in
    lib/store/sql.h; column 0 of a one-column read needs no name);
  - a hand-written row loop, while (... sqlite3_step(...) == SQLITE_ROW),
    in lib/query/ outside the files of ALLOWED_LOOPS (gd_store_each is the
    loop).
--self-test checks the two patterns on a few lines first."""
import argparse
import os
import re
import sys

NUMBERED = re.compile(r"\b(sqlite3_column_[a-z0-9]+|gd_col_[a-z_]+)\(\s*[^,()]+,\s*([1-9][0-9]*)\s*\)")
LOOP = re.compile(r"\bwhile\s*\(.*sqlite3_step\s*\(.*==\s*SQLITE_ROW")
# godeye sql tells a --timeout interrupt from an SQL error itself
ALLOWED_LOOPS = {"lib/query/sql.c"}


def self_test():
    bad = ["x = sqlite3_column_int64(q, 3);", "gd_col_text(st, 12)", "sqlite3_column_text(*q, 1)"]
    good = ["sqlite3_column_int64(q, 0)", "sqlite3_column_int64(q, B_ID)", "gd_col_text(q, col + 4)"]
    loops = ["while ((step = sqlite3_step(q)) == SQLITE_ROW) {", "while (sqlite3_step(q) == SQLITE_ROW)"]
    ok = all(NUMBERED.search(s) for s in bad) and not any(NUMBERED.search(s) for s in good)
    ok = ok and all(LOOP.search(s) for s in loops) and not LOOP.search("if (sqlite3_step(q) == SQLITE_ROW)")
    if not ok:
        print("columns.py: self-test failed")
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    ap.add_argument("--self-test", action="store_true")
    a = ap.parse_args()
    if a.self_test and not self_test():
        return 1
    found = []
    lib = os.path.join(a.root, "lib")
    for dirpath, _, files in os.walk(lib):
        for f in sorted(files):
            if not f.endswith(".c"):
                continue
            full = os.path.join(dirpath, f)
            rel = os.path.relpath(full, a.root)
            with open(full, encoding="utf-8", errors="replace") as fh:
                for n, line in enumerate(fh, 1):
                    m = NUMBERED.search(line)
                    if m:
                        found.append("%s:%d: column %s read by number: %s" % (rel, n, m.group(2), line.strip()))
                    if rel.startswith("lib/query/") and rel not in ALLOWED_LOOPS and LOOP.search(line):
                        found.append("%s:%d: a hand-written row loop (use gd_store_each): %s" % (rel, n, line.strip()))
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
