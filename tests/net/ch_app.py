#!/usr/bin/env python3
"""ch_app.py - `--app PKG` on the fleet forms (#47 item 2): `diff`, `check`,
`blocks --group` and `anr --group` with --clickhouse keep the rows of the
app's processes, from the process each pushed row names, and give the
local --app answer on the same traces.

    ch_app.py --bin BUILD/cli --examples DIR [--corpus DIR]

The examples (4.11.0 and 4.12.0 of com.example.shop) and, when the corpus
is there (GODEYE_CORPUS), the Android 9 emulator bugreport (version bug;
tests/cli/app_focus_diff_check.test counted it by hand: 19 block groups,
all system_server's; one ANR, com.android.systemui's; the trace's app
com.jeanboy.app.training with 3 launches and 2 frame windows), split over
two workers that push to one server; a third database holds them all.
Each --app answer (json) equals the local one; an app with no process in
the selection gives what the local form gives.  Tables made before the
process columns: push names the ALTER TABLE, fleet answers without --app
still work, --app is one line naming the missing column; after the ALTER
push goes on.  Exit 77 (skipped) when clickhouse-server is not installed.
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import chserver as chp  # noqa: E402

check, failures = chp.check, chp.failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--examples", required=True)
    ap.add_argument("--corpus", default=os.environ.get("GODEYE_CORPUS", ""))
    a = ap.parse_args()
    started = chp.begin(a.bin, "godeye-chapp-")
    if not started:
        return 77
    tmp, url, stop, run = started
    ex = a.examples
    shop = ["--set", "app=com.example.shop"]
    caps = [[os.path.join(ex, "shop.previous.jsonl")], [os.path.join(ex, "shop.jsonl")],
            ["--set", "version=4.12.0", *shop, os.path.join(ex, "shop-anr.txt")],
            ["--set", "version=4.12.0", *shop, os.path.join(ex, "shop-am-start.txt")],
            ["--set", "version=4.11.0", *shop, os.path.join(ex, "shop-logcat.txt")],
            ["--set", "version=4.12.0", *shop, os.path.join(ex, "shop-systrace.txt")]]
    bug = os.path.join(a.corpus, "bugreport", "jeanboydev_bugreport_sdk_gphone_x86_android9.zip")
    if os.path.exists(bug):
        caps.append(["--set", "version=bug", bug])
    else:
        print(f"skipped by name: {os.path.basename(bug)} (not under '{a.corpus}')")
    for i, cap in enumerate(caps):
        for db in ("all", f"w{i % 2}"):
            rc, _, err = run(db, "ingest", "-q", *cap)
            check(rc == 0, f"ingest {os.path.basename(cap[-1])} into {db} ({err.strip()[:200]})")
    for w in ("w0", "w1"):
        rc, out, err = run(w, "push", "--clickhouse", url, "--database", "fleet", "--format", "json")
        check(rc == 0, f"push {w} ({err.strip()[:300]})")
    print("processes pushed:", chp.ch(url, "SELECT 'blocks', uniqExact(process), countIf(process != ''), count()"
                                          " FROM blocks FINAL UNION ALL SELECT 'frames', uniqExact(process),"
                                          " countIf(process != ''), count() FROM frames FINAL UNION ALL"
                                          " SELECT 'anrs', uniqExact(process), countIf(process != ''), count()"
                                          " FROM anrs FINAL").replace("\n", "; "))
    fleet = ("--clickhouse", url, "--database", "fleet")
    same = compared = 0

    def compare(args, what, rows=None):
        nonlocal same, compared
        lrc, lout, lerr = run("all", *args, "--format", "json")
        frc, fout, ferr = run("all", *args, "--format", "json", *fleet)
        lj = json.loads(lout) if lrc == 0 and lout.strip() else None
        fj = json.loads(fout) if frc == 0 and fout.strip() else None
        if args[0] == "blocks":  # a group's other processes: the store's in block order, the fleet's by name
            for r in (lj or []) + (fj or []):
                r["processes"] = r["processes"][:1] + sorted(r["processes"][1:])
        if args[0] == "anr":  # a dump's id and the traces' ids are one database's
            for r in (lj or []) + (fj or []):
                r["id"] = r["reason"] = None
                r["traces"] = len(r["traces"])
        ok = lj is not None and lj == fj and (rows is None or rows(lj))
        compared += 1
        same += ok
        check(ok, f"{' '.join(args)}: fleet = local ({len(lj or [])} rows; exit {lrc}/{frc};"
                  f" {ferr.strip()[:200]} {lerr.strip()[:200]})")
        return lj

    pairs = [("version=4.11.0", "version=4.12.0")] + ([("version=bug", "version=bug")] if len(caps) > 6 else [])
    for base, head in pairs:
        apps = ["com.example.shop", "com.example"] if base.startswith("version=4") else \
            ["com.jeanboy.app.training", "com.android.systemui", "system_server"]
        whole = compare(["diff", base, head], f"diff {base} {head}")
        for app in apps:
            got = compare(["diff", base, head, "--app", app], f"diff --app {app}")
            check(got is not None and whole is not None and (got != whole or app == "com.example.shop"),
                  f"--app {app}: {len(got or [])} of {len(whole or [])} rows")
    if len(caps) > 6:
        # the hand counts of app_focus_diff_check.test, from the fleet
        rc, out, _ = run("all", "diff", "version=bug", "version=bug", "--app", "system_server", "--format", "json",
                         *fleet)
        kinds = sorted({r["kind"] for r in json.loads(out)}) if rc == 0 else None
        check(rc == 0 and len(json.loads(out)) == 19 and kinds == ["group"],
              f"fleet diff --app system_server: 19 groups by hand ({kinds})")
        rc, out, _ = run("all", "diff", "version=bug", "version=bug", "--app", "com.android.systemui", "--format",
                         "json", *fleet)
        got = sorted((r["kind"], r["base"]["count"]) for r in json.loads(out)) if rc == 0 else None
        check(got == [("anr", 1), ("anr_group", 1), ("frames", 120), ("frames", 120)],
              f"fleet diff --app com.android.systemui: the ANR, its group, 2 windows by hand ({got})")
        for app in ("system_server", "com.android.systemui", "com.jeanboy.app.training"):
            compare(["blocks", "--group", "--app", app], f"blocks --group --app {app}")
            compare(["anr", "--group", "--app", app], f"anr --group --app {app}")
        budget = os.path.join(tmp, "sysui.json")
        open(budget, "w").write('{"app": "com.android.systemui", "max": {"anr_count": 0}}')
        for extra in ([], ["--app", "com.jeanboy.app.training"]):
            lrc, lout, lerr = run("all", "check", "--budget", budget, "version=bug", *extra, "--format", "csv")
            frc, fout, ferr = run("all", "check", "--budget", budget, "version=bug", *extra, "--format", "csv", *fleet)
            compared += 1
            same += lrc == frc and lout == fout and lerr == ferr
            check(lrc == frc == (3 if not extra else 0) and lout == fout and lerr == ferr,
                  f"check --budget (app systemui) {' '.join(extra)}: exit {frc} as local {lrc}, {fout.strip()!r}")
    compare(["blocks", "--group", "--app", "com.example.shop"], "blocks --group --app com.example.shop")
    compare(["blocks", "--group", "--app", "no.such.app"], "blocks --group --app no.such.app", lambda r: r == [])
    print(f"equal: {same} of {compared} comparisons")

    # tables made before the process columns (#47): push names the ALTER,
    # answers without --app still work, --app names the missing column
    rc, _, err = run("w0", "push", "--clickhouse", url, "--database", "old")
    check(rc == 0, f"push w0 into old ({err.strip()[:200]})")
    chp.ch(url, "ALTER TABLE blocks DROP COLUMN process", db="old")
    rc, out, _ = run("all", "diff", "version=4.11.0", "version=4.12.0", "--format", "json", "--clickhouse", url,
                     "--database", "old")
    check(rc == 0 and json.loads(out), f"diff over the older tables, no --app: exit {rc}")
    rc, out, err = run("all", "blocks", "--group", "--clickhouse", url, "--database", "old")
    check(rc == 1 and "blocks.process" in err, f"blocks --group (its rows name their processes): exit {rc},"
                                                f" {err.strip()[:200]}")
    rc, out, err = run("all", "blocks", "--group", "--app", "com.example.shop", "--clickhouse", url, "--database",
                       "old")
    check(rc == 1 and "blocks.process" in err and len(err.strip().splitlines()) == 1,
          f"--app over the older tables: exit {rc}, {err.strip()[:300]}")
    rc, _, err = run("w1", "push", "--clickhouse", url, "--database", "old")
    alter = "ALTER TABLE blocks ADD COLUMN process String DEFAULT ''"
    check(rc == 1 and alter in err, f"push names the ALTER: exit {rc}, {err.strip()[:300]}")
    chp.ch(url, alter, db="old")
    rc, _, err = run("w1", "push", "--clickhouse", url, "--database", "old")
    check(rc == 0, f"after the ALTER push goes on ({err.strip()[:200]})")
    stop()
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
