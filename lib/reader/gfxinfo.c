/* gfxinfo.c - reader of `adb shell dumpsys gfxinfo <pkg> [framestats]`: frames and summaries. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "reader.h"
#include "io/textin.h"
#include "core/skip_reasons.h"

/* Times: the summary's "Stats since" and the PROFILEDATA columns are
 * CLOCK_MONOTONIC nanoseconds (time since boot), not the epoch: frame ts and
 * summary ts are those values in ms, comparable with each other within one
 * capture only.
 *
 * Summaries: the block after "** Graphics info for pid N [pkg] **" is the
 * process-wide summary (window NULL); newer Android repeats one per window
 * after "Window: NAME", emitted with that window.  Every "Key: value" line
 * of a block is kept as printed.
 *
 * Frame window: the tab-indented line that opens a window's profile data,
 * as printed ("pkg/Activity/android.view.ViewRootImpl@1a2b3c (visibility=0)").
 *
 * Legacy profile data (before framestats, `dumpsys gfxinfo <pkg>` on
 * Android 4.1..5.x and still after "Profile data in ms:" on some builds):
 * per window a tab-indented window line, a header of tab-separated column
 * names ("Draw Prepare Process Execute", older "Draw Process Execute") and
 * one row per frame of milliseconds.  Each row is a frame whose duration is
 * the sum of its columns; the table carries no time, so its frames have
 * ts 0 (time unknown), in row order.  A table whose rows cannot be frame
 * times (#51: one column holds the same non-zero value in at least
 * LEGACY_CONST_SHARE of its rows, at least LEGACY_CONST_MIN_ROWS of them --
 * a placeholder the build prints, not a measurement: nuviotv's Draw column
 * is 50.00 in 110 of 120 rows) is still read, and reported as an issue of
 * tool "gfxinfo", type "legacy_table_constant_column", detail the column,
 * ts 0, json {"window", "column", "value", "rows", "same"}: godeye frames
 * then lets the device's printed summary lead for that window.
 *
 * Flags (#51): rows are kept whatever their Flags, as the platform's
 * JankTracker (frameworks/base libs/hwui/JankTracker.cpp, finishFrame)
 * counts every finished frame in its total and percentiles -- 1 window
 * visibility or layout changed, 2 render-thread animation, 4 drawn through
 * a Surface canvas -- and exempts only Flags 4 (EXEMPT_FRAMES_FLAGS,
 * SurfaceCanvas) from jank; a row with Flags 8 (SkippedFrame: nothing was
 * drawn, the frame never reaches finishFrame) is skipped.
 *
 * Deadline (#51, Android 12+ rows with FrameDeadline and GpuCompleted): a
 * frame missed its deadline, the platform's "Janky frames", when its
 * GpuCompleted is not before its FrameDeadline; while buffers are stuffed
 * (the frame's IntendedVsync is more than a tenth of an interval before the
 * time the next frame would start unstuffed) the deadline is one
 * FrameInterval later.  After a missed frame the unstuffed start is
 * GpuCompleted less (GpuCompleted - Vsync) modulo the interval, plus one
 * interval; after a met frame while stuffed it moves one interval on.  The
 * state runs over one PROFILEDATA block's rows in order (the device's own
 * count runs over every frame since its Stats since, so the two agree only
 * when the block holds them all).
 *
 * Rows skipped, by reason: Flags 8 (above), FrameCompleted 0 (the frame had not completed
 * at the dump), FrameCompleted before IntendedVsync (a ring-buffer slot
 * holding an older frame's value), and frames over GFX_MAX_FRAME_NS (10 s:
 * an ANR rather than a frame, as Android's JankTracker treats them; in real
 * dumps these are garbage completions years after their vsync).
 *
 * FrameInterval: Android 12+ prints the FrameInterval and FrameStartTime
 * headers in swapped order relative to their data; an "interval" over one
 * second is taken from the FrameStartTime column instead when that one is a
 * plausible interval. */

#define MAX_FIGS 64
#define MAX_COLS 64
#define NS_PER_MS 1e6
#define GFX_MAX_FRAME_NS 10000000000LL
#define LEGACY_CONST_MIN_ROWS 10
#define LEGACY_CONST_SHARE 0.9
#define LEGACY_MAX_KEPT 4096 /* cells kept per table for the check above */

