/* query/methods_int.h - internals shared by the method query files (query/method*.c); not a public API. */
#ifndef GD_QUERY_METHODS_INT_H
#define GD_QUERY_METHODS_INT_H

#include <jansson.h>
#include <sqlite3.h>

#include "analysis/calltree.h"
#include "derive/methods.h"
#include "store/store_int.h"

typedef struct gd_mname {
    char *cls, *name, *desc;
} gd_mname;

/* Names of a method id (owned copies in *out, freed with gd_mq_name_free);
 * *q caches the statement (the caller finalizes it); GD_ERR_DATA when missing. */
int gd_mq_name(gd_store *s, sqlite3_stmt **q, int64_t id, gd_mname *out, gd_error *err);
void gd_mq_name_free(gd_mname *m);
/* "class.name" of m into buf; returns buf. */
char *gd_mq_dotted(const gd_mname *m, char *buf, size_t n);

/* A time in ms, rounded, or null when NAN. */
json_t *gd_mq_ms(double v);

/* Feeds the calls of one thread that overlap [a, b] to fn, in pre-order:
 * the calls running at `a` and the calls started inside (a, b). */
int gd_mq_window_calls(gd_store *s, int64_t trace, int64_t pid, int64_t tid, double a, double b,
                       gd_call_fn fn, void *ctx, gd_error *err);
/* The window's calls through a call walker clipped to [a, b] (gd_ctw): out
 * gets each call with its clipped times. 0, out's value, -1 when the walker
 * ran out of memory, or a gd_err code (err set). */
int gd_mq_walk(gd_store *s, int64_t trace, int64_t pid, int64_t tid, double a, double b, gd_call_fn out,
               void *ctx, gd_error *err);
/* The call in columns col..col+6 of q: id, parent, method, start, end, depth, open. */
void gd_mq_call_at(sqlite3_stmt *q, int col, gd_call *c);

/* The block of dispatch id: its trace, thread and interval; GD_ERR_DATA when none. */
int gd_mq_block(gd_store *s, int64_t id, int64_t *trace, int64_t *pid, int64_t *tid, double *a, double *b,
                gd_error *err);

/* `select` prepared for the query's traces and thread (its two %s, after
 * its own WHERE); the thread is bound as parameter `param`. NULL with err set. */
sqlite3_stmt *gd_mq_prepare(gd_store *s, const gd_methods_query *q, const char *select, int param,
                            gd_error *err);

#endif
