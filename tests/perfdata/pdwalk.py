#!/usr/bin/env python3
"""pdwalk.py - an independent walker of a perf.data file (PERFILE2), for
writing and checking the corpus expectations of godeye's perf.data reader
by hand: it shares no code with lib/reader/perfdata.c.

    pdwalk.py FILE            summary: samples, threads, times, meta
    pdwalk.py FILE --leaves   the most frequent leaves (file, symbol)
    pdwalk.py FILE --leaf N   the leaf (first call-chain entry that is not
                              a context marker) of sample N (0-based): its
                              address, mapping, vaddr and symbol

Reads the header, the attrs (sample_type), the feature sections FILE (128)
/ FILE2 (132) and META_INFO (129), and walks the records: MMAP/MMAP2,
COMM, FORK and SAMPLE (IDENTIFIER, IP, TID, TIME, ... CALLCHAIN)."""
import os
import struct
import sys
from collections import Counter

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "perfetto"))
from pfwalk import fields as pb_fields  # noqa: E402  (the protobuf wire walk, FILE2's messages)

PERF_CONTEXT_MAX = (1 << 64) - 4095


def cstr(b, i):
    e = b.index(b"\0", i)
    return b[i:e].decode("utf-8", "replace"), e + 1


def files_v1(b):
    out, i = {}, 0
    while i + 4 <= len(b):
        size = struct.unpack_from("<I", b, i)[0]
        i += 4
        end = i + size
        path, j = cstr(b, i)
        typ, minv, n = struct.unpack_from("<IQI", b, j)
        j += 16
        syms = []
        for _ in range(n):
            a, ln = struct.unpack_from("<QI", b, j)
            name, j = cstr(b, j + 12)
            syms.append((a, ln, name))
        off = struct.unpack_from("<Q", b, j)[0] if typ in (1, 2) and end - j >= 8 else 0
        out[path] = (typ, minv, off, sorted(syms))
        i = end
    return out


def files_v2(b):
    out, i = {}, 0
    while i + 4 <= len(b):
        size = struct.unpack_from("<I", b, i)[0]
        msg = b[i + 4:i + 4 + size]
        i += 4 + size
        path, typ, minv, off, syms = "", -1, 0, 0, []
        for num, _, v in pb_fields(msg):
            if num == 1:
                path = v.decode()
            elif num == 2:
                typ = v
            elif num == 3:
                minv = v
            elif num == 4:
                a = ln = 0
                name = ""
                for n2, _, v2 in pb_fields(v):
                    if n2 == 1:
                        a = v2
                    elif n2 == 2:
                        ln = v2
                    elif n2 == 3:
                        name = v2.decode()
                syms.append((a, ln, name))
            elif num in (6, 7):
                for n2, _, v2 in pb_fields(v):
                    if n2 == 1:
                        off = v2
        out[path] = (typ, minv, off, sorted(syms))
    return out


