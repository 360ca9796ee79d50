/* fetch.c - pulling an http(s) body through libcurl's multi interface. */
#include "fetch.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "curl_dl.h"

struct gd_fetch {
    CURL *e;
    CURLM *m;
    char *buf;
    size_t len, pos, cap;
    int done;
    CURLcode result;
    int too_big, paused;
    uint64_t got, max_bytes;
    char errbuf[CURL_ERROR_SIZE];
    char url[1024];
};

int gd_fetch_is_url(const char *s)
{
    return strncasecmp(s, "http://", 7) == 0 || strncasecmp(s, "https://", 8) == 0;
}

/* Query keys whose values are secrets (matched as parts of the key). */
static const char *const secret_keys[] = {"token", "key", "pass", "pwd", "secret", "sig",
                                          "auth", "cred", "session", NULL};

static int secret_key(const char *k, size_t n)
{
    for (const char *const *p = secret_keys; *p; p++) {
        size_t m = strlen(*p);
        for (size_t i = 0; i + m <= n; i++)
            if (strncasecmp(k + i, *p, m) == 0)
                return 1;
    }
    return 0;
}

char *gd_url_redact(const char *url, char *out, size_t n)
{
    if (!n)
        return out;
    size_t o = 0;
#define PUT(c)                                                                                     \
    do {                                                                                           \
        if (o + 1 < n)                                                                             \
            out[o++] = (c);                                                                        \
    } while (0)
    const char *p = url, *auth = strstr(url, "://");
    if (auth) {
        auth += 3;
        size_t alen = strcspn(auth, "/?#");
        const char *at = NULL;
        for (size_t i = 0; i < alen; i++)
            if (auth[i] == '@')
                at = auth + i;
        for (; p < auth; p++)
            PUT(*p);
        if (at)
            p = at + 1; /* user:password@ dropped */
    }
    for (; *p && *p != '?'; p++)
        PUT(*p);
    if (*p == '?') {
        PUT('?');
        p++;
        while (*p && *p != '#') {
            size_t len = strcspn(p, "&#");
            const char *eq = memchr(p, '=', len);
            size_t klen = eq ? (size_t)(eq - p) : len;
            for (size_t i = 0; i < klen; i++)
                PUT(p[i]);
            if (eq) {
                PUT('=');
                if (secret_key(p, klen))
                    for (const char *r = "REDACTED"; *r; r++)
                        PUT(*r);
                else
                    for (const char *v = eq + 1; v < p + len; v++)
                        PUT(*v);
            }
            p += len;
            if (*p == '&')
                PUT(*p++);
        }
    }
    for (; *p; p++)
        PUT(*p);
#undef PUT
    out[o] = 0;
    return out;
}

/* Unread bytes held at most (plus one libcurl write); past it the transfer
 * pauses until the reader catches up, so memory never follows the body. */
#define FETCH_HOLD ((size_t)256 << 10)

static size_t on_write(char *p, size_t size, size_t n, void *ctx)
{
    gd_fetch *f = ctx;
    size_t k = size * n;
    if (f->pos > 0 && f->pos == f->len)
        f->pos = f->len = 0;
    if (f->len > f->pos && f->len - f->pos + k > FETCH_HOLD) {
        f->paused = 1;
        return CURL_WRITEFUNC_PAUSE;
    }
    if (f->got + k > f->max_bytes) {
        f->too_big = 1;
        return 0;
    }
    if (f->pos > 0 && f->len + k > f->cap) {
        memmove(f->buf, f->buf + f->pos, f->len - f->pos);
        f->len -= f->pos;
        f->pos = 0;
    }
    if (f->len + k > f->cap) {
        size_t nc = f->cap ? f->cap : 65536;
        while (nc < f->len + k)
            nc *= 2;
        char *nb = realloc(f->buf, nc);
        if (!nb)
            return 0;
        f->buf = nb;
        f->cap = nc;
    }
    f->got += k;
    memcpy(f->buf + f->len, p, k);
    f->len += k;
    return k;
}

static int finish_error(gd_fetch *f, gd_error *err)
{
    long code = 0;
    curl_easy_getinfo(f->e, CURLINFO_RESPONSE_CODE, &code);
    if (f->too_big || f->result == CURLE_FILESIZE_EXCEEDED)
        return gd_error_set(err, GD_ERR_IO, 0, 0, "body larger than the cap of %llu bytes",
                            (unsigned long long)f->max_bytes);
    if (f->result == CURLE_HTTP_RETURNED_ERROR || (f->result == CURLE_OK && code >= 300))
        return gd_error_set(err, GD_ERR_IO, 0, 0, "HTTP %ld from server", code);
    if (f->result == CURLE_UNSUPPORTED_PROTOCOL)  /* the URL itself was http(s) */
        return gd_error_set(err, GD_ERR_IO, 0, 0, "redirect refused (only http and https): %s",
                            f->errbuf[0] ? f->errbuf : curl_easy_strerror(f->result));
    if (f->result != CURLE_OK)
        return gd_error_set(err, GD_ERR_IO, 0, 0, "%s",
                            f->errbuf[0] ? f->errbuf : curl_easy_strerror(f->result));
    if (code < 200)
        return gd_error_set(err, GD_ERR_IO, 0, 0, "no HTTP response");
    return GD_OK;
}

