/* event.h - the one normalized event that every reader emits.
 *
 * Readers turn bytes into gd_event values and hand them to a gd_sink one at
 * a time.  An event and every pointer inside it are borrowed: valid only for
 * the duration of the callback (readers reuse their buffers).  A sink that
 * needs a string later copies it.
 *
 * Conventions shared by all kinds:
 *   - times are epoch milliseconds as double (sub-ms allowed);
 *   - durations are milliseconds as double;
 *   - an absent number is GD_NONE (NaN) for doubles and -1 for integers
 *     unless the field says otherwise;
 *   - an absent string is NULL.
 */
#ifndef GD_CORE_EVENT_H
#define GD_CORE_EVENT_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

#define GD_NONE NAN
#define gd_has(x) (!isnan(x))

/* tid value meaning "the main thread" (the capture's meta.main_tid). */
#define GD_TID_MAIN ((int64_t)-1)
/* pid value meaning "the capture's process" (meta.pid). */
#define GD_PID_APP ((int64_t)-1)

typedef enum gd_event_kind {
    GD_EV_LOOPER = 0,  /* one Looper Printer line (begin or end)           */
    GD_EV_DISPATCH,    /* an already paired dispatch (ts = begin, dur)      */
    GD_EV_STACK,       /* one stack sample of one thread                    */
    GD_EV_CPU,         /* one CPU sample (raw /proc counters or ratios)     */
    GD_EV_MEMORY,      /* one memory snapshot                               */
    GD_EV_LIFECYCLE,   /* one page lifecycle callback                       */
    GD_EV_VIEW_DUMP,   /* one view tree                                     */
    GD_EV_IMAGE,       /* one bitmap shown by a view                        */
    GD_EV_METHOD,      /* method enter/exit, or a complete call             */
    GD_EV_FRAME,       /* one rendered frame                                */
    GD_EV_MARK,        /* a user annotation                                 */
    GD_EV_FRAME_SUMMARY, /* gfxinfo summary figures (since app start)       */
    GD_EV_ISSUE,       /* a finding reported by an on-device tool (Matrix,  *
                        * GodEye view issue...) kept as reported            */
    GD_EV_STARTUP,     /* one app launch (cold/warm/hot) as measured by a   *
                        * tool: ts = when the launch was reported           */
    /* #26: the platform's "why" */
    GD_EV_THREAD_STATE, /* one scheduling interval of one thread (ftrace    *
                         * sched events, Perfetto's thread_state)           */
    GD_EV_BINDER,       /* one binder transaction (ts = the client's call)  */
    /* #28 */
    GD_EV_LOG,          /* one log line kept as a row (never an "event" of  *
                         * the ingest's count)                              */
    GD_EV_PROCESS,      /* a process the trace names (pid, thread = its     *
                         * name: a process tree's cmdline, gfxinfo's        *
                         * "[PKG]"): its main thread's row when no event    *
                         * named that thread (never an "event" of the count;*
                         * no time; not a capture-format kind)              */
    GD_EV__COUNT
} gd_event_kind;

/* Name used in the capture format ("looper", "dispatch", ...). */
const char *gd_event_kind_name(gd_event_kind k);
/* Inverse of gd_event_kind_name; -1 when unknown. */
int gd_event_kind_from_name(const char *name);

typedef enum { GD_PHASE_UNKNOWN = 0, GD_PHASE_BEGIN, GD_PHASE_END } gd_phase;

typedef struct gd_looper_ev {
    gd_phase phase;      /* UNKNOWN: infer from msg prefix, else alternate */
    double thread_ts;    /* currentThreadTimeMillis at the print, or NONE  */
    const char *msg;     /* the printed line or NULL                       */
} gd_looper_ev;

typedef struct gd_dispatch_ev {
    double dur;          /* wall ms (required, >= 0)                       */
    double thread_dur;   /* thread cpu ms or NONE                          */
    const char *msg;
    int unfinished;      /* 1: still running when the capture stopped      */
} gd_dispatch_ev;

