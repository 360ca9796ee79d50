/* clickhouse.c - statements and JSONEachRow inserts over ClickHouse's HTTP interface. */
#include "clickhouse.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "clickhouse_sql.h"
#include "io/curl_dl.h"
#include "io/fetch.h"

typedef struct stream {
    gd_ch_fill_fn fill;
    void *ctx;
    int aborted;
} stream;

/* One connection of gd_ch_insert_lanes, kept for the next call. */
typedef struct ch_lane {
    CURL *e;
    struct stream st;
    char resp[4096];       /* the start of the answer */
    size_t rlen;
    char errbuf[CURL_ERROR_SIZE];
} ch_lane;

struct gd_ch {
    CURL *e;
    CURLM *m;              /* gd_ch_insert_lanes' */
    ch_lane lane[GD_CH_LANES];
    char *base;            /* url up to and including '?' or '&' for more params */
    char db[128];
    char resp[16384];      /* the start of the last response */
    size_t rlen;
    char errbuf[CURL_ERROR_SIZE];
    long timeout;          /* seconds for a whole request */
    long stall, connect;   /* seconds without a byte, to connect (gd_fetch_limits) */
    struct curl_slist *headers;
    /* gd_ch_select: the answer's lines, each handed to `fn` parsed */
    gd_ch_row_fn fn;
    void *fn_ctx;
    char *line;            /* the line being received */
    size_t llen, lcap;
    int stop;              /* 1: fn stopped, 2: out of memory, 3: a line too long or not JSON */
};

/* Longest line of an answer gd_ch_select accepts (one row). */
#define LINE_MAX_BYTES (16u << 20)

/* One complete line of a select's answer. */
static int on_line(gd_ch *c)
{
    if (!c->llen)
        return 0;
    json_error_t je;
    json_t *row = json_loadb(c->line, c->llen, 0, &je);
    if (!json_is_object(row)) {
        /* an error the server wrote after its 200 header: keep its text */
        json_decref(row);
        size_t n = c->llen < sizeof c->resp - 1 ? c->llen : sizeof c->resp - 1;
        memcpy(c->resp, c->line, n);
        c->resp[n] = 0;
        c->rlen = n;
        return 3;
    }
    int stop = c->fn(c->fn_ctx, row);
    json_decref(row);
    return stop ? 1 : 0;
}

/* Appends what fits of p (k bytes) to resp (cap bytes, *len used, kept
 * NUL-terminated): the start of an answer, for its error message. */
static void keep_start(char *resp, size_t cap, size_t *len, const char *p, size_t k)
{
    size_t room = cap - 1 - *len;
    memcpy(resp + *len, p, k < room ? k : room);
    *len += k < room ? k : room;
    resp[*len] = 0;
}

static size_t on_resp(char *p, size_t size, size_t n, void *ctx)
{
    gd_ch *c = ctx;
    size_t k = size * n;
    long code = 0;
    if (c->fn)
        curl_easy_getinfo(c->e, CURLINFO_RESPONSE_CODE, &code);
    if (c->fn && code == 200) {
        /* streamed: a line at a time, never the whole answer */
        size_t i = 0;
        while (i < k && !c->stop) {
            const char *nl = memchr(p + i, '\n', k - i);
            size_t seg = nl ? (size_t)(nl - (p + i)) : k - i;
            if (c->llen + seg > LINE_MAX_BYTES) {
                snprintf(c->resp, sizeof c->resp, "a row of the answer is over %u bytes", LINE_MAX_BYTES);
                c->stop = 3;
                break;
            }
            if (c->llen + seg > c->lcap) {
                size_t cap = c->lcap ? c->lcap : 4096;
                while (cap < c->llen + seg)
                    cap *= 2;
                char *l = realloc(c->line, cap);
                if (!l) {
                    c->stop = 2;
                    break;
                }
                c->line = l;
                c->lcap = cap;
            }
            if (seg)
                memcpy(c->line + c->llen, p + i, seg);
            c->llen += seg;
            i += seg;
            if (nl) {
                c->stop = on_line(c);
                c->llen = 0;
                i++;
            }
        }
        return c->stop ? 0 : k;
    }
    keep_start(c->resp, sizeof c->resp, &c->rlen, p, k);
    return k;
}

