#!/usr/bin/env python3
"""width_check.py - tables fit the terminal they are printed on.

    width_check.py GODEYE EXAMPLES

Ingests examples/shop.jsonl, then prints `godeye blocks --group` (its group
names are up to 129 characters) on a pseudo-terminal of 200 and of 90
columns (TIOCSWINSZ): every line fits the terminal and the wide one cuts
nothing; with COLUMNS=200 exported but stdout on a 90-column terminal, the
terminal wins (90); through a pipe (no terminal) COLUMNS counts, else 100;
--wide cuts nothing anywhere. Prints "ok: ..." lines and a closing
"N passed, N failed".
"""
import atexit
import errno
import fcntl
import json
import os
import pty
import select
import shutil
import struct
import subprocess
import sys
import tempfile
import termios

results = []


def check(ok, what, detail=""):
    results.append(ok)
    print(("ok: " if ok else "FAIL: ") + what)
    if not ok and detail:
        print("    " + detail.replace("\n", "\n    "))


def on_tty(argv, cols, env):
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, cols, 0, 0))
    p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=slave, stderr=slave, env=env)
    os.close(slave)
    out = b""
    while True:
        r, _, _ = select.select([master], [], [], 60)
        if not r:
            break
        try:
            d = os.read(master, 65536)
        except OSError as e:
            if e.errno != errno.EIO:
                raise
            break
        if not d:
            break
        out += d
    p.wait()
    os.close(master)
    return out.decode("utf-8", "replace").replace("\r\n", "\n").rstrip("\n").split("\n")


def main():
    exe, examples = os.path.realpath(sys.argv[1]), sys.argv[2]
    tmp = tempfile.mkdtemp(prefix="godeye-width-")
    atexit.register(shutil.rmtree, tmp, True)  # the suite leaves no temporary folder
    env = dict(os.environ, GODEYE_DB=os.path.join(tmp, "g.db"))
    env.pop("COLUMNS", None)
    subprocess.run([exe, "ingest", "-q", os.path.join(examples, "shop.jsonl")], check=True, env=env)
    groups = json.loads(subprocess.run([exe, "blocks", "--group", "--format", "json"], env=env,
                                       check=True, capture_output=True, text=True).stdout)
    longest = max(len(g["group"]) for g in groups)
    cmd = [exe, "blocks", "--group"]
    wide = on_tty(cmd, 200, env)
    width = max(len(x) for x in wide)
    check(100 < width <= 200 and not any("\u2026" in x for x in wide),
          f"a 200-column terminal: lines up to {width} columns, nothing cut (longest group {longest})",
          "\n".join(wide))
    narrow = on_tty(cmd, 90, env)
    check(max(len(x) for x in narrow) <= 90 and any("\u2026" in x for x in narrow),
          "a 90-column terminal: every line fits, long groups cut with an ellipsis", "\n".join(narrow))
    over = on_tty(cmd, 90, dict(env, COLUMNS="200"))
    check(max(len(x) for x in over) <= 90, "the terminal's own width wins over an exported COLUMNS")
    piped = subprocess.run(cmd, env=dict(env, COLUMNS="150"), capture_output=True, text=True).stdout
    check(max(len(x) for x in piped.splitlines()) <= 150 and
          max(len(x) for x in piped.splitlines()) > 100, "through a pipe: COLUMNS=150 counts")
    plain = subprocess.run(cmd, env=env, capture_output=True, text=True).stdout
    check(max(len(x) for x in plain.splitlines()) <= 100, "through a pipe without COLUMNS: 100")
    full = on_tty(cmd + ["--wide"], 60, env)
    check(not any("\u2026" in x for x in full) and max(len(x) for x in full) >= longest,
          "--wide on a 60-column terminal cuts nothing", "\n".join(full))
    failed = results.count(False)
    print(f"{len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
