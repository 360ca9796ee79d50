#!/usr/bin/env python3
"""ch_diff_stacks.py - `godeye diff --stacks --clickhouse` (#52 item 4): the
differential flame graph computed from pushed data, against a real
clickhouse-server on loopback, equal to the local answer on the same data.

    ch_diff_stacks.py --bin BUILD/cli --gen tests/gen [--corpus DIR]

The captures of tests/cli/diff_stacks.test (tests/gen/diffstacks_gen.py:
six a side; B.slow 120 ms slower a call in 1.1, +7200 ms over the six;
Parser.parse 100 samples more a capture in 2.1), split over two worker
databases that push to one server; a third database holds them all.  For
each pair of versions and every output form (the tree, json, jsonl, csv,
md, table, --folded; --norm samples; --app) the fleet's stdout equals the
local one byte for byte, and the fleet finds B.slow first with its delta
within 5 % of 7200 ms.  Real files from the corpus (GODEYE_CORPUS) when
present: the simpleperf recording cut in two (versions a and b, as
tests/cli/diff_stacks_corpus.test) and the Pixel 9 Perfetto trace (its
perf samples, version p9) against b, whole and with --app of p9's busiest
process (b's app then left out).  A server whose tables predate stack_paths
gets one line, exit 1.  Exit 77 (skipped) when clickhouse-server is not
installed.
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import chserver as chp  # noqa: E402

check, failures = chp.check, chp.failures

FORMATS = [[], ["--format", "json"], ["--format", "jsonl"], ["--format", "csv"], ["--format", "md"],
           ["--format", "table"], ["--folded"]]


def cut_simpleperf(src, tmp):
    """The recording cut at its 264th sample, as diff_stacks_corpus.test cuts it."""
    a, b = os.path.join(tmp, "sp_a.txt"), os.path.join(tmp, "sp_b.txt")
    prog = ('/cpu-clock:$/{h=0; n++} NR==1{h=1} {if (h) {print > A; print > B} else if (n <= 263) print > A;'
            ' else print > B} /^# ========$/ && NR > 1 {h=0}')
    subprocess.run(["awk", "-v", f"A={a}", "-v", f"B={b}", prog, src], check=True)
    return a, b


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--gen", required=True)
    ap.add_argument("--corpus", default=os.environ.get("GODEYE_CORPUS", ""))
    a = ap.parse_args()
    started = chp.begin(a.bin, "godeye-chstacks-")
    if not started:
        return 77
    tmp, url, stop, run = started

    gen = os.path.join(tmp, "gen")
    subprocess.run([sys.executable, os.path.join(a.gen, "diffstacks_gen.py"), gen], check=True)
    files = [os.path.join(gen, f) for f in sorted(os.listdir(gen))]
    inputs = [(p, []) for p in files]
    sp = os.path.join(a.corpus, "simpleperf", "aosp_simpleperf_perf_display_bitmaps.header.perf-script")
    p9 = os.path.join(a.corpus, "perfetto_proto",
                      "varunvaidhiya_pixel9pro_android15_PerfettoTraceForRecruitment.perfetto-trace")
    real = os.path.exists(sp) and os.path.exists(p9)
    if real:
        sa, sb = cut_simpleperf(sp, tmp)
        inputs += [(sa, ["--set", "version=a"]), (sb, ["--set", "version=b"]), (p9, ["--set", "version=p9"])]
    else:
        print(f"skipped by name: the corpus's simpleperf and Pixel 9 files (not under '{a.corpus}')")
    for i, (p, tags) in enumerate(inputs):
        for db in ("all", f"w{i % 2}"):
            rc, _, err = run(db, "ingest", "-q", *tags, p)
            check(rc == 0, f"ingest {os.path.basename(p)} into {db} ({err.strip()[:200]})")
    pushed = 0
    for w in ("w0", "w1"):
        rc, out, err = run(w, "push", "--clickhouse", url, "--database", "fleet", "--format", "json")
        check(rc == 0, f"push {w} ({err.strip()[:300]})")
        for t in json.loads(out) if rc == 0 else []:
            pushed += (t.get("tables") or {}).get("stack_paths", 0)
    n = int(chp.ch(url, "SELECT count() FROM stack_paths FINAL"))
    sizes = chp.ch(url, "SELECT table, sum(rows), sum(data_compressed_bytes), sum(data_uncompressed_bytes)"
                        " FROM system.parts WHERE database = 'fleet' AND active AND table IN"
                        " ('stack_paths', 'stack_samples') GROUP BY table ORDER BY table")
    print(f"stack_paths: {pushed} rows pushed, {n} on the server; parts (table rows compressed raw):"
          f" {sizes.replace(chr(10), '; ')}")
    check(n == pushed and n > 0, f"every pushed stack_paths row is on the server ({pushed} pushed, {n} there)")
    local_n = 0
    for db in ("w0", "w1"):
        rc, out, _ = run(db, "sql", "--format", "json", "SELECT count(*) AS n FROM trace")
        local_n += json.loads(out)[0]["n"] if rc == 0 else 0
    check(int(chp.ch(url, "SELECT count() FROM traces FINAL")) == local_n == len(inputs),
          f"traces on the server = ingested ({local_n})")

    fleet = ("--clickhouse", url, "--database", "fleet")
    cases = [("version=1.0", "version=1.1"), ("version=2.0", "version=2.1"), ("version=1.0", "version=2.1")]
    if real:
        cases += [("version=a", "version=b"), ("version=b", "version=p9")]
    same = compared = 0

    def compare(args, what):
        nonlocal same, compared
        lrc, lout, lerr = run("all", "diff", "--stacks", *args)
        frc, fout, ferr = run("all", "diff", "--stacks", *args, *fleet)
        compared += 1
        ok = lrc == 0 and frc == 0 and lout == fout and lout.strip() != ""
        same += ok
        check(ok, f"{what}: fleet = local ({len(lout)} bytes; exit {lrc}/{frc}; {ferr.strip()[:200]}"
                  f" {lerr.strip()[:200]})")
        return lout, fout

    for base, head in cases:
        for fmt in FORMATS:
            compare([base, head, *fmt], f"diff --stacks {base} {head} {' '.join(fmt) or '(tree)'}")
        compare([base, head, "--norm", "samples", "--format", "json"], f"diff --stacks {base} {head} --norm samples")
    compare(["version=1.0", "version=1.1", "--app", "com.example.shop", "--format", "json"], "--app com.example.shop")

    # the known slowed method found first, by the fleet
    rc, out, err = run("all", "diff", "--stacks", "version=1.0", "version=1.1", "--format", "json", *fleet)
    r = json.loads(out)[0] if rc == 0 else {}
    check(r.get("frame", "").endswith("B.slow") and abs(r.get("self_delta_ms", 0) - 7200) <= 0.05 * 7200,
          f"the fleet's first frame: {r.get('frame')} {r.get('self_delta_ms')} ms (7200 +- 5 % by construction)")

    if real:
        # --app over a trace of many processes: the busiest one's rows only
        busiest = chp.ch(url, "SELECT process FROM stack_paths FINAL WHERE version_name = 'p9' AND process != ''"
                              " GROUP BY process ORDER BY sum(count) DESC, process LIMIT 1")
        procs = int(chp.ch(url, "SELECT uniqExact(process) FROM stack_paths FINAL WHERE version_name IN ('b', 'p9')"))
        print(f"b and p9: {procs} processes in stack_paths, p9's busiest '{busiest}'")
        lout, _ = compare(["version=b", "version=p9", "--app", busiest, "--format", "json"], f"--app {busiest}")
        rc, whole, _ = run("all", "diff", "--stacks", "version=b", "version=p9", "--format", "json")
        check(procs > 1 and lout != whole and json.loads(lout or "[]") != [],
              f"--app {busiest} narrows the answer ({len(json.loads(lout or '[]'))} of"
              f" {len(json.loads(whole or '[]'))} frames)")
    print(f"equal: {same} of {compared} comparisons")

    # a fleet whose tables predate stack_paths: one line, exit 1
    chp.ch(url, "CREATE DATABASE IF NOT EXISTS old", db="default")
    chp.ch(url, "CREATE TABLE old.traces AS fleet.traces", db="default")
    chp.ch(url, "INSERT INTO old.traces SELECT * FROM fleet.traces", db="default")
    rc, out, err = run("all", "diff", "--stacks", "version=1.0", "version=1.1", "--clickhouse", url,
                       "--database", "old")
    check(rc == 1 and "no stack_paths table" in err and len(err.strip().splitlines()) == 1,
          f"tables of an older godeye: exit {rc}, {err.strip()[:300]}")
    stop()
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
