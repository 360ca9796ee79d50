#!/usr/bin/env python3
"""lock_wait.py GODEYE FILE - a second writer says on stderr that it waits.

Holds the database's write lock (BEGIN IMMEDIATE) while `godeye ingest FILE`
runs, until godeye prints its waiting line (or 120 s pass), then lets go;
prints the line and godeye's exit status.  No timing decides the result:
the lock is held for as long as godeye has not spoken."""
import os
import select
import sqlite3
import subprocess
import sys
import time

godeye, path = sys.argv[1], sys.argv[2]
db = os.environ["GODEYE_DB"]
subprocess.run([godeye, "ingest", "-q", path], check=True)  # the database exists
c = sqlite3.connect(db, isolation_level=None)
c.execute("BEGIN IMMEDIATE")
p = subprocess.Popen([godeye, "ingest", "-q", path + ".again"], stderr=subprocess.PIPE)
line, end = b"", time.time() + 120
while time.time() < end and not line.endswith(b"\n"):
    r, _, _ = select.select([p.stderr], [], [], 1)
    if r:
        b = os.read(p.stderr.fileno(), 1)
        if not b:
            break
        line += b
c.execute("COMMIT")
c.close()
rest = p.stderr.read()
rc = p.wait()
sys.stdout.write(line.decode() + rest.decode())
print("godeye exited with", rc)
