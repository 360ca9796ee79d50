#!/usr/bin/env python3
"""diff_floor.py - the effect floor of `godeye diff` (#53 item 9): at fleet
scale a group whose durations moved by ~1% and whose rate moved by 6% has
p far below alpha on both tests, yet is "same" (below the documented floor:
a shift of 5% of the base median, a rate 10% apart); a group 33% longer
and one 50% more frequent stay regressed.  Fails on a rule that reads p
alone."""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

APP = "com.example.shop"
MINUTES = 120.0


def capture(path, version, start, groups, seed):
    rnd = random.Random(seed)
    blocks = []
    for name, count, med in groups:
        for _ in range(count):
            blocks.append((name, 100.0 + rnd.lognormvariate(0, 0.05) * med))
    rnd.shuffle(blocks)
    span = MINUTES * 60000.0
    ev = [{"type": "meta", "app": APP, "version_name": version, "version_code": 1, "device": "Pixel 7",
           "api_level": 34, "pid": 100, "main_tid": 100,
           "config": {"short_block_ms": 100, "long_block_ms": 500}},
          {"type": "mark", "ts": start, "name": "start"}]
    gap = (span - sum(d for _, d in blocks) - 1000.0) / (len(blocks) + 1)
    assert gap > 0
    t = start + gap
    for name, d in blocks:
        ev.append({"type": "dispatch", "ts": round(t, 3), "dur": round(d, 3),
                   "msg": ">>>>> Dispatching to Handler (android.os.Handler) {1} null: 0"})
        ev.append({"type": "stack", "ts": round(t + d / 2, 3), "thread": "main",
                   "frames": [f"{APP}.feed.{name}.run({name}.java:10)",
                              "android.os.Looper.loop(Looper.java:223)"]})
        t += d + gap
    ev.append({"type": "mark", "ts": start + span, "name": "end"})
    with open(path, "w", encoding="utf-8") as f:
        for e in ev:
            f.write(json.dumps(e) + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "g.db")
        base = os.path.join(tmp, "base.jsonl")
        head = os.path.join(tmp, "head.jsonl")
        # Steady: 200 -> 204 ms median part (~1.3% of its ~300 ms median), 8000 -> 8480 a side
        capture(base, "1.0", 1700000000000, [("Steady", 8000, 200), ("Moved", 200, 200),
                                             ("Busier", 300, 200)], 1)
        capture(head, "2.0", 1700100000000, [("Steady", 8480, 204), ("Moved", 200, 300),
                                             ("Busier", 450, 200)], 2)
        env = {**os.environ, "GODEYE_DB": db}
        god = os.path.join(a.bin, "godeye")
        subprocess.run([god, "ingest", "-q", base, head], env=env, check=True)
        p = subprocess.run([god, "diff", "version=1.0", "version=2.0", "--format", "json"], env=env,
                           capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f"diff: exit {p.returncode}: {p.stderr}")
        rows = {r["name"].split(".feed.")[-1].split(".")[0]: r for r in json.loads(p.stdout)
                if r["kind"] == "group" and r["name"]}
        problems = []
        s = rows.get("Steady")
        if not s:
            problems.append("no Steady row")
        else:
            if s["status"] != "same":
                problems.append(f"Steady: {s['status']}, expected same (p {s['p_value']}, "
                                f"rate p {s['rate_p_value']}, shift {s['shift_ms']})")
            if not (s["p_value"] < 1e-6 and s["rate_p_value"] < 0.01):
                problems.append(f"Steady: p {s['p_value']}, rate p {s['rate_p_value']}: the scenario "
                                "no longer tests the floor (both must be below alpha)")
            if not (s["note"] and "effect floor" in s["note"]):
                problems.append(f"Steady: note {s['note']!r}")
            if not (2.0 < s["shift_ms"] < 6.0):
                problems.append(f"Steady: shift {s['shift_ms']} ms, expected about 4")
        for name in ("Moved", "Busier"):
            r = rows.get(name)
            if not r or r["status"] != "regressed":
                problems.append(f"{name}: {r and r['status']}, expected regressed")
        for pr in problems:
            print(pr)
        sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
