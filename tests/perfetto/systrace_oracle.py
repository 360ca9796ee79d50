#!/usr/bin/env python3
"""systrace_oracle.py - an independent hand check of systrace/atrace text and
HTML files: regex over the tracing_mark_write lines, B/E paired per thread,
figures that godeye's systrace reader should reproduce.

Usage: systrace_oracle.py FILE
"""
import collections
import json
import re
import sys

LINE = re.compile(r"^\s*(.+?)-(\d+)\s+(?:\(\s*([-\d]+)\)\s+)?\[\d+\]\s+(?:\S+\s+)?(\d+\.\d+): tracing_mark_write: (.*)$")


def main():
    text = open(sys.argv[1], "rb").read().decode("utf-8", "replace")
    if "<!-- BEGIN TRACE -->" in text:
        text = text.split("<!-- BEGIN TRACE -->", 1)[1].split("<!-- END TRACE -->", 1)[0]
    stacks = collections.defaultdict(list)
    slices = []
    kinds = collections.Counter()
    unmatched = 0
    last = 0.0
    for ln in text.splitlines():
        m = LINE.match(ln)
        if not m:
            continue
        tid = int(m.group(2))
        ts = float(m.group(4)) * 1000.0
        last = max(last, ts)
        pay = m.group(5).rstrip()
        kinds[pay[:1]] += 1
        if pay.startswith("B|"):
            _, pid, name = pay.split("|", 2)
            stacks[tid].append((int(pid), name, ts))
        elif pay == "E" or pay.startswith("E|"):
            if stacks[tid]:
                pid, name, b = stacks[tid].pop()
                slices.append((pid, tid, len(stacks[tid]), name, b, ts))
            else:
                unmatched += 1
    out = {"markers": dict(kinds), "slices": len(slices), "unmatched_E": unmatched,
           "open_at_end": sum(len(s) for s in stacks.values())}
    top = [s for s in slices if s[0] == s[1] and s[0] > 0 and s[2] == 0]
    openmain = sum(1 for tid, st in stacks.items() if st and st[0][0] == tid and tid > 0)
    out["dispatches"] = len(top) + openmain
    out["dispatch_closed_dur_ms"] = round(sum(s[5] - s[4] for s in top), 3)
    frames = [s for s in slices if s[0] == s[1] and s[0] > 0 and s[3].startswith("Choreographer#doFrame")]
    out["frames"] = len(frames)
    out["frames_dur_ms"] = round(sum(s[5] - s[4] for s in frames), 3)
    out["frames_max_ms"] = round(max((s[5] - s[4] for s in frames), default=0), 3)
    per = collections.Counter(s[0] for s in slices if s[0] == s[1] and s[0] > 0)
    out["main_slices_by_pid"] = per.most_common(3)
    out["events_expected"] = len(slices) + out["open_at_end"] + len(frames)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
