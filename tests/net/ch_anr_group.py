#!/usr/bin/env python3
"""ch_anr_group.py - `godeye anr --group --clickhouse` (#48 item 6: the ANR
signature pushed with the ANR rows) against a real clickhouse-server on
loopback, compared with the same command over one local database.

    ch_anr_group.py --bin BUILD/cli --fixtures tests/fixtures

The captures of tests/cli/anr_groups.test: ten of one deadlock ANR (6 of
4.11.0, 4 of 4.12.0) and two of a service ANR (4.12.0), counted by hand
there.  Two workers each push half; a third database holds them all.
The fleet's groups equal the local ones (signature, type, count, apps,
versions first and last, devices, number of traces); the fleet's diff names
the service ANR's group new, as the local diff does, row for row.  Exit 77
(skipped) when clickhouse-server is not installed.
"""
import argparse
import atexit
import json
import os
import shutil
import signal
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import chserver as chp  # noqa: E402

check, failures = chp.check, chp.failures


def comparable(rows):
    """A group row without what is one database's own (its ids)."""
    return sorted((r["signature"], r["type"], r["type_label"], r["count"], sorted(r["apps"]), r["first_version"],
                   r["last_version"], sorted(r["devices"]), len(r["traces"])) for r in rows)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--fixtures", required=True)
    a = ap.parse_args()
    if not chp.SERVER:
        print("SKIP: clickhouse-server is not installed (scripts/deps.sh --test installs it)")
        return 77
    signal.alarm(250)
    tmp = tempfile.mkdtemp(prefix="godeye-anrgroup-")
    atexit.register(shutil.rmtree, tmp, True)  # the suite leaves no temporary folder
    url, stop = chp.start_server(tmp)
    run = chp.godeye_runner(a.bin, tmp)

    caps = []
    dl = open(os.path.join(a.fixtures, "anr", "deadlock2.txt")).read()
    sv = open(os.path.join(a.fixtures, "anr", "notes_service_anr.txt")).read()
    for i in range(1, 11):
        p = os.path.join(tmp, f"shop{i}.txt")
        open(p, "w").write(dl.replace("10:11:12", f"10:1{i}:00" if i <= 6 else f"11:{i + 10}:00"))
        caps.append(("4.11.0" if i <= 6 else "4.12.0", p))
    for i in (1, 2):
        p = os.path.join(tmp, f"notes{i}.txt")
        open(p, "w").write(sv.replace("10:15:02", f"10:2{i}:02"))
        caps.append(("4.12.0", p))
    for i, (ver, p) in enumerate(caps):
        for db in ("all", f"w{i % 2}"):
            rc, _, err = run(db, "ingest", "-q", "--set", f"version={ver}", p)
            check(rc == 0, f"ingest {os.path.basename(p)} into {db} ({err.strip()})")
    for w in ("w0", "w1"):
        rc, out, err = run(w, "push", "--clickhouse", url, "--database", "fleet", "--format", "json")
        check(rc == 0, f"push {w} ({err.strip()})")
    fleet = ("--clickhouse", url, "--database", "fleet")
    n = chp.ch(url, "SELECT signature, count() FROM anrs FINAL WHERE kind = 'dump' AND anr = 1"
                    " GROUP BY signature ORDER BY signature FORMAT JSONCompact")
    check([int(c) for _, c in json.loads(n)["data"]] == [2, 10], f"the pushed signatures: {n}")

    lrc, lout, lerr = run("all", "anr", "--group", "--format", "json")
    frc, fout, ferr = run("all", "anr", "--group", *fleet, "--format", "json")
    local = json.loads(lout) if lrc == 0 else []
    got = json.loads(fout) if frc == 0 else []
    check([r["count"] for r in local] == [10, 2], f"local groups: counts {[r['count'] for r in local]} (10 and 2 by hand)")
    check(lrc == 0 and frc == 0 and comparable(local) == comparable(got),
          f"anr --group: fleet = local ({ferr.strip()} {lerr.strip()})\n  local {comparable(local)}\n  fleet {comparable(got)}")
    check([r["count"] for r in got] == [10, 2] and all(r["id"] is None for r in got),
          "the fleet's order: the largest first; no dump id (one database's)")
    rc, out, err = run("all", "anr", "--group", *fleet)
    check(rc == 0 and "4.11.0..4.12.0" in out and "com.example.notes" in out, f"the table: {out.strip()[:300]}")
    rc, _, err = run("all", "anr", *fleet)
    check(rc == 2 and "--clickhouse goes with --group" in err, f"anr --clickhouse without --group: exit {rc}, {err.strip()}")

    # the gate: the ANR groups in the fleet's diff as in the local one
    for base, head in (("version=4.11.0", "version=4.12.0"), ("version=4.12.0", "version=4.11.0")):
        lrc, lout, lerr = run("all", "diff", base, head, "--format", "json")
        frc, fout, ferr = run("all", "diff", *fleet, base, head, "--format", "json")
        lg = [r for r in json.loads(lout) if r["kind"] == "anr_group"] if lrc == 0 else None
        fg = [r for r in json.loads(fout) if r["kind"] == "anr_group"] if frc == 0 else None
        check(lg and lg == fg and {r["status"] for r in lg} & {"new", "gone"},
              f"diff {base} {head}: anr_group rows {[(r['status'], r['base']['count'], r['head']['count']) for r in lg or []]}"
              f" fleet = local ({ferr.strip()} {lerr.strip()})")
    stop()
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
