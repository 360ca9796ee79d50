#!/usr/bin/env python3
"""chserver.py - a clickhouse-server of its own for the net/ tests: started
on loopback with a minimal config (127.0.0.1, free ports, data and logs
under a temporary folder), ready when /ping answers, stopped on any exit.

    url, stop = start_server(tmp)    # SERVER is None when not installed
    ch(url, "SELECT 1")              # a query over HTTP, its answer stripped
    run = godeye_runner(bin, tmp)    # run("db", "anr", ...) -> (exit, stdout, stderr)
    tmp, url, stop, run = begin(bin, "godeye-x-")   # all of it (None: not installed, exit 77)
    check(cond, "what")              # "ok"/"FAIL" lines; failures lists the failed
"""
import atexit
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

SERVER = shutil.which("clickhouse-server") or (
    "/usr/sbin/clickhouse-server" if os.access("/usr/sbin/clickhouse-server", os.X_OK) else None)
failures = []


def check(cond, what):
    """One line, ok or FAIL; a failure kept in `failures`."""
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def godeye_runner(bin_dir, tmp):
    """run(db, *args, extra_env=None): godeye with GODEYE_DB=TMP/DB.db and no
    proxy settings (the server is on loopback): (exit, stdout, stderr)."""
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    godeye = os.path.join(bin_dir, "godeye")

    def run(db, *args, extra_env=None):
        e = dict(env, GODEYE_DB=os.path.join(tmp, db + ".db"), **(extra_env or {}))
        p = subprocess.run([godeye] + list(args), capture_output=True, env=e, timeout=120)
        return p.returncode, p.stdout.decode(), p.stderr.decode()
    return run


def begin(bin_dir, prefix, alarm=280):
    """The start of a net test: (tmp, url, stop, run) with a server of its
    own and a runner, after `alarm` seconds SIGALRM; None (say SKIP, exit
    77) when clickhouse-server is not installed."""
    if not SERVER:
        print("SKIP: clickhouse-server is not installed (scripts/deps.sh --test installs it)")
        return None
    signal.alarm(alarm)
    tmp = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, tmp, True)  # the suite leaves no temporary folder
    url, stop = start_server(tmp)
    return tmp, url, stop, godeye_runner(bin_dir, tmp)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(tmp):
    http_port, tcp_port = free_port(), free_port()
    config = f"""<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>{tmp}/server.log</log><errorlog>{tmp}/error.log</errorlog>
    <console>0</console></logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>{http_port}</http_port>
  <tcp_port>{tcp_port}</tcp_port>
  <path>{tmp}/data/</path>
  <tmp_path>{tmp}/tmp/</tmp_path>
  <user_files_path>{tmp}/user_files/</user_files_path>
  <format_schema_path>{tmp}/format_schemas/</format_schema_path>
  <mark_cache_size>5368709</mark_cache_size>
  <max_concurrent_queries>20</max_concurrent_queries>
  <users_config>{tmp}/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <timezone>UTC</timezone>
  <mlock_executable>false</mlock_executable>
</yandex>
"""
    users = """<?xml version="1.0"?>
<yandex>
  <profiles><default></default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip></networks>
    <profile>default</profile><quota>default</quota></default></users>
  <quotas><default></default></quotas>
</yandex>
"""
    open(f"{tmp}/config.xml", "w").write(config)
    open(f"{tmp}/users.xml", "w").write(users)
    log = open(f"{tmp}/stdout.log", "wb")
    proc = subprocess.Popen([SERVER, f"--config-file={tmp}/config.xml"], stdout=log,
                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=tmp,
                            start_new_session=True)

    def stop():
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
    atexit.register(stop)
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGALRM):
        signal.signal(sig, lambda *_: sys.exit(1))
    url = f"http://127.0.0.1:{http_port}"
    deadline = time.time() + 30
    while time.time() < deadline:
        if proc.poll() is not None:
            break
        try:
            if urllib.request.urlopen(url + "/ping", timeout=1).read() == b"Ok.\n":
                return url, stop
        except OSError:
            time.sleep(0.1)
    print(open(f"{tmp}/stdout.log", errors="replace").read()[-2000:])
    raise SystemExit("clickhouse-server did not answer /ping")


def ch(url, sql, db="fleet"):
    q = urllib.parse.urlencode({"database": db})
    return urllib.request.urlopen(f"{url}/?{q}", data=sql.encode(), timeout=30).read().decode().strip()
