#!/usr/bin/env python3
"""skip_reasons.py - every skip reason a reader passes is a row of the one
table, lib/core/skip_reasons.def (#24 item 6), so no reader can invent a
near-duplicate of another's text.

Fails (exit 1) when
  - a string literal given as a skip reason in lib/reader/*.c or *.h (the
    reason argument of gd_sink_skip and of the readers' skip wrappers, or a
    #define REASON_.../SKIP_... of one) is not a text of the table;
  - two rows of the table are near-duplicates (the same words once case,
    punctuation and spacing are dropped) or share an ID;
  - a GD_SKIP(ID) names no row.

  skip_reasons.py --root SRC
"""
import argparse
import os
import re
import sys

# callee -> index of its reason argument
CALLS = {"gd_sink_skip": 1, "gd_age_skip": 1, "gd_br_skip": 1, "gd_mx_skip": 1,
         "why": 1, "ignored": 1, "skip": 1, "pf_reason_of": 1, "pf_bad": 1}
CALL_RE = re.compile(r"(?<![\w.>])(%s)\s*\(" % "|".join(CALLS))
DEFINE_RE = re.compile(r'^\s*#\s*define\s+((?:GD_SKIP|REASON|SKIP|STATE)_\w+)\s+("(?:[^"\\]|\\.)*")', re.M)
CONST_RE = re.compile(r'static\s+const\s+char\s+((?:REASON|SKIP)_\w+)\[\]\s*=\s*("(?:[^"\\]|\\.)*")\s*;')
ROW_RE = re.compile(r'^GD_SKIP_REASON\(\s*(\w+)\s*,\s*("(?:[^"\\]|\\.)*")\s*,\s*"([^"]*)"\s*\)', re.M)
USE_RE = re.compile(r"\bGD_SKIP\(\s*(\w+)\s*\)")
LIT_RE = re.compile(r'"((?:[^"\\]|\\.)*)"')


def strip_comments(text):
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(" " * 0 + "\n" * text.count("\n", i, j))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text[i] == '"' or text[i] == "'":
            q = text[i]
            j = i + 1
            while j < n and text[j] != q:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def args_of(text, start):
    """The top-level arguments of the call whose '(' is at start-1."""
    depth, i, cur, args = 0, start, [], []
    n = len(text)
    while i < n:
        c = text[i]
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            cur.append(text[i:j + 1])
            i = j + 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                args.append("".join(cur))
                return args
            depth -= 1
        elif c == "," and depth == 0:
            args.append("".join(cur))
            cur = []
            i += 1
            continue
        cur.append(c)
        i += 1
    return args


def unescape(lit):
    return bytes(lit, "utf-8").decode("unicode_escape")


def reasons_in(text):
    """[(line, text)] of the literal skip reasons in one C file: a reason
    argument made only of adjacent literals is one text; one with a ?: or a
    call gives each of its literals."""
    text = strip_comments(text)
    found = []
    for m in CALL_RE.finditer(text):
        a = args_of(text, m.end())
        k = CALLS[m.group(1)]
        if len(a) <= k:
            continue
        arg = a[k].strip()
        line = text.count("\n", 0, m.start()) + 1
        lits = LIT_RE.findall(arg)
        if not lits:
            continue
        if LIT_RE.sub("", arg).strip() == "":
            found.append((line, unescape("".join(lits))))
        elif "?" in LIT_RE.sub('""', arg) and not re.search(r"\w\s*\(", LIT_RE.sub('""', arg)):
            # a ?: of texts: each branch's adjacent literals are one text (a
            # literal inside a call, pf_reason_of(c, "fmt", x), is found there)
            held = []
            bare = LIT_RE.sub(lambda x: held.append(x.group(1)) or "@%d@" % (len(held) - 1), arg)
            for part in re.split(r"[?:]", bare):
                ix = [int(k) for k in re.findall(r"@(\d+)@", part)]
                if ix:
                    found.append((line, unescape("".join(held[k] for k in ix))))
    for rx in (DEFINE_RE, CONST_RE):
        for m in rx.finditer(text):
            found.append((text.count("\n", 0, m.start()) + 1, unescape(m.group(2)[1:-1])))
    return found


def read_table(path):
    rows = []
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    for m in ROW_RE.finditer(text):
        rows.append((m.group(1), unescape(m.group(2)[1:-1]), m.group(3)))
    return rows


def norm(s):
    return re.sub(r"[^a-z0-9%]+", "", s.lower())


def problems(table, files):
    """files: {path: text}.  The findings, one line each."""
    out = []
    ids, texts, normed = set(), {}, {}
    for i, t, r in table:
        if i in ids:
            out.append("skip_reasons.def: ID %s twice" % i)
        ids.add(i)
        k = norm(t)
        if k in normed:
            out.append("skip_reasons.def: %s %r is a near-duplicate of %s %r" % (i, t, normed[k][0], normed[k][1]))
        normed[k] = (i, t)
        texts[t] = i
    for path, text in sorted(files.items()):
        for line, t in reasons_in(text):
            if t not in texts:
                out.append("%s:%d: skip reason %r is not in lib/core/skip_reasons.def" % (path, line, t))
        for m in USE_RE.finditer(text):
            if m.group(1) not in ids:
                out.append("%s:%d: GD_SKIP(%s) names no row of lib/core/skip_reasons.def"
                           % (path, text.count("\n", 0, m.start()) + 1, m.group(1)))
    return out


def selftest():
    """The check can fail: a text not in the table, a near-duplicate row,
    an unknown ID, a ?: of texts; and passes the table's own texts."""
    table = [("A", "ignored: x: a thing", "x"), ("B", "x: bad", "x")]
    good = {"g.c": 'gd_sink_skip(s, "ignored: x: a thing", 1, 0);\n'
                   'skip(b, n ? "x: bad" : "ignored: x: a thing", 2);\n'
                   '#define REASON_B "x: bad"\ngd_sink_skip(s, GD_SKIP(A), 0, 0);\n'}
    if problems(table, good):
        print("skip_reasons: selftest failed (good): %r" % problems(table, good))
        return False
    bad = {"b.c": 'gd_sink_skip(s, "ignored: x: a thing!", 1, 0);\nwhy(a, c ? "x: bad" : "x: worse");\n'
                  'gd_sink_skip(s, GD_SKIP(C), 0, 0);\n'}
    dup = table + [("C", "Ignored: x - a thing", "y")]
    got = problems(table, bad) + problems(dup, {})
    if len(got) != 4:
        print("skip_reasons: selftest failed (bad): %r" % got)
        return False
    return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    a = ap.parse_args()
    if not selftest():
        return 1
    table = read_table(os.path.join(a.root, "lib", "core", "skip_reasons.def"))
    rd = os.path.join(a.root, "lib", "reader")
    files = {}
    for fn in sorted(os.listdir(rd)):
        if fn.endswith((".c", ".h")):
            with open(os.path.join(rd, fn), encoding="utf-8", errors="replace") as fh:
                files["lib/reader/" + fn] = fh.read()
    out = problems(table, files)
    for o in out:
        print(o)
    print("skip_reasons: %d rows, %d reader files, %d problems" % (len(table), len(files), len(out)))
    return 1 if out else 0


if __name__ == "__main__":
    sys.exit(main())
