#!/usr/bin/env python3
"""corpus_check.py - every real capture in ../shared/corpus must ingest.

Each file (not the README-like SOURCES.md, not the AndroidGodEye .config
files, which SOURCES.md says are not captures) is ingested into its own
fresh database: exit 0 and at least one event, as SOURCES.md requires.
Prints one line per file with the detected format and counts; exits 77
(skipped) when the corpus folder is absent.
"""
import json
import os
import subprocess
import sys
import tempfile

EXPECTED_FORMAT = {
    "logcat": "logcat", "procstat": "procstat", "uiautomator": "uiautomator",
    "dumpsys_activity": "dumpsys_activity", "gfxinfo": "gfxinfo", "chrome_json": "chrome",
    "anr_traces": "anr",
}


def main():
    bin_dir, corpus = sys.argv[1], sys.argv[2]
    if not os.path.isdir(corpus):
        print(f"SKIP: no corpus at {corpus}")
        return 77
    files = []
    for root, _, names in os.walk(corpus):
        for n in sorted(names):
            if n == "SOURCES.md" or n.endswith(".config"):
                continue
            files.append(os.path.join(root, n))
    failed = 0
    for f in sorted(files):
        tmp = tempfile.mkdtemp(prefix="godeye-corpus-")
        env = dict(os.environ, GODEYE_DB=os.path.join(tmp, "g.db"))
        p = subprocess.run([os.path.join(bin_dir, "godeye"), "ingest", "--format", "json", f],
                           capture_output=True, text=True, env=env)
        rel = os.path.relpath(f, corpus)
        want = EXPECTED_FORMAT.get(rel.split(os.sep)[0])
        if p.returncode != 0:
            print(f"FAIL {rel}: exit {p.returncode}: {p.stderr.strip()}")
            failed += 1
            continue
        r = json.loads(p.stdout)[0]
        ok = r["events"] > 0 and (want is None or r["format"] == want)
        print(f"{'ok  ' if ok else 'FAIL'} {rel}: {r['format']}, {r['events']} events, "
              f"{r['dispatches']} dispatches, {r['blocks']} blocks, {r['skipped']} skipped")
        failed += not ok
    print(f"{len(files) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
