/* logcat_int.h - internals shared by the logcat reader's files (logcat*.c). */
#ifndef GD_READER_LOGCAT_INT_H
#define GD_READER_LOGCAT_INT_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "reader.h"
#include "reader/mdstamp.h"

enum { LC_NONE = 0, LC_THREADTIME, LC_TIME, LC_BRIEF, LC_BEGINNING, LC_CONT };


typedef struct lc_line {
    int layout;
    gd_mdstamp st;
    int64_t pid, tid;
    char level;
    const char *tag;
    size_t tag_len; /* trailing padding removed */
    const char *msg;
    size_t msg_len;
} lc_line;
#define STARTS(p, n, lit) lc_starts((p), (n), (lit), sizeof(lit) - 1)
/* an ActivityManager "ANR in" block being read (logcat_anr.c) */
typedef struct lc_anr {
    int open, in_cpu, cpu_done;
    int64_t am_pid, am_tid, pid;
    double ts, cpu_total, cpu_app;
    long line;
    char package[256], component[256], reason[1024], load[64], cpu_window[256];
} lc_anr;

typedef struct lc_ctx {
    const gd_sink *sink;
    gd_mdstamp_run year; /* the running year of stamps without one */
    char thread[256];
    char part[1024]; /* one "msg I took ..." of a MIUI line */
    long line;
    /* the last MIUI "Long Msg" line: its wall time places the messages
     * that made the same message late */
    struct {
        int set;
        int64_t pid, tid, late, wall;
        double ts;
    } longmsg;
    lc_anr anr;
    /* the line kept as a log_line row (#28): NUL-terminated copies */
    char log_level[2], log_tag[128], log_msg[GD_LOG_MSG_MAX + 1];
} lc_ctx;

void lc_event_init(const lc_ctx *c, gd_event *ev, gd_event_kind k, const lc_line *l, double ts);
/* the ANR report rules: 0 used, GD_OTHER_RULE, or the sink's error; an open
 * "ANR in" block is emitted by the next line not of it or lc_anr_flush */
int lc_anr_line(lc_ctx *c, const lc_line *l, double ts, gd_error *err);
int lc_anr_flush(lc_ctx *c, gd_error *err);
/* The line as a GD_EV_LOG event (a row of log_line): 0 or the sink's error. */
int lc_emit_log(lc_ctx *c, const lc_line *l, double ts, gd_error *err);
int lc_displayed(lc_ctx *c, const lc_line *l, double ts, gd_error *err);
int lc_emit_delay(lc_ctx *c, const lc_line *l, double ts, int64_t delay, const char *thr,
                  const char *late, size_t late_len, gd_error *err);
int lc_emit_dispatch(lc_ctx *c, const lc_line *l, double begin, double dur, const char *thr,
                     const char *msg, gd_error *err);
int lc_emit_issue(lc_ctx *c, const lc_line *l, double ts, const char *type, double cost,
                  json_t *js, gd_error *err);
int64_t lc_field_ms(const char *p, size_t n, const char *key);
const char *lc_find(const char *p, size_t n, const char *lit);
int lc_is_digit(char c);
int lc_launch_time(lc_ctx *c, const lc_line *l, double ts, gd_error *err);
int lc_looper_slow(lc_ctx *c, const lc_line *l, double ts, gd_error *err);
int lc_miui_slow_looper(lc_ctx *c, const lc_line *l, double ts, gd_error *err);
int64_t lc_ms_at(const char *p, size_t n, size_t *used);
size_t lc_parse_int(const char *p, size_t n, int64_t *out);
int lc_parse_line(const char *s, size_t n, lc_line *l);
int lc_skipped_frames(lc_ctx *c, const lc_line *l, double ts, gd_error *err);
int lc_starts(const char *p, size_t n, const char *lit, size_t litlen);
int lc_tag_is(const lc_line *l, const char *t);
const char *lc_thread_name(lc_ctx *c, const char *p, size_t n);
size_t lc_word_len(const char *p, size_t n);

#endif
