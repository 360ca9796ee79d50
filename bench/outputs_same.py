#!/usr/bin/env python3
"""outputs_same.py - checks that two godeye binaries answer every query
command alike (#45: "the outputs of every query command in every format
are byte-identical on the corpus and examples databases").

    bench/outputs_same.py BASE_GODEYE NEW_GODEYE [--corpus DIR] [--keep DIR]
                          [--only SUBSTRING] [--upgrade]

Builds three databases with BASE (examples/; the shared corpus, ../shared/
corpus or --corpus; both together), then runs every listing, report,
explain, diff and check form of the table below in every format of the
command, at two terminal widths for tables, with each binary, and compares
stdout, stderr and the exit status byte by byte.  Prints the first lines
of each difference and a count; exit 0 when all are identical.  Clock
times in a report ("generated ...") are masked.  python3 standard library
only.  With --upgrade (NEW reads a newer schema than BASE writes), NEW
answers from a copy of each database that it upgraded first (its `rm` of
a trace that does not exist opens the database for writing).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LISTING = ["table", "csv", "json", "jsonl"]

# (argv after --db, formats) -- a form runs once per format (--format F)
FORMS = [
    (["traces"], LISTING),
    (["top"], LISTING),
    (["blocks"], LISTING),
    (["blocks", "--group"], LISTING),
    (["blocks", "--stacks"], ["json", "jsonl"]),
    (["blocks", "--threshold", "16"], LISTING),
    (["blocks", "--group", "--threshold", "100"], LISTING),
    (["blocks", "--limit", "3"], LISTING),
    (["blocks", "--kind", "long", "--stacks", "--limit", "2"], ["json"]),
    (["blocks", "--group", "--limit", "2"], ["json"]),
    (["pages"], LISTING),
    (["pages", "--group"], LISTING),
    (["overdraw"], LISTING),
    (["overdraw", "--views"], ["json", "jsonl"]),
    (["images"], LISTING),
    (["methods"], LISTING),
    (["methods", "--tree"], LISTING),
    (["methods", "--evil"], LISTING),
    (["startup"], LISTING),
    (["startup", "--breakdown"], LISTING),
    (["threads"], LISTING),
    (["frames"], LISTING),
    (["frames", "--summary"], LISTING),
    (["frames", "--wide"], ["table"]),
    (["blocks", "--wide"], ["table"]),
    (["top", "--wide"], ["table"]),
    (["anr"], LISTING),
    (["anr", "--group"], LISTING),
    (["issues"], LISTING),
    (["issues", "--group"], LISTING),
    (["issues", "--group", "--tool", "android"], LISTING),
    (["anr", "--all"], LISTING),
    (["anr", "--all", "--group"], LISTING),
    (["anr", "--context", "10s"], LISTING),
    (["anr", "--context", "2m", "--id", "3"], LISTING),
    (["anr", "--id", "3"], LISTING),
    (["top", "--all-processes"], LISTING),
    (["explain", "--top", "1"], ["table", "md", "json", "jsonl", "csv"]),
    (["explain", "--top", "2"], ["table", "md", "json", "jsonl", "csv"]),
    (["explain", "--top", "3"], ["table", "md", "json"]),
    (["report"], ["md", "json", "html"]),
    (["export", "--chrome", "-"], [None]),
    (["export", "--folded", "-"], [None]),
]
DIFF_FORMS = [(["diff"], [None, "table", "csv", "json", "jsonl", "md"])]
CHECK_FORMS = [(["check"], ["table", "csv", "json", "jsonl", "md", "junit"]),
               (["check", "--allow-missing"], ["json"])]
WIDTHS = ["80", "200"]
MASK = [
    (re.compile(rb'"generated(_at)?"\s*:\s*"[^"]*"'), b'"generated":"*"'),
    (re.compile(rb"[Gg]enerated (at |on )?\d{4}-\d\d-\d\d[ T][0-9:.Z+-]*"), b"generated *"),
]


def run(binary, db, argv, width):
    env = dict(os.environ, COLUMNS=width, GODEYE_TZ="UTC", LC_ALL="C")
    env.pop("GODEYE_DB", None)
    p = subprocess.run([binary, "--db", db] + argv, capture_output=True, env=env, timeout=600)
    out, err = p.stdout, p.stderr
    for rx, rep in MASK:
        out = rx.sub(rep, out)
    return out, err, p.returncode


def ids(binary, db):
    out, _, rc = run(binary, db, ["traces", "--format", "jsonl"], "200")
    found = re.findall(rb'"trace"\s*:\s*(\d+)', out) if rc == 0 else []
    return [x.decode() for x in found]


def forms_for(binary, db, tmp):
    tids = ids(binary, db)
    forms = []
    for argv, fmts in FORMS:
        forms.append((argv, fmts))
        if tids and argv[0] not in ("traces", "export"):
            forms.append((argv + ["--trace", tids[0]], fmts[:2]))
    for app in ("com.example.shop", "com.google.android.youtube"):
        for argv in (["top"], ["blocks", "--group"], ["frames"], ["startup"], ["anr"], ["report"]):
            fm = ["md", "json"] if argv[0] == "report" else ["table", "json"]
            forms.append((argv + ["--app", app], fm))
    if len(tids) >= 2:
        half = len(tids) // 2
        base = ",".join(tids[:half])
        head = ",".join(tids[half:])
        for argv, fmts in DIFF_FORMS:
            forms.append((argv + [base, head], fmts))
            forms.append((argv + ["--stacks", base, head], ["json", "md"]))
        budget = os.path.join(tmp, "budget.json")
        with open(budget, "w") as f:
            f.write('{"max": {"anr_count": 0, "block_p95_ms": 800, "long_blocks_per_min": 2,'
                    ' "page_load_p95_ms": 2000, "startup_cold_ms": 5000, "startup_warm_ms": 2000,'
                    ' "startup_hot_ms": 1500, "slow_frames_pct": 10, "frozen_frames_pct": 0.5,'
                    ' "new_groups": 0, "regressed_groups": 0}}')
        for argv, fmts in CHECK_FORMS:
            forms.append((argv + ["--budget", budget, "--base", base, head], fmts))
    return forms


def compare(base, new, db, label, only, shown, new_db=None):
    tmp = os.path.dirname(db)
    n = same = 0
    for argv, fmts in forms_for(base, db, tmp):
        for fmt in fmts:
            full = list(argv) + (["--format", fmt] if fmt else [])
            text = " ".join(full)
            if only and only not in text:
                continue
            widths = WIDTHS if fmt in (None, "table") else WIDTHS[:1]
            for w in widths:
                n += 1
                a = run(base, db, full, w)
                b = run(new, new_db or db, full, w)
                if a == b:
                    same += 1
                    continue
                if shown[0] < 12:
                    shown[0] += 1
                    print(f"DIFF [{label}] COLUMNS={w} godeye {text}: exit {a[2]} vs {b[2]}")
                    for i, (x, y) in enumerate(((a[0], b[0]), (a[1], b[1]))):
                        if x == y:
                            continue
                        xl, yl = x.splitlines(), y.splitlines()
                        for k in range(max(len(xl), len(yl))):
                            xa = xl[k] if k < len(xl) else b"<none>"
                            ya = yl[k] if k < len(yl) else b"<none>"
                            if xa != ya:
                                what = "stdout" if i == 0 else "stderr"
                                print(f"  {what} line {k + 1}:\n  - {xa[:300]!r}\n  + {ya[:300]!r}")
                                break
    return n, same


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        print(__doc__)
        return 2
    base, new = os.path.abspath(args[0]), os.path.abspath(args[1])
    corpus = os.path.join(os.path.dirname(ROOT), "shared", "corpus")
    keep = only = None
    upgrade = False
    rest = args[2:]
    while rest:
        opt = rest.pop(0)
        if opt == "--corpus":
            corpus = rest.pop(0)
        elif opt == "--keep":
            keep = rest.pop(0)
        elif opt == "--only":
            only = rest.pop(0)
        elif opt == "--upgrade":
            upgrade = True
    tmp = keep or tempfile.mkdtemp(prefix="outputs_same.")
    os.makedirs(tmp, exist_ok=True)
    sets = [("examples", [os.path.join(ROOT, "examples")])]
    if os.path.isdir(corpus):
        sets.append(("corpus", [corpus]))
        sets.append(("both", [os.path.join(ROOT, "examples"), corpus]))
    total = same = 0
    shown = [0]
    for label, inputs in sets:
        d = os.path.join(tmp, label)
        os.makedirs(d, exist_ok=True)
        db = os.path.join(d, "godeye.db")
        if not os.path.exists(db):
            subprocess.run([base, "--db", db, "ingest"] + inputs, capture_output=True)
        new_db = None
        if upgrade:
            new_db = os.path.join(d, "upgraded.db")
            shutil.copyfile(db, new_db)
            subprocess.run([new, "--db", new_db, "rm", "999999999"], capture_output=True)
        n, s = compare(base, new, db, label, only, shown, new_db)
        total += n
        same += s
    print(f"{same} of {total} outputs identical")
    if not keep:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0 if same == total else 1


if __name__ == "__main__":
    sys.exit(main())
