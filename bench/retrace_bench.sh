#!/bin/sh
# retrace_bench.sh [BUILD] [MB] - load time, peak memory and throughput of
# the retrace index on a synthetic R8 mapping (bench/retrace_gen.py).
# Prints: mapping size, load seconds and peak RSS (load only), then frames
# per second of `godeye retrace` (total time minus load time); the same
# for ProGuard's retrace (Debian's proguard-cli, /usr/share/java/retrace.jar)
# on the same files when it is there, and the ratio of the total times.
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
rt=/usr/share/java/retrace.jar
if command -v java >/dev/null 2>&1 && [ -r $rt ]; then
  : > "$tmp/empty.txt"
  pload=$(t java -jar $rt "$tmp/mapping.txt" "$tmp/empty.txt")
  echo "proguard load only: $(echo $pload | awk '{printf "%.2f s, peak RSS %.0f MB", $1, $2 / 1024}')"
  pfull=$(t java -jar $rt "$tmp/mapping.txt" "$tmp/trace.txt")
  echo "proguard load + $frames frames: $(echo $pfull | awk '{printf "%.2f s, peak RSS %.0f MB", $1, $2 / 1024}')"
  echo "$pload $pfull $frames" | awk '{ d = $3 - $1; if (d <= 0) d = 0.01; printf "proguard throughput: %.0f frames/s\n", $5 / d }'
  echo "$full $pfull" | awk '{ printf "godeye is %.1fx faster than ProGuard'"'"'s retrace (total time), with %.0fx less memory\n", $3 / $1, $4 / $2 }'
else
  echo "proguard: not installed (apt-get install proguard-cli): no comparison"
fi
