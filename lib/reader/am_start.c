/* am_start.c - reader of `adb shell am start -W` output: one app launch per block. */
#include <stdlib.h>
#include <string.h>

#include "reader.h"
#include "reader/component.h"
#include "io/textin.h"
#include "core/scan.h"
#include "core/skip_reasons.h"

/*
 * What it reads: the text `am start -W` prints for each launch (once per
 * repeat with -R), possibly saved with other lines around it:
 *
 *   Stopping: com.example                         (-S)
 *   Starting: Intent { act=... cmp=com.example/.MainActivity }
 *   Warning: Activity not started, its current task has been brought to the front
 *   Status: ok                                    (or "timeout")
 *   LaunchState: COLD                             (Android 10+)
 *   Activity: com.example/.MainActivity
 *   ThisTime: 520                                 (Android <= 9)
 *   TotalTime: 520
 *   WaitTime: 540
 *   Complete
 *
 * What it emits: one GD_EV_STARTUP per block that has a TotalTime, source
 * "am_start": app and activity from the "Activity:" line (the activity that
 * was drawn, which may differ from the one asked for), else from the
 * intent's cmp=; activity with the package expanded; kind from LaunchState
 * in lower case ("cold", "warm", "hot"; NULL when absent or another state:
 * "RELAUNCH", "UNKNOWN (0)"); total_ms = TotalTime (from the intent to the
 * first frame, the platform's launch time); activity_ms = ThisTime (Android
 * <= 9: the drawn activity's own, NONE when absent); wait_ms = WaitTime (the
 * whole am command, NONE when absent).  The output carries no time of day:
 * ts is NONE, pid/tid the capture's app.
 *
 * A block ends at "Complete", at the next "Stopping:"/"Starting:" or at the
 * end of the input.  Blocks that cannot give a launch time are counted:
 * "am_start: launch failed" (an "Error:" line: the activity did not start),
 * "am_start: launch without TotalTime" (brought to front, delivered to the
 * top instance, timed out).  "Warning:" lines are counted as
 * "am_start: warning line" (the block still counts when it has a
 * TotalTime); other lines as "am_start: other line".
 */

typedef struct as_block {
    int open;            /* a block is being read                       */
    int error;           /* an "Error:" line                            */
    long line;           /* its first line                              */
    char comp[512];      /* "Activity:" or else the intent's cmp=       */
    char kind[8];
    double total, wait, own; /* TotalTime, WaitTime, ThisTime; -1 absent */
} as_block;

/* Leading and trailing blanks off s[0..*n). */
static const char *trim(const char *s, size_t *n)
{
    while (*n && (s[0] == ' ' || s[0] == '\t')) {
        s++;
        (*n)--;
    }
    while (*n && (s[*n - 1] == ' ' || s[*n - 1] == '\t' || s[*n - 1] == '\r'))
        (*n)--;
    return s;
}

/* "KEY: N" (a non-negative integer and nothing else): N, else -1. */
static double number_after(const char *s, size_t n, size_t keylen)
{
    size_t i = keylen;
    if (i >= n)
        return -1;
    double v = 0;
    size_t d = 0;
    for (; i < n && s[i] >= '0' && s[i] <= '9' && d < 12; i++, d++)
        v = v * 10 + (s[i] - '0');
    return d && i == n ? v : -1;
}

static void set_comp(as_block *b, const char *p, size_t n, const gd_sink *sink, long line)
{
    n = gd_sink_cut(sink, p, n, sizeof b->comp - 1, line);
    memcpy(b->comp, p, n);
    b->comp[n] = 0;
}

/* The cmp= of "Starting: Intent { ... cmp=pkg/.Act ... }". */
static void intent_cmp(as_block *b, const char *s, size_t n, const gd_sink *sink, long line)
{
    for (size_t i = 0; i + 4 <= n; i++) {
        if (memcmp(s + i, "cmp=", 4) != 0 || (i && s[i - 1] != ' ' && s[i - 1] != '{'))
            continue;
        size_t a = i + 4, e = a;
        while (e < n && s[e] != ' ' && s[e] != '}')
            e++;
        set_comp(b, s + a, e - a, sink, line);
        return;
    }
}

static void open_block(as_block *b, long line)
{
    memset(b, 0, sizeof *b);
    b->open = 1;
    b->line = line;
    b->total = b->wait = b->own = -1;
}

static int close_block(as_block *b, const gd_sink *sink, long line, gd_error *err)
{
    if (!b->open)
        return 0;
    b->open = 0;
    if (b->error) {
        gd_sink_skip(sink, GD_SKIP(AM_START_LAUNCH_FAILED), b->line, 1);
        return 0;
    }
    if (b->total < 0) {
        gd_sink_skip(sink, GD_SKIP(AM_START_LAUNCH_WITHOUT_TOTALTIME), b->line, 1);
        return 0;
    }
    char app[256], act[512];
    int has_comp = b->comp[0] &&
                   gd_component_split(b->comp, strlen(b->comp), app, sizeof app, act, sizeof act) == 0;
    gd_event ev;
    gd_event_init(&ev, GD_EV_STARTUP);
    ev.line = line;
    ev.u.startup.app = has_comp ? app : NULL;
    ev.u.startup.activity = has_comp ? act : NULL;
    ev.u.startup.kind = b->kind[0] ? b->kind : NULL;
    ev.u.startup.total_ms = b->total;
    ev.u.startup.wait_ms = b->wait >= 0 ? b->wait : GD_NONE;
    ev.u.startup.activity_ms = b->own >= 0 ? b->own : GD_NONE;
    ev.u.startup.source = "am_start";
    return gd_sink_event(sink, &ev, err);
}

