/* androidgodeye_int.h - internals shared by the AndroidGodEye reader's files. */
#ifndef GD_READER_ANDROIDGODEYE_INT_H
#define GD_READER_ANDROIDGODEYE_INT_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "reader.h"

typedef struct age_ctx {
    const gd_sink *sink;
    const gd_read_opts *opts;
    long line, col;  /* start of the current record */
    const char **frames;
    size_t frames_cap;
    gd_view *views;
    size_t views_cap;
} age_ctx;

int gd_age_do_block(age_ctx *c, json_t *p, gd_error *err);
int gd_age_do_image(age_ctx *c, json_t *p, double ts, gd_error *err);
int gd_age_do_issue(age_ctx *c, json_t *p, double ts, const char *type, gd_error *err);
int gd_age_do_method(age_ctx *c, json_t *p, gd_error *err);
int gd_age_do_page(age_ctx *c, json_t *p, gd_error *err);
int gd_age_do_view(age_ctx *c, json_t *p, double ts, gd_error *err);
int gd_age_emit(age_ctx *c, gd_event *ev, gd_error *err);
int gd_age_fbool(json_t *o, const char *k);
void gd_age_fill_cpu(age_ctx *c, gd_cpu_ev *cpu, json_t *o, double scale);
void gd_age_fill_memory(age_ctx *c, gd_memory_ev *m, json_t *heap, json_t *pss, json_t *ram);
int64_t gd_age_fint(age_ctx *c, json_t *o, const char *k);
double gd_age_fnum(age_ctx *c, json_t *o, const char *k);
const char *gd_age_fstr(age_ctx *c, json_t *o, const char *k);
int gd_age_has(json_t *o, const char *k);
double gd_age_sample_time(const age_ctx *c, const char *st, double anchor);
void gd_age_skip(age_ctx *c, const char *reason);

#endif