typedef struct gfx {
    const gd_sink *sink;
    int64_t pid;
    int meta_sent;
    char window[1024];
    int have_window;
    /* summary being collected */
    int in_summary;
    int summary_window;   /* 1: per-window summary                      */
    double summary_ts;
    double uptime;        /* the dump's "Uptime:" (ms, ts's clock) or NONE  */
    long summary_line;
    char *keys[MAX_FIGS], *vals[MAX_FIGS];
    size_t nfig;
    /* profile data */
    int in_profile;       /* after ---PROFILEDATA---                      */
    int have_header;
    int col_flags, col_intended, col_completed, col_interval, col_start;
    int col_deadline, col_gpu, col_vsync;
    int64_t next_unstuffed; /* JankTracker's mNextFrameStartUnstuffed (ns) */
    int ncols;
    /* legacy "Profile data in ms" table */
    int in_legacy;        /* after "Profile data in ms:"                    */
    int legacy_cols;      /* columns of the current table's header, 0 none  */
    char legacy_names[MAX_COLS][16]; /* its column names                   */
    double legacy_cells[LEGACY_MAX_KEPT]; /* its rows' cells, row by row    */
    long legacy_rows;     /* rows read (cells kept for the first ones)      */
    /* #27: a window's profile data (legacy table or PROFILEDATA block) is
     * open and how many frames it gave */
    int win_open, win_summarized; /* summarized: a "Window:" summary named it */
    long win_frames, win_line;
} gfx;

static void free_figs(gfx *g)
{
    for (size_t i = 0; i < g->nfig; i++) {
        free(g->keys[i]);
        free(g->vals[i]);
    }
    g->nfig = 0;
}

static int flush_summary(gfx *g, gd_error *err)
{
    if (!g->in_summary)
        return 0;
    g->in_summary = 0;
    if (!g->nfig)
        return 0;
    gd_event ev;
    gd_event_init(&ev, GD_EV_FRAME_SUMMARY);
    ev.ts = gd_has(g->summary_ts) ? g->summary_ts : 0;
    /* the dump's time, when the figures' start is before it (a process
     * whose stats began while the dump ran has no time covered) */
    if (gd_has(g->summary_ts) && gd_has(g->uptime) && g->uptime >= g->summary_ts)
        ev.u.frame_summary.until = g->uptime;
    ev.line = g->summary_line;
    if (g->pid >= 0)
        ev.pid = g->pid;
    ev.u.frame_summary.window = g->summary_window && g->have_window ? g->window : NULL;
    if (ev.u.frame_summary.window)
        g->win_summarized = 1;
    ev.u.frame_summary.keys = (const char *const *)g->keys;
    ev.u.frame_summary.values = (const char *const *)g->vals;
    ev.u.frame_summary.n = g->nfig;
    int rc = gd_sink_event(g->sink, &ev, err);
    free_figs(g);
    return rc;
}

/* The end of a window's profile data: one that gave no frame is still a
 * window of the capture, emitted as a summary without figures (godeye
 * frames lists it with 0 frames; --summary shows only printed figures). */
static int end_window(gfx *g, gd_error *err)
{
    if (!g->win_open)
        return 0;
    g->win_open = 0;
    if (g->win_frames || g->win_summarized || !g->have_window)
        return 0;
    gd_event ev;
    gd_event_init(&ev, GD_EV_FRAME_SUMMARY);
    ev.ts = 0;
    ev.line = g->win_line;
    if (g->pid >= 0)
        ev.pid = g->pid;
    ev.u.frame_summary.window = g->window;
    ev.u.frame_summary.n = 0;
    return gd_sink_event(g->sink, &ev, err);
}

static void open_window(gfx *g, long lineno)
{
    g->win_open = 1;
    g->win_frames = 0;
    g->win_line = lineno;
}

static char *dup_n(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = 0;
    }
    return p;
}

