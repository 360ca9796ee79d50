#!/usr/bin/env python3
"""oracle_check.py - generated captures against their independently computed blocks.

Generates a capture with tests/oracle/gencapture.py (seeded), ingests it with
godeye into a fresh database and compares `godeye blocks --format json`
with the blocks gencapture.py computed in plain Python from the spec.
Exit 0 when every block matches exactly (times to 1e-6 ms), else 1.

    oracle_check.py --bin DIR [--threshold MS] [--ingest-arg ARG ...] -- GENCAPTURE-ARGS...
"""
import argparse
import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile

FIELDS = ["trace", "pid", "tid", "start_ms", "end_ms", "duration_ms", "thread_ms", "kind",
          "unfinished", "cpu_busy", "samples", "key_frame", "group", "group_rule", "msg"]


def same(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return abs(a - b) <= 1e-6
    return a == b


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--threshold", type=float, default=100.0)
    ap.add_argument("--fields", default=",".join(FIELDS))
    ap.add_argument("--ingest-arg", action="append", default=[])
    ap.add_argument("--min-blocks", type=int, default=1)
    ap.add_argument("gen", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    gen = [x for x in a.gen if x != "--"]
    here = os.path.dirname(os.path.abspath(__file__))
    script = os.path.join(here, "gencapture.py")
    tmp = tempfile.mkdtemp(prefix="godeye-oracle-")
    atexit.register(shutil.rmtree, tmp, True)  # the suite leaves no temporary folder
    out = os.path.join(tmp, "capture")
    if "blockcanary-dir" in gen:
        os.makedirs(out)
    elif "--gzip" in gen:
        out += ".gz"
    oracle = os.path.join(tmp, "oracle.json")
    subprocess.run([sys.executable, script, *gen, "--out", out, "--oracle", oracle,
                    "--oracle-threshold", str(a.threshold)], check=True)
    godeye = os.path.join(a.bin, "godeye")
    env = dict(os.environ, GODEYE_DB=os.path.join(tmp, "g.db"))
    subprocess.run([godeye, "ingest", "-q", *a.ingest_arg, out], check=True, env=env)
    p = subprocess.run([godeye, "blocks", "--threshold", str(a.threshold), "--format", "json"],
                       check=True, env=env, capture_output=True, text=True)
    key = lambda b: (b["start_ms"], b["pid"] if b["pid"] is not None else -1,
                     b["tid"] if b["tid"] is not None else -1)
    got = sorted(json.loads(p.stdout), key=key)
    exp = sorted(json.load(open(oracle)), key=key)
    fields = a.fields.split(",")
    problems = []
    if len(got) != len(exp):
        problems.append(f"{len(got)} blocks, expected {len(exp)}")
    for i, (g, e) in enumerate(zip(got, exp)):
        for k in fields:
            if k in e and not same(g.get(k), e[k]):
                problems.append(f"block {i} (start {e.get('start_ms')}): {k} = {g.get(k)!r}, expected {e[k]!r}")
    if len(exp) < a.min_blocks:
        problems.append(f"only {len(exp)} blocks in the oracle: the case proves nothing")
    for p_ in problems[:40]:
        print(p_)
    print(f"{len(exp)} expected blocks, {len(got)} got, {len(problems)} mismatches")
    print(f"{1 if not problems else 0} passed, {1 if problems else 0} failed")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
