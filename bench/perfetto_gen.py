#!/usr/bin/env python3
"""perfetto_gen.py - writes a synthetic Perfetto trace of about SIZE MB
(default 100) for bench/perfetto_bench.sh: a process tree, then ftrace
bundles (4 CPUs, each bundle 200 events) of atrace print markers: on the
app's main thread a Choreographer#doFrame every 16.6 ms with nested
traversal/measure/draw slices, RenderThread DrawFrame slices, counters, and
sched_switch events in between.

Usage: perfetto_gen.py OUT [SIZE_MB]
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


def main():
    out = open(sys.argv[1], "wb")
    target = int(float(sys.argv[2]) if len(sys.argv) > 2 else 100) << 20
    pid, rt = 4242, 4260
    tree = field(1, uint(1, pid) + field(3, b"com.bench.app"))
    tree += field(2, uint(1, rt) + field(2, b"RenderThread") + uint(3, pid))
    out.write(field(1, field(2, tree) + uint(8, 1)))
    written = 0
    ts = 10_000_000_000
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
    print("%s: %.1f MB, %d frames" % (sys.argv[1], written / 1048576, frame))


if __name__ == "__main__":
    main()
