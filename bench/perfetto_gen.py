#!/usr/bin/env python3
"""perfetto_gen.py - writes a synthetic Perfetto trace of about SIZE MB
(default 100) for bench/perfetto_bench.sh: a process tree, then ftrace
bundles (4 CPUs, each bundle 200 events) of atrace print markers: on the
app's main thread a Choreographer#doFrame every 16.6 ms with nested
traversal/measure/draw slices, RenderThread DrawFrame slices, counters, and
sched_switch events in between.

--sched: a sched-heavy trace instead, shaped like a real phone's: mostly
sched_switch / sched_waking ftrace on 4 CPUs among 32 threads of 6
processes (switch prev = the CPU's last next, a waking before each switch
in), binder calls from the app's main thread to system_server (a
transaction, its receipt, the reply and its receipt, about one per 40
switches) and a Choreographer#doFrame atrace slice per 16.6 ms.

--seed N: the clock starts N hours later (default 0): traces of different
seeds differ in every timestamp, so that godeye ingests each as its own
trace (identical content is one trace).

Usage: perfetto_gen.py OUT [SIZE_MB] [--sched] [--seed N]
"""
import sys


def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field(num, payload):
    return varint(num << 3 | 2) + varint(len(payload)) + payload


def uint(num, v):
    return varint(num << 3) + varint(v)


def print_ev(ts, tid, buf):
    return field(2, uint(1, ts) + uint(2, tid) + field(3, field(2, buf.encode())))


def sched_ev(ts, tid):
    return field(2, uint(1, ts) + uint(2, tid) + field(4, field(1, b"prev_comm") + uint(2, tid)))


def ev(ts, tid, num, payload):
    return field(2, uint(1, ts) + uint(2, tid) + field(num, payload))


def switch_ev(ts, prev, prev_state, nxt, names):
    return ev(ts, prev, 4, field(1, names[prev]) + uint(2, prev) + uint(4, prev_state)
              + field(5, names[nxt]) + uint(6, nxt))


def waking_ev(ts, waker, wakee, names):
    return ev(ts, waker, 20, field(1, names[wakee]) + uint(2, wakee))


def binder_ev(ts, tid, debug_id, to_proc, to_thread, reply):
    # binder_transaction: debug_id 1, to_proc 3, to_thread 4, reply 5, code 6, flags 7
    return ev(ts, tid, 50, uint(1, debug_id) + uint(3, to_proc) + uint(4, to_thread)
              + uint(5, reply) + uint(6, 3) + uint(7, 0x10))


def binder_rx_ev(ts, tid, debug_id):
    return ev(ts, tid, 51, uint(1, debug_id))


def sched_main(out, target):
    """The --sched trace (see the module's comment)."""
    procs = [(4242, b"com.bench.app", [4242, 4260, 4261, 4262, 4263]),
             (1000, b"system_server", [1000, 1010, 1011, 1012, 1013, 1014, 1015]),
             (600, b"surfaceflinger", [600, 601, 602, 603]),
             (700, b"/system/bin/audioserver", [700, 701, 702]),
             (3100, b"com.google.android.gms", [3100, 3101, 3102, 3103, 3104, 3105]),
             (3300, b"com.android.systemui", [3300, 3301, 3302, 3303, 3304, 3305, 3306])]
    names = {0: b"swapper/0"}
    tree = b""
    for pid, name, tids in procs:
        tree += field(1, uint(1, pid) + field(3, name))
        for t in tids:
            tname = name.rsplit(b"/", 1)[-1][:15] if t == pid else b"worker-%d" % t
            names[t] = tname
            if t != pid:
                tree += field(2, uint(1, t) + field(2, tname) + uint(3, pid))
    out.write(field(1, field(2, tree) + uint(8, 1)))
    pool = [t for _, _, tids in procs for t in tids]
    app, binder_tid = 4242, 1010
    cur = [0, 0, 0, 0]
    pending = [[], [], [], []]
    written, ts, step, frame, debug_id = 0, START_NS, 0, 0, 1
    next_frame = ts
    later = []  # (ts, event) of CPU 0 that wait for their time: a bundle is in time order
    while written < target:
        cpu = step % 4
        while later and later[0][0] <= ts:
            pending[0].append(later.pop(0)[1])
        nxt = pool[(step * 7 + cpu) % len(pool)]
        if nxt in cur:
            nxt = 0
        evs = pending[cpu]
        if nxt:
            evs.append(waking_ev(ts, cur[cpu] or pool[step % len(pool)], nxt, names))
        evs.append(switch_ev(ts + 2_000, cur[cpu], 1 if step % 3 else 0, nxt, names))
        cur[cpu] = nxt
        if step % 40 == 0:
            b = pending[0]
            b.append(binder_ev(ts + 5_000, app, debug_id, 1000, binder_tid, 0))
            b.append(binder_rx_ev(ts + 25_000, binder_tid, debug_id))
            b.append(binder_ev(ts + 150_000, binder_tid, debug_id + 1, 4242, app, 1))
            b.append(binder_rx_ev(ts + 170_000, app, debug_id + 1))
            debug_id += 2
        if ts >= next_frame:
            b = pending[0]
            b.append(print_ev(ts + 1_000, app, "B|%d|Choreographer#doFrame %d" % (app, frame)))
            t_end = ts + 4_000_000 + (frame % 7) * 1_000_000
            later.append((t_end, print_ev(t_end, app, "E|%d" % app)))
            frame += 1
            next_frame += 16_666_667
        for c in range(4):
            if len(pending[c]) >= 200 or (c == cpu and len(pending[c]) >= 150):
                pkt = field(1, field(1, uint(1, c) + b"".join(pending[c])) + uint(10, 1))
                out.write(pkt)
                written += len(pkt)
                pending[c] = []
        ts += 50_000
        step += 1
    for c in range(4):
        if pending[c]:
            pkt = field(1, field(1, uint(1, c) + b"".join(pending[c])) + uint(10, 1))
            out.write(pkt)
            written += len(pkt)
    return written, frame, step


