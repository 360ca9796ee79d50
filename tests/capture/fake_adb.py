#!/usr/bin/env python3
"""fake_adb.py - stands in for `adb` in godeye capture's tests (no phone here).

Put on PATH as `adb`.  Answers the subcommands godeye capture sends from
recorded outputs: the real captures of $FAKE_ADB_CORPUS (../shared/corpus:
logcat, gfxinfo framestats, dumpsys activity top, /proc files) where present,
else small outputs of its own.  Every call is appended to
$FAKE_ADB_DIR/log.jsonl as {"argv": [...]} (argv without "adb");
properties set with setprop persist in $FAKE_ADB_DIR/props.json.

$FAKE_ADB_MODE picks the device situation: ok (one device, the default),
nodevice, two, unauthorized, unknownpkg, disconnect (logcat stops after a
few lines and the device is gone from then on), nologcat (logcat fails at
once, the device stays), rich (as ok, and /data/anr is readable),
failrestore (as ok, but every setprop after the first fails, as a
property service refusing it would), hangpull (as ok, but `dumpsys gfxinfo
PKG framestats` never answers: it creates $FAKE_ADB_DIR/pull-hangs, then
waits until killed).  simpleperf, uiautomator and bugreport answer from the
project's own fixtures (tests/fixtures).
"""
import fcntl
import json
import os
import re
import shlex
import sys
import time
import zipfile

STATE = os.environ.get("FAKE_ADB_DIR", "/tmp")
MODE = os.environ.get("FAKE_ADB_MODE", "ok")
CORPUS = os.environ.get("FAKE_ADB_CORPUS", "")
SERIAL = "emulator-5554"
PKG = "com.example.jank"
PID = 4292  # the pid of the corpus /proc/<pid>/stat file
GONE = os.path.join(STATE, "gone")
FIXTURES = os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "fixtures")
ANR_NAME = "anr_2024-05-12-10-00-03-123"


def fixture(rel):
    with open(os.path.join(FIXTURES, rel), "rb") as f:
        return f.read()


