/* store/spool.h - rows held back from a clustered table until the end of a
 * load, then written by one statement in the table's key order (#50).
 *
 * A row inserted into a WITHOUT ROWID table in the middle of its key range
 * costs a descent from the root and, now and then, a page split in the
 * middle of the tree; rows given to one INSERT ... SELECT in key order, at
 * the end of the range, are appended (SQLite keeps its cursor on the last
 * page).  The rows of a load come in time order, not key order: thread
 * states, keyed (trace, tid, ts_ms, id), come thread after thread.  The
 * spool keeps each group's rows (a thread's) together, in the order of
 * their first two values (c0, c1: numbers, e.g. time and id) within the
 * group as far as a row comes at most one place late,
 * in memory up to a bound and past it in an unlinked temporary file, and
 * gives them back group by group, smallest group key first, as the rows of
 * the eponymous virtual table `gd_spool(?)` (the spool bound as a pointer
 * of type "gd_spool"): columns c0 .. c15, the values each row was put with.
 * Memory is bounded; the file holds what the bound does not. */
#ifndef GD_STORE_SPOOL_H
#define GD_STORE_SPOOL_H

#include <stdint.h>

#include "core/error.h"
#include "core/row.h"
#include "store/store.h"

#define GD_SPOOL_COLS 16

typedef struct gd_spool gd_spool;

/* A spool of rows of ncols values (1 .. GD_SPOOL_COLS) keeping at most
 * about mem_kib KiB in memory (0: the default, 16 MiB), whose rows `sql`
 * writes into s: it is run with ?1 bound to p1 and ?2 to the spool (to be
 * read as `FROM gd_spool(?2)`); sql is borrowed.  NULL when out of
 * memory. */
gd_spool *gd_spool_new(gd_store *s, int ncols, const char *sql, int64_t p1, unsigned mem_kib);
void gd_spool_free(gd_spool *sp);

/* Adds a row of group `group` with its ncols values (GD_V_NULL, GD_V_INT,
 * GD_V_REAL or GD_V_TEXT; a text is copied), ordered in its group by
 * (v[0], v[1]) (numbers).  When no temporary file can be made, or the
 * file fills its disk (ENOSPC, EDQUOT, EFBIG: what it holds is written to
 * the table then), the rows held go to the table when the bound is
 * reached (in order, but each such write after the first lands amid the
 * rows written before: slower, the same rows).  GD_OK; GD_ERR_NOMEM;
 * GD_ERR_IO when the temporary file can't be written for another reason
 * (core/tmpfile.h's message) or the table's write fails. */
int gd_spool_put(gd_spool *sp, int64_t group, const gd_value *v, gd_error *err);

/* The rows put so far. */
int64_t gd_spool_rows(const gd_spool *sp);

/* Writes the rows held: runs the spool's statement once.  GD_OK, or
 * GD_ERR_* with err set.  The spool is empty after. */
int gd_spool_drain(gd_spool *sp, gd_error *err);

#endif
