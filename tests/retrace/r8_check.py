#!/usr/bin/env python3
"""r8_check.py GODEYE [--verbose] [--list] - runs `godeye retrace --mapping`
on every case of R8's retrace suite extracted into tests/retrace/r8/ (see
r8_extract.py and r8/SOURCES.md) and compares the output with R8's expected
text, byte for byte.

Every case is one of:
  pass     output equal to expected.txt (expected_verbose.txt with --verbose)
  skip     named in r8/skipped.txt (not extractable: R8's Java API or files
           outside the tree), printed with the reason
  known    named in r8/known_failures.txt (or known_failures_verbose.txt)
           with the reason godeye differs; it must still differ: a known
           failure that passes fails the test, so the list stays true
Anything else that differs fails the test with a diff.  Exit 0 when all
cases are pass, skip or known."""
import difflib
import os
import subprocess
import sys

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "r8")


def listing(name):
    out = {}
    p = os.path.join(HERE, name)
    if os.path.exists(p):
        for line in open(p, encoding="utf-8"):
            line = line.rstrip("\n")
            if line and not line.startswith("#"):
                case, _, why = line.partition("\t")
                out[case] = why
    return out


def main():
    godeye = sys.argv[1]
    verbose = "--verbose" in sys.argv
    show = "--list" in sys.argv
    skipped = listing("skipped.txt")
    known = listing("known_failures_verbose.txt" if verbose else "known_failures.txt")
    cases = sorted(d for d in os.listdir(HERE) if os.path.isdir(os.path.join(HERE, d)))
    npass = nknown = 0
    bad = []
    for case in cases:
        d = os.path.join(HERE, case)
        cmd = [godeye, "retrace", "--mapping", os.path.join(d, "mapping.txt")]
        if verbose:
            cmd.append("--verbose")
        cmd.append(os.path.join(d, "input.txt"))
        p = subprocess.run(cmd, capture_output=True)
        want = open(os.path.join(d, "expected_verbose.txt" if verbose else "expected.txt"),
                    "rb").read()
        ok = p.returncode == 0 and p.stdout == want
        if show:
            print("%-4s %s" % ("ok" if ok else "FAIL", case))
        if ok and case in known:
            bad.append(case)
            print("%s: passes but is listed as a known failure (%s): take it off the list"
                  % (case, known[case]))
        elif ok:
            npass += 1
        elif case in known:
            nknown += 1
        else:
            bad.append(case)
            print("%s: exit %d, differs from R8's expected output" % (case, p.returncode))
            sys.stdout.writelines(difflib.unified_diff(
                want.decode("utf-8", "replace").splitlines(True),
                p.stdout.decode("utf-8", "replace").splitlines(True),
                "expected", "godeye"))
            if p.stderr:
                print("stderr: " + p.stderr.decode("utf-8", "replace"))
    for case, why in sorted(skipped.items()):
        print("skip %s: %s" % (case, why))
    for case, why in sorted(known.items()):
        print("known failure %s: %s" % (case, why))
    print("%d passed, %d known failures, %d skipped, %d failed (of %d cases%s)"
          % (npass, nknown, len(skipped), len(bad), len(cases) + len(skipped),
             ", verbose" if verbose else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
