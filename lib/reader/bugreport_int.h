/* bugreport_int.h - internals shared by bugreport.c and bugreport_binder.c. */
#ifndef GD_READER_BUGREPORT_INT_H
#define GD_READER_BUGREPORT_INT_H

#include <stddef.h>
#include <stdint.h>

#include "reader/bugreport.h"

#define BR_MAX_TITLES 256
#define BR_MAX_TITLE 80
#define BR_MAX_ANR_PATHS 64
#define BR_FIELD 256

typedef enum { BR_IGNORED = 0, BR_ANR, BR_LOGCAT, BR_GFXINFO, BR_ACTIVITY, BR_PROPS, BR_BINDER } br_kind;

struct gd_br {
    const gd_sink *sink;
    const gd_read_opts *opts;
    char *titles[BR_MAX_TITLES];
    size_t ntitles;
    char *anr_paths[BR_MAX_ANR_PATHS];
    size_t nanr;
    char dumpstate[BR_FIELD], build[BR_FIELD], fingerprint[BR_FIELD], uptime[BR_FIELD];
    char model[BR_FIELD], prop_fingerprint[BR_FIELD];
    long long sdk;
    const char *anr_section;  /* the carrier of the ANR dumps being read */
    /* the bugreport's app (#30, gd_br_finish): the first ANR dump's process
     * at last ANR, else the package of dumpsys activity's mResumedActivity */
    char anr_app[BR_FIELD], resumed_app[BR_FIELD];
    /* the binder snapshot (bugreport_binder.c) */
    int binder_sections;  /* BINDER TRANSACTIONS / STATE sections read */
    long long binder_txns;
};

enum { BR_L_TEXT = 0, BR_L_BANNER, BR_L_SECTION, BR_L_SERVICE, BR_L_END, BR_L_DASHES };


/* One transaction line of the kernel's binder debugfs text (#28). */
typedef struct br_txn {
    const char *kind;  /* "outgoing", "incoming", "pending" */
    int64_t txn_id, from_pid, from_tid, to_pid, to_tid, code, flags;
} br_txn;
/* 1 read into t, 0 not a transaction line, -1 a transaction line that
 * cannot be read. */
int gd_br_binder_parse(const char *s, size_t n, br_txn *t);
/* One line of a binder section: a "binder_txn" issue, or counted. */
int gd_br_binder_line(gd_br *b, const char *s, size_t n, long line, gd_error *err);

#endif
