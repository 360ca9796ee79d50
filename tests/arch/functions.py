#!/usr/bin/env python3
"""functions.py - no function of lib/ over 120 lines or cyclomatic 40
without a baseline entry, and a baseline entry can only shrink (#45 item 5).

Measured by pmccabe (Debian package pmccabe, scripts/deps.sh --test):
its traditional McCabe number (each `case` counts) and the function's
length in lines.  A finding is one line, keyed by file and function (not
line numbers, which move):

  lib/reader/perfetto.c read_payload 70 21

Baseline: tests/arch/functions_baseline.txt, one such line per function
allowed over a limit for now, with its figures then.  Fails (exit 1) on a
function over a limit that has no entry, or whose lines or complexity
exceed its entry's.  Lists, without failing, entries to tighten: "gone"
(the function is within both limits now, or no longer exists) and
"shrunk" (lower its figures).  --write rewrites the baseline from what is
measured now; --figures prints the ten largest functions by complexity
and by length.

  functions.py --root SRC [--pmccabe pmccabe] [--write] [--figures]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

MAX_LINES = 120
MAX_CC = 40
# pmccabe: "modified traditional statements first-line lines file(line): name"
ROW = re.compile(r"^(\d+)\t(\d+)\t(\d+)\t(\d+)\t(\d+)\t(.+)\((\d+)\): (\S+)$")


def sources(root):
    out = []
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, "lib")):
        dirnames.sort()
        out += [os.path.join(dirpath, f) for f in sorted(filenames) if f.endswith(".c")]
    return out


def measure(pmccabe, root):
    """{(file, name): (lines, cc)} of every function in lib/*.c, and
    pmccabe's own complaints (a construct it cannot parse)."""
    r = subprocess.run([pmccabe] + sources(root), capture_output=True, text=True)
    if r.returncode != 0 and not r.stdout:
        raise SystemExit("functions: pmccabe failed: %s" % r.stderr.strip()[:500])
    found = {}
    for line in r.stdout.splitlines():
        m = ROW.match(line)
        if not m:
            continue
        rel = os.path.relpath(m.group(6), root).replace(os.sep, "/")
        key = (rel, m.group(8))
        lines, cc = int(m.group(5)), int(m.group(2))
        old = found.get(key, (0, 0))  # a name twice in a file: its largest
        found[key] = (max(old[0], lines), max(old[1], cc))
    notes = [l.replace(root.rstrip("/") + "/", "") for l in r.stderr.splitlines() if l.strip()]
    return found, notes


def over(figures):
    lines, cc = figures
    return lines > MAX_LINES or cc > MAX_CC


def read_baseline(path):
    base = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                line = line.split("#", 1)[0].strip()
                if not line:
                    continue
                f = line.split()
                if len(f) != 4:
                    raise SystemExit("functions: %s:%d: expected 'FILE FUNCTION LINES COMPLEXITY'" % (path, n))
                base[(f[0], f[1])] = (int(f[2]), int(f[3]))
    return base


def judge(found, base):
    """(failures, notes to tighten the baseline)."""
    bad, tighten = [], []
    for key, fig in sorted(found.items()):
        if not over(fig):
            continue
        b = base.get(key)
        if b is None:
            bad.append("new: %s %s %d lines, cyclomatic %d (limits %d, %d)" % (key + fig + (MAX_LINES, MAX_CC)))
        elif fig[0] > b[0] or fig[1] > b[1]:
            bad.append("grew: %s %s %d lines, cyclomatic %d (baseline %d, %d)" % (key + fig + b))
        elif fig != b:
            tighten.append("shrunk (lower the baseline to %d %d): %s %s" % (fig + key))
    for key in sorted(base):
        if key not in found or not over(found[key]):
            tighten.append("gone (remove from the baseline): %s %s" % key)
    return bad, tighten


def selftest():
    """The checker can fail: a long function without an entry and one grown
    past its entry fail; a shrunk one and a fixed one are only notes."""
    found = {("lib/a.c", "long_one"): (121, 3), ("lib/a.c", "grown"): (50, 45),
             ("lib/a.c", "small"): (120, 40), ("lib/b.c", "shrunk"): (130, 41)}
    base = {("lib/a.c", "grown"): (50, 44), ("lib/b.c", "shrunk"): (140, 41), ("lib/b.c", "fixed"): (200, 50)}
    bad, tighten = judge(found, base)
    ok = ([b.split()[0] + " " + b.split()[2] for b in bad] == ["grew: grown", "new: long_one"]
          and len(tighten) == 2 and tighten[0].startswith("shrunk") and "fixed" in tighten[1])
    if not ok:
        print("functions: selftest failed: %r %r" % (bad, tighten))
    return ok


def write_baseline(path, found):
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("# tests/arch/functions.py baseline: functions of lib/ over %d lines or cyclomatic %d\n"
                 "# (pmccabe's traditional McCabe), allowed for now with these figures, which may only\n"
                 "# shrink (a new or a grown one fails).  FILE FUNCTION LINES COMPLEXITY.\n"
                 "# Rewrite: functions.py --write.\n" % (MAX_LINES, MAX_CC))
        fh.writelines("%s %s %d %d\n" % (key + fig) for key, fig in sorted(found.items()) if over(fig))


def figures(found):
    for title, i in (("cyclomatic", 1), ("lines", 0)):
        print("largest by %s:" % title)
        for key, fig in sorted(found.items(), key=lambda kv: (-kv[1][i], kv[0]))[:10]:
            print("  %s %s %d lines, cyclomatic %d" % (key + fig))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    ap.add_argument("--pmccabe", default="pmccabe")
    ap.add_argument("--baseline")
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--figures", action="store_true")
    a = ap.parse_args()
    if not selftest():
        return 1
    if not shutil.which(a.pmccabe):
        print("functions: %s not found (Debian package pmccabe: scripts/deps.sh --test)" % a.pmccabe)
        return 1
    root = os.path.abspath(a.root)
    baseline = a.baseline or os.path.join(root, "tests", "arch", "functions_baseline.txt")
    found, notes = measure(a.pmccabe, root)
    if not found:
        print("functions: no function measured under %s/lib" % root)
        return 1
    nover = sum(1 for f in found.values() if over(f))
    summary = "functions: %d functions in lib/, %d over %d lines or cyclomatic %d" % (
        len(found), nover, MAX_LINES, MAX_CC)
    if a.figures or a.write:
        figures(found) if a.figures else write_baseline(baseline, found)
        print(summary + ("" if a.figures else " (baseline written)"))
        return 0
    bad, tighten = judge(found, read_baseline(baseline))
    for n in notes:
        print("pmccabe: " + n)
    for line in bad + tighten:
        print(line)
    print(summary + "; %d failing, %d baseline entries to tighten" % (len(bad), len(tighten)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
