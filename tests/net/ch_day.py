#!/usr/bin/env python3
"""ch_day.py - the day a capture timed since boot is pushed with (#53 item 9),
against a loopback clickhouse-server: a systrace (clock 'monotonic') and a
capture with times before 2000 take the day they were ingested, never
1970-01-01 (which the man page's `TTL day + INTERVAL 90 DAY` would delete at
once); a launch (startups, dated per row) too; an epoch capture keeps the day of its own times.

    ch_day.py --bin BUILD/cli --monotonic F.txt
"""
import argparse
import atexit
import datetime
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chserver import SERVER, ch, start_server  # noqa: E402

failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def capture(path, app, start):
    ev = [{"type": "meta", "app": app, "version_name": "1.0", "pid": 100, "main_tid": 100},
          {"type": "dispatch", "ts": start, "dur": 700, "msg": ">>>>> Dispatching to Handler (h) {1} null: 0"},
          {"type": "dispatch", "ts": start + 2000, "dur": 20, "msg": ">>>>> Dispatching to Handler (h) {1} null: 0"}]
    with open(path, "w") as f:
        f.write("".join(json.dumps(e) + "\n" for e in ev))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--monotonic", required=True, action="append", help="a capture timed since boot (systrace)")
    a = ap.parse_args()
    if not SERVER:
        print("SKIP: clickhouse-server is not installed (scripts/deps.sh --test installs it)")
        return 77
    signal.alarm(240)
    tmp = tempfile.mkdtemp(prefix="godeye-chday-")
    atexit.register(shutil.rmtree, tmp, True)  # the suite leaves no temporary folder
    url, stop = start_server(tmp)
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    env["GODEYE_DB"] = os.path.join(tmp, "godeye.db")
    godeye = os.path.join(a.bin, "godeye")
    early, epoch = os.path.join(tmp, "early.jsonl"), os.path.join(tmp, "epoch.jsonl")
    capture(early, "com.early", 5000)                 # 5 s after 1970: not a calendar time
    capture(epoch, "com.epoch", 1700000000000)        # 2023-11-14T22:13:20Z
    today = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    p = subprocess.run([godeye, "ingest", "-q", *a.monotonic, early, epoch], capture_output=True, text=True,
                       env=env)
    check(p.returncode == 0, f"ingest ({p.stderr.strip()})")
    p = subprocess.run([godeye, "push", "--clickhouse", url, "--database", "fleet"], capture_output=True,
                       text=True, env=env)
    check(p.returncode == 0, f"push ({p.stderr.strip()})")
    for table in ("traces", "blocks", "dispatches", "startups"):
        rows = ch(url, f"SELECT app, groupUniqArray(toString(day)) FROM fleet.{table} GROUP BY app "
                       "ORDER BY app FORMAT JSONCompact")
        got = {r[0]: sorted(r[1]) for r in json.loads(rows)["data"]}
        check(table == "startups" and len(got) >= 1 or len(got) >= 3, f"{table}: rows of {sorted(got)}")
        for app, days in got.items():
            want = ["2023-11-14"] if app == "com.epoch" else [today]
            check(days == want, f"{table}: {app or '(no app)'} dated {days}, expected {want}")
    stop()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
