/* capture.c - `godeye capture`: collects an app's logcat, frame stats, CPU
 * samples, view dump and launch times from a phone over adb into a folder
 * that `godeye ingest DIR` reads, with a capture.json manifest. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtins.h"
#include "capture/adb.h"
#include "capture/capture.h"
#include "capture/record.h"
#include "core/escape.h"

static const char *const usage_line =
    "godeye capture --app PKG [-s SERIAL] [--duration D] [--launch ACTIVITY] [--slow-ms MS] "
    "[--interval MS] [--sample] [--uiautomator] [--bugreport] [--ingest] -o DIR";

static volatile sig_atomic_t g_stop; /* the signal that asked to stop, 0 = none */
static volatile sig_atomic_t g_nsig; /* how many came: one past the capture's stop cuts a pull short */

static void on_signal(int sig)
{
    g_stop = sig;
    g_nsig++;
}

static void status_line(int tty, double elapsed, const cap_bg *lc, const cap_bg *ps)
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

/* Everything one capture run holds: its options, the device's answers, the
 * collectors and the manifest being built. */
typedef struct capture_run {
    /* the options */
    const char *app, *serial, *duration, *launch, *outdir;
    long slow_ms, interval;
    int sample, bugreport, do_ingest, uia;
    double dur_ms;
    /* the run */
    cap c;
    json_t *man, *clk;
    char chosen[256], err[1024], msg[2048];
    int created, started, prop_set, prop_restored, restore_tried, tty, exit_code;
    char prop[128], prev[128], perf[1024], restore_err[256];
    gd_capture_pkg pkg;
    cap_bg lc, ps, sp;
    const char *stopped_by;
    long pid;
} capture_run;

static int bad_arg(const char *what, const char *v)
{
    fprintf(stderr, "godeye capture: %s: '", what);
    gd_fputs_escaped(v, stderr);
    fputs("'\n", stderr);
    return GD_EXIT_USAGE;
}

/* Parses and checks the options into r; -1 to go on, else the exit code. */
static int parse_options(capture_run *r, int argc, char **argv)
{
    const gd_option opts[] = {
        OPT_STRING_(0, "app", &r->app, "PKG", "the app's package name (required)"),
        OPT_STRING_('s', "serial", &r->serial, "SERIAL", "the device (as adb devices lists it) when several are attached"),
        OPT_STRING_(0, "duration", &r->duration, "D", "how long: 60s, 500ms, 2m (default: until Ctrl-C)"),
        OPT_STRING_(0, "launch", &r->launch, "ACTIVITY", "cold-start this activity with am start -W -S (e.g. .MainActivity)"),
        OPT_INT_(0, "slow-ms", &r->slow_ms, "MS", "Looper slow dispatch/delivery threshold to log (default 50)"),
        OPT_INT_(0, "interval", &r->interval, "MS", "CPU sampling interval of /proc/stat (default 1000)"),
        OPT_BOOL_(0, "sample", &r->sample, "sample the main thread with simpleperf (profileable apps)"),
        OPT_BOOL_(0, "uiautomator", &r->uia, "also take a uiautomator dump of the screen at the end"),
        OPT_BOOL_(0, "bugreport", &r->bugreport, "also take an adb bugreport zip at the end (slow)"),
        OPT_BOOL_(0, "ingest", &r->do_ingest, "ingest the folder into the database at the end"),
        OPT_STRING_('o', "output", &r->outdir, "DIR", "the folder to write (created; must be absent or empty)"),
        OPT_END_(),
    };
    int nargs, rc = gd_parse_options(argc, argv, opts, usage_line, &nargs);
    if (rc)
        return rc == 1 ? GD_EXIT_OK : GD_EXIT_USAGE;
    if (nargs || !r->app || !r->outdir) {
        fprintf(stderr, "godeye capture: %s\n",
                nargs ? "unexpected argument" : !r->app ? "name the app with --app PKG" : "name the folder with -o DIR");
        gd_print_usage(stderr, usage_line, opts);
        return GD_EXIT_USAGE;
    }
    if (!gd_capture_valid_package(r->app))
        return bad_arg("not a Java package name", r->app);
    if (r->launch && !gd_capture_valid_activity(r->launch))
        return bad_arg("not an activity class name", r->launch);
    if (r->duration && gd_capture_parse_duration(r->duration, &r->dur_ms))
        return bad_arg("not a duration (60s, 500ms, 2m)", r->duration);
    if (r->slow_ms < 0 || r->slow_ms > 600000 || r->interval < 10 || r->interval > 3600000) {
        fprintf(stderr, "godeye capture: --slow-ms takes 0..600000 and --interval 10..3600000\n");
        return GD_EXIT_USAGE;
    }
    if (r->serial && (!*r->serial || gd_has_ctrl(r->serial) || *r->serial == '-')) {
        fprintf(stderr, "godeye capture: not a device serial\n");
        return GD_EXIT_USAGE;
    }
    return -1;
}

