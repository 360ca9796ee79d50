/* logcat_int.h - internals shared by the logcat reader's files (logcat*.c). */
#ifndef GD_READER_LOGCAT_INT_H
#define GD_READER_LOGCAT_INT_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "reader.h"
#include "reader/mdstamp.h"
#include "core/scan.h"

enum { LC_NONE = 0, LC_THREADTIME, LC_TIME, LC_BRIEF, LC_BEGINNING, LC_CONT, LC_STUDIO_PROCESS };


typedef struct lc_line {
    int layout;
    gd_mdstamp st;
    int64_t pid, tid;
    char level;
    const char *tag;
    size_t tag_len; /* trailing padding removed */
    const char *msg;
    size_t msg_len;
    const char *pkg;  /* Android Studio's package column (or of a PROCESS
                       * STARTED/ENDED line), NULL when none            */
    size_t pkg_len;
} lc_line;
/* an ActivityManager "ANR in" block being read (logcat.c) */
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
    int app_told;    /* an Android Studio package named the app        */
} lc_ctx;

int gd_lc_is_digit(char c);
size_t gd_lc_parse_int(const char *p, size_t n, int64_t *out);
int gd_lc_parse_line(const char *s, size_t n, lc_line *l);
int gd_lc_tag_is(const lc_line *l, const char *t);
size_t gd_lc_word_len(const char *p, size_t n);

#endif
