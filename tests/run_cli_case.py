#!/usr/bin/env python3
"""run_cli_case.py - runs one data-driven CLI case (tests/cli/*.test).

A case is a sequence of steps run in a fresh temporary folder with its own
database (GODEYE_DB=<tmp>/godeye.db).  Format:

    # comment
    requires: corpus              (the case reads real files: {corpus}/DIR/FILE)
    $ godeye blocks --format json (a step: godeye with arguments, shlex-split)
    $ sh: gzip -k {tmp}/x.jsonl   (a step run by /bin/sh -c)
    stdin: {fixtures}/a.jsonl     (file given to the step's standard input)
    exit 0                        (expected exit status; default 0)
    stdout:                       (exact text until the next directive)
    stdout-json:                  (JSON compared semantically, floats to 1e-6)
    stdout-json-subset:           (like stdout-json; objects may have more keys)
    stdout-contains:              (each following line must occur in stdout)
    stdout-lacks:                 (no following line may occur in stdout)
    stderr:                       (exact text)
    stderr-contains:              (each following line must occur in stderr)
    file-json FILE:               (a file's content compared like stdout-json)

Placeholders: {fixtures} {corpus} {examples} {tmp} {bin} {scripts}.
{corpus}/DIR/FILE names a real file: the copy in the repository
(--corpus-inrepo, tests/corpus/files) first, else the one under
$GODEYE_CORPUS (else --corpus, ../shared/corpus).  A case naming a real
file that is in neither place is skipped (exit 77), the absent files named;
each file tested or absent is appended to $GODEYE_CORPUS_LOG when set.
Directives start at column 0; block text ends at the next directive line.

GODEYE_VALGRIND=1 runs every `$ godeye` step under valgrind memcheck (any
error or definite/indirect leak fails the step with its log); `sh:` steps
and the scripts they call run godeye natively.  The temporary folder is
removed when every step passed.
"""
import argparse
import json
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

DIRECTIVES = ("$ ", "exit ", "stdin:", "stdout:", "stdout-json:", "stdout-json-subset:",
              "stdout-contains:", "stdout-lacks:", "stderr:", "stderr-contains:", "file-json ",
              "requires:", "# ")


def is_directive(line):
    return line.startswith(DIRECTIVES) or line == "#"


def parse(path):
    steps, requires, cur = [], [], None
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line.strip() and cur is None:
            continue
        if line.startswith("#"):
            continue
        if line.startswith("requires:"):
            requires += line.split(":", 1)[1].split()
            continue
        if line.startswith("$ "):
            cur = {"cmd": line[2:], "exit": 0, "checks": [], "stdin": None}
            steps.append(cur)
            continue
        if cur is None:
            if line.strip():
                raise SystemExit(f"{path}:{i}: text outside a step: {line!r}")
            continue
        if line.startswith("exit "):
            cur["exit"] = int(line.split()[1])
            continue
        if line.startswith("stdin:"):
            cur["stdin"] = line.split(":", 1)[1].strip()
            continue
        kind = None
        arg = None
        for d in ("stdout-json-subset:", "stdout-json:", "stdout-contains:", "stdout-lacks:",
                  "stdout:", "stderr-contains:", "stderr:"):
            if line.startswith(d):
                kind = d[:-1]
                break
        if line.startswith("file-json "):
            kind = "file-json"
            arg = line[len("file-json "):].rstrip(":").strip()
        if kind is None:
            if line.strip():
                raise SystemExit(f"{path}:{i}: unknown directive: {line!r}")
            continue
        block = []
        while i < len(lines) and not is_directive(lines[i]):
            block.append(lines[i])
            i += 1
        while block and not block[-1].strip():
            block.pop()
        cur["checks"].append((kind, arg, "\n".join(block)))
    return requires, steps


def close(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-6)
    return False


def compare(exp, got, subset, where="$"):
    """Returns None when equal, else a description of the first difference."""
    if isinstance(exp, dict):
        if not isinstance(got, dict):
            return f"{where}: expected an object, got {json.dumps(got)[:200]}"
        for k, v in exp.items():
            if k not in got:
                return f"{where}: missing key {k!r}"
            d = compare(v, got[k], subset, f"{where}.{k}")
            if d:
                return d
        if not subset:
            extra = set(got) - set(exp)
            if extra:
                return f"{where}: unexpected keys {sorted(extra)}"
        return None
    if isinstance(exp, list):
        if not isinstance(got, list):
            return f"{where}: expected an array, got {json.dumps(got)[:200]}"
        if len(exp) != len(got):
            return f"{where}: expected {len(exp)} elements, got {len(got)}"
        for n, (a, b) in enumerate(zip(exp, got)):
            d = compare(a, b, subset, f"{where}[{n}]")
            if d:
                return d
        return None
    if exp == got and type(exp) == type(got):
        return None
    if close(exp, got):
        return None
    return f"{where}: expected {json.dumps(exp)}, got {json.dumps(got)}"


