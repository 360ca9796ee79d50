/* clickhouse.h - a ClickHouse server over its HTTP interface (libcurl). */
#ifndef GD_CLICKHOUSE_H
#define GD_CLICKHOUSE_H

#include <stddef.h>

#include "core/error.h"

typedef struct gd_ch gd_ch;

/* Connects to the server at `url` (http(s)://host:8123, optionally with
 * ?user=..&password=..) and checks it answers; with `database` (letters,
 * digits, _; NULL = the server's default) creates it if missing and uses it.
 * Fails with GD_ERR_USAGE on a bad URL or name, GD_ERR_IO when the server
 * cannot be reached or refuses (message: the server's). */
int gd_ch_open(gd_ch **out, const char *url, const char *database, const char *user,
               const char *password, gd_error *err);
void gd_ch_close(gd_ch *c);

/* Runs one statement; the response (up to outn-1 bytes, NUL-terminated,
 * trailing newline removed) goes to out when not NULL.  A server error is
 * GD_ERR_IO with "clickhouse: " and the server's first line. */
int gd_ch_query(gd_ch *c, const char *sql, char *out, size_t outn, gd_error *err);

/* INSERT INTO `table` FORMAT JSONEachRow with `body` (n bytes of lines). */
int gd_ch_insert(gd_ch *c, const char *table, const char *body, size_t n, gd_error *err);

/* Runs every statement of schemas/clickhouse.sql (CREATE TABLE IF NOT EXISTS). */
int gd_ch_create_tables(gd_ch *c, gd_error *err);

#endif
