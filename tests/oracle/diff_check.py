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

try:
    import numpy as np
    from scipy import stats as scipy_stats
except ImportError:
    # a python3 outside Debian's (pyenv, venv) lacks python3-scipy: use Debian's
    if os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != "/usr/bin/python3" \
            and not os.environ.get("GODEYE_DIFF_CHECK_REEXEC"):
        os.environ["GODEYE_DIFF_CHECK_REEXEC"] = "1"
        os.execv("/usr/bin/python3", ["/usr/bin/python3", *sys.argv])
    sys.exit("diff_check.py: needs python3-scipy and python3-numpy (scripts/deps.sh --test)")

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


def others(path):
    """Page draw/load times, launch times and frame durations, read from the
    capture itself (draw = ON_DRAW - ON_CREATE, load = ON_LOAD - ON_CREATE)."""
    created, draw, load, launches, frames = {}, [], [], [], []
    for line in open(path, encoding="utf-8"):
        e = json.loads(line)
        t = e.get("type")
        if t == "lifecycle":
            h = e["page"]["hash"]
            if e["event"] == "ON_CREATE":
                created[h] = e["ts"]
            elif e["event"] == "ON_DRAW":
                draw.append(e["ts"] - created[h])
            elif e["event"] == "ON_LOAD":
                load.append(e["ts"] - created[h])
        elif t == "startup":
            launches.append(e["total_ms"])
        elif t == "frame":
            frames.append(e["dur"])
    return {"draw": draw, "load": load, "startup": launches, "frames": frames}


def check_other_rows(rows, files, where, problems):
    """The page, launch and frame rows against scipy: Mann-Whitney p and the
    Hodges-Lehmann interval of the durations; for frames the pooled
    two-proportion z test of the slow share (> 1000/60 ms), which is the
    uncorrected chi-square test of the 2x2 table."""
    ob, oh = others(files["base"]), others(files["head"])
    seen = set()
    for r in rows:
        key = r["metric"] if r["kind"] == "page" else r["kind"]
        if key not in ob:
            continue
        seen.add(key)
        b, h = ob[key], oh[key]
        w = f"{where}: {r['kind']} {r['name']} {r['metric']}"
        if key == "frames":
            sb, sh = sum(d > 1000 / 60 for d in b), sum(d > 1000 / 60 for d in h)
            if (r["base"]["count"], r["head"]["count"], r["base"]["slow"], r["head"]["slow"]) != \
                    (len(b), len(h), sb, sh):
                problems.append(f"{w}: counts {r['base']} {r['head']}, the captures hold "
                                f"{len(b)}/{len(h)} frames, {sb}/{sh} slow")
            if r["p_value"] is not None:
                want = scipy_stats.chi2_contingency([[sb, len(b) - sb], [sh, len(h) - sh]],
                                                    correction=False)[1]
                if not math.isclose(r["p_value"], want, rel_tol=1e-3):
                    problems.append(f"{w}: p_value {r['p_value']} but scipy {want}")
            continue
        if len(b) >= 5 and len(h) >= 5:
            want = scipy_stats.mannwhitneyu(b, h, method="asymptotic").pvalue
            if not math.isclose(r["p_value"], want, rel_tol=1e-3):
                problems.append(f"{w}: p_value {r['p_value']} but scipy {want}")
        check_effects(r, sorted(b), sorted(h), w, problems)
    if seen != {"draw", "load", "startup", "frames"}:
        problems.append(f"{where}: rows for {sorted(seen)}, expected draw, load, startup and frames")


def run(bin_, db, *args, expect=0):
    p = subprocess.run([os.path.join(bin_, "godeye"), *args], capture_output=True, text=True,
                       env={**os.environ, "GODEYE_DB": db})
    if p.returncode != expect:
        raise AssertionError(f"godeye {' '.join(args)}: exit {p.returncode}, expected {expect}\n"
                             f"{p.stdout}{p.stderr}")
    return p


def gen_pair(bin_, seed, tmp, count=None):
    """The base and head captures of one seed ingested into a fresh
    database; returns (db, files, diff rows)."""
    tag = f"s{seed}" + (f"n{count}" if count else "")
    db = os.path.join(tmp, f"{tag}.db")
    files = {}
    for role, ver, start in (("base", "3.1.0", 1700000000000), ("head", "3.2.0", 1700100000000)):
        files[role] = os.path.join(tmp, f"{role}{tag}.jsonl")
        subprocess.run([sys.executable, os.path.join(HERE, "gendiff.py"), "--role", role, "--seed",
                        str(seed), "--version", ver, "--start", str(start), "--out", files[role]]
                       + (["--count", str(count)] if count else []), check=True)
    run(bin_, db, "ingest", "-q", files["base"], files["head"])
    rows = json.loads(run(bin_, db, "diff", "version=3.1.0", "version=3.2.0", "--format", "json").stdout)
    return db, files, rows


