#!/usr/bin/env python3
"""clickhouse_push.py - `godeye push` into a real clickhouse-server on loopback.

    clickhouse_push.py --bin BUILD/cli --fixture F.jsonl [--examples DIR]

Starts clickhouse-server with its own minimal config (127.0.0.1, free ports,
data and logs under a temporary folder), waits for /ping, pushes the fixture
(and every capture in examples/) twice, compares row counts and aggregates
with godeye's own (`godeye sql`, `godeye blocks --group`), checks a server
error is reported with ClickHouse's message, and stops the server on any
exit.  Exit 77 (skipped) when clickhouse-server is not installed.
"""
import argparse
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--fixture", required=True, action="append", help="a capture (repeatable)")
    ap.add_argument("--examples")
    a = ap.parse_args()
    if not SERVER:
        print("SKIP: clickhouse-server is not installed (scripts/deps.sh --test installs it)")
        return 77
    signal.alarm(300)
    tmp = tempfile.mkdtemp(prefix="godeye-ch-")
    url, stop = start_server(tmp)
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    env["GODEYE_DB"] = os.path.join(tmp, "godeye.db")
    godeye = os.path.join(a.bin, "godeye")

    def run(*args):
        p = subprocess.run([godeye] + list(args), capture_output=True, env=env, timeout=120)
        return p.returncode, p.stdout.decode(), p.stderr.decode()

    def gsql(sql):
        rc, out, err = run("sql", "--format", "json", sql)
        return list(json.loads(out)[0].values())[0] if rc == 0 else f"error: {err}"

    inputs = list(a.fixture)
    if a.examples and os.path.isdir(a.examples):
        inputs += sorted(os.path.join(a.examples, f) for f in os.listdir(a.examples)
                         if f.endswith((".jsonl", ".jsonl.gz")))
    rc, out, err = run("ingest", "-q", *inputs)
    check(rc == 0, f"ingest {len(inputs)} capture(s) ({err.strip()})")

    push = ("push", "--clickhouse", url, "--database", "fleet", "--batch", "3", "--format", "json")
    rc, out, err = run(*push)
    first = json.loads(out) if rc == 0 else []
    ntraces = gsql("SELECT count(*) FROM trace")
    check(rc == 0 and len(first) == ntraces and all(r["pushed"] for r in first),
          f"first push sends all {ntraces} traces ({err.strip()})")
    rc, out, err = run(*push)
    second = json.loads(out) if rc == 0 else []
    check(rc == 0 and len(second) == ntraces and not any(r["pushed"] for r in second)
          and all(r["rows"] == 0 for r in second), f"second push sends nothing ({err.strip()})")

    # the same rows as JSONEachRow (the format before TabSeparated): every
    # table identical, strings with tabs, newlines, quotes, controls included
    rc, out, err = run("push", "--clickhouse", url, "--database", "fleetjson", "--batch", "5",
                       "--json-rows", "--format", "json")
    check(rc == 0 and sum(r["rows"] for r in json.loads(out)) == sum(r["rows"] for r in first),
          f"push --json-rows sends the same number of rows ({err.strip()})")
    tables = ch(url, "SELECT name FROM system.tables WHERE database = 'fleet' ORDER BY name").split()
    check(len(tables) == 13 and "stack_paths" in tables, f"13 tables (#52: stack_paths): {tables}")
    for t in tables:
        cols = ch(url, f"SELECT name FROM system.columns WHERE database = 'fleet' AND table = '{t}'"
                       " AND name != 'pushed_at'").split()
        key = "trace_uid" + (", seq" if "seq" in cols else "")
        sql = f"SELECT {', '.join(cols)} FROM {t} ORDER BY {key} FORMAT TSV"
        tsv, js = ch(url, sql), ch(url, sql, db="fleetjson")
        n = ch(url, f"SELECT count() FROM {t}")
        check(tsv == js, f"{t}: {n} rows, TabSeparated push = JSONEachRow push")
    weird = ("tab\there nl\nthere cr\rback\\slash \"dq\" 'sq' \u0001\u001f\u007f"
             " \u00e9\u65e5\u672c \U0001F600 \\N \\t end")  # as in strings.jsonl
    got = [json.loads(line) for line in ch(url, "SELECT msg, what FROM dispatches WHERE"
                                                " position(msg, '(com.example.H') > 0"
                                                " FORMAT JSONEachRow").splitlines()]
    check(got == [{"msg": ">>>>> Dispatching to Handler (com.example.H\t\\x) {b2} " + weird + ": 3",
                   "what": "3"}], f"the message with tabs, newlines, quotes, controls arrived intact: {got}")
    got = ch(url, "SELECT frames FROM stack_samples WHERE has(frames, 'x.Y.z(Y.java:1)')"
                  " FORMAT JSONEachRow")
    check(json.loads(got or "{}").get("frames") == ["a.B.c(" + weird + ")", "x.Y.z(Y.java:1)",
                                                    "tab\tframe\\ 'q' \u00e9"],
          f"frames with tabs, backslashes and quotes arrived intact: {got!r}")

    # a value without an exact TabSeparated form (text in an Int64 column,
    # which ClickHouse reads from JSON) goes as JSONEachRow, and is counted
    ddl = ch(url, "SHOW CREATE TABLE dispatches").replace("\\n", "\n")
    ddl = ddl.replace("what String", "what Int64").replace("fleet.dispatches", "dispatches")
    for db in ("fallback", "fallbackjson"):
        ch(url, f"CREATE DATABASE {db}", db="default")
        ch(url, ddl, db=db)
    rc, out, err = run("push", "--clickhouse", url, "--database", "fallback", "--timings")
    ndisp = gsql("SELECT count(*) FROM dispatch")
    njson = int(err.split("; ")[-1].split()[0]) if rc == 0 and "; " in err else -1
    check(rc == 0 and njson >= ndisp, f"dispatches with text in an Int64 column as JSONEachRow: {err.strip()}")
    run("push", "--clickhouse", url, "--database", "fallbackjson", "--json-rows")
    sql = "SELECT * FROM dispatches ORDER BY trace_uid, seq FORMAT TSV"
    got = ch(url, sql, db="fallback")
    check(got == ch(url, sql, db="fallbackjson") and got.count("\n") + 1 == ndisp,
          f"those {ndisp} rows are the same as a --json-rows push's")

    counts = {"traces": "trace", "dispatches": "dispatch", "blocks": "block",
              "stack_samples": "sample", "events": "raw_event"}
    for chtab, table in counts.items():
        got, want = ch(url, f"SELECT count() FROM {chtab}"), gsql(f"SELECT count(*) FROM {table}")
        check(int(got) == want, f"{chtab}: {got} rows in ClickHouse, {want} in godeye")
    got = float(ch(url, "SELECT sum(dur_ms) FROM dispatches"))
    want = gsql("SELECT sum(dur_ms) FROM dispatch")
    check(abs(got - want) < 1e-6, f"sum of dispatch durations: {got} vs {want}")
    frames = int(ch(url, "SELECT sum(length(frames)) FROM stack_samples"))
    want = gsql("SELECT sum(c.depth) FROM sample s JOIN callsite c ON c.id = s.callsite")
    check(frames == want, f"stack frames resolved: {frames} vs {want}")

    # the analyses' rows: frames, page timelines, overdraw, image issues
    got, want = ch(url, "SELECT count() FROM frames"), gsql("SELECT count(*) FROM frame_time")
    check(int(got) == want, f"frames: {got} rows in ClickHouse, {want} in godeye")
    for chtab, cmd in (("pages", "pages"), ("overdraw", "overdraw"), ("image_issues", "images"),
                       ("startups", "startup")):
        rc, out, err = run(cmd, "--format", "json")
        rows_ = json.loads(out) if rc == 0 else []
        got = ch(url, f"SELECT count() FROM {chtab}")
        check(rc == 0 and int(got) == len(rows_), f"{chtab}: {got} rows in ClickHouse, {len(rows_)} from godeye {cmd}")
        if chtab == "pages":
            want = sum(r["draw_ms"] for r in rows_ if r["draw_ms"] is not None)
            got = float(ch(url, "SELECT sum(draw_ms) FROM pages") or 0)
            check(abs(got - want) < 1e-3, f"sum of page draw times: {got} vs {want}")
        if chtab == "image_issues":
            want = sum(r["wasted_bytes"] for r in rows_)
            got = int(ch(url, "SELECT sum(wasted_bytes) FROM image_issues") or 0)
            check(got == want, f"wasted bytes: {got} vs {want}")

    rc, out, err = run("blocks", "--group", "--format", "json")
    groups = {g["group"]: g for g in json.loads(out) if g["group"]} if rc == 0 else {}
    rows = ch(url, "SELECT grp, sum(count), sum(total_ms), max(max_ms) FROM block_groups"
                   " GROUP BY grp ORDER BY grp FORMAT JSONCompact")
    chg = {r[0]: r[1:] for r in json.loads(rows)["data"]}
    check(len(groups) > 0 and set(chg) == set(groups),
          f"block groups: {sorted(chg)} vs godeye's {sorted(groups)}")
    for g, (cnt, total, mx) in chg.items():
        if g in groups:
            want = groups[g]
            check(int(cnt) == want["count"] and abs(float(total) - want["total_ms"]) < 1e-3
                  and abs(float(mx) - want["max_ms"]) < 1e-3,
                  f"group {g}: count {cnt}, total {total}, max {mx} vs {want['count']},"
                  f" {want['total_ms']}, {want['max_ms']}")
    by_kind = ch(url, "SELECT kind, count() FROM blocks GROUP BY kind ORDER BY kind FORMAT JSONCompact")
    for kind, n in json.loads(by_kind)["data"]:
        rc, out, err = run("blocks", "--kind", kind, "--format", "json")
        check(rc == 0 and len(json.loads(out)) == int(n), f"{kind} blocks: {n} in ClickHouse")

    # a server error comes back with ClickHouse's message and what was sent.
    # The tables go on two connections side by side, each taking the next
    # table when it is free; after a refusal the other ends the INSERT it
    # has under way and starts none.  How far it got depends on timing, so
    # each count the message gives is checked against the server's own, in
    # a database of its own where one column cannot take the rows (an Int64
    # for text)
    schema_sql = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                   "schemas", "clickhouse.sql")).read()

    def refused(database, table, column, ranges):
        ddl = schema_sql[schema_sql.index(f"CREATE TABLE IF NOT EXISTS {table} ("):]
        ddl = ddl[:ddl.index(";")]
        ddl = re.sub(r"\n  %s( +)String[^,\n]*" % column, r"\n  %s\1Int64" % column, ddl)
        ch(url, f"CREATE DATABASE {database}", db="default")
        ch(url, ddl, db=database)
        rc, out, err = run("push", "--clickhouse", url, "--database", database, "--batch", "3")
        # the traces go in batches (#53 item 9): the message names the
        # batch's traces, trace 1 first, and what the server took of them
        m = re.search(r"\(traces? 1(?:[,.\d ]*\(\d+ traces\))?: rows (\d+\.\.\d+) of '(\w+)' refused;"
                      r" accepted for (?:it|them): ([^;]*); (?:its|their) traces rows? (?:was|were) not sent", err)
        took = {t: int(n) for t, n in (item.rsplit(" ", 1) for item in m.group(3).split(", "))} \
            if m else {}
        tables = ch(url, "SELECT name FROM system.tables WHERE database = currentDatabase()"
                         " ORDER BY name", db=database).split("\n")
        server = {t: int(ch(url, f"SELECT count() FROM {t}", db=database)) for t in tables}
        check(rc == 1 and err.count("\n") == 1
              and err.startswith(f"godeye push: '{url}': clickhouse: Code: ")
              and m and m.group(2) == table and m.group(1) in ranges and took.get(table) == 0
              and server["traces"] == 0 and all(server[t] == took.get(t, 0) for t in tables),
              f"{table} refused: the server's message, and what it took: said {took}, it has"
              f" {server} ({err.strip()!r})")

    # trace 1 (pairing.jsonl) has one event; its `json` the Int64 cannot be
    refused("refused_events", "events", "json", ("1..1", "1..3"))
    # its 7 dispatches, text in `msg` (the rows go as JSONEachRow, refused
    # as well), while the other connection sends the next tables
    refused("refused_dispatches", "dispatches", "msg", ("1..3",))

    # a table made by an older godeye (blocks without the "why" columns of
    # #29): push says so before sending anything and names the ALTER TABLE
    # that adds them; once run, the push goes through
    why = ("running_ms", "runnable_ms", "sleeping_ms", "uninterruptible_ms", "states_covered_ms",
           "binder_ms", "lock_ms")
    schema = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "schemas",
                               "clickhouse.sql")).read()
    ddl = schema[schema.index("CREATE TABLE IF NOT EXISTS blocks ("):]
    ddl = ddl[:ddl.index(";", ddl.index(") ENGINE"))]
    # (#47: nor the process column)
    old = "\n".join(line for line in ddl.split("\n")
                    if line.strip().split(" ")[0] not in why + ("process",) and not line.strip().startswith("--"))
    old = old.replace("grp_rule      String DEFAULT '',", "grp_rule      String DEFAULT ''")
    ch(url, "CREATE DATABASE old", db="default")
    ch(url, old, db="old")
    # and dispatches without thread_ms: every missing column of every
    # table is named at once (#53 item 9: it took one run per table)
    dd = schema[schema.index("CREATE TABLE IF NOT EXISTS dispatches ("):]
    dd = dd[:dd.index(";", dd.index(") ENGINE"))]
    dd = "\n".join(line for line in dd.split("\n")
                   if line.strip().split(" ")[0] != "thread_ms" and not line.strip().startswith("--"))
    ch(url, dd, db="old")
    rc, out, err = run("push", "--clickhouse", url, "--database", "old")
    alter = err.split("add them once with ")[-1].strip()
    alters = alter.split("; ")
    check(rc == 1 and err.count("\n") == 1 and "2 tables lack 9 columns of this godeye" in err
          and len(alters) == 2
          and alters[0] == "ALTER TABLE dispatches ADD COLUMN thread_ms Nullable(Float64)"
          and alters[1].startswith("ALTER TABLE blocks ADD COLUMN running_ms Nullable(Float64), ADD COLUMN")
          and all(c in alters[1] for c in why + ("process",)) and ch(url, "SELECT count() FROM traces", db="old") == "0",
          f"old blocks and dispatches tables: nothing sent, both ALTERs named: {err.strip()!r}")
    # the gate over such tables: one line saying so, exit 1
    rc, out, err = run("blocks", "--group", "--clickhouse", url, "--database", "old")
    check(rc == 1 and err.count("\n") == 1 and "tables made by an older godeye lack 9 columns: " in err
          and "dispatches.thread_ms" in err and all(f"blocks.{c}" in err for c in why + ("process",)),
          f"blocks --group over the old tables names every missing column: {err.strip()!r}")
    for a1 in alters:
        ch(url, a1, db="old")
    rc, out, err = run("push", "--clickhouse", url, "--database", "old")
    n = ch(url, "SELECT count(), countIf(isNotNull(lock_ms)) FROM blocks", db="old").split()
    check(rc == 0 and int(n[0]) == gsql("SELECT count(*) FROM block"),
          f"after that ALTER the push goes through: {n[0]} blocks ({err.strip()})")

    rc, out, err = run("push", "--clickhouse", "http://127.0.0.1:1", "--database", "fleet")
    check(rc == 1 and err.startswith("godeye push: 'http://127.0.0.1:1': clickhouse: "),
          f"unreachable server: {err!r}")
    stop()
    print(f"{len(failures)} failed")
    if not failures:
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
