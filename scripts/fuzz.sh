#!/usr/bin/env bash
# fuzz.sh - builds the libFuzzer harnesses with clang in build-fuzz/ and runs
# each for a bounded time, in sequence; fails on any finding (crash, leak,
# undefined behaviour, timeout, out-of-memory).
#   scripts/fuzz.sh [SECONDS]      seconds per harness (default: $GODEYE_FUZZ_SECONDS or 60)
#   GODEYE_FUZZERS="godeye logcat" run only these harnesses (default: all)
# A finding is saved as build-fuzz/artifacts/<harness>-crash-<sha1>; replay
# it with build-fuzz/tests/fuzz/fuzz_<harness> FILE, then keep it as
# tests/fixtures/regress/<reader>-<what>.<ext> with a test that replays it.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-${GODEYE_FUZZ_SECONDS:-60}}
case $secs in '' | *[!0-9]*) echo "fuzz.sh: SECONDS must be a number" >&2; exit 2 ;; esac
scripts/deps.sh --test   # clang, libclang-rt-14-dev (libFuzzer)
CC=clang cmake -S . -B build-fuzz -DGODEYE_FUZZ=ON -DBUILD_TESTING=OFF \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build-fuzz -j"$(nproc)" >/dev/null
scripts/fuzz-corpus.sh build-fuzz/seeds >/dev/null
mkdir -p build-fuzz/artifacts build-fuzz/logs
fuzzers=${GODEYE_FUZZERS:-$(cat build-fuzz/fuzzers.txt)}
failed=0
npass=0
nfail=0
printf '%-18s %8s %12s  %s\n' HARNESS SECONDS EXECUTIONS RESULT
for f in $fuzzers; do
  bin=build-fuzz/tests/fuzz/fuzz_$f
  work=build-fuzz/corpus/$f   # inputs found here persist between runs
  mkdir -p "$work"
  log=build-fuzz/logs/$f.log
  start=$(date +%s)
  set +e
  "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="build-fuzz/artifacts/$f-" "$work" "build-fuzz/seeds/$f" >"$log" 2>&1
  rc=$?
  set -e
  took=$(($(date +%s) - start))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  if [ $rc -eq 0 ]; then
    result=ok
    npass=$((npass + 1))
  else
    nfail=$((nfail + 1))
    result="FAILED (exit $rc): $(grep -m1 -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$log" || true)"
    result="$result; see $log"
    failed=1
  fi
  printf '%-18s %8s %12s  %s\n' "$f" "$took" "${execs:-?}" "$result"
done
echo "fuzz: $npass passed, $nfail failed"
exit $failed