def hl_oracle(b, h):
    """Hodges-Lehmann shift of h against b and its 95% interval, from all
    the differences (numpy) and the normal quantile (scipy)."""
    d = np.sort(np.subtract.outer(np.asarray(h, float), np.asarray(b, float)).ravel())
    n = len(d)
    c = math.floor(n / 2 - scipy_stats.norm.ppf(0.975) * math.sqrt(len(b) * len(h) * (len(b) + len(h) + 1) / 12))
    lo, hi = (d[c - 1], d[n - c]) if c >= 1 else (None, None)
    return float(np.median(d)), lo, hi


def close(x, want, tol=2e-3):
    if want is None or x is None:
        return x is None and want is None
    return math.isclose(x, want, rel_tol=1e-9, abs_tol=tol)


def check_effects(r, b, h, where, problems):
    """shift_ms and its interval against hl_oracle."""
    s, lo, hi = hl_oracle(b, h)
    for key, want in (("shift_ms", s), ("shift_ci_low_ms", lo), ("shift_ci_high_ms", hi)):
        if not close(r[key], want):
            problems.append(f"{where}: {key} {r[key]} but {want} by numpy/scipy")


def rate_oracle(kb, kh, mb, mh):
    return scipy_stats.binomtest(kh, kb + kh, mh / (mb + mh)).pvalue


def one_seed(bin_, seed, tmp):
    db, files, rows = gen_pair(bin_, seed, tmp)
    problems = []
    seen = {}
    dur_b, dur_h = durations(files["base"]), durations(files["head"])
    for r in rows:
        if r["kind"] == "group":
            cls = r["name"].split("(")[0].split(".")[-2]
            seen[cls] = r["status"]
            kb, kh = len(dur_b.get(cls, [])), len(dur_h.get(cls, []))
            if r["base"]["count"] != kb or r["head"]["count"] != kh:
                problems.append(f"seed {seed}: {cls}: counts {r['base']['count']}/{r['head']['count']}, "
                                f"the captures hold {kb}/{kh}")
            want_rp = rate_oracle(kb, kh, 10.0, 10.0)
            if not math.isclose(r["rate_p_value"], want_rp, rel_tol=1e-3):
                problems.append(f"seed {seed}: {cls}: rate_p_value {r['rate_p_value']} but scipy {want_rp}")
            if cls in dur_b and cls in dur_h:
                want = mw_p(dur_b[cls], dur_h[cls])
                if not math.isclose(r["p_value"], want, rel_tol=1e-3, abs_tol=1e-300):
                    problems.append(f"seed {seed}: {cls}: p_value {r['p_value']} but {want:.6g} by hand")
                sp = scipy_stats.mannwhitneyu(dur_b[cls], dur_h[cls], method="asymptotic").pvalue
                if not math.isclose(r["p_value"], sp, rel_tol=1e-3):
                    problems.append(f"seed {seed}: {cls}: p_value {r['p_value']} but scipy {sp}")
                check_effects(r, dur_b[cls], dur_h[cls], f"seed {seed}: {cls}", problems)
            elif r["shift_ms"] is not None:
                problems.append(f"seed {seed}: {cls}: shift_ms {r['shift_ms']} with one side empty")
        elif r["status"] != "same":
            problems.append(f"seed {seed}: {r['kind']} {r['name']} {r['metric']}: {r['status']} "
                            f"(p {r['p_value']}), expected same")
    if seen != EXPECTED:
        problems.append(f"seed {seed}: group statuses {seen}, expected {EXPECTED}")
    check_other_rows(rows, files, f"seed {seed}", problems)
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


def small_pair(bin_, seed, count, tmp):
    """1-4 events a side: every test lacks samples, so nothing is "same";
    the new and gone groups are new and gone all the same (#52: presence
    decides, whatever the count)."""
    _, files, rows = gen_pair(bin_, seed, tmp, count)
    problems = []
    dur_b, dur_h = durations(files["base"]), durations(files["head"])
    for r in rows:
        where = f"seed {seed}, {count} a side: {r['kind']} {r['name']} {r['metric']}"
        if r["status"] == "same":
            problems.append(f"{where}: same")
        if r["status"] == "inconclusive" and not r["note"]:
            problems.append(f"{where}: inconclusive without a reason")
        if r["kind"] == "group":
            cls = r["name"].split("(")[0].split(".")[-2]
            want = {"New": "new", "Gone": "gone"}.get(cls)
            if want and (r["status"] != want or r["decided_by"] != "presence"):
                problems.append(f"{where}: {r['status']} by {r['decided_by']}, expected {want} by presence")
            if cls in dur_b and cls in dur_h:
                check_effects(r, dur_b[cls], dur_h[cls], where, problems)
    check_other_rows(rows, files, f"seed {seed}, {count} a side", problems)
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--seeds", type=int, default=5)
    a = ap.parse_args()
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(1, a.seeds + 1):
            problems += one_seed(a.bin, seed, tmp)
            problems += small_pair(a.bin, seed, 1 + (seed - 1) % 4, tmp)
    for p in problems:
        print(p)
    print(f"{a.seeds} seeds, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
