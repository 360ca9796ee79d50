#!/usr/bin/env bash
# test.sh - install what is missing, build, and run the whole test suite (CTest).
#   scripts/test.sh             normal build in build/
#   scripts/test.sh --sanitize  ASan + UBSan build in build-san/ (any finding fails)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=build
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
cmake -S . -B "$dir" "${flags[@]}" >/dev/null
cmake --build "$dir" -j"$(nproc)"
cd "$dir"
ctest --output-on-failure -j"$(nproc)"
