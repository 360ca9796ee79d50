#!/usr/bin/env python3
"""capture_test.py - `godeye capture` against a fake adb (tests/capture/fake_adb.py).

usage: capture_test.py GODEYE CORPUS_DIR CASE

No phone is attached to the machines that run the tests: a wrapper named
`adb` first on PATH runs the fake, which answers from the real captures in
CORPUS_DIR (read at test time, never copied) and logs every call.  Each CASE
checks the adb commands sent (exact sequence), the files written, the
manifest, the Looper property put back (also after SIGINT) and one failure
each.  Exit 77 (skipped) when a case needs the corpus and it is absent.
"""
import atexit
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
S = ["-s", "emulator-5554"]
PROP = "log.looper.10123.main.slow"
LOOP6 = ("i=0; while [ $i -lt 6 ]; do cat /proc/stat /proc/4292/stat /proc/uptime; "
         "i=$((i+1)); sleep 0.200; done")
LOGCAT = S + ["logcat", "-v", "threadtime", "-b", "main", "-b", "system", "-b", "events"]


class Env:
    def __init__(self, godeye, corpus, mode="ok"):
        self.godeye = godeye
        self.tmp = tempfile.mkdtemp(prefix="godeye-capture-")
        atexit.register(shutil.rmtree, self.tmp, True)  # the suite leaves no temporary folder
        self.bin = os.path.join(self.tmp, "bin")
        self.state = os.path.join(self.tmp, "state")
        os.makedirs(self.bin)
        os.makedirs(self.state)
        with open(os.path.join(self.bin, "adb"), "w") as f:
            f.write('#!/bin/sh\nexec "%s" "%s" "$@"\n' % (sys.executable, os.path.join(HERE, "fake_adb.py")))
        os.chmod(os.path.join(self.bin, "adb"), 0o755)
        self.out = os.path.join(self.tmp, "out")
        self.env = dict(os.environ, PATH=self.bin + os.pathsep + os.environ["PATH"], FAKE_ADB_DIR=self.state,
                        FAKE_ADB_MODE=mode, FAKE_ADB_CORPUS=corpus or "", GODEYE_DB=os.path.join(self.tmp, "g.db"))

    def props(self, value=None):
        p = os.path.join(self.state, "props.json")
        if value is not None:
            with open(p, "w") as f:
                json.dump(value, f)
        return json.load(open(p)) if os.path.exists(p) else {}

    def run(self, *args):
        return subprocess.run([self.godeye, "capture", *args], env=self.env, capture_output=True, text=True,
                              timeout=240)

    def start(self, *args):
        return subprocess.Popen([self.godeye, "capture", *args], env=self.env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)

    def log(self):
        p = os.path.join(self.state, "log.jsonl")
        return [json.loads(l)["argv"] for l in open(p)] if os.path.exists(p) else []

    def manifest(self):
        return json.load(open(os.path.join(self.out, "capture.json")))


problems = []


def check(cond, what):
    if not cond:
        problems.append(what)


def same_sequence(got, want, what):
    """want may hold a set of commands (as a list inside a tuple) whose order
    among themselves is free (the background collectors start together)."""
    flat = []
    for w in want:
        if isinstance(w, tuple):
            part = got[len(flat):len(flat) + len(w)]
            check(sorted(map(json.dumps, part)) == sorted(map(json.dumps, w)),
                  "%s: background commands %s, want %s" % (what, part, list(w)))
            flat.extend(part)
        else:
            flat.append(w)
    check(got == flat, "%s: adb commands\n got %s\nwant %s" % (
        what, json.dumps(got, indent=0), json.dumps(flat, indent=0)))


def wait_for(cond, what, bound=50):
    """Polls cond until it holds; a failed check after `bound` s (a hang guard,
    not a timing: the cases wait on conditions, never on sleeps)."""
    t0 = time.monotonic()
    while not cond():
        if time.monotonic() - t0 > bound:
            check(False, what)
            return False
        time.sleep(0.02)
    return True


