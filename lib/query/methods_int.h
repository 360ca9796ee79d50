/* query/methods_int.h - internals shared by the method query files (query/method*.c); not a public API. */
#ifndef GD_QUERY_METHODS_INT_H
#define GD_QUERY_METHODS_INT_H

#include <jansson.h>
#include <sqlite3.h>

#include "analysis/calltree.h"
#include "derive/calls.h"
#include "derive/methods.h"
#include "query/methods.h"
#include "store/sql.h"

/* A time in ms, rounded, or null when NAN. */
json_t *gd_mq_ms(double v);

/* The block of dispatch id: its trace, thread and interval; GD_ERR_DATA when none. */
int gd_mq_block(gd_store *s, int64_t id, int64_t *trace, int64_t *pid, int64_t *tid, double *a, double *b,
                gd_error *err);

/* `select` prepared for the query's traces and thread (its two %s, after
 * its own WHERE); the thread is bound as parameter `param`. NULL with err set. */
sqlite3_stmt *gd_mq_prepare(gd_store *s, const gd_methods_query *q, const char *select, int param,
                            gd_error *err);

#endif
