#!/usr/bin/env python3
"""app_option_check.py - every listing command takes --app (#47).

Loops over the command table in cli/godeye.c: a command flagged LIST must
print `--app PKG` in its -h; a command that reads the database (DB) and
writes nothing must be LIST unless it is named below with its reason.
"""
import re
import subprocess
import sys

# read-only database commands that are not listings, and why
NOT_LISTING = {
    "sql": "runs the user's own statement: no rows of godeye's to focus",
}


def main():
    godeye, table_src = sys.argv[1], sys.argv[2]
    src = open(table_src, encoding="utf-8").read()
    rows = re.findall(r'^\s*\{"([a-z]+)", cmd_[a-z_]+, ([^,]+),', src, re.M)
    if len(rows) < 20:
        print(f"only {len(rows)} commands read from {table_src}: the table's shape changed")
        return 1
    problems, listing = [], 0
    for name, flags in rows:
        flags = {f.strip() for f in flags.split("|")}
        if "LIST" in flags:
            listing += 1
            h = subprocess.run([godeye, name, "-h"], capture_output=True, text=True).stdout
            if not re.search(r"^\s+--app PKG\s", h, re.M):
                problems.append(f"{name}: a listing command without --app PKG in -h")
        elif "DB" in flags and "WRITES" not in flags and name not in NOT_LISTING:
            problems.append(f"{name}: reads the database but is not flagged LIST (nor named in NOT_LISTING)")
    for p in problems:
        print(p)
    print(f"{listing} listing commands, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
