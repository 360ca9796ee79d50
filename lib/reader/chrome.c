/* chrome.c - reader of Chrome trace-event JSON (Chrome/WebView on Android): looper dispatches.
 *
 * Containers (both may be gzipped; the input layer decompresses):
 *   - JSON Array Format: `[ {event}, ... ]` (the closing `]` may be missing,
 *     as the format allows for traces cut short);
 *   - JSON Object Format: `{"traceEvents":[...], ...}` with keys in any
 *     order; other keys ("metadata", "stackFrames", "samples"...) are skipped;
 *   - catapult's JSON form of a systrace (issue 46): the same object with
 *     "systemTraceEvents", the atrace/ftrace text as one JSON string, read
 *     by the systrace reader into the same trace (as catapult's own parser
 *     reads both); the text is one JSON element, so at most 8 MiB; its
 *     times are the kernel's monotonic clock, the traceEvents' their own
 *     (no clock-sync alignment).  A string of no text, or another JSON
 *     type (catapult's tests hold [] there), is skipped.
 * traceEvents is streamed element by element (lib/io/jsonstream.h).
 *
 * Which slices are dispatches: Android main-looper messages as Chromium's
 * org.chromium.base.TraceEvent looper monitor records them: named exactly
 * "Looper.dispatchMessage" (older Chromium, as in the corpus traces) or
 * starting with "Looper.dispatch: " (newer Chromium: "Looper.dispatch:
 * <handler class>(<message>)").  Native task slices such as
 * "MessageLoop::RunTask" are NOT dispatches: they run on every Chromium
 * thread and nest inside the looper slices on the main thread, so counting
 * them would double the main thread's dispatches.
 *
 * Emits:
 *   - ph X dispatch slice -> GD_EV_DISPATCH: ts, dur, thread_dur = tdur (when
 *     present), msg = the args object as compact JSON when non-empty, else
 *     the name;
 *   - ph B dispatch slice -> GD_EV_LOOPER BEGIN, ph E closing one -> GD_EV_LOOPER
 *     END: thread_ts = tts, msg as above (an E without name or args: NULL).
 *     B/E nest per pid/tid: the begin/end tracker (slicetrack.h, one track
 *     per pid/tid pair, depth CHROME_MAX_DEPTH) tells which B an E closes,
 *     so only the dispatch slices' own ends become looper events.  Pairing
 *     of the looper events is left to analyses.
 *   all with pid, tid and thread = the M thread_name seen so far for that
 *   pid/tid (NULL when the name comes later in the file).
 * Times: ts/dur/tts/tdur are microseconds, converted to milliseconds.  The
 * clock is the tracing clock (CLOCK_MONOTONIC-like on Android), not the epoch:
 * such traces carry no epoch and ts is kept as is, in ms.  No gd_meta is
 * emitted (process names are "Browser"/"Renderer", not packages).
 *
 * Skips (counted): every event that yields no godeye event and is not an
 * M thread_name record counts once under "ignored: chrome event not used"
 * (other slices, instants, counters -- Chrome's counters carry no CPU ratio
 * --, async and flow events, other metadata); malformed events count under
 * "chrome: ..." reasons.
 *
 * Memory: one event at a time, plus per-thread state for at most
 * CHROME_MAX_THREADS pid/tid pairs (name and open-slice stack). */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "io/input.h"
#include "io/jsonstream.h"
#include "reader.h"
#include "core/util.h"
#include "slicetrack.h"
#include "core/scan.h"
#include "core/skip_reasons.h"

#define CHROME_MAX_THREADS 4096
#define CHROME_MAX_DEPTH 256
#define CHROME_HASH 8192 /* power of two, > 2 x CHROME_MAX_THREADS */
#define CHROME_MAX_NAME 256

typedef struct cthread {
    int64_t pid, tid;
    char *name;                          /* from M thread_name, or NULL */
} cthread;