typedef struct gd_stack_ev {
    const char *const *frames; /* innermost first                          */
    size_t nframes;
    const char *state;   /* thread state (ANR dumps: "Blocked"...) or NULL */
    const char *source;  /* "perf_sample", "streaming_profile" (Perfetto CPU
                          * profiles) or NULL: the trace's format (#26)     */
    uint64_t key;        /* 0, or a key the reader gives every event of the
                          * same frames in one read, so that the writer
                          * walks them once (#53)                            */
} gd_stack_ev;

/* Raw counters from /proc/stat's first line and /proc/<pid>/stat. */
typedef struct gd_cpu_counters {
    uint64_t user, nice, system, idle, iowait, irq, softirq, steal;
    int has_stat;        /* the /proc/stat fields are set                  */
    uint64_t utime, stime, cutime, cstime;
    int has_pid_stat;    /* the /proc/<pid>/stat fields are set            */
} gd_cpu_counters;

typedef struct gd_cpu_ev {
    gd_cpu_counters raw; /* raw counters when present                      */
    /* precomputed ratios 0..1, each NONE when absent */
    double total, app, user, sys, iowait;
} gd_cpu_ev;

/* Memory snapshot, AndroidGodEye's fields; -1 = absent. */
typedef struct gd_memory_ev {
    int64_t heap_free_kb, heap_max_kb, heap_alloc_kb;
    int64_t pss_total_kb, pss_dalvik_kb, pss_native_kb, pss_other_kb;
    int64_t ram_avail_kb, ram_total_kb, ram_low_threshold_kb;
    int ram_is_low;      /* -1 absent, 0, 1                                */
} gd_memory_ev;

typedef struct gd_page {
    const char *type;    /* "activity" / "fragment" or NULL                */
    const char *cls;     /* class name or NULL                             */
    int64_t hash;        /* instance id; -1 absent                         */
    int64_t parent;      /* hosting activity's hash; -1 absent             */
} gd_page;

typedef struct gd_lifecycle_ev {
    gd_page page;
    const char *event;   /* "ON_CREATE", ...                               */
    double end_ts;       /* callback exit, or NONE                         */
} gd_lifecycle_ev;

typedef struct gd_view {
    int64_t id;          /* unique within the dump                         */
    int64_t parent;      /* parent id, 0 for the root                      */
    const char *cls;
    int32_t rect[4];     /* l, t, r, b absolute screen px, r/b exclusive    */
    int32_t layers;      /* opaque paint layers; -1 = unknown (no paint data) */
    int visible;         /* 0 hides the view and its subtree               */
    const char *res_id;
    const char *text;
} gd_view;

typedef struct gd_view_dump_ev {
    gd_page page;
    int32_t screen_w, screen_h; /* 0 when unknown                          */
    const gd_view *views;
    size_t nviews;
    int has_paint;       /* 0: bounds only (uiautomator): no overdraw      */
    const char *window;  /* window / activity title or NULL                */
} gd_view_dump_ev;

typedef struct gd_image_ev {
    gd_page page;
    int64_t view_hash;
    const char *view_cls;
    int32_t view_w, view_h;
    int view_visible;
    int32_t bitmap_w, bitmap_h;
    const char *config;  /* "ARGB_8888"... or NULL                         */
    const char *source;  /* "src" / "background" or NULL                   */
} gd_image_ev;

typedef struct gd_method_ev {
    gd_phase phase;      /* BEGIN = enter, END = exit, UNKNOWN = complete  */
    const char *cls;     /* JVM internal ("a/b/C$D") or dotted             */
    const char *method;
    const char *desc;    /* JVM descriptor or NULL                         */
    double end_ts;       /* for complete calls (phase UNKNOWN), or NONE    */
    int depth;           /* for complete calls, -1 unknown                 */
    int open;            /* complete call cut by the recording: still      *
                          * running when it stopped (end_ts is the          *
                          * recording's end) or already running when it    *
                          * started (ts is the recording's start; ART)      */
} gd_method_ev;

