/* atrace.c - pairs atrace slices per thread and emits dispatches, methods,
 * frames and lock-contention issues (see atrace.h). */
#include "atrace.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/row.h"
#include "core/skip_reasons.h"
#include "slicetrack.h"

typedef struct athread {
    int64_t tid;          /* -1: empty slot */
    int64_t pid;          /* -1 unknown */
    char *name;           /* thread name */
    char *pname;          /* process name (entries whose tid is a pid) */
    unsigned long main_slices; /* slices on this thread as a main thread */
} athread;

/* An app launch in progress: system_server's async "launching: PKG" slice
 * (S|pid|name|cookie ... F|pid|name|cookie, or on newer releases the track
 * form G|pid|track|name|cookie ... H|pid|track|cookie). */
#define ATRACE_MAX_LAUNCHES 32
#define ATRACE_RECENT 64
#define ATRACE_DIGITS_CAP ((int64_t)1 << 40) /* digits past this are read but not added: no overflow */
typedef struct alaunch {
    char key[160];        /* name (S/F) or track (G/H), then '|' cookie  */
    char pkg[128];
    double ts;
    int64_t pid;
    int used;
    /* #27: Android 13+ "launchingActivity#N" (id N): its package and kind
     * come from the "launchingActivity#N:completed[-KIND]:PKG" instant,
     * before or after its end */
    int a13, ended, have_pkg;
    int64_t id;
    double end;
    const char *kind;     /* "cold", "warm", "hot" from the marker, or NULL */
} alaunch;

struct gd_atrace {
    const gd_sink *sink;
    alaunch launch[ATRACE_MAX_LAUNCHES];
    /* recent bindApplication, activityStart, activityResume begins on a
     * main thread (tid == pid): the launch kinds */
    double binds[ATRACE_RECENT], starts[ATRACE_RECENT], resumes[ATRACE_RECENT];
    int64_t bind_pid[ATRACE_RECENT], start_pid[ATRACE_RECENT], resume_pid[ATRACE_RECENT];
    unsigned nbinds, nstarts, nresumes;
    /* #27: the last "MetricsLogger:launchObserverNotifyIntentStarted"
     * begin, and whether a "launching: PKG" slice already took it */
    double intent_ts;
    int have_intent, intent_taken;
    /* a "launchingActivity#N" launch began: the trace reports its launches
     * that way, and its "launching: PKG" slices say the same launches again
     * (Perfetto's android_startups reads one source a trace: without the
     * SDK version, launchingActivity#N when the trace has any) */
    int seen_a13;
    char prefix[32];
    athread *tab;
    size_t cap, n;        /* cap a power of two */
    int full;
    double last_ts;
    unsigned long events;
    gd_slicetrack *st;    /* open slices per track (thread or TrackEvent track) */
    char reason[96];
    const char *reason_head, *reason_what; /* what reason holds (NULL: nothing yet) */
};

/* A skip's reason "[ignored: ]PREFIX: WHAT", WHAT a GD_SKIP text (a constant):
 * written again only when it differs from the last one (#50: 12,410
 * ignored markers of the 4 MB slices trace, 1,000 instructions each). */
static const char *reason(gd_atrace *a, const char *head, const char *what)
{
    if (head != a->reason_head || what != a->reason_what) {
        snprintf(a->reason, sizeof a->reason, "%s%s: %s", head, a->prefix, what);
        a->reason_head = head;
        a->reason_what = what;
    }
    return a->reason;
}
static const char *why(gd_atrace *a, const char *what) { return reason(a, "", what); }
static const char *ignored(gd_atrace *a, const char *what) { return reason(a, "ignored: ", what); }

gd_atrace *gd_atrace_new(const gd_sink *sink, const char *prefix)
{
    gd_atrace *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->sink = sink;
    snprintf(a->prefix, sizeof a->prefix, "%s", prefix);
    a->last_ts = GD_NONE;
    if (!(a->st = gd_slicetrack_new(ATRACE_MAX_THREADS, ATRACE_MAX_DEPTH, ATRACE_MAX_OPEN_BYTES))) {
        free(a);
        return NULL;
    }
    return a;
}

void gd_atrace_free(gd_atrace *a)
{
    if (!a)
        return;
    for (size_t i = 0; i < a->cap; i++) {
        athread *t = &a->tab[i];
        if (t->tid < 0)
            continue;
        free(t->name);
        free(t->pname);
    }
    free(a->tab);
    gd_slicetrack_free(a->st);
    free(a);
}

unsigned long gd_atrace_events(const gd_atrace *a) { return a->events; }

static size_t slot_of(int64_t tid, size_t cap)
{
    uint64_t h = (uint64_t)tid * 0x9E3779B97F4A7C15ull;
    return (size_t)((h ^ (h >> 31)) & (cap - 1));
}

