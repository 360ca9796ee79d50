#!/usr/bin/env bash
# perfetto_bench.sh - ingest time and peak RSS of a ~100 MB synthetic Perfetto
# trace (bench/perfetto_gen.py) against a plain varint walk that only counts
# packets (build/bench/perfetto-walk).  Run from the repository root after a
# build:  bench/perfetto_bench.sh [SIZE_MB]
set -euo pipefail
size=${1:-100}
data=build/bench-data
mkdir -p "$data"
trace=$data/synthetic-$size.perfetto-trace
[ -f "$trace" ] || python3 bench/perfetto_gen.py "$trace" "$size"
for what in walk ingest; do
  rm -f "$data/pf.db"
  if [ $what = walk ]; then cmd=(build/bench/perfetto-walk "$trace");
  else cmd=(build/cli/godeye --db "$data/pf.db" ingest "$trace"); fi
  /usr/bin/time -f "$what: %e s wall, %U s user, %M KB peak RSS" "${cmd[@]}" >/dev/null
done
