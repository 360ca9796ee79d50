#!/usr/bin/env python3
"""unclosed_gen.py - writes a trace of N slice begins that never end (issue
#25 item 2): systrace text (tracing_mark_write B lines) or a Perfetto trace
(ftrace print events), 128 begins per thread over N/128 threads, names
NAMELEN bytes long (default 1000), all within one second so every begin is
inside the Perfetto sort window at once.  Gzip it to see what a small .gz
costs.  The bounds: docs/reliability.md, "What is bounded".

Usage: unclosed_gen.py systrace|perfetto OUT N [NAMELEN]
"""
import sys

sys.path.insert(0, __import__("os").path.dirname(__file__))
from perfetto_gen import field, uint, print_ev  # noqa: E402


def main():
    fmt, path, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    namelen = int(sys.argv[4]) if len(sys.argv) > 4 else 1000
    pid = 4242
    pad = "x" * max(0, namelen - 12)
    with open(path, "wb") as out:
        if fmt == "systrace":
            out.write(b"# tracer: nop\n#\n")
        else:
            out.write(field(1, field(2, field(1, uint(1, pid) + field(3, b"com.bench.app"))) +
                            uint(8, 1)))
        evs = []
        for i in range(n):
            tid = pid + i // 128
            name = "s%010d%s" % (i, pad)
            us = i * (1_000_000 // max(n, 1)) if n < 1_000_000 else i // (n // 1_000_000 + 1)
            if fmt == "systrace":
                out.write(("     app-%d  (%5d) [001] ...1  100.%06d: tracing_mark_write: "
                           "B|%d|%s\n" % (tid, pid, us, pid, name)).encode())
            else:
                evs.append(print_ev(10_000_000_000 + us * 1000, tid, "B|%d|%s" % (pid, name)))
                if len(evs) == 200 or i == n - 1:
                    out.write(field(1, field(1, uint(1, 0) + b"".join(evs)) + uint(10, 1)))
                    evs = []
            if fmt == "systrace" and i == n - 1:
                pass


if __name__ == "__main__":
    main()
