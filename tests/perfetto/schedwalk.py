#!/usr/bin/env python3
"""schedwalk.py - an independent oracle for the scheduling data of a trace (hand checks).

Reads a Perfetto protobuf trace (the wire format, with nothing but the field
numbers of Perfetto's .proto files) or ftrace text (systrace / atrace) and
prints what godeye's thread states should agree with, computed another way:
the CPU slices.  Every sched_switch (plain or compact_sched) on a CPU ends
the slice the CPU's previous switch began; a thread's Running time is the
sum of its slices (the last slice of each CPU is still open at the end and
not counted).  Also counts the scheduling events by kind.

With --states it also rebuilds the thread states from the events sorted by
time, by the rules of Perfetto's thread_state table as its documentation
and diff tests state them (switch: the previous thread takes prev_state, the
next one Running; waking of a sleeping thread: R; task_newtask: R; a switch
out of a thread not Running loses the end; the idle task has none; states
still open at the end have no end), and prints the number of intervals and
the time per state.

Usage: schedwalk.py TRACE [--tid TID] [--states] [--json]
"""
import collections
import json
import os
import re
import sys


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pfwalk import fields, varint  # noqa: E402  (the one wire walker of these oracles)


def packed(b):
    i, out = 0, []
    while i < len(b):
        v, i = varint(b, i)
        out.append(v)
    return out


def s32(v):
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >= 1 << 31 else v


EVENTS = {4: "sched_switch", 17: "sched_wakeup", 18: "sched_blocked_reason",
          20: "sched_waking", 114: "sched_wakeup_new", 235: "task_newtask",
          236: "task_rename"}


ALL = []   # (ts, order, kind, a, b, state): every sched event, for --states


def letters(raw, kver):
    """prev_state's bits as the letters sched_switch prints (kernel >= 4.14 layout,
    or the 4.4 one when the trace names no kernel)."""
    raw &= 0xFFFF
    if kver >= (4, 14):
        if raw & 0xFE00:
            return None
        f = [(0x1, "S"), (0x2, "D"), (0x4, "T"), (0x8, "t"), (0x10, "X"), (0x20, "Z"), (0x40, "P"), (0x80, "I")]
        out = "".join(c for b, c in f if raw & b)
        return out or ("R+" if raw & 0x100 else "R")
    f = [(0x1, "S"), (0x2, "D"), (0x4, "T"), (0x8, "t"), (0x10, "X"), (0x20, "Z"), (0x40, "x"), (0x80, "K"),
         (0x100, "W"), (0x200, "P"), (0x400, "N")]
    out = "".join(c for b, c in f if raw & b)
    if out == "DN":
        out = "I"
    pre = 0x1000 if kver >= (4, 8) else 0x800
    return out or ("R+" if raw & pre else "R")


def proto_switches(data, counts):
    """(ts_ns, cpu, next_tid, prev_tid or None) for every switch, per CPU in order."""
    out = []
    kver = (4, 4)
    for f, wt, pkt in fields(data):
        if f != 1 or wt != 2:
            continue
        for pf, pwt, v in fields(pkt):
            if pf == 45:
                for uf, _, uv in fields(v):
                    if uf == 1:
                        for rf, _, rv in fields(uv):
                            if rf == 3:
                                m = re.match(rb"(\d+)\.(\d+)", rv)
                                kver = (int(m.group(1)), int(m.group(2)))
    raw = []
    cur = {}
    for f, wt, pkt in fields(data):
        if f != 1 or wt != 2:
            continue
        for pf, pwt, v in fields(pkt):
            if pf != 1 or pwt != 2:
                continue
            cpu = None
            bundle = list(fields(v))
            for bf, bwt, bv in bundle:
                if bf == 1:
                    cpu = bv
            for bf, bwt, bv in bundle:
                if bf == 2:
                    ts = None
                    for ef, ewt, ev in fields(bv):
                        if ef == 1:
                            ts = ev
                        elif ef in EVENTS and ewt == 2:
                            counts[EVENTS[ef]] += 1
                            d = dict((k, x) for k, _, x in fields(ev))
                            if ef == 4:
                                out.append((ts, cpu, s32(d.get(6, 0)), s32(d.get(2, 0))))
                                cur[cpu] = s32(d.get(6, 0))
                                raw.append((ts, len(raw), "switch", s32(d.get(2, 0)), s32(d.get(6, 0)), d.get(4, 0)))
                            elif ef == 20:
                                raw.append((ts, len(raw), "waking", s32(d.get(2, 0)), pid, None))
                            elif ef == 235 and s32(d.get(1, 0)) > 0:
                                raw.append((ts, len(raw), "newtask", s32(d.get(1, 0)), pid, None))
                        elif ef == 2:
                            pid = ev
                elif bf == 4:
                    cs = {}
                    for cf, cwt, cv in fields(bv):
                        if cwt == 2 and cf != 5:
                            cs.setdefault(cf, []).extend(packed(cv))
                    evs, t = [], 0
                    for k, delta in enumerate(cs.get(1, [])):
                        t += delta
                        evs.append((t, 0, k))
                    t = 0
                    for k, delta in enumerate(cs.get(7, [])):
                        t += delta
                        evs.append((t, 1, k))
                    for t, kind, k in sorted(evs):
                        if kind == 0:
                            counts["sched_switch (compact)"] += 1
                            out.append((t, cpu, s32(cs[3][k]), None))
                            if cpu in cur:
                                raw.append((t, len(raw), "switch", cur[cpu], s32(cs[3][k]), cs[2][k]))
                            cur[cpu] = s32(cs[3][k])
                        else:
                            counts["sched_waking (compact)"] += 1
                            if cpu in cur:
                                raw.append((t, len(raw), "waking", s32(cs[8][k]), cur[cpu], None))
    for t, o, kind, a, b, st in raw:
        ALL.append((t, o, kind, a, b, letters(st, kver) if kind == "switch" else None))
    return out