/* The server's message: its first line, without the C++ exception tail. */
static int server_error(char *resp, long code, gd_error *err)
{
    char *nl = strchr(resp, '\n');
    if (nl)
        *nl = 0;
    char *tail = strstr(resp, ", e.what() = ");
    if (tail)
        *tail = 0;
    char *noise = strstr(resp, "e.displayText() = ");
    if (noise)
        memmove(noise, noise + 18, strlen(noise + 18) + 1);
    size_t n = strlen(resp);
    while (n && (resp[n - 1] == ' ' || resp[n - 1] == '\r'))
        resp[--n] = 0;
    return gd_error_set(err, GD_ERR_IO, 0, 0, "clickhouse: %.300s",
                        n ? resp : (code ? "HTTP error without a message" : "no answer"));
}

/* The end of a request on handle e (curl's result r, the answer's start
 * in resp, rlen bytes): GD_OK on HTTP 200, else the error. */
static int outcome(const gd_ch *c, CURL *e, CURLcode r, const char *errbuf, char *resp, size_t rlen,
                   gd_error *err)
{
    long code = 0;
    curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &code);
    if (r == CURLE_OPERATION_TIMEDOUT) {
        /* curl says "timed out" for three limits: name the one that ended it */
        double total = 0, conn = 0;
        curl_easy_getinfo(e, CURLINFO_TOTAL_TIME, &total);
        curl_easy_getinfo(e, CURLINFO_CONNECT_TIME, &conn);
        if (conn <= 0 && total < (double)c->timeout - 1)
            return gd_error_set(err, GD_ERR_IO, 0, 0, "clickhouse: no connection within %ld s", c->connect);
        if (total < (double)c->timeout - 1)
            return gd_error_set(err, GD_ERR_IO, 0, 0, "clickhouse: no answer: nothing received for %ld s (after %.0f s)",
                                c->stall, total);
        return gd_error_set(err, GD_ERR_IO, 0, 0, "clickhouse: no answer within %ld s", c->timeout);
    }
    /* a connection that died under a streamed body: curl would resend it
     * and cannot (its reason, "necessary data rewind wasn't possible",
     * says nothing of the server) */
    if (r == CURLE_SEND_FAIL_REWIND)
        return gd_error_set(err, GD_ERR_IO, 0, 0, "clickhouse: connection reset (the server closed it mid-request)");
    if (r != CURLE_OK)
        return gd_error_set(err, GD_ERR_IO, 0, 0, "clickhouse: %s",
                            errbuf[0] ? errbuf : curl_easy_strerror(r));
    if (code >= 300 && code < 400) {
        /* a redirect: its status and where it points, never followed */
        char *loc = NULL, shown[1024] = "";
        curl_easy_getinfo(e, CURLINFO_REDIRECT_URL, &loc);
        if (loc)
            gd_url_redact(loc, shown, sizeof shown);
        return gd_error_set(err, GD_ERR_IO, 0, 0, "clickhouse: HTTP %ld redirect to %s%.700s%s (not followed: give that URL)",
                            code, loc ? "'" : "", loc ? shown : "no Location", loc ? "'" : "");
    }
    if (code == 200)
        return GD_OK;
    if (rlen || !code)
        return server_error(resp, code, err);
    return gd_error_set(err, GD_ERR_IO, 0, 0, "clickhouse: HTTP %ld without a message", code);
}


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

