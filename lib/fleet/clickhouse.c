/* clickhouse.c - statements and JSONEachRow inserts over ClickHouse's HTTP interface. */
#include "clickhouse.h"

#include <ctype.h>
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clickhouse_sql.h"
#include "io/fetch.h"

struct gd_ch {
    CURL *e;
    char *base;            /* url up to and including '?' or '&' for more params */
    char db[128];
    char resp[16384];      /* the start of the last response */
    size_t rlen;
    char errbuf[CURL_ERROR_SIZE];
    struct curl_slist *headers;
};

static size_t on_resp(char *p, size_t size, size_t n, void *ctx)
{
    gd_ch *c = ctx;
    size_t k = size * n, room = sizeof c->resp - 1 - c->rlen;
    memcpy(c->resp + c->rlen, p, k < room ? k : room);
    c->rlen += k < room ? k : room;
    c->resp[c->rlen] = 0;
    return k;
}

/* The server's message: its first line, without the C++ exception tail. */
static int server_error(gd_ch *c, long code, gd_error *err)
{
    char *nl = strchr(c->resp, '\n');
    if (nl)
        *nl = 0;
    char *tail = strstr(c->resp, ", e.what() = ");
    if (tail)
        *tail = 0;
    char *noise = strstr(c->resp, "e.displayText() = ");
    if (noise)
        memmove(noise, noise + 18, strlen(noise + 18) + 1);
    size_t n = strlen(c->resp);
    while (n && (c->resp[n - 1] == ' ' || c->resp[n - 1] == '\r'))
        c->resp[--n] = 0;
    return gd_error_set(err, GD_ERR_IO, 0, 0, "clickhouse: %.300s",
                        n ? c->resp : (code ? "HTTP error without a message" : "no answer"));
}

/* The same with the status when the server said nothing. */
static int status_error(gd_ch *c, long code, gd_error *err)
{
    if (c->rlen || !code)
        return server_error(c, code, err);
    return gd_error_set(err, GD_ERR_IO, 0, 0, "clickhouse: HTTP %ld without a message", code);
}

typedef struct stream {
    gd_ch_fill_fn fill;
    void *ctx;
    int aborted;
} stream;

static size_t on_read(char *p, size_t size, size_t n, void *ctx)
{
    stream *st = ctx;
    size_t k = st->fill(st->ctx, p, size * n);
    if (k == GD_CH_FILL_ABORT) {
        st->aborted = 1;
        return CURL_READFUNC_ABORT;
    }
    return k;
}

/* POSTs body (or, when body is NULL, what st fills) to base + params; GD_OK
 * on HTTP 200. */
