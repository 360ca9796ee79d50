/* capture/record.c - the adb side of `godeye capture`: phone commands into files, each recorded in the manifest. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "capture/adb.h"
#include "capture/capture.h"
#include "capture/record.h"

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (double)t.tv_sec * 1000.0 + (double)t.tv_nsec / 1e6;
}

/* The command as the manifest records it (argv joined by spaces). */
json_t *gd_cap_cmd_text(const cap *c, const char *const *args)
{
    char buf[2048];
    gd_adb_cmdline(c ? c->serial : NULL, args, buf, sizeof buf);
    return json_string(buf);
}

int gd_cap_run_adb(cap *c, const char *const *args, int out_fd, char **out, char *err, size_t errn,
                double timeout_ms)
{
    if (!c)
        return gd_adb_run(NULL, args, out_fd, out, err, errn, timeout_ms);
    if (c->interrupted || (c->sigs && *c->sigs > c->sig_base)) {
        c->interrupted = 1; /* cut short before it starts */
        if (err && errn)
            snprintf(err, errn, "interrupted");
        return -1;
    }
    int irq = 0;
    int rc = gd_adb_run_until(c->serial, args, out_fd, out, err, errn, timeout_ms, c->sigs, c->sig_base, &irq);
    c->interrupted |= irq;
    return rc;
}

int gd_cap_shell_always(cap *c, const char *cmdline, char *err, size_t errn)
{
    const char *args[] = {"shell", cmdline, NULL};
    return gd_adb_run(c->serial, args, -1, NULL, err, errn, 120000);
}

/* adb shell with one command line (already quoted where needed). */
int gd_cap_shell(cap *c, const char *cmdline, int out_fd, char **out, char *err, size_t errn)
{
    const char *args[] = {"shell", cmdline, NULL};
    return gd_cap_run_adb(c, args, out_fd, out, err, errn, 120000);
}

/* Is the device still there?  (`adb -s SERIAL get-state` says "device") */
int gd_cap_device_alive(cap *c)
{
    const char *args[] = {"get-state", NULL};
    char *out = NULL;
    int rc = gd_cap_run_adb(c, args, -1, &out, NULL, 0, 10000);
    int ok = rc == 0 && out && strncmp(out, "device", 6) == 0;
    free(out);
    return ok;
}

void gd_cap_warn(cap *c, const char *msg) { json_array_append_new(c->warnings, json_string(msg)); }

/* Runs a shell command into DIR/name and records it in the manifest.
 * Returns 0, or -1 when it failed (recorded; c->disconnected set when the
 * device is gone). */
int gd_cap_to_file(cap *c, const char *name, const char *what, const char *const *args, double timeout_ms)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", c->dir, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        char m[600];
        snprintf(m, sizeof m, "cannot write %s: %s", name, strerror(errno));
        gd_cap_warn(c, m);
        return -1;
    }
    char err[512];
    int rc = gd_cap_run_adb(c, args, fd, NULL, err, sizeof err, timeout_ms);
    struct stat sb;
    long long size = fstat(fd, &sb) == 0 ? (long long)sb.st_size : 0;
    close(fd);
    json_t *f = json_pack("{s:s, s:s, s:o, s:I, s:b}", "path", name, "what", what, "command", gd_cap_cmd_text(c, args),
                          "bytes", (json_int_t)size, "ok", rc == 0);
    if (rc != 0) {
        json_object_set_new(f, "error", json_string(*err ? err : "adb failed"));
        if (!c->interrupted && !gd_cap_device_alive(c))
            c->disconnected = 1;
    }
    if (rc != 0 && size == 0)
        unlink(path); /* nothing pulled: no empty file to mislead ingest */
    json_array_append_new(c->files, f);
    return rc == 0 ? 0 : -1;
}

void gd_cap_bg_init(cap_bg *b)
{
    gd_adb_bg_init(&b->a);
    b->name = b->what = NULL;
    b->cmd = NULL;
}

int gd_cap_bg_start(cap *c, cap_bg *b, const char *name, const char *what, const char *const *args)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", c->dir, name);
    gd_cap_bg_init(b);
    b->name = name;
    b->what = what;
    b->cmd = gd_cap_cmd_text(c, args);
    return gd_adb_bg_start(&b->a, c->serial, args, path);
}

void gd_cap_bg_stop(cap *c, cap_bg *b)
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
json_t *gd_cap_clocks(cap *c)
{
    char *out = NULL;
    double h0 = now_ms();
    int rc = gd_cap_shell(c, gd_capture_clock_cmd, -1, &out, NULL, 0);
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