LINE = re.compile(r"^\s*(.+)-(\d+)\s+(?:\(\s*[-\d]+\)\s+)?\[(\d+)\]\s+(?:\S+\s+)?(\d+\.\d+):\s+(\w+):\s?(.*)$")


def text_switches(path, counts):
    out = []
    for line in open(path, errors="replace"):
        m = LINE.match(line)
        if not m:
            continue
        func = m.group(5)
        if func in EVENTS.values():
            counts[func] += 1
        if func == "sched_switch":
            p = m.group(6)
            nxt = int(re.search(r"next_pid=(\d+)", p).group(1))
            prv = int(re.search(r"prev_pid=(\d+)", p).group(1))
            sec, frac = m.group(4).split(".")
            ts = int(sec) * 10**9 + int(frac.ljust(9, "0")[:9])
            out.append((ts, int(m.group(3)), nxt, prv))
            st = re.search(r"prev_state=(\S+)", p).group(1)
            ALL.append((ts, len(ALL), "switch", prv, nxt, st))
        elif func == "sched_waking":
            sec, frac = m.group(4).split(".")
            ts = int(sec) * 10**9 + int(frac.ljust(9, "0")[:9])
            ALL.append((ts, len(ALL), "waking", int(re.search(r"\bpid=(\d+)", m.group(6)).group(1)),
                        int(m.group(2)), None))
        elif func == "task_newtask":
            sec, frac = m.group(4).split(".")
            ts = int(sec) * 10**9 + int(frac.ljust(9, "0")[:9])
            ALL.append((ts, len(ALL), "newtask", int(re.search(r"\bpid=(\d+)", m.group(6)).group(1)),
                        int(m.group(2)), None))
    return out


def states():
    """Perfetto's thread_state rows rebuilt: (tid, ts, dur or None, state)."""
    rows, last = [], {}      # last: tid -> index of its last row
    def add(ts, tid, st):
        if tid == 0:
            return
        rows.append([tid, ts, None, st])
        last[tid] = len(rows) - 1
    def close(ts, tid):
        if tid in last and rows[last[tid]][2] is None:
            rows[last[tid]][2] = ts - rows[last[tid]][1]
    blocked = lambda st: st not in ("Running", "R", "R+")
    for ts, _, kind, a, b, st in sorted(ALL):
        if kind == "switch":
            if a in last and rows[last[a]][3] != "Running":
                rows[last[a]][2] = rows[last[a]][2]   # lost: the row keeps no end
            else:
                close(ts, a)
            add(ts, a, st)
            close(ts, b)
            add(ts, b, "Running")
        elif kind == "waking":
            if a in last and not blocked(rows[last[a]][3]):
                continue
            close(ts, a)
            add(ts, a, "R")
        else:
            add(ts, a, "R")
    return rows


def main():
    path = sys.argv[1]
    args = sys.argv[2:]
    tid = int(args[args.index("--tid") + 1]) if "--tid" in args else None
    counts = collections.Counter()
    data = open(path, "rb").read(4)
    sw = proto_switches(open(path, "rb").read(), counts) if data[:1] == b"\x0a" else text_switches(path, counts)
    last = {}                       # cpu -> (ts, tid)
    run = collections.Counter()     # tid -> ns
    slices = collections.Counter()
    for ts, cpu, nxt, prv in sw:    # per CPU the stream is in time order
        if cpu in last:
            t0, who = last[cpu]
            if who != 0:
                run[who] += ts - t0
                slices[who] += 1
        last[cpu] = (ts, nxt)
    res = {"events": dict(counts), "switches": len(sw),
           "threads_run": len(run),
           "top": [[t, run[t] / 1e6, slices[t]] for t, _ in run.most_common(5)]}
    if "--states" in args:
        rows = states()
        per = collections.defaultdict(lambda: [0, 0, 0])
        for t, ts, dur, st in rows:
            per[st][0] += 1
            per[st][1] += (dur or 0) / 1e6
            per[st][2] += dur is None
        res["states"] = {"rows": len(rows), "open": sum(1 for r in rows if r[2] is None),
                         "by_state": {str(k): v for k, v in sorted(per.items(), key=lambda kv: str(kv[0]))}}
        if tid is not None:
            res["states"]["tid"] = {str(k): round(sum((r[2] or 0) for r in rows if r[0] == tid and r[3] == k) / 1e6, 6)
                                    for k in set(r[3] for r in rows if r[0] == tid)}
    if tid is not None:
        res["tid"] = {"tid": tid, "running_ms": run[tid] / 1e6, "slices": slices[tid]}
    if "--json" in args:
        print(json.dumps(res, indent=1))
    else:
        for k, v in res.items():
            print(k, v)


if __name__ == "__main__":
    main()
