/* matrix_int.h - internals shared by matrix.c and matrix_issue.c. */
#ifndef GD_READER_MATRIX_INT_H
#define GD_READER_MATRIX_INT_H

#include <stddef.h>
#include <jansson.h>

#include "reader.h"

#define MX_METHOD_ID_DISPATCH 1048574L

typedef struct mx_mapping_entry {
    long id;
    char *cls, *method, *desc; /* point into one allocation per entry */
} mx_mapping_entry;

typedef struct mx_frame_slot {
    int depth;
    double next; /* where the next child starts */
} mx_frame_slot;

typedef struct mx_ctx {
    const gd_sink *sink;
    const gd_read_opts *opts;
    long line, col;
    mx_mapping_entry *map;
    size_t nmap;
    mx_frame_slot *stack;
    size_t stack_cap;
    const char **frames;
    size_t frames_cap;
    char *buf;          /* per-issue scratch (thread stack text) */
    size_t buf_cap;
    int own_meta;       /* reading a Matrix file: the meta is ours to send */
    int meta_sent;
    /* the last launch sent, to know Matrix's second report of it */
    int last_startup;
    double last_total, last_time;
    const char *last_kind;  /* a literal */
} mx_ctx;

int gd_mx_do_issue(mx_ctx *c, json_t *o, const char *line_tag, gd_error *err);
const char *gd_mx_fstr(json_t *o, const char *k);
const char *gd_mx_issue_tag(json_t *o, const char *line_tag);
const mx_mapping_entry *gd_mx_lookup(const mx_ctx *c, long id);
void gd_mx_skip(mx_ctx *c, const char *reason);

#endif
