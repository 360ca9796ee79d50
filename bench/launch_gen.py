#!/usr/bin/env python3
"""launch_gen.py - writes a synthetic Perfetto trace for bench/growth.sh
(#53 item 5): K x LAUNCHES launches of one app (system_server's async
"launching: PKG" slice, its "Start proc: PKG", the app's bindApplication,
activityStart, activityResume, frames, a reportFullyDrawn every other
launch, RenderThread DrawFrames, a broadcast, installd running beside
it), each followed by 20 frames of the running app and the main thread
switched in and out (thread states), so that every launch's phases are looked up among ever more
slices and states of the trace.

Usage: launch_gen.py OUT K [--launches N]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from perfetto_gen import field, print_ev, switch_ev, uint  # noqa: E402

APP, RT, SS, INSTALLD = 4242, 4260, 1000, 800
PKG = "com.bench.app"
NAMES = {0: b"swapper/0", APP: b"com.bench.app", RT: b"RenderThread", SS: b"system_server", INSTALLD: b"installd"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("k", type=int)
    ap.add_argument("--launches", type=int, default=100)
    a = ap.parse_args()
    tree = field(1, uint(1, APP) + field(3, PKG.encode()))
    tree += field(2, uint(1, RT) + field(2, b"RenderThread") + uint(3, APP))
    tree += field(1, uint(1, SS) + field(3, b"system_server"))
    tree += field(1, uint(1, INSTALLD) + field(3, b"/system/bin/installd"))
    out = bytearray(field(1, field(2, tree) + uint(8, 1)))
    ms = 1_000_000
    t = 10_000 * ms
    for n in range(a.k * a.launches):
        evs = []

        def sl(ts, tid, name, dur):
            pid = SS if tid == SS else APP
            evs.append((ts, print_ev(ts, tid, "B|%d|%s" % (pid, name))))
            evs.append((ts + dur, print_ev(ts + dur, tid, "E|%d" % pid)))
        evs.append((t, print_ev(t, SS, "S|%d|launching: %s|%d" % (SS, PKG, n))))
        sl(t + 5 * ms, SS, "Start proc: " + PKG, 20 * ms)
        sl(t + 40 * ms, APP, "bindApplication", 60 * ms)
        sl(t + 110 * ms, APP, "activityStart", 40 * ms)
        sl(t + 155 * ms, APP, "activityResume", 20 * ms)
        sl(t + 180 * ms, APP, "Choreographer#doFrame %d" % n, 30 * ms)
        sl(t + 185 * ms, RT, "DrawFrame %d" % n, 20 * ms)
        sl(t + 100 * ms, SS, "Broadcast dispatched to com.bench.app", 2 * ms)
        if n % 2 == 0:
            sl(t + 230 * ms, APP, "reportFullyDrawn() for " + PKG, 1 * ms)
        evs.append((t + 250 * ms, print_ev(t + 250 * ms, SS, "F|%d|launching: %s|%d" % (SS, PKG, n))))
        # the main thread in and out: a thread state every 10 ms
        for i in range(0, 500, 10):
            evs.append((t + i * ms, switch_ev(t + i * ms, APP if i % 20 else 0, 1, 0 if i % 20 else APP, NAMES)))
        # the running app: 20 frames
        for f in range(20):
            sl(t + 260 * ms + f * 12 * ms, APP, "Choreographer#doFrame %d" % (n * 100 + f), 8 * ms)
            sl(t + 265 * ms + f * 12 * ms, RT, "DrawFrame", 5 * ms)
        evs.sort(key=lambda e: e[0])
        out += field(1, field(1, uint(1, 0) + b"".join(e for _, e in evs)) + uint(10, 1))
        # installd beside the launch, on CPU 1: in and out every 25 ms
        cpu1 = b"".join(switch_ev(t + i * ms, INSTALLD if i % 50 else 0, 1, 0 if i % 50 else INSTALLD, NAMES)
                        for i in range(0, 300, 25))
        out += field(1, field(1, uint(1, 1) + cpu1) + uint(10, 1))
        t += 1200 * ms
    open(a.out, "wb").write(out)


if __name__ == "__main__":
    main()
