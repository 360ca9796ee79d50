#!/bin/sh
# scale.sh - figures at scale (#50 item 3): a generated Perfetto trace of
# SIZE MB (default 1024) of each shape of bench/perfetto_gen.py (the slices
# one and --sched), ingested into a new database under /usr/bin/time -v
# (wall and CPU time, peak RSS; then the database's size), and the time
# and peak RSS of `top`, `blocks --group`, `threads` and `report` on it.
#
#     bench/scale.sh [SIZE_MB] [GODEYE]      (default 1024, build/cli/godeye)
#     SCALE_DIR=/big/disk bench/scale.sh     (default build/bench-data/scale)
#     SHAPES=sched bench/scale.sh            (default "slices sched")
#
# perfetto_gen.py writes the trace packet by packet (never whole in
# memory).  Heavy: ~1 GB of trace and ~2 GB of database per shape, minutes
# of CPU each; run it once, on a quiet machine if there is one (the load
# average is printed at the start and the end).  The generated trace and
# database of each shape are deleted when its row is printed (KEEP=1 keeps
# them).  Not a test: nothing is judged here; the target (peak RSS
# <= 128 MB) is read off the table.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SIZE=${1:-1024}
G=${2:-$ROOT/build/cli/godeye}
DIR=${SCALE_DIR:-$ROOT/build/bench-data/scale}
mkdir -p "$DIR"
[ -x "$G" ] || { echo "scale.sh: no godeye binary '$G'" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "scale.sh: /usr/bin/time is not installed (Debian: time)" >&2; exit 1; }

# run LABEL CMD...: one line of wall s, user+sys s, peak RSS MB under time -v
run() {
    label=$1
    shift
    /usr/bin/time -v "$@" >/dev/null 2>"$DIR/time.txt" || {
        echo "scale.sh: '$label' failed:" >&2
        tail -n 30 "$DIR/time.txt" >&2
        exit 1
    }
    awk -v l="$label" -F': ' '
        /Elapsed \(wall clock\)/ { n = split($2, p, ":"); w = 0; for (i = 1; i <= n; i++) w = w * 60 + p[i] }
        /User time/ { u = $2 } /System time/ { s = $2 }
        /Maximum resident set size/ { r = $2 / 1024 }
        END { printf "| %-28s | %9.1f | %9.1f | %8.1f |\n", l, w, u + s, r }' "$DIR/time.txt"
}

echo "godeye: $G ($(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo '?'))"
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores, $(date -u '+%F %H:%M') UTC"
for shape in ${SHAPES:-slices sched}; do
    trace=$DIR/$shape-$SIZE.perfetto-trace
    db=$DIR/$shape-$SIZE.db
    rm -f "$trace" "$db" "$db-wal" "$db-shm"
    flag=
    [ $shape = sched ] && flag=--sched
    echo
    echo "## $shape: $(python3 "$ROOT/bench/perfetto_gen.py" "$trace" "$SIZE" $flag)"
    echo "| step                         |  wall (s) |   CPU (s) | RSS (MB) |"
    echo "|---|---|---|---|"
    run "ingest $(($(wc -c < "$trace") >> 20)) MB" "$G" --db "$db" ingest -q --no-progress "$trace"
    echo "database: $(du -b "$db" | cut -f1) bytes ($(($(du -b "$db" | cut -f1) >> 20)) MB)" \
         "for a $(wc -c < "$trace")-byte trace"
    run "top" "$G" --db "$db" top
    run "blocks --group" "$G" --db "$db" blocks --group
    run "threads" "$G" --db "$db" threads
    run "report" "$G" --db "$db" report -o "$DIR/report.html"
    echo "report: $(wc -c < "$DIR/report.html") bytes of HTML"
    [ "${KEEP:-0}" = 1 ] || rm -f "$trace" "$db" "$db-wal" "$db-shm" "$DIR/report.html"
done
rm -f "$DIR/time.txt"
echo
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg), $(date -u '+%F %H:%M') UTC"
