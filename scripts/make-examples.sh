#!/bin/sh
# make-examples.sh - regenerates examples/ byte-identically from scripts/gencapture.py.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
gen="python3 $here/scripts/gencapture.py"
out="$here/examples"
mkdir -p "$out"

# shop.jsonl: ~360 main-thread dispatches, short and long blocks with stacks,
# cpu and memory, an unfinished ANR at the end, 2 worker threads, one thread
# of already paired dispatches, pages, 3 view dumps, 10 images, a method trace.
$gen --seed 7 --dispatches 360 --block-samples --noise-threads 2 --noise-gap-ms 1500 \
     --dispatch-thread 10 --unfinished --pages --views 3 --view-sizes 12,40,72 \
     --images 10 --methods --frames 30 --marks --unknown-kind \
     --out "$out/shop.jsonl" --oracle "$out/shop.oracle.json" --oracle-threshold 100
