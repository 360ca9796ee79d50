#!/usr/bin/env python3
"""edges_check.py - `godeye ingest` at the edges of its environment.

    edges_check.py progress GODEYE   the progress line on a terminal (a pty)
    edges_check.py fulldisk GODEYE   a really full file system (tmpfs, root)
    edges_check.py rmvacuum GODEYE   rm --vacuum on a full file system (tmpfs, root)

progress: stdout and stderr on one pseudo-terminal; the line shows the
reading and then "analysing: N/M blocks" (GODEYE_PROGRESS_DELAY=0 shows it
at once), and is erased ("\\r" + clear to end of line) before the summary.

fulldisk: mounts a 2 MiB tmpfs (exit 77 when mount is refused: not root, no
tmpfs), fills it, and checks that `ingest --format json` prints no row and
leaves the database as it was, and that `export --chrome FILE` and
`report -o FILE` fail and leave an existing FILE untouched.

Prints "ok: ..." lines and a closing "N passed, N failed"; exit 1 on a
failed check.  Captures are generated, never committed.
"""
import errno
import json
import os
import pty
import select
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reliability import generate  # noqa: E402

results = []


def check(ok, what, detail=""):
    results.append(ok)
    print(("ok: " if ok else "FAIL: ") + what)
    if not ok and detail:
        print("    " + detail.replace("\n", "\n    "))


def run_pty(argv, cwd):
    """Runs argv with stdout and stderr on one pseudo-terminal (the progress
    line shown at once); returns (exit status, what the terminal got)."""
    env = dict(os.environ, GODEYE_PROGRESS_DELAY="0")
    master, slave = pty.openpty()
    p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=slave, stderr=slave, env=env,
                         cwd=cwd)
    os.close(slave)
    out = b""
    while True:
        r, _, _ = select.select([master], [], [], 120)
        if not r:
            break
        try:
            d = os.read(master, 65536)
        except OSError as e:  # EIO: the child closed the pty
            if e.errno != errno.EIO:
                raise
            break
        if not d:
            break
        out += d
    p.wait()
    os.close(master)
    return p.returncode, out.decode("utf-8", "replace")


def progress(exe, tmp):
    cap = os.path.join(tmp, "big.jsonl")
    generate(cap, 20000, 1)  # 10000 dispatches, 4289 of them blocks
    db = os.path.join(tmp, "p.db")
    rc, text = run_pty([exe, "--db", db, "ingest", cap], tmp)
    check(rc == 0, "ingest on a terminal succeeds", text[-300:])
    summary = cap + "': godeye, trace 1: 20000 events, 10000 dispatches, 4289 blocks, 0 skipped"
    check("analysing: 0/4289 blocks" in text and "analysing: 4289/4289 blocks" in text,
          "the analysis shows its progress (analysing: N/4289 blocks)", repr(text[-400:]))
    counts = [int(x.split("/")[0]) for x in text.split("analysing: ")[1:]]
    check(counts == sorted(counts) and len(counts) >= 3, "the counts shown increase",
          repr(counts))
    tail = "\r\x1b[K'" + summary
    check(tail in text and text.rstrip().endswith(summary.split("'")[-1]),
          "the line is erased before the summary line", repr(text[-300:]))
    before = text[:text.find(tail)]
    check("[####################] 100%" in before, "the reading showed its bar first",
          repr(before[:200]))
    return 0


def run(exe, db, *args):
    p = subprocess.run([exe, "--db", db] + list(args), capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def fill(path):
    """Writes to path until the file system is full."""
    with open(path, "wb", buffering=0) as f:
        block = b"\0" * 4096
        try:
            while True:
                f.write(block)
        except OSError as e:
            if e.errno not in (errno.ENOSPC, errno.EFBIG):
                raise


def fulldisk(exe, tmp):
    fs = os.path.join(tmp, "fs")
    os.mkdir(fs)
    m = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", fs],
                       capture_output=True, text=True)
    if m.returncode != 0:
        print("SKIP: cannot mount a tmpfs here (%s)" % m.stderr.strip())
        return 77
    try:
        return fulldisk_on(exe, tmp, fs)
    finally:
        subprocess.run(["umount", fs])


