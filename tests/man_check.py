#!/usr/bin/env python3
"""man_check.py - every command's -h agrees with its man page.

For each built-in command: man/godeye-CMD.1 exists, its SYNOPSIS holds the
usage line that `godeye CMD -h` prints, and every long option -h lists is
described in its OPTIONS section.  Also every command in `godeye --help`
has a man page.  And godeye-schema(7) names the schema version that
lib/store/store.h's GD_SCHEMA_VERSION creates, as does docs/reliability.md's
quoted refusal of a newer database ("this godeye reads N").
"""
import os
import re
import subprocess
import sys


def section(text, name):
    m = re.search(r"^\.SH %s\n(.*?)(?=^\.SH |\Z)" % name, text, re.S | re.M)
    return m.group(1) if m else ""


def schema_version(man):
    """godeye-schema(7)'s NAME line and docs/reliability.md's quoted refusal
    against GD_SCHEMA_VERSION: the problems."""
    with open(os.path.join(man, "..", "lib", "store", "store.h"), encoding="utf-8") as f:
        want = int(re.search(r"^#define GD_SCHEMA_VERSION (\d+)", f.read(), re.M).group(1))
    with open(os.path.join(man, "godeye-schema.7"), encoding="utf-8") as f:
        m = re.search(r"\(schema version (\d+)\)", section(f.read(), "NAME"))
    if not m:
        return ["schema: godeye-schema.7's NAME names no '(schema version N)'"]
    problems = []
    if int(m.group(1)) != want:
        problems.append(f"schema: godeye-schema.7 says schema version {m.group(1)}, GD_SCHEMA_VERSION is {want}")
    # docs/reliability.md quotes the refusal of a newer database, which
    # names the version this godeye reads (lib/store/store.c)
    with open(os.path.join(man, "..", "docs", "reliability.md"), encoding="utf-8") as f:
        r = re.search(r"this godeye\s+reads (\d+)\)", f.read())
    if not r:
        problems.append("schema: docs/reliability.md quotes no '(schema 99; this godeye reads N)'")
    elif int(r.group(1)) != want:
        problems.append(f"schema: docs/reliability.md says this godeye reads {r.group(1)}, GD_SCHEMA_VERSION is {want}")
    return problems


def main():
    godeye, man = sys.argv[1], sys.argv[2]
    help_text = subprocess.run([godeye, "--help"], capture_output=True, text=True).stdout
    cmds = re.findall(r"^    (\w+) ", help_text.split("commands:")[1], re.M)
    problems = []
    for c in cmds:
        page = os.path.join(man, f"godeye-{c}.1")
        if not os.path.exists(page):
            problems.append(f"{c}: no man page {page}")
            continue
        text = open(page, encoding="utf-8").read()
        h = subprocess.run([godeye, c, "-h"], capture_output=True, text=True).stdout
        usage = h.splitlines()[0].removeprefix("usage: ").strip()
        synopsis = [l.strip() for l in section(text, "SYNOPSIS").splitlines() if not l.startswith(".")]
        if usage not in synopsis:
            problems.append(f"{c}: -h usage {usage!r} not in the man SYNOPSIS {synopsis}")
        opts = section(text, "OPTIONS")
        for long_opt in re.findall(r"--([a-z][a-z0-9-]*)", h):
            if long_opt == "help":
                continue
            if f"--{long_opt}" not in opts.replace("\\-", "-"):
                problems.append(f"{c}: option --{long_opt} is not in the man OPTIONS")
    problems += schema_version(man)
    for p in problems:
        print(p)
    failed = {p.split(':')[0] for p in problems} & set(cmds)
    print(f"{len(cmds) - len(failed)} commands passed, {len(failed)} failed; schema version "
          f"{'wrong' if any(p.startswith('schema:') for p in problems) else 'right'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