typedef struct gd_frame_ev {
    double dur;          /* frame time ms                                  */
    const char *window;  /* window or NULL                                 */
    int64_t flags;       /* gfxinfo Flags; 0 normal                        */
    double vsync_ms;     /* refresh interval ms when known, else NONE      */
    /* #27: where the frame comes from, and a Perfetto FrameTimeline
     * surface frame's own figures (all -1 for other frames) */
    const char *source;  /* "frametimeline", "doframe" or NULL (as read)   */
    int64_t jank;        /* FrameTimeline jank_type bitmask, -1 none       */
    int64_t present;     /* FrameTimeline present_type, -1 none            */
    int64_t token;       /* surface frame token, -1 none                   */
    /* #51: a framestats row's platform jank (JankTracker: GpuCompleted at or
     * after its FrameDeadline, 0 met or exempt), -1 unknown (no deadline) */
    int64_t deadline_missed;
} gd_frame_ev;

typedef struct gd_mark_ev {
    const char *name;
} gd_mark_ev;

/* gfxinfo summary figures as printed: key/value pairs (both strings). */
typedef struct gd_frame_summary_ev {
    const char *window;  /* or NULL for the app-wide summary               */
    const char *const *keys;
    const char *const *values;
    size_t n;
    double until;        /* the dump's time (gfxinfo's "Uptime:", the clock *
                          * of ts): the figures cover ts .. until; NONE    */
} gd_frame_summary_ev;

/* A finding reported by an on-device tool, kept as reported. */
typedef struct gd_issue_ev {
    const char *tool;    /* "matrix", "godeye", "anr"...                   */
    const char *type;    /* tool's type ("Trace_EvilMethod", "deadlock")   */
    const char *detail;  /* subtype or NULL                                */
    double cost_ms;      /* or NONE                                        */
    const char *json;    /* the issue as JSON text, or NULL                */
} gd_issue_ev;

/* One app launch.  `total_ms` is the whole launch as the tool measured it
 * (logcat "Displayed ... +1s234ms", am start -W TotalTime, Matrix STARTUP
 * cost, a trace's bindApplication..first frame). */
typedef struct gd_startup_ev {
    const char *app;      /* package, or NULL for the capture's app          */
    const char *activity; /* launched activity or NULL                       */
    const char *kind;     /* "cold", "warm", "hot" or NULL when unknown      */
    double total_ms;      /* required: the whole launch, from the intent to
                           * the first frame (#51: Displayed's "total")      */
    double activity_ms;   /* #51: the drawn activity's own time where the
                           * source prints it apart from the total
                           * (Displayed's first figure before "(total",
                           * *_launch_time's this, ThisTime), or NONE        */
    double wait_ms;       /* am start -W WaitTime, or NONE                   */
    const char *source;   /* "logcat", "am_start", "matrix", "perfetto"...   */
    /* #27: time to full display (reportFullyDrawn), or NONE; fully_drawn 1:
     * the event only gives ttfd_ms of the last launch of app/activity
     * before it (logcat "Fully drawn"), total_ms is then ttfd_ms */
    double ttfd_ms;
    int fully_drawn;
} gd_startup_ev;

/* One interval of a thread's scheduling state, as Perfetto's thread_state
 * names it: "Running" (on a CPU), "R" (runnable: woken or new), "R+"
 * (runnable: preempted), or the sleeping states of sched_switch's
 * prev_state ("S", "D", "T", "t", "X", "Z", "P", "x", "K", "W", "N", "I",
 * combined as the kernel prints them, "DK"...); NULL when the kernel's
 * state was not valid.  ts = start; pid = the thread's process or -1 when
 * unknown (never the capture's). */
typedef struct gd_thread_state_ev {
    double dur;          /* ms, NONE: still open at the end of the trace   */
    const char *state;
    int io_wait;         /* D state: 1 waiting for I/O, 0 not, -1 unknown  */
    const char *blocked_function; /* kernel function it blocked in, or NULL */
    int cpu;             /* Running: the CPU, else -1                      */
    int64_t waker_tid;   /* R: the thread that woke it, -1 unknown         */
} gd_thread_state_ev;

