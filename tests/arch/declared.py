#!/usr/bin/env python3
"""declared.py - a query's columns declared once (#45 item 1).

Lists, against a baseline that can only shrink (tests/arch/declared.txt):
  - rowbuilder FILE FUNCTION: a hand-written row builder in lib/query/, a
    function that sets 3 or more literal keys of a JSON object
    (json_object_set_new(x, "key", ...)); a query's fields are an X-macro
    (query/columns.h) and its rows come from gd_qcols_json;
  - set_new FILE N: the json_object_set_new calls of a file of lib/query/
    (N may only go down);
  - positional FILE: an ORDER BY or GROUP BY naming a column by its
    position ("ORDER BY 2, 5, 1") in lib/ (C or SQL); name it by its alias.
Fails (exit 1) on a finding not in the baseline or above its count;
baseline lines no longer found are listed as "gone" (remove them).
--write rewrites the baseline; --self-test checks the patterns first."""
import argparse
import os
import re
import sys

SET_NEW = re.compile(r"\bjson_object_set_new\s*\(")
LITERAL_KEY = re.compile(r"\bjson_object_set_new\s*\(\s*[^,()]+,\s*\"")
FUNC = re.compile(r"^[a-z_][a-z0-9_ \*]*\b([a-z_][a-z0-9_]*)\s*\([^;]*$")
CLAUSE = re.compile(r"\b(?:ORDER|GROUP)\s+BY\s+([^\"';]*)", re.I)
PARENS = re.compile(r"\([^()]*\)")
END = re.compile(r"\b(?:LIMIT|HAVING|UNION|WINDOW)\b", re.I)
POS_TERM = re.compile(r"^\s*[0-9]+(\s+(ASC|DESC))?\s*$", re.I)


def positional(line):
    """1 when an ORDER BY / GROUP BY clause on the line names a column by number."""
    for m in CLAUSE.finditer(line):
        terms = m.group(1)
        while PARENS.search(terms):
            terms = PARENS.sub("", terms)
        terms = END.split(terms.split(")")[0])[0]  # the clause ends at LIMIT or its query's ")"
        if any(POS_TERM.match(t) for t in terms.split(",")):
            return True
    return False


def builders(text):
    """{function: literal keys set} of the functions of a C file."""
    out, fn = {}, None
    for line in text.splitlines():
        m = FUNC.match(line)
        if m and not line.startswith((" ", "\t")):
            fn = m.group(1)
        if fn and LITERAL_KEY.search(line):
            out[fn] = out.get(fn, 0) + 1
    return {f: n for f, n in out.items() if n >= 3}


def scan(root):
    found = {}
    for dirpath, _, files in os.walk(os.path.join(root, "lib")):
        for f in sorted(files):
            if not f.endswith((".c", ".h", ".sql")):
                continue
            full = os.path.join(dirpath, f)
            rel = os.path.relpath(full, root)
            with open(full, encoding="utf-8", errors="replace") as fh:
                text = fh.read()
            if any(positional(line) for line in text.splitlines()):
                found["positional %s" % rel] = 1
            if not rel.startswith("lib/query/") or not f.endswith(".c"):
                continue
            n = len(SET_NEW.findall(text))
            if n:
                found["set_new %s" % rel] = n
            for fn in builders(text):
                found["rowbuilder %s %s" % (rel, fn)] = 1
    return found


def read_baseline(path):
    base = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                line = line.strip()
                if line and not line.startswith("#"):
                    key, _, n = line.rpartition(" ")
                    base[key] = int(n)
    return base


def self_test():
    ok = positional('" ORDER BY 2, 5, 1"') and positional("ORDER BY start_ms, 3 DESC")
    ok = ok and not positional('" ORDER BY trace, window, is_fps"') and not positional("LIMIT 1")
    ok = ok and not positional("ORDER BY coalesce(anr, 0) DESC, id")
    ok = ok and not positional("(SELECT x ORDER BY v.ts, v.id LIMIT 1), 0") and positional("(SELECT x ORDER BY 2), 0")
    b = builders('static json_t *r(void)\n{\n json_object_set_new(o, "a", x);\n'
                 ' json_object_set_new(o, "b", x);\n json_object_set_new(o, "c", x);\n}\n')
    ok = ok and b == {"r": 3} and not builders('int f(void)\n{\n json_object_set_new(o, k, v);\n}\n')
    if not ok:
        print("declared.py: self-test failed")
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    ap.add_argument("--baseline")
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--self-test", action="store_true")
    a = ap.parse_args()
    if a.self_test and not self_test():
        return 1
    path = a.baseline or os.path.join(a.root, "tests", "arch", "declared.txt")
    found = scan(a.root)
    kinds = {k: sum(1 for f in found if f.startswith(k)) for k in ("rowbuilder", "positional")}
    summary = "%d row builders, %d json_object_set_new in lib/query, %d files with positional ORDER/GROUP BY" % (
        kinds["rowbuilder"], sum(n for f, n in found.items() if f.startswith("set_new")), kinds["positional"])
    if a.write:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write("# tests/arch/declared.py baseline (#45 item 1): what is left to declare once;\n"
                     "# it may only shrink (a new finding, or a count above its line, fails).\n")
            for k in sorted(found):
                fh.write("%s %d\n" % (k, found[k]))
        print(summary + " (baseline written)")
        return 0
    base = read_baseline(path)
    bad = [k for k in sorted(found) if k not in base or found[k] > base[k]]
    for k in bad:
        print("new: %s %d (baseline: %s)" % (k, found[k], base.get(k, "none")))
    for k in sorted(base):
        if k not in found:
            print("gone (remove from %s): %s" % (os.path.relpath(path, a.root), k))
        elif found[k] < base[k]:
            print("lower (lower in %s): %s %d" % (os.path.relpath(path, a.root), k, found[k]))
    print(summary)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
