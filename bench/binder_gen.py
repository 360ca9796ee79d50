#!/usr/bin/env python3
"""binder_gen.py - writes a synthetic Perfetto trace for bench/growth.sh
(#53 item 6): an app's main thread runs K x FRAMES Choreographer#doFrame
slices of 120 ms (each a block), and during each makes CALLS synchronous
binder calls to system_server (binder_transaction, its receipt, the reply
and its receipt: about 1.7 ms each), and one call from 1 ms before the
frame into it (running at the block's start), so that the binder time of
each block is looked up among ever more calls of its thread.

Usage: binder_gen.py OUT K [--frames N] [--calls C]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from perfetto_gen import binder_ev, binder_rx_ev, field, print_ev, uint  # noqa: E402

APP, SERVER, SERVER_TID = 4242, 1000, 1010


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("k", type=int)
    ap.add_argument("--frames", type=int, default=500)
    ap.add_argument("--calls", type=int, default=8)
    a = ap.parse_args()
    tree = field(1, uint(1, APP) + field(3, b"com.bench.app"))
    tree += field(1, uint(1, SERVER) + field(3, b"system_server"))
    tree += field(2, uint(1, SERVER_TID) + field(2, b"binder:1000_1") + uint(3, SERVER))
    out = bytearray(field(1, field(2, tree) + uint(8, 1)))
    ts, debug_id = 10_000_000_000, 1
    for f in range(a.k * a.frames):
        evs = [(ts, print_ev(ts, APP, "B|%d|Choreographer#doFrame %d" % (APP, f))),
               (ts + 120_000_000, print_ev(ts + 120_000_000, APP, "E|%d" % APP))]

        def call(t, dur):
            nonlocal debug_id
            evs.append((t, binder_ev(t, APP, debug_id, SERVER, SERVER_TID, 0)))
            evs.append((t + 20_000, binder_rx_ev(t + 20_000, SERVER_TID, debug_id)))
            evs.append((t + dur - 200_000, binder_ev(t + dur - 200_000, SERVER_TID, debug_id + 1, APP, APP, 1)))
            evs.append((t + dur, binder_rx_ev(t + dur, APP, debug_id + 1)))
            debug_id += 2
        call(ts - 1_000_000, 2_000_000)
        for c in range(a.calls):
            call(ts + 1_000_000 + c * 10_000_000, 1_700_000)
        evs.sort(key=lambda e: e[0])
        out += field(1, field(1, uint(1, 0) + b"".join(e for _, e in evs)) + uint(10, 1))
        ts += 130_000_000
    open(a.out, "wb").write(out)


if __name__ == "__main__":
    main()
