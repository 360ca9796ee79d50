/* fetch.h - http(s) inputs streamed with libcurl into a gd_input. */
#ifndef GD_IO_FETCH_H
#define GD_IO_FETCH_H

#include <stdint.h>

#include "core/error.h"
#include "input.h"

typedef struct gd_fetch gd_fetch;

typedef struct gd_fetch_opts {
    uint64_t max_bytes;        /* body size cap; 0 = 2 GiB                */
    long connect_timeout_s;    /* 0 = 10                                  */
    long timeout_s;            /* whole transfer; 0 = 600                 */
    long stall_timeout_s;      /* no byte for this long = fail; 0 = 30    */
} gd_fetch_opts;

/* Sets the limits of opts (NULL: all defaults) on a libcurl easy handle
 * (so libcurl is loaded: io/curl_dl.h):
 * the connect timeout, the whole transfer's, and the stall limit (less than
 * 1 byte/s for stall_timeout_s fails).  The one rule of every http
 * transfer (URL ingest, push). */
void gd_fetch_limits(void *curl_easy, const gd_fetch_opts *opts);

/* 1 when `s` starts with http:// or https:// (case-insensitive). */
int gd_fetch_is_url(const char *s);
/* The URL as it may be stored or shown: user:password@ removed and the
 * values of query keys that look like secrets (token, key, password, sig,
 * auth, ...) replaced by REDACTED.  Writes at most n bytes; returns out. */
char *gd_url_redact(const char *url, char *out, size_t n);
/* Starts fetching `url` within the limits of opts (NULL: all defaults);
 * *in pulls the body (gzip content-encoding decoded) as it arrives, with
 * bounded memory.  Only http and https, also for redirects; proxies from
 * the usual environment variables.  Transfer errors surface from
 * gd_input_read as GD_ERR_IO with the URL's reason. */
int gd_fetch_open(gd_fetch **out, const char *url, const gd_fetch_opts *opts, gd_input **in,
                  gd_error *err);
/* Ends the transfer; GD_OK only when the whole body arrived with a 2xx. */
int gd_fetch_close(gd_fetch *f, gd_error *err);

#endif
