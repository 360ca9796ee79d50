#!/usr/bin/env python3
"""pg_compare.py PROGUARD_OUT GODEYE_OUT - for frames without a line, where
R8's rules (godeye's) and ProGuard 6.2's differ on purpose: ProGuard lists
every member of that name (the inlined ones too), R8 assumes nothing was
inlined and lists the outermost member of each chain.  Checks that

  - the lines that are not frames are the same, in the same order;
  - between two of them, every frame godeye prints (its "<OR> " marker
    removed) is one that ProGuard prints there too (ProGuard's blanked
    alternatives rebuilt from the line before them);
  - godeye prints at least one frame wherever ProGuard prints one.

Exit 0 when all hold, else 1 with the first difference."""
import re
import sys

FRAME = re.compile(r"^\s+(<OR> )?at ")


def rebuild(lines):
    out, prev = [], ""
    for line in lines:
        k = len(line) - len(line.lstrip())
        if k and not FRAME.match(line) and prev and len(prev) > k and line[k:k + 1] != "." \
                and prev[:k].strip():
            line = prev[:k] + line[k:]
        out.append(line)
        prev = line
    return out


def segments(lines):
    segs, cur, heads = [], set(), []
    for line in lines:
        if FRAME.match(line):
            cur.add(line.replace("<OR> ", "", 1))
        else:
            segs.append(cur)
            heads.append(line)
            cur = set()
    segs.append(cur)
    return heads, segs


def main():
    pg = rebuild(open(sys.argv[1], encoding="utf-8").read().splitlines())
    ge = open(sys.argv[2], encoding="utf-8").read().splitlines()
    ph, ps = segments(pg)
    gh, gs = segments(ge)
    if ph != gh:
        for a, b in zip(ph, gh):
            if a != b:
                print("non-frame line differs: proguard %r, godeye %r" % (a, b))
                return 1
        print("non-frame lines differ in number: %d, %d" % (len(ph), len(gh)))
        return 1
    for i, (p, g) in enumerate(zip(ps, gs)):
        extra = g - p
        if extra:
            print("after %r: godeye prints %r, which ProGuard does not list"
                  % (ph[i - 1] if i else "", sorted(extra)[0]))
            return 1
        if p and not g:
            print("after %r: godeye prints no frame" % (ph[i - 1] if i else ""))
            return 1
    print("%d frame groups: godeye's frames are among ProGuard's" % len(ps))
    return 0


if __name__ == "__main__":
    sys.exit(main())