static ssize_t pull(void *ctx, void *buf, size_t n, gd_error *err)
{
    gd_fetch *f = ctx;
    if (f->pos == f->len && f->paused) {
        /* drained: let libcurl deliver what it held back (it may call
         * on_write from inside curl_easy_pause) */
        f->paused = 0;
        curl_easy_pause(f->e, CURLPAUSE_CONT);
    }
    while (f->pos == f->len && !f->done) {
        int running = 0;
        if (curl_multi_perform(f->m, &running) != CURLM_OK) {
            gd_error_set(err, GD_ERR_IO, 0, 0, "transfer failed");
            return -1;
        }
        if (f->pos < f->len) {
            /* an error status's body is never handed to a reader */
            long code = 0;
            curl_easy_getinfo(f->e, CURLINFO_RESPONSE_CODE, &code);
            if (code >= 300) {
                gd_error_set(err, GD_ERR_IO, 0, 0, "HTTP %ld from server", code);
                return -1;
            }
            break;
        }
        if (!running) {
            CURLMsg *msg;
            int left;
            while ((msg = curl_multi_info_read(f->m, &left)))
                if (msg->msg == CURLMSG_DONE)
                    f->result = msg->data.result;
            f->done = 1;
            break;
        }
        curl_multi_poll(f->m, NULL, 0, 1000, NULL);
    }
    if (f->pos == f->len) {
        if (finish_error(f, err))
            return -1;
        return 0;
    }
    size_t k = f->len - f->pos;
    if (k > n)
        k = n;
    memcpy(buf, f->buf + f->pos, k);
    f->pos += k;
    return (ssize_t)k;
}

void gd_fetch_limits(void *curl_easy, const gd_fetch_opts *opts)
{
    const gd_fetch_opts none = {0}, *o = opts ? opts : &none;
    CURL *e = curl_easy;
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT, o->connect_timeout_s ? o->connect_timeout_s : 10L);
    curl_easy_setopt(e, CURLOPT_TIMEOUT, o->timeout_s ? o->timeout_s : 600L);
    curl_easy_setopt(e, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(e, CURLOPT_LOW_SPEED_TIME, o->stall_timeout_s ? o->stall_timeout_s : 30L);
}

int gd_fetch_open(gd_fetch **out, const char *url, const gd_fetch_opts *opts, gd_input **in,
                  gd_error *err)
{
    const gd_fetch_opts none = {0}, *o = opts ? opts : &none;
    int rc = gd_curl_load(err);
    if (rc)
        return rc;
    gd_fetch *f = calloc(1, sizeof *f);
    if (!f)
        return gd_error_oom(err);
    snprintf(f->url, sizeof f->url, "%s", url);
    f->max_bytes = o->max_bytes ? o->max_bytes : ((uint64_t)2 << 30);
    f->e = curl_easy_init();
    f->m = curl_multi_init();
    if (!f->e || !f->m) {
        gd_fetch_close(f, NULL);
        return gd_error_set(err, GD_ERR_IO, 0, 0, "cannot start libcurl");
    }
    curl_easy_setopt(f->e, CURLOPT_URL, url);
    curl_easy_setopt(f->e, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(f->e, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(f->e, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(f->e, CURLOPT_MAXREDIRS, 10L);
    curl_easy_setopt(f->e, CURLOPT_ACCEPT_ENCODING, "");
    gd_fetch_limits(f->e, o);
    curl_easy_setopt(f->e, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)f->max_bytes);
    curl_easy_setopt(f->e, CURLOPT_FAILONERROR, 1L);
    curl_easy_setopt(f->e, CURLOPT_WRITEFUNCTION, on_write);
    curl_easy_setopt(f->e, CURLOPT_WRITEDATA, f);
    curl_easy_setopt(f->e, CURLOPT_ERRORBUFFER, f->errbuf);
    curl_easy_setopt(f->e, CURLOPT_USERAGENT, "godeye/" GODEYE_VERSION);
    curl_easy_setopt(f->e, CURLOPT_NOSIGNAL, 1L);
    curl_multi_add_handle(f->m, f->e);
    rc = gd_input_open_pull(in, pull, f, err);
    if (rc) {
        gd_fetch_close(f, NULL);
        return rc;
    }
    *out = f;
    return GD_OK;
}

int gd_fetch_close(gd_fetch *f, gd_error *err)
{
    int rc = GD_OK;
    if (!f)
        return rc;
    if (err && f->e && f->done)
        rc = finish_error(f, err);
    else if (err && f->e && !f->done)
        rc = gd_error_set(err, GD_ERR_IO, 0, 0, "transfer not finished");
    if (f->m && f->e)
        curl_multi_remove_handle(f->m, f->e);
    if (f->e)
        curl_easy_cleanup(f->e);
    if (f->m)
        curl_multi_cleanup(f->m);
    free(f->buf);
    free(f);
    return rc;
}