static int post(gd_ch *c, const char *params, const char *body, size_t n, stream *st,
                gd_error *err)
{
    size_t ulen = strlen(c->base) + strlen(params) + strlen(c->db) + 32;
    char *url = malloc(ulen);
    if (!url)
        return gd_error_set(err, GD_ERR_NOMEM, 0, 0, "out of memory");
    snprintf(url, ulen, "%s%s%s%s", c->base, c->db[0] ? "database=" : "", c->db,
             c->db[0] && params[0] ? "&" : "");
    strncat(url, params, ulen - strlen(url) - 1);
    c->rlen = 0;
    c->resp[0] = c->errbuf[0] = 0;
    curl_easy_setopt(c->e, CURLOPT_URL, url);
    curl_easy_setopt(c->e, CURLOPT_POST, 1L);
    curl_easy_setopt(c->e, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(c->e, CURLOPT_POSTFIELDSIZE_LARGE, body ? (curl_off_t)n : (curl_off_t)-1);
    curl_easy_setopt(c->e, CURLOPT_READFUNCTION, body ? NULL : on_read);
    curl_easy_setopt(c->e, CURLOPT_READDATA, body ? NULL : st);
    CURLcode r = curl_easy_perform(c->e);
    free(url);
    if (st && st->aborted)
        return GD_ERR_ABORT;
    long code = 0;
    curl_easy_getinfo(c->e, CURLINFO_RESPONSE_CODE, &code);
    if (r != CURLE_OK)
        return gd_error_set(err, GD_ERR_IO, 0, 0, "clickhouse: %s",
                            c->errbuf[0] ? c->errbuf : curl_easy_strerror(r));
    if (code >= 300 && code < 400) {
        /* a redirect: its status and where it points, never followed */
        char *loc = NULL, shown[1024] = "";
        curl_easy_getinfo(c->e, CURLINFO_REDIRECT_URL, &loc);
        if (loc)
            gd_url_redact(loc, shown, sizeof shown);
        return gd_error_set(err, GD_ERR_IO, 0, 0, "clickhouse: HTTP %ld redirect to %s%.700s%s (not followed: give that URL)",
                            code, loc ? "'" : "", loc ? shown : "no Location", loc ? "'" : "");
    }
    if (code != 200)
        return status_error(c, code, err);
    return GD_OK;
}

int gd_ch_query(gd_ch *c, const char *sql, char *out, size_t outn, gd_error *err)
{
    int rc = post(c, "", sql, strlen(sql), NULL, err);
    if (!rc && out && outn) {
        /* the answer, cut to fit `out` */
        size_t n = strnlen(c->resp, outn - 1);
        memcpy(out, c->resp, n);
        out[n] = 0;
        if (n && out[n - 1] == '\n')
            out[n - 1] = 0;
    }
    return rc;
}

/* INSERT INTO table [(columns)] FORMAT format, the body given or streamed. */
static int insert(gd_ch *c, const char *table, const char *columns, const char *format,
                  const char *body, size_t n, stream *st, gd_error *err)
{
    char q[2048], params[6200];
    snprintf(q, sizeof q, "INSERT INTO %s%s%s%s FORMAT %s", table, columns ? " (" : "",
             columns ? columns : "", columns ? ")" : "", format);
    char *esc = curl_easy_escape(c->e, q, 0);
    if (!esc)
        return gd_error_set(err, GD_ERR_NOMEM, 0, 0, "out of memory");
    snprintf(params, sizeof params, "query=%s", esc);
    curl_free(esc);
    return post(c, params, body, n, st, err);
}

int gd_ch_insert(gd_ch *c, const char *table, const char *body, size_t n, gd_error *err)
{
    return insert(c, table, NULL, "JSONEachRow", body, n, NULL, err);
}

int gd_ch_insert_stream(gd_ch *c, const char *table, const char *columns, gd_ch_fill_fn fill,
                        void *ctx, gd_error *err)
{
    stream st = {fill, ctx, 0};
    return insert(c, table, columns, "TabSeparated", NULL, 0, &st, err);
}

static int valid_name(const char *s)
{
    if (!*s || strlen(s) >= 128)
        return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_')
            return 0;
    return 1;
}

int gd_ch_open(gd_ch **out, const char *url, const char *database, const char *user,
               const char *password, const gd_fetch_opts *limits, gd_error *err)
{
    *out = NULL;
    if (!gd_fetch_is_url(url)) {
        char shown[1024];
        return gd_error_set(err, GD_ERR_USAGE, 0, 0, "'%s' is not an http(s) URL",
                            gd_url_redact(url, shown, sizeof shown));
    }
    if (database && !valid_name(database))
        return gd_error_set(err, GD_ERR_USAGE, 0, 0,
                            "bad database name '%s' (letters, digits and _)", database);
    curl_global_init(CURL_GLOBAL_DEFAULT);
    gd_ch *c = calloc(1, sizeof *c);
    size_t n = strlen(url);
    if (!c || !(c->base = malloc(n + 3)) || !(c->e = curl_easy_init())) {
        gd_ch_close(c);
        return gd_error_set(err, GD_ERR_IO, 0, 0, "cannot start libcurl");
    }
    /* base: "URL/?" or "URL?...&" so that parameters can follow */
    if (strchr(url, '?'))
        snprintf(c->base, n + 3, "%s%s", url, url[n - 1] == '&' || url[n - 1] == '?' ? "" : "&");
    else
        snprintf(c->base, n + 3, "%s%s", url, url[n - 1] == '/' ? "?" : "/?");
    curl_easy_setopt(c->e, CURLOPT_PROTOCOLS_STR, "http,https");
    gd_fetch_limits(c->e, limits);
    curl_easy_setopt(c->e, CURLOPT_WRITEFUNCTION, on_resp);
    curl_easy_setopt(c->e, CURLOPT_WRITEDATA, c);
    curl_easy_setopt(c->e, CURLOPT_ERRORBUFFER, c->errbuf);
    curl_easy_setopt(c->e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c->e, CURLOPT_USERAGENT, "godeye/" GODEYE_VERSION);
    curl_easy_setopt(c->e, CURLOPT_UPLOAD_BUFFERSIZE, 1L << 20);
    /* no "Expect: 100-continue" wait before a body */
    if (!(c->headers = curl_slist_append(NULL, "Expect:"))) {
        gd_ch_close(c);
        return gd_error_set(err, GD_ERR_NOMEM, 0, 0, "out of memory");
    }
    curl_easy_setopt(c->e, CURLOPT_HTTPHEADER, c->headers);
    /* HTTP basic authentication, as ClickHouse's HTTP interface takes it */
    if (user)
        curl_easy_setopt(c->e, CURLOPT_USERNAME, user);
    if (password)
        curl_easy_setopt(c->e, CURLOPT_PASSWORD, password);
    char sql[256];
    int rc = gd_ch_query(c, "SELECT 1", NULL, 0, err);
    if (!rc && database) {
        snprintf(sql, sizeof sql, "CREATE DATABASE IF NOT EXISTS %s", database);
        rc = gd_ch_query(c, sql, NULL, 0, err);
        snprintf(c->db, sizeof c->db, "%s", database);
    }
    if (rc) {
        gd_ch_close(c);
        return rc;
    }
    *out = c;
    return GD_OK;
}

void gd_ch_close(gd_ch *c)
{
    if (!c)
        return;
    if (c->e)
        curl_easy_cleanup(c->e);
    curl_slist_free_all(c->headers);
    free(c->base);
    free(c);
}

/* 1 when `sql` is "CREATE TABLE IF NOT EXISTS name ..." with name in
 * `have` ("\nname\n" lines, as listed by the server). */
static int exists(const char *sql, const char *have)
{
    static const char head[] = "CREATE TABLE IF NOT EXISTS ";
    const char *name = strstr(sql, head);
    if (!name)
        return 0;
    name += sizeof head - 1;
    size_t n = strcspn(name, " (\n");
    for (const char *p = have; (p = strstr(p, name)) != NULL; p++)
        if (p[-1] == '\n' && p[n] == '\n' && (size_t)(strchr(p, '\n') - p) == n)
            return 1;
    return 0;
}

int gd_ch_create_tables(gd_ch *c, gd_error *err)
{
    /* the tables there (all created when the list does not fit) */
    char have[4096] = "\n";
    int rc = gd_ch_query(c, "SELECT name FROM system.tables WHERE database = currentDatabase()"
                            " FORMAT TabSeparated", have + 1, sizeof have - 2, err);
    if (rc)
        return rc;
    size_t hn = strlen(have);
    if (hn >= sizeof have - 3)
        have[0] = 0;
    else
        memcpy(have + hn, "\n", 2);
    /* statements end with ";" at the end of a line; "--" lines are comments */
    char *sql = malloc(sizeof GD_CLICKHOUSE_SQL);
    if (!sql)
        return gd_error_set(err, GD_ERR_NOMEM, 0, 0, "out of memory");
    size_t len = 0;
    for (const char *p = GD_CLICKHOUSE_SQL; *p && !rc;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        const char *q = p;
        while (q < p + n && isspace((unsigned char)*q))
            q++;
        if (!(q + 1 < p + n && q[0] == '-' && q[1] == '-')) {
            memcpy(sql + len, p, n);
            len += n;
            sql[len++] = '\n';
            if (n && p[n - 1] == ';') {
                sql[len - 2] = 0;
                if (!have[0] || !exists(sql, have))
                    rc = gd_ch_query(c, sql, NULL, 0, err);
                len = 0;
            }
        }
        p += n + (nl ? 1 : 0);
    }
    free(sql);
    return rc;
}
