#!/usr/bin/env python3
"""r8_extract.py - turns R8's retrace test classes (StackTraceForTest
implementations, src/test/java/com/android/tools/r8/retrace/stacktraces/ of
the R8 tree) into data files, one directory per case:

  tests/retrace/r8/<Case>/mapping.txt          the mapping() string
  tests/retrace/r8/<Case>/input.txt            obfuscatedStackTrace(), one line each
  tests/retrace/r8/<Case>/expected.txt         retracedStackTrace()
  tests/retrace/r8/<Case>/expected_verbose.txt retraceVerboseStackTrace()
  tests/retrace/r8/<Case>/warnings             expectedWarnings()

Only the data is taken: each method body must be a single `return EXPR;`
where EXPR is built from Java string literals, `+`, and the list/line
helpers (Arrays.asList, ImmutableList.of, Collections.singletonList,
Collections.emptyList, StringUtils.lines, StringUtils.joinLines).  A class
whose methods use anything else (files read from disk, other code) is
listed in skipped.txt with the reason, never extracted half.

usage: r8_extract.py DIR_WITH_JAVA_FILES OUT_DIR
"""
import os
import re
import sys

HELPERS_LIST = {"Arrays.asList", "ImmutableList.of", "Collections.singletonList",
                "Collections.emptyList"}


class Unsupported(Exception):
    pass


def tokenize(s):
    toks = []
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if c.isspace():
            i += 1
        elif s.startswith("//", i):
            j = s.find("\n", i)
            i = n if j < 0 else j
        elif s.startswith("/*", i):
            i = s.index("*/", i) + 2
        elif c == '"':
            j = i + 1
            out = []
            while s[j] != '"':
                if s[j] == "\\":
                    e = s[j + 1]
                    if e == "u":
                        k = j + 1
                        while s[k] == "u":
                            k += 1
                        out.append(chr(int(s[k:k + 4], 16)))
                        j = k + 4
                        continue
                    out.append({"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\",
                                "'": "'", "0": "\0", "b": "\b", "f": "\f"}[e])
                    j += 2
                else:
                    out.append(s[j])
                    j += 1
            toks.append(("str", "".join(out)))
            i = j + 1
        elif c in "(),+;":
            toks.append((c, c))
            i += 1
        else:
            m = re.match(r"[A-Za-z_][A-Za-z_0-9.]*", s[i:])
            if m:
                toks.append(("id", m.group(0)))
                i += len(m.group(0))
            else:
                m = re.match(r"[0-9]+", s[i:])
                if not m:
                    raise Unsupported("unexpected %r" % s[i:i + 20])
                toks.append(("num", int(m.group(0))))
                i += len(m.group(0))
    return toks


class Parser:
    def __init__(self, toks):
        self.t = toks
        self.i = 0

    def peek(self):
        return self.t[self.i][0] if self.i < len(self.t) else None

    def take(self, kind):
        if self.peek() != kind:
            raise Unsupported("expected %s, got %s" % (kind, self.t[self.i:self.i + 2]))
        v = self.t[self.i][1]
        self.i += 1
        return v

    def expr(self):
        v = self.term()
        while self.peek() == "+":
            self.i += 1
            w = self.term()
            if not isinstance(v, str) or not isinstance(w, str):
                raise Unsupported("'+' on a list")
            v += w
        return v

    def term(self):
        k = self.peek()
        if k == "str":
            return self.take("str")
        if k == "id" and self.t[self.i][1] == "null":
            raise Unsupported("a null line (only R8's Java API can pass one)")
        if k == "num":
            return self.take("num")
        if k == "id":
            name = self.take("id")
            self.take("(")
            args = []
            while self.peek() != ")":
                args.append(self.expr())
                if self.peek() == ",":
                    self.i += 1
            self.take(")")
            if name in HELPERS_LIST:
                return [flatten_str(a) for a in args]
            if name in ("StringUtils.lines", "StringUtils.joinLines"):
                parts = []
                for a in args:
                    parts.extend(a if isinstance(a, list) else [a])
                parts = [flatten_str(p) for p in parts]
                if name == "StringUtils.lines":
                    return "".join(p + "\n" for p in parts)
                return "\n".join(parts)
            raise Unsupported("calls %s()" % name)
        raise Unsupported("unexpected token %s" % (self.t[self.i:self.i + 1],))


