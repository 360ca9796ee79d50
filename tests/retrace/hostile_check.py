#!/usr/bin/env python3
"""hostile_check.py GODEYE - a hostile mapping (#25 item 3): one obfuscated
method standing for an inline chain of 6,000 members (~240 KB of mapping),
and a sample of 700 frames of it.  Unbounded, that is 4.2M frames in one
sample.  Checks the caps and their count:

  godeye retrace: one frame prints GD_RETRACE_MAX_FRAMES = 256 lines
  godeye ingest --mapping: the stored sample has GD_RETRACE_MAX_STACK =
    4096 frames (128 input frames x GD_RETRACE_MAX_INLINE = 32, #53 item
    8), and "retrace"."cut" counts what was left out: 128 x (6000 - 32)
    expanded frames + the 572 input frames after the cap = 764,476"""
import json
import os
import subprocess
import sys
import tempfile

CHAIN, DEPTH = 6000, 700
MAX_FRAMES, MAX_STACK, MAX_INLINE = 256, 4096, 32


def main():
    godeye = sys.argv[1]
    with tempfile.TemporaryDirectory() as d:
        mp = os.path.join(d, "mapping.txt")
        with open(mp, "w") as f:
            f.write("com.example.Hostile -> a:\n")
            for i in range(CHAIN):
                f.write("    1:1:void inlined%d():%d -> a\n" % (i, i + 1))
        size = os.path.getsize(mp)
        tr = os.path.join(d, "trace.txt")
        with open(tr, "w") as f:
            f.write("java.lang.RuntimeException\n\tat a.a(SourceFile:1)\n")
        p = subprocess.run([godeye, "retrace", "--mapping", mp, tr], capture_output=True, text=True)
        lines = p.stdout.splitlines()
        ok = True
        if p.returncode != 0 or len(lines) != 1 + MAX_FRAMES:
            print("FAIL: retrace printed %d lines (exit %d), want %d" % (len(lines), p.returncode, 1 + MAX_FRAMES))
            ok = False
        cap = os.path.join(d, "cap.jsonl")
        with open(cap, "w") as f:
            f.write(json.dumps({"type": "meta", "app": "com.example", "pid": 1, "main_tid": 1}) + "\n")
            f.write(json.dumps({"type": "looper", "ts": 1000, "msg": ">>>>> Dispatching to Handler (android.os.Handler) {a1} a@1: 0"}) + "\n")
            f.write(json.dumps({"type": "stack", "ts": 1300, "thread": "main",
                                "frames": ["a.a(SourceFile:1)"] * DEPTH}) + "\n")
            f.write(json.dumps({"type": "looper", "ts": 3000, "msg": "<<<<< Finished to Handler (android.os.Handler) {a1} a@1"}) + "\n")
        db = os.path.join(d, "g.db")
        p = subprocess.run([godeye, "--db", db, "ingest", "--format", "json", "--mapping", mp, cap],
                           capture_output=True, text=True)
        if p.returncode != 0:
            print("FAIL: ingest exit %d: %s" % (p.returncode, p.stderr))
            return 1
        rt = json.loads(p.stdout)[0]["retrace"]
        kept = MAX_STACK // MAX_INLINE  # input frames expanded before the stack cap
        want_cut = kept * (CHAIN - MAX_INLINE) + (DEPTH - kept)
        if rt["cut"] != want_cut:
            print("FAIL: cut %d, want %d (%s)" % (rt["cut"], want_cut, rt))
            ok = False
        q = subprocess.run([godeye, "--db", db, "sql", "select count(*) as n from callsite"],
                           capture_output=True, text=True)
        n = int(q.stdout.split()[1])
        if n != MAX_STACK:
            print("FAIL: the stored sample has %d frames, want %d" % (n, MAX_STACK))
            ok = False
        if ok:
            print("ok: a %d-byte hostile mapping: %d lines for one frame, %d frames stored for a %d-frame sample, %d cut"
                  % (size, MAX_FRAMES, n, DEPTH, rt["cut"]))
        return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
