/* art_trace_int.h - internals shared by the ART/Dalvik method trace reader. */
#ifndef GD_READER_ART_TRACE_INT_H
#define GD_READER_ART_TRACE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "reader.h"

#define ART_MAGIC "SLOW"
#define ART_MAX_LINE 65536
#define ART_MAX_METHODS (1u << 20)
#define ART_MAX_NAMES ((size_t)64 << 20)
#define ART_MAX_OPEN 1048576
#define ART_MAX_THREADS 65536
#define ART_DEPTH_BASE 1048576
#define ART_MAX_PRE 65536
#define ART_EPOCH_US 946684800000000.0 /* 2000-01-01 in us */

enum { ART_CLK_WALL = 0, ART_CLK_CPU, ART_CLK_DUAL };

typedef struct art_thread {
    int pre;          /* calls found running at the start so far          */
    char *name;
    uint32_t last_t;  /* the time of its last record (sampling check)     */
    int seen;
} art_thread;

typedef struct art {
    gd_input *in;
    const gd_sink *sink;
    gd_error *err;
    unsigned char buf[65536];
    size_t pos, len;
    uint64_t off;     /* bytes consumed                                    */
    int eof;
    char line[ART_MAX_LINE + 1];
    /* header */
    int version, streaming, clock, have_clock, recsize;
    uint64_t start_us;
    int64_t pid, main_tid;
    double elapsed_us, last_ts;
    /* methods: open addressing id -> offset into names */
    uint32_t *mkey;
    uint32_t *mval;
    size_t mcap, mcount;
    char *names;
    size_t nlen, ncap;
    /* threads, by id */
    art_thread **th;
    uint16_t *used;   /* the ids of th[] in use, in first-seen order       */
    size_t nused;
    struct gd_slicetrack *st; /* the open calls, one track per thread (tag:
                               * method and first callee, art_trace_calls.c) */
    int meta_sent;
    /* sampling: records, those at the same time as their thread's last
     * record (a sampled trace writes each sample's stack changes in one
     * clump), and a header line that says so */
    long records, clumped;
    int hdr_sampled;
} art;

/* the sections of the text header */
enum { ART_SEC_NONE, ART_SEC_VERSION, ART_SEC_THREADS, ART_SEC_METHODS, ART_SEC_END, ART_SEC_OTHER };


int gd_art_finish(art *a);
#define ART_SAMPLED_MIN 100
int gd_art_method_find(const art *a, uint32_t id, const char **cls, const char **name,
                    const char **desc);
int gd_art_method_line(art *a, char *s, long lineno);
int gd_art_record(art *a, unsigned tid, uint32_t mv, uint32_t cpu, uint32_t wall);
int gd_art_send_meta(art *a);
art_thread *gd_art_thread_get(art *a, unsigned tid);
int gd_art_thread_name(art *a, unsigned tid, const char *name, size_t n);

#endif
