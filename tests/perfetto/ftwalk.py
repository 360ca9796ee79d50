#!/usr/bin/env python3
"""ftwalk.py - an independent oracle for Perfetto FrameTimeline events (hand checks).

Walks TracePacket.frame_timeline_event (field 76) with only the field numbers
of frame_timeline_event.proto: expected/actual display and surface frame
starts (1..4) and frame ends (5). Prints, per layer, the actual surface frames,
the distinct tokens, and the jank_type bits seen.

Usage: ftwalk.py TRACE
"""
import collections
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pfwalk import fields  # noqa: E402


def main():
    data = open(sys.argv[1], "rb").read()
    kinds = collections.Counter()
    actual = []      # (pid, layer, token, jank_type, present_type, ts)
    for f, wt, pkt in fields(data):
        if f != 1 or wt != 2:
            continue
        ts = None
        ev = None
        for pf, pwt, v in fields(pkt):
            if pf == 8:
                ts = v
            elif pf == 76:
                ev = v
        if ev is None:
            continue
        for ef, ewt, body in fields(ev):
            kinds[ef] += 1
            if ef == 4:   # ActualSurfaceFrameStart
                d = {}
                for a, _, x in fields(body):
                    d[a] = x
                actual.append((d.get(4), (d.get(5) or b"").decode("utf-8", "replace"),
                               d.get(2), d.get(9, 0), d.get(6, 0), ts))
    out = {"events": dict((str(k), n) for k, n in sorted(kinds.items())),
           "actual_surface_frames": len(actual)}
    layers = collections.defaultdict(list)
    for a in actual:
        layers[a[1]].append(a)
    out["layers"] = {}
    for name, fr in layers.items():
        toks = collections.OrderedDict()
        for a in fr:
            toks.setdefault(a[2], []).append(a)
        janks = collections.Counter(a[3] for a in fr)
        out["layers"][name] = {"frames": len(fr), "tokens": len(toks), "pid": fr[0][0],
                               "jank_type": dict((str(k), n) for k, n in sorted(janks.items())),
                               "dup_tokens": sum(1 for t in toks.values() if len(t) > 1)}
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