/* Creates the output folder (or takes an empty one); -1 to go on, else the exit code. */
static int make_outdir(capture_run *r)
{
    r->created = mkdir(r->outdir, 0755) == 0;
    if (r->created)
        return -1;
    char m[600];
    int mkerr = errno;
    DIR *d = mkerr == EEXIST ? opendir(r->outdir) : NULL;
    struct dirent *e;
    int used = 0;
    while (d && (e = readdir(d)))
        used |= strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    if (d)
        closedir(d);
    if (!d || used) {
        snprintf(m, sizeof m, d ? "'%.500s' is not empty: name a new folder" : "cannot create '%.500s': %s",
                 r->outdir, strerror(mkerr));
        return fail(m);
    }
    return -1;
}

/* 1. the device; 0, or -1 with r->msg set */
static int find_device(capture_run *r)
{
    const char *dev_args[] = {"devices", "-l", NULL};
    char *out = NULL;
    int rc = -1;
    gd_error derr = {0};
    if (gd_cap_run_adb(NULL, dev_args, -1, &out, r->err, sizeof r->err, 30000) != 0)
        snprintf(r->msg, sizeof r->msg, "adb devices failed: %s", *r->err ? r->err : "no answer");
    else if (gd_capture_pick_device(out, r->serial, r->chosen, sizeof r->chosen, &derr) != GD_DEV_OK)
        snprintf(r->msg, sizeof r->msg, "%s", derr.msg);
    else
        rc = 0;
    free(out);
    if (!rc)
        r->c.serial = r->chosen;
    return rc;
}

/* 2. the app: known?  its uid and version; 0, or -1 with r->msg set */
static int check_app(capture_run *r)
{
    char q[1024] = "dumpsys package ", *out = NULL;
    gd_capture_quote(q, sizeof q, r->app);
    if (gd_cap_shell(&r->c, q, -1, &out, r->err, sizeof r->err) != 0) {
        free(out);
        snprintf(r->msg, sizeof r->msg, "device '%s': dumpsys package failed: %s", r->chosen,
                 *r->err ? r->err : "no answer");
        return -1;
    }
    gd_capture_parse_package(out, r->app, &r->pkg);
    free(out);
    if (r->pkg.uid < 0) {
        snprintf(r->msg, sizeof r->msg,
                 "unknown package '%s' on device '%s' (adb shell pm list packages lists the installed ones)",
                 r->app, r->chosen);
        return -1;
    }
    return 0;
}

/* 3. device properties and the Looper property's value before; 0, or -1 with r->msg set */
static int read_device(capture_run *r)
{
    char *out = NULL;
    if (gd_cap_shell(&r->c, "getprop", -1, &out, r->err, sizeof r->err) != 0) {
        free(out);
        snprintf(r->msg, sizeof r->msg, "device '%s': getprop failed: %s", r->chosen,
                 *r->err ? r->err : "no answer");
        return -1;
    }
    gd_capture_looper_prop(r->prop, sizeof r->prop, r->pkg.uid);
    json_t *dev = json_pack("{s:s}", "serial", r->chosen);
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
    gd_capture_getprop(out, r->prop, r->prev, sizeof r->prev);
    free(out);
    json_object_set_new(r->man, "device", dev);
    if (g_stop) {
        snprintf(r->msg, sizeof r->msg, "interrupted before the capture started; nothing was changed on the device");
        return -1;
    }
    return 0;
}

