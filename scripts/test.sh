#!/usr/bin/env bash
# test.sh - install what is missing, build, and run the whole test suite (CTest).
#   scripts/test.sh             RelWithDebInfo build in build-test/
#   scripts/test.sh --sanitize  ASan + UBSan build in build-san/ (any finding fails)
# Its own build folders: build/ stays scripts/quickstart.sh's Release build.
# The real captures: tests/corpus/files/ (carried in the repository) first,
# then $GODEYE_CORPUS (default ../shared/corpus); the closing line says how
# many real files were tested and how many were absent (after ctest's own
# "N% tests passed" line, which stays as ctest prints it).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=build-test
flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo)
if [ "${1:-}" = "--sanitize" ]; then
  dir=build-san
  flags+=(-DGODEYE_SANITIZE=ON)
  # exit 86 on a finding, so that cases expecting exit 1 notice it too
  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=1:exitcode=86}
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:exitcode=86}
elif [ -n "${1:-}" ]; then
  echo "usage: scripts/test.sh [--sanitize]" >&2
  exit 2
fi
scripts/deps.sh --test
# the MCP SDK's client for tests/mcp/sdk_client.mjs (#49): test-only, pinned by its lock file
(cd tests/mcp && npm ci --no-audit --no-fund --loglevel=error)
cmake -S . -B "$dir" "${flags[@]}" >/dev/null
cmake --build "$dir" -j"$(nproc)"
log=$PWD/$dir/corpus-files.log
: >"$log"
export GODEYE_CORPUS_LOG=$log
corpus=${GODEYE_CORPUS:-$(cd .. && pwd)/shared/corpus}
rc=0
(cd "$dir" && ctest --output-on-failure -j"$(nproc)") || rc=$?
# a file counts as tested when any runner read it, absent when none found it
tested=$(awk '$1 == "tested" {print $2}' "$log" | sort -u | wc -l)
absent=$(awk '$1 == "tested" {t[$2] = 1} $1 == "absent" {a[$2] = 1}
              END {n = 0; for (f in a) if (!(f in t)) n++; print n}' "$log")
inrepo=$(awk '$1 == "tested" {print $2}' "$log" | sort -u |
         while read -r f; do if [ -f "tests/corpus/files/$f" ]; then echo "$f"; fi; done | wc -l)
echo "real files: $tested tested ($inrepo from tests/corpus/files), $absent absent (not in the repository; set GODEYE_CORPUS, now $corpus)"
exit "$rc"
