#!/usr/bin/env bash
# fuzz-corpus.sh - assembles the seed corpus of every fuzz harness into DIR
# (default build-fuzz/seeds): DIR/<harness>/ gets the reader's fixtures
# (tests/fixtures/<reader>), its real captures (../shared/corpus, when present;
# gzip seeds decompressed, every seed cut to its first 64 KiB) and the
# regression inputs tests/fixtures/regress/<reader>-*.  DIR/ingest gets all.
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
    perfetto) real=perfetto_proto ;;
    systrace) real="systrace_text systrace_html" ;;
    *) real=$r ;;
  esac
  for f in tests/fixtures/"$r"/* tests/fixtures/regress/"$r"-*; do
    [ -f "$f" ] && seed "$r" "$f"
  done
  for d in $real; do
    for f in "$corpus/$d"/*; do
      [ -f "$f" ] && seed "$r" "$f"
    done
  done
  # one small gzip seed per reader keeps the gzip path of gd_input covered
  first=$(ls "$out/$r" | head -n 1)
  if [ -n "$first" ]; then
    head -c 4096 "$out/$r/$first" | gzip -c >"$out/$r/zz-gzip-seed"
  fi
done
for f in tests/fixtures/regress/ingest-*; do
  [ -f "$f" ] && cp "$f" "$out/ingest/"
done
for d in "$out"/*/; do
  printf '%s: %s seeds\n' "$(basename "$d")" "$(ls "$d" | wc -l)"
done
