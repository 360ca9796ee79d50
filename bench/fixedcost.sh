#!/bin/sh
# fixedcost.sh - the fixed cost of a new database (#50 item 2): the
# instructions (callgrind's Ir) of `godeye --db NEW.db ingest` of a 3 KB
# ANR file, side by side for each binary named, and what they are spent on.
#
#     bench/fixedcost.sh [GODEYE ...]        (default: build/cli/godeye)
#     CORPUS=/path/to/shared/corpus bench/fixedcost.sh BASE NEW
#
# The file is 3,009 bytes cut from a real dump,
# ../shared/corpus/anr_traces/sentry_thread_dump.txt (SOURCES.md there):
# its header, the "Signal Catcher" thread with its first three native
# frames, "main" (blocked) and "Thread-9" (holding main's lock), and the
# end line.  Per binary it prints the whole process's instructions, main()'s
# (godeye's own work), what runs outside main() (mostly the dynamic loader
# mapping and relocating the linked libraries: the same for every command,
# `godeye --version` included; libcurl's 30 until it was loaded on first
# use, #50; libzip's libcrypto until it was too; SQLite's since) and the
# biggest of main's parts.  Instructions do not depend on the machine's load; times
# are not taken.  Needs valgrind (callgrind_annotate).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CORPUS=${CORPUS:-$ROOT/../shared/corpus}
SRC=$CORPUS/anr_traces/sentry_thread_dump.txt
[ -r "$SRC" ] || { echo "fixedcost.sh: no '$SRC' (set CORPUS)" >&2; exit 1; }
[ $# -gt 0 ] || set -- "$ROOT/build/cli/godeye"
command -v valgrind >/dev/null || { echo "fixedcost.sh: valgrind is not installed" >&2; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
sed -n '1,6p;166,175p;184,202p;597,611p;624p' "$SRC" > "$TMP/anr3k.txt"
echo "input: $(wc -c < "$TMP/anr3k.txt") bytes cut from $SRC"

# inclusive Ir of the functions named (callgrind_annotate's inclusive view)
part() {
    callgrind_annotate --inclusive=yes "$1" 2>/dev/null |
        awk -v f="$2" '$0 ~ ("[?]:" f " ") || $0 ~ ("[?]:" f "$") { gsub(",", "", $1); print $1; exit }'
}

printf '%-40s %12s %12s %12s %12s %12s %12s\n' binary total "main()" "outside main" "store open" "writer open" "finish"
for G in "$@"; do
    rm -f "$TMP"/db*
    valgrind --tool=callgrind --callgrind-out-file="$TMP/cg" "$G" --db "$TMP/db" ingest -q --no-progress \
        "$TMP/anr3k.txt" 2>"$TMP/vg" >/dev/null
    total=$(sed -n 's/.*Collected : *//p' "$TMP/vg")
    m=$(part "$TMP/cg" main)
    printf '%-40s %12s %12s %12s %12s %12s %12s\n' "$G" "$total" "$m" $((total - m)) \
        "$(part "$TMP/cg" gd_store_open)" "$(part "$TMP/cg" gd_writer_open)" "$(part "$TMP/cg" gd_writer_finish)"
done