/* "Key: value" inside a summary block. */
static int add_figure(gfx *g, const char *s, long lineno, gd_error *err)
{
    const char *colon = strstr(s, ": ");
    if (!colon || colon == s || !colon[2])
        return 1;
    if (g->nfig >= MAX_FIGS) {
        gd_sink_skip(g->sink, GD_SKIP(GFXINFO_TOO_MANY_SUMMARY_FIGURES), lineno, 1);
        return 0;
    }
    const char *v = colon + 1;
    while (*v == ' ')
        v++;
    size_t vl = strlen(v);
    while (vl && (v[vl - 1] == ' ' || v[vl - 1] == '\t'))
        vl--;
    char *k = dup_n(s, (size_t)(colon - s)), *val = dup_n(v, vl);
    if (!k || !val) {
        free(k);
        free(val);
        return gd_error_oom_at(err, lineno, 0);
    }
    /* a key printed twice in one block: keep the first */
    for (size_t i = 0; i < g->nfig; i++)
        if (strcmp(g->keys[i], k) == 0) {
            free(k);
            free(val);
            return 0;
        }
    g->keys[g->nfig] = k;
    g->vals[g->nfig] = val;
    g->nfig++;
    return 0;
}

static void start_summary(gfx *g, int per_window, long lineno)
{
    free_figs(g);
    g->in_summary = 1;
    g->summary_window = per_window;
    g->summary_ts = GD_NONE;
    g->summary_line = lineno;
}

static int parse_header(gfx *g, const char *s)
{
    g->col_flags = g->col_intended = g->col_completed = g->col_interval = g->col_start = -1;
    g->col_deadline = g->col_gpu = g->col_vsync = -1;
    g->next_unstuffed = 0;
    int i = 0;
    const char *p = s;
    while (*p && i < MAX_COLS) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
#define COL(name, var) if (n == strlen(name) && strncmp(p, name, n) == 0) g->var = i;
        COL("Flags", col_flags)
        COL("IntendedVsync", col_intended)
        COL("FrameCompleted", col_completed)
        COL("FrameInterval", col_interval)
        COL("FrameStartTime", col_start)
        COL("FrameDeadline", col_deadline)
        COL("GpuCompleted", col_gpu)
        COL("Vsync", col_vsync)
#undef COL
        i++;
        if (!e)
            break;
        p = e + 1;
    }
    g->ncols = i;
    return g->col_flags >= 0 && g->col_intended >= 0 && g->col_completed >= 0 ? 0 : -1;
}

#define HAVE_COL(c) ((c) >= 0 && (c) < n && have[c] && v[c] > 0)

/* The platform's jank of one framestats row (the Deadline rule at the top),
 * advancing g's stuffing state: 1 missed, 0 met or exempt, -1 when the row
 * has no deadline, GpuCompleted, Vsync or interval to judge by. */
static int64_t deadline_missed(gfx *g, const int64_t *v, const int *have, int n, int64_t flags,
                               int64_t interval)
{
    if (flags & 4)
        return 0; /* SurfaceCanvas: exempt */
    if (interval <= 0 || !HAVE_COL(g->col_deadline) || !HAVE_COL(g->col_gpu) || !HAVE_COL(g->col_vsync))
        return -1;
    /* nanoseconds past 2^60 (36 years of uptime) are no clock's: not judged,
     * so that no sum below can overflow */
    const int64_t lim = (int64_t)1 << 60;
    int64_t iv = v[g->col_intended], gpu = v[g->col_gpu];
    if (interval > lim || iv > lim || gpu > lim || v[g->col_deadline] > lim || v[g->col_vsync] > lim ||
        g->next_unstuffed > lim || g->next_unstuffed < -lim)
        return -1;
    int stuffed = (double)(g->next_unstuffed - iv) > (double)interval * 0.1;
    int64_t deadline = v[g->col_deadline] + (stuffed ? interval : 0);
    if (gpu < deadline) {
        if (stuffed)
            g->next_unstuffed += interval;
        return 0;
    }
    g->next_unstuffed = gpu - (gpu - v[g->col_vsync]) % interval + interval;
    return 1;
}