typedef struct cctx {
    const gd_sink *sink;
    gd_error *err;
    cthread *thr;
    size_t nthr;
    int32_t *slot;                       /* hash -> index + 1 into thr, 0 empty */
    gd_slicetrack *st;                   /* open Bs, one track per thr index (tag 1: a dispatch) */
    long line, col;
} cctx;

#define SKIP_UNUSED GD_SKIP(IGNORED_CHROME_EVENT_NOT_USED)

static int is_dispatch_name(const char *n)
{
    return n && (strcmp(n, "Looper.dispatchMessage") == 0 ||
                 strncmp(n, "Looper.dispatch: ", 17) == 0);
}

static size_t hash_of(int64_t pid, int64_t tid)
{
    uint64_t h = (uint64_t)pid * 0x9E3779B97F4A7C15ull ^ (uint64_t)tid * 0xC2B2AE3D27D4EB4Full;
    h ^= h >> 29;
    return (size_t)(h & (CHROME_HASH - 1));
}

/* The state of pid/tid, created on first use; NULL when the table is full
 * (counted) or out of memory (err set, *oom = 1). */
static cthread *thread_of(cctx *c, int64_t pid, int64_t tid, int *oom)
{
    if (!c->slot) {
        c->slot = calloc(CHROME_HASH, sizeof *c->slot);
        c->st = gd_slicetrack_new(CHROME_MAX_THREADS, CHROME_MAX_DEPTH,
                                  (size_t)CHROME_MAX_THREADS * CHROME_MAX_DEPTH * sizeof(gd_slice));
        if (!c->slot || !c->st) {
            *oom = 1;
            gd_error_oom_at(c->err, c->line, c->col);
            return NULL;
        }
    }
    size_t h = hash_of(pid, tid);
    while (c->slot[h]) {
        cthread *t = &c->thr[c->slot[h] - 1];
        if (t->pid == pid && t->tid == tid)
            return t;
        h = (h + 1) & (CHROME_HASH - 1);
    }
    if (c->nthr >= CHROME_MAX_THREADS) {
        gd_sink_skip(c->sink, GD_SKIP(CHROME_TOO_MANY_THREADS_NESTING_NOT_TRACKED), c->line, c->col);
        return NULL;
    }
    if (c->nthr % 64 == 0) {
        cthread *n = realloc(c->thr, (c->nthr + 64) * sizeof *n);
        if (!n) {
            *oom = 1;
            gd_error_oom_at(c->err, c->line, c->col);
            return NULL;
        }
        c->thr = n;
    }
    cthread *t = &c->thr[c->nthr];
    memset(t, 0, sizeof *t);
    t->pid = pid;
    t->tid = tid;
    c->slot[h] = (int32_t)++c->nthr;
    return t;
}

/* Integer id from a number or a numeric string; -1 otherwise. */
static int64_t id_of(json_t *v)
{
    if (json_is_integer(v))
        return json_integer_value(v);
    int64_t r;
    if (json_is_real(v))
        return gd_d2i64(json_real_value(v), &r) ? r : -1;
    if (json_is_string(v)) {
        char *e;
        long long x = strtoll(json_string_value(v), &e, 10);
        if (*e == 0 && e != json_string_value(v))
            return x;
    }
    return -1;
}

/* Microseconds field -> ms, or NONE. */
static double ms_of(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) / 1000.0 : GD_NONE;
}

/* msg for a dispatch: args as compact JSON when a non-empty object (caller
 * frees *owned), else the name. */
static const char *msg_of(json_t *o, const char *name, char **owned)
{
    json_t *a = json_object_get(o, "args");
    *owned = NULL;
    if (json_is_object(a) && json_object_size(a) > 0) {
        *owned = json_dumps(a, JSON_COMPACT | JSON_SORT_KEYS);
        if (*owned)
            return *owned;
    }
    return name;
}