/* The app's process id after a start (pidof, a few tries); -1 when not found. */
static long find_pid(capture_run *r)
{
    char pq[600] = "pidof ", *out = NULL;
    long pid = -1;
    gd_capture_quote(pq, sizeof pq, r->app);
    for (int i = 0; i < 10 && pid <= 0 && !g_stop && !r->c.disconnected; i++) {
        if (i)
            usleep(300000);
        if (gd_cap_shell(&r->c, pq, -1, &out, NULL, 0) == 0 && out)
            pid = strtol(out, NULL, 10);
        free(out);
        out = NULL;
    }
    if (pid <= 0) {
        pid = -1;
        gd_cap_warn(&r->c, "the app's process was not found (pidof): CPU samples have no process counters");
    }
    return pid;
}

/* 4. clocks, the property, a clean logcat, the app restarted; 0, or -1 with r->msg set */
static int start_app(capture_run *r)
{
    r->clk = json_object();
    json_object_set_new(r->clk, "start", gd_cap_clocks(&r->c));
    json_object_set_new(r->man, "clocks", r->clk);
    char setp[512];
    snprintf(setp, sizeof setp, "setprop %s %ld", r->prop, r->slow_ms);
    if (gd_cap_shell(&r->c, setp, -1, NULL, r->err, sizeof r->err) != 0) {
        snprintf(r->msg, sizeof r->msg, "device '%s': cannot set %s: %s", r->chosen, r->prop,
                 *r->err ? r->err : "setprop failed");
        return -1;
    }
    r->prop_set = r->started = 1;
    const char *clear_args[] = {"logcat", "-b", "main", "-b", "system", "-b", "events", "-c", NULL};
    gd_cap_run_adb(&r->c, clear_args, -1, NULL, NULL, 0, 30000);
    if (r->launch) {
        char comp[1024] = "am start -W -S -n ";
        char target[800];
        snprintf(target, sizeof target, "%s/%s", r->app, r->launch);
        gd_capture_quote(comp, sizeof comp, target);
        const char *args[] = {"shell", comp, NULL};
        gd_cap_to_file(&r->c, "am_start.txt", "am start -W: cold launch time", args, 120000);
    } else {
        char fs[600] = "am force-stop ";
        gd_capture_quote(fs, sizeof fs, r->app);
        gd_cap_shell(&r->c, fs, -1, NULL, NULL, 0);
        char mk[700] = "monkey -p ";
        gd_capture_quote(mk, sizeof mk, r->app);
        strncat(mk, " -c android.intent.category.LAUNCHER 1", sizeof mk - strlen(mk) - 1);
        gd_cap_shell(&r->c, mk, -1, NULL, NULL, 0);
    }
    r->pid = find_pid(r);
    char gr[600] = "dumpsys gfxinfo ";
    gd_capture_quote(gr, sizeof gr, r->app);
    strncat(gr, " reset", sizeof gr - strlen(gr) - 1);
    gd_cap_shell(&r->c, gr, -1, NULL, NULL, 0);
    return 0;
}

/* 5. the background collectors */
static void start_collectors(capture_run *r)
{
    const char *lc_args[] = {"logcat", "-v", "threadtime", "-b", "main", "-b", "system", "-b", "events", NULL};
    gd_cap_bg_start(&r->c, &r->lc, "logcat.txt", "logcat -v threadtime (main, system, events)", lc_args);
    char loop[1024];
    long count = r->dur_ms > 0 ? (long)ceil(r->dur_ms / (double)r->interval) + 1 : 0;
    gd_capture_procstat_loop(loop, sizeof loop, r->pid, r->interval, count);
    const char *ps_args[] = {"shell", loop, NULL};
    gd_cap_bg_start(&r->c, &r->ps, "procstat.txt", "/proc/stat, /proc/PID/stat, /proc/uptime every interval", ps_args);
    if (!r->sample)
        return;
    if (r->pid <= 0) {
        gd_cap_warn(&r->c, "--sample: no app process to sample");
        return;
    }
    char pa[600] = "";
    gd_capture_quote(pa, sizeof pa, r->app);
    snprintf(r->perf, sizeof r->perf,
             "simpleperf record --app %s -t %ld -g -f 1000 -o /data/local/tmp/godeye-perf.data", pa, r->pid);
    if (r->dur_ms > 0) {
        char d[64];
        snprintf(d, sizeof d, " --duration %.3f", r->dur_ms / 1000);
        strncat(r->perf, d, sizeof r->perf - strlen(r->perf) - 1);
    }
    const char *sp_args[] = {"shell", r->perf, NULL};
    gd_cap_bg_start(&r->c, &r->sp, "simpleperf-record.log", "simpleperf record (its messages)", sp_args);
}