/* One line: 1 recognised, 0 not (for the probe); fills b when given. */
static int am_line(as_block *b, const char *s, size_t n, long line, const gd_sink *sink,
                   int *rc, gd_error *err)
{
    int recognised = 1;
    if (gd_starts_n(s, n, "Starting: ") || gd_starts_n(s, n, "Stopping: ")) {
        /* "Stopping:" (-S) comes first and "Starting:" follows it */
        int same = b && b->open && s[2] == 'a' && !b->comp[0] && b->total < 0 && !b->error;
        if (b && !same) {
            *rc = close_block(b, sink, line - 1, err);
            open_block(b, line);
        }
        if (b && s[2] == 'a')
            intent_cmp(b, s, n, sink, line);
    } else if (gd_starts_n(s, n, "Status: ")) {
        recognised = gd_starts_n(s + 8, n - 8, "ok") || gd_starts_n(s + 8, n - 8, "timeout");
    } else if (gd_starts_n(s, n, "LaunchState: ")) {
        if (b) {
            const char *k = s + 13;
            size_t kn = n - 13;
            const char *lc = kn == 4 && memcmp(k, "COLD", 4) == 0   ? "cold"
                             : kn == 4 && memcmp(k, "WARM", 4) == 0 ? "warm"
                             : kn == 3 && memcmp(k, "HOT", 3) == 0  ? "hot"
                                                                    : "";
            strcpy(b->kind, lc);
        }
    } else if (gd_starts_n(s, n, "Activity: ")) {
        if (b) {
            set_comp(b, s + 10, n - 10, sink, line);
        }
    } else if (gd_starts_n(s, n, "TotalTime: ")) {
        double v = number_after(s, n, 11);
        recognised = v >= 0;
        if (b && v >= 0)
            b->total = v;
    } else if (gd_starts_n(s, n, "WaitTime: ")) {
        double v = number_after(s, n, 10);
        recognised = v >= 0;
        if (b && v >= 0)
            b->wait = v;
    } else if (gd_starts_n(s, n, "ThisTime: ")) {
        double v = number_after(s, n, 10);
        recognised = v >= 0;
        if (b && v >= 0)
            b->own = v;
    } else if (n == 8 && memcmp(s, "Complete", 8) == 0) {
        if (b)
            *rc = close_block(b, sink, line, err);
    } else if (gd_starts_n(s, n, "Warning: ")) {
        if (b)
            gd_sink_skip(sink, GD_SKIP(AM_START_WARNING_LINE), line, 1);
    } else if (gd_starts_n(s, n, "Error: ") || gd_starts_n(s, n, "Error type ")) {
        if (b) {
            if (!b->open)
                open_block(b, line);
            b->error = 1;
        }
    } else {
        recognised = 0;
    }
    /* output saved without its "Starting:" line still makes a block */
    if (b && recognised && !b->open && (gd_starts_n(s, n, "Status: ") || gd_starts_n(s, n, "LaunchState: ") ||
                                        gd_starts_n(s, n, "Activity: ") || gd_starts_n(s, n, "TotalTime: ") ||
                                        gd_starts_n(s, n, "WaitTime: ") || gd_starts_n(s, n, "ThisTime: "))) {
        open_block(b, line);
        return am_line(b, s, n, line, sink, rc, err);
    }
    return recognised;
}

static int probe(const unsigned char *h, size_t n, int eof)
{
    size_t tn;
    char *t = gd_text_head(h, n, &tn);
    if (!t)
        return 0;
    int lines = 0, known = 0, status = 0, times = 0, frame = 0;
    size_t i = 0;
    while (i < tn && lines < 64) {
        const char *nl = memchr(t + i, '\n', tn - i);
        if (!nl && !eof)
            break;
        size_t len = nl ? (size_t)(nl - (t + i)) : tn - i;
        const char *s = trim(t + i, &len);
        i = nl ? (size_t)(nl - t) + 1 : tn;
        if (!len)
            continue;
        lines++;
        if (!am_line(NULL, s, len, 0, NULL, NULL, NULL))
            continue;
        known++;
        status += gd_starts_n(s, len, "Status: ");
        times += gd_starts_n(s, len, "TotalTime: ") || gd_starts_n(s, len, "WaitTime: ");
        frame += gd_starts_n(s, len, "Starting: Intent {") || (len == 8 && !memcmp(s, "Complete", 8));
    }
    free(t);
    if (!status || !times || known * 2 < lines)
        return 0;
    return frame ? 85 : 60;
}

static int read_am_start(gd_input *in, const gd_sink *sink, const gd_read_opts *opts,
                         gd_error *err)
{
    (void)opts;
    int rc = GD_OK;
    as_block b;
    memset(&b, 0, sizeof b);
    char *s;
    size_t n;
    int r = 0;
    long line = 0;
    while (!rc && (r = gd_input_getline(in, &s, &n, err)) == 1) {
        line = gd_input_lineno(in);
        const char *p = trim(s, &n);
        if (!n)
            continue;
        if (!am_line(&b, p, n, line, sink, &rc, err))
            gd_sink_skip(sink, GD_SKIP(AM_START_OTHER_LINE), line, 1);
    }
    if (!rc && r == 0)
        rc = close_block(&b, sink, line, err);
    if (rc)
        return rc;
    return r < 0 ? (err->code ? err->code : GD_ERR_IO) : GD_OK;
}

const gd_reader gd_reader_am_start = {
    .name = "am_start",
    .description = "`adb shell am start -W` output: app launch times (TotalTime, WaitTime, LaunchState)",
    .probe = probe,
    .read = read_am_start,
};
