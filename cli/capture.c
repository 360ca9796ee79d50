/* capture.c - `godeye capture`: collects an app's logcat, frame stats, CPU
 * samples, view dump and launch times from a phone over adb into a folder
 * that `godeye ingest DIR` reads, with a capture.json manifest. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "capture/adb.h"
#include "builtins.h"
#include "capture/capture.h"
#include "core/escape.h"

static const char *const usage_line =
    "godeye capture --app PKG [-s SERIAL] [--duration D] [--launch ACTIVITY] [--slow-ms MS] "
    "[--interval MS] [--sample] [--uiautomator] [--bugreport] [--ingest] -o DIR";

static volatile sig_atomic_t g_stop; /* the signal that asked to stop, 0 = none */

static void on_signal(int sig) { g_stop = sig; }

typedef struct cap {
    const char *serial;  /* chosen device */
    const char *dir;
    json_t *files;       /* manifest "files" */
    json_t *warnings;
    int disconnected;
} cap;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (double)t.tv_sec * 1000.0 + (double)t.tv_nsec / 1e6;
}

/* The command as the manifest records it (argv joined by spaces). */
static json_t *cmd_text(const cap *c, const char *const *args)
{
    char buf[2048];
    gd_adb_cmdline(c ? c->serial : NULL, args, buf, sizeof buf);
    return json_string(buf);
}

static int run_adb(cap *c, const char *const *args, int out_fd, char **out, char *err, size_t errn,
                   double timeout_ms)
{
    return gd_adb_run(c ? c->serial : NULL, args, out_fd, out, err, errn, timeout_ms);
}

/* adb shell with one command line (already quoted where needed). */
static int shell(cap *c, const char *cmdline, int out_fd, char **out, char *err, size_t errn)
{
    const char *args[] = {"shell", cmdline, NULL};
    return run_adb(c, args, out_fd, out, err, errn, 120000);
}

/* Is the device still there?  (`adb -s SERIAL get-state` says "device") */
static int device_alive(cap *c)
{
    const char *args[] = {"get-state", NULL};
    char *out = NULL;
    int rc = run_adb(c, args, -1, &out, NULL, 0, 10000);
    int ok = rc == 0 && out && strncmp(out, "device", 6) == 0;
    free(out);
    return ok;
}

static void warn(cap *c, const char *msg) { json_array_append_new(c->warnings, json_string(msg)); }

/* Runs a shell command into DIR/name and records it in the manifest.
 * Returns 0, or -1 when it failed (recorded; c->disconnected set when the
 * device is gone). */
static int to_file(cap *c, const char *name, const char *what, const char *const *args, double timeout_ms)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", c->dir, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        char m[600];
        snprintf(m, sizeof m, "cannot write %s: %s", name, strerror(errno));
        warn(c, m);
        return -1;
    }
    char err[512];
    int rc = run_adb(c, args, fd, NULL, err, sizeof err, timeout_ms);
    struct stat sb;
    long long size = fstat(fd, &sb) == 0 ? (long long)sb.st_size : 0;
    close(fd);
    json_t *f = json_pack("{s:s, s:s, s:o, s:I, s:b}", "path", name, "what", what, "command", cmd_text(c, args),
                          "bytes", (json_int_t)size, "ok", rc == 0);
    if (rc != 0) {
        json_object_set_new(f, "error", json_string(*err ? err : "adb failed"));
        if (!device_alive(c))
            c->disconnected = 1;
    }
    if (rc != 0 && size == 0)
        unlink(path); /* nothing pulled: no empty file to mislead ingest */
    json_array_append_new(c->files, f);
    return rc == 0 ? 0 : -1;
}

/* A background adb (logcat, the sampling loop, simpleperf) writing to DIR/name. */
/* A background collector and what the manifest says of it. */
typedef struct bg {
    gd_adb_bg a;
    const char *name, *what;
    json_t *cmd;
} bg;

static void bg_init(bg *b)
{
    gd_adb_bg_init(&b->a);
    b->name = b->what = NULL;
    b->cmd = NULL;
}

