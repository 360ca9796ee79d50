#!/usr/bin/env python3
"""ch_retag.py - a trace re-ingested with other --set tags reaches the server
(#53 item 9), against a loopback clickhouse-server: the content hash is the
same, so push used to find its trace_uid there and send nothing.  Now push
sees that the server's traces row holds other tags (app, version_name,
version_code, device, build), deletes the trace's old rows from every table
and sends it again: every table then holds it once, with the new tags only,
as many rows as before; a third push sends nothing; a replacement
interrupted after its first deletions is finished by the next push.  Where the deletion is
refused (a table whose engine has no mutations), push exits 1 with one line
naming the trace, the tags and the ALTER that does it, and nothing is lost:
its traces row stays, so the next push tries again.

    ch_retag.py --bin BUILD/cli
"""
import argparse
import atexit
import json
import os
import re
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


def capture(path, app, n):
    ev = [{"type": "meta", "app": app, "version_name": "1.0", "pid": 100, "main_tid": 100}]
    for i in range(n):
        ev.append({"type": "dispatch", "ts": 1700000000000 + 1000 * i, "dur": 700 if i % 2 else 20,
                   "msg": f">>>>> Dispatching to Handler (h{i % 3}) {{1}} null: {i}"})
    with open(path, "w") as f:
        f.write("".join(json.dumps(e) + "\n" for e in ev))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    a = ap.parse_args()
    if not SERVER:
        print("SKIP: clickhouse-server is not installed (scripts/deps.sh --test installs it)")
        return 77
    signal.alarm(240)
    tmp = tempfile.mkdtemp(prefix="godeye-chretag-")
    atexit.register(shutil.rmtree, tmp, True)  # the suite leaves no temporary folder
    url, stop = start_server(tmp)
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    env["GODEYE_DB"] = os.path.join(tmp, "godeye.db")
    godeye = os.path.join(a.bin, "godeye")

    def run(*args):
        p = subprocess.run([godeye] + list(args), capture_output=True, text=True, env=env, timeout=120)
        return p.returncode, p.stdout, p.stderr

    ca, cb = os.path.join(tmp, "a.jsonl"), os.path.join(tmp, "b.jsonl")
    capture(ca, "com.a", 9)
    capture(cb, "com.b", 5)
    rc, out, err = run("ingest", "-q", ca, cb)
    check(rc == 0, f"ingest ({err.strip()})")
    tables = ("traces", "dispatches", "blocks", "block_groups")

    def counts(db):
        return {t: json.loads(ch(url, f"SELECT trace_uid, count(), groupUniqArray(version_name),"
                                      f" groupUniqArray(app) FROM {t} GROUP BY trace_uid ORDER BY trace_uid"
                                      " FORMAT JSONCompact", db=db))["data"] for t in tables}

    def push(db):
        rc, out, err = run("push", "--clickhouse", url, "--database", db, "--batch", "4", "--format", "json")
        return rc, {r["trace"]: r for r in json.loads(out)} if rc == 0 else {}, err

    rc, first, err = push("fleet")
    check(rc == 0 and all(r["pushed"] and not r["replaced"] for r in first.values()) and len(first) == 2,
          f"first push sends both traces ({err.strip()})")
    uid = first[1]["trace_uid"]
    before = counts("fleet")

    # the same bytes again with a corrected version and build
    rc, out, err = run("rm", "1")
    check(rc == 0, f"rm 1 ({err.strip()})")
    rc, out, err = run("ingest", "-q", "--set", "version=1.1", "--set", "build=b7", ca)
    check(rc == 0, f"ingest again with --set version=1.1 ({err.strip()})")
    rc, out, err = run("traces", "--format", "json")
    new = [t["trace"] for t in json.loads(out) if t.get("version_name") == "1.1"] \
        if rc == 0 else []
    check(len(new) == 1, f"the retagged trace is {new}")
    rc, second, err = push("fleet")
    r = second.get(new[0] if new else -1, {})
    check(rc == 0 and r.get("trace_uid") == uid and r.get("pushed") and r.get("replaced")
          and r.get("rows") == first[1]["rows"],
          f"second push replaces the retagged trace: {r} ({err.strip()})")
    other = second.get(2, {})
    check(other.get("pushed") is False and other.get("replaced") is False and other.get("rows") == 0,
          f"the other trace is not sent again: {other}")
    after = counts("fleet")
    for t in tables:
        want = [[u, n, ["1.1"] if u == uid else v, apps] for u, n, v, apps in before[t]]
        check(after[t] == want and len(want) >= 1 and int(want[0][1]) > 0,
              f"{t}: the trace once, with version 1.1 only, as many rows: {after[t]} (before {before[t]})")
    build = ch(url, f"SELECT groupUniqArray(build) FROM traces WHERE trace_uid = '{uid}'", db="fleet")
    check(build == "['b7']", f"its build is b7: {build}")
    rc, third, err = push("fleet")
    check(rc == 0 and not any(r["pushed"] or r["replaced"] for r in third.values()),
          f"a third push sends nothing ({err.strip()})")
    # the gate over the server = local
    rc, local, _ = run("blocks", "--group", "--format", "json")
    rc2, fleet, err = run("blocks", "--group", "--format", "json", "--clickhouse", url, "--database", "fleet")
    key = lambda rows: sorted((g["group"], g["count"]) for g in rows)  # noqa: E731
    check(rc == 0 and rc2 == 0 and key(json.loads(local)) == key(json.loads(fleet)) and json.loads(local),
          f"blocks --group over the server = local ({err.strip()})")

    # a replacement killed after its first deletions (dispatches' rows gone,
    # the traces row still there with the old tags): the next push sees the
    # old tags and replaces the trace in full; no row lost or doubled
    ids = [t["trace"] for t in json.loads(run("traces", "--format", "json")[1]) if t["app"] == "com.a"]
    run("rm", str(ids[0]))
    run("ingest", "-q", "--set", "version=1.2", ca)
    ch(url, f"ALTER TABLE dispatches DELETE WHERE trace_uid = '{uid}'", db="fleet")
    rc, fourth, err = push("fleet")
    check(rc == 0 and sum(r["replaced"] for r in fourth.values()) == 1,
          f"after an interrupted replacement the next push replaces it ({err.strip()})")
    after = counts("fleet")
    for t in tables:
        want = [[u, n, ["1.2"] if u == uid else v, apps] for u, n, v, apps in before[t]]
        check(after[t] == want, f"{t}: once, with version 1.2 only: {after[t]}")

    # a server that cannot delete (events without mutations): one line that
    # names the trace, the tags and the ALTER; its traces row stays
    schema = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "schemas",
                               "clickhouse.sql")).read()
    ddl = schema[schema.index("CREATE TABLE IF NOT EXISTS events ("):]
    ddl = ddl[:ddl.index(";", ddl.index(") ENGINE"))]
    ddl = re.sub(r"\) ENGINE = .*", ") ENGINE = Log", ddl, flags=re.S)
    ch(url, "CREATE DATABASE nomut", db="default")
    ch(url, ddl, db="nomut")
    def retag(version):
        ids = [t["trace"] for t in json.loads(run("traces", "--format", "json")[1]) if t["app"] == "com.a"]
        rc, out, err = run("rm", str(ids[0]))
        rc2, out, err2 = run("ingest", "-q", "--set", f"version={version}", ca)
        check(len(ids) == 1 and rc == 0 and rc2 == 0, f"trace {ids} ingested again as {version} ({err}{err2})")
    retag("1.0")
    rc, out, err = push("nomut")
    check(rc == 0, f"push into nomut ({err.strip()})")
    retag("2.0")
    rc, out, err = push("nomut")
    check(rc == 1 and err.count("\n") == 1 and f"('{uid}') is on the server with other tags" in err
          and "version_name '1.0' there, '2.0' here" in err
          and f"ALTER TABLE T DELETE WHERE trace_uid = '{uid}'" in err,
          f"deletion refused: one line naming trace, tags and ALTER: {err.strip()!r}")
    got = ch(url, f"SELECT version_name FROM traces WHERE trace_uid = '{uid}'", db="nomut")
    check(got == "1.0", f"its traces row stays (the next push tries again): {got!r}")
    stop()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
