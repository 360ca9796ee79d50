#!/usr/bin/env python3
"""diff_answer_check.py - `godeye diff` reads like an answer (#52).

    diff_answer_check.py GODEYE EXAMPLES CORPUS

On the examples (shop.previous.jsonl 4.11.0 against shop.jsonl 4.12.0),
`godeye diff` on a pseudo-terminal of 80 and of 120 columns: no line wider
than the terminal, no ellipsis, every changed row's name whole (its lines
joined), the headline's counts equal to the JSON rows' statuses, every
shown row naming its test.  `check`'s new_groups equals the count of rows
of kind group or anr_group that `diff` calls new, on the examples (11,
counted by hand: 11 groups only in 4.12.0) and on a database of real files
(CORPUS: two anr_traces files and the Matrix issue log as 1.0, the two
Sentry thread dumps as 2.0: 2 new ANR groups); the Matrix side, an issue
log, gets no rate test.  Prints "ok: ..." lines and "N passed, N failed".
"""
import atexit
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from width_check import check, on_tty, results  # noqa: E402


def run(exe, env, *args, code=0):
    p = subprocess.run([exe, *args], env=env, capture_output=True, text=True)
    if p.returncode != code:
        raise SystemExit(f"{args}: exit {p.returncode}: {p.stderr}")
    return p.stdout


def new_groups_of(exe, env, base, head, tmp):
    budget = os.path.join(tmp, "budget.json")
    with open(budget, "w") as f:
        json.dump({"base": base, "max": {"new_groups": 0}}, f)
    out = subprocess.run([exe, "check", "--budget", budget, head, "--format", "json"], env=env,
                         capture_output=True, text=True).stdout
    return json.loads(out)[0]["value"]


def answer_checks(exe, env, rows, cols):
    lines = on_tty([exe, "diff", "version=4.11.0", "version=4.12.0"], cols, env)
    check(max(len(x) for x in lines) <= cols and not any("\u2026" in x for x in lines),
          f"{cols} columns: every line fits ({max(len(x) for x in lines)} at most), nothing cut",
          "\n".join(lines))
    text = "".join(x.strip() for x in lines).replace(" ", "")
    shown = [r for r in rows if r["status"] not in ("same", "inconclusive")]
    missing = [r["name"] for r in shown if r["name"] and r["name"].replace(" ", "") not in text]
    check(not missing, f"{cols} columns: the {len(shown)} changed rows' names are whole", repr(missing))
    counts = {s: sum(r["status"] == s for r in rows) for s in ("new", "gone", "improved", "inconclusive")}
    regs = sum(r["regression"] for r in rows)
    want = (f"{regs} regression{'' if regs == 1 else 's'} · {counts['new']} new · {counts['gone']} gone · "
            f"{counts['improved']} improved · {counts['inconclusive']} inconclusive")
    check(" ".join(lines[:2]).startswith(want), f"{cols} columns: headline '{want}'", lines[0])
    tests = sum(1 for x in lines if x.startswith("  test: "))
    check(tests == len(shown), f"{cols} columns: {tests} 'test:' lines for {len(shown)} blocks")


def real_file_checks(exe, env, tmp, files):
    """new_groups = diff's new groups on a database of real files (two
    anr_traces files and the Matrix issue log as 1.0, the two Sentry thread
    dumps as 2.0); the Matrix side gets no rate test."""
    renv = dict(env, GODEYE_DB=os.path.join(tmp, "real.db"))
    run(exe, renv, "ingest", "-q", "--set", "version=1.0", *files[:3])
    run(exe, renv, "ingest", "-q", "--set", "version=2.0", *files[3:])
    real = json.loads(run(exe, renv, "diff", "version=1.0", "version=2.0", "--format", "json"))
    new = sum(r["status"] == "new" and r["kind"] in ("group", "anr_group") for r in real)
    got = new_groups_of(exe, renv, "version=1.0", "version=2.0", tmp)
    check(new == 2 and got == new, f"real files: new_groups {got} = diff's new groups {new} (2 by hand)")
    rated = [r["name"] for r in real if r["rate_p_value"] is not None or r["decided_by"] == "rate"]
    check(not rated, "real files: the side holding a Matrix issue log gets no rate test", repr(rated))


def main():
    exe, examples, corpus = os.path.realpath(sys.argv[1]), sys.argv[2], sys.argv[3]
    tmp = tempfile.mkdtemp(prefix="godeye-diffanswer-")
    atexit.register(shutil.rmtree, tmp, True)  # the suite leaves no temporary folder
    env = dict(os.environ, GODEYE_DB=os.path.join(tmp, "g.db"))
    env.pop("COLUMNS", None)
    run(exe, env, "ingest", "-q", os.path.join(examples, "shop.jsonl"), os.path.join(examples, "shop.previous.jsonl"))
    rows = json.loads(run(exe, env, "diff", "version=4.11.0", "version=4.12.0", "--format", "json"))
    for cols in (80, 120):
        answer_checks(exe, env, rows, cols)
    new = sum(r["status"] == "new" and r["kind"] in ("group", "anr_group") for r in rows)
    got = new_groups_of(exe, env, "version=4.11.0", "version=4.12.0", tmp)
    check(new == 11 and got == new, f"examples: new_groups {got} = diff's new groups {new} (11 by hand)")
    over = sorted(r["name"] for r in rows if r["status"] == "new" and r["regression"] and r["kind"] == "group")
    check(len(over) == 3 and any("awaitResult" in n for n in over),
          f"examples: 3 new groups over the 500 ms bar are regressions ({len(over)})", repr(over))
    # a database of real files: each in tests/corpus/files, else in CORPUS;
    # absent ones skip this part, named (and logged as scripts/test.sh counts)
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "files")
    rels = ["anr_traces/charmingw_cwimage_system_server_traces.txt", "anr_traces/rynkowsg_smartadscreen_traces.txt",
            "matrix/hero0812_temp.json", "anr_traces/sentry_thread_dump.txt",
            "anr_traces/sentry_thread_dump_native_only.txt"]
    found = {r: next((p for p in (os.path.join(here, r), os.path.join(corpus, r)) if os.path.isfile(p)), None)
             for r in rels}
    log = os.environ.get("GODEYE_CORPUS_LOG")
    if log:
        with open(log, "a") as f:
            for r in rels:
                f.write(f"{'tested' if found[r] else 'absent'} {r}\n")
    absent = [r for r in rels if not found[r]]
    if absent:
        print(f"skip real files: absent (not in tests/corpus/files, nor in {corpus}): {', '.join(absent)}")
    else:
        real_file_checks(exe, env, tmp, [found[r] for r in rels])
    failed = results.count(False)
    print(f"{len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