/* base + the database + params, allocated (NULL: out of memory). */
static char *request_url(const gd_ch *c, const char *params)
{
    size_t ulen = strlen(c->base) + strlen(params) + strlen(c->db) + 32;
    char *url = malloc(ulen);
    if (url) {
        snprintf(url, ulen, "%s%s%s%s", c->base, c->db[0] ? "database=" : "", c->db,
                 c->db[0] && params[0] ? "&" : "");
        strncat(url, params, ulen - strlen(url) - 1);
    }
    return url;
}

/* The POST of body (n bytes) or, when body is NULL, of what st fills. */
static void set_body(CURL *e, const char *body, size_t n, stream *st)
{
    curl_easy_setopt(e, CURLOPT_POST, 1L);
    curl_easy_setopt(e, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, body ? (curl_off_t)n : (curl_off_t)-1);
    curl_easy_setopt(e, CURLOPT_READFUNCTION, body ? NULL : on_read);
    curl_easy_setopt(e, CURLOPT_READDATA, body ? NULL : st);
}

/* POSTs body (n bytes) to url (freed); GD_OK on HTTP 200. */
static int post_url(gd_ch *c, char *url, const char *body, size_t n, gd_error *err)
{
    if (!url)
        return gd_error_oom(err);
    c->rlen = 0;
    c->resp[0] = c->errbuf[0] = 0;
    curl_easy_setopt(c->e, CURLOPT_URL, url);
    set_body(c->e, body, n, NULL);
    CURLcode r = curl_easy_perform(c->e);
    free(url);
    long code = 0;
    curl_easy_getinfo(c->e, CURLINFO_RESPONSE_CODE, &code);
    if (c->fn && !c->stop && r == CURLE_OK && code == 200 && c->llen)
        c->stop = on_line(c); /* the last line, without its newline */
    if (c->fn && c->stop == 1)
        return GD_ERR_ABORT;
    if (c->fn && c->stop == 2)
        return gd_error_oom(err);
    if (c->fn && c->stop == 3)
        return server_error(c->resp, code, err);
    return outcome(c, c->e, r, c->errbuf, c->resp, c->rlen, err);
}

/* The same to base + params. */
static int post(gd_ch *c, const char *params, const char *body, size_t n, gd_error *err)
{
    return post_url(c, request_url(c, params), body, n, err);
}