def not_polled(log):
    """The adb log without the device checks made when the counted CPU loop
    ends before the duration does (it may, on a loaded machine: the loop's
    own sleeps and godeye's polls race); at most one such check."""
    check(log.count(S + ["get-state"]) <= 1, "device checked %d times" % log.count(S + ["get-state"]))
    return [a for a in log if a != S + ["get-state"]]


def one_line(r, text, what):
    lines = [l for l in r.stderr.splitlines() if l.strip()]
    check(len(lines) == 1 and lines[0].startswith("godeye capture: ") and text in lines[0],
          "%s: want one stderr line with %r, got %r" % (what, text, r.stderr))


def start_cmds(launch=None):
    cmds = [["devices", "-l"],
            S + ["shell", "dumpsys package 'com.example.jank'"],
            S + ["shell", "getprop"],
            S + ["shell", "date +%s.%N; cat /proc/uptime"],
            S + ["shell", "setprop %s 50" % PROP],
            S + ["logcat", "-b", "main", "-b", "system", "-b", "events", "-c"]]
    if launch:
        cmds.append(S + ["shell", "am start -W -S -n 'com.example.jank/%s'" % launch])
    else:
        cmds += [S + ["shell", "am force-stop 'com.example.jank'"],
                 S + ["shell", "monkey -p 'com.example.jank' -c android.intent.category.LAUNCHER 1"]]
    return cmds + [S + ["shell", "pidof 'com.example.jank'"],
                   S + ["shell", "dumpsys gfxinfo 'com.example.jank' reset"]]


def end_cmds(previous):
    return [S + ["shell", "setprop %s %s" % (PROP, previous)],
            S + ["shell", "date +%s.%N; cat /proc/uptime"],
            S + ["shell", "dumpsys gfxinfo 'com.example.jank' framestats"],
            S + ["shell", "dumpsys activity top"],
            S + ["shell", "ls /data/anr"]]


OK_FILES = ("gfxinfo/choi890_framestats.txt", "dumpsys_activity/lumisky_activity_top.txt",
            "logcat/cranyweb_waydroid_logcat.txt")


