#!/usr/bin/env python3
"""man_check.py - every command's -h agrees with its man page.

For each built-in command: man/godeye-CMD.1 exists, its SYNOPSIS holds the
usage line that `godeye CMD -h` prints, and every long option -h lists is
described in its OPTIONS section.  Also every command in `godeye --help`
has a man page.
"""
import os
import re
import subprocess
import sys


def section(text, name):
    m = re.search(r"^\.SH %s\n(.*?)(?=^\.SH |\Z)" % name, text, re.S | re.M)
    return m.group(1) if m else ""


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
    for p in problems:
        print(p)
    print(f"{len(cmds) - len({p.split(':')[0] for p in problems})} passed, "
          f"{len({p.split(':')[0] for p in problems})} failed")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
