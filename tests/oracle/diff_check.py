#!/usr/bin/env python3
"""diff_check.py - `godeye diff` and `godeye check` on generated captures.

For each seed, tests/oracle/gendiff.py writes a base (3.1.0) and a head (3.2.0)
capture where one group is new, one gone, one regressed, one improved and
two unchanged.  diff must name exactly those (no false positives on the
unchanged groups, pages, launches and frames); its p-values must agree
with a Mann-Whitney U computed here in Python from the captures (and with
scipy when it is installed); check must exit 3 on the head against the
base and 0 on the head against itself, with valid JUnit XML.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
EXPECTED = {"Stable1": "same", "Stable2": "same", "Regress": "regressed", "Improve": "improved",
            "Gone": "gone", "New": "new"}


def mw_p(a, b):
    """Two-sided Mann-Whitney U p (normal approximation, tie correction,
    continuity 0.5), written from the textbook definition."""
    pooled = sorted([(v, 0) for v in a] + [(v, 1) for v in b])
    n, i, r1, ties = len(pooled), 0, 0.0, 0.0
    while i < n:
        j = i
        while j < n and pooled[j][0] == pooled[i][0]:
            j += 1
        rank = (i + 1 + j) / 2
        r1 += rank * sum(1 for k in range(i, j) if pooled[k][1] == 0)
        t = j - i
        ties += t ** 3 - t
        i = j
    na, nb = len(a), len(b)
    u1 = r1 - na * (na + 1) / 2
    mean = na * nb / 2
    var = na * nb / 12 * ((n + 1) - ties / (n * (n - 1)))
    z = max(abs(u1 - mean) - 0.5, 0) / math.sqrt(var)
    return min(1.0, math.erfc(z / math.sqrt(2)))


def durations(path):
    """Block durations per group class, read from the capture itself."""
    out, pending = {}, []
    for line in open(path, encoding="utf-8"):
        e = json.loads(line)
        if e.get("type") == "dispatch":
            pending.append(e)
        elif e.get("type") == "stack" and pending:
            cls = e["frames"][0].split("(")[0].split(".")[-2]
            d = pending.pop()
            out.setdefault(cls, []).append(d["dur"])
    return out


def run(bin_, db, *args, expect=0):
    p = subprocess.run([os.path.join(bin_, "godeye"), *args], capture_output=True, text=True,
                       env={**os.environ, "GODEYE_DB": db})
    if p.returncode != expect:
        raise AssertionError(f"godeye {' '.join(args)}: exit {p.returncode}, expected {expect}\n"
                             f"{p.stdout}{p.stderr}")
    return p


def one_seed(bin_, seed, tmp, scipy_stats):
    db = os.path.join(tmp, f"s{seed}.db")
    files = {}
    for role, ver, start in (("base", "3.1.0", 1700000000000), ("head", "3.2.0", 1700100000000)):
        files[role] = os.path.join(tmp, f"{role}{seed}.jsonl")
        subprocess.run([sys.executable, os.path.join(HERE, "gendiff.py"), "--role", role, "--seed",
                        str(seed), "--version", ver, "--start", str(start), "--out", files[role]],
                       check=True)
    run(bin_, db, "ingest", "-q", files["base"], files["head"])
    rows = json.loads(run(bin_, db, "diff", "version=3.1.0", "version=3.2.0", "--format", "json").stdout)
    problems = []
    seen = {}
    dur_b, dur_h = durations(files["base"]), durations(files["head"])
    for r in rows:
        if r["kind"] == "group":
            cls = r["name"].split("(")[0].split(".")[-2]
            seen[cls] = r["status"]
            if cls in dur_b and cls in dur_h:
                want = mw_p(dur_b[cls], dur_h[cls])
                if not math.isclose(r["p_value"], want, rel_tol=1e-3, abs_tol=1e-300):
                    problems.append(f"seed {seed}: {cls}: p_value {r['p_value']} but {want:.6g} by hand")
                if scipy_stats is not None:
                    sp = scipy_stats.mannwhitneyu(dur_b[cls], dur_h[cls], method="asymptotic").pvalue
                    if not math.isclose(r["p_value"], sp, rel_tol=1e-3):
                        problems.append(f"seed {seed}: {cls}: p_value {r['p_value']} but scipy {sp}")
                # equal counts over equal minutes: the rate test sees nothing
                if r["rate_p_value"] != 1.0:
                    problems.append(f"seed {seed}: {cls}: rate_p_value {r['rate_p_value']}")
        elif r["status"] != "same":
            problems.append(f"seed {seed}: {r['kind']} {r['name']} {r['metric']}: {r['status']} "
                            f"(p {r['p_value']}), expected same")
    if seen != EXPECTED:
        problems.append(f"seed {seed}: group statuses {seen}, expected {EXPECTED}")
    # check: the head against the base breaks new_groups and regressed_groups
    budget = os.path.join(tmp, "budget.json")
    with open(budget, "w") as f:
        json.dump({"base": "version=3.1.0",
                   "max": {"anr_count": 0, "page_load_p95_ms": 5000, "startup_cold_ms": 5000,
                           "slow_frames_pct": 20, "new_groups": 0, "regressed_groups": 0}}, f)
    p = run(bin_, db, "check", "--budget", budget, "--format", "junit", expect=3)
    broken = [l for l in p.stderr.splitlines() if l.startswith("godeye check: broken: ")]
    if sorted(l.split()[3] for l in broken) != ["new_groups", "regressed_groups"]:
        problems.append(f"seed {seed}: broken lines {broken}")
    suite = ET.fromstring(p.stdout).find("testsuite")
    fails = sorted(tc.get("name") for tc in suite.iter("testcase") if tc.find("failure") is not None)
    if fails != ["new_groups", "regressed_groups"] or suite.get("failures") != "2" or suite.get("tests") != "6":
        problems.append(f"seed {seed}: junit failures {fails}, attributes {suite.attrib}")
    # the head against itself: nothing new, nothing regressed
    run(bin_, db, "check", "--budget", budget, "--base", "version=3.2.0", "version=3.2.0", expect=0)
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--seeds", type=int, default=5)
    a = ap.parse_args()
    try:
        from scipy import stats as scipy_stats
    except ImportError:
        scipy_stats = None
        print("scipy not installed: p-values checked against the Python reimplementation only")
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(1, a.seeds + 1):
            problems += one_seed(a.bin, seed, tmp, scipy_stats)
    for p in problems:
        print(p)
    print(f"{a.seeds} seeds, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
