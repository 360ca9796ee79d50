#!/usr/bin/env python3
"""ftwalk.py - an independent oracle for Perfetto FrameTimeline events (hand checks).

Walks TracePacket.frame_timeline_event (field 76) with only the field numbers
of frame_timeline_event.proto: expected/actual display and surface frame
starts (1..4) and frame ends (5). Prints, per layer, the actual surface frames,
the distinct tokens, and the jank_type bits seen.

With --metric, also per layer the figures of Perfetto's
android_frame_timeline_metric (android_frame_timeline_metric.sql), computed
here from the raw events: surface frames that ended (frame_end of their
cookie), one per (pid, layer, token); missed (an app bit 64|4096, a
SurfaceFlinger bit 2|4|8|16|32, or Dropped Frame 1024), missed_app,
missed_sf, dropped; durations (end - start, dropped frames left out) as
linear-interpolated percentiles, max, slow (> 1000/60 ms) and frozen
(> 700 ms).

With --display, SurfaceFlinger's actual display frames (ActualDisplayFrameStart,
event field 2: cookie 1, pid 3, jank_type 7) per pid: those that ended
(frame_end of their cookie), their jank_type bits, durations (end - start)
as above, and vitals' slow (> 16 ms).

Usage: ftwalk.py [--metric | --display] TRACE
"""
import collections
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pfwalk import fields  # noqa: E402


def pct(v, p):
    if not v:
        return None
    v = sorted(v)
    r = (len(v) - 1) * p / 100.0
    lo = int(r)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (r - lo)


def events(data):
    """(ts, event field, body) of every FrameTimelineEvent, in file order."""
    for f, wt, pkt in fields(data):
        if f != 1 or wt != 2:
            continue
        ts = ev = None
        for pf, pwt, v in fields(pkt):
            if pf == 8:
                ts = v
            elif pf == 76:
                ev = v
        if ev is None:
            continue
        for ef, ewt, body in fields(ev):
            yield ts, ef, body


def metric(data):
    starts, ends = {}, {}
    for ts, ef, body in events(data):
        d = dict((a, x) for a, _, x in fields(body))
        if ef == 4:
            starts[d.get(1)] = (d, ts)
        elif ef == 5 and d.get(1) in starts and d.get(1) not in ends:
            ends[d.get(1)] = ts
    layers = collections.OrderedDict()
    seen = set()
    for ck, (d, ts) in sorted(starts.items(), key=lambda kv: ends.get(kv[0], 0)):
        if ck not in ends:
            continue
        layer = (d.get(5) or b"").decode("utf-8", "replace")
        key = (d.get(4), layer, d.get(2))
        if key in seen:
            continue
        seen.add(key)
        j = d.get(9, 0)
        L = layers.setdefault(layer, {"frames": 0, "missed": 0, "missed_app": 0, "missed_sf": 0,
                                      "dropped": 0, "durs": []})
        L["frames"] += 1
        app, sf, drop = bool(j & (64 | 4096)), bool(j & (2 | 4 | 8 | 16 | 32)), bool(j & 1024)
        L["missed"] += app or sf or drop
        L["missed_app"] += app
        L["missed_sf"] += sf
        L["dropped"] += drop
        if not drop:
            L["durs"].append((ends[ck] - ts) / 1e6)
    out = {}
    for name, L in layers.items():
        v = L.pop("durs")
        L.update({"p50": pct(v, 50), "p90": pct(v, 90), "p95": pct(v, 95), "p99": pct(v, 99),
                  "max": max(v) if v else None, "slow": sum(1 for x in v if x > 1000.0 / 60),
                  "frozen": sum(1 for x in v if x > 700)})
        out[name] = L
    return out


def display(data):
    starts, ends = {}, {}
    for ts, ef, body in events(data):
        d = dict((a, x) for a, _, x in fields(body))
        if ef == 2:
            starts[d.get(1)] = (d, ts)
        elif ef == 5 and d.get(1) in starts and d.get(1) not in ends:
            ends[d.get(1)] = ts
    out = {}
    for ck, (d, ts) in starts.items():
        P = out.setdefault(str(d.get(3)), {"starts": 0, "ended": 0, "jank_type": collections.Counter(), "durs": []})
        P["starts"] += 1
        if ck in ends:
            P["ended"] += 1
            P["jank_type"][str(d.get(7, 0))] += 1
            P["durs"].append((ends[ck] - ts) / 1e6)
    for P in out.values():
        v = P.pop("durs")
        P["jank_type"] = dict(P["jank_type"])
        P.update({"p50": pct(v, 50), "min": min(v) if v else None, "max": max(v) if v else None,
                  "sum": round(sum(v), 6), "vitals_slow": sum(1 for x in v if x > 16)})
    return out


def main():
    if sys.argv[1] == "--display":
        print(json.dumps(display(open(sys.argv[2], "rb").read()), indent=1))
        return
    if sys.argv[1] == "--metric":
        print(json.dumps(metric(open(sys.argv[2], "rb").read()), indent=1))
        return
    data = open(sys.argv[1], "rb").read()
    kinds = collections.Counter()
    actual = []      # (pid, layer, token, jank_type, present_type, ts)
    for ts, ef, body in events(data):
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
