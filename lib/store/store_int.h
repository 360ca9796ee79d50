/* store/store_int.h - struct gd_store, shared by the store's own files
 * (lib/store/ only: every other folder goes through store/sql.h). */
#ifndef GD_STORE_STORE_INT_H
#define GD_STORE_STORE_INT_H

#include <sqlite3.h>

#include "store/sql.h"

#define GD_STMT_CACHE 8

struct gd_store {
    sqlite3 *db;
    char path[512];  /* the database file as the caller named it: every store error names it */
    int ro;
    int in_tx;
    /* the busy handler: how long it may wait, whom it tells once it has
     * waited a second (gd_store_on_wait) */
    int wait_max_ms;
    int waited_ms;
    int told;
    void (*on_wait)(void *ctx);
    void *on_wait_ctx;
    /* statements run once per row of an outer loop (a block's call window,
     * its dispatch), kept prepared: keyed by the SQL literal's address */
    struct {
        const char *sql;
        sqlite3_stmt *st;
    } cache[GD_STMT_CACHE];
    int spool_module; /* the virtual table gd_spool is registered (store/spool.c) */
};

/* Creates the database file `path` from the image of a new, empty database
 * (store/image.c, #50): 1 when it did; 0 when the name is taken, is one of
 * SQLite's own (":memory:", "") or the file could not be made, and nothing
 * was created (the caller then creates the schema itself). */
int gd_store_new_from_image(const char *path);

#endif
