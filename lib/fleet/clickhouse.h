/* clickhouse.h - a ClickHouse server over its HTTP interface (libcurl). */
#ifndef GD_FLEET_CLICKHOUSE_H
#define GD_FLEET_CLICKHOUSE_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "core/error.h"
#include "io/fetch.h"

typedef struct gd_ch gd_ch;

/* Connects to the server at `url` (http(s)://host:8123, optionally with
 * ?user=..&password=..) and checks it answers; with `database` (letters,
 * digits, _; NULL = the server's default) uses it, creating it first when
 * `create`.  Every request keeps to `limits` (connect, whole request,
 * stall; NULL: the defaults of gd_fetch_limits; gd_ch_set_timeout changes
 * the whole request's).  An answer 3xx is an error naming its status and
 * Location (never followed: a POST is not replayed elsewhere).
 * Fails with GD_ERR_USAGE on a bad URL or name, GD_ERR_IO when the server
 * cannot be reached, is slower than the timeout or refuses (message: the
 * server's). */
int gd_ch_open(gd_ch **out, const char *url, const char *database, const char *user,
               const char *password, const gd_fetch_opts *limits, int create, gd_error *err);
void gd_ch_close(gd_ch *c);

/* Runs one statement; the response (up to outn-1 bytes, NUL-terminated,
 * trailing newline removed) goes to out when not NULL.  A server error is
 * GD_ERR_IO with "clickhouse: " and the server's first line. */
int gd_ch_query(gd_ch *c, const char *sql, char *out, size_t outn, gd_error *err);

/* Runs `sql` (a SELECT, no FORMAT) and calls fn with each row of the
 * answer (JSONEachRow, 64-bit integers as numbers), read a line at a time
 * whatever the answer's size (a row over 16 MB is an error).  fn returning
 * non-zero stops: GD_ERR_ABORT.  A server error, before or within the
 * answer, is GD_ERR_IO with "clickhouse: " and the server's first line; a
 * timeout is GD_ERR_IO "clickhouse: no answer within N s". */
typedef int (*gd_ch_row_fn)(void *ctx, json_t *row);

/* A count from an answer (count(), a sum of counts): 1 with *out set when
 * v is a whole number in [0, 2^53] (an integer, or a real the server
 * printed for one); 0 otherwise.  A number past int64 ("1e300"), negative,
 * fractional or not a number is refused before any cast (#53 item 3:
 * casting such a double is undefined). */
int gd_ch_count(const json_t *v, int64_t *out);
/* A measure from an answer: 1 with *out set when v is a finite number;
 * 0 otherwise (json_real refuses an infinite one). */
int gd_ch_real(const json_t *v, double *out);
int gd_ch_select(gd_ch *c, const char *sql, gd_ch_row_fn fn, void *ctx, gd_error *err);

/* Seconds a request may take in all (connecting: at most 10 of them);
 * 600 by default. */
void gd_ch_set_timeout(gd_ch *c, long seconds);

/* INSERT INTO `table` FORMAT JSONEachRow with `body` (n bytes of lines). */
int gd_ch_insert(gd_ch *c, const char *table, const char *body, size_t n, gd_error *err);

/* Fills buf (n bytes of room) with the next bytes of a streamed body;
 * returns how many (0 = the body is complete) or GD_CH_FILL_ABORT. */
typedef size_t (*gd_ch_fill_fn)(void *ctx, char *buf, size_t n);
#define GD_CH_FILL_ABORT ((size_t)-1)

/* gd_ch_insert_lanes: INSERTs run side by side, each lane on its own
 * connection (kept for the next call) and its INSERTs one after another;
 * a body is JSONEachRow, or TabSeparated that `fill` writes while it is
 * sent (chunked), so that the rows are read while the server parses the
 * ones before.
 * A lane's `next` gives its next INSERT in *ins and returns 1, returns 0
 * when it has none left, or -1 on a failure (said in the lane's err); the
 * end of each INSERT goes to its `done` (rc GD_OK when the server took it,
 * GD_ERR_ABORT when its fill aborted, else the error, said in err), which
 * returns the lane's verdict (GD_OK to go on).  Once anything failed no
 * INSERT starts: the ones under way end first, so that each lane knows
 * exactly what the server took.  Returns GD_OK or the first failure, with
 * its message in err and its lane in *failed.  Everything runs in the
 * calling thread (libcurl's multi interface): fills are never concurrent. */
#define GD_CH_LANES 2
typedef struct gd_ch_request {
    const char *table;
    const char *columns;     /* "a, b, ..." or NULL: the table's order        */
    const char *body;        /* n bytes of JSONEachRow, or NULL:               */
    size_t n;
    gd_ch_fill_fn fill;      /* TabSeparated written by fill while sent      */
    void *ctx;
} gd_ch_request;
typedef struct gd_ch_lane {
    int (*next)(void *ctx, gd_ch_request *ins);
    int (*done)(void *ctx, int rc);
    void *ctx;
    gd_error err;
} gd_ch_lane;
int gd_ch_insert_lanes(gd_ch *c, gd_ch_lane *lanes, size_t n, size_t *failed, gd_error *err);

/* The type of column `column` of `table` in schemas/clickhouse.sql, as
 * its CREATE TABLE writes it ("Nullable(Float64)", "String DEFAULT ''"),
 * into out (n bytes); 0, or -1 when the schema has no such column (or it
 * does not fit). */
int gd_ch_column_type(const char *table, const char *column, char *out, size_t n);

/* Runs every statement of schemas/clickhouse.sql (CREATE TABLE IF NOT EXISTS). */
/* The columns godeye's schema has that the server's existing tables lack
 * (tables made by an older godeye), as "table.column, ..." in out (cut to
 * n): their number, or a negative error code with err set. */
int gd_ch_missing_columns(gd_ch *c, char *out, size_t n, gd_error *err);
int gd_ch_create_tables(gd_ch *c, gd_error *err);

#endif
