#!/usr/bin/env python3
"""ftgen.py - writes a Perfetto trace of FrameTimeline events described in JSON.

The JSON (tests/fixtures/perfetto/*.json) lists "processes" ([pid, name],
written as one ProcessTree packet at "process_ts"), "threads" ([tid, pid,
name], another), "atrace" ([ts, tid, pid, "B", name], [ts, tid, pid,
"E"] or [ts, tid, pid, "RAW", marker]: ftrace print events in one bundle, in the order listed),
"empty_first" (true: the trace begins with an empty packet 0a 00), "expected" surface
frames ({ts, end, cookie, token, pid, layer}) and actual "frames" ({ts,
end, cookie, token, display_frame_token, pid, layer, present, jank}); each
frame is a start packet then an end packet, in the order listed (as
Perfetto's own diff-test generators write them); "display" lists
SurfaceFlinger's display-frame events ({event: expected, actual or end,
ts, cookie, token, pid, present_type, on_time_finish, gpu_composition,
jank_type, prediction_type}), one packet each, in the order listed.  A lone surrogate
U+DC80..U+DCFF in a string is written as the one byte 80..ff (Python's
surrogateescape), so a spec can hold names that are not UTF-8.  Field numbers are those of
TracePacket (timestamp 8, trusted_packet_sequence_id 10, process_tree 2,
frame_timeline_event 76, ftrace_events 1 -> event 2 -> timestamp 1, pid 2, print 3 -> buf 2)
and FrameTimelineEvent (expected_display_frame_start 1,
actual_display_frame_start 2, expected_surface_frame_start 3,
actual_surface_frame_start 4, frame_end 5).

Usage: ftgen.py SPEC.json OUT.perfetto-trace
"""
import json
import sys


def varint(v):
    v &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def fv(num, v):
    return varint(num << 3) + varint(v)


def fl(num, data):
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogateescape")  # "\udcff" -> byte ff
    return varint(num << 3 | 2) + varint(len(data)) + data


def packet(ts, body):
    return fl(1, fv(8, ts) + fv(10, 1) + body)


def main():
    spec = json.load(open(sys.argv[1]))
    out = bytearray()
    if spec.get("processes"):
        tree = b"".join(fl(1, fv(1, pid) + fv(2, 1) + fl(3, name)) for pid, name in spec["processes"])
        out += packet(spec.get("process_ts", 0), fl(2, tree))
    if spec.get("threads"):
        tree = b"".join(fl(2, fv(1, tid) + fl(2, name) + fv(3, pid)) for tid, pid, name in spec["threads"])
        out += packet(spec.get("process_ts", 0), fl(2, tree))
    if spec.get("atrace") or spec.get("sched"):
        # one FtraceEventBundle (cpu 0): print events "B|pid|name" / "E|pid",
        # sched_switch (4: prev_comm 1, prev_pid 2, prev_state 4, next_comm 5,
        # next_pid 6) from "sched" ([ts, prev_pid, prev_comm, next_pid,
        # next_comm(, prev_state)], prev_state absent: 0, runnable, as
        # synth_common writes it); "sort": true orders them all by time (stable), as Perfetto's
        # sorter does
        evs = []
        for a in spec.get("atrace", []):
            if a[3] == "RAW":
                buf = a[4] + "\n"
            else:
                buf = "B|%d|%s\n" % (a[2], a[4]) if a[3] == "B" else "E|%d\n" % a[2]
            evs.append((a[0], fl(2, fv(1, a[0]) + fv(2, a[1]) + fl(3, fl(2, buf)))))
        for s in spec.get("sched", []):
            ts, ppid, pcomm, npid, ncomm = s[:5]
            sw = fl(1, pcomm) + fv(2, ppid) + fl(5, ncomm) + fv(6, npid)
            if len(s) > 5:  # a prev_state: 1 S, 2 D (synth_common's numbers)
                sw += fv(4, s[5])
            evs.append((ts, fl(2, fv(1, ts) + fv(2, 0) + fl(4, sw))))
        if spec.get("sort"):
            evs.sort(key=lambda e: e[0])
        out += fl(1, fl(1, fv(1, 0) + b"".join(e[1] for e in evs)) + fv(10, 1))
    for e in spec.get("expected", []):
        start = fv(1, e["cookie"]) + fv(2, e["token"]) + fv(3, e.get("display_frame_token", 0)) + \
            fv(4, e["pid"]) + fl(5, e.get("layer", ""))
        out += packet(e["ts"], fl(76, fl(3, start)))
        out += packet(e["end"], fl(76, fl(5, fv(1, e["cookie"]))))
    for f in spec.get("frames", []):
        start = fv(1, f["cookie"]) + fv(2, f["token"]) + fv(3, f.get("display_frame_token", 0)) + \
            fv(4, f["pid"]) + fl(5, f.get("layer", "")) + fv(6, f.get("present", 1)) + \
            fv(9, f.get("jank", 1))
        out += packet(f["ts"], fl(76, fl(4, start)))
        if f.get("end") is not None:
            out += packet(f["end"], fl(76, fl(5, fv(1, f["cookie"]))))
    for d in spec.get("display", []):
        # SurfaceFlinger's display frames, in the order listed: expected
        # (ExpectedDisplayFrameStart 1: cookie 1, token 2, pid 3), actual
        # (ActualDisplayFrameStart 2: also present_type 4, on_time_finish 5,
        # gpu_composition 6, jank_type 7, prediction_type 8), end (FrameEnd 5)
        if d["event"] == "end":
            out += packet(d["ts"], fl(76, fl(5, fv(1, d["cookie"]))))
            continue
        body = fv(1, d["cookie"]) + fv(2, d["token"]) + fv(3, d["pid"])
        if d["event"] == "actual":
            for num, key in ((4, "present_type"), (5, "on_time_finish"), (6, "gpu_composition"),
                             (7, "jank_type"), (8, "prediction_type")):
                body += fv(num, d[key])
        out += packet(d["ts"], fl(76, fl(1 if d["event"] == "expected" else 2, body)))
    if spec.get("empty_first"):
        out = bytearray(b"\x0a\x00") + out  # an empty first packet, as Perfetto's test traces begin
    open(sys.argv[2], "wb").write(bytes(out))


if __name__ == "__main__":
    main()
