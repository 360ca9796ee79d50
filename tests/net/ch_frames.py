#!/usr/bin/env python3
"""ch_frames.py - a FrameTimeline dropped frame over the fleet: `diff` and
`check` with --clickhouse leave its duration out as the local forms do
(GD_SQL_FRAME_TIMED, query/frames.h), against a real clickhouse-server on
loopback.

    ch_frames.py --bin BUILD/cli --fixtures tests/fixtures

Two Perfetto traces written by tests/perfetto/ftgen.py:
frame_timeline_metric (version 5.1.0, 11 app frames of window Layer1, one
of them a 6 ms dropped frame) and frame_timeline_dropped (5.2.0: a 14 ms
frame and a 30 ms dropped one, cli/frames_dropped counted them by hand).
Each goes to a worker database of its own, both are pushed to one server;
a third database holds both.  The frames table carries each row's dropped
flag (push writes it from GD_SQL_FRAME_TIMED); the fleet's diff row for
Layer1 of 5.2.0 counts 2 frames, 0 slow, max 14 ms, as the local one (the
fleet used to count the dropped frame's 30 ms: slow 1, max 30), and the
whole diff is the local one; a budget of slow_frames_pct 10 passes on
5.2.0 in both (the fleet used to fail it, 50%).  Tables made before the
column: a fleet diff says in one line that frames.dropped is missing, push
names the ALTER TABLE; after it, push goes on and the fleet answers.  Exit
77 (skipped) when clickhouse-server is not installed.  #51: a legacy
table's placeholder rows are not pushed (local diff leaves them out too).
"""
import argparse
import json
import os
import subprocess
import sys
import urllib.error

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import chserver as chp  # noqa: E402

check, failures = chp.check, chp.failures


