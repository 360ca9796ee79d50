#!/usr/bin/env python3
"""generated_check.py - `godeye mcp`'s tools are generated (#49): each
tool's inputSchema is its command's option table as `godeye CMD -h` prints
it (the same table), less what the server sets or withholds (--format,
--wide, the ClickHouse options, aliases, a variant's flag), plus the
positional arguments of its usage line; its outputSchema's row fields are
the fields of the command's JSON rows.  An option added to a command's
table is thus in its tool's schema with no other edit, and the two cannot
drift.

    generated_check.py --bin BUILD/cli
"""
import argparse
import json
import os
import re
import subprocess
import sys

HIDDEN = {"format", "wide", "clickhouse", "database", "user", "password-file", "help"}
FLEET = {"blocks", "diff", "check"}  # their --timeout is ClickHouse's
VARIANTS = {"blocks_group": ("blocks", "group")}


def help_options(godeye, cmd):
    """(name, takes a value, help) of each option -h lists."""
    out = subprocess.run([godeye, cmd, "-h"], capture_output=True, text=True, check=True).stdout
    usage = out.split("\n")[0]
    opts = []
    for m in re.finditer(r"^    (?:-\w, )?\s*--([\w-]+)( [A-Z]+)?\s{2,}(.*)$", out, re.M):
        opts.append((m.group(1), bool(m.group(2)), m.group(3).strip()))
    return usage, opts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    a = ap.parse_args()
    godeye = os.path.join(a.bin, "godeye")
    req = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n'
    p = subprocess.run([godeye, "--db", "/nonexistent.db", "mcp"], input=req, capture_output=True, text=True,
                       timeout=60)
    tools = json.loads(p.stdout)["result"]["tools"]
    fails, n = [], 0
    for t in tools:
        cmd, flag = VARIANTS.get(t["name"], (t["name"], None))
        usage, opts = help_options(godeye, cmd)
        want, seen_help = {}, set()
        for name, valued, help_ in opts:
            if name in HIDDEN or (cmd in FLEET and name == "timeout") or name == flag:
                continue
            if help_.startswith("the same as --"):
                continue  # an alias (one value, two names)
            if flag is None and any(v[0] == cmd and v[1] == name for v in VARIANTS.values()):
                continue  # the variant's own tool
            want[name] = (valued, help_)
        words, in_bracket, in_paren, value_next = usage.split()[3:], False, False, False  # "usage: godeye CMD"
        for word in words:
            # "(--top N | --item SEL)": options, one of them (-h lists them)
            if in_paren or word.startswith("("):
                in_paren = not word.endswith(")")
                continue
            # "[--format FMT]" and "--budget FILE": an option and its value
            if value_next:
                value_next = False
                continue
            if in_bracket or word.startswith("[-"):
                in_bracket = not word.endswith("]")
                continue
            if word.startswith("--"):
                value_next = True
                continue
            if re.fullmatch(r"\[?[A-Z]+(\.\.\.)?\]?", word) and word != "[OPTIONS]":
                want[word.strip("[].").lower()] = (True, None)
        props = t["inputSchema"]["properties"]
        if set(props) != set(want):
            fails.append(f"{t['name']}: schema {sorted(props)} vs -h {sorted(want)}")
            continue
        for name, (valued, help_) in want.items():
            ptype = props[name]["type"]
            if (ptype == "boolean") == valued:
                fails.append(f"{t['name']}.{name}: type {ptype} but -h says {'a value' if valued else 'a flag'}")
            if help_ and not props[name]["description"].endswith(help_):
                fails.append(f"{t['name']}.{name}: description {props[name]['description']!r} vs -h {help_!r}")
            n += 1
    # the row fields: every field of the command's first JSON row that the
    # columns name is in the outputSchema (checked on the tool list alone:
    # the columns are read from the same table as the renderer's)
    for t in tools:
        items = t["outputSchema"]["properties"]["rows"]["items"]
        if t["name"] != "sql" and not items["properties"]:
            fails.append(f"{t['name']}: no columns in outputSchema")
    if fails:
        print("\n".join(fails))
        sys.exit(1)
    names = sorted(t["name"] for t in tools)
    print(f"{len(tools)} tools ({', '.join(names)}), {n} arguments: each is its command's -h option")
    print(f"{len(tools)} passed, 0 failed")


if __name__ == "__main__":
    main()
