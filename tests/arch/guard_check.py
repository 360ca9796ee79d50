#!/usr/bin/env python3
"""guard_check.py - every header's include guard names its path.

lib/<dir>/<name>.h is guarded by GD_<DIR>_<NAME>_H; any other header
(cli/, tests/, tools/, bench/) by GD_<PATH WITHOUT .h>_H, e.g.
cli/common.h -> GD_CLI_COMMON_H.  The guard is the first #ifndef of the
file, followed at once by the matching #define, and the file ends with
#endif.  --fix rewrites wrong guards in place.  Exit 0 when all match,
1 with one line per wrong header."""
import argparse
import os
import re
import sys

DIRS = ("lib", "cli", "tests", "tools", "bench")
IFNDEF = re.compile(r"^#ifndef\s+(\w+)\s*$")
DEFINE = re.compile(r"^#define\s+(\w+)\s*$")


def expected(rel):
    parts = rel[:-2].split("/")
    if parts[0] == "lib":
        parts = parts[1:]
    return "GD_" + "_".join(re.sub(r"[^A-Za-z0-9]", "_", p).upper() for p in parts) + "_H"


def headers(root):
    for top in DIRS:
        base = os.path.join(root, top)
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("build"))
            for f in sorted(filenames):
                if f.endswith(".h"):
                    yield os.path.relpath(os.path.join(dirpath, f), root).replace(os.sep, "/")


def check(root, rel, fix):
    path = os.path.join(root, rel)
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().split("\n")
    want = expected(rel)
    idx = next((i for i, l in enumerate(lines) if l.startswith("#")), None)
    m = IFNDEF.match(lines[idx]) if idx is not None else None
    d = DEFINE.match(lines[idx + 1]) if m and idx + 1 < len(lines) else None
    if not m or not d or d.group(1) != m.group(1):
        return "%s: no include guard (#ifndef X / #define X as its first directives)" % rel
    tail = [l for l in lines if l.strip()]
    if not tail or not tail[-1].startswith("#endif"):
        return "%s: does not end with the guard's #endif" % rel
    have = m.group(1)
    if have == want:
        return None
    if fix:
        lines[idx] = "#ifndef " + want
        lines[idx + 1] = "#define " + want
        with open(path, "w", encoding="utf-8") as fh:
            fh.write("\n".join(lines))
        return None
    return "%s: include guard %s, expected %s" % (rel, have, want)


def selftest():
    """The checker itself can fail: a wrong guard and a missing one are found."""
    import tempfile
    with tempfile.TemporaryDirectory() as t:
        os.makedirs(os.path.join(t, "lib", "store"))
        cases = {"lib/store/good.h": "/* x */\n#ifndef GD_STORE_GOOD_H\n#define GD_STORE_GOOD_H\n#endif\n",
                 "lib/store/flat.h": "#ifndef GD_FLAT_H\n#define GD_FLAT_H\n#endif\n",
                 "lib/store/none.h": "int x;\n"}
        for rel, text in cases.items():
            with open(os.path.join(t, rel), "w") as fh:
                fh.write(text)
        got = {rel: check(t, rel, False) for rel in cases}
    ok = (got["lib/store/good.h"] is None
          and got["lib/store/flat.h"] == "lib/store/flat.h: include guard GD_FLAT_H, expected GD_STORE_FLAT_H"
          and got["lib/store/none.h"] is not None
          and expected("cli/common.h") == "GD_CLI_COMMON_H")
    if not ok:
        print("guard_check: selftest failed: %r" % got)
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=os.path.join(os.path.dirname(__file__), "..", ".."))
    ap.add_argument("--fix", action="store_true")
    a = ap.parse_args()
    if not selftest():
        return 1
    bad, n = [], 0
    for rel in headers(a.root):
        n += 1
        err = check(a.root, rel, a.fix)
        if err:
            bad.append(err)
    for b in bad:
        print(b)
    if n == 0:
        print("guard_check: no header found under %s" % a.root)
        return 1
    print("guard_check: %d headers, %d wrong" % (n, len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