def case_ok(godeye, corpus):
    # the device's recorded outputs are real files kept outside the repository
    absent = [rel for rel in OK_FILES if not os.path.isfile(os.path.join(corpus, rel))]
    log = os.environ.get("GODEYE_CORPUS_LOG")
    if log:
        with open(log, "a") as f:
            f.writelines("%s %s\n" % ("absent" if rel in absent else "tested", rel) for rel in OK_FILES)
    if absent:
        print("SKIP: real file(s) absent under %s: %s" % (corpus, ", ".join(absent)))
        return 77
    e = Env(godeye, corpus)
    r = e.run("--app", "com.example.jank", "--duration", "1s", "--interval", "200", "--launch", ".MainActivity",
              "--ingest", "-o", e.out)
    check(r.returncode == 0, "ok: exit %d: %s" % (r.returncode, r.stderr))
    same_sequence(not_polled(e.log()), start_cmds(".MainActivity") + [(LOGCAT, S + ["shell", LOOP6])] + end_cmds("''"), "ok")
    check(e.props().get(PROP) == "", "ok: property left at %r" % e.props().get(PROP))
    files = sorted(os.listdir(e.out))
    check(files == ["activity_top.txt", "am_start.txt", "capture.json", "gfxinfo.txt", "logcat.txt",
                    "procstat.txt"], "ok: files %s" % files)
    # the pulled files are the device's bytes
    for name, rel in (("gfxinfo.txt", "gfxinfo/choi890_framestats.txt"),
                      ("activity_top.txt", "dumpsys_activity/lumisky_activity_top.txt"),
                      ("logcat.txt", "logcat/cranyweb_waydroid_logcat.txt")):
        check(open(os.path.join(e.out, name), "rb").read() == open(os.path.join(corpus, rel), "rb").read(),
              "ok: %s differs from what adb gave" % name)
    ps = open(os.path.join(e.out, "procstat.txt")).read()
    check(ps.startswith("cpu  220763 ") and ps.count("\ncpu  ") + 1 >= 1 and "\n4292 (com.oacia.apk_protect)" in ps,
          "ok: procstat.txt does not hold the sampled /proc files")
    m = e.manifest()
    check(m["godeye_capture"] == 1, "ok: manifest version")
    check(m["app"] == {"package": "com.example.jank", "version_name": "1.2.3", "version_code": 42, "uid": 10123,
                       "pid": 4292}, "ok: manifest app %s" % m["app"])
    check(m["device"]["serial"] == "emulator-5554" and m["device"]["android_release"] == "14"
          and m["device"]["sdk"] == "34" and m["device"]["timezone"] == "Europe/Paris" and m["device"]["model"] == "sdk_gphone64_x86_64",
          "ok: manifest device %s" % m["device"])
    for k in ("start", "end"):
        c = m["clocks"][k]
        check(isinstance(c, dict) and c["device_uptime_ms"] == 12345670.0
              and abs(c["device_wall_ms"] - c["host_ms"]) < 5000 and abs(c["offset_ms"]) < 5000
              and abs(c["device_boot_ms"] - (c["device_wall_ms"] - c["device_uptime_ms"])) < 1e-3,
              "ok: manifest clocks %s: %s" % (k, c))
    check(m["looper_property"] == {"name": PROP, "previous": "", "value": 50, "restored": True},
          "ok: manifest property %s" % m["looper_property"])
    check(m["stopped_by"] == "duration", "ok: stopped_by %s" % m["stopped_by"])
    listed = sorted(f["path"] for f in m["files"])
    check(listed == ["activity_top.txt", "am_start.txt", "gfxinfo.txt", "logcat.txt", "procstat.txt"],
          "ok: manifest files %s" % listed)
    check(all(f["ok"] and f["bytes"] == os.path.getsize(os.path.join(e.out, f["path"])) for f in m["files"]),
          "ok: manifest file sizes")
    # --ingest: every file read, the manifest passed over quietly, counted
    check("capture.json': passed over" not in r.stderr and "5 stored (" in r.stderr
          and ", 1 not captures (-v names them);" in r.stderr,
          "ok: the manifest is passed over, counted in the summary: %r" % r.stderr)
    t = subprocess.run([godeye, "traces", "--format", "json"], env=e.env, capture_output=True, text=True)
    fmts = sorted(x["format"] for x in json.loads(t.stdout or "[]"))
    check(fmts == ["am_start", "dumpsys_activity", "gfxinfo", "logcat", "procstat"], "ok: ingested %s" % fmts)
    st = subprocess.run([godeye, "startup", "--format", "json"], env=e.env, capture_output=True, text=True)
    launches = json.loads(st.stdout or "[]")
    check([(x["kind"], x["total_ms"]) for x in launches if x["source"] and "am" in x["source"]] == [("cold", 812)],
          "ok: the am start launch: %s" % launches)
    return 0


