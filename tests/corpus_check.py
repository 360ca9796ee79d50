#!/usr/bin/env python3
"""corpus_check.py - every real file against its expectation.

    corpus_check.py BIN_DIR CORPUS [IN_REPO]

The real files are read from IN_REPO (tests/corpus/files: the
redistributable ones carried in the repository) first, then from CORPUS
($GODEYE_CORPUS when set, else the folder given: ../shared/corpus).

Each corpus file FILE has an expectation tests/corpus/FILE.json, written by
hand from the file itself (counts of lines, durations, states read with grep
and a calculator), never copied from godeye's own output:

  {"ingest": {"exit": 0, "format": "anr", "events": 193, ...},
   "stderr": "substring of ingest's stderr",           (optional)
   "checks": [{"why": "how the figure was checked",
               "cmd": ["anr", "--format", "json"],
               "expect": {"len": 3, "0.main.state": "Blocked",
                          "sum:dur_ms": 1234, "count:kind=anr": 2,
                          "max:dur_ms": 800, "min:dur_ms": 1}}]}

"ingest" fields are compared with the first row of `godeye ingest --format
json FILE` (exit 0) or only "exit" when the file must be refused (exit 1;
"stderr" must then occur in the one error line). Each check runs a command on
the same database and compares with its JSON rows: "len" is the row count,
"I.a.b" a path into row I, "sum:F"/"max:F"/"min:F" over all rows,
"count:F=V" the rows whose F (a path) equals V. Numbers compare to within
"tol" (default 0.001).

A corpus file without an expectation fails (the corpus has grown and nobody
looked); an expectation whose corpus file is in neither place is reported
as skipped by name; no real file at all exits 77 (skipped).  Each file
tested or absent is appended to $GODEYE_CORPUS_LOG when set ("tested REL" /
"absent REL"; scripts/test.sh counts them).
"""
import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile

NOT_CAPTURES = {"SOURCES.md"}


def corpus_log(what, rel):
    log = os.environ.get("GODEYE_CORPUS_LOG")
    if log:
        with open(log, "a", encoding="utf-8") as f:
            f.write(f"{what} {rel}\n")


def list_files(top, skip_dirs=()):
    """Relative paths of the capture files under top (none when absent)."""
    found = set()
    if not os.path.isdir(top):
        return found
    for root, dirs, names in os.walk(top):
        dirs[:] = [d for d in dirs if os.path.join(root, d) not in skip_dirs and d != "LICENSES"]
        for n in names:
            if n not in NOT_CAPTURES:
                found.add(os.path.relpath(os.path.join(root, n), top))
    return found


def get(row, path):
    cur = row
    for part in path.split("."):
        if isinstance(cur, list):
            cur = cur[int(part)] if part.lstrip("-").isdigit() and -len(cur) <= int(part) < len(cur) else None
        elif isinstance(cur, dict):
            cur = cur.get(part)
        else:
            return None
        if cur is None:
            return None
    return cur


def same(got, want, tol):
    if isinstance(want, bool) or want is None or isinstance(got, bool):
        return got == want
    if isinstance(want, (int, float)) and isinstance(got, (int, float)):
        return abs(got - want) <= tol
    return got == want


def evaluate(rows, key, tol):
    if key == "len":
        return len(rows)
    if ":" in key:
        op, arg = key.split(":", 1)
        if op == "count":
            field, value = arg.split("=", 1)
            return sum(1 for r in rows if str(get(r, field)) == value)
        vals = [get(r, arg) for r in rows]
        vals = [v for v in vals if isinstance(v, (int, float)) and not isinstance(v, bool)]
        if op == "sum":
            return sum(vals)
        if op == "max":
            return max(vals) if vals else None
        if op == "min":
            return min(vals) if vals else None
        raise ValueError(f"unknown operator {op!r}")
    idx, _, rest = key.partition(".")
    if not rows or not idx.lstrip("-").isdigit() or int(idx) >= len(rows) or int(idx) < -len(rows):
        return None
    row = rows[int(idx)]
    return get(row, rest) if rest else row