static int rehash(gd_atrace *a, size_t ncap)
{
    athread *nt = malloc(ncap * sizeof *nt);
    if (!nt)
        return -1;
    for (size_t i = 0; i < ncap; i++)
        nt[i].tid = -1;
    for (size_t i = 0; i < a->cap; i++) {
        if (a->tab[i].tid < 0)
            continue;
        size_t h = slot_of(a->tab[i].tid, ncap);
        while (nt[h].tid >= 0)
            h = (h + 1) & (ncap - 1);
        nt[h] = a->tab[i];
    }
    free(a->tab);
    a->tab = nt;
    a->cap = ncap;
    return 0;
}

/* The state of tid, created on first use; NULL when the table is full
 * (counted once) or out of memory (err set). */
static athread *thread_of(gd_atrace *a, int64_t tid, gd_error *err)
{
    if (tid < 0)
        return NULL;
    if (a->cap) {
        size_t h = slot_of(tid, a->cap);
        while (a->tab[h].tid >= 0) {
            if (a->tab[h].tid == tid)
                return &a->tab[h];
            h = (h + 1) & (a->cap - 1);
        }
    }
    if (a->n >= ATRACE_MAX_THREADS) {
        if (!a->full)
            gd_sink_skip(a->sink, why(a, GD_SKIP(TOO_MANY_THREADS_LATER_ONES_NOT_TRACKED)), 0, 0);
        a->full = 1;
        return NULL;
    }
    if ((a->n + 1) * 2 > a->cap && rehash(a, a->cap ? a->cap * 2 : 256)) {
        gd_error_oom(err);
        return NULL;
    }
    size_t h = slot_of(tid, a->cap);
    while (a->tab[h].tid >= 0)
        h = (h + 1) & (a->cap - 1);
    athread *t = &a->tab[h];
    memset(t, 0, sizeof *t);
    t->tid = tid;
    t->pid = -1;
    a->n++;
    return t;
}

static athread *find(gd_atrace *a, int64_t tid)
{
    if (!a->cap || tid < 0)
        return NULL;
    size_t h = slot_of(tid, a->cap);
    while (a->tab[h].tid >= 0) {
        if (a->tab[h].tid == tid)
            return &a->tab[h];
        h = (h + 1) & (a->cap - 1);
    }
    return NULL;
}

/* s[0..len) as a C string of at most ATRACE_MAX_NAME - 1 bytes, cut at a
 * character boundary and counted (gd_sink_cut). */
static char *copy_name(gd_atrace *a, const char *s, size_t len, long line)
{
    len = gd_sink_cut(a->sink, s, len, ATRACE_MAX_NAME - 1, line);
    char *c = malloc(len + 1);
    if (c) {
        memcpy(c, s, len);
        c[len] = 0;
    }
    return c;
}

static int set_name(gd_atrace *a, char **dst, const char *name, size_t len, gd_error *err)
{
    if (*dst && strlen(*dst) == gd_utf8_cut(name, len, ATRACE_MAX_NAME - 1) &&
        memcmp(*dst, name, strlen(*dst)) == 0)
        return 0;
    char *c = copy_name(a, name, len, 0);
    if (!c)
        return gd_error_oom(err);
    free(*dst);
    *dst = c;
    return 0;
}

int gd_atrace_process_name(gd_atrace *a, int64_t pid, const char *name, size_t len, gd_error *err)
{
    athread *t = thread_of(a, pid, err);
    if (!t)
        return err->code;
    t->pid = pid;
    return len ? set_name(a, &t->pname, name, len, err) : 0;
}

int gd_atrace_thread_start(gd_atrace *a, int64_t tid, int64_t pid)
{
    athread *t = find(a, tid);
    if (!t || pid < 0)
        return 0;
    if (t->pid >= 0 && t->pid != pid) { /* another process's thread had the tid */
        free(t->name);
        free(t->pname);
        t->name = t->pname = NULL;
    }
    t->pid = pid;
    return 0;
}

/* The kernel's cut of a thread's name (#47): a comm of 15 bytes (TASK_COMM_LEN
 * - 1) that is the head of the full name (pthread_setname_np: "ExoPlayer:Playb"
 * of "ExoPlayer:Playback") or its tail (ART keeps the end of a dotted name).
 * A full name the trace gave (a Perfetto thread descriptor or process tree,
 * a systrace process dump) is not replaced by the comm a later event carries. */
static int comm_of(const char *full, const char *name, size_t len)
{
    size_t fn = full ? strlen(full) : 0;
    if (len != 15 || fn <= len)
        return 0;
    return memcmp(full, name, len) == 0 || memcmp(full + fn - len, name, len) == 0;
}

int gd_atrace_thread_name(gd_atrace *a, int64_t tid, int64_t pid, const char *name, size_t len,
                          gd_error *err)
{
    athread *t = thread_of(a, tid, err);
    if (!t)
        return err->code;
    if (pid >= 0)
        t->pid = pid;
    if (len && comm_of(t->name, name, len))
        return 0; /* keep the full name */
    return len ? set_name(a, &t->name, name, len, err) : 0;
}

/* The name a thread is stored under (#30): a process's main thread (tid =
 * pid) goes by its process's name when that is known and the thread's own
 * name is that name cut by the kernel's 15-character comm (the tail of a
 * package, "android.youtube" for com.google.android.youtube: the package;
 * the head of a binary's base name, "android.hardwar" for
 * /vendor/bin/hw/android.hardware.health-service: that base name); a comm
 * shorter than 15 characters was not cut and stays.  The one home of that
 * rule. */