def case_rich(godeye, corpus):
    """--sample, --uiautomator, --bugreport and a readable /data/anr: what
    each adds to the sequence, the files, and an ingest of the folder."""
    e = Env(godeye, corpus if os.path.isdir(corpus) else "", "rich")
    r = e.run("--app", "com.example.jank", "--duration", "1s", "--interval", "200", "--sample", "--uiautomator",
              "--bugreport", "-o", e.out)
    check(r.returncode == 0, "rich: exit %d: %s" % (r.returncode, r.stderr))
    perf = ("simpleperf record --app 'com.example.jank' -t 4292 -g -f 1000 -o /data/local/tmp/godeye-perf.data "
            "--duration 1.000")
    end = end_cmds("''")
    want = start_cmds() + [(LOGCAT, S + ["shell", LOOP6], S + ["shell", perf])] + end[:4] + [
        S + ["shell", "uiautomator dump /data/local/tmp/godeye-window.xml"],
        S + ["exec-out", "cat /data/local/tmp/godeye-window.xml"],
        S + ["shell", "rm -f /data/local/tmp/godeye-window.xml"],
        S + ["shell", "simpleperf report-sample --show-callchain -i /data/local/tmp/godeye-perf.data"],
        S + ["shell", "rm -f /data/local/tmp/godeye-perf.data"],
        S + ["shell", "ls /data/anr"],
        S + ["exec-out", "cat '/data/anr/anr_2024-05-12-10-00-03-123'"],
        S + ["bugreport", os.path.join(e.out, "bugreport.zip")]]
    got = not_polled(e.log())
    # the sampler is stopped when the duration ends, unless it ended itself first
    got = [a for a in got if a != S + ["shell", "pkill -INT simpleperf"]]
    same_sequence(got, want, "rich")
    files = sorted(os.listdir(e.out))
    check(files == ["activity_top.txt", "anr", "bugreport.zip", "capture.json", "gfxinfo.txt", "logcat.txt",
                    "procstat.txt", "simpleperf-record.log", "simpleperf.txt", "window_dump.xml"],
          "rich: files %s" % files)
    check(os.listdir(os.path.join(e.out, "anr")) == ["anr_2024-05-12-10-00-03-123"], "rich: anr folder")
    m = e.manifest()
    check(m["options"]["sample"] is True and m["options"]["bugreport"] is True and m["warnings"] == [],
          "rich: manifest %s %s" % (m["options"], m["warnings"]))
    i = subprocess.run([godeye, "ingest", "--format", "json", e.out], env=e.env, capture_output=True, text=True)
    check(i.returncode == 0, "rich: ingest exit %d: %s" % (i.returncode, i.stderr))
    got = {os.path.relpath(x["source"], e.out): x["format"] for x in json.loads(i.stdout or "[]")}
    check(got.get("anr/anr_2024-05-12-10-00-03-123") == "anr" and got.get("simpleperf.txt") == "simpleperf"
          and got.get("window_dump.xml") == "uiautomator" and "bugreport.zip" in got
          and "simpleperf-record.log" not in got, "rich: ingested %s" % got)
    return 0


def case_sigint(godeye, corpus, sig=signal.SIGINT):
    e = Env(godeye, corpus if os.path.isdir(corpus) else "")
    e.props({PROP: "7"})  # a value set before: put back as it was
    p = e.start("--app", "com.example.jank", "--interval", "100", "-o", e.out)
    # wait on what the test needs, never on a fixed time: the sampler started
    # and both collectors have delivered into their files (the 50 s bound only
    # keeps a broken run from hanging)
    def delivered():
        return (any(a[-1].startswith("while :") for a in e.log())
                and all(os.path.exists(os.path.join(e.out, f)) and os.path.getsize(os.path.join(e.out, f)) > 0
                        for f in ("logcat.txt", "procstat.txt")))
    wait_for(delivered, "sigint: the collectors never delivered")
    check(e.props().get(PROP) == "50", "sigint: property not set during the capture: %s" % e.props())
    p.send_signal(sig)
    out, err = p.communicate(timeout=120)
    check(p.returncode == 0, "sigint: exit %s: %s" % (p.returncode, err))
    loop = "while :; do cat /proc/stat /proc/4292/stat /proc/uptime; sleep 0.100; done"
    same_sequence(e.log(), start_cmds() + [(LOGCAT, S + ["shell", loop])] + end_cmds("'7'"), "sigint")
    check(e.props().get(PROP) == "7", "sigint: property left at %r, want 7" % e.props().get(PROP))
    m = e.manifest()
    check(m["stopped_by"] == "signal" and m["looper_property"]["previous"] == "7"
          and m["looper_property"]["restored"] is True, "sigint: manifest %s" % m)
    check(os.path.getsize(os.path.join(e.out, "logcat.txt")) > 0, "sigint: logcat.txt empty")
    return 0


def case_fail(godeye, corpus, mode, args, text, want_log, code=1):
    e = Env(godeye, corpus if os.path.isdir(corpus) else "", mode)
    r = e.run(*[e.out if a == "OUT" else a for a in (args or ["--app", "com.example.jank", "--duration", "1s", "-o", "OUT"])])
    check(r.returncode == code, "%s: exit %d, want %d: %s" % (mode, r.returncode, code, r.stderr))
    one_line(r, text, mode)
    check(e.log() == want_log, "%s: adb commands %s, want %s" % (mode, e.log(), want_log))
    check(PROP not in e.props(), "%s: property touched: %s" % (mode, e.props()))
    check(not os.path.exists(e.out), "%s: folder %s left behind" % (mode, e.out))
    return 0