def run(godeye, args, env):
    return subprocess.run([godeye] + args, capture_output=True, text=True, env=env)


def check_file(godeye, path, rel, exp):
    """Returns a list of failure strings (empty when every expectation holds)."""
    fails = []
    tmp = tempfile.mkdtemp(prefix="godeye-corpus-")
    atexit.register(shutil.rmtree, tmp, True)  # the suite leaves no temporary folder
    env = dict(os.environ, GODEYE_DB=os.path.join(tmp, "g.db"))
    want = exp["ingest"]
    p = run(godeye, ["ingest", "--format", "json", path], env)
    if p.returncode != want.get("exit", 0):
        return [f"ingest exit {p.returncode}, expected {want.get('exit', 0)}: {p.stderr.strip()[:300]}"]
    if "stderr" in exp and exp["stderr"] not in p.stderr:
        fails.append(f"stderr lacks {exp['stderr']!r}: {p.stderr.strip()[:300]}")
    if p.returncode != 0:
        if p.stdout.strip() not in ("", "[]"):
            fails.append("a refused file wrote rows to stdout")
        return fails
    row = json.loads(p.stdout)[0]
    for k, v in want.items():
        if k == "exit":
            continue
        got = get(row, k)
        if not same(got, v, 0):
            fails.append(f"ingest {k} = {got!r}, expected {v!r}")
    for c in exp.get("checks", []):
        q = run(godeye, c["cmd"], env)
        if q.returncode != c.get("exit", 0):
            fails.append(f"{' '.join(c['cmd'])}: exit {q.returncode}: {q.stderr.strip()[:200]}")
            continue
        try:
            rows = json.loads(q.stdout) if q.stdout.strip() else []
        except json.JSONDecodeError as e:
            fails.append(f"{' '.join(c['cmd'])}: not JSON ({e})")
            continue
        if isinstance(rows, dict):
            rows = [rows]
        tol = c.get("tol", 0.001)
        for key, v in c["expect"].items():
            got = evaluate(rows, key, tol)
            if not same(got, v, tol):
                fails.append(f"{' '.join(c['cmd'])}: {key} = {got!r}, expected {v!r}")
    return fails


def main():
    bin_dir = sys.argv[1]
    corpus = os.environ.get("GODEYE_CORPUS") or sys.argv[2]
    inrepo = sys.argv[3] if len(sys.argv) > 3 else ""
    expect_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
    godeye = os.path.join(bin_dir, "godeye")
    here = list_files(inrepo) if inrepo else set()
    outside = list_files(corpus)
    files = here | outside
    if not files:
        print(f"SKIP: no real file in {inrepo or '-'} nor in {corpus}")
        return 77
    expected = set()
    files_dir = os.path.join(expect_dir, "files")
    for root, dirs, names in os.walk(expect_dir):
        dirs[:] = [d for d in dirs if os.path.join(root, d) != files_dir]
        for n in names:
            if n.endswith(".json"):
                expected.add(os.path.relpath(os.path.join(root, n), expect_dir)[:-5])
    passed = failed = skipped = 0
    for rel in sorted(files | expected):
        if rel not in expected:
            print(f"FAIL {rel}: no expectation in tests/corpus/{rel}.json")
            failed += 1
            continue
        if rel not in files:
            print(f"skip {rel}: absent (not in tests/corpus/files, nor in {corpus})")
            corpus_log("absent", rel)
            skipped += 1
            continue
        corpus_log("tested", rel)
        with open(os.path.join(expect_dir, rel + ".json"), encoding="utf-8") as f:
            exp = json.load(f)
        fails = check_file(godeye, os.path.join(inrepo if rel in here else corpus, rel), rel, exp)
        if fails:
            failed += 1
            for m in fails:
                print(f"FAIL {rel}: {m}")
        else:
            passed += 1
            n = sum(len(c["expect"]) for c in exp.get("checks", []))
            where = "in repo" if rel in here else "outside"
            print(f"ok   {rel}: {exp['ingest'].get('format', 'refused')}, {n} figures ({where})")
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    if failed:
        return 1
    return 77 if passed == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
