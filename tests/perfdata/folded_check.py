#!/usr/bin/env python3
"""folded_check.py - godeye's stacks of a perf.data against simpleperf's own
folded stacks of the same file (its scripts/stackcollapse.py output).

    folded_check.py GODEYE DB FOLDED

stackcollapse.py writes, per distinct stack, "thread;outermost;...;caller
PERIOD": the sample's call chain as simpleperf's report library gives it
(GetCallChainOfCurrentSample: every entry but the sample's own, the leaf),
names without their library, "unknown" for an address without a symbol,
"_[j]"/"_[k]" suffixes with --jit/--kernel.  The database's samples are
folded the same way (their leaf left out, "native:lib(sym)" as "sym", "pc
..." as "unknown") and the two sets of stacks compared; prints "N of M
stacks equal" and each stack found on one side only; exit 1 on any."""
import json
import re
import subprocess
import sys

SQL = ("WITH RECURSIVE up(sid, cs, d) AS (SELECT s.id, s.callsite, 0 FROM sample s "
       "UNION ALL SELECT up.sid, c.parent, up.d + 1 FROM up JOIN callsite c ON c.id = up.cs WHERE c.parent != 0) "
       "SELECT up.sid AS sid, up.d AS d, f.text AS text, t.name AS thread FROM up "
       "JOIN callsite c ON c.id = up.cs JOIN frame f ON f.id = c.frame JOIN sample s ON s.id = up.sid "
       "LEFT JOIN thread t ON t.trace = s.trace AND t.tid = s.tid ORDER BY up.sid, up.d")


def short(text):
    m = re.match(r"native:[^(]*\((.*)\)$", text)
    if not m:
        return text
    return "unknown" if m.group(1).startswith("pc ") or m.group(1) == "?" else m.group(1)


def main():
    godeye, db, folded = sys.argv[1:4]
    rows = json.loads(subprocess.run([godeye, "--db", db, "sql", "--format", "json", SQL], check=True,
                                     capture_output=True, text=True).stdout)
    stacks = {}
    for r in rows:
        stacks.setdefault(r["sid"], [r["thread"] or "?"]).append(short(r["text"]))
    mine = {";".join([s[0]] + s[:0:-1][:-1]) for s in stacks.values()}
    ref = set()
    with open(folded, encoding="utf-8") as f:
        for line in f:
            ref.add(re.sub(r"_\[[jk]\]", "", line.rstrip("\n").rsplit(" ", 1)[0]))
    print("%d of %d stacks equal" % (len(mine & ref), len(ref)))
    for s in sorted(ref - mine):
        print("simpleperf only:", s)
    for s in sorted(mine - ref):
        print("godeye only:", s)
    return 0 if mine == ref else 1


sys.exit(main())
