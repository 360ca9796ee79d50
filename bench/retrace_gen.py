#!/usr/bin/env python3
"""retrace_gen.py OUTDIR [MB] - a synthetic R8-style mapping of about MB
megabytes (default 50) and a stack-trace text of frames against it, for
bench/retrace_bench.sh.  Deterministic (seeded).

Each class has fields, methods with line ranges, inline chains (an inlined
method of another class, then its callers at call-site lines), overloads
renamed alike, R8 metadata lines (sourceFile, synthesized).  The trace
holds about a million frames, 20 per exception, each at a line inside a
mapped range."""
import os
import random
import sys

out = sys.argv[1]
target = int(float(sys.argv[2] if len(sys.argv) > 2 else 50) * 1024 * 1024)
rnd = random.Random(42)
os.makedirs(out, exist_ok=True)
alpha = "abcdefghijklmnopqrstuvwxyz"


def obf(i):
    s = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        s = alpha[r] + s
    return s


frames = []
size = 0
with open(os.path.join(out, "mapping.txt"), "w") as m:
    m.write('# compiler: R8\n# {"id":"com.android.tools.r8.mapping","version":"2.2"}\n')
    c = 0
    while size < target:
        pkg = "com.example.feature%d.sub%d" % (c % 97, c % 13)
        orig = "%s.Class%d" % (pkg, c)
        ob = "%s.%s" % (obf(c % 500), obf(c))
        lines = ["%s -> %s:\n" % (orig, ob)]
        if c % 7 == 0:
            lines.append('# {"id":"sourceFile","fileName":"Class%d.kt"}\n' % c)
        for f in range(3):
            lines.append("    java.lang.String field%d -> %s\n" % (f, obf(f)))
        line = 1
        for k in range(8):
            name = obf(k % 5)  # overloads renamed alike
            n = rnd.randint(2, 30)
            a, b = line, line + n - 1
            line += n
            o = rnd.randint(10, 2000)
            if k % 3 == 2:  # an inline chain of 3
                lines.append("    %d:%d:int com.example.util.Helper%d.compute(int):%d:%d -> %s\n"
                             % (a, b, c % 50, o, o + n - 1, name))
                lines.append("    %d:%d:void step%d(java.lang.String):%d -> %s\n" % (a, b, k, o + 100, name))
                lines.append("    %d:%d:void method%d(int,java.lang.String):%d -> %s\n" % (a, b, k, o + 200, name))
            else:
                lines.append("    %d:%d:void method%d(int,java.lang.String):%d:%d -> %s\n"
                             % (a, b, k, o, o + n - 1, name))
                if k == 4 and c % 5 == 0:
                    lines.append('    # {"id":"com.android.tools.r8.synthesized"}\n')
            if len(frames) < 2_000_000 and rnd.random() < 0.1:
                frames.append("%s.%s(SourceFile:%d)" % (ob, name, rnd.randint(a, b)))
        text = "".join(lines)
        m.write(text)
        size += len(text)
        c += 1
rnd.shuffle(frames)
reps = max(1, -(-1_000_000 // max(1, len(frames))))  # about a million frames
with open(os.path.join(out, "trace.txt"), "w") as t:
    for i, f in enumerate(frames * reps):
        if i % 20 == 0:
            t.write("java.lang.IllegalStateException: boom %d\n" % i)
        t.write("\tat %s\n" % f)
print("%d classes, %d MB mapping, %d frames" % (c, size >> 20, len(frames) * reps))
