/* anr_int.h - internals shared by the ANR traces.txt reader's files (anr*.c). */
#ifndef GD_READER_ANR_INT_H
#define GD_READER_ANR_INT_H

#include <stddef.h>
#include <stdint.h>

#include "reader.h"

#define ANR_MAX_FRAMES 1024
#define ANR_MAX_FRAME_BYTES ((size_t)1 << 20)
#define ANR_MAX_THREADS 8192
#define ANR_MAX_HELD_BYTES ((size_t)8 << 20)
#define ANR_MAX_LOCKED 8      /* "- locked <0x..>" kept per thread */

/* The dump header's heap and GC figures (ART's "Heap:", "Total GC count:",
 * "Total memory" ... lines), -1 when absent. */
enum {
    ANR_H_FREE_PCT = 0, ANR_H_USED, ANR_H_SIZE, ANR_H_OBJECTS, ANR_H_ALLOCATED, ANR_H_FREE,
    ANR_H_FREE_OOME, ANR_H_TOTAL, ANR_H_MAX, ANR_H_GC_COUNT, ANR_H_GC_TIME, ANR_H_GC_BLOCKING_COUNT,
    ANR_H_GC_BLOCKING_TIME, ANR_H_N
};

/* What the wait-for graph and the main-state issue need of one thread. */
typedef struct anr_thr {
    char name[128];
    char state[40];
    char waiting_on[40];  /* "0x0d3a2f0a" or "" */
    char lock[128];       /* class of the awaited lock or "" */
    int64_t tid;          /* sysTid, else dalvik tid, else -1 */
    int64_t dtid;         /* dalvik tid= or -1 */
    int64_t held_by;      /* dalvik tid of the lock holder or -1 */
    int has_state;
    int binder_seen;      /* the innermost binder frame was classified */
    char call[160];       /* that frame when it is an outgoing call, or "" */
    char locked[ANR_MAX_LOCKED][24];  /* "- locked <0x..>" addresses, in order */
    int nlocked;
    int locked_over;      /* more than ANR_MAX_LOCKED locks held */
    char wait_obj[24];    /* "- waiting on <0x..>" (Object.wait releases it) */
    /* frames of a thread held for a dump without header */
    long line;
    size_t hoff, hlen, hn;
} anr_thr;

enum { ANR_OUT = 0, ANR_IN_DUMP, ANR_IN_WCHAN, ANR_IN_BAD_DUMP, ANR_IN_KSTACKS };

typedef struct anr_ctx {
    const gd_sink *sink;
    gd_error *err;
    int where;
    long dump_line;
    int64_t pid;
    double ts;
    int64_t zone_min;     /* the dump header's +hhmm, INT64_MIN when none */
    char app[256];
    int has_app;
    char device[128];     /* of the dump's "Build fingerprint:" (#29), or "" */
    /* the dump's role (see anr.c: "Roles") */
    const char *section;  /* the carrier's, or NULL: decided at the first dump */
    const char *name;     /* source name (opts->name) or NULL */
    int64_t ndump;        /* dumps started so far in this input */
    char subject[512];    /* "Subject:" of an ANR record, before its first dump */
    int has_subject;
    long subject_line;
    char native_name[128];/* ">>> name <<<" of a native dump's header */
    double heap[ANR_H_N];
    int64_t main_idx;     /* index of "main" in thr, -1 none */
    int64_t main_tid;
    /* thread being read */
    int in_thread;
    long thr_line;
    anr_thr cur;
    char *fbuf;           /* frame texts, NUL separated */
    size_t flen, fcap;
    size_t *foff;         /* offsets into fbuf */
    size_t nframes, foff_cap;
    const char **fptr;
    size_t fptr_cap;
    int frames_over;
    /* threads of the current dump */
    anr_thr *thr;
    size_t nthr, thr_cap;
    int thr_over;
    /* a dump without header: threads held until its end line */
    int headless;
    char *held;
    size_t held_len, held_cap;
    size_t held_lost;     /* threads that could not be held */
    long line;            /* the input line being read (for counted cuts) */
} anr_ctx;

int anr_add_frame(anr_ctx *c, const char *a, size_t na, const char *b, size_t nb,
                  const char *z, size_t nz, long line);
void anr_copy_str(char *dst, size_t cap, const char *src, size_t n);
/* anr_copy_str of a text read from the input: a cut is counted under
 * GD_SKIP_TEXT_CUT at the line being read (gd_sink_cut). */
void gd_anr_copy_text(anr_ctx *c, char *dst, size_t cap, const char *src, size_t n);
int anr_emit_held(anr_ctx *c);
int anr_end_dump(anr_ctx *c);
void anr_leave_dump(anr_ctx *c);
void anr_event_init(const anr_ctx *c, gd_event *ev, gd_event_kind k, const anr_thr *t, long line);
int anr_end_thread(anr_ctx *c);
const char *anr_header_quote(const char *s);
void anr_lock_line(anr_ctx *c, const char *s);
int anr_native_frame(anr_ctx *c, const char *s, long line);
int64_t anr_parse_uint(const char *s, const char **end);
int anr_starts(const char *s, const char *p);
int anr_thread_header(anr_ctx *c, const char *s, long line);
size_t anr_trim_right(const char *s, size_t n);

#endif