/* 6. wait: the duration counts from when the collectors deliver (logcat
 * prints its "--------- beginning of" lines at once), at most 10 s on */
static void wait_capture(capture_run *r)
{
    cap_bg *lc = &r->lc, *ps = &r->ps;
    double t_start = gd_adb_mono_ms();
    while (!g_stop && gd_adb_mono_ms() - t_start < 10000 && !gd_adb_bg_done(&lc->a) && !gd_adb_bg_done(&ps->a)) {
        gd_adb_bg_count(&lc->a);
        gd_adb_bg_count(&ps->a);
        if (lc->a.lines > 0 && ps->a.samples > 0)
            break;
        usleep(20000);
    }
    t_start = gd_adb_mono_ms();
    int lc_ended = 0, ps_ended = 0;
    r->tty = isatty(2);
    r->stopped_by = "duration";
    for (;;) {
        double el = gd_adb_mono_ms() - t_start;
        gd_adb_bg_count(&lc->a);
        gd_adb_bg_count(&ps->a);
        status_line(r->tty, el, lc, ps);
        if (g_stop) {
            r->stopped_by = "signal";
            break;
        }
        if (r->dur_ms > 0 && el >= r->dur_ms)
            break;
        /* a collector that ends early: the device is gone, or it failed */
        int lc_end = !lc_ended && gd_adb_bg_done(&lc->a), ps_end = !ps_ended && gd_adb_bg_done(&ps->a);
        if (lc_end || ps_end) {
            lc_ended |= lc_end;
            ps_ended |= ps_end;
            if (!gd_cap_device_alive(&r->c)) {
                r->c.disconnected = 1;
                r->stopped_by = "disconnect";
                break;
            }
            if (lc_end)
                gd_cap_warn(&r->c, "adb logcat ended before the capture did");
            if (ps_end && r->dur_ms <= 0)
                gd_cap_warn(&r->c, "the CPU sampling loop ended before the capture did");
        }
        usleep(100000);
    }
    if (r->tty)
        fputc('\n', stderr);
}

/* The device command that sets the Looper property back to its value before. */
static void restore_line(const capture_run *r, char *buf, size_t n)
{
    snprintf(buf, n, "setprop %s ", r->prop);
    gd_capture_quote(buf, n, r->prev);
}

/* The same as a host command to type: adb -s SERIAL shell "setprop P 'v'"
 * (the device line kept as one argument, quoted for the host's sh). */
static void restore_hint(const capture_run *r, char *buf, size_t n)
{
    char line[512], ser[300] = "";
    restore_line(r, line, sizeof line);
    gd_capture_quote(ser, sizeof ser, r->chosen);
    int plain = strpbrk(line, "\"$`!") == NULL;
    snprintf(buf, n, "adb -s %s shell %s", ser, plain ? "\"" : "");
    if (plain) {
        strncat(buf, line, n - strlen(buf) - 1);
        strncat(buf, "\"", n - strlen(buf) - 1);
    } else
        gd_capture_quote(buf, n, line);
}

/* Sets the Looper property back to its value before, whatever signals come
 * (tried once); 1 when that worked. */
static int restore_prop(capture_run *r)
{
    char rs[512];
    restore_line(r, rs, sizeof rs);
    r->restore_tried = 1;
    r->restore_err[0] = 0;
    return gd_cap_shell_always(&r->c, rs, r->restore_err, sizeof r->restore_err) == 0;
}