static void set_thread_name(cctx *c, json_t *o, int64_t pid, int64_t tid)
{
    json_t *args = json_object_get(o, "args");
    const char *n = json_string_value(json_object_get(args, "name"));
    int oom = 0;
    cthread *t;
    if (!n) {
        gd_sink_skip(c->sink, GD_SKIP(CHROME_THREAD_NAME_WITHOUT_ARGS_NAME), c->line, c->col);
        return;
    }
    if (!(t = thread_of(c, pid, tid, &oom)))
        return;
    size_t len = strlen(n);
    if (len >= CHROME_MAX_NAME)
        len = CHROME_MAX_NAME - 1;
    char *copy = malloc(len + 1);
    if (!copy)
        return;
    memcpy(copy, n, len);
    copy[len] = 0;
    free(t->name);
    t->name = copy;
}

/* One trace event.  0 or an error code. */
static int handle(cctx *c, json_t *o)
{
    if (!json_is_object(o)) {
        gd_sink_skip(c->sink, GD_SKIP(CHROME_EVENT_NOT_AN_OBJECT), c->line, c->col);
        return 0;
    }
    const char *ph = json_string_value(json_object_get(o, "ph"));
    if (!ph || !ph[0] || ph[1]) {
        gd_sink_skip(c->sink, GD_SKIP(CHROME_EVENT_WITHOUT_PH), c->line, c->col);
        return 0;
    }
    const char *name = json_string_value(json_object_get(o, "name"));
    int64_t pid = id_of(json_object_get(o, "pid"));
    int64_t tid = id_of(json_object_get(o, "tid"));
    char p = ph[0];

    if (p == 'M' && name && strcmp(name, "thread_name") == 0) {
        set_thread_name(c, o, pid, tid);
        return 0;
    }
    if (p != 'X' && p != 'B' && p != 'E') {
        gd_sink_skip(c->sink, SKIP_UNUSED, c->line, c->col);
        return 0;
    }

    int oom = 0;
    cthread *t = NULL;
    if (p != 'X') {
        t = thread_of(c, pid, tid, &oom);
        if (oom)
            return GD_ERR_IO;
    } else if (is_dispatch_name(name)) {
        t = thread_of(c, pid, tid, &oom);
        if (oom)
            return GD_ERR_IO;
    }

    /* does this event start or end a dispatch slice? */
    int dispatch = 0;
    if (p == 'B') {
        dispatch = is_dispatch_name(name);
        if (t) {
            int st;
            gd_slice *f = gd_slicetrack_begin(c->st, GD_TRACK_THREAD, (uint64_t)(t - c->thr),
                                              t->tid, 0, &st);
            if (st == GD_ST_NOMEM)
                return gd_error_oom_at(c->err, c->line, c->col);
            if (f) {
                f->tag = dispatch;
            } else {
                if (st == GD_ST_DEEP)
                    gd_sink_skip(c->sink, GD_SKIP(CHROME_SLICES_NESTED_TOO_DEEP), c->line, c->col);
                dispatch = 0;
            }
        }
    } else if (p == 'E') {
        int st = GD_ST_UNMATCHED, depth;
        const gd_slice *parent;
        gd_slice *f = t ? gd_slicetrack_end(c->st, GD_TRACK_THREAD, (uint64_t)(t - c->thr), &depth,
                                            &parent, &st)
                        : NULL;
        if (st == GD_ST_DROPPED) {
            dispatch = 0;
        } else if (f) {
            dispatch = (int)f->tag;
            gd_slicetrack_release(c->st, f);
        } else if (is_dispatch_name(name)) {
            dispatch = 1;  /* began before the trace: analyses drop it */
        } else {
            gd_sink_skip(c->sink, GD_SKIP(CHROME_END_WITHOUT_BEGIN), c->line, c->col);
            return 0;
        }
    } else {
        dispatch = is_dispatch_name(name);
    }
    if (!dispatch) {
        gd_sink_skip(c->sink, SKIP_UNUSED, c->line, c->col);
        return 0;
    }

    double ts = ms_of(o, "ts");
    if (!gd_has(ts)) {
        gd_sink_skip(c->sink, GD_SKIP(CHROME_EVENT_WITHOUT_TS), c->line, c->col);
        return 0;
    }
    gd_event ev;
    char *owned = NULL;
    if (p == 'X') {
        double dur = ms_of(o, "dur");
        if (!gd_has(dur) || dur < 0) {
            gd_sink_skip(c->sink, GD_SKIP(CHROME_COMPLETE_EVENT_WITHOUT_DUR), c->line, c->col);
            return 0;
        }
        gd_event_init(&ev, GD_EV_DISPATCH);
        ev.u.dispatch.dur = dur;
        ev.u.dispatch.thread_dur = ms_of(o, "tdur");
        ev.u.dispatch.msg = msg_of(o, name, &owned);
    } else {
        gd_event_init(&ev, GD_EV_LOOPER);
        ev.u.looper.phase = p == 'B' ? GD_PHASE_BEGIN : GD_PHASE_END;
        ev.u.looper.thread_ts = ms_of(o, "tts");
        ev.u.looper.msg = msg_of(o, name, &owned);
    }
    ev.ts = ts;
    if (pid >= 0)
        ev.pid = pid;
    if (tid >= 0)
        ev.tid = tid;
    ev.thread = t ? t->name : NULL;
    ev.line = c->line;
    int rc = gd_sink_event(c->sink, &ev, c->err);
    free(owned);
    return rc;
}

