#!/usr/bin/env python3
"""clickhouse_gate.py - the release gate over a fleet (`diff`, `check`,
`blocks --group` with --clickhouse) against a real clickhouse-server on
loopback, compared with the same commands over one local database.

    clickhouse_gate.py --bin BUILD/cli --examples DIR

Three worker databases share the traces (generated pairs of three seeds,
tests/oracle/gendiff.py, and the shipped examples), each is pushed to one
server; a fourth database holds them all.  Fleet and local must give the
same diff rows (--format json, row for row), the same check rows and exit
codes (pass and fail budgets), the same block groups.  Rows pushed twice
(FINAL) change nothing; a closed port, a missing database and a server that
never answers (--timeout 1) each give one line and exit 1.  Exit 77
(skipped) when clickhouse-server is not installed.
"""
import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import chserver as chp  # noqa: E402  (SERVER, start_server, ch, free_port)

check, failures = chp.check, chp.failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--examples", required=True)
    a = ap.parse_args()
    if not chp.SERVER:
        print("SKIP: clickhouse-server is not installed (scripts/deps.sh --test installs it)")
        return 77
    signal.alarm(400)
    tmp = tempfile.mkdtemp(prefix="godeye-gate-")
    url, stop = chp.start_server(tmp)
    run = chp.godeye_runner(a.bin, tmp)

    # the captures: three seeds of generated pairs, and the examples
    caps = []
    gen = os.path.join(HERE, "..", "oracle", "gendiff.py")
    for seed in (1, 2, 3):
        for role, ver, start in (("base", "3.1.0", 1700000000000), ("head", "3.2.0", 1700100000000)):
            out = os.path.join(tmp, f"{role}{seed}.jsonl")
            subprocess.run([sys.executable, gen, "--role", role, "--seed", str(seed), "--version", ver,
                            "--start", str(start + seed * 1000000), "--out", out], check=True)
            caps.append([out])
    ex = a.examples
    caps += [[os.path.join(ex, "shop.previous.jsonl")], [os.path.join(ex, "shop.jsonl")],
             ["--set", "version=4.12.0", "--set", "app=com.example.shop", "--set", "build=b42",
              os.path.join(ex, "shop-anr.txt")],
             ["--set", "version=4.12.0", "--set", "app=com.example.shop", os.path.join(ex, "shop-am-start.txt")],
             ["--set", "version=4.11.0", "--set", "app=com.example.shop", os.path.join(ex, "shop-logcat.txt")],
             # 3 monitor contentions, no scheduling data: lock shares only
             ["--set", "version=4.12.0", "--set", "app=com.example.shop", os.path.join(ex, "shop-systrace.txt")]]
    # Perfetto traces written by tests/perfetto/ftgen.py: one with both
    # FrameTimeline frames and doFrame slices, one with FrameTimeline only
    pf = os.path.join(HERE, "..", "fixtures", "perfetto")
    for name, ver in (("frame_timeline_and_doframe", "5.0.0"), ("frame_timeline_metric", "5.1.0")):
        out = os.path.join(tmp, name + ".perfetto-trace")
        subprocess.run([sys.executable, os.path.join(HERE, "..", "perfetto", "ftgen.py"),
                        os.path.join(pf, name + ".json"), out], check=True)
        caps.append(["--set", f"version={ver}", "--set", "app=com.example.frames", out])
    # scheduling and lock data (#26/#29): generated systrace text, 6 blocks
    # of 600 ms a side (tests/fixtures/states/diffgen.py); base Running 350 ms
    # then D 250 ms, head Running 150 ms, 100 ms Sleeping in a monitor
    # contention, then D 350 ms.  Base and head land in different workers;
    # the other traces have no such data (their blocks' shares are null)
    dg = os.path.join(HERE, "..", "fixtures", "states", "diffgen.py")
    for ver, args in (("6.0.0", ("250", "6")), ("6.1.0", ("350", "6", "100"))):
        out = os.path.join(tmp, f"states-{ver}.systrace")
        subprocess.run([sys.executable, dg, args[0], args[1], out, *args[2:]], check=True)
        caps.append(["--set", f"version={ver}", "--set", "app=com.example.app", out])
    for i, cap in enumerate(caps):
        for db in ("all", f"w{i % 3}"):
            rc, _, err = run(db, "ingest", "-q", *cap)
            check(rc == 0, f"ingest {os.path.basename(cap[-1])} into {db} ({err.strip()})")
    for w in ("w0", "w1", "w2"):
        rc, out, err = run(w, "push", "--clickhouse", url, "--database", "fleet", "--format", "json")
        check(rc == 0 and all(r["pushed"] for r in json.loads(out)), f"push {w} ({err.strip()})")
    fleet = ("--clickhouse", url, "--database", "fleet")
    # the fleet's ANR counts by the local rule, one row per trace
    n = chp.ch(url, "SELECT kind, count() FROM anrs FINAL GROUP BY kind ORDER BY kind FORMAT JSONCompact")
    n = {k: int(v) for k, v in json.loads(n)["data"]}
    lrc, lout, _ = run("all", "sql", "--format", "json", "SELECT count(*) AS n FROM anr_dump")
    check(n.get("dump") == json.loads(lout)[0]["n"] and n.get("block", 0) >= 1,
          f"anrs: {n} (dumps as in the anr_dump view)")

    def same_diff(base, head, what):
        lrc, lout, lerr = run("all", "diff", base, head, "--format", "json")
        frc, fout, ferr = run("all", "diff", *fleet, base, head, "--format", "json")
        local = json.loads(lout) if lrc == 0 else None
        got = json.loads(fout) if frc == 0 else None
        check(lrc == 0 and frc == 0 and local == got and len(local) > 0,
              f"{what}: fleet diff {base} {head} = local, {len(local or [])} rows"
              f" ({ferr.strip()} {lerr.strip()})")
        if local != got and local and got:
            for x, y in zip(local, got):
                if x != y:
                    print("  local:", json.dumps(x)[:600])
                    print("  fleet:", json.dumps(y)[:600])
                    break
        return local or []

    # #48: the ANR groups (signatures pushed with the ANR rows) are in both
    lrc, lout, _ = run("all", "diff", "version=4.11.0", "version=4.12.0", "--format", "json")
    ng = [r for r in json.loads(lout) if r["kind"] == "anr_group"] if lrc == 0 else []
    check(len(ng) >= 1, f"the examples' diff has anr_group rows: {[(r['status'], r['name'][:60]) for r in ng]}")

    # the state rows (#26): the same in both, through the same row handlers.
    # By hand from diffgen.py: uninterruptible_ms 250 -> 350 ms in every
    # block (shift +100, 6 against 6 all tied: Mann-Whitney p = 0.001262 as
    # in cli/states_diff.test), lock_ms 0 -> 100 (6 x 100 = 600 ms in the
    # head), running_ms 350 -> 150 improved, sleeping_ms 0 -> 100 regressed
    rows = same_diff("version=6.0.0", "version=6.1.0", "thread states and locks")
    st = {r["metric"]: r for r in rows if r["kind"] == "group" and r["name"] == "Handler: com.example.Feed"}
    want = {None: "same", "running_ms": "improved", "uninterruptible_ms": "regressed",
            "sleeping_ms": "regressed", "lock_ms": "regressed"}
    check({m: r["status"] for m, r in st.items()} == want, f"state rows: {sorted((m or '-', r['status']) for m, r in st.items())}")
    u, lk = st.get("uninterruptible_ms"), st.get("lock_ms")
    check(u and u["base"]["p50_ms"] == 250.0 and u["head"]["p50_ms"] == 350.0 and u["shift_ms"] == 100.0
          and u["p_value"] == 0.001262, f"uninterruptible_ms: 250 -> 350 ms, p 0.001262: {json.dumps(u)[:300]}")
    check(lk and lk["base"]["total_ms"] == 0.0 and lk["head"]["total_ms"] == 600.0 and lk["head"]["count"] == 6,
          f"lock_ms: 0 -> 600 ms over 6 blocks: {json.dumps(lk)[:300]}")
    n = chp.ch(url, "SELECT countIf(isNotNull(lock_ms)), countIf(isNotNull(running_ms)), countIf(isNotNull(binder_ms)),"
                    " sum(lock_ms) FROM blocks FINAL WHERE version_name = '6.1.0' FORMAT JSONCompact")
    check(json.loads(n)["data"] == [["6", "6", "6", 600]] or json.loads(n)["data"] == [[6, 6, 6, 600]],
          f"the head's blocks in ClickHouse: lock_ms, running_ms, binder_ms set on 6 of 6, lock 600 ms: {n}")
    n = chp.ch(url, "SELECT count(), countIf(isNull(lock_ms)) FROM blocks FINAL WHERE version_name = '3.1.0'"
                    " FORMAT JSONCompact")
    c = [int(x) for x in json.loads(n)["data"][0]]
    check(c[0] > 0 and c[0] == c[1], f"blocks of traces without such data: {c[1]} of {c[0]} have lock_ms null")

    # the blocks' answer alone is far over the 16 KB an answer was once cut to
    size = len(chp.ch(url, "SELECT grp AS `group`, kind, duration_ms FROM blocks FINAL FORMAT JSONEachRow"))
    check(size > 4 * 16384, f"the fleet's blocks answer is {size} bytes")
    rows = same_diff("version=3.1.0", "version=3.2.0", "generated pairs")
    st = {r["name"]: r["status"] for r in rows if r["kind"] == "group"}
    check(any(k.endswith("Regress") or "Regress" in (k or "") for k in st),
          f"the generated groups are there: {sorted(k or '' for k in st)[:8]}")
    same_diff("version=4.11.0", "version=4.12.0", "examples")
    same_diff("app=com.example.shop", "version=4.12.0", "by app")
    # build= is pushed (traces.build) and selects as locally: the ANR dump's trace
    same_diff("version=4.11.0", "build=b42", "by build")
    # FrameTimeline frames hide the same trace's doFrame slices (GD_SQL_FRAMES_SHOWN)
    rows = same_diff("version=5.0.0", "version=5.1.0", "Perfetto frames")
    # the base trace has 2 FrameTimeline frames and 3 doFrame slices (cli/frames_timeline)
    nb = sum(r["base"]["count"] for r in rows if r["kind"] == "frames")
    check(nb == 2, f"frames of the base: {nb} (the 2 FrameTimeline frames, not the doFrame slices)")

    budgets = os.path.join(HERE, "..", "fixtures", "diff")
    exits = set()
    for budget, head, extra in (("budget-anr.json", "version=4.12.0", ()),
                                ("budget-anr.json", "version=3.2.0", ()),
                                ("budget-gate.json", "version=4.12.0", ()),
                                ("budget-optional.json", "version=3.2.0", ()),
                                ("budget-optional.json", "version=3.2.0", ("--allow-missing",)),
                                ("budget-self.json", "version=3.2.0", ("--base", "version=3.1.0")),
                                ("budget-self.json", "version=3.1.0", ("--base", "version=3.1.0"))):
        args = ("check", "--budget", os.path.join(budgets, budget), "--format", "json", *extra, head)
        lrc, lout, lerr = run("all", *args)
        frc, fout, ferr = run("all", args[0], *fleet, *args[1:])
        exits.add(lrc)
        check(lrc == frc and lout == fout and lerr == ferr,
              f"check {budget} {' '.join(extra)} {head}: exit {frc} as local {lrc}, same rows"
              f" ({ferr.strip()!r} vs {lerr.strip()!r})")
    check({0, 3} <= exits, f"the budgets pass and fail: exits {sorted(exits)}")
    # the newest version when no selector is given
    args = ("--budget", os.path.join(budgets, "budget-anr.json"), "--format", "json")
    l, f = run("all", "check", *args), run("all", "check", *fleet, *args)
    check(l == f, f"check without a selector: the newest version, exit {f[0]} as local {l[0]}")

    # blocks --group: every column of the store's rows, the state, binder
    # and lock shares included (#29), row for row in the store's order
    keys = ("group", "key_frame", "group_rule", "count", "total_ms", "max_ms", "p50_ms", "p95_ms", "traces",
            "first_version", "last_version", "running_share", "runnable_share", "sleeping_share",
            "uninterruptible_share", "states_coverage", "binder_share", "lock_share")

    def same_groups(args, what, extra_env=None):
        lrc, lout, _ = run("all", "blocks", "--group", "--format", "json", *args)
        frc, fout, ferr = run("all", "blocks", "--group", *fleet, "--format", "json", *args, extra_env=extra_env)
        local = [tuple(g.get(k) for k in keys) for g in json.loads(lout)] if lrc == 0 else []
        got = [tuple(g.get(k) for k in keys) for g in json.loads(fout)] if frc == 0 else None
        check(frc == 0 and local == got and len(local) > 0,
              f"blocks --group {' '.join(args)}{' (' + what + ')' if what else ''}: {len(local)} groups,"
              f" fleet = local ({ferr.strip()})")
        for x, y in zip(local, got or []):
            if x != y:
                print("  local:", x, "\n  fleet:", y)
                break
        return local
    groups = same_groups((), "")
    nulls = sum(1 for g in groups if g[0] is None)
    spread = sum(1 for g in groups if g[3] > 1 and g[6] != g[5])
    versions = sum(1 for g in groups if g[9] and g[9] != g[10])
    check(spread > 3 and versions > 1,
          f"{len(groups)} groups: {nulls} unnamed, {spread} with p50 < max, {versions} seen in two versions")
    # CartRepository.awaitSync: 500.0 ms (4.12.0) and 1150.375 ms (4.11.0) in
    # examples/shop*.jsonl: p50 825.1875, p95 500 + 0.95 * 650.375 = 1117.856
    cart = [g for g in groups if g[0] == "com.example.shop.cart.CartRepository.awaitSync(CartRepository.java)"]
    # Handler: com.example.Feed, 12 blocks of 600 ms: Running 6 x 350 + 6 x
    # 150 = 3000 of 7200 ms (0.4167), D 6 x 250 + 6 x 350 = 3600 (0.5),
    # Sleeping and lock 600 (0.0833), binder 0
    feed = [g for g in groups if g[0] == "Handler: com.example.Feed"]
    check(feed and feed[0][3:5] == (12, 7200.0) and feed[0][11:] == (0.4167, 0.0, 0.0833, 0.5, 1.0, 0.0, 0.0833),
          f"Handler: com.example.Feed's shares: {feed}")
    # the examples' systrace: lock contentions but no scheduling data
    shares = [g for g in groups if g[17] is not None and g[0] != "Handler: com.example.Feed"]
    check(any(g[11] is None and g[16] is None for g in shares) and any(g[17] is None for g in groups),
          f"groups with lock data only: {[(g[0], g[17]) for g in shares][:3]}; and groups without any")
    check(cart and cart[0][3:11] == (2, 1650.375, 1150.375, 825.188, 1117.856, 2, "4.11.0", "4.12.0")
          and cart[0][2] == "key_frame", f"CartRepository.awaitSync: {cart}")
    same_groups(("--limit", "3"), "")
    same_groups(("--kind", "long"), "")
    same_groups(("--kind", "anr", "--limit", "1"), "")
    # the percentiles take every block, whatever the diff's sample cap
    same_groups((), "a sample cap of 2", {"GODEYE_FLEET_SAMPLE": "2"})

    # a group over the per-group sample cap: counts, totals, max and rates
    # stay exact (ClickHouse aggregates every block); percentiles, the rank
    # test and the statuses come from the cap's sample (docs/fleet.md)
    lrc, lout, _ = run("all", "diff", "version=3.1.0", "version=3.2.0", "--format", "json")
    frc, fout, ferr = run("all", "diff", *fleet, "version=3.1.0", "version=3.2.0", "--format", "json",
                          extra_env={"GODEYE_FLEET_SAMPLE": "3"})
    exact = ("count", "per_min", "max_ms", "total_ms")
    lg = {r["name"]: r for r in json.loads(lout) if r["kind"] == "group"} if lrc == 0 else {}
    fg = {r["name"]: r for r in json.loads(fout) if r["kind"] == "group"} if frc == 0 else {}
    over = [n for n, r in lg.items() if max(r["base"]["count"], r["head"]["count"]) > 3]
    check(frc == 0 and set(lg) == set(fg) and len(over) >= 3
          and all(lg[n][side][k] == fg[n][side][k] for n in lg for side in ("base", "head") for k in exact),
          f"a sample cap of 3: {len(over)} of {len(lg)} groups over it, count/per_min/max/total = local"
          f" ({ferr.strip()})")
    differ = [n for n in over if any(lg[n][side]["p50_ms"] != fg[n][side]["p50_ms"] for side in ("base", "head"))]
    check(len(differ) >= 1, f"and their p50s come from the sample: {len(differ)} of {len(over)} differ")
    lrc2, lout2, _ = run("all", "diff", *fleet, "version=3.1.0", "version=3.2.0", "--format", "json",
                         extra_env={"GODEYE_FLEET_SAMPLE": "junk"})
    check(lrc2 == 0 and json.loads(lout2) == json.loads(lout),
          "GODEYE_FLEET_SAMPLE=junk: the default cap (20,000), fleet = local")

    # rows sent twice collapse: FINAL, never counted twice
    for t in ("blocks", "pages", "frames", "startups", "anrs", "traces"):
        chp.ch(url, f"INSERT INTO {t} SELECT * FROM {t}")
    n2 = int(chp.ch(url, "SELECT count() FROM blocks"))
    n1 = int(chp.ch(url, "SELECT count() FROM blocks FINAL"))
    check(n2 == 2 * n1 or n2 > n1, f"blocks doubled in the table: {n2} rows, {n1} distinct")
    same_diff("version=3.1.0", "version=3.2.0", "after a double push")
    args = ("--budget", os.path.join(budgets, "budget-anr.json"), "--format", "json", "version=4.12.0")
    l, f = run("all", "check", *args), run("all", "check", *fleet, *args)
    check(l == f, f"anr_count after a double push: exit {f[0]} as local {l[0]}")

    # errors: one line, exit 1, never a pass
    def one_line_fail(args, want, what, code=1):
        rc, out, err = run("all", *args)
        check(rc == code and err.count("\n") == 1 and want in err and out == "",
              f"{what}: exit {rc}, {err.strip()!r}")

    closed = chp.free_port()
    one_line_fail(("diff", "--clickhouse", f"http://127.0.0.1:{closed}", "version=3.1.0", "version=3.2.0"),
                  f"godeye diff: 'http://127.0.0.1:{closed}': clickhouse: ", "closed port")
    one_line_fail(("check", "--clickhouse", f"http://127.0.0.1:{closed}", "--budget",
                   os.path.join(budgets, "budget-anr.json"), "version=3.2.0"),
                  "godeye check: ", "check, closed port")
    one_line_fail(("diff", "--clickhouse", url, "--database", "nosuchdb", "version=3.1.0", "version=3.2.0"),
                  "clickhouse: Code: ", "missing database")
    one_line_fail(("check", "--clickhouse", url, "--database", "nosuchdb", "--budget",
                   os.path.join(budgets, "budget-anr.json"), "version=3.2.0"),
                  "clickhouse: Code: ", "check, missing database")
    one_line_fail(("blocks", "--group", "--clickhouse", url, "--database", "nosuchdb"),
                  "clickhouse: Code: ", "blocks, missing database")
    one_line_fail(("diff", *fleet, "1", "version=3.2.0"),
                  "selector '1': a trace id names a trace of one database (each worker numbers its own)",
                  "a trace id", code=2)
    one_line_fail(("diff", *fleet, "build=nope", "version=3.2.0"),
                  "selector 'build=nope' matches no trace of the fleet; build present: b42", "a build matching nothing")
    one_line_fail(("blocks", "--group", *fleet, "--threshold", "5"), "--clickhouse goes with --group", "--threshold", code=2)
    one_line_fail(("diff", *fleet, "version=9.9.9", "version=3.2.0"),
                  "matches no trace of the fleet; version present: 3.1.0, 3.2.0, 4.11.0, 4.12.0, 5.0.0, 5.1.0",
                  "a selector matching nothing")

    # credentials as push takes them: a user from the environment, a password file
    rc, _, err = run("all", "diff", *fleet, "version=3.1.0", "version=3.2.0",
                     extra_env={"GODEYE_CLICKHOUSE_USER": "nobody"})
    check(rc == 1 and err.count("\n") == 1 and "clickhouse: Code: " in err and "nobody" in err,
          f"an unknown $GODEYE_CLICKHOUSE_USER is refused: {err.strip()!r}")
    one_line_fail(("check", *fleet, "--password-file", os.path.join(tmp, "missing"), "--budget",
                   os.path.join(budgets, "budget-anr.json")), "cannot read the password from", "no password file")
    pwfile = os.path.join(tmp, "pw")
    open(pwfile, "w").write("\n")
    rc, out, err = run("all", "check", *fleet, "--user", "default", "--password-file", pwfile, "--budget",
                       os.path.join(budgets, "budget-anr.json"), "version=3.2.0")
    check(rc == 0, f"--user default with an empty password file: exit {rc} ({err.strip()})")

    # a server that answers 200 and then an error within the rows (as
    # ClickHouse does when a query fails after its first block was sent)
    import http.server

    class Broken(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            sql = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode()
            body = b"1\n" if sql == "SELECT 1" else (
                b'{"n":1,"minutes":1}\n' * 2000 + b"Code: 241, e.displayText() = DB::Exception: Memory limit"
                b" (for query) exceeded, e.what() = DB::Exception\n")
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass
    broken = http.server.HTTPServer(("127.0.0.1", 0), Broken)
    threading.Thread(target=broken.serve_forever, daemon=True).start()
    burl = f"http://127.0.0.1:{broken.server_address[1]}"
    one_line_fail(("diff", "--clickhouse", burl, "version=3.1.0", "version=3.2.0"),
                  f"godeye diff: '{burl}': clickhouse: Code: 241, DB::Exception: Memory limit (for query) exceeded",
                  "an error after 2000 rows (40 KB) of a 200 answer")
    broken.shutdown()

    # a server that accepts and never answers
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    held = []

    def hold():
        while True:
            try:
                conn, _ = srv.accept()
            except OSError:
                return
            held.append(conn)
    threading.Thread(target=hold, daemon=True).start()
    slow = f"http://127.0.0.1:{srv.getsockname()[1]}"
    one_line_fail(("diff", "--clickhouse", slow, "--timeout", "1", "version=3.1.0", "version=3.2.0"),
                  "no answer within 1 s", "slow server")
    one_line_fail(("check", "--clickhouse", slow, "--timeout", "1", "--budget",
                   os.path.join(budgets, "budget-anr.json")), "no answer within 1 s", "check, slow server")
    srv.close()
    stop()
    print(f"{len(failures)} failed")
    if not failures:
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