def log(argv):
    with open(os.path.join(STATE, "log.jsonl"), "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        f.write(json.dumps({"argv": argv}) + "\n")


def props():
    try:
        with open(os.path.join(STATE, "props.json")) as f:
            return json.load(f)
    except FileNotFoundError:
        return {}


def save_props(p):
    with open(os.path.join(STATE, "props.json"), "w") as f:
        json.dump(p, f)


def corpus(rel):
    path = os.path.join(CORPUS, rel)
    if CORPUS and os.path.exists(path):
        with open(path, "rb") as f:
            return f.read()
    return None


def out(b):
    if isinstance(b, str):
        b = b.encode()
    sys.stdout.buffer.write(b)
    sys.stdout.flush()


DEVICE_PROPS = {
    "ro.product.manufacturer": "Google",
    "ro.product.model": "sdk_gphone64_x86_64",
    "ro.build.version.release": "14",
    "ro.build.version.sdk": "34",
    "persist.sys.timezone": "Europe/Paris",
    "ro.build.fingerprint": "google/sdk_gphone64_x86_64/emu64xa:14/UE1A.230829.036/10990190:userdebug/dev-keys",
}

PACKAGE = """Packages:
  Package [com.example.jank] (6c1e2b3):
    userId=10123
    pkg=Package{5d4a0f com.example.jank}
    codePath=/data/app/~~abc==/com.example.jank-xyz==
    versionCode=42 minSdk=24 targetSdk=34
    versionName=1.2.3
    flags=[ HAS_CODE ALLOW_CLEAR_USER_DATA ALLOW_BACKUP ]
"""

AM_START = """Stopping: com.example.jank
Starting: Intent { cmp=com.example.jank/.MainActivity }
Status: ok
LaunchState: COLD
Activity: com.example.jank/.MainActivity
TotalTime: 812
WaitTime: 830
Complete
"""

SMALL_LOGCAT = "".join(
    "05-12 10:00:0%d.123  4292  4292 W Looper  : Slow dispatch took 120ms main h=android.os.Handler c=null m=0\n" % i
    for i in range(5))


def gone():
    return MODE == "disconnect" and os.path.exists(GONE)


def device_error(serial):
    sys.stderr.write("adb: device '%s' not found\n" % serial)
    sys.exit(1)


def sample_loop(cmd):
    m = re.search(r"-lt (\d+)", cmd)
    count = int(m.group(1)) if m else 10 ** 9
    m = re.search(r"sleep (\d+(?:\.\d+)?)", cmd)
    interval = float(m.group(1)) if m else 1.0
    with_pid = "/proc/%d/stat" % PID in cmd
    stat = corpus("procstat/unidbg_rootfs_proc_stat") or b"cpu  100 0 50 1000 0 0 0 0 0 0\nbtime 1742277321\n"
    pidstat = corpus("procstat/unidbg_rootfs_proc_pid_stat") or (
        b"4292 (com.example.jank) S 983 983 0 0 -1 1077936448 45274 0 0 0 404 40 0 0 20 0 20 0 103013784\n")
    up0 = 12345.67
    t0 = time.time()
    for i in range(count):
        if gone():
            sys.exit(255)
        out(stat + (pidstat if with_pid else b"") + b"%.2f %.2f\n" % (up0 + time.time() - t0, 40000.0))
        time.sleep(interval)


def shell(cmd, serial):
    if cmd == "date +%s.%N; cat /proc/uptime":
        out("%.9f\n%.2f 40000.00\n" % (time.time(), 12345.67))
        return 0
    if cmd.startswith("i=0; while") or cmd.startswith("while :"):
        sample_loop(cmd)
        return 0
    a = shlex.split(cmd)
    if a[:2] == ["dumpsys", "package"]:
        if MODE == "unknownpkg" or a[2] != PKG:
            out("Activity Resolver Table:\n  Non-Data Actions:\n\nPermissions:\n")
        else:
            out(PACKAGE)
        return 0
    if a == ["getprop"]:
        p = dict(DEVICE_PROPS)
        p.update(props())
        out("".join("[%s]: [%s]\n" % kv for kv in sorted(p.items())))
        return 0
    if a[0] == "setprop" and len(a) == 3:
        if MODE == "failrestore" and os.path.exists(os.path.join(STATE, "set-once")):
            sys.stderr.write("Failed to set property '%s' to '%s'.\n" % (a[1], a[2]))
            return 1
        open(os.path.join(STATE, "set-once"), "w").close()
        p = props()
        p[a[1]] = a[2]
        save_props(p)
        return 0
    if a[:2] == ["am", "start"]:
        out(AM_START)
        return 0
    if a == ["pkill", "-INT", "simpleperf"]:
        open(os.path.join(STATE, "simpleperf-stop"), "w").close()
        return 0
    if a[:2] == ["am", "force-stop"] or a[0] in ("pkill", "rm"):
        return 0
    if a[0] == "monkey":
        out("  bash arg: -p\nEvents injected: 1\n")
        return 0
    if a == ["pidof", PKG]:
        out("%d\n" % PID)
        return 0
    if a[:2] == ["dumpsys", "gfxinfo"] and a[2:] == [PKG, "reset"]:
        return 0
    if a[:2] == ["dumpsys", "gfxinfo"] and a[2:] == [PKG, "framestats"] and MODE == "hangpull":
        open(os.path.join(STATE, "pull-hangs"), "w").close()
        while True:
            time.sleep(10)
    if a[:2] == ["dumpsys", "gfxinfo"] and a[2:] == [PKG, "framestats"]:
        out(corpus("gfxinfo/choi890_framestats.txt") or "Applications Graphics Acceleration Info:\n")
        return 0
    if a == ["dumpsys", "activity", "top"]:
        out(corpus("dumpsys_activity/lumisky_activity_top.txt") or "TASK com.example.jank id=1\n")
        return 0
    if a == ["ls", "/data/anr"]:
        if MODE == "rich":
            out(ANR_NAME + "\n")
            return 0
        sys.stderr.write("ls: /data/anr: Permission denied\n")
        return 1
    if a == ["cat", "/data/anr/" + ANR_NAME] and MODE == "rich":
        out(fixture("anr/art_binder_wait.txt"))
        return 0
    if a == ["uiautomator", "dump", "/data/local/tmp/godeye-window.xml"]:
        out("UI hierchary dumped to: /data/local/tmp/godeye-window.xml\n")
        return 0
    if a == ["cat", "/data/local/tmp/godeye-window.xml"]:
        out(fixture("uiautomator/variants.xml"))
        return 0
    if a[:2] == ["simpleperf", "record"]:
        # ends after its duration or at `pkill -INT simpleperf`, as the real one
        m = re.search(r"--duration (\d+(?:\.\d+)?)", cmd)
        end = time.monotonic() + (float(m.group(1)) if m else 3600)
        while time.monotonic() < end and not os.path.exists(os.path.join(STATE, "simpleperf-stop")):
            time.sleep(0.02)
        out("simpleperf I cmd_record.cpp:821] Samples recorded: 812. Samples lost: 0.\n")
        return 0
    if a[:2] == ["simpleperf", "report-sample"]:
        out(fixture("simpleperf/report-sample.txt"))
        return 0
    sys.stderr.write("fake adb: unknown shell command %r\n" % cmd)
    return 127


def main():
    argv = sys.argv[1:]
    log(argv)
    serial = None
    if argv[:1] == ["-s"]:
        serial, argv = argv[1], argv[2:]
    if argv == ["devices", "-l"]:
        lines = {"ok": [SERIAL + "          device product:sdk_gphone64_x86_64 model:sdk_gphone64_x86_64 transport_id:1"],
                 "nodevice": [],
                 "two": [SERIAL + "          device transport_id:1", "0123456789ABCDEF       device usb:1-1 transport_id:2"],
                 "unauthorized": ["R58M123ABC             unauthorized usb:1-1 transport_id:3"]}
        out("List of devices attached\n" + "".join(l + "\n" for l in lines.get(MODE, lines["ok"])) + "\n")
        return 0
    if serial is None:
        sys.stderr.write("fake adb: godeye must name the device with -s\n")
        return 1
    if serial != SERIAL or gone():
        device_error(serial)
    if argv == ["get-state"]:
        out("device\n")
        return 0
    if argv[:1] == ["logcat"] and "-c" in argv:
        return 0
    if argv[:1] == ["logcat"]:
        if MODE == "nologcat":
            out("--------- beginning of main\n")
            sys.stderr.write("Unable to open log device '/dev/log/events'\n")
            return 1
        if MODE == "disconnect":
            out(SMALL_LOGCAT)
            time.sleep(0.3)
            open(GONE, "w").close()
            sys.stderr.write("adb: device offline\n")
            return 1
        out(corpus("logcat/cranyweb_waydroid_logcat.txt") or SMALL_LOGCAT)
        while True:
            time.sleep(10)
    if argv[:1] == ["bugreport"] and len(argv) == 2:
        with zipfile.ZipFile(argv[1], "w") as z:
            z.writestr("bugreport-emu64xa-UE1A.230829.036-2024-05-12-10-00-05.txt", fixture("bugreport/small.txt"))
            z.writestr("main_entry.txt", "bugreport-emu64xa-UE1A.230829.036-2024-05-12-10-00-05.txt")
        out("[100%] generating bugreport-emu64xa-UE1A.230829.036-2024-05-12-10-00-05.zip\n")
        return 0
    if argv[:1] in (["shell"], ["exec-out"]) and len(argv) == 2:
        return shell(argv[1], serial)
    sys.stderr.write("fake adb: unknown command %r\n" % argv)
    return 127


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (KeyboardInterrupt, BrokenPipeError):
        sys.exit(130)