static int bg_start(cap *c, bg *b, const char *name, const char *what, const char *const *args)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", c->dir, name);
    bg_init(b);
    b->name = name;
    b->what = what;
    b->cmd = cmd_text(c, args);
    return gd_adb_bg_start(&b->a, c->serial, args, path);
}

static void bg_stop(cap *c, bg *b)
{
    gd_adb_bg_stop(&b->a);
    if (!b->name)
        return;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", c->dir, b->name);
    struct stat sb;
    long long size = stat(path, &sb) == 0 ? (long long)sb.st_size : 0;
    json_t *f = json_pack("{s:s, s:s, s:o, s:I, s:b, s:I}", "path", b->name, "what", b->what, "command",
                          b->cmd ? b->cmd : json_null(), "bytes", (json_int_t)size, "ok", size > 0,
                          "lines", (json_int_t)b->a.lines);
    json_array_append_new(c->files, f);
    if (size == 0)
        unlink(path); /* nothing came: no empty file to mislead ingest */
    b->cmd = NULL;
    b->name = NULL;
}

/* Device clocks against the host's: wall, uptime and their offset. */
static json_t *clocks(cap *c)
{
    char *out = NULL;
    double h0 = now_ms();
    int rc = shell(c, gd_capture_clock_cmd, -1, &out, NULL, 0);
    double h1 = now_ms();
    double wall, up;
    json_t *j;
    if (rc == 0 && gd_capture_parse_clock(out, &wall, &up) == 0) {
        double host = (h0 + h1) / 2;
        j = json_pack("{s:f, s:f, s:f, s:f, s:f, s:f}", "host_ms", round(host), "device_wall_ms", wall,
                      "device_uptime_ms", up, "device_boot_ms", wall - up, "offset_ms",
                      round(wall - host), "round_trip_ms", round(h1 - h0));
    } else
        j = json_null();
    free(out);
    return j;
}

static void status_line(int tty, double elapsed, const bg *lc, const bg *ps)
{
    if (!tty)
        return;
    fprintf(stderr, "\rgodeye capture: %.0f s, %ld logcat lines, %ld cpu samples   ", elapsed / 1000,
            lc->a.lines, ps->a.samples);
    fflush(stderr);
}

static int fail(const char *msg)
{
    fputs("godeye capture: ", stderr);
    gd_fputs_escaped(msg, stderr);
    fputc('\n', stderr);
    return GD_EXIT_FAIL;
}

