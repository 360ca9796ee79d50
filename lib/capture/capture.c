/* capture.c - what `godeye capture` sends to adb and how it reads the answers. */
#include "capture.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ident_start(int c) { return isalpha(c) || c == '_'; }
static int ident_char(int c) { return isalnum(c) || c == '_'; }

/* Dotted identifiers; `extra` is one more character allowed after the start. */
static int dotted(const char *s, int min_parts, int extra)
{
    int parts = 0;
    const unsigned char *p = (const unsigned char *)s;
    for (;;) {
        if (!ident_start(*p) && !(extra && *p == extra))
            return 0;
        p++;
        while (ident_char(*p) || (extra && *p == extra))
            p++;
        parts++;
        if (*p == 0)
            break;
        if (*p != '.')
            return 0;
        p++;
    }
    return parts >= min_parts;
}

int gd_capture_valid_package(const char *pkg)
{
    return pkg && strlen(pkg) <= 255 && dotted(pkg, 2, 0);
}

int gd_capture_valid_activity(const char *act)
{
    if (!act || strlen(act) > 512)
        return 0;
    if (*act == '.')
        act++;
    return dotted(act, 1, '$');
}

int gd_capture_quote(char *buf, size_t n, const char *s)
{
    size_t len = strlen(buf);
    if (len + 1 >= n)
        return -1;
    buf[len++] = '\'';
    for (; *s; s++) {
        const char *piece = *s == '\'' ? "'\\''" : NULL;
        size_t k = piece ? 4 : 1;
        if (len + k + 2 > n) {
            buf[len] = 0;
            return -1;
        }
        if (piece)
            memcpy(buf + len, piece, k);
        else
            buf[len] = *s;
        len += k;
    }
    buf[len++] = '\'';
    buf[len] = 0;
    return 0;
}

gd_dev_state gd_capture_pick_device(const char *out_text, const char *serial, char *out, size_t n,
                                    gd_error *err)
{
    int count = 0;
    gd_dev_state st = GD_DEV_NONE;
    char first[256] = "", first_state[64] = "";
    const char *p = out_text ? out_text : "";
    *out = 0;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char line[1024];
        if (len >= sizeof line)
            len = sizeof line - 1;
        memcpy(line, p, len);
        line[len] = 0;
        p += nl ? len + 1 : len;
        char ser[256], state[64];
        if (strncmp(line, "List of devices", 15) == 0 || strncmp(line, "* daemon", 8) == 0)
            continue;
        if (sscanf(line, "%255s %63s", ser, state) != 2)
            continue;
        count++;
        if (serial && strcmp(serial, ser) == 0) {
            snprintf(out, n, "%s", ser);
            snprintf(first_state, sizeof first_state, "%s", state);
            st = GD_DEV_OK;
            break;
        }
        if (count == 1) {
            snprintf(first, sizeof first, "%s", ser);
            snprintf(first_state, sizeof first_state, "%s", state);
        }
    }
    if (serial && st != GD_DEV_OK) {
        gd_error_set(err, GD_ERR_IO, 0, 0, "no device '%s' attached (adb devices lists %d)", serial, count);
        return GD_DEV_NOT_FOUND;
    }
    if (!serial) {
        if (count == 0) {
            gd_error_set(err, GD_ERR_IO, 0, 0,
                         "no device attached (adb devices lists none; connect a phone with USB debugging on)");
            return GD_DEV_NONE;
        }
        if (count > 1) {
            gd_error_set(err, GD_ERR_USAGE, 0, 0, "%d devices attached: choose one with -s SERIAL", count);
            return GD_DEV_MANY;
        }
        snprintf(out, n, "%s", first);
    }
    if (strcmp(first_state, "device") == 0)
        return GD_DEV_OK;
    if (strcmp(first_state, "unauthorized") == 0) {
        gd_error_set(err, GD_ERR_IO, 0, 0,
                     "device '%s' is unauthorized: accept the USB debugging prompt on the phone", out);
        return GD_DEV_UNAUTHORIZED;
    }
    gd_error_set(err, GD_ERR_IO, 0, 0, "device '%s' is %s, not ready", out, first_state);
    return GD_DEV_OFFLINE;
}

