#!/usr/bin/env python3
"""gendiff.py - writes a godeye JSON Lines capture for the `diff`/`check`
tests: block groups with chosen counts and duration distributions, one
group per app frame, plus pages, launches and frames drawn from the same
distributions in every role.

Roles (the scenario of tests/oracle/diff_check.py):
  base: Stable1, Stable2, Regress (p50 ~200 ms), Improve (~600 ms), Gone
  head: Stable1, Stable2, Regress (~400 ms), Improve (~300 ms), New
Durations are 100 ms + a log-normal part, so every dispatch is a block at
the default 100 ms threshold; counts are exact and the capture lasts
exactly --minutes, so the rates of the stable groups are equal.
--count N gives every group, page class, launch kind and frame window N
events instead (the small-sample pairs: nothing may be "same").
"""
import argparse
import json
import random
import sys

APP = "com.example.shop"

# name: (count, base median of the log-normal part, head median), None = absent
GROUPS = {
    "Stable1": (60, 100, 100),
    "Stable2": (40, 600, 600),
    "Regress": (50, 100, 300),
    "Improve": (50, 500, 200),
    "Gone": (30, 150, None),
    "New": (30, None, 150),
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--role", choices=("base", "head"), required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--version", required=True, help="meta.version_name")
    ap.add_argument("--minutes", type=float, default=10)
    ap.add_argument("--start", type=float, default=1700000000000.0, help="epoch ms of the start")
    ap.add_argument("--count", type=int, help="N events in every group, page, launch kind and window")
    ap.add_argument("--out", default="-")
    a = ap.parse_args()
    rnd = random.Random(a.seed * 2 + (a.role == "head"))
    t0, span = a.start, a.minutes * 60000.0
    blocks = []
    for name, (count, mb, mh) in GROUPS.items():
        m = mb if a.role == "base" else mh
        if m is None:
            continue
        for _ in range(a.count or count):
            blocks.append((name, 100.0 + rnd.lognormvariate(0, 0.35) * m))
    rnd.shuffle(blocks)
    events = [{"type": "meta", "app": APP, "version_name": a.version, "version_code": 1,
               "device": "Pixel 7", "api_level": 34, "pid": 100, "main_tid": 100,
               "config": {"short_block_ms": 100, "long_block_ms": 500}}]
    events.append({"type": "mark", "ts": t0, "name": "start"})
    # blocks one after another with equal shares of the free time between
    busy = sum(d for _, d in blocks)
    gap = (span - busy - 60000.0) / (len(blocks) + 1)
    assert gap > 0
    t = t0 + gap
    for name, d in blocks:
        events.append({"type": "dispatch", "ts": round(t, 3), "dur": round(d, 3),
                       "msg": ">>>>> Dispatching to Handler (android.os.Handler) {1} null: 0"})
        for k in range(1, 3):
            events.append({"type": "stack", "ts": round(t + d * k / 3, 3), "thread": "main",
                           "frames": [f"{APP}.feed.{name}.run({name}.java:{10 + k})",
                                      "android.os.Handler.handleCallback(Handler.java:938)",
                                      "android.os.Looper.loop(Looper.java:223)"]})
        t += d + gap
    # pages, launches and frames: the same distributions in both roles
    tp = t0 + span - 55000.0
    for i in range(a.count or 12):
        h = 1000 + i
        page = {"type": "activity", "class": f"{APP}.DetailActivity", "hash": h, "parent": None}
        draw = 150 + rnd.lognormvariate(0, 0.3) * 200
        load = draw + rnd.lognormvariate(0, 0.3) * 400
        events.append({"type": "lifecycle", "ts": round(tp, 3), "page": page, "event": "ON_CREATE"})
        events.append({"type": "lifecycle", "ts": round(tp + draw, 3), "page": page, "event": "ON_DRAW"})
        events.append({"type": "lifecycle", "ts": round(tp + load, 3), "page": page, "event": "ON_LOAD"})
        tp += 2000
    for i in range(a.count or 6):
        events.append({"type": "startup", "ts": t0 + 1000 + i * 10, "activity": f"{APP}.MainActivity",
                       "startup_kind": "cold", "total_ms": round(800 + rnd.lognormvariate(0, 0.2) * 600, 1),
                       "source": "logcat"})
    tf = t0 + span - 25000.0
    for i in range(a.count or 1000):
        d = 8 + rnd.lognormvariate(0, 0.3) * 5 if rnd.random() > 0.05 else 20 + rnd.random() * 40
        events.append({"type": "frame", "ts": round(tf, 3), "dur": round(d, 3)})
        tf += max(d, 16.7)
    events.append({"type": "mark", "ts": t0 + span, "name": "end"})
    out = sys.stdout if a.out == "-" else open(a.out, "w", encoding="utf-8")
    for e in events:
        out.write(json.dumps(e) + "\n")
    if out is not sys.stdout:
        out.close()


if __name__ == "__main__":
    main()