/* Reads the elements of the array the stream is positioned in.  `lenient`:
 * end of input may stand for the closing ']' (JSON Array Format). */
static int read_events(cctx *c, gd_jstream *js, int lenient)
{
    int r;
    for (;;) {
        if (lenient && gd_jstream_peek(js, c->err) == 0)
            return 0;
        r = gd_jstream_next_elem(js, c->err);
        if (r <= 0)
            break;
        if (lenient && gd_jstream_peek(js, c->err) == 0)
            return 0;  /* a trailing ',' before the end */
        json_t *o = gd_jstream_value(js, &c->line, &c->col, c->err);
        if (!o)
            return c->err->code ? c->err->code : GD_ERR_DATA;
        int rc = handle(c, o);
        json_decref(o);
        if (rc)
            return rc;
    }
    return r < 0 ? (c->err->code ? c->err->code : GD_ERR_DATA) : 0;
}

/* The systrace reader (systrace.c): systemTraceEvents' text goes through it. */
extern const gd_reader gd_reader_systrace;

/* systemTraceEvents: a string of atrace/ftrace text, read as systrace. */
static int read_system_trace(cctx *c, gd_jstream *js, const gd_read_opts *opts)
{
    if (gd_jstream_peek(js, c->err) != '"')
        return gd_jstream_skip(js, c->err) ? (c->err->code ? c->err->code : GD_ERR_DATA) : 0;
    long line, col;
    json_t *v = gd_jstream_value(js, &line, &col, c->err);
    if (!v)
        return c->err->code ? c->err->code : GD_ERR_DATA;
    int rc = 0;
    size_t n = json_string_length(v);
    if (n) {
        gd_input *in = NULL;
        if (!(rc = gd_input_open_mem(&in, json_string_value(v), n, c->err))) {
            rc = gd_reader_systrace.read(in, c->sink, opts, c->err);
            if (rc && c->err->line) /* a line of the text, inside the string */
                snprintf(c->err->msg + strlen(c->err->msg), sizeof c->err->msg - strlen(c->err->msg),
                         " (line %ld of systemTraceEvents)", c->err->line);
            if (rc)
                c->err->line = line, c->err->col = col;
        }
        gd_input_close(in);
    }
    json_decref(v);
    return rc;
}