def case_disconnect(godeye, corpus):
    e = Env(godeye, "", "disconnect")
    r = e.run("--app", "com.example.jank", "--duration", "10s", "-o", e.out)
    check(r.returncode == 1, "disconnect: exit %d: %s" % (r.returncode, r.stderr))
    one_line(r, "device 'emulator-5554' disconnected; kept what was pulled in '%s'; reset the property when it "
                "is back: adb -s 'emulator-5554' shell \"setprop %s ''\"" % (e.out, PROP), "disconnect")
    log = e.log()
    check(log[-1] == S + ["get-state"] and [S + ["shell", "setprop %s 50" % PROP]] == [a for a in log if "setprop" in " ".join(a)],
          "disconnect: after the loss, only get-state: %s" % log[-3:])
    lines = open(os.path.join(e.out, "logcat.txt")).read().splitlines()
    check(len(lines) == 5 and all("Slow dispatch took 120ms" in l for l in lines), "disconnect: logcat kept %d lines" % len(lines))
    m = e.manifest()
    check(m["stopped_by"] == "disconnect" and m["looper_property"]["restored"] is False,
          "disconnect: manifest %s %s" % (m["stopped_by"], m["looper_property"]))
    return 0


def case_nologcat(godeye):
    """logcat fails but the device is there: said once, the capture goes on."""
    e = Env(godeye, "", "nologcat")
    r = e.run("--app", "com.example.jank", "--duration", "1s", "--interval", "200", "-o", e.out)
    check(r.returncode == 0, "nologcat: exit %d: %s" % (r.returncode, r.stderr))
    m = e.manifest()
    check(m["stopped_by"] == "duration" and m["warnings"].count("adb logcat ended before the capture did") == 1,
          "nologcat: manifest %s %s" % (m["stopped_by"], m["warnings"]))
    check(e.log().count(S + ["get-state"]) == 1, "nologcat: device checked %d times" % e.log().count(S + ["get-state"]))
    check(e.props().get(PROP) == "" and os.path.exists(os.path.join(e.out, "gfxinfo.txt")),
          "nologcat: the end was not collected")
    return 0


def case_failrestore(godeye):
    """the property cannot be put back, the device still there: said with
    the command to type, exit 1, never "done" (#25 item 17)"""
    e = Env(godeye, "", "failrestore")
    r = e.run("--app", "com.example.jank", "--duration", "1s", "--interval", "200", "-o", e.out)
    check(r.returncode == 1, "failrestore: exit %d: %s" % (r.returncode, r.stderr))
    one_line(r, "device 'emulator-5554': cannot restore %s: Failed to set property '%s' to ''.; kept what was "
                "pulled in '%s'; restore it with: adb -s 'emulator-5554' shell \"setprop %s ''\""
                % (PROP, PROP, e.out, PROP), "failrestore")
    check(e.props().get(PROP) == "50", "failrestore: property at %r" % e.props().get(PROP))
    sets = [a for a in e.log() if a[-1].startswith("setprop")]
    check(sets == [S + ["shell", "setprop %s 50" % PROP], S + ["shell", "setprop %s ''" % PROP]],
          "failrestore: setprop sent %s" % sets)
    m = e.manifest()
    check(m["looper_property"]["restored"] is False and os.path.exists(os.path.join(e.out, "gfxinfo.txt")),
          "failrestore: manifest %s" % m["looper_property"])
    return 0


