#!/usr/bin/env python3
"""tour.py - runs every command of README's tour and of each man page's
EXAMPLES on examples/ and checks that each prints something and exits as
documented.

Usage: tour.py GODEYE_BIN_DIR REPO_DIR

The commands are read from README.md (the ``godeye ...`` lines of the "A
tour" block) and man/*.1 (the ``godeye ...`` lines between .nf and .fi of
EXAMPLES).  Each runs in a fresh folder against a database of every file of
examples/; a pipe's godeye part runs alone.  A command passes when it exits
0 and prints (or writes, for -o) something; the exceptions below say why
they may not.  Commands that need a server, a device or files examples/
does not have are skipped with the reason printed.  Exit 0 when all pass,
1 otherwise, 77 when godeye is missing."""
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

# words that make a command need what examples/ lacks -> the reason
NEEDS = [
    ("http://", "a server"), ("https://", "a server"), ("--clickhouse", "a ClickHouse server"),
    ("capture.jsonl", "a capture examples/ does not have"), ("logcat.txt", "a file examples/ does not have"),
    ("blockcanary/", "a folder examples/ does not have"), ("/data/anr", "a device's file"),
    ("gfx.txt", "a file examples/ does not have"), (" - ", "standard input"),
    ("g.folded --group", "a group name examples/ does not have"),
    ("mapping.txt", "an R8/ProGuard mapping examples/ does not have (cli/retrace.test covers it)"),
    ("perf-budget.json", "a budget file examples/ does not have (cli/check.test covers it)"),
    ("godeye capture ", "a phone on adb (tests/capture/ covers it with a fake adb)"),
    ("godeye ingest jank1", "a capture folder made on a phone (tests/capture/ covers it)"),
    (" mcp", "an MCP client on its standard input (tests/mcp/ drives it with the SDK's client)"),
    ("godeye threads", "scheduling data examples/ does not have (cli/states_block.test covers it)"),
]
# command -> (exit status, what may be missing, why)
EXPECTED = {
    "godeye methods --tree --block 12": (1, "stdout", "12 is no block of examples/: 'no block 12'"),
    "godeye issues --tool matrix": (0, "stdout", "examples/ has no Matrix findings: an empty table"),
    "godeye issues --tool matrix --format json": (0, None, "examples/ has no Matrix findings: []"),
    "godeye frames --summary": (0, "stdout", "examples/ has no gfxinfo summary: an empty table"),
}


def commands(repo):
    cmds = []
    text = open(os.path.join(repo, "README.md"), encoding="utf-8").read()
    m = re.search(r"## A tour\s*\n+```(?:sh)?\n(.*?)```", text, re.S)
    if m:
        cmds += [("README.md", l.split("  #")[0].strip()) for l in m.group(1).splitlines()
                 if l.startswith("godeye ")]
    for page in sorted(glob.glob(os.path.join(repo, "man", "*.1"))):
        t = open(page, encoding="utf-8").read()
        ex = re.search(r"\.SH EXAMPLES\n(.*?)(\n\.SH |\Z)", t, re.S)
        if not ex:
            continue
        inblock = False
        for l in ex.group(1).splitlines():
            if l.startswith(".nf"):
                inblock = True
            elif l.startswith(".fi"):
                inblock = False
            elif inblock and l.startswith("godeye "):
                cmds.append((os.path.basename(page), l.replace("\\-", "-").split("  #")[0].strip()))
    return cmds


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    bindir, repo = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    godeye = os.path.join(bindir, "godeye")
    if not os.access(godeye, os.X_OK):
        print(f"SKIP: no {godeye}")
        return 77
    tmp = tempfile.mkdtemp(prefix="godeye-tour-")
    base = os.path.join(tmp, "examples.db")
    env = dict(os.environ, GODEYE_DB=base, COLUMNS="120", TZ="UTC")
    env["PATH"] = bindir + ":" + env.get("PATH", "")
    # in scripts/quickstart.sh's order: the capture first (trace 1)
    files = (sorted(glob.glob(os.path.join(repo, "examples", "*.jsonl"))) +
             sorted(glob.glob(os.path.join(repo, "examples", "*.txt"))))
    p = subprocess.run([godeye, "ingest", "-q"] + files, env=env, cwd=tmp, capture_output=True)
    if p.returncode:
        print("ingest of examples/ failed:", p.stderr.decode())
        return 1
    # every command gets its own copy (godeye rm must not change the others')
    env["GODEYE_DB"] = os.path.join(tmp, "godeye.db")
    bad = ran = 0
    for where, cmd in commands(repo):
        reason = next((why for word, why in NEEDS if word in cmd + " "), None)
        if reason:
            print(f"skip  {where}: {cmd}  (needs {reason})")
            continue
        # a pipe: the godeye part alone; '&&': each godeye part
        part = cmd.split(" | ")[0].strip()
        argv = shlex.split(part)
        redirect = None
        if ">" in argv:  # "godeye report --format md > comment.md"
            redirect = os.path.join(tmp, argv[argv.index(">") + 1])
            argv = argv[:argv.index(">")]
        if argv[0] != "godeye":
            continue
        out_file = None
        for i, a in enumerate(argv):
            if a in ("-o", "--chrome", "--folded") and i + 1 < len(argv) and argv[i + 1] != "-":
                out_file = os.path.join(tmp, argv[i + 1])
        if out_file and os.path.exists(out_file):
            os.remove(out_file)
        shutil.copyfile(base, env["GODEYE_DB"])
        p = subprocess.run([godeye] + argv[1:], env=env, cwd=tmp, capture_output=True, timeout=300)
        if redirect:
            open(redirect, "wb").write(p.stdout)
        ran += 1
        want_rc, may_lack, why = EXPECTED.get(part, (0, None, None))
        got = p.stdout.strip() or (out_file and os.path.exists(out_file) and os.path.getsize(out_file) > 0)
        problems = []
        if p.returncode != want_rc:
            problems.append(f"exit {p.returncode}, documented {want_rc}")
        if want_rc == 0 and not got and may_lack != "stdout":
            problems.append("printed nothing")
        if want_rc != 0 and len(p.stderr.decode().strip().splitlines()) != 1:
            problems.append("not one line on stderr")
        if p.returncode == 0 and p.stderr.strip() and b"waiting" in p.stderr:
            problems.append("unexpected stderr")
        if problems:
            bad += 1
            print(f"FAIL  {where}: {part}: {'; '.join(problems)}\n      stderr: {p.stderr.decode()[:300]}")
        else:
            print(f"ok    {where}: {part}" + (f"  ({why})" if why else ""))
    shutil.rmtree(tmp, ignore_errors=True)
    print(f"{ran} commands run, {bad} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
