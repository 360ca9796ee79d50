#!/usr/bin/env python3
"""folded_check.py - godeye's stacks of a perf.data against simpleperf's own
folded stacks of the same file (its scripts/stackcollapse.py output).

    folded_check.py GODEYE DB FOLDED

godeye's side is `godeye export --folded - --samples` (every sample,
"thread;root;...;leaf COUNT", counts in samples).
stackcollapse.py writes, per distinct stack, "thread;outermost;...;caller
PERIOD": the sample's call chain as simpleperf's report library gives it
(GetCallChainOfCurrentSample: every entry but the sample's own, the leaf),
names without their library, "unknown" for an address without a symbol,
"_[j]"/"_[k]" suffixes with --jit/--kernel, counts in the event's period.
godeye's lines are folded the same way (their leaf left out,
"native:lib(sym)" as "sym", "pc ..." as "unknown") and the two sets of
stacks compared (not their counts: samples against periods); prints "N of
M stacks equal" and each stack found on one side only; exit 1 on any."""
import re
import subprocess
import sys


def short(text):
    m = re.match(r"native:[^(]*\((.*)\)$", text)
    if not m:
        return text
    return "unknown" if m.group(1).startswith("pc ") or m.group(1) == "?" else m.group(1)


def main():
    godeye, db, folded = sys.argv[1:4]
    out = subprocess.run([godeye, "--db", db, "export", "--folded", "-", "--samples"], check=True,
                         capture_output=True, text=True).stdout
    mine = set()
    for line in out.splitlines():
        parts = line.rsplit(" ", 1)[0].split(";")
        mine.add(";".join([parts[0]] + [short(x) for x in parts[1:-1]]))
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