/* 7. stop the collectors, restore the property, the clocks at the end */
static void stop_collectors(capture_run *r)
{
    if (r->sample && r->sp.a.pid >= 0 && !r->c.disconnected) {
        gd_cap_shell(&r->c, "pkill -INT simpleperf", -1, NULL, NULL, 0);
        for (int i = 0; i < 100 && !gd_adb_bg_done(&r->sp.a); i++)
            usleep(50000);
    }
    gd_cap_bg_stop(&r->c, &r->ps);
    gd_cap_bg_stop(&r->c, &r->lc);
    gd_cap_bg_stop(&r->c, &r->sp);
    if (!r->c.disconnected) {
        if (restore_prop(r))
            r->prop_restored = 1;
        r->prop_set = !r->prop_restored;
    }
    if (g_nsig > r->c.sig_base)
        r->c.interrupted = 1; /* a second Ctrl-C: ends at once, the property put back */
    if (!r->c.disconnected && !r->c.interrupted)
        json_object_set_new(r->clk, "end", gd_cap_clocks(&r->c));
}

/* 8. pull the end state: frame stats, view hierarchies, the optional dumps */
static void pull_state(capture_run *r)
{
    cap *c = &r->c;
    if (!c->disconnected && !c->interrupted) {
        char fq[600] = "dumpsys gfxinfo ";
        gd_capture_quote(fq, sizeof fq, r->app);
        strncat(fq, " framestats", sizeof fq - strlen(fq) - 1);
        const char *a[] = {"shell", fq, NULL};
        gd_cap_to_file(c, "gfxinfo.txt", "dumpsys gfxinfo framestats (since the reset at the start)", a, 120000);
    }
    if (!c->disconnected && !c->interrupted) {
        const char *a[] = {"shell", "dumpsys activity top", NULL};
        gd_cap_to_file(c, "activity_top.txt", "dumpsys activity top: view hierarchies", a, 120000);
    }
    if (!c->disconnected && !c->interrupted && r->uia) {
        gd_cap_shell(c, "uiautomator dump /data/local/tmp/godeye-window.xml", -1, NULL, NULL, 0);
        const char *a[] = {"exec-out", "cat /data/local/tmp/godeye-window.xml", NULL};
        gd_cap_to_file(c, "window_dump.xml", "uiautomator dump", a, 60000);
        gd_cap_shell(c, "rm -f /data/local/tmp/godeye-window.xml", -1, NULL, NULL, 0);
    }
    if (!c->disconnected && !c->interrupted && r->sample && r->perf[0]) {
        const char *a[] = {"shell", "simpleperf report-sample --show-callchain -i /data/local/tmp/godeye-perf.data", NULL};
        gd_cap_to_file(c, "simpleperf.txt", "simpleperf report-sample --show-callchain (text)", a, 300000);
        gd_cap_shell(c, "rm -f /data/local/tmp/godeye-perf.data", -1, NULL, NULL, 0);
    }
}

/* 8. pull the ANR dumps where the shell may read them */
static void pull_anr(capture_run *r)
{
    cap *c = &r->c;
    if (c->disconnected || c->interrupted)
        return;
    char *out = NULL;
    /* adb before Android 7 has no exit status and mixes in stderr */
    if (gd_cap_shell(c, "ls /data/anr", -1, &out, NULL, 0) == 0 && out && !strstr(out, "ermission denied") &&
        !strstr(out, "No such file")) {
        char anrdir[4096];
        snprintf(anrdir, sizeof anrdir, "%s/anr", r->outdir);
        for (char *s = strtok(out, " \r\n\t"); s; s = strtok(NULL, " \r\n\t")) {
            if (strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") != strlen(s) ||
                *s == '.' || c->disconnected || c->interrupted)
                continue;
            mkdir(anrdir, 0755);
            char name[512], cat[600] = "cat ", file[512];
            snprintf(name, sizeof name, "anr/%s", s);
            snprintf(file, sizeof file, "/data/anr/%s", s);
            gd_capture_quote(cat, sizeof cat, file);
            const char *a[] = {"exec-out", cat, NULL};
            gd_cap_to_file(c, name, "ANR dump from /data/anr", a, 120000);
        }
    } else
        gd_cap_warn(c, "/data/anr is not readable from adb shell on this device (use --bugreport for ANR dumps)");
    free(out);
}