static int read_object(cctx *c, gd_jstream *js, const gd_read_opts *opts)
{
    const char *key;
    int r, seen = 0, sys = 0;
    while ((r = gd_jstream_next_key(js, &key, c->err)) == 1) {
        if (strcmp(key, "traceEvents") == 0 && !seen) {
            seen = 1;
            if (gd_jstream_peek(js, c->err) != '[')
                return gd_error_set(c->err, GD_ERR_DATA, gd_jstream_line(js), gd_jstream_col(js),
                                    "field 'traceEvents' must be an array");
            if (gd_jstream_enter(js, c->err))
                return GD_ERR_DATA;
            int rc = read_events(c, js, 0);
            if (rc)
                return rc;
        } else if (strcmp(key, "systemTraceEvents") == 0 && !sys) {
            sys = 1;
            int rc = read_system_trace(c, js, opts);
            if (rc)
                return rc;
        } else if (gd_jstream_skip(js, c->err)) {
            return c->err->code ? c->err->code : GD_ERR_DATA;
        }
    }
    if (r < 0)
        return c->err->code ? c->err->code : GD_ERR_DATA;
    if (!seen && !sys)
        return gd_error_set(c->err, GD_ERR_DATA, 1, 1,
                            "no 'traceEvents' array (nor 'systemTraceEvents') in the trace object");
    return 0;
}

static int read_chrome(gd_input *in, const gd_sink *sink, const gd_read_opts *opts, gd_error *err)
{
    cctx c;
    memset(&c, 0, sizeof c);
    c.sink = sink;
    c.err = err;
    gd_jstream *js = gd_jstream_new(in);
    if (!js)
        return gd_error_oom(err);
    int rc;
    int t = gd_jstream_peek(js, err);
    if (t == '[') {
        rc = gd_jstream_enter(js, err) ? GD_ERR_DATA : read_events(&c, js, 1);
    } else if (t == '{') {
        rc = gd_jstream_enter(js, err) ? GD_ERR_DATA : read_object(&c, js, opts);
        if (!rc && gd_jstream_expect_end(js, err))
            rc = GD_ERR_DATA;
    } else if (t < 0) {
        rc = err->code ? err->code : GD_ERR_IO;
    } else {
        rc = gd_error_set(err, GD_ERR_DATA, gd_jstream_line(js), gd_jstream_col(js),
                          "expected a trace-event array or object");
    }
    if (rc && err->code == 0)
        err->code = rc;
    for (size_t i = 0; i < c.nthr; i++)
        free(c.thr[i].name);
    free(c.thr);
    free(c.slot);
    gd_slicetrack_free(c.st);
    gd_jstream_free(js);
    return rc;
}

/* ---- probe ---- */

/* `"key"` followed by optional whitespace and ':' somewhere in h[i..n). */
static int has_key(const unsigned char *h, size_t n, size_t i, const char *key)
{
    size_t kl = strlen(key);
    for (; i + kl + 2 <= n; i++) {
        if (h[i] != '"' || memcmp(h + i + 1, key, kl) != 0 || h[i + 1 + kl] != '"')
            continue;
        size_t j = gd_skip_ws(h, n, i + kl + 2);
        if (j < n && h[j] == ':')
            return 1;
    }
    return 0;
}

static int probe(const unsigned char *h, size_t n, int eof)
{
    (void)eof;
    size_t i = gd_skip_ws(h, n, 0);
    if (i >= n)
        return 0;
    if (h[i] == '[') {
        size_t j = gd_skip_ws(h, n, i + 1);
        if (j < n && h[j] == '{' && has_key(h, n, j, "ph") &&
            (has_key(h, n, j, "ts") || has_key(h, n, j, "pid")))
            return 90;
        return 0;
    }
    if (h[i] == '{' && (has_key(h, n, i, "traceEvents") || has_key(h, n, i, "systemTraceEvents")))
        return 90;
    return 0;
}

const gd_reader gd_reader_chrome = {
    .name = "chrome",
    .description = "Chrome trace-event JSON (array or {\"traceEvents\":...}, gzip allowed): looper dispatches",
    .probe = probe,
    .read = read_chrome,
    .clock = "monotonic",
};