static int frame_row(gfx *g, const char *s, long lineno, gd_error *err)
{
    int64_t v[MAX_COLS];
    int have[MAX_COLS] = {0};
    int i = 0;
    const char *p = s;
    while (*p && i < MAX_COLS) {
        char *e;
        long long x = strtoll(p, &e, 10);
        if (e != p && (*e == ',' || !*e)) {
            v[i] = x;
            have[i] = 1;
        } else if (*p != ',') {
            gd_sink_skip(g->sink, GD_SKIP(GFXINFO_UNPARSABLE_FRAME_ROW), lineno, (long)(p - s) + 1);
            return 0;
        }
        const char *c = strchr(p, ',');
        i++;
        if (!c)
            break;
        p = c + 1;
    }
    if (!have[g->col_flags] || !have[g->col_intended] || !have[g->col_completed]) {
        gd_sink_skip(g->sink, GD_SKIP(GFXINFO_UNPARSABLE_FRAME_ROW), lineno, 1);
        return 0;
    }
    int64_t fl = v[g->col_flags];
    if (fl & 8) {
        gd_sink_skip(g->sink, GD_SKIP(GFXINFO_OUTLIER_FRAME_FLAGS_8_SKIPPED_FRAME), lineno, 1);
        return 0;
    }
    int64_t iv = v[g->col_intended], done = v[g->col_completed];
    if (iv <= 0) {
        gd_sink_skip(g->sink, GD_SKIP(GFXINFO_FRAME_WITHOUT_INTENDEDVSYNC), lineno, 1);
        return 0;
    }
    if (done == 0) {
        gd_sink_skip(g->sink, GD_SKIP(GFXINFO_FRAME_NOT_COMPLETED_FRAMECOMPLETED_0), lineno, 1);
        return 0;
    }
    if (done < iv) {
        gd_sink_skip(g->sink, GD_SKIP(GFXINFO_FRAME_COMPLETED_BEFORE_ITS), lineno, 1);
        return 0;
    }
    if (done - iv > GFX_MAX_FRAME_NS) {
        gd_sink_skip(g->sink, GD_SKIP(GFXINFO_FRAME_OVER_10_S_ANR_OR_GARBAGE), lineno, 1);
        return 0;
    }
    gd_event ev;
    gd_event_init(&ev, GD_EV_FRAME);
    ev.ts = (double)iv / NS_PER_MS;
    ev.line = lineno;
    if (g->pid >= 0)
        ev.pid = g->pid;
    ev.u.frame.dur = (double)(done - iv) / NS_PER_MS;
    ev.u.frame.window = g->have_window ? g->window : NULL;
    ev.u.frame.flags = fl;
    ev.u.frame.vsync_ms = GD_NONE;
    int64_t in = -1;
    if (g->col_interval >= 0 && g->col_interval < i && have[g->col_interval]) {
        in = v[g->col_interval];
        if (in > 1000000000LL && g->col_start >= 0 && g->col_start < i && have[g->col_start] &&
            v[g->col_start] > 0 && v[g->col_start] <= 1000000000LL)
            in = v[g->col_start];
        if (in > 0 && in <= 1000000000LL)
            ev.u.frame.vsync_ms = (double)in / NS_PER_MS;
        else
            in = -1;
    }
    ev.u.frame.deadline_missed = deadline_missed(g, v, have, i, fl, in);
    g->win_frames++;
    return gd_sink_event(g->sink, &ev, err);
}

/* Tab-separated cells of a legacy table line; returns their count (at most
 * MAX_COLS), cells[i] pointing into s, cut in place. */
static int tab_cells(char *s, char **cells)
{
    int n = 0;
    char *p = s;
    while (*p == '\t' || *p == ' ')
        p++;
    while (*p && n < MAX_COLS) {
        cells[n++] = p;
        char *e = strchr(p, '\t');
        if (!e)
            break;
        *e = 0;
        p = e + 1;
        while (*p == '\t')
            p++;
    }
    return n;
}

static int legacy_end(gfx *g, gd_error *err);

/* "\tDraw\tPrepare\tProcess\tExecute": the columns of a legacy table (the
 * table before it ends: *rc). */