/* 8. pull an adb bugreport zip when asked */
static void pull_bugreport(capture_run *r)
{
    cap *c = &r->c;
    if (c->disconnected || c->interrupted || !r->bugreport)
        return;
    char bp[4096];
    snprintf(bp, sizeof bp, "%s/bugreport.zip", r->outdir);
    const char *a[] = {"bugreport", bp, NULL};
    if (r->tty)
        fprintf(stderr, "godeye capture: adb bugreport (this takes a minute or more)\n");
    int brc = gd_cap_run_adb(c, a, -1, NULL, r->err, sizeof r->err, 900000);
    struct stat sb;
    json_array_append_new(c->files,
                          json_pack("{s:s, s:s, s:o, s:I, s:b}", "path", "bugreport.zip", "what", "adb bugreport",
                                    "command", gd_cap_cmd_text(c, a), "bytes",
                                    (json_int_t)(stat(bp, &sb) == 0 ? sb.st_size : 0), "ok", brc == 0));
    if (brc != 0 && !c->interrupted && !gd_cap_device_alive(c))
        c->disconnected = 1;
}

/* 9. capture.json: what was asked, what came of it */
static void write_manifest(capture_run *r)
{
    json_t *man = r->man;
    const gd_capture_pkg *pkg = &r->pkg;
    json_object_set_new(man, "godeye_capture", json_integer(1));
    json_object_set_new(man, "tool", json_string("godeye " GODEYE_VERSION));
    json_object_set_new(man, "app",
                        json_pack("{s:s, s:o, s:o, s:I, s:o}", "package", r->app, "version_name",
                                  pkg->version_name[0] ? json_string(pkg->version_name) : json_null(),
                                  "version_code", pkg->version_code >= 0 ? json_integer(pkg->version_code) : json_null(),
                                  "uid", (json_int_t)pkg->uid, "pid", r->pid > 0 ? json_integer(r->pid) : json_null()));
    json_object_set_new(man, "options",
                        json_pack("{s:o, s:I, s:I, s:o, s:b, s:b, s:b}", "duration_ms",
                                  r->dur_ms > 0 ? json_real(r->dur_ms) : json_null(), "slow_ms", (json_int_t)r->slow_ms,
                                  "interval_ms", (json_int_t)r->interval, "launch",
                                  r->launch ? json_string(r->launch) : json_null(), "sample", r->sample, "uiautomator",
                                  r->uia, "bugreport", r->bugreport));
    if (r->prop[0])
        json_object_set_new(man, "looper_property",
                            json_pack("{s:s, s:s, s:I, s:b}", "name", r->prop, "previous", r->prev, "value",
                                      (json_int_t)r->slow_ms, "restored", r->prop_restored || !r->prop_set));
    json_object_set_new(man, "stopped_by", json_string(r->exit_code == GD_EXIT_OK ? r->stopped_by : "error"));
    json_object_set_new(man, "files", r->c.files);
    json_object_set_new(man, "warnings", r->c.warnings);
    r->c.files = r->c.warnings = NULL;
    char mp[4096], tmp[4200];
    snprintf(mp, sizeof mp, "%s/capture.json", r->outdir);
    FILE *f = gd_cli_out_open(mp, tmp, sizeof tmp);
    int ok = f && json_dumpf(man, f, JSON_INDENT(2) | JSON_SORT_KEYS) == 0 && fputc('\n', f) != EOF;
    if (!f || gd_cli_out_close(f, tmp, mp, ok))
        if (r->exit_code == GD_EXIT_OK) {
            snprintf(r->msg, sizeof r->msg, "cannot write '%.1900s'", mp);
            r->exit_code = GD_EXIT_FAIL;
        }
}

/* Whatever happened: the collectors stopped, the property back as it was,
 * and a folder only when the device was changed. */