START_NS = 10_000_000_000


def main():
    global START_NS
    args = [a for a in sys.argv[1:] if a != "--sched"]
    if "--seed" in args:
        k = args.index("--seed")
        START_NS += int(args[k + 1]) * 3_600_000_000_000
        del args[k:k + 2]
    out = open(args[0], "wb")
    target = int(float(args[1]) if len(args) > 1 else 100) << 20
    if "--sched" in sys.argv[1:]:
        written, frames, steps = sched_main(out, target)
        out.close()
        print("%s: %.1f MB, %d frames, %d switches" % (args[0], written / 1048576, frames, steps))
        return
    pid, rt = 4242, 4260
    tree = field(1, uint(1, pid) + field(3, b"com.bench.app"))
    tree += field(2, uint(1, rt) + field(2, b"RenderThread") + uint(3, pid))
    out.write(field(1, field(2, tree) + uint(8, 1)))
    written = 0
    ts = START_NS
    frame = 0
    cpu = 0
    while written < target:
        evs = []
        while len(evs) < 200:
            t0 = ts
            evs.append(print_ev(t0, pid, "B|%d|Choreographer#doFrame %d" % (pid, frame)))
            evs.append(print_ev(t0 + 100_000, pid, "B|%d|traversal" % pid))
            evs.append(print_ev(t0 + 200_000, pid, "B|%d|measure" % pid))
            evs.append(sched_ev(t0 + 250_000, pid))
            evs.append(print_ev(t0 + 1_200_000, pid, "E|%d" % pid))
            evs.append(print_ev(t0 + 1_300_000, pid, "B|%d|draw" % pid))
            evs.append(print_ev(t0 + 3_000_000, pid, "E|%d" % pid))
            evs.append(print_ev(t0 + 3_100_000, pid, "E|%d" % pid))
            evs.append(print_ev(t0 + 4_000_000 + (frame % 7) * 1_000_000, pid, "E|%d" % pid))
            evs.append(print_ev(t0 + 5_000_000, rt, "B|%d|DrawFrame" % pid))
            evs.append(print_ev(t0 + 6_000_000, rt, "C|%d|queued|%d" % (pid, frame % 3)))
            evs.append(print_ev(t0 + 9_000_000, rt, "E|%d" % pid))
            ts += 16_666_667
            frame += 1
        pkt = field(1, field(1, uint(1, cpu) + b"".join(evs)) + uint(10, 1))
        out.write(pkt)
        written += len(pkt)
        cpu = (cpu + 1) % 4
    out.close()
    print("%s: %.1f MB, %d frames" % (args[0], written / 1048576, frame))


if __name__ == "__main__":
    main()
