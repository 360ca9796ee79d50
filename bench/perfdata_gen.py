#!/usr/bin/env python3
"""perfdata_gen.py - a bigger perf.data made of a real one: its SAMPLE
records repeated K times, each repeat 200 ms later (the other records, its
mappings and threads, once), its feature sections moved after the new data
section.  Also the same samples as report_sample.py text, when given the
text of the same recording, for a side-by-side of the two readers.

    perfdata_gen.py IN.data OUT.data K [IN.perf-script OUT.txt]

Used with simpleperf/testdata/perf_display_bitmaps.data (the corpus copy,
tests/corpus/files/simpleperf/aosp_simpleperf_perf_display_bitmaps.data)
and its perf_display_bitmaps.header.perf-script (bench/RESULTS.md,
"perf.data ingest")."""
import re
import struct
import sys

SHIFT_NS = 200_000_000


def grow_data(src, dst, k):
    f = bytearray(open(src, "rb").read())
    data_off, data_size = struct.unpack_from("<QQ", f, 40)
    sample_type = struct.unpack_from("<Q", f, struct.unpack_from("<Q", f, 24)[0] + 24)[0]
    assert sample_type & 0x7 == 0x7 and not sample_type & (1 << 16), "IP|TID|TIME first, no IDENTIFIER"
    other, samples = [], []
    off = data_off
    while off < data_off + data_size:
        typ, _, size = struct.unpack_from("<IHH", f, off)
        (samples if typ == 9 else other).append(bytes(f[off:off + size]))
        off += size
    out = list(other)
    for i in range(k):
        for r in samples:
            r = bytearray(r)
            t = struct.unpack_from("<Q", r, 24)[0] + i * SHIFT_NS  # header 8, ip 8, pid/tid 8
            struct.pack_into("<Q", r, 24, t)
            out.append(bytes(r))
    new = b"".join(out)
    delta = len(new) - data_size
    tail = bytearray(f[data_off + data_size:])
    nfeat = sum(bin(b).count("1") for b in f[72:104])
    for i in range(nfeat):
        o, s = struct.unpack_from("<QQ", tail, 16 * i)
        struct.pack_into("<QQ", tail, 16 * i, o + delta, s)
    struct.pack_into("<Q", f, 48, len(new))
    with open(dst, "wb") as o:
        o.write(bytes(f[:data_off]) + new + bytes(tail))


def grow_text(src, dst, k):
    lines = open(src, encoding="utf-8").read().split("\n")
    head = [l for l in lines if l.startswith("#")]
    blocks = [b for b in "\n".join(l for l in lines if not l.startswith("#")).split("\n\n") if b.strip()]
    with open(dst, "w", encoding="utf-8") as o:
        o.write("\n".join(head) + "\n")
        for i in range(k):
            for b in blocks:
                first, _, rest = b.strip("\n").partition("\n")
                m = re.search(r"(\d+)\.(\d{6}):", first)
                us = int(m.group(1)) * 1_000_000 + int(m.group(2)) + i * SHIFT_NS // 1000
                first = first[:m.start()] + "%d.%06d:" % (us // 1_000_000, us % 1_000_000) + first[m.end():]
                o.write(first + "\n" + rest + "\n\n")


grow_data(sys.argv[1], sys.argv[2], int(sys.argv[3]))
if len(sys.argv) > 5:
    grow_text(sys.argv[4], sys.argv[5], int(sys.argv[3]))
