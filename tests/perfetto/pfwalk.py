#!/usr/bin/env python3
"""pfwalk.py - an independent oracle for Perfetto protobuf traces (hand checks).

Walks the wire format with nothing but the field numbers of Perfetto's
.proto files and prints what godeye's perfetto reader should find:
packets, ftrace print markers (B/E/C), per-thread B/E pairing, the app
process whose main thread (tid == pid) has most slices, its top-level
slices (dispatches), nested slices and Choreographer#doFrame frames.

Usage: pfwalk.py TRACE [--json]
"""
import collections
import json
import sys


def varint(b, i):
    r = s = 0
    while True:
        c = b[i]
        i += 1
        r |= (c & 0x7F) << s
        s += 7
        if not c & 0x80:
            return r, i


def fields(b):
    i, n = 0, len(b)
    while i < n:
        key, i = varint(b, i)
        f, wt = key >> 3, key & 7
        if wt == 0:
            v, i = varint(b, i)
        elif wt == 1:
            v = int.from_bytes(b[i:i + 8], "little"); i += 8
        elif wt == 5:
            v = int.from_bytes(b[i:i + 4], "little"); i += 4
        elif wt == 2:
            ln, i = varint(b, i)
            v = b[i:i + ln]; i += ln
        else:
            raise ValueError("wire type %d" % wt)
        yield f, wt, v


def main():
    data = open(sys.argv[1], "rb").read()
    kinds = collections.Counter()
    prints = []          # (ts_ns, tid, buf)
    pnames, tnames = {}, {}
    npk = 0
    for f, wt, pkt in fields(data):
        if f != 1 or wt != 2:
            kinds["not a packet"] += 1
            continue
        npk += 1
        for pf, pwt, v in fields(pkt):
            if pf == 1:       # ftrace_events
                kinds["ftrace"] += 1
                for bf, bwt, ev in fields(v):
                    if bf != 2:
                        continue
                    ts = pid = None
                    buf = None
                    for ef, ewt, ev2 in fields(ev):
                        if ef == 1: ts = ev2
                        elif ef == 2: pid = ev2
                        elif ef == 3:
                            for qf, qwt, q in fields(ev2):
                                if qf == 2: buf = q.decode("utf-8", "replace")
                    if buf is not None:
                        prints.append((ts, pid, buf))
            elif pf == 2:     # process_tree
                kinds["process_tree"] += 1
                for tf, twt, v2 in fields(v):
                    if tf == 1:
                        pid = None; cmd = []
                        for a, _, x in fields(v2):
                            if a == 1: pid = x
                            elif a == 3: cmd.append(x.decode("utf-8", "replace"))
                        if cmd and pid is not None and cmd[0]:
                            pnames[pid] = cmd[0]
                    elif tf == 2:
                        tid = None; name = None
                        for a, _, x in fields(v2):
                            if a == 1: tid = x
                            elif a == 2: name = x.decode("utf-8", "replace")
                        if name: tnames[tid] = name
            elif pf in (8, 10, 13, 58):
                pass
            else:
                kinds["field %d" % pf] += 1
    out = {"packets": npk, "kinds": dict(kinds), "prints": len(prints)}
    prints.sort(key=lambda p: p[0])
    nb = sum(1 for p in prints if p[2].startswith("B|"))
    ne = sum(1 for p in prints if p[2].rstrip("\n") == "E" or p[2].startswith("E|"))
    out["B"], out["E"] = nb, ne
    stacks = collections.defaultdict(list)
    slices = []          # (tgid, tid, depth, name, b, e)
    unmatched_e = 0
    for ts, tid, buf in prints:
        buf = buf.rstrip("\n")
        if buf.startswith("B|"):
            parts = buf.split("|", 2)
            tgid = int(parts[1]) if parts[1].isdigit() else tid
            name = parts[2] if len(parts) > 2 else ""
            stacks[tid].append((tgid, name, ts))
        elif buf == "E" or buf.startswith("E|"):
            if stacks[tid]:
                tgid, name, b = stacks[tid].pop()
                slices.append((tgid, tid, len(stacks[tid]), name, b, ts))
            else:
                unmatched_e += 1
    still_open = sum(len(s) for s in stacks.values())
    out["slices"] = len(slices)
    out["unmatched_E"] = unmatched_e
    out["open_at_end"] = still_open
    main_count = collections.Counter(s[0] for s in slices if s[0] == s[1])
    if main_count:
        app, _ = main_count.most_common(1)[0]
        out["app_pid"] = app
        out["app_name"] = pnames.get(app)
        main = [s for s in slices if s[1] == app]
        top = [s for s in main if s[2] == 0]
        out["main_slices"] = len(main)
        out["main_top"] = len(top)
        out["main_top_dur_ms"] = round(sum(s[5] - s[4] for s in top) / 1e6, 6)
        out["main_top_max_ms"] = round(max((s[5] - s[4] for s in top), default=0) / 1e6, 6)
        out["main_nested"] = len(main) - len(top)
        out["main_open"] = len(stacks[app])
    frames = [s for s in slices if s[0] == s[1] and s[3].startswith("Choreographer#doFrame")]
    out["frames"] = len(frames)
    out["frames_dur_ms"] = round(sum(s[5] - s[4] for s in frames) / 1e6, 6)
    out["other_thread_slices"] = sum(1 for s in slices if s[0] != s[1])
    out["process_names"] = len(pnames)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
