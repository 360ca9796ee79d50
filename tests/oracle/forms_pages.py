#!/usr/bin/env python3
"""forms_pages.py - page draw/load times from an AndroidGodEye monitor capture
equal those of the capture it came from.

Generates the same seeded data as a godeye capture and as AndroidGodEye
monitor messages (tests/oracle/gencapture.py --as godeye-monitor), ingests each
into its own database and compares `godeye pages`: the same page instances,
the same draw and load times to within 1 ms (GodEye's callbacks carry whole
milliseconds), null exactly where the other is null.
"""
import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile


def pages(godeye, db, path):
    env = dict(os.environ, GODEYE_DB=db)
    subprocess.run([godeye, "ingest", "-q", path], check=True, env=env)
    out = subprocess.run([godeye, "pages", "--format", "json"], check=True, env=env,
                         capture_output=True, text=True).stdout
    return {(p["page"], p["hash"]): p for p in json.loads(out)}


def main():
    bin_dir, gen = sys.argv[1], sys.argv[2:]
    here = os.path.dirname(os.path.abspath(__file__))
    script = os.path.join(here, "gencapture.py")
    tmp = tempfile.mkdtemp(prefix="godeye-forms-")
    atexit.register(shutil.rmtree, tmp, True)  # the suite leaves no temporary folder
    cap, mon = os.path.join(tmp, "cap.jsonl"), os.path.join(tmp, "mon.jsonl")
    subprocess.run([sys.executable, script, *gen, "--out", cap], check=True)
    subprocess.run([sys.executable, script, *gen, "--as", "godeye-monitor", "--out", mon], check=True)
    godeye = os.path.join(bin_dir, "godeye")
    a = pages(godeye, os.path.join(tmp, "a.db"), cap)
    b = pages(godeye, os.path.join(tmp, "b.db"), mon)
    problems = []
    if set(a) != set(b):
        problems.append(f"page instances differ: {sorted(set(a) ^ set(b))}")
    drawn = 0
    for k in sorted(set(a) & set(b)):
        for f in ("draw_ms", "load_ms", "type"):
            x, y = a[k][f], b[k][f]
            if (x is None) != (y is None) or (isinstance(x, float) and abs(x - y) > 1.0) or \
                    (isinstance(x, str) and x != y):
                problems.append(f"{k}: {f} {y} from the monitor capture, {x} from the capture")
        drawn += a[k]["draw_ms"] is not None
    if drawn == 0:
        problems.append("no page has a draw time: the case proves nothing")
    for p in problems:
        print(p)
    print(f"{len(a)} pages compared, {drawn} with draw times")
    print(f"{len(a) - len(problems)} passed, {len(problems)} failed")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
