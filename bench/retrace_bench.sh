#!/bin/sh
# retrace_bench.sh [BUILD] [MB] - load time, peak memory and throughput of
# the retrace index on a synthetic R8 mapping (bench/retrace_gen.py).
# Prints: mapping size, load seconds and peak RSS (load only), then frames
# per second of `godeye retrace` (total time minus load time).
set -eu
build=${1:-build}
mb=${2:-50}
here=$(cd "$(dirname "$0")" && pwd)
godeye=$build/cli/godeye
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$here/retrace_gen.py" "$tmp" "$mb"
ls -l "$tmp/mapping.txt" | awk '{printf "mapping: %.1f MB\n", $5 / 1048576}'
t() { /usr/bin/time -f "%e %M" "$@" 2>&1 >/dev/null | tail -1; }
load=$(t "$godeye" retrace --mapping "$tmp/mapping.txt" /dev/null)
echo "load only: $(echo $load | awk '{printf "%.2f s, peak RSS %.0f MB", $1, $2 / 1024}')"
frames=$(grep -c '^	at ' "$tmp/trace.txt")
full=$(t "$godeye" retrace --mapping "$tmp/mapping.txt" "$tmp/trace.txt")
echo "load + $frames frames: $(echo $full | awk '{printf "%.2f s, peak RSS %.0f MB", $1, $2 / 1024}')"
echo "$load $full $frames" | awk '{ d = $3 - $1; if (d <= 0) d = 0.01; printf "throughput: %.0f frames/s\n", $5 / d }'