/* One binder transaction: pid/tid = the client (pid -1 when unknown). */
typedef struct gd_binder_ev {
    double dur;          /* client: call to reply received; NONE: no reply */
    int64_t server_pid, server_tid; /* -1 unknown                          */
    double server_ts, server_dur;   /* NONE when the server never got it   */
    int oneway;
    int64_t code, flags, txn_id;
    const char *reply_status; /* "BR_FAILED_REPLY", "BR_DEAD_REPLY"...: the call failed; NULL */
    const char *server_process; /* the name the trace gives server_pid, NULL unknown */
} gd_binder_ev;

/* One log line (logcat, a bugreport's logs, Perfetto android_log). */
typedef struct gd_log_ev {
    const char *level;   /* "V".."F", or NULL                              */
    const char *tag;     /* or NULL                                        */
    const char *msg;     /* the message, capped by the reader (GD_LOG_MSG_MAX) */
} gd_log_ev;
/* The longest log message kept, in bytes (a longer one is cut). */
#define GD_LOG_MSG_MAX 1024

typedef struct gd_event {
    gd_event_kind kind;
    double ts;           /* epoch ms; NONE only where a kind allows it     */
    int64_t pid;         /* GD_PID_APP when not given                      */
    int64_t tid;         /* GD_TID_MAIN when not given                     */
    const char *thread;  /* thread name or NULL                            */
    long line;           /* source position for messages (0 unknown)       */
    union {
        gd_looper_ev looper;
        gd_dispatch_ev dispatch;
        gd_stack_ev stack;
        gd_cpu_ev cpu;
        gd_memory_ev memory;
        gd_lifecycle_ev lifecycle;
        gd_view_dump_ev view_dump;
        gd_image_ev image;
        gd_method_ev method;
        gd_frame_ev frame;
        gd_mark_ev mark;
        gd_frame_summary_ev frame_summary;
        gd_issue_ev issue;
        gd_startup_ev startup;
        gd_thread_state_ev thread_state;
        gd_binder_ev binder;
        gd_log_ev log;
    } u;
} gd_event;

/* Initialises `ev` as kind `k` with every field absent (NONE / -1 / NULL,
 * pid GD_PID_APP, tid GD_TID_MAIN). */
void gd_event_init(gd_event *ev, gd_event_kind k);

/* The sane ranges of an event's numbers (man/godeye-ingest.1): a time is
 * milliseconds in [0, GD_TS_MAX_MS] (epoch captures: 1970-01-01 up to the
 * end of year 9999; monotonic clocks: >= 0); a duration in
 * [-GD_DUR_MAX_MS, GD_DUR_MAX_MS] (a negative one is the writer's to
 * count) (2^53 microseconds, about 285 years: exact in
 * microseconds and within int64 nanoseconds); a bitmap or view side at
 * most GD_SIDE_MAX px (an area in bytes stays exact in int64 and double). */
#define GD_TS_MAX_MS 253402300799999.0
#define GD_DUR_MAX_MS 9007199254740.992
#define GD_SIDE_MAX ((int32_t)1 << 24)

/* NULL when every number of `ev` is absent or in range, else the capture
 * field name of the first one out of range ("ts", "dur", "bitmap.w"...). */
const char *gd_event_out_of_range(const gd_event *ev);

/* Moves `ev` to another clock: `by` ms added to its ts and to its other
 * times on the same clock (a callback's or a call's end_ts, a binder
 * server's server_ts, a frame summary's until) where they are present and
 * past 0 (0: a reader's "time unknown"); durations and thread CPU times
 * stay.  A bugreport puts its monotonic sections on its wall clock so. */
void gd_event_shift(gd_event *ev, double by);

/* Capture metadata.  Readers may call the sink's meta callback several
 * times; later values fill fields still absent (first value wins). */
