#!/usr/bin/env python3
"""reliability.py - crash safety and concurrency checks of `godeye ingest`.

    reliability.py crash GODEYE DIR       kill -9 an ingest mid-way
    reliability.py concurrent GODEYE DIR  two ingests at once; a reader during one

Run from a CLI case (tests/cli/crash-safety.test, concurrency.test): prints
only stable lines on stdout (timings and kill positions go to stderr), exits 1
on a failed check.  Captures are generated (Looper begin/end pairs as godeye
JSONL), never committed.  "Mid-ingest" is observed, not guessed: the input's
read offset in /proc/PID/fdinfo is between 0 and its size.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import time


def generate(path, n, seed):
    """n looper events to path: n/2 dispatches, 3 in 7 of them short blocks,
    1 in 1000 a long block."""
    t = 1700000000000 + seed * 10**9
    with open(path, "w") as f:
        f.write('{"type":"meta","app":"com.example.big","pid":100,"main_tid":100,'
                '"session":"s-%d","config":{"long_block_ms":500,"short_block_ms":100}}\n' % seed)
        for i in range(n // 2):
            f.write('{"type":"looper","ts":%d,"msg":">>>>> Dispatching to Handler '
                    '(android.os.Handler) {a1} com.example.Cb%d@1: 0"}\n' % (t, i % 50))
            t += 700 if i % 1000 == 999 else 5 + (i % 7) * 30
            f.write('{"type":"looper","ts":%d,"msg":"<<<<< Finished to Handler '
                    '(android.os.Handler) {a1} com.example.Cb%d@1"}\n' % (t, i % 50))
            t += 3


class Godeye:
    def __init__(self, exe, db):
        self.exe, self.db = exe, db

    def run(self, *args):
        p = subprocess.run([self.exe, "--db", self.db] + list(args), capture_output=True, text=True)
        return p.returncode, p.stdout, p.stderr

    def popen(self, *args):
        return subprocess.Popen([self.exe, "--db", self.db] + list(args),
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    def sql(self, q):
        rc, out, err = self.run("sql", "--format", "json", q)
        if rc:
            raise SystemExit(f"godeye sql {q!r}: exit {rc}: {err}")
        return json.loads(out)

    def counts(self):
        r = self.sql("select (select count(*) from trace) as traces,"
                     " (select count(*) from dispatch) as dispatches,"
                     " (select count(*) from block) as blocks")[0]
        return r["traces"], r["dispatches"], r["blocks"]


def read_offset(pid, path):
    """Read offset of `path` in process pid, or None when it is not open."""
    try:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}") == path:
                    with open(f"/proc/{pid}/fdinfo/{fd}") as f:
                        for line in f:
                            if line.startswith("pos:"):
                                return int(line.split()[1])
            except OSError:
                continue
    except OSError:
        pass
    return None


def wait_mid(proc, path, size, timeout=120):
    """Polls until proc has read a quarter or more (not all) of path; False if
    it ended first."""
    end = time.time() + timeout
    while time.time() < end and proc.poll() is None:
        pos = read_offset(proc.pid, path)
        if pos is not None and size // 4 <= pos < size:
            return pos
        time.sleep(0.002)
    return False


def check(ok, what, failures):
    print(("ok: " if ok else "FAILED: ") + what)
    if not ok:
        failures.append(what)


def crash(exe, tmp):
    failures = []
    n = 200000
    for attempt in range(1, 7):
        db = os.path.join(tmp, f"crash{attempt}.db")
        g = Godeye(exe, db)
        rc, _, err = g.run("ingest", "-q", os.path.join(os.path.dirname(__file__),
                                                        "fixtures/godeye/pairing.jsonl"))
        if rc:
            raise SystemExit(f"baseline ingest failed: {err}")
        before = g.counts()
        big = os.path.realpath(os.path.join(tmp, f"big{attempt}.jsonl"))
        generate(big, n, attempt)
        size = os.path.getsize(big)
        proc = g.popen("ingest", "-q", big)
        pos = wait_mid(proc, big, size)
        if pos is False:
            proc.wait()
            print(f"attempt {attempt}: ingest of {n} events ended before the kill; doubling",
                  file=sys.stderr)
            n *= 2
            continue
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        print(f"attempt {attempt}: killed at byte {pos} of {size} ({100 * pos // size}%)",
              file=sys.stderr)
        check(proc.returncode == -signal.SIGKILL, "ingest was killed by SIGKILL", failures)
        check(g.sql("pragma integrity_check") == [{"integrity_check": "ok"}],
              "integrity_check ok after kill -9", failures)
        check(g.counts() == before, "no rows of the killed ingest (traces, dispatches, blocks"
              " unchanged)", failures)
        rc, _, err = g.run("ingest", "-q", big)
        after = g.counts()
        check(rc == 0 and after[0] == before[0] + 1 and after[1] == before[1] + n // 2,
              "the same capture ingests completely afterwards", failures)
        break
    else:
        check(False, "an ingest was caught mid-way within 6 attempts", failures)
    return 1 if failures else 0


def concurrent(exe, tmp):
    failures = []
    n = 100000
    a, b, c = (os.path.realpath(os.path.join(tmp, f"{x}.jsonl")) for x in "abc")
    for i, p in enumerate((a, b, c)):
        generate(p, n, 10 + i)
    g = Godeye(exe, os.path.join(tmp, "conc.db"))
    # two writers at once into a database that does not exist yet
    pa, pb = g.popen("ingest", "-q", a), g.popen("ingest", "-q", b)
    ea, eb = pa.communicate()[1], pb.communicate()[1]
    # the one that waits may say so (when the wait is long, as under load);
    # any other line on stderr is shown in the result
    ea, eb = ("".join(ln + "\n" for ln in e.splitlines()
                      if not ln.endswith("waiting for the database lock held by another godeye"))
              for e in (ea, eb))
    check(pa.returncode == 0 and pb.returncode == 0,
          f"two simultaneous ingests both succeed{'' if not (ea or eb) else ': ' + ea + eb}",
          failures)
    check(g.counts()[:2] == (2, n), "both traces complete (2 traces, all dispatches)", failures)
    check(g.sql("pragma integrity_check") == [{"integrity_check": "ok"}], "integrity_check ok",
          failures)
    # a reader during an ingest sees the state before or after, never half
    # (`blocks --kind long`: few rows, so many reads fit in one ingest);
    # retried with a larger capture when the ingest ends before a read
    for attempt in range(4):
        rc, out, err = g.run("blocks", "--kind", "long", "--format", "json")
        before = len(json.loads(out))
        generate(c, n << attempt, 20 + attempt)
        states = set()
        proc = g.popen("ingest", "-q", c)
        mid = wait_mid(proc, c, os.path.getsize(c))
        reads = 0
        while mid is not False and proc.poll() is None:
            rc, out, err = g.run("blocks", "--kind", "long", "--format", "json")
            if rc:
                check(False, f"godeye blocks during an ingest: exit {rc}: {err}", failures)
                break
            states.add(len(json.loads(out)))
            reads += 1
        proc.wait()
        rc, out, err = g.run("blocks", "--kind", "long", "--format", "json")
        after = len(json.loads(out))
        print(f"reader: {reads} reads during the ingest (caught mid-way: {mid is not False}),"
              f" block counts seen {sorted(states)}; before {before}, after {after}",
              file=sys.stderr)
        if reads:
            break
    check(proc.returncode == 0 and after > before, "the third ingest succeeds", failures)
    check(reads > 0 and states <= {before, after},
          "readers during the ingest saw only the before or after state", failures)
    return 1 if failures else 0


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("crash", "concurrent"):
        print(__doc__, file=sys.stderr)
        return 2
    exe, tmp = os.path.realpath(sys.argv[2]), sys.argv[3]
    rc = (crash if sys.argv[1] == "crash" else concurrent)(exe, tmp)
    for f in os.listdir(tmp):
        if f.endswith(".jsonl"):
            os.remove(os.path.join(tmp, f))
    return rc


if __name__ == "__main__":
    sys.exit(main())
