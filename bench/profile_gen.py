#!/usr/bin/env python3
"""profile_gen.py - writes a synthetic Perfetto CPU profile for
bench/growth.sh (#53 item 4): one sequence interns NSTACKS callstacks of
DEPTH frames (each frame its own function name, one mapping), then K x
SAMPLES samples of them, so that the samples, a few bytes each, are most
of the input and each names a deep callstack.

--perf: PerfSample packets (traced_perf), one sample a packet; default:
StreamingProfilePackets (the CPU profiler of Chrome's tracing), 100
samples a packet.

Usage: profile_gen.py OUT K [--perf] [--samples N] [--depth D] [--stacks S]
"""
import argparse


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


def packet(body):
    return field(1, body)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("k", type=int)
    ap.add_argument("--perf", action="store_true")
    ap.add_argument("--samples", type=int, default=20000)
    ap.add_argument("--depth", type=int, default=1000)
    ap.add_argument("--stacks", type=int, default=8)
    a = ap.parse_args()
    seq = uint(10, 7)  # trusted_packet_sequence_id
    out = bytearray()
    # the thread of the streaming profile: a thread descriptor (pid 1234,
    # tid 1235, reference_timestamp_us 1000)
    out += packet(uint(8, 1000000) + seq + uint(41, 1)
                  + field(60, uint(1, 42) + field(4, uint(1, 1234) + uint(2, 1235) + uint(6, 1000))))
    # interned data: names, one mapping, frames, callstacks
    nframes = a.depth + a.stacks
    interned = bytearray()
    interned += field(17, uint(1, 1) + field(2, b"system")) + field(17, uint(1, 2) + field(2, b"libapp.so"))
    interned += field(19, uint(1, 1) + uint(7, 1) + uint(7, 2))
    for f in range(1, nframes + 1):
        interned += field(5, uint(1, f) + field(2, b"com.example.Deep.method%d" % f))
        interned += field(6, uint(1, f) + uint(2, f) + uint(3, 1) + uint(4, 0x1000 + f))
    for s in range(1, a.stacks + 1):
        ids = b"".join(varint(f) for f in range(s, s + a.depth))
        interned += field(7, uint(1, s) + field(2, ids))
    out += packet(uint(8, 1000000) + seq + uint(13, 2) + field(12, bytes(interned)))
    n = a.k * a.samples
    if a.perf:
        for i in range(n):
            out += packet(uint(8, 2000000 + i * 1000) + seq + uint(13, 2)
                          + field(66, uint(1, 0) + uint(2, 1234) + uint(3, 1235) + uint(4, i % a.stacks + 1)))
    else:
        per = 100
        for i in range(0, n, per):
            m = min(per, n - i)
            ids = b"".join(varint((i + j) % a.stacks + 1) for j in range(m))
            deltas = b"".join(varint(10) for _ in range(m))
            out += packet(seq + uint(13, 2) + field(54, field(1, ids) + field(2, deltas)))
    open(a.out, "wb").write(out)


if __name__ == "__main__":
    main()
