#!/bin/sh
# growth.sh - how time and memory grow with input size, for every reader
# (#25 "Done when"): a real file per format (../shared/corpus, or
# $GODEYE_CORPUS) repeated 1x / 4x / 16x (Chrome JSON: its traceEvents
# repeated inside one document; ART: its method records repeated), each
# ingested into a fresh database under /usr/bin/time -v.  Prints a markdown
# table of CPU (user + sys) and peak RSS with the ratios 4x/1x and 16x/1x:
# linear time gives ~4 and ~16, flat memory ~1.  Timing only here, never in
# a test.  The 1x input is the file repeated m times, m chosen so that 1x
# takes about 0.1 s of CPU (a file read in 0.01 s would give no ratio).
# (A systrace HTML file is left out: repeated, only its first trace is
# read; the text reader it wraps is measured.)  Runs in about 2-3 minutes
# on the project's 2-core VM.
#
# Rows whose input starts with "%" are generated (#53): "%GEN ARGS" runs
# bench/GEN OUT K ARGS, K copies' worth of the generator's unit (no corpus
# file): the CPU profiles (deep callstacks sampled many times), launches
# (startup breakdown) and binder calls (binder time per block).
#
# usage: bench/growth.sh [GODEYE] [CORPUS]   (default build/cli/godeye ../shared/corpus)
#        GROWTH_ONLY='godeye jsonl' bench/growth.sh   (only the readers whose name matches, grep -E)
set -eu
GODEYE=${1:-build/cli/godeye}
CORPUS=${2:-${GODEYE_CORPUS:-../shared/corpus}}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/godeye-growth.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM

# format|file under CORPUS (the 1x input)
INPUTS="logcat|logcat/cranyweb_waydroid_logcat.txt
systrace|systrace_text/catapult_decompressed_atrace_data.txt
perfetto|perfetto_proto/nowinandroid_trace.perfetto-trace
chrome|chrome_json/catapult_webview.json.gz
anr|anr_traces/tornaco_traces.txt
gfxinfo|gfxinfo/anavmode_gfxinfo.txt
simpleperf|simpleperf/aosp_simpleperf_perf_display_bitmaps.header.perf-script
dumpsys_activity|dumpsys_activity/lumisky_activity_top.txt
uiautomator|uiautomator/androidmcp_window_dump.xml
bugreport|bugreport/chkbugreport_bugreport_hybriddeadlock.txt
art|art_method_trace/easternhong_methodtrace_test.trace
matrix|matrix/hero0812_temp.json
godeye jsonl|@examples/shop.jsonl
perfetto streaming profile|%profile_gen.py
perfetto perf samples|%profile_gen.py --perf
perfetto launches|%launch_gen.py
perfetto binder|%binder_gen.py"

# make IN K OUT: IN repeated K times as one input of the same format;
# IN "%GEN ARGS": bench/GEN OUT K ARGS
make() {
    case $1 in
    %*)
        gen=$(echo "${1#%}" | cut -d' ' -f1)
        args=$(echo "${1#%}" | cut -s -d' ' -f2-)
        # shellcheck disable=SC2086 # ARGS are words
        python3 "$(dirname "$0")/$gen" "$3" "$2" $args
        return
        ;;
    esac
    python3 - "$1" "$2" "$3" <<'PY'
import gzip, json, sys
src, k, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
raw = open(src, "rb").read()
if src.endswith(".gz"):
    raw = gzip.decompress(raw)
try:
    doc = json.loads(raw) if src.endswith((".json", ".json.gz")) and raw.lstrip()[:1] in (b"{", b"[") else None
except ValueError:
    doc = None  # JSON lines: repeated as text
if doc is not None:
    ev = doc.get("traceEvents") if isinstance(doc, dict) else doc
    if isinstance(ev, list) and ev and all(isinstance(e, dict) and "ph" in e for e in ev[:10]):
        # Chrome JSON: the events k times, each copy shifted past the last
        ts = [e["ts"] for e in ev if isinstance(e, dict) and isinstance(e.get("ts"), (int, float))]
        span = (max(ts) - min(ts) + 1000) if ts else 0
        rep = [dict(e, ts=e["ts"] + i * span) if isinstance(e, dict) and isinstance(e.get("ts"), (int, float)) else e
               for i in range(k) for e in ev]
        if isinstance(doc, dict):
            doc["traceEvents"] = rep
        else:
            doc = rep
        open(out, "w").write(json.dumps(doc))
        sys.exit(0)
def times(o):
    # the clock fields of a JSON line: godeye's "ts", Matrix's "time" (top or in "content")
    for d in (o, o.get("content") if isinstance(o.get("content"), dict) else None):
        for key in ("ts", "time"):
            if d is not None and isinstance(d.get(key), (int, float)) and not isinstance(d.get(key), bool):
                yield d, key