static int legacy_header(gfx *g, const char *s, int *rc, gd_error *err)
{
    char buf[256], *cells[MAX_COLS];
    size_t n = strlen(s);
    if (n >= sizeof buf)
        return -1;
    memcpy(buf, s, n + 1);
    int nc = tab_cells(buf, cells);
    if (nc < 2 || strcmp(cells[0], "Draw") != 0)
        return -1;
    if ((*rc = legacy_end(g, err)))
        return 0;
    g->legacy_cols = nc;
    g->legacy_rows = 0;
    for (int i = 0; i < nc; i++)
        snprintf(g->legacy_names[i], sizeof g->legacy_names[i], "%s", cells[i]);
    return 0;
}

/* The end of a legacy table (#51): a column holding one non-zero value in
 * nearly every row makes the table no measurement of frame times, reported
 * as an issue; then the table is closed. */
static int legacy_end(gfx *g, gd_error *err)
{
    int nc = g->legacy_cols;
    long rows = g->legacy_rows;
    g->legacy_cols = 0;
    g->legacy_rows = 0;
    if (nc <= 0 || rows < LEGACY_CONST_MIN_ROWS || rows * nc > LEGACY_MAX_KEPT)
        return 0;
    for (int c = 0; c < nc; c++) {
        /* the most frequent value of column c (tables are short: quadratic is fine) */
        long best = 0;
        double val = 0;
        for (long r = 0; r < rows && best * 1.0 < rows * LEGACY_CONST_SHARE; r++) {
            double v = g->legacy_cells[r * nc + c];
            long same = 0;
            for (long k = 0; k < rows; k++)
                same += g->legacy_cells[k * nc + c] == v;
            if (same > best)
                best = same, val = v;
        }
        if (val == 0 || (double)best < (double)rows * LEGACY_CONST_SHARE)
            continue;
        json_t *js = json_pack("{s:o s:s s:f s:I s:I}", "window",
                               g->have_window ? json_string(g->window) : json_null(), "column",
                               g->legacy_names[c], "value", val, "rows", (json_int_t)rows, "same",
                               (json_int_t)best);
        char *text = js ? json_dumps(js, JSON_COMPACT) : NULL;
        json_decref(js);
        if (!text)
            return gd_error_oom(err);
        gd_event ev;
        gd_event_init(&ev, GD_EV_ISSUE);
        ev.ts = 0; /* the table has no time */
        if (g->pid >= 0)
            ev.pid = g->pid;
        ev.u.issue.tool = "gfxinfo";
        ev.u.issue.type = "legacy_table_constant_column";
        ev.u.issue.detail = g->legacy_names[c];
        ev.u.issue.json = text;
        int rc = gd_sink_event(g->sink, &ev, err);
        free(text);
        return rc; /* one column says it */
    }
    return 0;
}

/* One legacy row: a frame lasting the sum of its cells (ms). */
static int legacy_row(gfx *g, char *s, long lineno, gd_error *err)
{
    char *cells[MAX_COLS];
    int nc = tab_cells(s, cells);
    double sum = 0;
    for (int i = 0; i < nc; i++) {
        char *e;
        double x = strtod(cells[i], &e);
        while (*e == ' ' || *e == '\r')
            e++;
        if (e == cells[i] || *e || !(x >= 0 && x < 1e7)) {
            gd_sink_skip(g->sink, GD_SKIP(GFXINFO_UNPARSABLE_LEGACY_PROFILE_ROW), lineno, 1);
            return 0;
        }
        sum += x;
    }
    if (nc != g->legacy_cols) {
        gd_sink_skip(g->sink, GD_SKIP(GFXINFO_LEGACY_PROFILE_ROW_WITH_A_WRONG), lineno, 1);
        return 0;
    }
    if ((g->legacy_rows + 1) * nc <= LEGACY_MAX_KEPT) {
        for (int i = 0; i < nc; i++)
            g->legacy_cells[g->legacy_rows * nc + i] = strtod(cells[i], NULL);
        g->legacy_rows++;
    } else {
        g->legacy_rows = LEGACY_MAX_KEPT; /* too long to judge: legacy_end skips it */
    }
    gd_event ev;
    gd_event_init(&ev, GD_EV_FRAME);
    ev.ts = 0; /* the table has no time */
    ev.line = lineno;
    if (g->pid >= 0)
        ev.pid = g->pid;
    ev.u.frame.dur = sum;
    ev.u.frame.window = g->have_window ? g->window : NULL;
    ev.u.frame.flags = 0;
    ev.u.frame.vsync_ms = GD_NONE;
    g->win_frames++;
    return gd_sink_event(g->sink, &ev, err);
}

