#!/usr/bin/env python3
"""diffstacks_gen.py OUTDIR - captures for `godeye diff --stacks` (#52).

Two sets of one-minute captures (capture format), six a side:
  calls-{base,head}-N.jsonl  method traces: Main.run calls A.work, B.slow and
      C.draw ten times a capture; in head B.slow takes 120 ms more a call
      (+1200 ms a capture, +7200 ms over the six), the rest the same give
      or take a jitter of up to 2 ms a call (deterministic, seed 52).
  samples-{base,head}-N.jsonl  stack samples every 10 ms (dump_interval_ms
      10): 300 under Parser.parse and 200 under Render.draw a capture in
      base; in head Parser.parse has 100 samples more (+1000 ms a capture,
      +6000 ms over the six) and its line numbers moved (12 -> 14), as
      they do between two builds.
Each capture spans exactly 60 s (a CPU line at its start and its end).
"""
import json
import os
import random
import sys

T0 = 1700000000000


def meta(f, version, session, interval=None):
    cfg = {"short_block_ms": 100, "long_block_ms": 500, "concern_packages": ["com.example.shop"]}
    if interval:
        cfg["dump_interval_ms"] = interval
    f.write(json.dumps({"type": "meta", "app": "com.example.shop", "pid": 100, "main_tid": 100,
                        "session": session, "version_name": version, "config": cfg}) + "\n")


def cpu(f, ts):
    f.write(json.dumps({"type": "cpu", "ts": ts, "stat": "cpu  4473 1068 4565 21155 559 0 29 0 0 0"}) + "\n")


def method(f, ts, phase, cls, name):
    f.write(json.dumps({"type": "method", "ts": ts, "tid": 100, "phase": phase,
                        "class": "com/example/shop/" + cls, "method": name, "desc": "()V"}) + "\n")


def calls(path, version, head, n, rnd):
    start = T0 + n * 3600000
    with open(path, "w") as f:
        meta(f, version, f"calls-{version}-{n}")
        cpu(f, start)
        ts = start + 1000
        for _ in range(10):
            method(f, ts, "enter", "Main", "run")
            t = ts + 1
            for cls, name, ms in (("A", "work", 100), ("B", "slow", 200 + (120 if head else 0)), ("C", "draw", 50)):
                d = ms + rnd.randint(-2, 2)
                method(f, t, "enter", cls, name)
                method(f, t + d, "exit", cls, name)
                t += d + 1
            method(f, t, "exit", "Main", "run")
            ts += 5000
        cpu(f, start + 60000)


def samples(path, version, head, n, rnd):
    start = T0 + n * 3600000
    line = 14 if head else 12
    with open(path, "w") as f:
        meta(f, version, f"samples-{version}-{n}", interval=10)
        cpu(f, start)
        ts = start + 1000
        parse = 300 + (100 if head else 0) + rnd.randint(-3, 3)
        draw = 200 + rnd.randint(-3, 3)
        for inner, k in ((f"com.example.shop.Parser.parse(Parser.java:{line})", parse),
                         ("com.example.shop.Render.draw(Render.java:40)", draw)):
            for _ in range(k):
                frames = [inner, "com.example.shop.Main.run(Main.java:7)", "android.os.Looper.loop(Looper.java:193)"]
                f.write(json.dumps({"type": "stack", "ts": ts, "tid": 100, "thread": "main", "frames": frames}) + "\n")
                ts += 10
        cpu(f, start + 60000)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rnd = random.Random(52)
    for n in range(6):
        for head in (0, 1):
            side = "head" if head else "base"
            calls(os.path.join(out, f"calls-{side}-{n}.jsonl"), "1.1" if head else "1.0", head, n, rnd)
            samples(os.path.join(out, f"samples-{side}-{n}.jsonl"), "2.1" if head else "2.0", head, n, rnd)


main()
