#!/usr/bin/env bash
# run.sh - one command for the whole benchmark: builds godeye and the
# baseline (Release), generates the inputs once (cached in build/bench-data),
# times them side by side and prints the table (see bench/bench.py).
#   bench/run.sh (RUNS=5 by default)   RUNS=7 bench/run.sh   BUILD=/path bench/run.sh
# Appends a dated section to bench/RESULTS.md (RESULTS_MD=0: print only);
# bench/README.md lists the exact command of each measure.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
export BUILD=${BUILD:-$root/build}
bash "$root/scripts/deps.sh" --bench
cmake -S "$root" -B "$BUILD" -DGODEYE_BENCH=ON >/dev/null
cmake --build "$BUILD" -j2 >/dev/null
exec python3 "$root/bench/bench.py"