int cmd_capture(int argc, char **argv, gd_ctx *ctx)
{
    const char *app = NULL, *serial = NULL, *duration = NULL, *launch = NULL, *outdir = NULL;
    long slow_ms = 50, interval = 1000;
    int sample = 0, bugreport = 0, do_ingest = 0, uia = 0;
    const gd_option opts[] = {
        OPT_STRING_(0, "app", &app, "PKG", "the app's package name (required)"),
        OPT_STRING_('s', "serial", &serial, "SERIAL", "the device (as adb devices lists it) when several are attached"),
        OPT_STRING_(0, "duration", &duration, "D", "how long: 60s, 500ms, 2m (default: until Ctrl-C)"),
        OPT_STRING_(0, "launch", &launch, "ACTIVITY", "cold-start this activity with am start -W -S (e.g. .MainActivity)"),
        OPT_INT_(0, "slow-ms", &slow_ms, "MS", "Looper slow dispatch/delivery threshold to log (default 50)"),
        OPT_INT_(0, "interval", &interval, "MS", "CPU sampling interval of /proc/stat (default 1000)"),
        OPT_BOOL_(0, "sample", &sample, "sample the main thread with simpleperf (profileable apps)"),
        OPT_BOOL_(0, "uiautomator", &uia, "also take a uiautomator dump of the screen at the end"),
        OPT_BOOL_(0, "bugreport", &bugreport, "also take an adb bugreport zip at the end (slow)"),
        OPT_BOOL_(0, "ingest", &do_ingest, "ingest the folder into the database at the end"),
        OPT_STRING_('o', "output", &outdir, "DIR", "the folder to write (created; must be absent or empty)"),
        OPT_END_(),
    };
    int nargs, rc = gd_parse_options(argc, argv, opts, usage_line, &nargs);
    if (rc)
        return rc == 1 ? GD_EXIT_OK : GD_EXIT_USAGE;
    if (nargs || !app || !outdir) {
        fprintf(stderr, "godeye capture: %s\n",
                nargs ? "unexpected argument" : !app ? "name the app with --app PKG" : "name the folder with -o DIR");
        gd_print_usage(stderr, usage_line, opts);
        return GD_EXIT_USAGE;
    }
    if (!gd_capture_valid_package(app)) {
        fputs("godeye capture: not a Java package name: '", stderr);
        gd_fputs_escaped(app, stderr);
        fputs("'\n", stderr);
        return GD_EXIT_USAGE;
    }
    if (launch && !gd_capture_valid_activity(launch)) {
        fputs("godeye capture: not an activity class name: '", stderr);
        gd_fputs_escaped(launch, stderr);
        fputs("'\n", stderr);
        return GD_EXIT_USAGE;
    }
    double dur_ms = 0;
    if (duration && gd_capture_parse_duration(duration, &dur_ms)) {
        fputs("godeye capture: not a duration (60s, 500ms, 2m): '", stderr);
        gd_fputs_escaped(duration, stderr);
        fputs("'\n", stderr);
        return GD_EXIT_USAGE;
    }
    if (slow_ms < 0 || slow_ms > 600000 || interval < 10 || interval > 3600000) {
        fprintf(stderr, "godeye capture: --slow-ms takes 0..600000 and --interval 10..3600000\n");
        return GD_EXIT_USAGE;
    }
    if (serial && (!*serial || gd_has_ctrl(serial) || *serial == '-')) {
        fprintf(stderr, "godeye capture: not a device serial\n");
        return GD_EXIT_USAGE;
    }
    int created = mkdir(outdir, 0755) == 0;
    if (!created) {
        char m[600];
        int mkerr = errno;
        DIR *d = mkerr == EEXIST ? opendir(outdir) : NULL;
        struct dirent *e;
        int used = 0;
        while (d && (e = readdir(d)))
            used |= strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
        if (d)
            closedir(d);
        if (!d || used) {
            snprintf(m, sizeof m, d ? "'%.500s' is not empty: name a new folder" : "cannot create '%.500s': %s",
                     outdir, strerror(mkerr));
            return fail(m);
        }
    }

    struct sigaction sa = {0}, old_int, old_term;
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    signal(SIGPIPE, SIG_IGN);
    g_stop = 0;

    cap c = {NULL, outdir, json_array(), json_array(), 0};
    json_t *man = json_object();
    char chosen[256] = "", err[1024] = "", msg[2048] = "";
    char *out = NULL;
    int exit_code = GD_EXIT_FAIL;
    int prop_set = 0, prop_restored = 0, started = 0;
    char prop[128] = "", prev[128] = "";
    gd_capture_pkg pkg = {0};
    bg lc, ps, sp;
    bg_init(&lc);
    bg_init(&ps);
    bg_init(&sp);
    const char *stopped_by = "error";
    long pid = -1;

    /* 1. the device */
    const char *dev_args[] = {"devices", "-l", NULL};
    rc = run_adb(NULL, dev_args, -1, &out, err, sizeof err, 30000);
    if (rc != 0) {
        snprintf(msg, sizeof msg, "adb devices failed: %s", *err ? err : "no answer");
        goto out_fail;
    }
    gd_error derr = {0};
    if (gd_capture_pick_device(out, serial, chosen, sizeof chosen, &derr) != GD_DEV_OK) {
        snprintf(msg, sizeof msg, "%s", derr.msg);
        goto out_fail;
    }
    free(out);
    out = NULL;
    c.serial = chosen;

    /* 2. the app: known?  its uid and version */
    char q[1024] = "dumpsys package ";
    gd_capture_quote(q, sizeof q, app);
    if (shell(&c, q, -1, &out, err, sizeof err) != 0) {
        snprintf(msg, sizeof msg, "device '%s': dumpsys package failed: %s", chosen, *err ? err : "no answer");
        goto out_fail;
    }
    gd_capture_parse_package(out, app, &pkg);
    free(out);
    out = NULL;
    if (pkg.uid < 0) {
        snprintf(msg, sizeof msg, "unknown package '%s' on device '%s' (adb shell pm list packages lists the installed ones)",
                 app, chosen);
        goto out_fail;
    }

    /* 3. device properties and the Looper property's value before */
    if (shell(&c, "getprop", -1, &out, err, sizeof err) != 0) {
        snprintf(msg, sizeof msg, "device '%s': getprop failed: %s", chosen, *err ? err : "no answer");
        goto out_fail;
    }
    gd_capture_looper_prop(prop, sizeof prop, pkg.uid);
    json_t *dev = json_pack("{s:s}", "serial", chosen);
    static const char *const keys[][2] = {{"manufacturer", "ro.product.manufacturer"},
                                          {"model", "ro.product.model"},
                                          {"android_release", "ro.build.version.release"},
                                          {"sdk", "ro.build.version.sdk"},
                                          {"fingerprint", "ro.build.fingerprint"},
                                          {"timezone", "persist.sys.timezone"}};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        char v[256];
        json_object_set_new(dev, keys[i][0], gd_capture_getprop(out, keys[i][1], v, sizeof v) ? json_string(v) : json_null());
    }
    gd_capture_getprop(out, prop, prev, sizeof prev);
    free(out);
    out = NULL;
    json_object_set_new(man, "device", dev);
    if (g_stop) {
        snprintf(msg, sizeof msg, "interrupted before the capture started; nothing was changed on the device");
        goto out_fail;
    }

    /* 4. clocks, the property, a clean logcat, the app restarted */
    json_t *clk = json_object();
    json_object_set_new(clk, "start", clocks(&c));
    json_object_set_new(man, "clocks", clk);
    char setp[512];
    snprintf(setp, sizeof setp, "setprop %s %ld", prop, slow_ms);
    if (shell(&c, setp, -1, NULL, err, sizeof err) != 0) {
        snprintf(msg, sizeof msg, "device '%s': cannot set %s: %s", chosen, prop, *err ? err : "setprop failed");
        goto out_fail;
    }
    prop_set = started = 1;
    const char *clear_args[] = {"logcat", "-b", "main", "-b", "system", "-b", "events", "-c", NULL};
    run_adb(&c, clear_args, -1, NULL, NULL, 0, 30000);
    if (launch) {
        char comp[1024] = "am start -W -S -n ";
        char target[800];
        snprintf(target, sizeof target, "%s/%s", app, launch);
        gd_capture_quote(comp, sizeof comp, target);
        const char *args[] = {"shell", comp, NULL};
        to_file(&c, "am_start.txt", "am start -W: cold launch time", args, 120000);
    } else {
        char fs[600] = "am force-stop ";
        gd_capture_quote(fs, sizeof fs, app);
        shell(&c, fs, -1, NULL, NULL, 0);
        char mk[700] = "monkey -p ";
        gd_capture_quote(mk, sizeof mk, app);
        strncat(mk, " -c android.intent.category.LAUNCHER 1", sizeof mk - strlen(mk) - 1);
        shell(&c, mk, -1, NULL, NULL, 0);
    }
    char pq[600] = "pidof ";
    gd_capture_quote(pq, sizeof pq, app);
    for (int i = 0; i < 10 && pid <= 0 && !g_stop && !c.disconnected; i++) {
        if (i)
            usleep(300000);
        if (shell(&c, pq, -1, &out, NULL, 0) == 0 && out)
            pid = strtol(out, NULL, 10);
        free(out);
        out = NULL;
    }
    if (pid <= 0) {
        pid = -1;
        warn(&c, "the app's process was not found (pidof): CPU samples have no process counters");
    }
    char gr[600] = "dumpsys gfxinfo ";
    gd_capture_quote(gr, sizeof gr, app);
    strncat(gr, " reset", sizeof gr - strlen(gr) - 1);
    shell(&c, gr, -1, NULL, NULL, 0);

    /* 5. the background collectors */
    const char *lc_args[] = {"logcat", "-v", "threadtime", "-b", "main", "-b", "system", "-b", "events", NULL};
    bg_start(&c, &lc, "logcat.txt", "logcat -v threadtime (main, system, events)", lc_args);
    char loop[1024];
    long count = dur_ms > 0 ? (long)ceil(dur_ms / (double)interval) + 1 : 0;
    gd_capture_procstat_loop(loop, sizeof loop, pid, interval, count);
    const char *ps_args[] = {"shell", loop, NULL};
    bg_start(&c, &ps, "procstat.txt", "/proc/stat, /proc/PID/stat, /proc/uptime every interval", ps_args);
    char perf[1024] = "";
    if (sample) {
        if (pid > 0) {
            char pa[600] = "";
            gd_capture_quote(pa, sizeof pa, app);
            snprintf(perf, sizeof perf,
                     "simpleperf record --app %s -t %ld -g -f 1000 -o /data/local/tmp/godeye-perf.data", pa, pid);
            if (dur_ms > 0) {
                char d[64];
                snprintf(d, sizeof d, " --duration %.3f", dur_ms / 1000);
                strncat(perf, d, sizeof perf - strlen(perf) - 1);
            }
            const char *sp_args[] = {"shell", perf, NULL};
            bg_start(&c, &sp, "simpleperf-record.log", "simpleperf record (its messages)", sp_args);
        } else
            warn(&c, "--sample: no app process to sample");
    }

    /* 6. wait: the duration counts from when the collectors deliver (logcat
     * prints its "--------- beginning of" lines at once), at most 10 s on */
    double t_start = gd_adb_mono_ms();
    while (!g_stop && gd_adb_mono_ms() - t_start < 10000 && !gd_adb_bg_done(&lc.a) && !gd_adb_bg_done(&ps.a)) {
        gd_adb_bg_count(&lc.a);
        gd_adb_bg_count(&ps.a);
        if (lc.a.lines > 0 && ps.a.samples > 0)
            break;
        usleep(20000);
    }
    t_start = gd_adb_mono_ms();
    int tty = isatty(2), lc_ended = 0, ps_ended = 0;
    stopped_by = "duration";
    for (;;) {
        double el = gd_adb_mono_ms() - t_start;
        gd_adb_bg_count(&lc.a);
        gd_adb_bg_count(&ps.a);
        status_line(tty, el, &lc, &ps);
        if (g_stop) {
            stopped_by = "signal";
            break;
        }
        if (dur_ms > 0 && el >= dur_ms)
            break;
        /* a collector that ends early: the device is gone, or it failed */
        int lc_end = !lc_ended && gd_adb_bg_done(&lc.a), ps_end = !ps_ended && gd_adb_bg_done(&ps.a);
        if (lc_end || ps_end) {
            lc_ended |= lc_end;
            ps_ended |= ps_end;
            if (!device_alive(&c)) {
                c.disconnected = 1;
                stopped_by = "disconnect";
                break;
            }
            if (lc_end)
                warn(&c, "adb logcat ended before the capture did");
            if (ps_end && dur_ms <= 0)
                warn(&c, "the CPU sampling loop ended before the capture did");
        }
        usleep(100000);
    }
    if (tty)
        fputc('\n', stderr);

    /* 7. stop, restore, collect the end state */
    if (sample && sp.a.pid >= 0 && !c.disconnected) {
        shell(&c, "pkill -INT simpleperf", -1, NULL, NULL, 0);
        for (int i = 0; i < 100 && !gd_adb_bg_done(&sp.a); i++)
            usleep(50000);
    }
    bg_stop(&c, &ps);
    bg_stop(&c, &lc);
    bg_stop(&c, &sp);
    char rs[512] = "";
    if (!c.disconnected) {
        snprintf(rs, sizeof rs, "setprop %s ", prop);
        gd_capture_quote(rs, sizeof rs, prev);
        if (shell(&c, rs, -1, NULL, NULL, 0) == 0)
            prop_restored = 1;
        prop_set = !prop_restored;
    }
    if (!c.disconnected)
        json_object_set_new(clk, "end", clocks(&c));
    if (!c.disconnected) {
        char fq[600] = "dumpsys gfxinfo ";
        gd_capture_quote(fq, sizeof fq, app);
        strncat(fq, " framestats", sizeof fq - strlen(fq) - 1);
        const char *a[] = {"shell", fq, NULL};
        to_file(&c, "gfxinfo.txt", "dumpsys gfxinfo framestats (since the reset at the start)", a, 120000);
    }
    if (!c.disconnected) {
        const char *a[] = {"shell", "dumpsys activity top", NULL};
        to_file(&c, "activity_top.txt", "dumpsys activity top: view hierarchies", a, 120000);
    }
    if (!c.disconnected && uia) {
        shell(&c, "uiautomator dump /data/local/tmp/godeye-window.xml", -1, NULL, NULL, 0);
        const char *a[] = {"exec-out", "cat /data/local/tmp/godeye-window.xml", NULL};
        to_file(&c, "window_dump.xml", "uiautomator dump", a, 60000);
        shell(&c, "rm -f /data/local/tmp/godeye-window.xml", -1, NULL, NULL, 0);
    }
    if (!c.disconnected && sample && perf[0]) {
        const char *a[] = {"shell", "simpleperf report-sample --show-callchain -i /data/local/tmp/godeye-perf.data", NULL};
        to_file(&c, "simpleperf.txt", "simpleperf report-sample --show-callchain (text)", a, 300000);
        shell(&c, "rm -f /data/local/tmp/godeye-perf.data", -1, NULL, NULL, 0);
    }
    if (!c.disconnected) { /* ANR dumps where the shell may read them */
        /* adb before Android 7 has no exit status and mixes in stderr */
        if (shell(&c, "ls /data/anr", -1, &out, NULL, 0) == 0 && out && !strstr(out, "ermission denied") &&
            !strstr(out, "No such file")) {
            char anrdir[4096];
            snprintf(anrdir, sizeof anrdir, "%s/anr", outdir);
            for (char *s = strtok(out, " \r\n\t"); s; s = strtok(NULL, " \r\n\t")) {
                if (strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") != strlen(s) ||
                    *s == '.' || c.disconnected)
                    continue;
                mkdir(anrdir, 0755);
                char name[512], cat[600] = "cat ", file[512];
                snprintf(name, sizeof name, "anr/%s", s);
                snprintf(file, sizeof file, "/data/anr/%s", s);
                gd_capture_quote(cat, sizeof cat, file);
                const char *a[] = {"exec-out", cat, NULL};
                to_file(&c, name, "ANR dump from /data/anr", a, 120000);
            }
        } else
            warn(&c, "/data/anr is not readable from adb shell on this device (use --bugreport for ANR dumps)");
        free(out);
        out = NULL;
    }
    if (!c.disconnected && bugreport) {
        char bp[4096];
        snprintf(bp, sizeof bp, "%s/bugreport.zip", outdir);
        const char *a[] = {"bugreport", bp, NULL};
        if (tty)
            fprintf(stderr, "godeye capture: adb bugreport (this takes a minute or more)\n");
        int brc = run_adb(&c, a, -1, NULL, err, sizeof err, 900000);
        struct stat sb;
        json_array_append_new(c.files,
                              json_pack("{s:s, s:s, s:o, s:I, s:b}", "path", "bugreport.zip", "what", "adb bugreport",
                                        "command", cmd_text(&c, a), "bytes",
                                        (json_int_t)(stat(bp, &sb) == 0 ? sb.st_size : 0), "ok", brc == 0));
        if (brc != 0 && !device_alive(&c))
            c.disconnected = 1;
    }
    if (c.disconnected)
        stopped_by = "disconnect";
    exit_code = GD_EXIT_OK;

