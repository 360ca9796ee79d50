#!/usr/bin/env bash
# fuzz-corpus.sh - assembles the seed corpus of every fuzz harness into DIR
# (default build-fuzz/seeds): DIR/<harness>/ gets the reader's fixtures
# (tests/fixtures/<reader>), its real captures (tests/corpus/files and
# $GODEYE_CORPUS, default ../shared/corpus, when present;
# gzip seeds decompressed, every seed cut to its first 64 KiB but a perf.data
# of 1 MiB or less, whose sections point past any cut) and the
# regression inputs tests/fixtures/regress/<reader>-*.  DIR/ingest gets all,
# and so does DIR/analysis (ingest then top and report); the perfetto seeds
# include generated CPU profiles, launches, binder calls and FrameTimeline
# traces (#53).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-build-fuzz/seeds}
corpus=${GODEYE_CORPUS:-../shared/corpus}
rm -rf "$out"
mkdir -p "$out/ingest"
readers=$(sed -n 's/^GD_READER(\([a-z_]*\)).*/\1/p' lib/reader/readers.def)

# seed READER FILE: copy (decompressed, at most 64 KiB) into READER and ingest
seed() {
  local r=$1 f=$2 name
  name=$(printf '%s' "${f#../}" | tr '/ ' '__')
  name=${name%.gz}
  if [ "${f%.gz}" != "$f" ]; then
    gzip -dc "$f" 2>/dev/null | head -c 65536 >"$out/$r/$name" || true
  elif [ "$(head -c 8 "$f" | tr -d '\000')" = PERFILE2 ] && [ "$(wc -c <"$f")" -le 1048576 ]; then
    cat "$f" >"$out/$r/$name" # a perf.data cut short ends at its header: whole
  else
    head -c 65536 "$f" >"$out/$r/$name"
  fi
  cp "$out/$r/$name" "$out/ingest/$name"
}

for r in $readers; do
  mkdir -p "$out/$r"
  case $r in
    anr) real=anr_traces ;;
    chrome) real=chrome_json ;;
    art_trace) real=art_method_trace ;;
    perfetto) real=perfetto_proto ;;
    systrace) real="systrace_text systrace_html" ;;
    *) real=$r ;;
  esac
  for f in tests/fixtures/"$r"/* tests/fixtures/regress/"$r"-*; do
    [ -f "$f" ] && seed "$r" "$f"
  done
  for d in $real; do
    for f in tests/corpus/files/"$d"/* "$corpus/$d"/*; do
      [ -f "$f" ] && seed "$r" "$f"
    done
  done
  # one small gzip seed per reader keeps the gzip path of gd_input covered
  first=$(ls "$out/$r" | head -n 1)
  if [ -n "$first" ]; then
    head -c 4096 "$out/$r/$first" | gzip -c >"$out/$r/zz-gzip-seed"
  fi
done
# bugreport_zip (the zip path of the bugreport reader): small zips built
# from the text fixture, since a real zip cut to 64 KiB is no zip
mkdir -p "$out/bugreport_zip"
python3 - "$out/bugreport_zip" <<'PY'
import sys, zipfile
out = sys.argv[1]
text = open("tests/fixtures/bugreport/small.txt", "rb").read()
anr = b'----- pid 7 at 2024-03-05 13:00:00 -----\n"main" prio=5 tid=1 Native\n  | sysTid=7\n  at a.B.c(B.java:1)\n----- end 7 -----\n'
for name, method, members in [
        ("main-entry.zip", zipfile.ZIP_DEFLATED,
         [("main_entry.txt", b"bugreport-x-1.txt"), ("bugreport-x-1.txt", text), ("FS/data/anr/anr_1", anr)]),
        ("by-name-stored.zip", zipfile.ZIP_STORED,
         [("bugreport-y-2.txt", text[:1500]), ("FS/data/anr/traces_2.txt", anr), ("version.txt", b"2.0")])]:
    with zipfile.ZipFile(f"{out}/{name}", "w", method) as z:
        for n, d in members:
            z.writestr(n, d)
PY
for f in "$out"/bugreport_zip/*; do
  cp "$f" "$out/ingest/"
done
# mapping (the R8/ProGuard mapping parser): the retrace fixtures' mappings
mkdir -p "$out/mapping"
for f in tests/fixtures/retrace/*mapping*.txt tests/fixtures/regress/mapping-*; do
  [ -f "$f" ] && cp "$f" "$out/mapping/"
done
for f in tests/fixtures/regress/ingest-*; do
  [ -f "$f" ] && cp "$f" "$out/ingest/"
done
# #53: the surface past the readers, generated small (no blob committed):
# CPU profiles (streaming and perf samples of interned callstacks),
# launches with their phase slices, binder calls, FrameTimeline frames;
# the Perfetto reader's seeds, the ingest harness's and the analysis
# harness's (ingest then top and report), which also gets every seed of
# the ingest harness
gen="$out/generated"
mkdir -p "$gen"
python3 bench/profile_gen.py "$gen/cpu-profile-streaming.pftrace" 1 --samples 60 --depth 24 --stacks 3
python3 bench/profile_gen.py "$gen/cpu-profile-perf.pftrace" 1 --perf --samples 40 --depth 16 --stacks 2
python3 bench/launch_gen.py "$gen/launches.pftrace" 1 --launches 3
python3 bench/binder_gen.py "$gen/binder.pftrace" 1 --frames 4 --calls 3
for f in tests/fixtures/perfetto/frame_timeline_*.json tests/fixtures/perfetto/android_doframe_depth.json; do
  [ -f "$f" ] && python3 tests/perfetto/ftgen.py "$f" "$gen/$(basename "$f" .json).pftrace"
done
for f in tests/fixtures/perfetto_perf/*.textproto tests/fixtures/perfetto_diff/streaming_profile.textproto \
         tests/fixtures/states/binder.textproto; do
  [ -f "$f" ] && python3 tests/perfetto/pbtext.py "$f" "$gen/$(basename "$f" .textproto).pftrace"
done
for f in "$gen"/*; do
  seed perfetto "$f"
done
rm -rf "$gen"
mkdir -p "$out/analysis"
cp "$out"/ingest/* "$out/analysis/"
for d in "$out"/*/; do
  printf '%s: %s seeds\n' "$(basename "$d")" "$(ls "$d" | wc -l)"
done