#define GD_COMM_MAX 15 /* the kernel's TASK_COMM_LEN - 1 */
static const char *name_as(const athread *t, const char *name)
{
    if (!name || !t->pname || t->tid != t->pid)
        return name;
    size_t n = strlen(name), pn = strlen(t->pname);
    if (n < GD_COMM_MAX || n >= pn) /* a shorter comm was not cut */
        return name;
    const char *base = strrchr(t->pname, '/');
    base = base ? base + 1 : t->pname;
    if (memcmp(t->pname + pn - n, name, n) == 0)
        return t->pname;
    if (strlen(base) > n && memcmp(base, name, n) == 0)
        return base; /* a binary goes by its base name */
    return name;
}

static const char *stored_name(const athread *t) { return name_as(t, t->name); }

/* The name of process pid: its process name, else its main thread's. */
static const char *process_name(gd_atrace *a, int64_t pid)
{
    athread *p = find(a, pid);
    return !p ? NULL : p->pname ? p->pname : p->name;
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

static int emit(gd_atrace *a, gd_event *ev, gd_error *err)
{
    a->events++;
    return gd_sink_event(a->sink, ev, err);
}

/* "monitor contention with owner NAME (TID) at METHOD waiters=N blocking
 * from METHOD" (ART) or "Lock contention on ..." -> an issue. */
static int lock_issue(gd_atrace *a, const gd_event *base, const char *name, const char *parent,
                      double dur, int main, gd_error *err)
{
    static const char MON[] = "monitor contention with owner ";
    static const char LOCK[] = "Lock contention on ";
    if (strncmp(name, MON, sizeof MON - 1) != 0 && strncmp(name, LOCK, sizeof LOCK - 1) != 0)
        return 0;
    /* ART nests "Lock contention on a monitor lock" in the "monitor
     * contention with owner ..." slice: one contention, one issue */
    if (name[0] == 'L' && parent && strncmp(parent, MON, sizeof MON - 1) == 0)
        return 0;
    json_t *o = json_object();
    if (!o)
        return gd_error_oom(err);
    if (name[0] == 'm') {
        /* owner "NAME (TID)", then " at METHOD" (newer ART), " waiters=N",
         * " blocking from METHOD" */
        const char *s = name + sizeof MON - 1, *open = NULL, *close = NULL;
        for (const char *q = s; *q && !open; q++) {
            if (q[0] != ' ' || q[1] != '(' || !is_digit(q[2]))
                continue;
            const char *e = q + 2;
            while (is_digit(*e))
                e++;
            if (*e == ')')
                open = q, close = e;
        }
        if (open) {
            json_object_set_new(o, "owner", json_stringn(s, (size_t)(open - s)));
            json_object_set_new(o, "owner_tid", json_integer(strtoll(open + 2, NULL, 10)));
            const char *rest = close + 1;
            const char *w = strstr(rest, " waiters=");
            const char *b = strstr(rest, " blocking from ");
            if (strncmp(rest, " at ", 4) == 0) {
                const char *m = rest + 4;
                const char *mend = w ? w : b ? b : m + strlen(m);
                json_object_set_new(o, "owner_method", json_stringn(m, (size_t)(mend - m)));
            }
            if (w)
                json_object_set_new(o, "waiters", json_integer(strtoll(w + 9, NULL, 10)));
            if (b)
                json_object_set_new(o, "blocked_method", json_string(b + 15));
        }
    }
    const char *ot = name[0] == 'L' ? strstr(name, "(owner tid: ") : NULL;
    if (ot)
        json_object_set_new(o, "owner_tid", json_integer(strtoll(ot + 12, NULL, 10)));
    json_object_set_new(o, "slice", json_string(name));
    json_object_set_new(o, "dur_ms", json_real(dur));
    json_object_set_new(o, "main", json_boolean(main));
    char *js = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(o);
    if (!js)
        return gd_error_oom(err);
    gd_event ev = *base;
    ev.kind = GD_EV_ISSUE;
    memset(&ev.u, 0, sizeof ev.u);
    ev.u.issue.tool = "android";
    ev.u.issue.type = "lock_contention";
    ev.u.issue.detail = NULL;
    ev.u.issue.cost_ms = dur;
    ev.u.issue.json = js;
    int rc = emit(a, &ev, err);
    free(js);
    return rc;
}

/* One slice of thread t that began as f and ends at end; depth = open
 * slices below it on its track, parent the one right below (or NULL).
 * Releases f. */
static int emit_slice(gd_atrace *a, athread *t, gd_slice *f, const gd_slice *parent, double end,
                      int depth, int open, long line, gd_error *err)
{
    int64_t pid = f->tag >= 0 ? f->tag : t->pid;
    int main = pid > 0 && pid == t->tid; /* pid 0: the kernel (idle task) */
    double dur = end - f->ts;
    if (dur < 0)
        dur = 0;
    gd_event ev;
    int rc = 0;
    if (main) {
        t->main_slices++; /* the main thread is the process's entry (tid == pid) */
    }
    if (main && depth == 0) {
        gd_event_init(&ev, GD_EV_DISPATCH);
        ev.u.dispatch.dur = dur;
        /* "Choreographer#doFrame 123456" (Android 12+ names the vsync):
         * one message for every frame, not one per vsync id */
        static const char df[] = "Choreographer#doFrame";
        size_t dl = sizeof df - 1;
        int vsync = strncmp(f->name, df, dl) == 0 && f->name[dl] == ' ' && is_digit(f->name[dl + 1]);
        for (const char *q = f->name + dl + 1; vsync && *q; q++)
            vsync = is_digit(*q);
        ev.u.dispatch.msg = vsync ? df : f->name;
        ev.u.dispatch.unfinished = open;
    } else {
        gd_event_init(&ev, GD_EV_METHOD);
        char *hash = strchr(f->name, '#');
        if (hash && hash != f->name && hash[1])
            *hash = 0;
        ev.u.method.phase = GD_PHASE_UNKNOWN;
        ev.u.method.cls = hash && !*hash ? f->name : NULL;
        ev.u.method.method = hash && !*hash ? hash + 1 : f->name;
        ev.u.method.end_ts = f->ts + dur;
        ev.u.method.depth = main ? depth - 1 : depth;
        ev.u.method.open = open;
    }
    ev.ts = f->ts;
    ev.pid = pid >= 0 ? pid : GD_PID_APP;
    ev.tid = t->tid;
    ev.thread = stored_name(t);
    ev.line = line;
    rc = emit(a, &ev, err);
    if (ev.kind == GD_EV_METHOD && ev.u.method.cls)
        f->name[strlen(f->name)] = '#';  /* undo the split */
    /* a frame is "Choreographer#doFrame" or "Choreographer#doFrame <vsync id>";
     * "Choreographer#doFrame - resynced to N ..." (nested in it) is not another (#27) */
    if (!rc && main && !open && strncmp(f->name, "Choreographer#doFrame", 21) == 0 &&
        (f->name[21] == 0 || (f->name[21] == ' ' && is_digit(f->name[22])))) {
        gd_event fr;
        gd_event_init(&fr, GD_EV_FRAME);
        fr.ts = f->ts;
        fr.pid = pid;
        fr.tid = t->tid;
        fr.thread = stored_name(t);
        fr.line = line;
        fr.u.frame.dur = dur;
        fr.u.frame.window = t->pname ? t->pname : t->name; /* t is the process */
        fr.u.frame.source = "doframe";
        rc = emit(a, &fr, err);
    }
    if (!rc && !open)
        rc = lock_issue(a, &ev, f->name, parent ? parent->name : NULL, dur, main, err);
    gd_slicetrack_release(a->st, f);
    return rc;
}

static void note_ts(gd_atrace *a, double ts)
{
    if (!gd_has(a->last_ts) || ts > a->last_ts)
        a->last_ts = ts;
}

/* A begin on track (ns, id) by thread tid of process pid (-1 unknown). */
static int slice_begin(gd_atrace *a, int ns, uint64_t id, double ts_ms, int64_t pid, int64_t tid,
                       const char *name, size_t len, long line, gd_error *err)
{
    note_ts(a, ts_ms);
    athread *t = thread_of(a, tid, err);
    if (!t)
        return err->code;
    if (pid >= 0 && t->pid < 0)
        t->pid = pid;
    int st;
    gd_slice *f = gd_slicetrack_begin(a->st, ns, id, tid,
                                      len < ATRACE_MAX_NAME ? len : ATRACE_MAX_NAME, &st);
    if (st == GD_ST_MEM)
        gd_sink_skip(a->sink, why(a, GD_SKIP(SLICE_DROPPED_OPEN_SLICES_OVER_16_MIB)), line, 0);
    else if (st == GD_ST_DEEP)
        gd_sink_skip(a->sink, why(a, GD_SKIP(SLICES_NESTED_TOO_DEEP)), line, 0);
    else if (st == GD_ST_FULL)
        gd_sink_skip(a->sink, why(a, GD_SKIP(TOO_MANY_TRACKS_LATER_ONES_NOT_TRACKED)), line, 0);
    else if (st == GD_ST_NOMEM)
        return gd_error_oom_at(err, line, 0);
    if (!f)
        return 0;
    /* launch kinds (Perfetto's android_startup_processes): the app's main
     * thread bound (cold), started (warm) or resumed (hot) an activity
     * while a launch was in progress */
    int64_t owner = pid >= 0 ? pid : t->pid;
    static const char intent[] = "MetricsLogger:launchObserverNotifyIntentStarted";
    if (owner != tid) {
        /* not a main thread: no launch kind */
    } else if (len == 15 && memcmp(name, "bindApplication", 15) == 0) {
        a->bind_pid[a->nbinds % ATRACE_RECENT] = owner;
        a->binds[a->nbinds++ % ATRACE_RECENT] = ts_ms;
    } else if (len == 13 && memcmp(name, "activityStart", 13) == 0) {
        a->start_pid[a->nstarts % ATRACE_RECENT] = owner;
        a->starts[a->nstarts++ % ATRACE_RECENT] = ts_ms;
    } else if (len == 14 && memcmp(name, "activityResume", 14) == 0) {
        a->resume_pid[a->nresumes % ATRACE_RECENT] = owner;
        a->resumes[a->nresumes++ % ATRACE_RECENT] = ts_ms;
    }
    if (len == sizeof intent - 1 && memcmp(name, intent, len) == 0) {
        a->intent_ts = ts_ms;
        a->have_intent = 1;
        a->intent_taken = 0;
    }
    char *c = copy_name(a, name, len, line);
    if (!c)
        return gd_error_oom_at(err, line, 0);
    gd_slicetrack_name(a->st, f, c);
    f->ts = ts_ms;
    f->tag = pid;
    return 0;
}

/* An end on track (ns, id) by thread tid. */
static int slice_end(gd_atrace *a, int ns, uint64_t id, double ts_ms, int64_t tid, long line,
                     gd_error *err)
{
    note_ts(a, ts_ms);
    athread *t = find(a, tid);
    int st = GD_ST_UNMATCHED, depth = 0;
    const gd_slice *parent = NULL;
    gd_slice *f = t ? gd_slicetrack_end(a->st, ns, id, &depth, &parent, &st) : NULL;
    if (st == GD_ST_DROPPED)
        return 0;
    if (!f) {
        gd_sink_skip(a->sink, why(a, GD_SKIP(SLICE_END_WITHOUT_BEGIN)), line, 0);
        return 0;
    }
    return emit_slice(a, t, f, parent, ts_ms, depth, 0, line, err);
}

int gd_atrace_begin(gd_atrace *a, double ts_ms, int64_t pid, int64_t tid, const char *name,
                    size_t len, long line, gd_error *err)
{
    return slice_begin(a, GD_TRACK_THREAD, (uint64_t)tid, ts_ms, pid, tid, name, len, line, err);
}

int gd_atrace_end(gd_atrace *a, double ts_ms, int64_t tid, long line, gd_error *err)
{
    return slice_end(a, GD_TRACK_THREAD, (uint64_t)tid, ts_ms, tid, line, err);
}

int gd_atrace_track_begin(gd_atrace *a, uint64_t track, double ts_ms, int64_t pid, int64_t tid,
                          const char *name, size_t len, long line, gd_error *err)
{
    return slice_begin(a, GD_TRACK_UUID, track, ts_ms, pid, tid, name, len, line, err);
}

int gd_atrace_track_end(gd_atrace *a, uint64_t track, double ts_ms, int64_t tid, long line,
                        gd_error *err)
{
    return slice_end(a, GD_TRACK_UUID, track, ts_ms, tid, line, err);
}

/* 1 when a begin of the app `pkg` is in [lo, hi): a process whose name
 * begins with pkg (pkg, pkg:remote: Perfetto's GLOB 'pkg*' without a
 * package list) or, when no process name is known, whose main thread's
 * 15-character comm is the head or the tail of pkg; or any process when
 * the trace names none. */
static int recent_in(gd_atrace *a, const double *v, const int64_t *pids, unsigned n,
                     const char *pkg, double lo, double hi)
{
    size_t pl = strlen(pkg);
    for (unsigned i = 0; i < n && i < ATRACE_RECENT; i++) {
        if (!(v[i] >= lo && v[i] < hi))
            continue;
        const char *pn = process_name(a, pids[i]);
        size_t nl = pn ? strlen(pn) : 0;
        if (!pn || strncmp(pn, pkg, pl) == 0 ||
            (nl == 15 && nl < pl && (strncmp(pkg, pn, nl) == 0 || strcmp(pkg + pl - nl, pn) == 0)))
            return 1;
    }
    return 0;
}

/* Splits "a|b|c" after the marker letter and pid into at most 3 fields. */
static int fields(const char *p, const char *end, const char **f, size_t *fl, int max)
{
    int n = 0;
    while (n < max) {
        const char *bar = n + 1 < max ? memchr(p, '|', (size_t)(end - p)) : NULL;
        f[n] = p;
        fl[n] = (size_t)((bar ? bar : end) - p);
        n++;
        if (!bar)
            break;
        p = bar + 1;
    }
    return n;
}

/* A launch that began at l->ts ended at `end`: a GD_EV_STARTUP; its kind
 * as the marker says, else as Perfetto decides it from the app's main
 * thread during [start, end): bindApplication, activityStart and
 * activityResume: cold; activityStart and activityResume: warm;
 * activityResume: hot; else unknown.  Frees the slot. */
static int launch_done(gd_atrace *a, alaunch *l, double end, long line, gd_error *err)
{
    l->used = 0;
    gd_event ev;
    gd_event_init(&ev, GD_EV_STARTUP);
    ev.ts = end;
    ev.pid = l->pid;
    ev.line = line;
    ev.u.startup.app = l->pkg;
    ev.u.startup.total_ms = end - l->ts;
    int resumed = recent_in(a, a->resumes, a->resume_pid, a->nresumes, l->pkg, l->ts, end);
    int started = resumed && recent_in(a, a->starts, a->start_pid, a->nstarts, l->pkg, l->ts, end);
    int bound = started && recent_in(a, a->binds, a->bind_pid, a->nbinds, l->pkg, l->ts, end);
    ev.u.startup.kind = l->kind ? l->kind : bound ? "cold" : started ? "warm" : resumed ? "hot" : NULL;
    ev.u.startup.source = a->prefix;
    return emit(a, &ev, err);
}

/* The end (F/H) of launch l at ts_ms: reported, held for its completed
 * marker (launchingActivity#N), or counted. */
static int launch_end(gd_atrace *a, alaunch *l, double ts_ms, long line, gd_error *err)
{
    if (ts_ms < l->ts) {
        l->used = 0;
        gd_sink_skip(a->sink, why(a, GD_SKIP(LAUNCH_ENDS_BEFORE_IT_BEGINS)), line, 0);
        return 0;
    }
    if (l->a13 && !l->have_pkg) { /* its completed marker names the app */
        l->ended = 1;
        l->end = ts_ms;
        return 0;
    }
    if (!l->a13 && a->seen_a13) { /* the same launch as a launchingActivity#N */
        l->used = 0;
        gd_sink_skip(a->sink, why(a, GD_SKIP(LAUNCH_ALSO_REPORTED_BY_LAUNCHINGACTIVITY)), line, 0);
        return 0;
    }
    return launch_done(a, l, ts_ms, line, err);
}

/* S/F (name, cookie) and G/H (track, name, cookie / track, cookie) async
 * markers: app launches become GD_EV_STARTUP, the rest are counted. */
static int async_marker(gd_atrace *a, double ts_ms, char kind, const char *buf, size_t len,
                        long line, gd_error *err)
{
    const char *end = buf + len, *p = buf + 2;
    const char *bar = memchr(p, '|', (size_t)(end - p));
    if (!bar) {
        gd_sink_skip(a->sink, ignored(a, GD_SKIP(ASYNC_SLICE_MARKER)), line, 0);
        return 0;
    }
    int64_t pid = 0;
    for (const char *q = p; q < bar && *q >= '0' && *q <= '9' && pid < ATRACE_DIGITS_CAP; q++)
        pid = pid * 10 + (*q - '0');
    const char *f[3];
    size_t fl[3];
    int nf = fields(bar + 1, end, f, fl, kind == 'G' ? 3 : 2);
    const char *name = NULL, *track = NULL, *cookie = NULL;
    size_t nl = 0, tl = 0, cl = 0;
    if ((kind == 'S' || kind == 'F') && nf == 2) {
        name = f[0], nl = fl[0], cookie = f[1], cl = fl[1];
    } else if (kind == 'G' && nf == 3) {
        track = f[0], tl = fl[0], name = f[1], nl = fl[1], cookie = f[2], cl = fl[2];
    } else if (kind == 'H' && nf == 2) {
        track = f[0], tl = fl[0], cookie = f[1], cl = fl[1];
    }
    char key[160];
    if (kind == 'S' || kind == 'F')
        snprintf(key, sizeof key, "%.*s|%.*s", (int)(nl < 120 ? nl : 120), name ? name : "",
                 (int)(cl < 30 ? cl : 30), cookie ? cookie : "");
    else
        snprintf(key, sizeof key, "%.*s|%.*s", (int)(tl < 120 ? tl : 120), track ? track : "",
                 (int)(cl < 30 ? cl : 30), cookie ? cookie : "");
    static const char launching[] = "launching: ", a13[] = "launchingActivity#";
    if (kind == 'S' || kind == 'G') {
        int is13 = name && nl > sizeof a13 - 1 && memcmp(name, a13, sizeof a13 - 1) == 0 &&
                   !memchr(name, ':', nl);
        if (!is13 && (!name || nl <= sizeof launching - 1 ||
                      memcmp(name, launching, sizeof launching - 1) != 0)) {
            gd_sink_skip(a->sink, ignored(a, GD_SKIP(ASYNC_SLICE_MARKER)), line, 0);
            return 0;
        }
        alaunch *l = NULL;
        for (int i = 0; i < ATRACE_MAX_LAUNCHES && !l; i++)
            if (!a->launch[i].used)
                l = &a->launch[i];
        if (!l) {
            gd_sink_skip(a->sink, why(a, GD_SKIP(TOO_MANY_LAUNCHES_IN_PROGRESS)), line, 0);
            return 0;
        }
        memset(l, 0, sizeof *l);
        l->used = 1;
        l->ts = ts_ms;
        l->pid = pid;
        snprintf(l->key, sizeof l->key, "%s", key);
        if (is13) {
            l->a13 = 1;
            a->seen_a13 = 1;
            for (const char *q = name + sizeof a13 - 1;
                 q < name + nl && *q >= '0' && *q <= '9' && l->id < ATRACE_DIGITS_CAP; q++)
                l->id = l->id * 10 + (*q - '0');
            return 0;
        }
        /* Perfetto (startups_minsdk29): the launch starts at the intent
         * received before it, when no other launch took that intent */
        if (a->have_intent && !a->intent_taken && a->intent_ts <= ts_ms) {
            l->ts = a->intent_ts;
            a->intent_taken = 1;
        }
        size_t pl = nl - (sizeof launching - 1);
        pl = gd_sink_cut(a->sink, name + sizeof launching - 1, pl, sizeof l->pkg - 1, line);
        snprintf(l->pkg, sizeof l->pkg, "%.*s", (int)pl, name + sizeof launching - 1);
        l->have_pkg = 1;
        return 0;
    }
    alaunch *l = NULL;
    for (int i = 0; i < ATRACE_MAX_LAUNCHES && !l; i++)
        if (a->launch[i].used && !a->launch[i].ended && strcmp(a->launch[i].key, key) == 0)
            l = &a->launch[i];
    if (!l) {
        gd_sink_skip(a->sink, ignored(a, GD_SKIP(ASYNC_SLICE_MARKER)), line, 0);
        return 0;
    }
    return launch_end(a, l, ts_ms, line, err);
}

/* Android 13+ "I|pid|launchingActivity#N:completed[-cold|-warm|-hot]:PKG"
 * (Perfetto's startups_minsdk33): the package and, when given, the kind of
 * launch N.  1 when the marker is not one. */
static int launch_completed(gd_atrace *a, const char *name, size_t nl, long line, gd_error *err)
{
    static const char pre[] = "launchingActivity#";
    size_t pl = sizeof pre - 1;
    if (nl <= pl || memcmp(name, pre, pl) != 0)
        return 1;
    const char *end = name + nl, *p = name + pl;
    int64_t id = 0;
    const char *q = p;
    for (; q < end && *q >= '0' && *q <= '9' && id < ATRACE_DIGITS_CAP; q++)
        id = id * 10 + (*q - '0');
    static const char done[] = ":completed";
    if (q == p || (size_t)(end - q) < sizeof done - 1 || memcmp(q, done, sizeof done - 1) != 0)
        return 1;
    q += sizeof done - 1;
    const char *colon = memchr(q, ':', (size_t)(end - q));
    if (!colon || colon + 1 >= end)
        return 1;
    const char *kind = NULL;
    size_t kl = (size_t)(colon - q);
    if (kl == 5 && memcmp(q, "-cold", 5) == 0)
        kind = "cold";
    else if (kl == 5 && memcmp(q, "-warm", 5) == 0)
        kind = "warm";
    else if (kl == 4 && memcmp(q, "-hot", 4) == 0)
        kind = "hot";
    if (kl == 13 && memcmp(q, "-same-process", 13) == 0) {
        gd_sink_skip(a->sink, ignored(a, GD_SKIP(LAUNCH_COMPLETED_IN_THE_SAME_PROCESS)), line, 0);
        return 0;
    }
    alaunch *l = NULL;
    for (int i = 0; i < ATRACE_MAX_LAUNCHES && !l; i++)
        if (a->launch[i].used && a->launch[i].a13 && !a->launch[i].have_pkg && a->launch[i].id == id)
            l = &a->launch[i];
    if (!l) {
        gd_sink_skip(a->sink, why(a, GD_SKIP(LAUNCH_COMPLETED_MARKER_OF_NO_LAUNCH)), line, 0);
        return 0;
    }
    size_t pk = (size_t)(end - colon - 1);
    pk = gd_sink_cut(a->sink, colon + 1, pk, sizeof l->pkg - 1, line);
    snprintf(l->pkg, sizeof l->pkg, "%.*s", (int)pk, colon + 1);
    l->have_pkg = 1;
    l->kind = kind;
    return l->ended ? launch_done(a, l, l->end, line, err) : 0;
}

static int64_t parse_pid(const char *s, size_t len)
{
    int64_t v = 0;
    if (len == 0 || len > 10)
        return -1;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

int gd_atrace_marker(gd_atrace *a, double ts_ms, int64_t tid, int64_t tgid, const char *buf,
                     size_t len, long line, gd_error *err)
{
    while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r' || buf[len - 1] == 0))
        len--;
    if (len == 0) {
        gd_sink_skip(a->sink, why(a, GD_SKIP(EMPTY_MARKER)), line, 0);
        return 0;
    }
    if (len >= 1 && buf[0] == 'E' && (len == 1 || buf[1] == '|'))
        return gd_atrace_end(a, ts_ms, tid, line, err);
    if (len >= 2 && buf[1] == '|') {
        switch (buf[0]) {
        case 'B': {
            const char *p = buf + 2, *end = buf + len;
            const char *bar = memchr(p, '|', (size_t)(end - p));
            if (!bar) {
                gd_sink_skip(a->sink, why(a, GD_SKIP(BEGIN_MARKER_WITHOUT_NAME)), line, 0);
                return 0;
            }
            int64_t pid = parse_pid(p, (size_t)(bar - p));
            return gd_atrace_begin(a, ts_ms, pid >= 0 ? pid : tgid, tid, bar + 1,
                                   (size_t)(end - bar - 1), line, err);
        }
        case 'C':
            gd_sink_skip(a->sink, ignored(a, GD_SKIP(COUNTER_MARKER)), line, 0);
            return 0;
        case 'S':
        case 'F':
        case 'G':
        case 'H':
            return async_marker(a, ts_ms, buf[0], buf, len, line, err);
        case 'I': {
            /* "I|pid|name": an instant; Android 13+ launch completions are read */
            const char *p = buf + 2, *end = buf + len;
            const char *bar = memchr(p, '|', (size_t)(end - p));
            int r = bar ? launch_completed(a, bar + 1, (size_t)(end - bar - 1), line, err) : 1;
            if (r != 1)
                return r;
            gd_sink_skip(a->sink, ignored(a, GD_SKIP(OTHER_ATRACE_MARKER)), line, 0);
            return 0;
        }
        case 'N':
        case 'T':
        case 'U':
            gd_sink_skip(a->sink, ignored(a, GD_SKIP(OTHER_ATRACE_MARKER)), line, 0);
            return 0;
        default:
            break;
        }
    }
    if (len >= 23 && memcmp(buf, "trace_event_clock_sync:", 23) == 0)
        gd_sink_skip(a->sink, ignored(a, GD_SKIP(CLOCK_SYNC_MARKER)), line, 0);
    else
        gd_sink_skip(a->sink, ignored(a, GD_SKIP(PRINT_NOT_AN_ATRACE_MARKER)), line, 0);
    return 0;
}

/* The slices still open on track (ns, id) of thread t, innermost first,
 * each ended at the trace's last time. */
static int flush_track(gd_atrace *a, athread *t, int ns, uint64_t id, gd_error *err)
{
    if (gd_slicetrack_forget_dropped(a->st, ns, id))
        gd_sink_skip(a->sink, why(a, GD_SKIP(SLICES_NESTED_TOO_DEEP)), 0, 0);
    int rc = 0, depth;
    const gd_slice *parent;
    gd_slice *f;
    while (!rc && (f = gd_slicetrack_pop_open(a->st, ns, id, &depth, &parent)))
        rc = emit_slice(a, t, f, parent, a->last_ts, depth, 1, 0, err);
    return rc;
}

int gd_atrace_finish(gd_atrace *a, gd_error *err)
{
    int rc = 0;
    for (int i = 0; i < ATRACE_MAX_LAUNCHES; i++)
        if (a->launch[i].used) {
            /* #27: a launch still open at the end has no first frame: no launch */
            gd_sink_skip(a->sink, why(a, a->launch[i].ended ? GD_SKIP(LAUNCH_WITHOUT_ITS_COMPLETED_MARKER)
                                                            : GD_SKIP(LAUNCH_NEVER_ENDED)), 0, 0);
            a->launch[i].used = 0;
        }
    int64_t best = -1;
    unsigned long most = 0;
    for (size_t i = 0; i < a->cap && !rc; i++) {
        athread *t = &a->tab[i];
        if (t->tid < 0)
            continue;
        rc = flush_track(a, t, GD_TRACK_THREAD, (uint64_t)t->tid, err);
    }
    /* then TrackEvent tracks, each flushed as its thread's */
    size_t it = 0;
    int ns;
    uint64_t id;
    int64_t owner;
    athread *t;
    while (!rc && gd_slicetrack_next(a->st, &it, &ns, &id, &owner))
        if (ns == GD_TRACK_UUID && (t = find(a, owner)))
            rc = flush_track(a, t, ns, id, err);
    for (size_t i = 0; i < a->cap; i++) {
        athread *t = &a->tab[i];
        if (t->tid >= 0 && t->main_slices > most) {
            most = t->main_slices;
            best = t->tid;
        }
    }
    /* the processes the trace names (process tree, descriptors, a process
     * dump): each its main thread's row where no event named it */
    for (size_t i = 0; i < a->cap && !rc; i++) {
        athread *p = &a->tab[i];
        if (p->tid < 0 || p->tid != p->pid || !p->pname)
            continue;
        gd_event ev;
        gd_event_init(&ev, GD_EV_PROCESS);
        ev.pid = ev.tid = p->tid;
        ev.thread = p->pname;
        rc = gd_sink_event(a->sink, &ev, err);
    }
    if (rc)
        return rc;
    gd_meta m;
    gd_meta_init(&m);
    m.clock = "monotonic";
    if (best >= 0) {
        m.app = process_name(a, best);
        m.pid = best;
        m.main_tid = best;
    }
    return gd_sink_meta(a->sink, &m, err);
}

const char *gd_atrace_process_of(void *ctx, int64_t pid) { return process_name(ctx, pid); }

int gd_atrace_thread_info(void *ctx, int64_t tid, int64_t *pid, const char **name)
{
    athread *t = find(ctx, tid);
    if (!t)
        return 0;
    *pid = t->pid;
    /* its own name (markers, descriptors) before the scheduler's comm */
    *name = name_as(t, t->name ? t->name : *name);
    return 1;
}