def main():
    f = open(sys.argv[1], "rb").read()
    assert f[:8] == b"PERFILE2"
    attr_size = struct.unpack_from("<Q", f, 16)[0]
    attrs = struct.unpack_from("<QQ", f, 24)
    data = struct.unpack_from("<QQ", f, 40)
    bits = f[72:104]
    st = struct.unpack_from("<Q", f, attrs[0] + 24)[0]
    feats = [k for k in range(256) if bits[k // 8] >> (k % 8) & 1]
    files, meta = {}, {}
    at = data[0] + data[1]
    for k in feats:
        off, size = struct.unpack_from("<QQ", f, at)
        at += 16
        b = f[off:off + size]
        if k == 128:
            files = files_v1(b)
        elif k == 132:
            files = files_v2(b)
        elif k == 129:
            parts = b.split(b"\0")
            meta = {parts[j].decode(): parts[j + 1].decode() for j in range(0, len(parts) - 1, 2)}
    order = [1 << 16, 1, 2, 4, 8, 64, 512, 128, 256]
    maps, names = [], {}
    samples = []
    off = data[0]
    while off < data[0] + data[1]:
        typ, misc, size = struct.unpack_from("<IHH", f, off)
        body = off + 8
        if typ in (1, 10):
            pid, tid, addr, ln, pg = struct.unpack_from("<IIQQQ", f, body)
            name, _ = cstr(f, body + (64 if typ == 10 else 32))
            maps.append((pid, addr, addr + ln, pg, name))
        elif typ == 3:
            pid, tid = struct.unpack_from("<II", f, body)
            names[tid], _ = cstr(f, body + 8)
        elif typ == 7:
            pid, ppid, tid, ptid = struct.unpack_from("<IIII", f, body)
            names[tid] = names.get(ptid, "")
        elif typ == 9:
            j = body
            rec = {}
            for bit in order:
                if st & bit:
                    if bit == 2:
                        rec["pid"], rec["tid"] = struct.unpack_from("<II", f, j)
                    else:
                        rec[bit] = struct.unpack_from("<Q", f, j)[0]
                    j += 8
            if st & 32:
                nr = struct.unpack_from("<Q", f, j)[0]
                rec["chain"] = struct.unpack_from("<%dQ" % nr, f, j + 8)
            rec["name"] = names.get(rec["tid"], "")
            rec["nmaps"] = len(maps)
            samples.append(rec)
        off += size
    def leaf(s):
        ips = [a for a in s.get("chain", ()) if a < PERF_CONTEXT_MAX and a] or [s[1]]
        a = ips[0]
        live = [m for m in maps[:s["nmaps"]] if m[0] in (s["pid"], 0xFFFFFFFF) and m[1] <= a < m[2]]
        if not live:
            return "-", "-"
        m = live[-1]
        typ, minv, foff, syms = files.get(m[4], (-1, 0, 0, []))
        v = a if m[0] == 0xFFFFFFFF else a - m[1] + m[3] - (foff if typ == 2 else 0) + (minv if typ == 2 else 0)
        hit = [x for x in syms if x[0] <= v < x[0] + x[1]]
        return m[4], hit[-1][2] if hit else "-"

    if len(sys.argv) > 2 and sys.argv[2] == "--leaves":
        for (path, sym), n in Counter(leaf(s) for s in samples).most_common(8):
            print(n, path, sym)
        return
    if len(sys.argv) > 3 and sys.argv[2] == "--leaf":
        s = samples[int(sys.argv[3])]
        ips = [a for a in s.get("chain", ()) if a < PERF_CONTEXT_MAX and a] or [s[1]]
        a = ips[0]
        live = [m for m in maps[:s["nmaps"]] if m[0] in (s["pid"], 0xFFFFFFFF) and m[1] <= a < m[2]]
        m = live[-1]
        typ, minv, foff, syms = files.get(m[4], (-1, 0, 0, []))
        v = a if m[0] == 0xFFFFFFFF else a - m[1] + m[3] - (foff if typ == 2 else 0) + (minv if typ == 2 else 0)
        hit = [x for x in syms if x[0] <= v < x[0] + x[1]]
        print("sample %d tid %d ip %#x in %s (start %#x pgoff %#x type %d) vaddr %#x symbol %s"
              % (int(sys.argv[3]), s["tid"], a, m[4], m[1], m[3], typ, v, hit[-1][2] if hit else "-"))
        return
    tids = Counter(s["tid"] for s in samples)
    times = [s[4] for s in samples]
    print("sample_type %#x features %s" % (st, feats))
    print("meta", {k: meta[k] for k in ("app_package_name", "clockid", "android_version") if k in meta})
    print("samples %d threads %d first %d last %d (ns)" % (len(samples), len(tids), min(times), max(times)))
    main_ = [s for s in samples if s["pid"] == s["tid"] and s["pid"] > 0]
    print("first sample with pid == tid:", (main_[0]["pid"], main_[0]["name"]) if main_ else None)
    for tid, n in tids.most_common(6):
        print("  tid %d %r %d" % (tid, next(s["name"] for s in samples if s["tid"] == tid), n))
    print("mapped files with symbols", sum(1 for v in files.values() if v[3]), "symbols", sum(len(v[3]) for v in files.values()))


main()