if src.endswith((".json", ".jsonl")) and doc is None:
    # JSON lines: each copy shifted past the last, so that windows do not overlap
    rows = []
    for line in raw.splitlines():
        try:
            rows.append(json.loads(line))
        except ValueError:
            rows.append(None)
    ts = [d[k] for o in rows if isinstance(o, dict) for d, k in times(o)]
    span = (max(ts) - min(ts) + 1000) if ts else 0
    # a godeye method "enter" left without its "exit" (a capture stopped
    # mid-call) gets one at its copy's end: else every later copy would
    # nest under it (shop.jsonl: 2 a copy; at 160 copies, calls 321 deep,
    # each block walking its hundreds of ancestors: time grew as copies
    # squared, an artifact of the repetition, not of the input's size)
    opened = {}
    for o in rows:
        if isinstance(o, dict) and o.get("type") == "method" and o.get("phase") in ("enter", "exit"):
            st = opened.setdefault(o.get("tid"), [])
            if o["phase"] == "enter":
                st.append(o)
            elif st:
                st.pop()
    closing = [dict(e, phase="exit", ts=max(ts)) for st in opened.values() for e in reversed(st)
               if isinstance(e.get("ts"), (int, float)) and ts]
    with open(out, "w") as f:
        for i in range(k):
            for line, o in list(zip(raw.splitlines(), rows)) + [(None, c) for c in closing]:
                if isinstance(o, dict) and span:
                    o = json.loads(line) if line is not None else dict(o)
                    for d, key in times(o):
                        d[key] += i * span
                    f.write(json.dumps(o) + "\n")
                elif line is not None:
                    f.write(line.decode("utf-8", "replace") + "\n")
    sys.exit(0)
i = raw.find(b"*end\n") if raw[:8] == b"*version" else -1
if i >= 0 and raw[i + 5:i + 9] == b"SLOW":
    # ART method trace: the text header, then "SLOW", u2 version, u2 offset
    # to the records: the records repeated
    head, body = raw[:i + 5], raw[i + 5:]
    off = int.from_bytes(body[6:8], "little")
    open(out, "wb").write(head + body[:off] + body[off:] * k)
    sys.exit(0)
open(out, "wb").write(raw * k)
PY
}

printf '| reader | 1x input | events 1x / 4x / 16x | CPU s 1x | CPU 4x/1x | CPU 16x/1x | peak RSS MB 1x | RSS 4x/1x | RSS 16x/1x |\n'
printf '|---|---|---|---|---|---|---|---|---|\n'
echo "$INPUTS" | while IFS='|' read -r fmt rel; do
    [ -z "${GROWTH_ONLY:-}" ] || echo "$fmt" | grep -Eq -- "$GROWTH_ONLY" || continue
    case $rel in @*) src="$(dirname "$0")/../${rel#@}" ;; %*) src=$rel ;; *) src="$CORPUS/$rel" ;; esac
    case $src in %*) ;; *) [ -f "$src" ] || { printf '| %s | %s absent | - | - | - | - | - | - | - |\n' "$fmt" "$rel"; continue; } ;; esac
    base=$(basename "$(echo "$rel" | tr ' %' '__')" .gz)
    # m: copies in the 1x input (about 0.1 s of CPU; at most 48)
    make "$src" 1 "$TMP/probe-$base"
    rm -f "$TMP/g.db"*
    GODEYE_DB="$TMP/g.db" /usr/bin/time -v -o "$TMP/time" "$GODEYE" ingest --no-progress -q "$TMP/probe-$base" >/dev/null 2>&1 || true
    rm -f "$TMP/probe-$base"
    m=$(awk -F': ' '/User time/{u=$2} /System time/{s=$2} END{c=u+s; m=int(0.1/(c>0.005?c:0.005)+0.5); print m<1?1:(m>48?48:m)}' "$TMP/time")
    line=""
    for k in 1 4 16; do
        in="$TMP/x$k-$base"
        make "$src" $((k * m)) "$in"
        [ "$k" != 1 ] || sz1=$(du -k "$in" | cut -f1) # a generated row's size: its 1x input's
        rm -f "$TMP/g.db"*
        if ! GODEYE_DB="$TMP/g.db" /usr/bin/time -v -o "$TMP/time" "$GODEYE" ingest --no-progress --format json "$in" >"$TMP/out" 2>"$TMP/err"; then
            line="$line fail"
            break
        fi
        ev=$(python3 -c 'import json,sys; print(sum(r.get("events",0) for r in json.load(open(sys.argv[1]))))' "$TMP/out")
        cpu=$(awk -F': ' '/User time/{u=$2} /System time/{s=$2} END{printf "%.3f", u+s}' "$TMP/time")
        rss=$(awk -F': ' '/Maximum resident/{printf "%.1f", $2/1024}' "$TMP/time")
        line="$line $ev $cpu $rss"
        rm -f "$in"
    done
    case $src in %*) sz=${sz1:-0} ;; *) sz=$(du -k "$src" | cut -f1) ;; esac
    echo "$line" | awk -v fmt="$fmt" -v rel="$rel" -v m="$m" -v sz="$sz" '
        NF < 9 { printf "| %s | %s | ingest failed |  |  |  |  |  |  |\n", fmt, rel; next }
        { c1 = ($2 > 0.001 ? $2 : 0.001)
          printf "| %s | %s (%d KB) x %d | %d / %d / %d | %.2f | %.1f | %.1f | %.1f | %.2f | %.2f |\n", fmt, rel, sz, m,
                 $1, $4, $7, $2, $5 / c1, $8 / c1, $3, $6 / $3, $9 / $3 }'
done