#define GD_MAX_CONCERN 16
typedef struct gd_meta {
    const char *app, *version_name, *device, *session;
    int64_t version_code, api_level, cpu_cores, pid, main_tid, clk_tck; /* -1 */
    double long_block_ms, short_block_ms, dump_interval_ms, sample_delay_ms; /* NONE */
    int64_t max_depth;   /* -1 */
    const char *concern[GD_MAX_CONCERN];
    size_t nconcern;
    const char *json;    /* the meta object as JSON text, or NULL          */
    /* What the capture's times are: "utc" (epoch ms, zone known), "local"
     * (device wall clock read without a zone: logcat, ANR dump times),
     * "monotonic" (time since boot: Chrome JSON, gfxinfo, systrace,
     * Perfetto's default clock), or NULL when the reader cannot tell. */
    const char *clock;
    int64_t utc_offset_min; /* the capture's own zone offset when known,   *
                             * INT64_MIN when not                           */
    int sampled;            /* 1: recorded by sampling (an ART trace of      *
                             * Debug.startMethodTracingSampling): counts and *
                             * times are estimates; 0 exact or unknown       */
} gd_meta;

/* Initialises `m` with every field absent. */
void gd_meta_init(gd_meta *m);

/* The event as a new JSON object in the capture format's field names (the
 * inverse of the godeye reader; absent fields omitted).  Used for raw
 * storage, debugging (`godeye events`) and tests.  NULL only when out of
 * memory.  Declared with an opaque type to keep jansson out of this header. */
struct json_t;
struct json_t *gd_event_to_json(const gd_event *ev);
struct json_t *gd_meta_to_json(const gd_meta *m);

/* Where readers send what they read.  Each callback returns 0 to go on or
 * a GD_ERR_* code (with `err` filled) to stop the reader, which then
 * returns that code.  `skip` counts input the reader dropped, by a short
 * stable reason ("looper: end without begin", "line: unparsable"...). */
typedef struct gd_sink {
    void *ctx;
    int (*meta)(void *ctx, const gd_meta *m, gd_error *err);
    int (*event)(void *ctx, const gd_event *ev, gd_error *err);
    void (*skip)(void *ctx, const char *reason, long line, long col);
} gd_sink;

static inline int gd_sink_meta(const gd_sink *s, const gd_meta *m, gd_error *err)
{
    return s->meta ? s->meta(s->ctx, m, err) : 0;
}
static inline int gd_sink_event(const gd_sink *s, const gd_event *ev, gd_error *err)
{
    return s->event ? s->event(s->ctx, ev, err) : 0;
}
static inline void gd_sink_skip(const gd_sink *s, const char *reason, long line, long col)
{
    if (s->skip)
        s->skip(s->ctx, reason, line, col);
}

/* Text is valid UTF-8 from where it enters (#53 item 1): the ingest writer
 * passes every event and metadata through these before anything reads
 * their texts, so no JSON builder downstream can fail on them.  Scratch
 * of the mending (core/mend.c); zero it before first use. */
typedef struct gd_mend {
    gd_event ev;
    gd_meta meta;
    char **owned;        /* mended texts of the last call                  */
    size_t nowned, capowned;
    const char **ptrs;   /* copied text arrays (frames, keys and values)   */
    size_t capptrs;
    gd_view *views;
    size_t capviews;
} gd_mend;

/* ev itself when every text of it is NULL or valid UTF-8 (no copy), else a
 * copy in m whose invalid texts have each byte that starts no character
 * replaced by U+FFFD (gd_utf8_mend), valid until the next call on m; NULL
 * only when out of memory. */
const gd_event *gd_event_mend(gd_mend *m, const gd_event *ev);
/* The same for a capture's metadata. */
const gd_meta *gd_meta_mend(gd_mend *m, const gd_meta *meta);
void gd_mend_free(gd_mend *m);

/* The length of t[0..len) that a copy bounded to `max` bytes keeps: cut
 * without splitting a UTF-8 character (gd_utf8_cut), and counted once
 * under GD_SKIP(TEXT_CUT) (core/skip_reasons.def, #25 item 16) at `line` when it is cut (s may be NULL). */
size_t gd_sink_cut(const gd_sink *s, const char *t, size_t len, size_t max, long line);

#endif
