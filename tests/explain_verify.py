#!/usr/bin/env python3
"""explain_verify.py - every figure of `godeye explain` is in the output of
the command it cites (#49 item 2).

Usage: explain_verify.py GODEYE DB EXPLAIN-ARGS...  Runs `godeye --db DB
explain ARGS --format json`; for each fact of section figure or evidence
whose source is a godeye command, runs that command (with --format json)
and looks for the value in its output: a number equal to some number of
it (within 0.05), a string inside some string of it, a boolean equal to
some boolean, an object each of whose scalar fields is found so.  Facts
whose value godeye composes from several fields (a deadlock cycle step, a
binder chain step) are counted apart.  Prints "N checked, M composed" and
each value not found; exit 1 when one is not found.
"""
import json
import shlex
import subprocess
import sys

COMPOSED = ("deadlock cycle", "binder chain step")


def leaves(v):
    if isinstance(v, dict):
        for x in v.values():
            yield from leaves(x)
    elif isinstance(v, list):
        for x in v:
            yield from leaves(x)
    else:
        yield v


def found(value, pool):
    if isinstance(value, dict):
        return all(found(x, pool) for x in value.values() if not isinstance(x, (dict, list)) and x is not None)
    if isinstance(value, list):
        return all(found(x, pool) for x in value)
    if isinstance(value, bool):
        return any(isinstance(p, bool) and p == value for p in pool)
    if isinstance(value, (int, float)):
        return any(isinstance(p, (int, float)) and not isinstance(p, bool) and abs(p - value) < 0.05 for p in pool)
    if isinstance(value, str):
        return any(isinstance(p, str) and value in p for p in pool)
    return value is None


def main():
    godeye, db, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    run = lambda a: subprocess.run([godeye, "--db", db] + a, capture_output=True, text=True, check=True).stdout
    facts = json.loads(run(["explain"] + args + ["--format", "json"]))
    cache, checked, composed, bad = {}, 0, 0, []
    for f in facts:
        src = f["source"] or ""
        if f["section"] not in ("figure", "evidence") or not src.startswith("godeye "):
            continue
        if f["name"].startswith(COMPOSED):
            composed += 1
            continue
        cmd = shlex.split(src)[1:]
        if "--format" not in cmd:
            cmd += ["--format", "json"]
        key = tuple(cmd)
        if key not in cache:
            cache[key] = list(leaves(json.loads(run(cmd))))
        checked += 1
        if not found(f["value"], cache[key]):
            bad.append(f"{f['name']}: {json.dumps(f['value'])} not in `{src}`")
    print(f"{checked} checked, {composed} composed")
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