out_fail:
    free(out);
    out = NULL;
    /* whatever happened: the property back as it was, the collectors stopped */
    bg_stop(&c, &ps);
    bg_stop(&c, &lc);
    bg_stop(&c, &sp);
    if (prop_set && !c.disconnected) {
        snprintf(rs, sizeof rs, "setprop %s ", prop);
        gd_capture_quote(rs, sizeof rs, prev);
        if (shell(&c, rs, -1, NULL, NULL, 0) == 0) {
            prop_restored = 1;
            prop_set = 0;
        }
    }
    if (!started && created)
        rmdir(outdir); /* nothing was changed or pulled: no folder left behind */
    if (started) { /* the device was changed: the folder describes what came of it */
        json_object_set_new(man, "godeye_capture", json_integer(1));
        json_object_set_new(man, "tool", json_string("godeye " GODEYE_VERSION));
        json_object_set_new(man, "app",
                            json_pack("{s:s, s:o, s:o, s:I, s:o}", "package", app, "version_name",
                                      pkg.version_name[0] ? json_string(pkg.version_name) : json_null(),
                                      "version_code", pkg.version_code >= 0 ? json_integer(pkg.version_code) : json_null(),
                                      "uid", (json_int_t)pkg.uid, "pid", pid > 0 ? json_integer(pid) : json_null()));
        json_object_set_new(man, "options",
                            json_pack("{s:o, s:I, s:I, s:o, s:b, s:b, s:b}", "duration_ms",
                                      dur_ms > 0 ? json_real(dur_ms) : json_null(), "slow_ms", (json_int_t)slow_ms,
                                      "interval_ms", (json_int_t)interval, "launch",
                                      launch ? json_string(launch) : json_null(), "sample", sample, "uiautomator", uia,
                                      "bugreport", bugreport));
        if (prop[0])
            json_object_set_new(man, "looper_property",
                                json_pack("{s:s, s:s, s:I, s:b}", "name", prop, "previous", prev, "value",
                                          (json_int_t)slow_ms, "restored", prop_restored || !prop_set));
        json_object_set_new(man, "stopped_by", json_string(exit_code == GD_EXIT_OK ? stopped_by : "error"));
        json_object_set_new(man, "files", c.files);
        json_object_set_new(man, "warnings", c.warnings);
        c.files = c.warnings = NULL;
        char mp[4096], tmp[4200];
        snprintf(mp, sizeof mp, "%s/capture.json", outdir);
        FILE *f = gd_cli_out_open(mp, tmp, sizeof tmp);
        int ok = f && json_dumpf(man, f, JSON_INDENT(2) | JSON_SORT_KEYS) == 0 && fputc('\n', f) != EOF;
        if (!f || gd_cli_out_close(f, tmp, mp, ok))
            if (exit_code == GD_EXIT_OK) {
                snprintf(msg, sizeof msg, "cannot write '%.1900s'", mp);
                exit_code = GD_EXIT_FAIL;
            }
    }
    json_decref(man);
    json_decref(c.files);
    json_decref(c.warnings);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    if (c.disconnected) {
        char again[300] = "";
        if (prop_set) {
            snprintf(again, sizeof again, "; reset the property when it is back: adb shell setprop %s ", prop);
            gd_capture_quote(again, sizeof again, prev);
        }
        snprintf(msg, sizeof msg, "device '%s' disconnected; kept what was pulled in '%s'%s", chosen, outdir, again);
        return fail(msg);
    }
    if (exit_code != GD_EXIT_OK)
        return fail(msg);
    if (do_ingest) {
        char *iv[] = {"ingest", (char *)outdir, NULL};
        return cmd_ingest(2, iv, ctx);
    }
    fprintf(stderr, "godeye capture: wrote '%s' (%s); read it with: godeye ingest %s\n", outdir,
            strcmp(stopped_by, "signal") == 0 ? "stopped by a signal" : "done", outdir);
    return GD_EXIT_OK;
}