/* The process "[PKG]" of a "Graphics info" line names (between lb and rb):
 * a process event for its pid, and the capture's meta for the first. */
static int name_process(gfx *g, const char *lb, const char *rb, long lineno, gd_error *err)
{
    char app[512];
    size_t n = gd_sink_cut(g->sink, lb + 1, (size_t)(rb - lb - 1), sizeof app - 1, 0);
    memcpy(app, lb + 1, n);
    app[n] = 0;
    int rc = 0;
    if (g->pid >= 0) { /* every process the dump names (#47: its frames' process, --app) */
        gd_event ev;
        gd_event_init(&ev, GD_EV_PROCESS);
        ev.pid = ev.tid = g->pid;
        ev.thread = app;
        ev.line = lineno;
        rc = gd_sink_event(g->sink, &ev, err);
    }
    if (!rc && !g->meta_sent) {
        gd_meta m;
        gd_meta_init(&m);
        m.app = app;
        m.pid = g->pid;
        g->meta_sent = 1;
        rc = gd_sink_meta(g->sink, &m, err);
    }
    return rc;
}

/* "** Graphics info for pid 17477 [de.codevoid.andronavibar] **" */
static int process_header(gfx *g, const char *s, long lineno, gd_error *err)
{
    const char *p = s + strlen("** Graphics info for pid ");
    char *e;
    long long pid = strtoll(p, &e, 10);
    g->pid = e != p ? pid : -1;
    g->have_window = 0;
    g->in_profile = 0;
    g->in_legacy = 0;
    g->legacy_cols = 0;
    const char *lb = strchr(e, '['), *rb = lb ? strchr(lb, ']') : NULL;
    int rc = lb && rb ? name_process(g, lb, rb, lineno, err) : 0;
    if (rc)
        return rc;
    start_summary(g, 0, lineno);
    return 0;
}

/* One line of a PROFILEDATA block: its header, then a frame row each. */
static int profile_line(gfx *g, const char *s, long lineno, gd_error *err)
{
    if (!*s)
        return GD_OK;
    if (!g->have_header) {
        if (parse_header(g, s) == 0)
            g->have_header = 1;
        else {
            gd_sink_skip(g->sink, GD_SKIP(GFXINFO_PROFILE_DATA_WITHOUT_KNOWN_HEADER), lineno, 1);
            g->in_profile = 0;
        }
        return GD_OK;
    }
    if (isdigit((unsigned char)*s) || *s == '-')
        return frame_row(g, s, lineno, err);
    gd_sink_skip(g->sink, GD_SKIP(GFXINFO_UNPARSABLE_FRAME_ROW), lineno, 1);
    return GD_OK;
}

