/* bugreport_int.h - internals shared by bugreport.c and bugreport_split.c. */
#ifndef GD_READER_BUGREPORT_INT_H
#define GD_READER_BUGREPORT_INT_H

#include <stddef.h>

#include "reader/bugreport.h"

#define BR_MAX_TITLES 256
#define BR_MAX_TITLE 80
#define BR_MAX_ANR_PATHS 64
#define BR_FIELD 256

typedef enum { BR_IGNORED = 0, BR_ANR, BR_LOGCAT, BR_GFXINFO, BR_ACTIVITY, BR_PROPS } br_kind;

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
};

enum { BR_L_TEXT = 0, BR_L_BANNER, BR_L_SECTION, BR_L_SERVICE, BR_L_END, BR_L_DASHES };

int br_all_of(const char *s, size_t n, char c, size_t min);
int br_classify(const char *s, size_t n, const char **t, size_t *tn, const char **a, size_t *an);
void br_header_line(gd_br *b, const char *s, size_t n);
void br_ignore_section(gd_br *b, const char *t, size_t tn, int service, long line);
void br_note_anr_path(gd_br *b, const char *a, size_t an);
void br_prop_line(gd_br *b, const char *s, size_t n);
void br_activity_line(gd_br *b, const char *s, size_t n);
br_kind br_route_section(const char *t, size_t n);
const char *br_anr_section(const char *t, size_t n);
br_kind br_route_service(const char *t, size_t n);

#endif
