#!/usr/bin/env python3
"""arch_check.py - the shape of libgodeye, measured from the built objects
(nm) and the #include lines, against a committed baseline.

Three kinds of finding, one line each:
  group: A B ...      lib/ files that call each other both ways (a strongly
                      connected component of "A uses a global symbol B
                      defines", from nm of each object; size >= 2)
  unprefixed: NAME    a global symbol of libgodeye without the gd_ prefix
                      (file that defines it in parentheses, not compared)
  include: lib/A/x -> B
                      lib/A/x includes lib/B/y with B not on a lower layer
                      (docs/architecture.md, "two paths over six layers");
                      keyed by the including file (#45 item 5), so a
                      second file taking the same edge is a new finding
  tempfile: A NAME    lib/A calls NAME (tmpfile, mkstemp...): every
                      temporary file is made by gd_tmpfile in
                      lib/core/tmpfile.c ($TMPDIR, O_EXCL, unlinked; #53)

Fails (exit 1) only on findings not in the baseline (tests/arch/baseline.txt),
so the baseline can only be tightened; baseline lines no longer found are
listed as "gone" (remove them).  --write rewrites the baseline from what is
found now.  --figures prints counts only.

  arch_check.py --root SRC [--nm nm] [--write] OBJ...
"""
import argparse
import os
import posixpath
import re
import subprocess
import sys

LAYER = {"core": 1, "io": 2, "analysis": 2, "render": 2, "capture": 2,
         "reader": 3, "store": 3, "derive": 4,
         "ingest": 5, "query": 5, "fleet": 5}