def case_pullint(godeye, twice):
    """Ctrl-C while a pull hangs ends it at once (no 120 s timeout): the
    property is put back first, the hung adb killed, nothing pulled after.
    twice: the first Ctrl-C stops an open-ended capture, the second comes
    during the hung pull."""
    e = Env(godeye, "", "hangpull")
    prev = "7" if twice else ""
    if twice:
        e.props({PROP: "7"})
        p = e.start("--app", "com.example.jank", "--interval", "100", "-o", e.out)
        wait_for(lambda: os.path.exists(os.path.join(e.out, "logcat.txt"))
                 and os.path.getsize(os.path.join(e.out, "logcat.txt")) > 0, "pullint2: logcat never delivered")
        p.send_signal(signal.SIGINT)
    else:
        p = e.start("--app", "com.example.jank", "--duration", "1s", "--interval", "200", "-o", e.out)
    what = "pullint2" if twice else "pullint"
    wait_for(lambda: os.path.exists(os.path.join(e.state, "pull-hangs")), what + ": the pull never started")
    check(e.props().get(PROP) == prev, "%s: property not put back before the pulls: %s" % (what, e.props()))
    p.send_signal(signal.SIGINT)
    try:
        out, err = p.communicate(timeout=60)  # a hang guard: it ends at once
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        check(False, what + ": did not end after Ctrl-C during the hung pull")
    check(p.returncode == 1, "%s: exit %s: %s" % (what, p.returncode, err))
    r = subprocess.CompletedProcess(p.args, p.returncode, out, err)
    one_line(r, "interrupted while pulling from device 'emulator-5554' (the property was put back); kept what was "
                "pulled in '%s'; read it with: godeye ingest %s" % (e.out, e.out), what)
    log = e.log()
    check(log[-1] == S + ["shell", "dumpsys gfxinfo 'com.example.jank' framestats"],
          "%s: adb run after the interrupted pull: %s" % (what, log[-2:]))
    m = e.manifest()
    g = [f for f in m["files"] if f["path"] == "gfxinfo.txt"]
    check(m["stopped_by"] == ("signal" if twice else "duration") and m["looper_property"]["restored"] is True
          and g and g[0]["ok"] is False and g[0].get("error") == "interrupted"
          and not os.path.exists(os.path.join(e.out, "gfxinfo.txt")), "%s: manifest %s %s" % (what, m["stopped_by"], g))
    return 0


def case_noadb(godeye):
    e = Env(godeye, "")
    e.env["PATH"] = os.path.join(e.tmp, "empty")
    r = e.run("--app", "com.example.jank", "-o", e.out)
    check(r.returncode == 1, "noadb: exit %d: %s" % (r.returncode, r.stderr))
    one_line(r, "adb devices failed: cannot run adb: No such file or directory (install the 'adb' package)", "noadb")
    return 0


def main():
    godeye, corpus, case = sys.argv[1], os.environ.get("GODEYE_CORPUS") or sys.argv[2], sys.argv[3]
    dev = [["devices", "-l"]]
    pkg = dev + [S + ["shell", "dumpsys package 'com.example.jank'"]]
    cases = {
        "ok": lambda: case_ok(godeye, corpus),
        "sigint": lambda: case_sigint(godeye, corpus),
        "sighup": lambda: case_sigint(godeye, corpus, signal.SIGHUP),
        "rich": lambda: case_rich(godeye, corpus),
        "nodevice": lambda: case_fail(godeye, corpus, "nodevice", None, "no device attached", dev),
        "two": lambda: case_fail(godeye, corpus, "two", None, "2 devices attached: choose one with -s SERIAL", dev),
        "unauthorized": lambda: case_fail(godeye, corpus, "unauthorized", None,
                                          "device 'R58M123ABC' is unauthorized", dev),
        "unknownpkg": lambda: case_fail(godeye, corpus, "unknownpkg", None,
                                        "unknown package 'com.example.jank' on device 'emulator-5554'", pkg),
        "badserial": lambda: case_fail(godeye, corpus, "ok", ["--app", "com.example.jank", "-s", "nosuch", "-o",
                                                              "OUT"],
                                       "no device 'nosuch' attached", dev),
        "badpkg": lambda: case_fail(godeye, corpus, "ok", ["--app", "com.example;reboot", "-o",
                                                           "OUT"],
                                    "not a Java package name: 'com.example;reboot'", [], code=2),
        "disconnect": lambda: case_disconnect(godeye, corpus),
        "noadb": lambda: case_noadb(godeye),
        "nologcat": lambda: case_nologcat(godeye),
        "failrestore": lambda: case_failrestore(godeye),
        "pullint": lambda: case_pullint(godeye, False),
        "pullint2": lambda: case_pullint(godeye, True),
    }
    rc = cases[case]()
    if rc == 77:
        return 77
    for p in problems:
        print(p)
    print("%d passed, %d failed" % (0 if problems else 1, 1 if problems else 0))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
