#!/usr/bin/env python3
"""man_check.py - every command's -h agrees with its man page.

For each built-in command: man/godeye-CMD.1 exists, its SYNOPSIS holds the
usage line that `godeye CMD -h` prints, and every long option -h lists is
described in its OPTIONS section.  Also every command in `godeye --help`
has a man page.  And the numbers the docs state (FACTS: line and element
caps, retrace caps, table spill bounds, log-line caps, the schema version
in godeye-schema(7) and in docs/reliability.md's quoted refusal, the count
of event kinds) equal the constants of the code they come from.
"""
import os
import re
import subprocess
import sys


def section(text, name):
    m = re.search(r"^\.SH %s\n(.*?)(?=^\.SH |\Z)" % name, text, re.S | re.M)
    return m.group(1) if m else ""


# Numbers the docs state that come from one constant of the code: (doc,
# pattern whose group is the number, source file, pattern whose group gives
# it).  Every match in the doc must equal the code's; a doc that no longer
# states the number at all is reported too.
def _define(name):
    return r"^#define %s (\d+)\b" % name


def _mib(name):
    return r"^#define %s \(\(size_t\)(\d+) << 20\)" % name


FACTS = [
    ("docs/capture-format.md", r"one line at most (\d+) MiB", "lib/io/input.h", _mib("GD_INPUT_MAX_LINE")),
    ("man/godeye-capture.5", r"A line may be at most (\d+) MiB", "lib/io/input.h", _mib("GD_INPUT_MAX_LINE")),
    ("docs/reliability.md", r"line longer than (\d+) MiB", "lib/io/input.h", _mib("GD_INPUT_MAX_LINE")),
    ("docs/capture-format.md", r"one JSON element at most (\d+) MiB", "lib/io/jsonstream.h", _mib("GD_JSON_MAX_VALUE")),
    ("docs/cli-contract.md", r"expansion caps, (\d+) per frame", "lib/ingest/retrace_sink.h",
     _define("GD_RETRACE_MAX_INLINE")),
    ("docs/cli-contract.md", r"per frame and (\d+)\s+per stack", "lib/ingest/retrace_sink.h",
     _define("GD_RETRACE_MAX_STACK")),
    ("docs/cli-contract.md", r"past ([\d,]+) rows they", "lib/render/render.c", _define("TABLE_MEM_ROWS")),
    ("docs/cli-contract.md", r"in memory up to ([\d,]+);", "lib/render/render.c", _define("TABLE_FALLBACK_ROWS")),
    ("man/godeye-schema.7", r"At most (\d+) lines a trace", "lib/ingest/writer.c", _define("GD_LOG_LINES_MAX")),
    ("docs/capture-format.md", r"the first (\d+) of a trace", "lib/ingest/writer.c", _define("GD_LOG_LINES_MAX")),
    ("man/godeye-schema.7", r"msg \(cut at (\d+) bytes\)", "lib/core/event.h", _define("GD_LOG_MSG_MAX")),
    # the schema version: godeye-schema(7)'s NAME line, and reliability.md's
    # quote of the refusal of a newer database (lib/store/store.c)
    ("man/godeye-schema.7", r"\(schema version (\d+)\)", "lib/store/store.h", _define("GD_SCHEMA_VERSION")),
    ("docs/reliability.md", r"this godeye\s+reads (\d+)\)", "lib/store/store.h", _define("GD_SCHEMA_VERSION")),
]


def read(root, rel):
    with open(os.path.join(root, rel), encoding="utf-8") as f:
        return f.read()


def doc_facts(man):
    """FACTS, and docs/architecture.md's count of lib/core/event.h's event
    kinds: the problems."""
    root = os.path.join(man, "..")
    problems = []
    for doc, pat, src, spat in FACTS:
        want = int(re.search(spat, read(root, src), re.M).group(1))
        said = [int(x.replace(",", "")) for x in re.findall(pat, read(root, doc))]
        if not said:
            problems.append(f"facts: {doc} no longer matches {pat!r} (the number of {src})")
        problems += [f"facts: {doc} says {n} where {src} has {want} ({pat!r})" for n in said if n != want]
    enum = re.search(r"typedef enum gd_event_kind \{(.*?)\} gd_event_kind;", read(root, "lib/core/event.h"), re.S)
    want = len([k for k in re.findall(r"^\s*(GD_EV_\w+)", enum.group(1), re.M) if k != "GD_EV__COUNT"])
    m = re.search(r"`event\.h`, (\d+) kinds", read(root, "docs/architecture.md"))
    if not m:
        problems.append("facts: docs/architecture.md states no '`event.h`, N kinds'")
    elif int(m.group(1)) != want:
        problems.append(f"facts: docs/architecture.md says event.h has {m.group(1)} kinds, gd_event_kind has {want}")
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
    problems += doc_facts(man)
    for p in problems:
        print(p)
    failed = {p.split(':')[0] for p in problems} & set(cmds)
    print(f"{len(cmds) - len(failed)} commands passed, {len(failed)} failed; "
          f"{len(FACTS) + 1} doc facts, {sum(p.startswith('facts:') for p in problems)} wrong")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