TEMPFILE_CALLS = {"tmpfile", "tmpfile64", "mkstemp", "mkstemp64", "mkostemp", "mkostemp64",
                  "mkstemps", "tmpnam", "tempnam"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/[^"]+"', re.M)


def source_of(obj):
    """lib/<dir>/<file>.c for an object built by CMake (.../godeye.dir/<dir>/<file>.c.o)."""
    p = obj.replace(os.sep, "/")
    i = p.rfind(".dir/")
    rel = p[i + 5:] if i >= 0 else os.path.basename(p)
    if rel.endswith(".o"):
        rel = rel[:-2]
    # Ninja names the objects .../godeye.dir/./core/x.c.o
    return "lib/" + posixpath.normpath(rel)


def symbols(nm, objs):
    """{file: (defined globals, undefined)} from one nm -P -A over all objects."""
    r = subprocess.run([nm, "-P", "-A"] + objs, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit("arch_check: nm failed: %s" % r.stderr.strip()[:500])
    out = {source_of(o): (set(), set()) for o in objs}
    for line in r.stdout.splitlines():
        # "path/to/x.c.o: name T value size"
        head, sep, rest = line.partition(": ")
        f = rest.split()
        if not sep or len(f) < 2:
            continue
        defs, undef = out.setdefault(source_of(head), (set(), set()))
        name, t = f[0], f[1]
        if name.startswith("__") or name.startswith(".L"):
            continue  # the compiler's and sanitizers' own (__odr_asan.*, __sancov_*, __asan_*)
        if t == "U":
            undef.add(name)
        elif t in "TDBRCVWGS":
            defs.add(name)
    return out


def selftest():
    """The checker can fail: a two-way pair is a group, a one-way chain is
    not; a global without gd_ is found, a gd_ one is not."""
    syms = {"lib/reader/a.c": ({"gd_a", "a_helper"}, {"b_helper"}),
            "lib/reader/b.c": ({"b_helper"}, {"a_helper"}),
            "lib/reader/c.c": ({"gd_c"}, {"gd_a"})}
    got = findings_of(syms)
    want = {"group: lib/reader/a.c lib/reader/b.c", "unprefixed: a_helper", "unprefixed: b_helper"}
    if set(got) != want:
        print("arch_check: selftest failed: %r" % sorted(got))
        return False
    # an upward include is the including file's, not its folder pair's
    inc = include_findings("fleet", "export.c", '#include "query/views.h"\n#include "store/sql.h"\n')
    if set(inc) != {"include: lib/fleet/export.c -> query"}:
        print("arch_check: selftest failed: %r" % sorted(inc))
        return False
    return True


def sccs(nodes, edges):
    """Strongly connected components (iterative Tarjan), each sorted."""
    index, low, on, stack, comps = {}, {}, set(), [], []
    counter = 0
    for root in sorted(nodes):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                comps.append(sorted(comp))
    return comps


def findings_of(syms):
    owner = {}
    for f, (defs, _) in syms.items():
        for d in defs:
            owner.setdefault(d, f)
    edges = {}
    for f, (_, undef) in syms.items():
        for u in undef:
            g = owner.get(u)
            if g and g != f:
                edges.setdefault(f, set()).add(g)
    found = {}
    for comp in sccs(syms.keys(), edges):
        if len(comp) >= 2:
            found["group: " + " ".join(comp)] = ""
    for name, f in sorted(owner.items()):
        if not name.startswith("gd_"):
            found["unprefixed: " + name] = " (%s)" % f
    for f, (_, undef) in sorted(syms.items()):
        if f == "lib/core/tmpfile.c":
            continue
        for u in sorted(undef & TEMPFILE_CALLS):
            found["tempfile: %s %s" % (f, u)] = ""
    return found


def include_findings(d, fn, text):
    """The upward includes of lib/<d>/<fn>, one finding per including file
    and folder included."""
    found = {}
    for m in INCLUDE.finditer(text):
        to = m.group(1)
        if to != d and to in LAYER and LAYER[to] >= LAYER[d]:
            found["include: lib/%s/%s -> %s" % (d, fn, to)] = ""
    return found


def findings(root, syms):
    found = findings_of(syms)
    libdir = os.path.join(root, "lib")
    for d in sorted(os.listdir(libdir)):
        if d not in LAYER:
            continue
        for fn in sorted(os.listdir(os.path.join(libdir, d))):
            if not fn.endswith((".c", ".h")):
                continue
            with open(os.path.join(libdir, d, fn), encoding="utf-8", errors="replace") as fh:
                text = fh.read()
            found.update(include_findings(d, fn, text))
    return found


def read_baseline(path):
    base = set()
    if os.path.exists(path):
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                line = line.split("#", 1)[0].strip()
                if line:
                    base.add(re.sub(r"\s+\(.*\)$", "", line))
    return base


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    ap.add_argument("--nm", default="nm")
    ap.add_argument("--baseline")
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--figures", action="store_true")
    ap.add_argument("objs", nargs="+")
    a = ap.parse_args()
    if not selftest():
        return 1
    objs = [o for o in a.objs if o.endswith(".o")]
    if not objs:
        print("arch_check: no object file given")
        return 1
    baseline = a.baseline or os.path.join(a.root, "tests", "arch", "baseline.txt")
    found = findings(a.root, symbols(a.nm, objs))
    kinds = ("group", "unprefixed", "include")
    count = {k: sum(1 for f in found if f.startswith(k + ":")) for k in kinds}
    summary = "arch_check: %d objects, %d mutual-call groups (%d files), %d unprefixed globals, %d upward includes" % (
        len(objs), count["group"],
        sum(len(f.split()) - 1 for f in found if f.startswith("group:")),
        count["unprefixed"], count["include"])
    if a.figures:
        for f in sorted(found):
            if f.startswith("group:"):
                print(f)
        print(summary)
        return 0
    if a.write:
        with open(baseline, "w", encoding="utf-8") as fh:
            fh.write("# tests/arch/arch_check.py baseline: findings allowed for now, to be removed,\n"
                     "# never added to (a new one fails the test).  Rewrite: arch_check.py --write.\n")
            for f in sorted(found, key=lambda s: (kinds.index(s.split(":")[0]), s)):
                fh.write(f + found[f] + "\n")
        print(summary + " (baseline written)")
        return 0
    base = read_baseline(baseline)
    new = sorted(f for f in found if f not in base)
    gone = sorted(b for b in base if b not in found)
    for f in new:
        print("new: " + f + found[f])
    for b in gone:
        print("gone (remove from %s): %s" % (os.path.relpath(baseline, a.root), b))
    print(summary + "; %d new, %d gone from the baseline" % (len(new), len(gone)))
    return 1 if new else 0


if __name__ == "__main__":
    sys.exit(main())
