#!/usr/bin/env python3
"""corpus_bulk.py - the whole corpus in one ingest, twice (issue 46).

    corpus_bulk.py GODEYE CORPUS IN_REPO EXPECTATIONS

`godeye ingest -v --format json CORPUS IN_REPO`: every file whose
expectation (EXPECTATIONS/REL.json) says exit 0 gives a row (its format and,
when not already stored from the other folder, its events as expected);
every file expected refused gives no trace and exactly one stderr line
naming it; the exit status is 4 when some file was refused, else 0.  The
same command again stores nothing new (every row a duplicate, the trace
count unchanged) and exits the same.  No corpus: exit 77 (skipped).
"""
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile


def expectations(top, root):
    out = {}
    for d, _, names in os.walk(top):
        for n in names:
            if n.endswith(".json") and os.path.isdir(os.path.join(root, os.path.relpath(d, top))):
                rel = os.path.relpath(os.path.join(d, n), top)[:-5]
                with open(os.path.join(d, n)) as f:
                    out[rel] = json.load(f)
    return out


def main():
    godeye, corpus, inrepo, exp_dir = sys.argv[1:5]
    folders = [f for f in (corpus, inrepo) if os.path.isdir(f)]
    if not os.path.isdir(corpus):
        print("skipped: no corpus at %s" % corpus)
        return 77
    exp = expectations(exp_dir, corpus)
    files = {}
    for top in folders:
        for rel, e in exp.items():
            p = os.path.join(top, rel)
            if os.path.isfile(p):
                files[p] = e
    fails = 0

    def check(cond, what):
        nonlocal fails
        print(("ok: " if cond else "FAIL: ") + what)
        fails += 0 if cond else 1

    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "g.db")
        cmd = [godeye, "--db", db, "ingest", "-v", "--format", "json"] + folders
        first = None
        for run in (1, 2):
            r = subprocess.run(cmd, capture_output=True, text=True)
            rows = {x["source"]: x for x in json.loads(r.stdout or "[]")}
            lines = r.stderr.splitlines()
            refused = 0
            for p, e in sorted(files.items()):
                want = e["ingest"]
                named = [l for l in lines if l.startswith("godeye ingest: '%s'" % p)]
                if want.get("exit", 0) == 0:
                    # a zip read as a folder: its members' rows are ZIP/MEMBER
                    row = rows.get(p) or next((x for k, x in sorted(rows.items()) if k.startswith(p + "/")), None)
                    good = row is not None and row["format"] == want.get("format", row["format"])
                    if good and run == 1 and not row.get("duplicate") and "events" in want:
                        good = row["events"] == want["events"]
                    check(good, "run %d: %s stored (%s)" % (run, p, row and (row["format"], row["events"])))
                else:
                    check(p not in rows and not any(k.startswith(p + "/") for k in rows) and len(named) == 1,
                          "run %d: %s refused or passed over with one line: %s" % (run, p, named))
                    refused += bool(named) and "passed over" not in named[0]
            stored = sum(1 for x in rows.values() if not x.get("duplicate"))
            c = sqlite3.connect(db)
            traces = c.execute("SELECT count(*) FROM trace").fetchone()[0]
            c.close()
            check(r.returncode == (4 if refused else 0),
                  "run %d: exit %d (%d refused)" % (run, r.returncode, refused))
            summary = [l for l in lines if re.match(r"godeye ingest: \d+ stored", l)]
            check(len(summary) == 1, "run %d: one summary line: %s" % (run, summary))
            if run == 1:
                first = (traces, r.returncode)
                check(stored == traces and traces > 0, "run 1: %d traces stored" % traces)
                print("summary:", summary and summary[0])
            else:
                check(stored == 0 and traces == first[0] and r.returncode == first[1],
                      "run 2: nothing new (%d stored, %d traces as before)" % (stored, traces))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