static void finish_run(capture_run *r)
{
    gd_cap_bg_stop(&r->c, &r->ps);
    gd_cap_bg_stop(&r->c, &r->lc);
    gd_cap_bg_stop(&r->c, &r->sp);
    if (r->prop_set && !r->c.disconnected && !r->restore_tried && restore_prop(r)) {
        r->prop_restored = 1;
        r->prop_set = 0;
    }
    if (!r->started && r->created)
        rmdir(r->outdir); /* nothing was changed or pulled: no folder left behind */
    if (r->started) /* the device was changed: the folder describes what came of it */
        write_manifest(r);
    json_decref(r->man);
    json_decref(r->c.files);
    json_decref(r->c.warnings);
}

/* 10. the last word: the failure, or ingest, or where the folder is */
static int report_run(capture_run *r, gd_ctx *ctx)
{
    char hint[800];
    restore_hint(r, hint, sizeof hint);
    if (r->c.disconnected) {
        char again[900] = "";
        if (r->prop_set)
            snprintf(again, sizeof again, "; reset the property when it is back: %s", hint);
        snprintf(r->msg, sizeof r->msg, "device '%s' disconnected; kept what was pulled in '%s'%s", r->chosen,
                 r->outdir, again);
        return fail(r->msg);
    }
    if (r->exit_code != GD_EXIT_OK)
        return fail(r->msg);
    if (r->prop_set) {
        snprintf(r->msg, sizeof r->msg,
                 "device '%s': cannot restore %s: %s; kept what was pulled in '%s'; restore it with: %s", r->chosen,
                 r->prop, r->restore_err[0] ? r->restore_err : "setprop failed", r->outdir, hint);
        return fail(r->msg);
    }
    if (r->c.interrupted) {
        snprintf(r->msg, sizeof r->msg,
                 "interrupted while pulling from device '%s' (the property was put back); kept what was pulled in "
                 "'%s'; read it with: godeye ingest %s", r->chosen, r->outdir, r->outdir);
        return fail(r->msg);
    }
    if (r->do_ingest) {
        char *iv[] = {"ingest", (char *)r->outdir, NULL};
        gd_ctx ic = *ctx; /* its messages and database mode are ingest's */
        return gd_cli_enter(&ic, "ingest") ? cmd_ingest(2, iv, &ic) : GD_EXIT_FAIL;
    }
    fprintf(stderr, "godeye capture: wrote '%s' (%s); read it with: godeye ingest %s\n", r->outdir,
            strcmp(r->stopped_by, "signal") == 0 ? "stopped by a signal" : "done", r->outdir);
    return GD_EXIT_OK;
}

int cmd_capture(int argc, char **argv, gd_ctx *ctx)
{
    capture_run r;
    memset(&r, 0, sizeof r);
    r.slow_ms = 50;
    r.interval = 1000;
    int rc = parse_options(&r, argc, argv);
    if (rc < 0)
        rc = make_outdir(&r);
    if (rc >= 0)
        return rc;

    struct sigaction sa = {0}, old_int, old_term, old_hup;
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    sigaddset(&sa.sa_mask, SIGHUP);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    sigaction(SIGHUP, &sa, &old_hup); /* a closed terminal or ssh: stopped as by TERM */
    signal(SIGPIPE, SIG_IGN);
    g_stop = g_nsig = 0;

    r.c = (cap){NULL, r.outdir, json_array(), json_array(), 0, &g_nsig, 0, 0};
    r.man = json_object();
    r.exit_code = GD_EXIT_FAIL;
    r.stopped_by = "error";
    r.pid = -1;
    gd_cap_bg_init(&r.lc);
    gd_cap_bg_init(&r.ps);
    gd_cap_bg_init(&r.sp);
    if (find_device(&r) == 0 && check_app(&r) == 0 && read_device(&r) == 0 && start_app(&r) == 0) {
        start_collectors(&r);
        wait_capture(&r);
        r.c.sig_base = g_nsig; /* from here a signal cuts the pull short */
        stop_collectors(&r);
        pull_state(&r);
        pull_anr(&r);
        pull_bugreport(&r);
        if (r.c.disconnected)
            r.stopped_by = "disconnect";
        r.exit_code = GD_EXIT_OK;
    }
    finish_run(&r);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    sigaction(SIGHUP, &old_hup, NULL);
    return report_run(&r, ctx);
}