int gd_ch_query(gd_ch *c, const char *sql, char *out, size_t outn, gd_error *err)
{
    int rc = post(c, "", sql, strlen(sql), err);
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

/* The URL of INSERT INTO table [(columns)] FORMAT format (NULL: out of memory). */
static char *insert_url(const gd_ch *c, const char *table, const char *columns, const char *format)
{
    char q[2048], params[6200];
    snprintf(q, sizeof q, "INSERT INTO %s%s%s%s FORMAT %s", table, columns ? " (" : "",
             columns ? columns : "", columns ? ")" : "", format);
    char *esc = curl_easy_escape(c->e, q, 0);
    if (!esc)
        return NULL;
    snprintf(params, sizeof params, "query=%s", esc);
    curl_free(esc);
    return request_url(c, params);
}

int gd_ch_insert(gd_ch *c, const char *table, const char *body, size_t n, gd_error *err)
{
    return post_url(c, insert_url(c, table, NULL, "JSONEachRow"), body, n, err);
}

/* The answer to a lane's INSERT: its start kept for the error message. */
static size_t on_lane_resp(char *p, size_t size, size_t n, void *ctx)
{
    ch_lane *l = ctx;
    keep_start(l->resp, sizeof l->resp, &l->rlen, p, size * n);
    return size * n;
}

/* Starts lane i's next INSERT, if it has one (*busy: 1); GD_OK or the
 * failure, said in lane->err. */
static int lane_start(gd_ch *c, gd_ch_lane *lane, size_t i, int *busy)
{
    ch_lane *l = &c->lane[i];
    gd_ch_request ins = {0};
    *busy = 0;
    int k = lane->next(lane->ctx, &ins);
    if (k <= 0)
        return k ? (lane->err.code ? lane->err.code : GD_ERR_IO) : GD_OK;
    if (!l->e) {
        if (!(l->e = curl_easy_duphandle(c->e)))
            return gd_error_oom(&lane->err);
        curl_easy_setopt(l->e, CURLOPT_WRITEFUNCTION, on_lane_resp);
        curl_easy_setopt(l->e, CURLOPT_WRITEDATA, l);
        curl_easy_setopt(l->e, CURLOPT_ERRORBUFFER, l->errbuf);
    }
    /* libcurl keeps its own copy of the URL */
    char *url = insert_url(c, ins.table, ins.columns, ins.body ? "JSONEachRow" : "TabSeparated");
    if (!url)
        return gd_error_oom(&lane->err);
    curl_easy_setopt(l->e, CURLOPT_URL, url);
    free(url);
    l->st = (stream){ins.fill, ins.ctx, 0};
    l->rlen = 0;
    l->resp[0] = l->errbuf[0] = 0;
    set_body(l->e, ins.body, ins.n, &l->st);
    if (curl_multi_add_handle(c->m, l->e) != CURLM_OK)
        return gd_error_set(&lane->err, GD_ERR_IO, 0, 0, "clickhouse: cannot start a request");
    *busy = 1;
    return GD_OK;
}

int gd_ch_insert_lanes(gd_ch *c, gd_ch_lane *lanes, size_t n, size_t *failed, gd_error *err)
{
    if (n > GD_CH_LANES)
        return gd_error_set(err, GD_ERR_USAGE, 0, 0, "at most %d lanes", GD_CH_LANES);
    if (!c->m && !(c->m = curl_multi_init()))
        return gd_error_oom(err);
    int rc = GD_OK, busy[GD_CH_LANES] = {0}, active = 0;
    for (size_t i = 0; i < n && !rc; i++)
        if ((rc = lane_start(c, &lanes[i], i, &busy[i])))
            *failed = i;
    for (size_t i = 0; i < n; i++)
        active += busy[i];
    /* after the first failure none is started: those under way end, so
     * that each lane knows what the server took */
    while (active) {
        int running;
        if (curl_multi_perform(c->m, &running) != CURLM_OK)
            break;
        CURLMsg *msg;
        int left;
        while ((msg = curl_multi_info_read(c->m, &left))) {
            size_t i = 0;
            while (i < n && !(busy[i] && c->lane[i].e == msg->easy_handle))
                i++;
            if (msg->msg != CURLMSG_DONE || i == n)
                continue;
            ch_lane *l = &c->lane[i];
            curl_multi_remove_handle(c->m, l->e);
            busy[i] = 0;
            int k = l->st.aborted ? GD_ERR_ABORT
                                  : outcome(c, l->e, msg->data.result, l->errbuf, l->resp, l->rlen,
                                            &lanes[i].err);
            k = lanes[i].done(lanes[i].ctx, k);
            if (!k && !rc)
                k = lane_start(c, &lanes[i], i, &busy[i]);
            active += busy[i] - 1;
            if (k && !rc) {
                rc = k;
                *failed = i;
            }
        }
        if (active)
            curl_multi_poll(c->m, NULL, 0, 1000, NULL);
    }
    for (size_t i = 0; i < n; i++)
        if (busy[i]) /* the multi interface failed: nothing is known of them */
            curl_multi_remove_handle(c->m, c->lane[i].e);
    if (active && !rc)
        rc = gd_error_set(&lanes[*failed = 0].err, GD_ERR_IO, 0, 0, "clickhouse: the transfers failed");
    if (rc)
        *err = lanes[*failed].err;
    return rc;
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
               const char *password, const gd_fetch_opts *limits, int create, gd_error *err)
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
    int rc = gd_curl_load(err);
    if (rc)
        return rc;
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
    c->timeout = limits && limits->timeout_s > 0 ? limits->timeout_s : 600;
    c->stall = limits && limits->stall_timeout_s > 0 ? limits->stall_timeout_s : 30;
    c->connect = limits && limits->connect_timeout_s > 0 ? limits->connect_timeout_s : 10;
    curl_easy_setopt(c->e, CURLOPT_WRITEFUNCTION, on_resp);
    curl_easy_setopt(c->e, CURLOPT_WRITEDATA, c);
    curl_easy_setopt(c->e, CURLOPT_ERRORBUFFER, c->errbuf);
    curl_easy_setopt(c->e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c->e, CURLOPT_USERAGENT, "godeye/" GODEYE_VERSION);
    curl_easy_setopt(c->e, CURLOPT_UPLOAD_BUFFERSIZE, 1L << 20);
    /* no "Expect: 100-continue" wait before a body */
    if (!(c->headers = curl_slist_append(NULL, "Expect:"))) {
        gd_ch_close(c);
        return gd_error_oom(err);
    }
    curl_easy_setopt(c->e, CURLOPT_HTTPHEADER, c->headers);
    /* HTTP basic authentication, as ClickHouse's HTTP interface takes it */
    if (user)
        curl_easy_setopt(c->e, CURLOPT_USERNAME, user);
    if (password)
        curl_easy_setopt(c->e, CURLOPT_PASSWORD, password);
    char sql[256];
    rc = gd_ch_query(c, "SELECT 1", NULL, 0, err);
    if (!rc && database && create) {
        snprintf(sql, sizeof sql, "CREATE DATABASE IF NOT EXISTS %s", database);
        rc = gd_ch_query(c, sql, NULL, 0, err);
    }
    if (database)
        snprintf(c->db, sizeof c->db, "%s", database);
    if (rc) {
        gd_ch_close(c);
        return rc;
    }
    *out = c;
    return GD_OK;
}

