/* error.h - the error record every libgodeye call fills instead of printing. */
#ifndef GD_CORE_ERROR_H
#define GD_CORE_ERROR_H

#include <stdarg.h>

/* Status codes returned by library calls.  Never renumbered. */
enum {
    GD_OK = 0,
    GD_ERR_DATA = 1,   /* bad input data (parse error, wrong type)        */
    GD_ERR_IO = 2,     /* file, network or database failure               */
    GD_ERR_USAGE = 3,  /* caller passed something invalid                 */
    GD_ERR_ABORT = 4,  /* a sink asked the reader to stop                 */
    GD_ERR_NOMEM = 5,  /* out of memory (gd_error_oom, GD_ERR_NOMEM_MSG)   */
    GD_ERR_NOT_MINE = 6 /* the input looked like the reader's format (a zip)
                         * but is not (no bugreport inside): alone, an error
                         * like GD_ERR_DATA; in a folder, passed over.  Not
                         * GD_OTHER_RULE below, a parser's "another rule's" */
};

/* What a probe or a line parser returns for input that belongs to another
 * format or rule: never one of the codes above, so "not mine" can't be
 * taken for an error nor an error for "not mine". */
#define GD_OTHER_RULE (-1)

/* Where and what went wrong.  `source` is filled by ingest (the reader
 * does not know the file name); `line`/`col` are 1-based, 0 when the
 * position is not known (then the CLI prints only the source). */
typedef struct gd_error {
    int code;
    char source[512];
    long line;
    long col;
    char msg[512];
} gd_error;

/* Clears `e` (code GD_OK, empty strings). Safe on NULL. */
void gd_error_clear(gd_error *e);

/* Fills `e` with a code, position and printf-style message; returns `code`
 * so that callers can write `return gd_error_set(...)`.  Safe on NULL. */
int gd_error_set(gd_error *e, int code, long line, long col, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* The one text of GD_ERR_NOMEM (a CLI line or an SQL function's error
 * that is not a gd_error says it with this too). */
#define GD_ERR_NOMEM_MSG "out of memory"

/* Out of memory: fills `e` with GD_ERR_NOMEM and GD_ERR_NOMEM_MSG, at
 * line/col (0 when not known); returns GD_ERR_NOMEM, so that callers can
 * write `return gd_error_oom(err);`.  Safe on NULL. */
int gd_error_oom_at(gd_error *e, long line, long col);
int gd_error_oom(gd_error *e);

/* Formats "'SOURCE':LINE:COL: msg" (parts omitted when unknown) into buf. */
const char *gd_error_format(const gd_error *e, char *buf, unsigned long n);

#endif