/* The value after "key=" up to a space or the line end. */
static const char *field(const char *s, const char *key, const char *end, char *out, size_t n)
{
    size_t kl = strlen(key);
    for (const char *p = s; p && p < end; p = strstr(p + 1, key)) {
        p = strstr(p, key);
        if (!p || p >= end)
            return NULL;
        if (p > s && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
            continue;
        p += kl;
        size_t i = 0;
        while (p[i] && p[i] != ' ' && p[i] != '\n' && p[i] != '\r' && i + 1 < n) {
            out[i] = p[i];
            i++;
        }
        out[i] = 0;
        return p;
    }
    return NULL;
}

void gd_capture_parse_package(const char *text, const char *pkg, gd_capture_pkg *out)
{
    out->version_name[0] = 0;
    out->version_code = -1;
    out->uid = -1;
    if (!text)
        return;
    char head[300];
    snprintf(head, sizeof head, "Package [%s]", pkg);
    const char *s = strstr(text, head);
    if (!s)
        return;
    const char *end = strstr(s + 1, "Package [");
    if (!end)
        end = s + strlen(s);
    char v[128];
    if (field(s, "userId=", end, v, sizeof v) || field(s, "appId=", end, v, sizeof v))
        out->uid = strtol(v, NULL, 10);
    if (field(s, "versionCode=", end, v, sizeof v))
        out->version_code = strtoll(v, NULL, 10);
    if (field(s, "versionName=", end, v, sizeof v))
        snprintf(out->version_name, sizeof out->version_name, "%s", v);
}

int gd_capture_getprop(const char *text, const char *key, char *out, size_t n)
{
    char pat[300];
    snprintf(pat, sizeof pat, "[%s]: [", key);
    *out = 0;
    for (const char *p = text ? strstr(text, pat) : NULL; p; p = strstr(p + 1, pat)) {
        if (p != text && p[-1] != '\n')
            continue;
        p += strlen(pat);
        size_t i = 0;
        while (p[i] && p[i] != ']' && p[i] != '\n' && i + 1 < n) {
            out[i] = p[i];
            i++;
        }
        out[i] = 0;
        return 1;
    }
    return 0;
}

const char gd_capture_clock_cmd[] = "date +%s.%N; cat /proc/uptime";

int gd_capture_parse_clock(const char *out, double *wall_ms, double *uptime_ms)
{
    char *e;
    if (!out)
        return -1;
    double w = strtod(out, &e);
    if (e == out || !(w > 0))
        return -1;
    const char *q = e;
    while (*q == ' ' || *q == '\r' || *q == '\n')
        q++;
    char *e2;
    double u = strtod(q, &e2);
    if (e2 == q || !(u >= 0))
        return -1;
    *wall_ms = w * 1000.0;
    *uptime_ms = u * 1000.0;
    return 0;
}

void gd_capture_looper_prop(char *buf, size_t n, long uid)
{
    snprintf(buf, n, "log.looper.%ld.main.slow", uid);
}

int gd_capture_procstat_loop(char *buf, size_t n, long pid, long interval_ms, long count)
{
    char files[64] = "/proc/stat";
    if (pid > 0)
        snprintf(files, sizeof files, "/proc/stat /proc/%ld/stat", pid);
    char sleep_s[32];
    snprintf(sleep_s, sizeof sleep_s, "%ld.%03ld", interval_ms / 1000, interval_ms % 1000);
    int k;
    if (count > 0)
        k = snprintf(buf, n, "i=0; while [ $i -lt %ld ]; do cat %s /proc/uptime; i=$((i+1)); sleep %s; done",
                     count, files, sleep_s);
    else
        k = snprintf(buf, n, "while :; do cat %s /proc/uptime; sleep %s; done", files, sleep_s);
    return k < 0 || (size_t)k >= n ? -1 : 0;
}

int gd_capture_parse_duration(const char *s, double *ms)
{
    char *e;
    if (!s || !*s)
        return -1;
    double v = strtod(s, &e);
    if (e == s || !isfinite(v) || v <= 0)
        return -1;
    double mul;
    if (!*e || strcmp(e, "s") == 0)
        mul = 1000;
    else if (strcmp(e, "ms") == 0)
        mul = 1;
    else if (strcmp(e, "m") == 0 || strcmp(e, "min") == 0)
        mul = 60000;
    else if (strcmp(e, "h") == 0)
        mul = 3600000;
    else
        return -1;
    *ms = v * mul;
    return *ms >= 1 ? 0 : -1;
}