def fulldisk_on(exe, tmp, fs):
    db = os.path.join(fs, "g.db")
    small = os.path.join(tmp, "small.jsonl")
    big = os.path.join(tmp, "big.jsonl")
    generate(small, 200, 2)
    generate(big, 40000, 3)  # 8583 blocks; its rows need more than the disk holds
    rc, out, err = run(exe, db, "ingest", "-q", small)
    check(rc == 0, "a small ingest fits", err)
    chrome, html = os.path.join(fs, "old.json"), os.path.join(fs, "old.html")
    for f in (chrome, html):
        with open(f, "w") as o:
            o.write("the previous file\n")
    # nearly full: the big ingest starts, then runs out of room
    filler = os.path.join(fs, "filler")
    fill(filler)
    with open(filler, "r+b") as f:
        f.truncate(os.path.getsize(filler) - 96 * 1024)
    # the pages stay in SQLite's cache until the commit: the analysis ends
    # (its progress says so) before the disk is found full, at the commit
    rc, text = run_pty([exe, "--db", db, "ingest", "--format", "json", big], tmp)
    done = text.rfind("analysing: 8583/8583 blocks")
    full = text.find("godeye ingest: '%s': database: database or disk is full" % db)
    check(rc == 1 and 0 <= done < full, "the ingest fails at its commit, after the analysis",
          f"exit {rc}, {text[-300:]!r}")
    check('"trace"' not in text and '"format"' not in text,
          "ingest --format json on a full disk prints no row", repr(text[-300:]))
    os.remove(filler)
    rc, out, err = run(exe, db, "sql", "--format", "json",
                       "select count(*) as n, (select count(*) from dispatch) as d from trace")
    check(rc == 0 and json.loads(out) == [{"n": 1, "d": 100}],
          "the database is as it was (1 trace, 100 dispatches)", out + err)
    rc, out, err = run(exe, db, "sql", "pragma integrity_check")
    check(rc == 0 and "ok" in out, "integrity_check ok", out + err)
    # completely full: the outputs cannot be written; the old files stay
    fill(filler)
    rc, out, err = run(exe, db, "export", "--chrome", chrome)
    check(rc != 0 and open(chrome).read() == "the previous file\n",
          "export --chrome FILE on a full disk fails and leaves FILE untouched",
          f"exit {rc}, {err[:300]!r}")
    rc, out, err = run(exe, db, "report", "-o", html)
    check(rc != 0 and open(html).read() == "the previous file\n",
          "report -o FILE on a full disk fails and leaves FILE untouched",
          f"exit {rc}, {err[:300]!r}")
    left = sorted(f for f in os.listdir(fs)
                  if f not in ("g.db", "g.db-wal", "g.db-shm", "old.json", "old.html", "filler"))
    check(left == [], "no temporary file is left behind", repr(left))
    os.remove(filler)
    rc, out, err = run(exe, db, "export", "--chrome", chrome)
    check(rc == 0 and open(chrome).read().startswith("{"), "with room again, export replaces FILE",
          err[:300])
    return 0


def rmvacuum(exe, tmp):
    """rm --vacuum on a full disk (issue #25 item 11): the removal commits
    and is reported ("removed trace 1"), then the vacuum's failure as one
    warning line, exit 0 (#53 item 8: the removal stood);
    the database holds the other trace, whole.  The room left on the disk
    grows in 16 KiB steps until the removal fits: the vacuum, which needs
    more, must then fail on its own."""
    fs = os.path.join(tmp, "fs")
    os.mkdir(fs)
    m = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", fs],
                       capture_output=True, text=True)
    if m.returncode != 0:
        print("SKIP: cannot mount a tmpfs here (%s)" % m.stderr.strip())
        return 77
    try:
        base = os.path.join(tmp, "base.db")
        for seed in (4, 5):
            cap = os.path.join(tmp, "c%d.jsonl" % seed)
            generate(cap, 4000, seed)
            rc, out, err = run(exe, base, "ingest", "-q", cap)
            check(rc == 0, "ingest %d" % seed, err)
        db, filler = os.path.join(fs, "g.db"), os.path.join(fs, "filler")
        room, rc, out, err = 0, None, "", ""
        while room <= 2 * os.path.getsize(base):
            for f in os.listdir(fs):
                os.remove(os.path.join(fs, f))
            shutil.copy(base, db)
            fill(filler)
            with open(filler, "r+b") as f:
                f.truncate(max(0, os.path.getsize(filler) - room))
            rc, out, err = run(exe, db, "rm", "--vacuum", "1")
            if out:
                break
            room += 16384
        check(rc == 0 and out == "removed trace 1\n",
              "the removal is reported before the vacuum fails (room %d bytes)" % room,
              f"exit {rc}, {out!r}, {err!r}")
        lines = err.rstrip("\n").split("\n")
        check(len(lines) == 1 and "warning: vacuum failed, the traces are removed: " in lines[0]
              and "full" in lines[0], "the vacuum's failure is one line", repr(err))
        os.remove(filler)
        rc, out, err = run(exe, db, "sql", "--format", "json",
                           "select group_concat(id) as ids, (select count(*) from dispatch) as d"
                           " from trace")
        check(rc == 0 and json.loads(out) == [{"ids": "2", "d": 2000}],
              "trace 1 is gone, trace 2 whole (2000 dispatches)", out + err)
        rc, out, err = run(exe, db, "sql", "pragma integrity_check")
        check(rc == 0 and "ok" in out, "integrity_check ok", out + err)
        rc, out, err = run(exe, db, "rm", "--vacuum", "2")
        check(rc == 0 and out == "removed trace 2\n", "with room, rm --vacuum succeeds", err)
    finally:
        subprocess.run(["umount", fs])
    return 0


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("progress", "fulldisk", "rmvacuum"):
        print(__doc__, file=sys.stderr)
        return 2
    exe = os.path.realpath(sys.argv[2])
    tmp = tempfile.mkdtemp(prefix="godeye-edges-")
    try:
        rc = {"progress": progress, "fulldisk": fulldisk, "rmvacuum": rmvacuum}[sys.argv[1]](exe, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if rc == 77:
        return 77
    failed = results.count(False)
    print(f"{len(results) - failed} passed, {failed} failed")
    return 1 if failed else rc


if __name__ == "__main__":
    sys.exit(main())
