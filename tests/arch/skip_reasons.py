#!/usr/bin/env python3
"""skip_reasons.py - the one table of skip reasons, lib/core/skip_reasons.def
(#24 item 6), is the only place a reason text is written: every reason is
passed as GD_SKIP(ID), so no reader can invent a near-duplicate of another's
text.

Fails (exit 1) when, in lib/reader, lib/core or lib/ingest (*.c, *.h),
  - a string literal is part of the reason given to gd_sink_skip, a sink's
    skip callback (x->skip / x.skip), or a reader's skip wrapper (gd_pf_bad,
    gd_pf_reason_of, atrace's why()/ignored(), the ftrace parsers' skip(),
    gd_age_skip, gd_br_skip, gd_mx_skip; the writer's count_reason(),
    count_reason_n(), skip_event()), or is #defined (or a static const
    char REASON_/SKIP_ array) under a REASON_/SKIP_/STATE_/GD_SKIP_ name --
    whether or not the text is a row of the table;
  - a GD_SKIP(ID) names no row;
  - two rows of the table are near-duplicates (the same words once case,
    punctuation and spacing are dropped) or share an ID.

  skip_reasons.py --root SRC
"""
import argparse
import os
import re
import sys

# callee -> index of its reason argument
CALLS = {"gd_sink_skip": 1, "gd_age_skip": 1, "gd_br_skip": 1, "gd_mx_skip": 1,
         "why": 1, "ignored": 1, "skip": 1, "gd_pf_reason_of": 1, "gd_pf_bad": 1,
         "count_reason": 1, "count_reason_n": 1, "skip_event": 1, "->skip": 1, ".skip": 1}
CALL_RE = re.compile(r"(?:(?<![\w.>])(gd_sink_skip|gd_age_skip|gd_br_skip|gd_mx_skip|why|ignored|skip"
                     r"|gd_pf_reason_of|gd_pf_bad|count_reason|count_reason_n|skip_event)|(->skip|\.skip))\s*\(")
DIRS = ("reader", "core", "ingest")
DEFINE_RE = re.compile(r'^\s*#\s*define\s+((?:GD_SKIP|REASON|SKIP|STATE)_\w+)\s+("(?:[^"\\]|\\.)*")', re.M)
CONST_RE = re.compile(r'static\s+const\s+char\s+((?:REASON|SKIP)_\w+)\[\]\s*=\s*("(?:[^"\\]|\\.)*")\s*;')
ROW_RE = re.compile(r'^GD_SKIP_REASON\(\s*(\w+)\s*,\s*("(?:[^"\\]|\\.)*")\s*,\s*"([^"]*)"\s*\)', re.M)
USE_RE = re.compile(r"(?<!define )\bGD_SKIP\(\s*(\w+)\s*\)")
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
    """[(line, text)] of the string literals given as skip reasons in one C
    file: every literal anywhere in a reason argument (adjacent literals are
    one text), and every literal #defined or declared under a reason name."""
    text = strip_comments(text)
    found = []
    for m in CALL_RE.finditer(text):
        a = args_of(text, m.end())
        k = CALLS[m.group(1) or m.group(2)]
        if len(a) <= k:
            continue
        line = text.count("\n", 0, m.start()) + 1
        held = []
        bare = LIT_RE.sub(lambda x: held.append(x.group(1)) or "@%d@" % (len(held) - 1), a[k])
        for run in re.findall(r"@\d+@(?:\s*@\d+@)*", bare):
            found.append((line, unescape("".join(held[int(x)] for x in re.findall(r"@(\d+)@", run)))))
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
            hint = ("GD_SKIP(%s)" % texts[t]) if t in texts else "a new row and GD_SKIP(ID)"
            out.append("%s:%d: skip reason written as a literal %r: use %s of lib/core/skip_reasons.def"
                       % (path, line, t, hint))
        for m in USE_RE.finditer(text):
            if m.group(1) not in ids:
                out.append("%s:%d: GD_SKIP(%s) names no row of lib/core/skip_reasons.def"
                           % (path, text.count("\n", 0, m.start()) + 1, m.group(1)))
    return out


def selftest():
    """The check can fail: a literal reason (in the table or not; to
    gd_sink_skip, a wrapper, a ?: of texts, a literal inside a call, a sink
    callback, a #define), a near-duplicate row, an unknown ID; and passes
    reasons given as GD_SKIP(ID) (through wrappers and ?: too)."""
    table = [("A", "ignored: x: a thing", "x"), ("B", "x: bad", "x"), ("F", "x: %s", "x")]
    good = {"g.c": 'gd_sink_skip(s, GD_SKIP(A), 1, 0);\n'
                   'skip(b, n ? GD_SKIP(B) : GD_SKIP(A), 2);\n'
                   'gd_sink_skip(s, gd_pf_reason_of(c, GD_SKIP(F), what), 0, 0);\n'
                   '/* gd_sink_skip(s, "x: bad", 1, 0); a comment */\n'
                   'snprintf(buf, n, "%s: %s", p, what);\n'
                   '#define REASON_B GD_SKIP(B)\nr->inner.skip(r->inner.ctx, GD_SKIP(A), 0, 0);\n'}
    if problems(table, good):
        print("skip_reasons: selftest failed (good): %r" % problems(table, good))
        return False
    bad = {"b.c": 'gd_sink_skip(s, "ignored: x: a thing", 1, 0);\n'        # in the table: still a finding
                  'gd_sink_skip(s, "ignored: x: " "a thing!", 1, 0);\n'   # not in the table
                  'why(a, c ? GD_SKIP(B) : "x: worse");\n'
                  'gd_pf_bad(c, "x: bad");\n'
                  'gd_sink_skip(s, gd_pf_reason_of(c, "x: %s", w), 0, 0);\n'
                  'gd_sink_skip(s, f(c, "x: bad"), 0, 0);\n'
                  'r->inner.skip(r->inner.ctx, "x: bad", 0, 0);\n'
                  '#define STATE_LOST "x: bad"\n'
                  'gd_sink_skip(s, GD_SKIP(C), 0, 0);\n'}
    dup = table + [("C", "Ignored: x - a thing", "y")]
    got = problems(table, bad) + problems(dup, {})
    # gd_pf_reason_of inside gd_sink_skip counts twice (as each call's reason)
    if len(got) != 11:
        print("skip_reasons: selftest failed (bad, %d findings): %r" % (len(got), got))
        return False
    return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    a = ap.parse_args()
    if not selftest():
        return 1
    table = read_table(os.path.join(a.root, "lib", "core", "skip_reasons.def"))
    files = {}
    for d in DIRS:
        rd = os.path.join(a.root, "lib", d)
        for fn in sorted(os.listdir(rd)):
            if fn.endswith((".c", ".h")):
                with open(os.path.join(rd, fn), encoding="utf-8", errors="replace") as fh:
                    files["lib/%s/%s" % (d, fn)] = fh.read()
    out = problems(table, files)
    for o in out:
        print(o)
    print("skip_reasons: %d rows, %d files, %d problems" % (len(table), len(files), len(out)))
    return 1 if out else 0


if __name__ == "__main__":
    sys.exit(main())
