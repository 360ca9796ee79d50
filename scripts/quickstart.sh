#!/usr/bin/env bash
# quickstart.sh - on a fresh Debian machine: install what is missing, build,
# ingest examples/ into a fresh database and print what godeye finds.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
db=build/examples.db
rm -f "$db" "$db-wal" "$db-shm"
export GODEYE_DB=$db
build/cli/godeye ingest examples/*.jsonl examples/*.txt
# #47: the two lines shop.jsonl's summary lists are there on purpose
echo "(shop.jsonl's 'looper: end without begin' and 'unknown event kind' are on purpose:"
echo " the example starts mid-dispatch and holds one event of a kind godeye does not know;"
echo " examples/README.md)"
echo
echo "== what to fix first (godeye top: ANRs, then ms lost per minute of capture)"
build/cli/godeye top
echo
echo "== blocks of 500 ms and more"
build/cli/godeye blocks --threshold 500
echo
echo "== block groups"
build/cli/godeye blocks --group
echo
echo "== pages"
build/cli/godeye pages
echo
echo "== overdraw"
build/cli/godeye overdraw
echo
echo "== images"
build/cli/godeye images
echo
echo "== ANRs"
build/cli/godeye anr
echo
echo "== launches"
build/cli/godeye startup
echo
echo "== findings of the tools, grouped (lock contention, slow deliveries, ANR state)"
build/cli/godeye issues --group
build/cli/godeye report --html -o build/report.html
echo
echo "report written to build/report.html"
