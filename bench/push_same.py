#!/usr/bin/env python3
"""push_same.py - checks that two godeye binaries push identical rows:
each pushes DB into its own database of one loopback clickhouse-server
(tests/net/chserver.py), then every table of the two is dumped with
SELECT * ORDER BY all its columns FORMAT TSV and the dumps compared
(traces.pushed_at, the push's own clock, left out).

    bench/push_same.py BASE_GODEYE NEW_GODEYE DB [PUSH OPTION ...]    (exit 0: identical)

python3 standard library only.
"""
import hashlib
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
spec = importlib.util.spec_from_file_location("chserver", os.path.join(ROOT, "tests", "net", "chserver.py"))
chs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(chs)


def q(url, sql):
    try:
        return urllib.request.urlopen(url + "/", data=sql.encode(), timeout=300).read().decode()
    except urllib.error.HTTPError as e:
        sys.exit("clickhouse: %s\n%s" % (e.read().decode(errors="replace")[:500], sql))


def dump(url, database, table):
    cols = [c for c in q(url, "SELECT name FROM system.columns WHERE database = '%s' AND table = '%s'" % (database, table)).split("\n")
            if c and not (table == "traces" and c == "pushed_at")]
    order = ", ".join(cols)
    return q(url, "SELECT %s FROM %s.%s ORDER BY %s FORMAT TSV" % (order, database, table, order))


def main():
    base, new, db = sys.argv[1:4]
    extra = sys.argv[4:]  # e.g. --batch 7
    tmp = tempfile.mkdtemp(prefix="godeye-push-same-")
    try:
        url, stop = chs.start_server(tmp)
        for exe, database in ((base, "same_base"), (new, "same_new")):
            subprocess.run([exe, "--db", db, "push", "--database", database, "--clickhouse", url] + extra,
                           check=True, stdout=subprocess.DEVNULL)
        tables = [t for t in q(url, "SELECT name FROM system.tables WHERE database = 'same_base'"
                                         " ORDER BY name").split("\n") if t]
        bad = 0
        for t in tables:
            a, b = dump(url, "same_base", t), dump(url, "same_new", t)
            rows = a.count("\n")
            same = a == b
            bad += not same
            print("%-14s %7d rows  %s  %s" % (t, rows, hashlib.sha256(a.encode()).hexdigest()[:16],
                                             "same" if same else "DIFFERENT"))
        stop()
        print("identical" if not bad else "%d tables differ" % bad)
        return 1 if bad else 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