void gd_ch_set_timeout(gd_ch *c, long seconds)
{
    c->timeout = seconds;
    if (c->connect > seconds)
        c->connect = seconds;
    CURL *handles[1 + GD_CH_LANES] = {c->e};
    for (size_t i = 0; i < GD_CH_LANES; i++)
        handles[1 + i] = c->lane[i].e;
    for (size_t i = 0; i < 1 + GD_CH_LANES; i++)
        if (handles[i]) {
            curl_easy_setopt(handles[i], CURLOPT_TIMEOUT, seconds);
            curl_easy_setopt(handles[i], CURLOPT_CONNECTTIMEOUT, seconds < 10 ? seconds : 10L);
        }
}

#define CH_COUNT_MAX 9007199254740992.0 /* 2^53: every count a double holds exactly */

int gd_ch_count(const json_t *v, int64_t *out)
{
    if (json_is_integer(v)) {
        json_int_t i = json_integer_value(v);
        if (i < 0 || (double)i > CH_COUNT_MAX)
            return 0;
        *out = (int64_t)i;
        return 1;
    }
    double d = json_is_real(v) ? json_real_value(v) : NAN;
    if (!(d >= 0 && d <= CH_COUNT_MAX) || d != floor(d))
        return 0;
    *out = (int64_t)d;
    return 1;
}

int gd_ch_real(const json_t *v, double *out)
{
    if (!json_is_number(v) || !isfinite(json_number_value(v)))
        return 0;
    *out = json_number_value(v);
    return 1;
}

int gd_ch_select(gd_ch *c, const char *sql, gd_ch_row_fn fn, void *ctx, gd_error *err)
{
    size_t n = strlen(sql);
    char *q = malloc(n + 32);
    if (!q)
        return gd_error_oom(err);
    snprintf(q, n + 32, "%s FORMAT JSONEachRow", sql);
    c->fn = fn;
    c->fn_ctx = ctx;
    c->stop = 0;
    c->llen = 0;
    /* numbers as numbers; the whole answer computed before the 200, so that
     * an error comes as one (and a row's error line is still caught) */
    int rc = post(c, "output_format_json_quote_64bit_integers=0&wait_end_of_query=1", q, strlen(q), err);
    c->fn = NULL;
    free(q);
    return rc;
}

