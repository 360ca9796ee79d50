#!/usr/bin/env python3
"""perfwalk.py - an independent oracle for the perf samples of Perfetto traces.

Walks the wire format with the field numbers of Perfetto's .proto files
(pfwalk.py's wire walker) and prints what each PerfSample packet (field 66)
becomes: skipped (its reason), not a CPU profile (a timebase other than
the cpu-clock in the sequence's PerfSampleDefaults), or a stack sample with
its thread, time (ms since boot: the packet's clock mapped to BOOTTIME by
the latest clock snapshot) and frames (interned per sequence, dropped when
the sequence clears its incremental state; frame_ids outermost first).

Usage: perfwalk.py TRACE   (prints one JSON object)
"""
import collections
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pfwalk import fields  # noqa: E402


def ints(v, wt):
    """a repeated uint64 field's values (packed or not)"""
    if wt == 0:
        return [v]
    out, i = [], 0
    while i < len(v):
        r = s = 0
        while True:
            c = v[i]
            i += 1
            r |= (c & 0x7F) << s
            s += 7
            if not c & 0x80:
                break
        out.append(r)
    return out


def main():
    data = open(sys.argv[1], "rb").read()
    clocks = {}                       # clock id -> (its ts, boottime ts)
    seqs = collections.defaultdict(dict)   # seq -> {"tb": .., (kind, iid): bytes}
    out = collections.Counter()
    per_tid = collections.Counter()
    samples = []
    for f, wt, pkt in fields(data):
        if f != 1 or wt != 2:
            continue
        fl = list(fields(pkt))
        top = {a: x for a, b, x in fl}
        seq = top.get(10, 0)
        st = seqs[seq]
        if top.get(41) or top.get(13, 0) & 1:
            st.clear()
        if 6 in top:                  # clock snapshot
            cs = [dict((a, x) for a, b, x in fields(c)) for n, b, c in fields(top[6]) if n == 1]
            bt = [c.get(2, 0) for c in cs if c.get(1) == 6]
            if bt:
                for c in cs:
                    clocks[c.get(1)] = (c.get(2, 0), bt[0])
        if 59 in top:                 # TracePacketDefaults
            for a, b, x in fields(top[59]):
                if a == 58:
                    st["clock"] = x
                if a == 12:           # perf_sample_defaults
                    st["tb"] = "cpu"
                    for c, d, y in fields(x):
                        if c == 1:
                            for e, g, z in fields(y):
                                if e == 4:
                                    st["tb"] = "cpu" if z == 1 else "other"
                                if e in (3, 5):
                                    st["tb"] = "other"
        if 12 in top:                 # InternedData
            for a, b, x in fields(top[12]):
                if a in (5, 6, 7, 17, 19):
                    d = {}
                    for c, g, y in fields(x):
                        d.setdefault(c, []).append((g, y))
                    iid = d.get(1, [(0, 0)])[0][1]
                    st[(a, iid)] = d
        if 66 not in top:
            continue
        ps = {a: x for a, b, x in fields(top[66])}
        if ps.get(17):
            out["records lost"] += 1
            continue
        if st.get("tb") == "other":
            out["not cpu-clock"] += 1
            continue
        if 4 not in ps:
            out["skipped %s" % ps.get(18)] += 1
            continue
        clk = top.get(58, st.get("clock", 6))
        ts = top[8]
        if clk != 6:
            base, bt = clocks[clk]
            ts = ts - base + bt
        cs = st.get((7, ps[4]))
        ids = [v for g, y in cs.get(2, []) for v in ints(y, g)] if cs else []
        if not ids:
            out["empty callstack"] += 1
            continue
        frames = []
        for fid in reversed(ids):    # innermost first
            fr = st[(6, fid)]
            name = st.get((5, fr.get(2, [(0, None)])[0][1]), {}).get(2, [(2, b"")])[0][1].decode()
            mp = st.get((19, fr.get(3, [(0, None)])[0][1]), {})
            parts = [st.get((17, p), {}).get(2, [(2, b"")])[0][1].decode()
                     for g, y in mp.get(7, []) for p in ints(y, g)]
            path = "/" + "/".join(parts)
            java = path.endswith((".oat", ".odex", ".vdex", ".dex", ".jar", ".apk", ".art")) \
                or "jit-cache" in path
            base = parts[-1] if parts else ""
            if java and "." in name.split("(")[0].split(" ")[-1]:
                frames.append(name.split("(")[0].split(" ")[-1])
            elif name:
                frames.append("native:%s(%s)" % (base, name))
            else:
                frames.append("native:%s(pc %x)" % (base, fr.get(4, [(0, 0)])[0][1]))
        out["stack samples"] += 1
        per_tid["%d/%d" % (ps.get(2, 0), ps.get(3, 0))] += 1
        samples.append({"pid": ps.get(2, 0), "tid": ps.get(3, 0), "ts_ms": ts / 1e6,
                        "frames": len(frames), "innermost": frames[0], "outermost": frames[-1]})
    json.dump({"outcomes": out, "per_thread": per_tid, "samples": samples}, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
