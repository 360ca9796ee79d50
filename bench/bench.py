#!/usr/bin/env python3
"""bench.py - godeye's benchmark driver (run through bench/run.sh).

Generates the inputs once (cached in BUILD/bench-data, keyed by their
arguments), runs the naive baseline (build/bench/godeye-baseline) and godeye
side by side, and prints a table: median wall and CPU (user + sys) time of
RUNS rounds (each round runs every ingest once, interleaved, so that the
baseline and godeye share the load of the moment), the ratio to the
baseline measured in the same run, MB/s of input and peak RSS (getrusage of
the child, as /usr/bin/time -v reports it).  "keyed by their arguments":
delete build/bench-data after changing GEN_ARGS.

The 10M-dispatch database for the `blocks` measures is built by ingesting
the 300k-dispatch capture once, then replicating its dispatch and block rows
under new trace ids with SQL (INSERT ... SELECT with shifted ids and times),
indexes dropped during the copy and rebuilt after: a few minutes instead of
an hour of ingest.

python3 standard library only.
"""

import datetime
import gzip
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chbench  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("BUILD", os.path.join(ROOT, "build"))
DATA = os.path.join(BUILD, "bench-data")
RUNS = int(os.environ.get("RUNS", "5"))
GODEYE = os.path.join(BUILD, "cli", "godeye")
BASELINE = os.path.join(BUILD, "bench", "godeye-baseline")
OVERDRAW = os.path.join(BUILD, "bench", "overdraw-bench")
GEN = os.path.join(ROOT, "tests", "oracle", "gencapture.py")
GEN_ARGS = ["--seed", "1", "--block-samples", "--noise-threads", "3"]
TARGET_DISPATCHES = 10_000_000
# the 10th-ingest measure: this many distinct captures (seeds 2, 3, ...)
# of SEQ_DISPATCHES main-thread dispatches each, ingested into one database
SEQ_N = int(os.environ.get("SEQ_N", "10"))
SEQ_DISPATCHES = int(os.environ.get("SEQ_DISPATCHES", "150000"))
RESULTS = os.path.join(ROOT, "bench", "RESULTS.md")


def log(msg):
    sys.stderr.write("bench: %s\n" % msg)
    sys.stderr.flush()


def path(name):
    return os.path.join(DATA, name)


def generate(name, extra):
    """gencapture output, cached (regenerated when missing)."""
    out = path(name)
    if not os.path.exists(out):
        log("generating %s" % name)
        tmp = out + ".tmp"
        subprocess.run([sys.executable, GEN] + GEN_ARGS + extra + ["--out", tmp], check=True)
        os.replace(tmp, out)
    return out


def to_document(src, name):
    """The same events as a godeye document (meta line -> meta member)."""
    out = path(name)
    if not os.path.exists(out):
        log("writing %s" % name)
        tmp = out + ".tmp"
        with open(src, encoding="utf-8") as f, open(tmp, "w", encoding="utf-8") as o:
            first = f.readline()
            meta = first.strip()
            assert meta.startswith('{"type":"meta",')
            o.write('{"godeye_trace":1,"meta":{' + meta[len('{"type":"meta",'):] + ',"events":[\n')
            prev = None
            for line in f:
                line = line.rstrip("\n")
                if not line:
                    continue
                if prev is not None:
                    o.write(prev + ",\n")
                prev = line
            o.write((prev or "") + "\n]}\n")
        os.replace(tmp, out)
    return out


def to_gzip(src, name):
    out = path(name)
    if not os.path.exists(out):
        log("writing %s" % name)
        tmp = out + ".tmp"
        with open(src, "rb") as f, gzip.open(tmp, "wb", compresslevel=6) as o:
            shutil.copyfileobj(f, o, 1 << 20)
        os.replace(tmp, out)
    return out


def rm_db(db):
    for suffix in ("", "-wal", "-shm", "-journal"):
        try:
            os.unlink(db + suffix)
        except FileNotFoundError:
            pass


TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None


