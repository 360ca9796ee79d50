#!/bin/sh
# report-shots.sh - screenshots of each section of the report of examples/
# (docs/report-*.png) in headless Chromium, at 1400 px and at phone width.
# Usage: scripts/report-shots.sh [BUILD_DIR]   (default build)
#        scripts/report-shots.sh --corpus [BUILD_DIR]: the report of every
#        real file of $GODEYE_CORPUS (default ../shared/corpus) and
#        tests/corpus/files in one database, its top (summary and what to fix
#        first) at 1400 and 390 px: docs/report-corpus.png, report-corpus-phone.png
set -eu
corpus_mode=0
if [ "${1:-}" = "--corpus" ]; then corpus_mode=1; shift; fi
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$here/build}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GODEYE_DB="$tmp/examples.db"
chrome() { # WIDTH HEIGHT OUT.png PAGE.html
    # headless Chromium lays a page out at least 500 px wide: a narrower
    # (phone) width is an iframe of that width, the screenshot cut to it
    page=$4 ww=$1
    if [ "$1" -lt 500 ]; then
        page="$4.frame.html" ww=500
        printf '<!DOCTYPE html><body style="margin:0"><iframe src="%s" width="%s" height="%s" style="border:0;display:block"></iframe></body>' \
            "$(basename "$4")" "$1" "$2" >"$page"
    fi
    chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync --allow-file-access-from-files \
        --user-data-dir="$tmp/profile" --hide-scrollbars --force-device-scale-factor=1 \
        --window-size="$ww,$2" --screenshot="$3" "file://$page" 2>/dev/null
    if [ "$1" -lt 500 ]; then python3 "$here/scripts/png_crop.py" "$3" "$1"; fi
}
if [ "$corpus_mode" = 1 ]; then
    corpus=${GODEYE_CORPUS:-$here/../shared/corpus}
    # one file at a time: a file with nothing usable is left out (and said)
    find "$corpus" "$here/tests/corpus/files" -type f ! -name '*.md' ! -path '*/LICENSES/*' 2>/dev/null | sort |
        while read -r f; do
            "$build/cli/godeye" ingest -q "$f" 2>/dev/null || echo "report-shots: left out '$f'" >&2
        done
    "$build/cli/godeye" report -o "$tmp/report.html"
    for w in 1400:1600:report-corpus 390:2600:report-corpus-phone; do
        chrome "${w%%:*}" "$(echo "$w" | cut -d: -f2)" "$here/docs/${w##*:}.png" "$tmp/report.html"
    done
    exit 0
fi
# relative names: the page shows them as sources
(cd "$here" && "$build/cli/godeye" ingest -q examples/*.jsonl examples/*.txt)
"$build/cli/godeye" report -o "$tmp/report.html"
shot() { # ID WIDTH HEIGHT OUT
    # the page with only section ID shown (an inline style: the page's CSP allows those)
    sed "s|</head>|<style>#content > section:not(#$1) { display: none } nav { display: none }</style></head>|" \
        "$tmp/report.html" >"$tmp/$1.html"
    chrome "$2" "$3" "$4" "$tmp/$1.html"
}
mkdir -p "$here/docs"
shot summary 1400 820 "$here/docs/report-summary.png"
shot top 1400 560 "$here/docs/report-top.png"
shot timeline 1400 1000 "$here/docs/report-timeline.png"
shot groups 1400 1100 "$here/docs/report-groups.png"
shot anrs 1400 700 "$here/docs/report-anrs.png"
shot startups 1400 560 "$here/docs/report-startups.png"
shot frames 1400 520 "$here/docs/report-frames.png"
shot locks 1400 400 "$here/docs/report-locks.png"
shot issues 1400 480 "$here/docs/report-issues.png"
shot versions 1400 700 "$here/docs/report-versions.png"
shot summary 390 1100 "$here/docs/report-phone-summary.png"
shot anrs 390 1000 "$here/docs/report-phone-anrs.png"
shot timeline 390 800 "$here/docs/report-phone-timeline.png"
shot top 390 1100 "$here/docs/report-phone-top.png"
