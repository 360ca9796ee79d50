/* sqllog.c - LD_PRELOAD shim for bench.py: appends the text of every SQL
 * statement prepared that contains $GODEYE_SQLLOG_MATCH to the file
 * $GODEYE_SQLLOG, one statement a record ending in ";\n--\n", so that a
 * baseline can run exactly the SELECT godeye runs. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*prepare_fn)(sqlite3 *, const char *, int, sqlite3_stmt **, const char **);

static void sqllog(const char *sql, int n)
{
    const char *file = getenv("GODEYE_SQLLOG"), *match = getenv("GODEYE_SQLLOG_MATCH");
    if (!file || !sql)
        return;
    size_t len = n < 0 ? strlen(sql) : (size_t)n;
    char *copy = strndup(sql, len);
    if (copy && (!match || strstr(copy, match))) {
        FILE *f = fopen(file, "a");
        if (f) {
            fprintf(f, "%s;\n--\n", copy);
            fclose(f);
        }
    }
    free(copy);
}

int sqlite3_prepare_v2(sqlite3 *db, const char *sql, int n, sqlite3_stmt **st, const char **tail)
{
    prepare_fn next = (prepare_fn)dlsym(RTLD_NEXT, "sqlite3_prepare_v2");
    sqllog(sql, n);
    return next(db, sql, n, st, tail);
}
