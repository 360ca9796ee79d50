#!/usr/bin/env python3
"""hostile_rss.py GODEYE - memory of a hostile mapping (#53 item 8): one
obfuscated line standing for an inline chain of 2,000 frames (~50 KB of
mapping) and a capture of ~96 KB whose samples are 16 frames of that line
(400 samples).  Each input frame of a stored stack expands to at most
GD_RETRACE_MAX_INLINE (32) frames, each stack to at most
GD_RETRACE_MAX_STACK (4096), so that what the mapping adds stays a small
multiple of the input: ingest --mapping, report and blocks --stacks
(json) must each peak under 100 MB (before: blocks --stacks --format json
took about 230 MB, each sample holding 4,096 frames).  Prints each
command's peak RSS (ru_maxrss of the child, os.wait4)."""
import json
import os
import subprocess
import sys
import tempfile

CHAIN, DEPTH, SAMPLES = 2000, 16, 400
# under ASan (scripts/test.sh --sanitize) allocations carry redzones and a
# quarantine: the bound is 4 times as wide there
LIMIT_KB = (100 if "ASAN_OPTIONS" not in os.environ else 400) * 1024


def run(cmd):
    with open(os.devnull, "w") as null:
        p = subprocess.Popen(cmd, stdout=null, stderr=subprocess.PIPE)
        _, status, ru = os.wait4(p.pid, 0)
        err = p.stderr.read().decode(errors="replace")
        p.stderr.close()
    return os.waitstatus_to_exitcode(status), ru.ru_maxrss, err


def main():
    godeye = sys.argv[1]
    ok = True
    with tempfile.TemporaryDirectory() as d:
        mp = os.path.join(d, "mapping.txt")
        with open(mp, "w") as f:
            f.write("com.example.Hostile -> a:\n")
            for i in range(CHAIN):
                f.write("    1:1:void m%d():%d -> a\n" % (i, i + 1))
        cap = os.path.join(d, "cap.jsonl")
        with open(cap, "w") as f:
            f.write(json.dumps({"type": "meta", "app": "com.example", "pid": 1, "main_tid": 1}) + "\n")
            f.write(json.dumps({"type": "looper", "ts": 1000,
                                "msg": ">>>>> Dispatching to Handler (android.os.Handler) {a1} a@1: 0"}) + "\n")
            for s in range(SAMPLES):
                f.write(json.dumps({"type": "stack", "ts": 1001 + s, "frames": ["a.a(S:1)"] * DEPTH},
                                   separators=(",", ":")) + "\n")
            f.write(json.dumps({"type": "looper", "ts": 3000,
                                "msg": "<<<<< Finished to Handler (android.os.Handler) {a1} a@1"}) + "\n")
        size = os.path.getsize(mp) + os.path.getsize(cap)
        print("input: %d bytes (mapping %d, capture %d)" % (size, os.path.getsize(mp), os.path.getsize(cap)))
        db = os.path.join(d, "g.db")
        for args in (["ingest", "-q", "--mapping", mp, cap], ["report", "-o", os.path.join(d, "r.html")],
                     ["blocks", "--stacks", "--format", "json"], ["blocks", "--stacks"]):
            rc, kb, err = run([godeye, "--db", db] + args)
            print("%-40s exit %d, peak RSS %.1f MB" % (" ".join(a if d not in a else "..." for a in args), rc,
                                                        kb / 1024))
            if rc != 0:
                print("FAIL: exit %d: %s" % (rc, err.strip()))
                ok = False
            if kb > LIMIT_KB:
                print("FAIL: over %d MB" % (LIMIT_KB // 1024))
                ok = False
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