def load_json_text(text):
    text = text.strip()
    if not text:
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return [json.loads(l) for l in text.splitlines() if l.strip()]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--case", required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--corpus-inrepo", default="")
    ap.add_argument("--examples", required=True)
    a = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    requires, steps = parse(a.case)
    corpus = os.environ.get("GODEYE_CORPUS") or a.corpus
    with open(a.case, encoding="utf-8") as f:
        named = sorted(set(re.findall(r"\{corpus\}/([^\s\"']+)", f.read())))
    real, absent = {}, []
    for rel in named:
        for top in (a.corpus_inrepo, corpus):
            if top and os.path.isfile(os.path.join(top, rel)):
                real[rel] = os.path.join(top, rel)
                break
        else:
            absent.append(rel)
    log = os.environ.get("GODEYE_CORPUS_LOG")
    if log:
        with open(log, "a", encoding="utf-8") as f:
            for rel in named:
                f.write(f"{'absent' if rel in absent else 'tested'} {rel}\n")
    if "corpus" in requires and not named:
        print("SKIP: the case requires the corpus but names no real file")
        return 77
    if absent:
        print(f"SKIP: real file(s) absent (not in tests/corpus/files, nor under {corpus}): {', '.join(absent)}")
        return 77
    for r in requires:
        if r.startswith("cmd="):
            prog = r[4:]
            if not any(os.access(os.path.join(p, prog), os.X_OK)
                       for p in os.environ.get("PATH", "").split(":")):
                print(f"SKIP: {prog} is not installed")
                return 77
    tmp = tempfile.mkdtemp(prefix="godeye-case-")
    subs = {"{fixtures}": os.path.join(here, "fixtures"), "{corpus}": corpus,
            "{examples}": a.examples, "{tmp}": tmp, "{bin}": a.bin,
            "{scripts}": os.path.join(os.path.dirname(here), "scripts")}

    def sub(s):
        s = re.sub(r"\{corpus\}/([^\s\"']+)", lambda m: real.get(m.group(1), m.group(0)), s)
        for k, v in subs.items():
            s = s.replace(k, v)
        return s

    env = dict(os.environ)
    env["GODEYE_DB"] = os.path.join(tmp, "godeye.db")
    env["PATH"] = a.bin + ":" + env.get("PATH", "")
    env["COLUMNS"] = "100"
    env["TZ"] = "UTC"
    failures = 0
    valgrind = os.environ.get("GODEYE_VALGRIND") == "1"
    for n, st in enumerate(steps, 1):
        cmd = sub(st["cmd"])
        if cmd.startswith("sh:"):
            argv = ["/bin/sh", "-c", cmd[3:].strip()]
        else:
            parts = shlex.split(cmd)
            if parts[0] == "godeye":
                parts[0] = os.path.join(a.bin, "godeye")
                if valgrind:
                    parts = ["valgrind", "-q", "--error-exitcode=99", "--leak-check=full",
                             "--errors-for-leak-kinds=definite,indirect",
                             f"--log-file={tmp}/valgrind.{n}.log"] + parts
            argv = parts
        stdin = open(sub(st["stdin"]), "rb") if st["stdin"] else subprocess.DEVNULL
        p = subprocess.run(argv, stdin=stdin, capture_output=True, cwd=tmp, env=env, timeout=600)
        out = p.stdout.decode("utf-8", "replace")
        err = p.stderr.decode("utf-8", "replace")
        problems = []
        if p.returncode != st["exit"]:
            problems.append(f"exit status {p.returncode}, expected {st['exit']}")
        for kind, arg, text in st["checks"]:
            text = sub(text)
            if kind == "stdout" and out.rstrip("\n") != text:
                problems.append(f"stdout differs:\n--- expected\n{text}\n--- got\n{out}")
            elif kind == "stderr" and err.rstrip("\n") != text:
                problems.append(f"stderr differs:\n--- expected\n{text}\n--- got\n{err}")
            elif kind in ("stdout-json", "stdout-json-subset", "file-json"):
                src = out if kind != "file-json" else open(sub(arg), encoding="utf-8").read()
                try:
                    got = load_json_text(src)
                except json.JSONDecodeError as e:
                    problems.append(f"output is not JSON ({e}):\n{src[:2000]}")
                    continue
                exp = json.loads(text)
                if isinstance(exp, list) and isinstance(got, dict):
                    got = [got]  # one line of JSON Lines
                d = compare(exp, got, kind == "stdout-json-subset")
                if d:
                    problems.append(f"{kind}: {d}")
            elif kind in ("stdout-contains", "stderr-contains"):
                hay = out if kind.startswith("stdout") else err
                for want in text.split("\n"):
                    if want and want not in hay:
                        problems.append(f"{kind}: {want!r} not found in:\n{hay[:3000]}")
            elif kind == "stdout-lacks":
                for bad in text.split("\n"):
                    if bad and bad in out:
                        problems.append(f"stdout-lacks: {bad!r} found")
        vlog = os.path.join(tmp, f"valgrind.{n}.log")
        if valgrind and os.path.exists(vlog):
            text = open(vlog, encoding="utf-8", errors="replace").read()
            if text.strip():
                problems.append("valgrind:\n" + text[:6000])
            os.remove(vlog)
        if problems:
            failures += 1
            print(f"step {n} FAILED: {cmd}")
            for pr in problems:
                print("  " + pr.replace("\n", "\n  "))
            if err and "stderr" not in " ".join(pr for pr in problems):
                print("  stderr was:\n  " + err[:2000].replace("\n", "\n  "))
        else:
            print(f"step {n} ok: {cmd}")
    print(f"{len(steps) - failures} passed, {failures} failed")
    if not failures:
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