def flatten_str(v):
    if not isinstance(v, str):
        raise Unsupported("a list where a string was expected")
    return v


def method_body(src, name):
    m = re.search(r"public\s+[\w<>]+\s+" + name + r"\(\)\s*\{", src)
    if not m:
        return None
    i, depth = m.end(), 1
    j = i
    in_str = False
    while depth:
        c = src[j]
        if in_str:
            if c == "\\":
                j += 1
            elif c == '"':
                in_str = False
        elif c == '"':
            in_str = True
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        j += 1
    return src[i:j - 1]


def constants(src):
    """`static final String NAME = new String(new char[] {N, ...});` and
    `static final String NAME = "...";` as name -> value."""
    c = {}
    for m in re.finditer(r"static final String (\w+)\s*=\s*new String\(new char\[\]\s*\{([0-9,\s]*)\}\)\s*;", src):
        c[m.group(1)] = "".join(chr(int(x)) for x in m.group(2).split(",") if x.strip())
    for m in re.finditer(r'static final String (\w+)\s*=\s*("(?:[^"\\]|\\.)*")\s*;', src):
        c[m.group(1)] = tokenize(m.group(2))[0][1]
    return c


def evaluate(body, consts):
    toks = [("str", consts[v]) if k == "id" and v in consts else (k, v) for k, v in tokenize(body)]
    p = Parser(toks)
    if p.take("id") != "return":
        raise Unsupported("body is not a single return")
    v = p.expr()
    p.take(";")
    if p.peek() is not None:
        raise Unsupported("body is not a single return")
    return v


def main():
    src_dir, out = sys.argv[1], sys.argv[2]
    skipped, done = [], []
    for fn in sorted(os.listdir(src_dir)):
        if not fn.endswith(".java"):
            continue
        case = fn[:-5]
        src = open(os.path.join(src_dir, fn), encoding="utf-8").read()
        if "abstract class" in src or (
                "implements StackTraceForTest" not in src and "extends ActualBotStackTraceBase" not in src):
            continue
        try:
            data = {}
            consts = constants(src)
            for meth, key in (("mapping", "mapping"), ("obfuscatedStackTrace", "input"),
                              ("retracedStackTrace", "expected"),
                              ("retraceVerboseStackTrace", "expected_verbose"),
                              ("expectedWarnings", "warnings")):
                body = method_body(src, meth)
                if body is None:
                    raise Unsupported("no %s() method" % meth)
                data[key] = evaluate(body, consts)
        except (Unsupported, KeyError, ValueError, IndexError) as e:
            skipped.append((case, str(e)))
            continue
        d = os.path.join(out, case)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "mapping.txt"), "w", encoding="utf-8", newline="") as f:
            f.write(data["mapping"])
        for key in ("input", "expected", "expected_verbose"):
            v = data[key]
            if isinstance(v, str):
                v = v.split("\n")
            with open(os.path.join(d, key + ".txt"), "w", encoding="utf-8", newline="") as f:
                f.write("".join(line + "\n" for line in v))
        with open(os.path.join(d, "warnings"), "w") as f:
            f.write("%d\n" % data["warnings"])
        done.append(case)
    with open(os.path.join(out, "skipped.txt"), "w") as f:
        for case, why in skipped:
            f.write("%s\t%s\n" % (case, why))
    print("%d cases extracted, %d skipped" % (len(done), len(skipped)))


if __name__ == "__main__":
    main()