def ask(url, sql, db="fleet"):
    """A SELECT's rows (JSONCompact), '' for another statement, or the
    server's error as text."""
    select = sql.startswith("SELECT")
    try:
        out = chp.ch(url, sql + (" FORMAT JSONCompact" if select else ""), db=db)
        return json.loads(out)["data"] if select else out
    except urllib.error.HTTPError as e:
        return e.read().decode(errors="replace").strip()[:200]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--fixtures", required=True)
    a = ap.parse_args()
    started = chp.begin(a.bin, "godeye-chframes-")
    if not started:
        return 77
    tmp, url, stop, run = started
    ftgen = os.path.join(HERE, "..", "perfetto", "ftgen.py")
    for i, (name, ver) in enumerate((("frame_timeline_metric", "5.1.0"), ("frame_timeline_dropped", "5.2.0"))):
        out = os.path.join(tmp, name + ".perfetto-trace")
        subprocess.run([sys.executable, ftgen, os.path.join(a.fixtures, "perfetto", name + ".json"), out],
                       check=True)
        for db in ("all", f"w{i}"):
            rc, _, err = run(db, "ingest", "-q", "--set", f"version={ver}", "--set", "app=com.example.frames", out)
            check(rc == 0, f"ingest {name} into {db} ({err.strip()})")
    for w in ("w0", "w1"):
        rc, _, err = run(w, "push", "--clickhouse", url, "--database", "fleet")
        check(rc == 0, f"push {w} ({err.strip()[:300]})")
    fleet = ("--clickhouse", url, "--database", "fleet")

    # what push wrote: each frame's dropped flag, the local rule's
    got = ask(url, "SELECT version_name, dur_ms, dropped FROM frames FINAL WHERE dropped = 1 OR"
                   " version_name = '5.2.0' ORDER BY version_name, dur_ms")
    got = [[v, float(d), int(f)] for v, d, f in got] if isinstance(got, list) else got
    check(got == [["5.1.0", 6.0, 1], ["5.2.0", 14.0, 0], ["5.2.0", 30.0, 1]],
          f"frames.dropped: the 6 ms frame of 5.1.0, the 30 ms one of 5.2.0: {got}")

    # the diff: the same rows, and by hand the head's Layer1 (cli/frames_dropped)
    args = ("diff", "version=5.1.0", "version=5.2.0", "--format", "json")
    lrc, lout, lerr = run("all", *args)
    frc, fout, ferr = run("all", *args, *fleet)
    local = json.loads(lout) if lrc == 0 else None
    got = json.loads(fout) if frc == 0 else None
    check(local is not None and local == got, f"fleet diff = local, {len(local or [])} rows ({ferr.strip()[:300]})")
    for want, rows in (("local", local), ("fleet", got)):
        head = [r["head"] for r in rows or [] if r["kind"] == "frames" and r["name"] == "Layer1"]
        figures = {k: head[0][k] for k in ("count", "slow", "frozen", "max_ms")} if head else None
        check(figures == {"count": 2, "slow": 0, "frozen": 0, "max_ms": 14.0},
              f"{want}: Layer1 of 5.2.0 counts 2 frames, the dropped one untimed: {figures}")

    # the gate: slow frames 0% of 2 on both (the fleet said 50%)
    budget = os.path.join(tmp, "slow.json")
    with open(budget, "w") as f:
        f.write('{"max": {"slow_frames_pct": 10}}')
    args = ("check", "--budget", budget, "--format", "json", "version=5.2.0")
    lrc, lout, lerr = run("all", *args)
    frc, fout, ferr = run("all", *args, *fleet)
    check(lrc == frc == 0 and lout == fout and lerr == ferr,
          f"check slow_frames_pct 10 on 5.2.0: exit {frc} as local {lrc}, {fout.strip()!r}"
          f" ({ferr.strip()[:300]!r})")

    # tables made before the column: a fleet diff names it, push the ALTER
    rc, _, err = run("w0", "push", "--clickhouse", url, "--database", "old")
    check(rc == 0, f"push w0 into old ({err.strip()[:200]})")
    check(ask(url, "ALTER TABLE frames DROP COLUMN dropped", db="old") == "", "frames of 'old' without dropped")
    rc, out, err = run("all", "diff", "version=5.1.0", "version=5.1.0", "--clickhouse", url, "--database", "old")
    check(rc == 1 and "frames.dropped" in err and len(err.strip().splitlines()) == 1 and out == "",
          f"a fleet diff over the older frames table: exit {rc}, {err.strip()[:300]}")
    rc, _, err = run("w1", "push", "--clickhouse", url, "--database", "old")
    alter = "ALTER TABLE frames ADD COLUMN dropped UInt8 DEFAULT 0"
    check(rc == 1 and alter in err, f"push names the ALTER: exit {rc}, {err.strip()[:300]}")
    check(ask(url, alter, db="old") == "", alter)
    rc, _, err = run("w1", "push", "--clickhouse", url, "--database", "old")
    check(rc == 0, f"after the ALTER push goes on ({err.strip()[:200]})")
    # the rows pushed before hold 0 (5.1.0's 6 ms dropped frame counts as
    # timed there: no figure of its window changes); those pushed after, theirs
    got = ask(url, "SELECT version_name, sum(dropped) FROM frames FINAL GROUP BY version_name"
                   " ORDER BY version_name", db="old")
    got = [[v, int(n)] for v, n in got] if isinstance(got, list) else got
    check(got == [["5.1.0", 0], ["5.2.0", 1]], f"dropped flags after the ALTER: {got}")
    args = ("diff", "version=5.1.0", "version=5.2.0", "--format", "json")
    frc, fout, ferr = run("all", *args, "--clickhouse", url, "--database", "old")
    check(frc == 0 and json.loads(fout) == local, f"then the fleet diff = local ({ferr.strip()[:200]})")

    # #51: a legacy table's placeholder rows (fixtures/gfxinfo/legacy_placeholder.txt:
    # Main's Draw is 50.00 in 11 of 12 rows) are not sent, as local diff
    # leaves them out; Other's 12 rows are
    rc, _, err = run("gfx", "ingest", "-q", "--set", "version=6.0.0",
                     os.path.join(a.fixtures, "gfxinfo", "legacy_placeholder.txt"))
    check(rc == 0, f"ingest legacy_placeholder ({err.strip()[:200]})")
    rc, _, err = run("gfx", "push", "--clickhouse", url, "--database", "fleet")
    check(rc == 0, f"push gfx ({err.strip()[:200]})")
    got = ask(url, "SELECT window, count() FROM frames FINAL WHERE version_name = '6.0.0' GROUP BY window")
    got = [[w, int(n)] for w, n in got] if isinstance(got, list) else got
    check(got == [["com.example.tv/com.example.tv.Other/android.view.ViewRootImpl@bb22 (visibility=0)", 12]],
          f"the placeholder window's rows stay home: {got}")
    stop()
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