static int read_gfx(gd_input *in, const gd_sink *sink, const gd_read_opts *opts, gd_error *err)
{
    (void)opts;
    gfx *g = calloc(1, sizeof *g);
    if (!g)
        return gd_error_oom(err);
    g->sink = sink;
    g->pid = -1;
    g->uptime = GD_NONE;
    int rc = GD_OK;
    char *line;
    size_t len;
    int r = 0;
    while (rc == GD_OK && (r = gd_input_getline(in, &line, &len, err)) == 1) {
        long lineno = gd_input_lineno(in);
        const char *s = line;
        if (strcmp(s, "---PROFILEDATA---") == 0) {
            rc = flush_summary(g, err);
            if (!g->in_profile && g->have_window && !g->win_open)
                open_window(g, lineno);
            g->in_profile = !g->in_profile;
            g->have_header = 0;
            continue;
        }
        if (g->in_profile) {
            rc = profile_line(g, s, lineno, err);
            continue;
        }
        if (g->in_legacy) {
            if (s[0] == '\t' && legacy_header(g, s, &rc, err) == 0)
                continue;
            if (g->legacy_cols && s[0] == '\t' && (isdigit((unsigned char)s[1]) || s[1] == '-')) {
                rc = legacy_row(g, line, lineno, err);
                continue;
            }
            if (!*s) {
                rc = legacy_end(g, err); /* a blank line ends a window's table */
                continue;
            }
            if (s[0] != '\t') {
                g->in_legacy = 0;     /* "View hierarchy:" and what follows */
                rc = legacy_end(g, err);
            }
        }
        if (strcmp(s, "View hierarchy:") == 0) {
            /* the last window's summary, then the end of its profile data */
            rc = flush_summary(g, err);
            if (rc == GD_OK)
                rc = end_window(g, err);
            continue;
        }
        if (strcmp(s, "Profile data in ms:") == 0) {
            rc = flush_summary(g, err);
            g->in_legacy = 1;
            g->legacy_cols = 0;
            continue;
        }
        if (!g->in_summary && strncmp(s, "Uptime: ", 8) == 0) {
            /* the dump's time: "Uptime: %lld Realtime: %lld" (uptimeMillis,
             * CLOCK_MONOTONIC as "Stats since" is), printed once above the
             * processes by ActivityManagerService */
            double up = strtod(s + 8, NULL);
            g->uptime = up > 0 ? up : GD_NONE;
            continue;
        }
        if (strncmp(s, "** Graphics info for pid ", 25) == 0) {
            rc = flush_summary(g, err);
            if (rc == GD_OK)
                rc = legacy_end(g, err);
            if (rc == GD_OK)
                rc = end_window(g, err);
            if (rc == GD_OK)
                rc = process_header(g, s, lineno, err);
            continue;
        }
        if (s[0] == '\t' && strstr(s, "ViewRootImpl@")) {
            rc = flush_summary(g, err);
            if (rc == GD_OK)
                rc = legacy_end(g, err);
            if (rc == GD_OK)
                rc = end_window(g, err); /* the previous window's table */
            size_t n = strlen(s + 1);
            n = gd_sink_cut(g->sink, s + 1, n, sizeof g->window - 1, 0);
            memcpy(g->window, s + 1, n);
            g->window[n] = 0;
            g->have_window = 1;
            g->win_summarized = 0;
            if (g->in_legacy)
                open_window(g, lineno);
            continue;
        }
        if (strncmp(s, "Window: ", 8) == 0) {
            rc = flush_summary(g, err);
            start_summary(g, 1, lineno);
            continue;
        }
        if (g->in_summary) {
            if (!*s) {
                /* a blank line right after the process header opens the block */
                if (g->nfig)
                    rc = flush_summary(g, err);
                continue;
            }
            if (strncmp(s, "Stats since: ", 13) == 0)
                g->summary_ts = strtod(s + 13, NULL) / NS_PER_MS;
            if (add_figure(g, s, lineno, err) == 1)
                rc = flush_summary(g, err);
        }
    }
    if (rc == GD_OK && r < 0)
        rc = err->code ? err->code : GD_ERR_DATA;
    if (rc == GD_OK)
        rc = flush_summary(g, err);
    if (rc == GD_OK)
        rc = legacy_end(g, err);
    if (rc == GD_OK)
        rc = end_window(g, err);
    free_figs(g);
    free(g);
    return rc;
}

static int probe(const unsigned char *head, size_t n, int eof)
{
    (void)eof;
    char *h = gd_text_head(head, n, NULL);
    if (!h)
        return 0;
    int score = 0;
    if (strstr(h, "** Graphics info for pid "))
        score = 95;
    else if (strstr(h, "---PROFILEDATA---") && strstr(h, "IntendedVsync"))
        score = 90;
    else if (strstr(h, "\nTotal frames rendered: ") && strstr(h, "\nJanky frames: "))
        score = 80;
    free(h);
    return score;
}

const gd_reader gd_reader_gfxinfo = {
    .name = "gfxinfo",
    .description = "`adb shell dumpsys gfxinfo <pkg> [framestats]`: frames and frame summaries",
    .probe = probe,
    .read = read_gfx,
    .clock = "monotonic",
};