def run_once(argv, stdout=subprocess.DEVNULL):
    """(wall s, cpu s, peak RSS KiB) of one run; raises on failure.  The
    peak RSS is /usr/bin/time's %M when it is installed: on Linux a child's
    ru_maxrss starts from its parent's RSS at fork, which for this Python
    process is 20+ MB, more than some measured programs use."""
    rss_file = path("rss.txt")
    full = [TIME, "-f", "%M", "-o", rss_file] + argv if TIME else argv
    t0 = time.monotonic()
    p = subprocess.Popen(full, stdout=stdout, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    err = p.stderr.read().decode("utf-8", "replace")
    p.stderr.close()
    if p.returncode != 0:
        raise RuntimeError("%s failed (%d): %s" % (" ".join(argv), p.returncode, err))
    rss = ru.ru_maxrss
    if TIME:
        with open(rss_file) as f:
            rss = int(f.read().split()[-1])
    return wall, ru.ru_utime + ru.ru_stime, rss


def median(xs):
    xs = sorted(xs)
    return xs[(len(xs) - 1) // 2] if len(xs) % 2 else (xs[len(xs) // 2 - 1] + xs[len(xs) // 2]) / 2


def measure(argv, before=None):
    """Median wall, median CPU, max peak RSS of RUNS runs."""
    walls, cpus, rss = [], [], []
    for _ in range(RUNS):
        if before:
            before()
        w, c, r = run_once(argv)
        walls.append(w)
        cpus.append(c)
        rss.append(r)
    return median(walls), median(cpus), max(rss)


def ingest_argv(src):
    return [GODEYE, "--db", path("ingest.db"), "ingest", "-q", "--no-progress", src]


def baseline_argv(src):
    return [BASELINE, src, path("baseline.db")]


def interleaved(jobs):
    """Runs every job once per round, RUNS rounds, so that the baseline and
    godeye share the machine's load of the moment (this machine is shared
    and noisy).  Returns {name: (median wall, median cpu, max RSS)}."""
    res = {name: ([], [], []) for name, _ in jobs}
    for k in range(RUNS):
        log("round %d of %d" % (k + 1, RUNS))
        for name, argv in jobs:
            rm_db(path("ingest.db"))
            rm_db(path("baseline.db"))
            w, c, r = run_once(argv)
            res[name][0].append(w)
            res[name][1].append(c)
            res[name][2].append(r)
    return {n: (median(v[0]), median(v[1]), max(v[2])) for n, v in res.items()}


def build_big_db(src):
    """A database of >= 10M dispatches: one real ingest, then SQL copies."""
    db = path("blocks10m.db")
    if os.path.exists(db):
        return db
    tmp = db + ".tmp"
    rm_db(tmp)
    log("ingesting %s for the 10M-dispatch database" % os.path.basename(src))
    run_once([GODEYE, "--db", tmp, "ingest", "-q", "--no-progress", src])
    con = sqlite3.connect(tmp)
    n, max_id, span = con.execute(
        "SELECT count(*), max(id), max(start_ms + dur_ms) - min(start_ms) FROM dispatch").fetchone()
    copies = -(-TARGET_DISPATCHES // n) - 1
    log("replicating %d dispatches %d times" % (n, copies))
    idx = con.execute("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
                      " AND tbl_name IN ('dispatch', 'block')").fetchall()
    con.execute("BEGIN")
    for name, _ in idx:
        con.execute("DROP INDEX %s" % name)
    cols = [r[1] for r in con.execute("PRAGMA table_info(trace)")]
    rest = [c for c in cols if c not in ("id", "hash", "start_ms", "end_ms")]
    for k in range(1, copies + 1):
        off = k * (max_id + 1)
        shift = k * (span + 60000.0)
        con.execute("INSERT INTO trace(id, hash, start_ms, end_ms, %s) SELECT id + %d, hash || '-%d',"
                    " start_ms + %r, end_ms + %r, %s FROM trace WHERE id = 1"
                    % (", ".join(rest), k, k, shift, shift, ", ".join(rest)))
        con.execute("INSERT INTO dispatch(id, trace, pid, tid, start_ms, dur_ms, thread_ms, unfinished,"
                    " message) SELECT id + %d, %d, pid, tid, start_ms + %r, dur_ms, thread_ms,"
                    " unfinished, message FROM dispatch WHERE trace = 1" % (off, 1 + k, shift))
        con.execute("INSERT INTO block(dispatch, trace, dur_ms, samples, key_frame, grp, cpu_busy,"
                    " memory, blame, pid) SELECT dispatch + %d, %d, dur_ms, samples, key_frame, grp,"
                    " cpu_busy, memory, blame, pid"
                    " FROM block WHERE trace = 1" % (off, 1 + k))
    for _, sql in idx:
        con.execute(sql)
    con.execute("COMMIT")
    con.execute("ANALYZE")
    total = con.execute("SELECT count(*) FROM dispatch").fetchone()[0]
    con.close()
    os.replace(tmp, db)
    for suffix in ("-wal", "-shm"):
        if os.path.exists(tmp + suffix):
            os.unlink(tmp + suffix)
    log("%s: %d dispatches" % (os.path.basename(db), total))
    return db


# The listing query of `godeye blocks --threshold T` (lib/query/blocks.c,
# block_sql/each_block, with no --trace/--kind/--limit; ?1 = T, ?2 = 1: a
# threshold was given), GD_SQL_THREAD_OF expanded (lib/store/store_int.h).
# Left out: the kind term "AND (?3 IS NULL OR gd_block_kind(...) = ?3)",
# always true with no --kind (?3 NULL) and not runnable in the sqlite3 shell
# (gd_block_kind is godeye's own SQL function); older trees also had
# "AND t.hash NOT LIKE 'pending:%'", true for every trace of the bench db.
# Keep in step with blocks.c: bench checks that sqlite3 prints as many rows
# as godeye does.
BLOCKS_SQL = (
    "SELECT d.id, d.trace, d.pid, d.tid, d.start_ms, d.dur_ms, d.thread_ms, d.unfinished,"
    " (SELECT text FROM message WHERE id = d.message), t.short_ms, t.long_ms, t.anr_ms,"
    " b.dispatch IS NOT NULL, b.samples, b.key_frame,"
    " b.grp, b.cpu_busy, b.memory, b.blame, mm.ts_ms, mm.heap_alloc_kb, mm.heap_max_kb,"
    " mm.heap_free_kb, mm.pss_total_kb, mm.ram_avail_kb, mm.ram_total_kb, mm.ram_is_low,"
    " CASE WHEN d.tid = coalesce(t.main_tid, d.pid) THEN 'main' ELSE"
    " (SELECT th.name FROM thread th WHERE th.trace = d.trace AND th.pid = d.pid"
    " AND th.tid = d.tid) END"
    " FROM dispatch d CROSS JOIN trace t ON t.id = d.trace"
    " LEFT JOIN block b ON b.dispatch = d.id"
    " LEFT JOIN memory mm ON mm.id = b.memory"
    " WHERE d.dur_ms >= ?1 AND (?2 OR d.dur_ms >= t.short_ms)"
    " ORDER BY d.trace, d.start_ms, d.id")


SQLLOG = os.path.join(BUILD, "bench", "godeye-sqllog.so")


def godeye_sql(argv, match):
    """The SQL godeye prepares (containing `match`) when running argv, read
    through the LD_PRELOAD shim bench/sqllog.c; None without the shim."""
    if not os.path.exists(SQLLOG):
        return None
    log_file = path("sqllog.txt")
    if os.path.exists(log_file):
        os.unlink(log_file)
    env = dict(os.environ, LD_PRELOAD=SQLLOG, GODEYE_SQLLOG=log_file, GODEYE_SQLLOG_MATCH=match)
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=env)
    if not os.path.exists(log_file):
        return None
    with open(log_file) as f:
        stmts = [x.strip().rstrip(";") for x in f.read().split(";\n--\n") if x.strip()]
    return stmts[0] if stmts else None


def sqlite3_blocks_argv(db, threshold, blocks_argv):
    """sqlite3 -json printing the blocks listing's rows: the SELECT godeye
    prepares (captured by the shim; BLOCKS_SQL without it), parameters bound
    in the script the way godeye binds them (bound, not literals: the same
    query plan).  godeye's own SQL function gd_block_kind(dur, long, anr),
    which the sqlite3 shell lacks, becomes the same rule in CASE form (its
    term is "?3 IS NULL OR ...": always true here, ?3 is NULL)."""
    sql = godeye_sql(blocks_argv, "CROSS JOIN trace t")
    source = "captured from godeye"
    if not sql:
        sql, source = BLOCKS_SQL, "bench.py's copy (no sqllog shim)"
    sql = re.sub(r"gd_block_kind\(([^,()]+), ([^,()]+), ([^,()]+)\)",
                 r"(CASE WHEN \1 >= \3 THEN 'anr' WHEN \1 >= \2 THEN 'long' ELSE 'short' END)", sql)
    script = path("blocks-%s.sql" % threshold)
    with open(script, "w") as f:
        f.write(".parameter set ?1 %s\n.parameter set ?2 1\n.parameter set ?3 NULL\n%s;\n"
                % (threshold, sql))
    return ["sqlite3", "-json", "-readonly", db, ".read " + script], source


def count_lines(argv):
    """Lines printed by argv, read in chunks (the parent's RSS stays small:
    a child's ru_maxrss starts from its parent's RSS at fork on Linux)."""
    p = subprocess.Popen(argv, stdout=subprocess.PIPE)
    n = 0
    for chunk in iter(lambda: p.stdout.read(1 << 20), b""):
        n += chunk.count(b"\n")
    p.stdout.close()
    if p.wait():
        raise RuntimeError("%s failed (%d)" % (" ".join(argv), p.returncode))
    return n


def push_measure(db, other=None):
    """(godeye (wall, cpu, rss), baseline (wall, cpu, rss), rows, info) or None;
    with `other` (another godeye binary) it is timed in the same rounds and
    its (wall, cpu, rss) is appended to the tuple."""
    url, stop = chbench.server(log)
    if not url:
        return None
    try:
        push = [GODEYE, "--db", db, "push", "--database", "benchfleet", "--format", "json",
                "--clickhouse"]

        def fresh():
            chbench.ch(url, "DROP DATABASE IF EXISTS benchfleet")
        fresh()
        log("recording the requests of godeye push")
        reqs = chbench.record(lambda u: push + [u], url, path("push-replay"))
        shutil.rmtree(path("push-replay"), ignore_errors=True)
        curl, formats, nreq, size = chbench.write_replay(reqs, url, path("push-replay"))
        setup = chbench.setup_statements(reqs)
        del reqs  # the bodies are in files now (see count_lines on RSS)
        fresh()
        out = subprocess.run(push + [url], check=True, capture_output=True).stdout
        rows = sum(r["rows"] for r in json.loads(out))

        def fresh_tables():
            fresh()
            chbench.replay(url, setup)
        res = {"g": ([], [], []), "b": ([], [], []), "o": ([], [], [])}
        sides = [("b", curl, fresh_tables), ("g", push + [url], fresh_tables)]
        if other:
            sides.append(("o", [other] + push[1:] + [url], fresh_tables))
        for k in range(RUNS):
            log("push round %d of %d" % (k + 1, RUNS))
            # tables created untimed on both sides (godeye's CREATE ... IF
            # NOT EXISTS then finds them), as the recorded replay has them
            for name, argv, before in sides:
                before()
                w, c, r = run_once(argv)
                res[name][0].append(w)
                res[name][1].append(c)
                res[name][2].append(r)
        n = int(chbench.ch(url, "SELECT sum(rows) FROM system.parts WHERE database = 'benchfleet'"
                                " AND active").strip() or 0)
        fresh()
        g, b = ((median(v[0]), median(v[1]), max(v[2])) for v in (res["g"], res["b"]))
        info = "%d requests, %.1f MB, format %s; %d rows in ClickHouse after the last run" % (
            nreq, size / 1e6, ",".join(formats), n)
        if other:
            o = res["o"]
            return g, b, rows, info, (median(o[0]), median(o[1]), max(o[2]))
        return g, b, rows, info
    finally:
        stop()


def sequence_measure(caps):
    """The ingest time of each of the captures into one database, in turn,
    RUNS times: (median of the 1st, median of the last, median of the
    per-run ratio last/1st, all medians)."""
    db = path("seq.db")
    times = [[] for _ in caps]
    cpus = [[] for _ in caps]
    ratios, cratios = [], []
    for k in range(RUNS):
        log("sequence round %d of %d (%d captures)" % (k + 1, RUNS, len(caps)))
        rm_db(db)
        for i, cap in enumerate(caps):
            w, c, r = run_once([GODEYE, "--db", db, "ingest", "-q", "--no-progress", cap])
            times[i].append(w)
            cpus[i].append(c)
        ratios.append(times[-1][-1] / times[0][-1])
        cratios.append(cpus[-1][-1] / cpus[0][-1])
    n = sqlite3.connect(db).execute("SELECT count(*) FROM dispatch").fetchone()[0]
    rm_db(db)
    return ((median(times[0]), median(cpus[0])), (median(times[-1]), median(cpus[-1])),
            (median(ratios), median(cratios)), [median(t) for t in times], [median(c) for c in cpus], n)


PERFETTO_MB = int(os.environ.get("PERFETTO_MB", "24"))
CORPUS_PERFETTO = os.path.join(ROOT, "..", "shared", "corpus", "perfetto_proto")


def perfetto_inputs():
    """(label, path) of the Perfetto traces to time: the two synthetic ones
    of bench/perfetto_gen.py (slices; --sched: a phone's sched-heavy mix)
    and the corpus's real traces when they are there."""
    out = []
    for label, extra in (("slices", []), ("sched-heavy", ["--sched"])):
        name = "perfetto-%s-%d.perfetto-trace" % (label, PERFETTO_MB)
        p = path(name)
        if not os.path.exists(p):
            log("writing %s" % name)
            subprocess.run([sys.executable, os.path.join(ROOT, "bench", "perfetto_gen.py"), p + ".tmp",
                            str(PERFETTO_MB)] + extra, check=True, stdout=subprocess.DEVNULL)
            os.replace(p + ".tmp", p)
        out.append(("synthetic %s %d MB" % (label, PERFETTO_MB), p))
    if os.path.isdir(CORPUS_PERFETTO):
        for f in sorted(os.listdir(CORPUS_PERFETTO)):
            p = os.path.join(CORPUS_PERFETTO, f)
            if f.endswith(".perfetto-trace") and os.path.getsize(p) >= 100_000:
                out.append(("corpus " + f, p))
    return out


def perfetto_measure(rows):
    """Adds one row per Perfetto trace: godeye ingest CPU over `gzip -6`
    CPU of the same file, both run in each round (interleaved, RUNS rounds):
    gzip is the yardstick of "reads every byte once and does some work"."""
    inputs = perfetto_inputs()
    jobs = []
    for k, (_, p) in enumerate(inputs):
        jobs += [("z%d" % k, ["gzip", "-6", "-c", p]), ("p%d" % k, ingest_argv(p)),
                 ("f%d" % k, ["sqlite3", path("ingest.db"), ".read " + sqlite_floor_script(k, p)])]
    m = interleaved(jobs)
    for k, (label, p) in enumerate(inputs):
        z, g, f = m["z%d" % k], m["p%d" % k], m["f%d" % k]
        size = mb(p)
        rows.append(["ingest Perfetto %s vs gzip -6" % label, "%.1f" % size, "%.2f (%.2f)" % (z[0], z[1]),
                     "%.2f (%.2f)" % (g[0], g[1]), "%.2f (%.2f)" % (g[0] / z[0], g[1] / z[1]),
                     "%.1f" % (size / g[0]), "%.1f" % (g[2] / 1024), "-"])
        rows.append(["  its rows into SQLite alone (sqlite3 .import) vs gzip -6", "%.1f" % size,
                     "%.2f (%.2f)" % (z[0], z[1]), "%.2f (%.2f)" % (f[0], f[1]),
                     "%.2f (%.2f)" % (f[0] / z[0], f[1] / z[1]), "%.1f" % (size / f[0]),
                     "%.1f" % (f[2] / 1024), "godeye / this: %.2f (%.2f)" % (g[0] / f[0], g[1] / f[1])])
    return m


def sqlite_floor_script(k, src):
    """The storage floor of one Perfetto input: godeye ingests it once
    (untimed) into its own database, every table is dumped to CSV, and a
    script for the sqlite3 shell is written that loads the same rows into
    the same schema under godeye's pragmas in one transaction, the indexes
    built after the rows (as godeye's bulk load does).  Timing that script
    says what SQLite's own loader takes for the rows godeye writes (a CSV
    NULL loads as '', of the same cost)."""
    d = path("floor-%d" % k)
    script = os.path.join(d, "load.sql")
    stamp = os.path.join(d, "source")
    key = "%s %d %d\n" % (src, os.path.getsize(src), os.path.getmtime(src))
    if os.path.exists(stamp) and open(stamp).read() == key:
        return script
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    db = os.path.join(d, "godeye.db")
    subprocess.run([GODEYE, "--db", db, "ingest", "-q", "--no-progress", src], check=True,
                   stdout=subprocess.DEVNULL)
    con = sqlite3.connect(db)
    tables = [r for r in con.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'"
                                     " AND name NOT LIKE 'sqlite_%' ORDER BY rowid")]
    views = [r[0] for r in con.execute("SELECT sql FROM sqlite_master WHERE type = 'view' ORDER BY rowid")]
    indexes = [r[0] for r in con.execute("SELECT sql FROM sqlite_master WHERE type = 'index'"
                                         " AND sql IS NOT NULL ORDER BY rowid")]
    lines = ["PRAGMA synchronous=NORMAL;", "PRAGMA cache_size=-32768;", "BEGIN;"]
    lines += [sql + ";" for _, sql in tables] + [sql + ";" for sql in views]
    for name, _ in tables:
        csv = os.path.join(d, name + ".csv")
        with open(csv, "w") as out:
            subprocess.run(["sqlite3", "-csv", db, "SELECT * FROM \"%s\"" % name], check=True, stdout=out)
        if os.path.getsize(csv):
            lines.append(".import --csv %s %s" % (csv, name))
    lines += [sql + ";" for sql in indexes] + ["COMMIT;"]
    con.close()
    os.unlink(db)
    with open(script, "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(stamp, "w") as f:
        f.write(key)
    return script


def mb(p):
    return os.path.getsize(p) / 1e6


def fmt_row(cells, widths):
    return "| " + " | ".join(str(c).ljust(w) for c, w in zip(cells, widths)) + " |"


def drop_stale_dbs():
    """Cached databases written by a godeye of another schema version are
    removed (read-only commands refuse an older schema): they are rebuilt."""
    with open(os.path.join(ROOT, "lib", "store", "store.h")) as f:
        want = int(re.search(r"#define GD_SCHEMA_VERSION (\d+)", f.read()).group(1))
    for name in os.listdir(DATA):
        if not name.endswith(".db"):
            continue
        con = sqlite3.connect(path(name))
        have = con.execute("PRAGMA user_version").fetchone()[0]
        con.close()
        if have != want:
            log("%s has schema %d, godeye writes %d: rebuilt" % (name, have, want))
            rm_db(path(name))


def perfetto_main():
    """BENCH_ONLY=perfetto: the Perfetto rows alone (a few minutes)."""
    t_start = time.monotonic()
    head = ["measure", "input MB", "gzip -6 wall s (cpu s)", "godeye wall s (cpu s)",
            "ratio wall (cpu)", "MB/s", "peak RSS MB", "target"]
    rows = []
    perfetto_measure(rows)
    widths = [max(len(str(r[i])) for r in rows + [head]) for i in range(len(head))]
    lines = [fmt_row(head, widths), "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    lines += [fmt_row(r, widths) for r in rows]
    text = "\n".join(lines)
    print(text)
    if os.environ.get("RESULTS_MD", "1") != "0":
        write_results("BENCH_ONLY=perfetto RUNS=%d bench/run.sh" % RUNS, t_start, [], text)
    return 0

# BENCH_ONLY=scale: how ingest and the queries grow with the input, at 1x,
# 4x and 16x.  JSONL: at least SCALE_DISPATCHES (10M) Looper dispatches at
# 16x, made of copies of bench's 150k capture (cap150k.jsonl: 150k
# main-thread dispatches + those of 3 noise threads, ~174k, generated once;
# the generator writes ~10k dispatches/s, an hour for 10M): 1x = C copies
# (C = ceil(10M / 16 / dispatches of one copy)), 4x = 4C, 16x = 16C, one
# file each, each copy's clock 10^9 ms (11.6 days) past the last
# (gencapture's clock starts at 1700000000000 ms and the capture spans
# ~7e6 ms, so "ts":1700 of copy k becomes "ts":17(00+k): the same bytes
# shifted, no parsing).
# Perfetto: SCALE_TRACES (100) traces of bench/perfetto_gen.py --sched of
# SCALE_TRACE_MB (3 MB, the size of the corpus's largest real trace), seeds
# 1..N; 1x/4x/16x = N/16, N/4, N of them in one folder, one `godeye ingest
# FOLDER` into a fresh database.
SCALE_DISPATCHES = int(os.environ.get("SCALE_DISPATCHES", "10000000"))
SCALE_TRACES = int(os.environ.get("SCALE_TRACES", "100"))
SCALE_TRACE_MB = float(os.environ.get("SCALE_TRACE_MB", "3"))
# runs of the biggest (16x) ingest: 1 unless set (minutes each)
SCALE_BIG_RUNS = int(os.environ.get("SCALE_BIG_RUNS", "1"))
SCALE_FACTORS = (1, 4, 16)
SCALE_QUERIES = (("blocks --group", ["blocks", "--group", "--format", "jsonl"]),
                 ("top", ["top"]), ("threads", ["threads"]),
                 ("report (-o file)", ["report", "-o", None]))


def scale_jsonl_inputs():
    """(copies at 1x, [(factor, path)]): the capture repeated C, 4C, 16C times."""
    base = generate("cap150k.jsonl", ["--dispatches", "150000"])
    with open(base, "rb") as src:
        data = src.read()
    per_copy = data.count(b'"phase":"begin"')
    c = -(-SCALE_DISPATCHES // SCALE_FACTORS[-1] // per_copy)
    assert c * SCALE_FACTORS[-1] <= 100, "copy k's clock is \"ts\":17(00+k)"
    assert data.count(b'"ts":17') == data.count(b'"ts":1700'), "clock not in 1700..."
    meta_end = data.index(b"\n") + 1
    out = []
    for f in SCALE_FACTORS:
        p = path("cap150k-x%d.jsonl" % (c * f))
        if not os.path.exists(p):
            log("writing %s" % os.path.basename(p))
            with open(p + ".tmp", "wb") as o:
                o.write(data)
                for k in range(1, c * f):
                    o.write(data[meta_end:].replace(b'"ts":1700', b'"ts":17%02d' % k))
            os.replace(p + ".tmp", p)
        out.append((f, p))
    return c, out


def scale_perfetto_inputs():
    """[(factor, folder)]: folders of N/16, N/4 and N traces (hard links)."""
    gen = os.path.join(ROOT, "bench", "perfetto_gen.py")
    traces = []
    for k in range(1, SCALE_TRACES + 1):
        p = path("scale-perfetto-%gmb-s%d.perfetto-trace" % (SCALE_TRACE_MB, k))
        if not os.path.exists(p):
            if k == 1 or k % 25 == 0:
                log("writing %s" % os.path.basename(p))
            subprocess.run([sys.executable, gen, p + ".tmp", str(SCALE_TRACE_MB), "--sched", "--seed",
                            str(k)], check=True, stdout=subprocess.DEVNULL)
            os.replace(p + ".tmp", p)
        traces.append(p)
    out = []
    for f in SCALE_FACTORS:
        n = max(1, round(SCALE_TRACES * f / SCALE_FACTORS[-1]))
        d = path("scale-perfetto-%gmb-n%d" % (SCALE_TRACE_MB, n))
        if not os.path.isdir(d):
            os.makedirs(d + ".tmp", exist_ok=True)
            for p in traces[:n]:
                dst = os.path.join(d + ".tmp", os.path.basename(p))
                if not os.path.exists(dst):
                    os.link(p, dst)
            os.replace(d + ".tmp", d)
        out.append((f, d))
    return out


def input_mb(p):
    if os.path.isdir(p):
        return sum(os.path.getsize(os.path.join(p, f)) for f in os.listdir(p)) / 1e6
    return mb(p)


def db_mb(db):
    return sum(os.path.getsize(db + s) for s in ("", "-wal") if os.path.exists(db + s)) / 1e6


def scale_measure(label, inputs):
    """{factor: figures} of one family: the ingest (RUNS runs into a fresh
    db; SCALE_BIG_RUNS at the biggest factor), then each query RUNS times on
    the database of the last ingest."""
    res = {}
    for f, src in inputs:
        db = path("scale-%s-x%d.db" % (label, f))
        runs = SCALE_BIG_RUNS if f == SCALE_FACTORS[-1] else RUNS
        walls, cpus, rss = [], [], []
        for k in range(runs):
            log("%s %dx: ingest %d of %d" % (label, f, k + 1, runs))
            rm_db(db)
            w, c, r = run_once([GODEYE, "--db", db, "ingest", "-q", "--no-progress", src])
            walls.append(w)
            cpus.append(c)
            rss.append(r)
        con = sqlite3.connect(db)
        n_disp = con.execute("SELECT count(*) FROM dispatch").fetchone()[0]
        n_blocks = con.execute("SELECT count(*) FROM block").fetchone()[0]
        n_traces, n_events = con.execute("SELECT count(*), coalesce(sum(events), 0) FROM trace").fetchone()
        con.close()
        fig = {"runs": runs, "in_mb": input_mb(src), "db_mb": db_mb(db), "wall": median(walls),
               "cpu": median(cpus), "rss": max(rss) / 1024, "dispatches": n_disp, "blocks": n_blocks,
               "traces": n_traces, "events": n_events}
        for q, argv in SCALE_QUERIES:
            argv = [a if a is not None else path("scale-report.html") for a in argv]
            log("%s %dx: %s" % (label, f, q))
            fig[q] = measure([GODEYE, "--db", db] + argv)
        res[f] = fig
        rm_db(db)  # the biggest are a few GB: not kept
    return res


def scale_table(title, res, count_label, count_key):
    fs = SCALE_FACTORS
    head = ["measure"] + ["%dx" % f for f in fs] + ["%dx/%dx" % (f, fs[0]) for f in fs[1:]]
    rows = []

    def row(name, fmt, get, ratio=True):
        vals = [get(res[f]) for f in fs]
        rows.append([name] + [fmt % v for v in vals]
                    + [("%.2f" % (v / vals[0]) if ratio and vals[0] else "-") for v in vals[1:]])

    row("input MB", "%.1f", lambda r: r["in_mb"])
    if count_label:
        row(count_label, "%d", lambda r: r[count_key])
    row("dispatches in the db", "%d", lambda r: r["dispatches"])
    row("blocks in the db", "%d", lambda r: r["blocks"])
    row("ingest runs (median of)", "%d", lambda r: r["runs"], ratio=False)
    row("ingest wall s", "%.2f", lambda r: r["wall"])
    row("ingest CPU s", "%.2f", lambda r: r["cpu"])
    row("ingest MB/s (wall)", "%.1f", lambda r: r["in_mb"] / r["wall"])
    row("ingest dispatches/s (wall)", "%.0f", lambda r: r["dispatches"] / r["wall"])
    row("ingest events/s (wall)", "%.0f", lambda r: r["events"] / r["wall"])
    row("ingest peak RSS MB", "%.1f", lambda r: r["rss"])
    row("db MB", "%.1f", lambda r: r["db_mb"])
    row("db MB per input MB", "%.3f", lambda r: r["db_mb"] / r["in_mb"])
    for q, _ in SCALE_QUERIES:
        row("%s wall s (median of %d)" % (q, RUNS), "%.3f", lambda r, q=q: r[q][0])
        row("%s CPU s" % q, "%.3f", lambda r, q=q: r[q][1])
        row("%s peak RSS MB" % q, "%.1f", lambda r, q=q: r[q][2] / 1024)
    widths = [max(len(str(r[i])) for r in rows + [head]) for i in range(len(head))]
    lines = [title, "", fmt_row(head, widths), "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    return lines + [fmt_row(r, widths) for r in rows]


def scale_main():
    """BENCH_ONLY=scale: ingest and query figures at 1x/4x/16x (about 20 min)."""
    copies, jl = scale_jsonl_inputs()
    pf = scale_perfetto_inputs()
    t_start = time.monotonic()
    loads = [("start", os.getloadavg())]
    rj = scale_measure("jsonl", jl)
    loads.append(("after JSONL", os.getloadavg()))
    rp = scale_measure("perfetto", pf)
    loads.append(("end", os.getloadavg()))
    lines = scale_table("JSONL: cap150k.jsonl (gencapture %s --dispatches 150000) repeated %d/%d/%d"
                        " times, one file each" % ((" ".join(GEN_ARGS),) + tuple(
                            copies * f for f in SCALE_FACTORS)), rj, None, None)
    lines += [""] + scale_table(
        "Perfetto: %d/%d/%d traces of perfetto_gen.py --sched %g MB (seeds 1..N), one folder each"
        % tuple([rp[f]["traces"] for f in SCALE_FACTORS] + [SCALE_TRACE_MB]), rp, "traces", "traces")
    lines += ["", "Load average (1, 5, 15 min): " + "; ".join(
        "%s %.2f %.2f %.2f" % ((name,) + la) for name, la in loads),
        "Queries: `godeye --db DB blocks --group --format jsonl | top | threads | report -o FILE`,"
        " stdout to /dev/null, median of RUNS=%d on the database of the last ingest; ingest at 16x:"
        " %d run(s) (SCALE_BIG_RUNS), at 1x and 4x: RUNS.  db MB: the database file (+ -wal) after"
        " the ingest." % (RUNS, SCALE_BIG_RUNS)]
    text = "\n".join(lines)
    print(text)
    if os.environ.get("RESULTS_MD", "1") != "0":
        write_results("BENCH_ONLY=scale RUNS=%d bench/run.sh" % RUNS, t_start, [], text)
    return 0


def push_main():
    """BENCH_ONLY=push: the push row alone, printed (RESULTS_MD=1 to append
    it to RESULTS.md); PUSH_OTHER=/path/to/godeye times that binary too, in
    the same rounds (a before/after of one run)."""
    t_start = time.monotonic()
    db = push_db_of(generate("cap150k.jsonl", ["--dispatches", "150000"]))
    other = os.environ.get("PUSH_OTHER")
    pm = push_measure(db, other)
    if not pm:
        print("push: clickhouse-server is not installed and CLICKHOUSE_URL is not set: skipped.")
        return 1
    prow, pinfo = pm[2:4]
    return push_report(["push %d rows (150k capture), RUNS=%d, medians: %s" % (prow, RUNS, pinfo)],
                       pm, other, "push", t_start)


def push_report(head, pm, other, name, t_start):
    """Prints a push measure (pm: godeye's, curl's, ..., the other binary's)
    under its head lines, and writes it to RESULTS.md when RESULTS_MD=1."""
    pg, pb = pm[:2]
    lines = head + ["curl --data-binary   wall %.3f s  cpu %.3f s" % (pb[0], pb[1]),
                    "godeye push          wall %.3f s  cpu %.3f s  rss %.1f MB  ratio %.2fx" % (
                        pg[0], pg[1], pg[2] / 1024, pg[0] / pb[0])]
    if other:
        po = pm[4]
        lines.append("%s  wall %.3f s  cpu %.3f s  rss %.1f MB  ratio %.2fx" % (
            other, po[0], po[1], po[2] / 1024, po[0] / pb[0]))
    text = "\n".join(lines)
    print(text)
    if os.environ.get("RESULTS_MD", "0") == "1":
        write_results("BENCH_ONLY=%s RUNS=%d bench/run.sh" % (name, RUNS), t_start, [], text)
    return 0


# the many-small-traces push measure (#53 item 9): this many distinct
# captures (seeds 100, 101, ..., a seed gencapture fails on passed over) of SMALL_DISPATCHES dispatches each, in
# one database; push sends them in batches of up to 256 traces
SMALL_N = int(os.environ.get("SMALL_N", "300"))
SMALL_DISPATCHES = int(os.environ.get("SMALL_DISPATCHES", "400"))


def push_small_db():
    """The database of SMALL_N small captures that push reads (built once)."""
    db = path("push-small-%dx%d.db" % (SMALL_N, SMALL_DISPATCHES))
    if not os.path.exists(db):
        caps, k = [], 100
        while len(caps) < SMALL_N:
            try:
                caps.append(generate("small%d-s%d.jsonl" % (SMALL_DISPATCHES, k),
                                     ["--dispatches", str(SMALL_DISPATCHES), "--seed", str(k)]))
            except subprocess.CalledProcessError:
                log("gencapture failed at seed %d (a small capture's edge case): next seed" % k)
            k += 1
        run_once([GODEYE, "--db", db + ".tmp", "ingest", "-q", "--no-progress"] + caps)
        for suffix in ("-wal", "-shm"):
            if os.path.exists(db + ".tmp" + suffix):
                os.unlink(db + ".tmp" + suffix)
        os.replace(db + ".tmp", db)
    return db


def push_small_row(pm):
    """The table row of the many-small-traces push measure."""
    pg, pb, prow, pinfo = pm[:4]
    return (["push %d small traces (%d rows) vs curl --data-binary" % (SMALL_N, prow), "-",
             "%.2f (%.2f)" % (pb[0], pb[1]), "%.2f (%.2f)" % (pg[0], pg[1]),
             "%.2f (%.2f)" % (pg[0] / pb[0], pg[1] / max(pb[1], 1e-9)), "-", "%.1f" % (pg[2] / 1024),
             "<= 1.2x"],
            "push of %d small traces: %s; the same recorded requests replayed by curl in the same rounds"
            % (SMALL_N, pinfo))


def push_small_main():
    """BENCH_ONLY=push_small: the many-small-traces push row alone, printed
    (RESULTS_MD=1 appends it to RESULTS.md); PUSH_OTHER as for push."""
    t_start = time.monotonic()
    db = push_small_db()
    other = os.environ.get("PUSH_OTHER")
    pm = push_measure(db, other)
    if not pm:
        print("push: clickhouse-server is not installed and CLICKHOUSE_URL is not set: skipped.")
        return 1
    row, note = push_small_row(pm)
    return push_report(["| " + " | ".join(row) + " |", note], pm, other, "push_small", t_start)


def push_db_of(jl1):
    """The database of the 150k capture that push reads (built once)."""
    push_db = path("push.db")
    if not os.path.exists(push_db):
        run_once([GODEYE, "--db", push_db + ".tmp", "ingest", "-q", "--no-progress", jl1])
        for suffix in ("-wal", "-shm"):
            if os.path.exists(push_db + ".tmp" + suffix):
                os.unlink(push_db + ".tmp" + suffix)
        os.replace(push_db + ".tmp", push_db)
    return push_db


def write_results(command, t_start, summary, text):
    rev = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                         text=True).stdout.strip() or "?"
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
    with open(RESULTS, "a", encoding="utf-8") as f:
        f.write("\n## Run of %s (written by bench/run.sh)\n\n" % datetime.datetime.now().strftime(
            "%Y-%m-%d %H:%M"))
        f.write("`%s` at %s%s; %.1f min for the measures (inputs cached);"
                " load average at the start %.1f, at the end %.1f.\n\n" % (
                    command, rev, " (with uncommitted changes)" if dirty else "",
                    (time.monotonic() - t_start) / 60, LOAD_START, os.getloadavg()[0]))
        f.write(("\n".join(summary) + "\n\n" if summary else "") + "```\n" + text + "\n```\n")
    log("appended to %s" % RESULTS)


LOAD_START = os.getloadavg()[0]


def main():
    os.makedirs(DATA, exist_ok=True)
    drop_stale_dbs()
    if os.environ.get("BENCH_ONLY") == "perfetto":
        return perfetto_main()
    if os.environ.get("BENCH_ONLY") == "push":
        return push_main()
    if os.environ.get("BENCH_ONLY") == "push_small":
        return push_small_main()
    if os.environ.get("BENCH_ONLY") == "scale":
        return scale_main()
    jl1 = generate("cap150k.jsonl", ["--dispatches", "150000"])
    jl2 = generate("cap300k.jsonl", ["--dispatches", "300000"])
    doc = to_document(jl1, "cap150k.json")
    gz = to_gzip(jl1, "cap150k.jsonl.gz")
    lc = generate("cap150k.log", ["--dispatches", "150000", "--as", "logcat"])
    big = build_big_db(jl2)
    push_db = push_db_of(jl1)
    t_start = time.monotonic()

    head = ["measure", "input MB", "baseline wall s (cpu s)", "godeye wall s (cpu s)",
            "ratio wall (cpu)", "MB/s", "peak RSS MB", "target"]
    rows = []
    notes = []

    m = interleaved([("b1", baseline_argv(jl1)), ("g1", ingest_argv(jl1)), ("gd", ingest_argv(doc)),
                     ("gg", ingest_argv(gz)), ("gl", ingest_argv(lc)), ("b2", baseline_argv(jl2)),
                     ("g2", ingest_argv(jl2))])

    def ingest_row(label, key, src, base, target):
        g = m[key]
        size = mb(src)
        rows.append([label, "%.1f" % size, "%.2f (%.2f)" % (base[0], base[1]),
                     "%.2f (%.2f)" % (g[0], g[1]),
                     "%.2f (%.2f)" % (g[0] / base[0], g[1] / base[1]),
                     "%.1f" % (size / g[0]), "%.1f" % (g[2] / 1024), target])
        return g

    b1, b2 = m["b1"], m["b2"]
    g1 = ingest_row("ingest JSONL 150k dispatches", "g1", jl1, b1, "<= 1.0x (aim 0.5x), <= 64 MB")
    g2 = ingest_row("ingest JSONL 300k dispatches", "g2", jl2, b2, "RSS < 1.2x of 150k")
    gd = ingest_row("ingest document 150k", "gd", doc, b1, "<= 1.2x JSONL time")
    gg = ingest_row("ingest gzip JSONL 150k", "gg", gz, b1, "<= 1.2x JSONL time")
    gl = ingest_row("ingest logcat 150k", "gl", lc, b1, "-")
    perfetto_measure(rows)
    notes.append("Perfetto rows: the baseline column is `gzip -6 -c` of the same file (its CPU), run in"
                 " the same rounds; each trace's second row times the sqlite3 shell loading the rows"
                 " godeye wrote for it (CSV `.import` into the same schema and pragmas, one"
                 " transaction, indexes after the rows): what SQLite's own shell takes to store the"
                 " rows godeye stores, so the ratio godeye / shell says how far godeye is from"
                 " SQLite's own loader, and the shell's ratio to gzip what any design storing those rows"
                 " in SQLite starts from")

    def query_row(label, argv, target):
        log(label)
        w, c, r = measure(argv)
        rows.append([label, "-", "-", "%.3f (%.3f)" % (w, c), "-", "-", "%.1f" % (r / 1024), target])
        return w

    n_big = sqlite3.connect(big).execute("SELECT count(*) FROM dispatch").fetchone()[0]
    blocks_argv = [GODEYE, "--db", big, "blocks", "--threshold", "500", "--format", "jsonl"]
    sq_argv, sq_source = sqlite3_blocks_argv(big, 500, blocks_argv)
    notes.append("blocks: the sqlite3 baseline runs the SELECT %s (build/bench-data/blocks-500.sql)"
                 % sq_source)
    n_rows, n_sq = count_lines(blocks_argv), count_lines(sq_argv)  # one row a line
    if n_rows != n_sq:
        raise RuntimeError("blocks printed %d rows, sqlite3 -json %d" % (n_rows, n_sq))
    log("blocks --threshold 500 and sqlite3 -json, %d rows" % n_rows)
    jobs = interleaved([("sq", sq_argv), ("gb", blocks_argv)])
    qb, sq = jobs["gb"], jobs["sq"]
    rows.append(["blocks --threshold 500 --format jsonl, %.1fM dispatches, %d rows vs sqlite3 -json"
                 % (n_big / 1e6, n_rows), "-", "%.3f (%.3f)" % (sq[0], sq[1]), "%.3f (%.3f)" % (qb[0], qb[1]),
                 "%.2f (%.2f)" % (qb[0] / sq[0], qb[1] / sq[1]), "-", "%.1f" % (qb[2] / 1024), "<= 1.5x"])
    qg = query_row("blocks --group, %.1fM dispatches" % (n_big / 1e6),
                   [GODEYE, "--db", big, "blocks", "--group", "--format", "jsonl"], "< 0.500 s")

    log("overdraw")
    ods = []
    for _ in range(RUNS):
        out = subprocess.run([OVERDRAW], check=True, capture_output=True, text=True).stdout
        m = re.search(r"10000 views:\s+([0-9.]+) ms", out)
        ods.append(float(m.group(1)))
    od = median(ods)
    rows.append(["overdraw, 10,000 views (best of 5, median of %d)" % RUNS, "-", "-",
                 "%.3f" % (od / 1000), "-", "-", "-", "< 0.020 s"])

    has_report = subprocess.run([GODEYE, "report", "-h"], capture_output=True).returncode == 0
    if has_report:
        db = path("report.db")
        if not os.path.exists(db):
            run_once([GODEYE, "--db", db, "ingest", "-q", "--no-progress", jl2])
        query_row("report, 300k dispatches", [GODEYE, "--db", db, "report"], "< 5 s, < 10 MB")
    else:
        notes.append("`godeye report` does not exist in this build: its measure is skipped.")

    pm = push_measure(push_db)
    if pm:
        pg, pb, prow, pinfo = pm
        rows.append(["push %d rows (150k capture) vs curl --data-binary" % prow, "-",
                     "%.2f (%.2f)" % (pb[0], pb[1]), "%.2f (%.2f)" % (pg[0], pg[1]),
                     "%.2f (%.2f)" % (pg[0] / pb[0], pg[1] / max(pb[1], 1e-9)), "-",
                     "%.1f" % (pg[2] / 1024), "<= 1.2x"])
        notes.append("push: %s; baseline cpu is curl's own (the server's work is in the wall time)"
                     % pinfo)
    else:
        notes.append("push: clickhouse-server is not installed and CLICKHOUSE_URL is not set: skipped.")
    psm = push_measure(push_small_db()) if pm else None
    if psm:
        row, note = push_small_row(psm)
        rows.append(row)
        notes.append(note)

    seq = [generate("seq%dk-s%d.jsonl" % (SEQ_DISPATCHES // 1000, k),
                    ["--dispatches", str(SEQ_DISPATCHES), "--seed", str(k)]) for k in range(2, 2 + SEQ_N)]
    t1, t10, rseq, all_t, all_c, n_seq = sequence_measure(seq)
    rows.append(["ingest #%d vs #1 of %d distinct %dk captures, one db" % (SEQ_N, SEQ_N, SEQ_DISPATCHES // 1000),
                 "%.1f" % mb(seq[-1]), "%.2f (%.2f) #1" % t1, "%.2f (%.2f) #%d" % (t10 + (SEQ_N,)),
                 "%.2f (%.2f)" % rseq, "%.1f" % (mb(seq[-1]) / t10[0]), "-", "<= 1.1x"])
    notes.append("sequence: median ingest wall s (cpu s) of each capture in turn: %s; %d dispatches in"
                 " the database after the last" % (" ".join("%.2f (%.2f)" % wc for wc in zip(all_t, all_c)),
                                                   n_seq))

    widths = [max(len(str(r[i])) for r in rows + [head]) for i in range(len(head))]
    lines = [fmt_row(head, widths), "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    lines += [fmt_row(r, widths) for r in rows]
    summary = [
        "| issue row | measured | target |",
        "|---|---|---|",
        "| ingest %.1f MB JSONL vs baseline | %.2fx wall (%.2fx cpu) | <= 0.5x |" % (
            mb(jl1), g1[0] / b1[0], g1[1] / b1[1]),
        "| peak RSS 2x / 1x input | %.2fx (%.1f / %.1f MB) | <= 1.05x, <= 64 MB |" % (
            g2[2] / g1[2], g2[2] / 1024, g1[2] / 1024),
        "| push vs curl of the same rows | %s | <= 1.2x |" % (
            "%.2fx wall" % (pg[0] / pb[0]) if pm else "skipped"),
        "| push of %d small traces vs curl of the same rows | %s | <= 1.2x |" % (
            SMALL_N, "%.2fx wall" % (psm[0][0] / psm[1][0]) if psm else "skipped"),
        "| blocks --threshold 500 jsonl vs sqlite3 -json | %.2fx wall | <= 1.5x |" % (qb[0] / sq[0]),
        "| ingest #%d / #1 into one db | %.2fx wall (%.2fx cpu) | <= 1.1x |" % ((SEQ_N,) + rseq),
    ]
    title = "godeye benchmark, %s, %d runs each (median), %s" % (
        datetime.date.today().isoformat(), RUNS, os.uname().nodename)
    ratios = ("RSS ratio 300k / 150k: %.2f; document / JSONL time: %.2f; gzip / JSONL time: %.2f;"
              " logcat / JSONL time: %.2f" % (g2[2] / g1[2], gd[0] / g1[0], gg[0] / g1[0], gl[0] / g1[0]))
    text = "\n".join([title, ""] + lines + ["", ratios] + notes)
    print(text)
    print()
    print("\n".join(summary))
    if os.environ.get("RESULTS_MD", "1") != "0":
        write_results("RUNS=%d bench/run.sh" % RUNS, t_start, summary, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