void gd_ch_close(gd_ch *c)
{
    if (!c)
        return;
    free(c->line);
    for (size_t i = 0; i < GD_CH_LANES; i++) {
        if (c->lane[i].e)
            curl_easy_cleanup(c->lane[i].e);
    }
    if (c->m)
        curl_multi_cleanup(c->m);
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

int gd_ch_column_type(const char *table, const char *column, char *out, size_t n)
{
    char head[96];
    snprintf(head, sizeof head, "CREATE TABLE IF NOT EXISTS %s (\n", table);
    const char *p = strstr(GD_CLICKHOUSE_SQL, head);
    size_t cl = strlen(column);
    /* one column a line, "  name  type," up to the line ")" */
    for (p = p ? p + strlen(head) : NULL; p && *p && *p != ')';) {
        const char *nl = strchr(p, '\n'), *end = nl ? nl : p + strlen(p);
        const char *q = p;
        while (q < end && isspace((unsigned char)*q))
            q++;
        if ((size_t)(end - q) > cl && strncmp(q, column, cl) == 0 && isspace((unsigned char)q[cl])) {
            q += cl;
            while (q < end && isspace((unsigned char)*q))
                q++;
            const char *e = end;
            while (e > q && (isspace((unsigned char)e[-1]) || e[-1] == ','))
                e--;
            if (e == q || (size_t)(e - q) >= n)
                return -1;
            memcpy(out, q, (size_t)(e - q));
            out[e - q] = 0;
            return 0;
        }
        p = nl ? nl + 1 : end;
    }
    return -1;
}

int gd_ch_missing_columns(gd_ch *c, char *out, size_t n, gd_error *err)
{
    size_t cap = 1 << 18;
    char *have = malloc(cap);
    if (!have)
        return gd_error_oom(err);
    have[0] = '\n';
    int rc = gd_ch_query(c, "SELECT concat(table, '.', name) FROM system.columns WHERE database = currentDatabase()"
                            " FORMAT TabSeparated", have + 1, cap - 2, err);
    if (rc) {
        free(have);
        return rc;
    }
    size_t hn = strlen(have);
    if (hn && have[hn - 1] != '\n')
        have[hn++] = '\n', have[hn] = 0;
    int count = 0;
    size_t used = 0;
    out[0] = 0;
    static const char head[] = "CREATE TABLE IF NOT EXISTS ";
    for (const char *p = strstr(GD_CLICKHOUSE_SQL, head); p; p = strstr(p, head)) {
        p += sizeof head - 1;
        const char *te = p;
        while (*te && !isspace((unsigned char)*te) && *te != '(')
            te++;
        char table[64], probe[200];
        snprintf(table, sizeof table, "%.*s", (int)(te - p), p);
        snprintf(probe, sizeof probe, "\n%s.", table);
        int exists = strstr(have, probe) != NULL;
        const char *l = strchr(te, '\n');
        for (l = l ? l + 1 : NULL; exists && l && *l && *l != ')';) {
            const char *nl = strchr(l, '\n'), *end = nl ? nl : l + strlen(l), *q = l;
            while (q < end && isspace((unsigned char)*q))
                q++;
            const char *ne = q;
            while (ne < end && (isalnum((unsigned char)*ne) || *ne == '_'))
                ne++;
            if (ne > q && !(q[0] == '-' && q[1] == '-')) {
                snprintf(probe, sizeof probe, "\n%s.%.*s\n", table, (int)(ne - q), q);
                if (!strstr(have, probe)) {
                    int k = snprintf(out + used, n - used, "%s%s.%.*s", count ? ", " : "", table, (int)(ne - q), q);
                    if (k > 0 && used + (size_t)k < n)
                        used += (size_t)k;
                    count++;
                }
            }
            l = nl ? nl + 1 : NULL;
        }
    }
    free(have);
    return count;
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
        return gd_error_oom(err);
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
