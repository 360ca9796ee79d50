/* ingest.c - detection, streaming of inputs through readers, one transaction. */
#include "ingest.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "ingest/writer.h"
#include "io/fetch.h"
#include "derive/retrace.h"
#include "ingest/retrace_sink.h"
#include "core/util.h"
#include "store/store.h"
#include "reader/bugreport.h"

int gd_ingest_detect(gd_input *in, const char *forced, const gd_reader **out, gd_error *err)
{
    if (forced) {
        *out = gd_reader_find(forced);
        if (!*out) {
            char names[512] = "";
            size_t used = 0;
            for (const gd_reader *const *r = gd_readers(); *r && used < sizeof names; r++)
                used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", used ? ", " : "",
                                         (*r)->name);
            return gd_error_set(err, GD_ERR_USAGE, 0, 0, "unknown format '%s' (known: %s)", forced,
                                names);
        }
        return GD_OK;
    }
    size_t n;
    int eof;
    const unsigned char *head = gd_input_peek(in, &n, &eof, err);
    if (!head)
        return err->code ? err->code : GD_ERR_IO;
    if (n == 0)
        return gd_error_set(err, GD_ERR_DATA, 0, 0, "empty input");
    char tried[512];
    *out = gd_reader_detect(head, n, eof, tried, sizeof tried);
    if (!*out) {
        const char *what = gd_reader_not_capture(head, n, eof);
        if (what)
            return gd_error_set(err, GD_ERR_DATA, 0, 0, "not a capture: %s", what);
        const char *enc = gd_input_encoding(in);
        if (enc)
            return gd_error_set(err, GD_ERR_DATA, 1, 1,
                                "unrecognised format (%s input, read as UTF-8; tried: %s)", enc, tried);
        size_t nul = 0, m = n < 256 ? n : 256;
        for (size_t i = 0; i < m; i++)
            nul += head[i] == 0;
        if (m >= 8 && nul * 4 >= m && nul * 2 <= m + 2) /* NULs beside characters */
            return gd_error_set(err, GD_ERR_DATA, 1, 1,
                                "unrecognised format (UTF-16 input? without a byte order mark only"
                                " text that starts in ASCII is recognised: save it as UTF-8;"
                                " tried: %s)", tried);
        return gd_error_set(err, GD_ERR_DATA, 1, 1, "unrecognised format (tried: %s)", tried);
    }
    return GD_OK;
}

/* Progress relay: the input reports bytes as a reader pulls them. */
typedef struct run_ctx {
    gd_store *s;
    struct stat db[4];  /* the database and its -wal, -shm, -journal   */
    int ndb;
    const gd_ingest_opts *opts;
    gd_ingest_report_fn fn;
    void *ctx;
    gd_mapping *mapping;   /* opts->mapping loaded, or NULL                  */
    int in_folder;         /* > 0 while reading a folder's members           */
    size_t usable;         /* inputs that gave a trace (new or duplicate)    */
    int per_input;         /* not strict: each input its own transaction     */
    int tx_open;           /* per_input: the input's transaction is open     */
    int single;            /* per_input: one input: its refusal (a folder's
                            * own: empty, no capture) is the ingest's error  */
    int undetected;        /* the refusal being returned: no reader knew it */
    int fatal;             /* the error being returned stops the ingest      */
    int in_zip;            /* > 0 while reading a zip's members              */
} run_ctx;

static void stat_to_json(void *ctx, const char *reason, long count, long first_line)
{
    json_object_set_new((json_t *)ctx, reason, json_integer(count));
}

/* Progress: wraps the sink to poll the input's position now and then. */
typedef struct progress_sink {
    gd_sink inner;
    gd_sink outer;
    gd_input *in;
    const gd_ingest_opts *opts;
    const char *source;
    unsigned long n;
} progress_sink;

static int ps_event(void *ctx, const gd_event *ev, gd_error *err)
{
    progress_sink *p = ctx;
    if ((++p->n & 0x3fff) == 0)
        p->opts->progress(p->opts->progress_ctx, p->source, gd_input_raw_bytes(p->in),
                          gd_input_raw_size(p->in));
    return p->inner.event(p->inner.ctx, ev, err);
}
static int ps_meta(void *ctx, const gd_meta *m, gd_error *err)
{
    progress_sink *p = ctx;
    return p->inner.meta(p->inner.ctx, m, err);
}
static void ps_skip(void *ctx, const char *reason, long line, long col)
{
    progress_sink *p = ctx;
    p->inner.skip(p->inner.ctx, reason, line, col);
}

/* Analysis progress: the writer's callback with the input's name. */
typedef struct analysis_progress {
    const gd_ingest_opts *opts;
    const char *source;
} analysis_progress;

static void ap_call(void *ctx, uint64_t done, int64_t total)
{
    analysis_progress *a = ctx;
    a->opts->analysis_progress(a->opts->progress_ctx, a->source, done, total);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* "N skipped: reason N, reason N" (the first few reasons) */
typedef struct why_ctx {
    char *buf;
    size_t cap;
    size_t *used;
    long total;
} why_ctx;

static void why_add(void *ctx, const char *reason, long count, long first_line)
{
    why_ctx *w = ctx;
    (void)first_line;
    w->total += count;
    if (*w->used < w->cap)
        *w->used += (size_t)snprintf(w->buf + *w->used, w->cap - *w->used, "%s%s: %ld",
                                     *w->used ? ", " : "", reason, count);
    if (*w->used >= w->cap && w->cap > 4)
        memcpy(w->buf + w->cap - 4, "...", 4);
}

static int read_input(run_ctx *rc, gd_input *in, const char *source, gd_error *err)
{
    double t_read = now_s();
    const gd_reader *r;
    int code = gd_ingest_detect(in, rc->opts->format, &r, err);
    if (code) {
        rc->undetected = code == GD_ERR_DATA;
        return code;
    }
    if (rc->per_input) {
        if ((code = gd_store_begin(rc->s, err))) {
            rc->fatal = 1; /* the database, not this input */
            return code;
        }
        rc->tx_open = 1;
    }
    gd_writer *w = NULL;
    if ((code = gd_writer_open(&w, rc->s, source, r->name, err)))
        return code;
    gd_writer_default_clock(w, r->clock);
    gd_writer_set_tags(w, rc->opts->tags);
    gd_writer_time_events(w, rc->opts->timings);
    gd_read_opts ro = {.year = rc->opts->year, .method_mapping = rc->opts->method_mapping, .name = source,
                       .keep_going = rc->opts->keep_going};
    const gd_sink *sink = gd_writer_sink(w);
    progress_sink ps;
    if (rc->opts->progress) {
        ps.inner = *sink;
        ps.in = in;
        ps.opts = rc->opts;
        ps.source = source;
        ps.n = 0;
        ps.outer = (gd_sink){&ps, ps_meta, ps_event, ps_skip};
        sink = &ps.outer;
    }
    gd_retrace_sink rs = {0};
    if (rc->mapping)
        sink = gd_retrace_sink_wrap(&rs, sink, rc->mapping);
    code = r->read(in, sink, &ro, err);
    size_t rt_seen = rs.seen, rt_done = rs.retraced, rt_unknown = rs.unknown, rt_cut = rs.cut;
    gd_retrace_sink_free(&rs);
    if (!code) {
        /* drain anything a reader left unread, so the hash covers the input */
        char buf[65536];
        ssize_t k;
        while ((k = gd_input_read(in, buf, sizeof buf, err)) > 0)
            ;
        if (k < 0)
            code = err->code ? err->code : GD_ERR_IO;
    }
    if (code) {
        if (!err->code)
            err->code = code;
        gd_writer_abort(w, NULL); /* err holds the first failure */
        gd_writer_free(w);
        return code;
    }
    t_read = now_s() - t_read;
    if (rc->opts->progress)
        rc->opts->progress(rc->opts->progress_ctx, source, gd_input_raw_bytes(in), gd_input_raw_size(in));
    if (gd_writer_events(w) == 0 && gd_writer_log_lines(w) == 0) {
        /* recognised, yet nothing usable: never a silent success */
        char why[400];
        size_t used = 0;
        why_ctx wc = {why, sizeof why, &used, 0};
        why[0] = 0;
        gd_writer_foreach_stat(w, why_add, &wc);
        if (!wc.total)
            snprintf(why, sizeof why, "no events in it");
        int undone = gd_writer_abort(w, err);
        gd_writer_free(w);
        if (undone)
            return undone;
        if (rc->opts->keep_going || rc->in_folder || (rc->per_input && !rc->single)) {
            /* a folder member (a capture folder's empty logcat), or one of
             * many inputs, is passed over like a file in no known format;
             * the folder fails only when none of its members gives
             * anything */
            char msg[512];
            snprintf(msg, sizeof msg, "read as %s, nothing usable (%s)", r->name, why);
            gd_ingest_report rep = {.source = source, .format = r->name, .nothing_usable = msg,
                                    .member = rc->in_folder > 0};
            if (rc->fn)
                rc->fn(rc->ctx, &rep);
            return GD_OK;
        }
        return gd_error_set(err, GD_ERR_DATA, 0, 0,
                            "read as %s but nothing usable was found (%s); --keep-going passes over it",
                            r->name, why);
    }
    /* the duplicate key: the content, and the reader options that change
     * what is read from it (the same file read with another --year is
     * another trace) */
    char hex[33], hash[600];
    gd_input_hash_hex(in, hex);
    int used = snprintf(hash, sizeof hash, "%s", hex);
    if (rc->opts->format)
        used += snprintf(hash + used, sizeof hash - (size_t)used, ";format=%.64s", rc->opts->format);
    if (rc->opts->year)
        used += snprintf(hash + used, sizeof hash - (size_t)used, ";year=%d", rc->opts->year);
    if (rc->opts->method_mapping)
        used += snprintf(hash + used, sizeof hash - (size_t)used, ";mapping=%.400s",
                         rc->opts->method_mapping);
    if (rc->mapping && used < (int)sizeof hash)
        snprintf(hash + used, sizeof hash - (size_t)used, ";retrace=%s", gd_mapping_hash(rc->mapping));
    gd_ingest_report rep = {.source = source, .format = r->name, .member = rc->in_folder > 0,
                            .bytes = gd_input_raw_bytes(in)};
    if (gd_writer_events(w) == 0) /* a logcat with no performance line is still a capture */
        rep.note = GD_INGEST_LOG_ONLY;
    json_t *stats = json_object();
    analysis_progress ap = {rc->opts, source};
    if (rc->opts->analysis_progress)
        gd_writer_progress(w, ap_call, &ap);
    code = gd_writer_finish(w, hash, &rep.res, err);
    if (!code && !rep.res.duplicate)
        gd_writer_foreach_stat(w, stat_to_json, stats);
    rep.res.timings.read = t_read - rep.res.timings.write;
    if (code)
        gd_writer_abort(w, NULL); /* err holds the first failure */
    gd_writer_free(w);
    if (!code && rc->tx_open) {
        /* the input is stored before anyone hears of it */
        rc->tx_open = 0;
        if ((code = gd_store_commit(rc->s, err))) {
            gd_store_rollback(rc->s);
            rc->fatal = 1;
        }
    }
    if (!code)
        rc->usable++;
    if (code) {
        ;
    } else if (rc->fn) {
        rep.stats = stats;
        json_t *rt = NULL;
        if (rc->mapping && !rep.res.duplicate) {
            rt = json_pack("{s:I s:I s:I s:I}", "frames", (json_int_t)rt_seen, "retraced",
                           (json_int_t)rt_done, "unknown_class", (json_int_t)rt_unknown, "cut",
                           (json_int_t)rt_cut);
            rep.retrace = rt;
        }
        rc->fn(rc->ctx, &rep);
        json_decref(rt);
        if (rc->mapping && !rep.res.duplicate && rt_seen && !rt_done) {
            /* a wrong mapping is never silent */
            char msg[700];
            snprintf(msg, sizeof msg, " matched none of the %zu Java frames of '%.500s' (%zu of classes it does not know): the build's mapping?",
                     rt_seen, source, rt_unknown);
            gd_ingest_report w = {.source = rc->opts->mapping, .warning = msg};
            rc->fn(rc->ctx, &w);
        }
    }
    json_decref(stats);
    return code;
}

/* One input read into one trace: with per_input, in its own transaction,
 * rolled back when the input is refused. */
static int ingest_input(run_ctx *rc, gd_input *in, const char *source, gd_error *err)
{
    rc->undetected = 0;
    int code = read_input(rc, in, source, err);
    if (rc->tx_open) {
        gd_store_rollback(rc->s);
        rc->tx_open = 0;
    }
    return code;
}

/* Not strict: an input that failed with code is reported through fn as
 * refused (or, in no known format, passed over) and GD_OK returned, so
 * that the next input is read; a failure that stops everything (the
 * database, out of memory, a usage error) is returned as it is. */
static int refuse(run_ctx *rc, const char *path, int code, int member, gd_error *err)
{
    if (code == GD_ERR_NOMEM || code == GD_ERR_USAGE || rc->fatal)
        return code;
    if (!err->source[0])
        gd_url_redact(path, err->source, sizeof err->source);
    if (code == GD_ERR_NOT_MINE || rc->undetected) {
        gd_ingest_report rep = {.source = err->source, .not_capture = err->msg, .member = member};
        if (rc->fn)
            rc->fn(rc->ctx, &rep);
    } else {
        gd_ingest_report rep = {.source = err->source, .refused = err, .member = member,
                                .refusal = code == GD_ERR_IO ? "unreadable" : "broken or unsupported data"};
        if (rc->fn)
            rc->fn(rc->ctx, &rep);
    }
    rc->undetected = 0;
    gd_error_clear(err);
    return GD_OK;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* 1 when st is the database or one of its side files. */
static int is_db_file(const run_ctx *rc, const struct stat *st)
{
    for (int i = 0; i < rc->ndb; i++)
        if (rc->db[i].st_dev == st->st_dev && rc->db[i].st_ino == st->st_ino)
            return 1;
    return 0;
}

/* Tells fn about a folder member passed over (never silent). */
static void passed_over(const run_ctx *rc, const char *path, const char *why)
{
    gd_ingest_report rep = {.source = path, .not_capture = why, .member = rc->in_zip ? 2 : rc->in_folder > 0};
    if (rc->fn)
        rc->fn(rc->ctx, &rep);
}

/* Sorted regular files (recursive) under dir; *out is a NULL-free array.
 * Links to folders are not followed (a link cycle would read the same files
 * again and again); the database itself is never an input. */
static int list_files(const run_ctx *run, const char *dir, char ***out, size_t *n, size_t *cap,
                      int recursive, gd_error *err)
{
    DIR *d = opendir(dir);
    if (!d)
        return gd_error_set(err, GD_ERR_IO, 0, 0, "cannot read folder: %s", strerror(errno));
    struct dirent *e;
    char **sub = NULL;
    size_t nsub = 0;
    int rc = GD_OK;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        char *p = malloc(len);
        if (!p) {
            rc = gd_error_oom(err);
            break;
        }
        size_t dl = strlen(dir);
        snprintf(p, len, "%s%s%s", dir, dl && dir[dl - 1] == '/' ? "" : "/", e->d_name);
        struct stat st, lst;
        if (lstat(p, &lst) != 0 || stat(p, &st) != 0) {
            free(p);
            continue;
        }
        if (S_ISDIR(st.st_mode) && S_ISLNK(lst.st_mode)) {
            if (recursive)
                passed_over(run, p, "a link to a folder (not followed)");
            free(p);
            continue;
        }
        if (S_ISREG(st.st_mode) && is_db_file(run, &st)) {
            passed_over(run, p, "the database itself");
            free(p);
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            if (recursive) {
                char **ns = realloc(sub, (nsub + 1) * sizeof *ns);
                if (!ns) {
                    free(p);
                    rc = gd_error_oom(err);
                    break;
                }
                sub = ns;
                sub[nsub++] = p;
            } else {
                free(p);
            }
            continue;
        }
        if (!S_ISREG(st.st_mode)) {
            free(p);
            continue;
        }
        if (*n == *cap) {
            *cap = *cap ? *cap * 2 : 32;
            char **no = realloc(*out, *cap * sizeof *no);
            if (!no) {
                free(p);
                rc = gd_error_oom(err);
                break;
            }
            *out = no;
        }
        (*out)[(*n)++] = p;
    }
    closedir(d);
    gd_sort(sub, nsub, sizeof *sub, cmp_str);
    for (size_t i = 0; i < nsub; i++) {
        if (!rc)
            rc = list_files(run, sub[i], out, n, cap, recursive, err);
        free(sub[i]);
    }
    free(sub);
    return rc;
}

static void free_list(char **l, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(l[i]);
    free(l);
}

/* 0 with the reason in why when a folder member is in no known format
 * (or empty); 1 otherwise, including when it cannot be read: then its
 * ingest reports the error. */
static int is_capture(const char *path, char *why, size_t n)
{
    gd_input *in;
    gd_error e = {0};
    if (gd_input_open_file(&in, path, &e))
        return 1;
    const gd_reader *r = NULL;
    int code = gd_ingest_detect(in, NULL, &r, &e);
    gd_input_close(in);
    if (code != GD_ERR_DATA)
        return 1;
    /* "unrecognised format (tried: ...)": the list is the same each time */
    snprintf(why, n, "%.*s", (int)strcspn(e.msg, "("), e.msg);
    size_t k = strlen(why);
    while (k && why[k - 1] == ' ')
        why[--k] = 0;
    return 0;
}

/* 1 when every file of the list is detected as BlockCanary. */
static int all_blockcanary(char **files, size_t n, gd_error *err)
{
    const gd_reader *bc = gd_reader_find("blockcanary");
    if (!bc || n == 0)
        return 0;
    for (size_t i = 0; i < n; i++) {
        gd_input *in;
        gd_error e = {0};
        if (gd_input_open_file(&in, files[i], &e))
            return 0;
        const gd_reader *r = NULL;
        int ok = gd_ingest_detect(in, NULL, &r, &e) == 0 && r == bc;
        gd_input_close(in);
        if (!ok)
            return 0;
    }
    return 1;
}

/* A zip that is no bugreport, read as a folder of captures (issue 46). */
typedef struct zip_walk {
    run_ctx *rc;
    const char *path;
    size_t taken, looked;
    char names[300];    /* the members looked at, for a refusal  */
    size_t used;
} zip_walk;

static int zip_member(void *ctx, const char *name, gd_input *in, const char *why, gd_error *err)
{
    zip_walk *z = ctx;
    run_ctx *rc = z->rc;
    char clean[256], src[1024];
    size_t k = 0;
    for (; name[k] && k + 1 < sizeof clean; k++) /* an untrusted name: printable ASCII only */
        clean[k] = (unsigned char)name[k] < 0x20 || (unsigned char)name[k] >= 0x7f ? '?' : name[k];
    clean[k] = 0;
    snprintf(src, sizeof src, "%.700s/%s", z->path, clean);
    z->looked++;
    if (z->used < sizeof z->names)
        z->used += (size_t)snprintf(z->names + z->used, sizeof z->names - z->used, "%s%s",
                                    z->used ? ", " : "", clean);
    if (z->used >= sizeof z->names)
        memcpy(z->names + sizeof z->names - 4, "...", 4);
    int code;
    if (!in) {
        z->taken++;
        code = gd_error_set(err, GD_ERR_DATA, 0, 0, "%s", why);
    } else {
        size_t n;
        int eof;
        const unsigned char *h = gd_input_peek(in, &n, &eof, err);
        if (h && n >= 4 && memcmp(h, "PK\3\4", 4) == 0) {
            passed_over(rc, src, "a zip inside a zip (zips are read one level deep)");
            return GD_OK;
        }
        code = ingest_input(rc, in, src, err);
        if (code && rc->undetected) {
            char what[512]; /* as for a folder's member: without the list tried */
            snprintf(what, sizeof what, "%.*s", (int)strcspn(err->msg, "("), err->msg);
            for (size_t e = strlen(what); e && what[e - 1] == ' ';)
                what[--e] = 0;
            passed_over(rc, src, what);
            rc->undetected = 0;
            gd_error_clear(err);
            return GD_OK;
        }
        z->taken++;
    }
    if (code && !err->source[0])
        snprintf(err->source, sizeof err->source, "%.500s", src);
    if (code && rc->per_input)
        code = refuse(rc, src, code, 1, err);
    return code;
}

/* path, refused by the bugreport reader as no bugreport zip: each member
 * that is a capture is read as if the zip were a folder; GD_ERR_NOT_MINE
 * naming the members looked at when none is. */
static int zip_as_folder(run_ctx *rc, const char *path, gd_error *err)
{
    zip_walk z = {.rc = rc, .path = path};
    size_t usable0 = rc->usable;
    gd_error_clear(err);
    rc->in_folder++;
    rc->in_zip++;
    int code = gd_zip_each_member(path, &gd_bugreport_default_caps, zip_member, &z, err);
    rc->in_zip--;
    rc->in_folder--;
    if (!code && !z.taken)
        code = gd_error_set(err, GD_ERR_NOT_MINE, 0, 0,
                            "not a bugreport zip, and no capture among its %zu member%s (%s)", z.looked,
                            z.looked == 1 ? "" : "s", z.looked ? z.names : "no members");
    else if (!code && rc->usable == usable0 && !rc->opts->keep_going && (!rc->per_input || rc->single))
        code = gd_error_set(err, GD_ERR_DATA, 0, 0, "nothing usable in zip (%zu capture%s read, none with an event)",
                            z.taken, z.taken == 1 ? "" : "s");
    return code;
}

static int ingest_one(run_ctx *rc, const char *path, gd_error *err)
{
    gd_input *in = NULL;
    int code;
    struct stat st;
    if (gd_fetch_is_url(path)) {
        gd_fetch *f = NULL;
        if ((code = gd_fetch_open(&f, path, rc->opts->fetch, &in, err)))
            return code;
        char shown[2048]; /* the source as stored: no credentials */
        gd_url_redact(path, shown, sizeof shown);
        code = ingest_input(rc, in, shown, err);
        if (!code)
            code = gd_fetch_close(f, err);
        else
            gd_fetch_close(f, NULL);
        if (code && !err->source[0])
            snprintf(err->source, sizeof err->source, "%.500s", shown);
        gd_input_close(in);
        return code;
    }
    if (strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        char **files = NULL;
        size_t n = 0, cap = 0;
        if (rc->opts->format && strcmp(rc->opts->format, "blockcanary") != 0)
            code = list_files(rc, path, &files, &n, &cap, 1, err);
        else
            code = list_files(rc, path, &files, &n, &cap, 0, err);
        if (code) {
            free_list(files, n);
            return code;
        }
        if (n)
            gd_sort(files, n, sizeof *files, cmp_str);
        if ((rc->opts->format && strcmp(rc->opts->format, "blockcanary") == 0) ||
            (!rc->opts->format && all_blockcanary(files, n, err))) {
            if (n == 0) {
                free_list(files, n);
                return gd_error_set(err, GD_ERR_DATA, 0, 0, "empty folder");
            }
            if ((code = gd_input_open_files(&in, files, n, err)) == 0)
                code = ingest_input(rc, in, path, err);
            gd_input_close(in);
            free_list(files, n);
            return code;
        }
        free_list(files, n);
        files = NULL;
        n = cap = 0;
        if ((code = list_files(rc, path, &files, &n, &cap, 1, err))) {
            free_list(files, n);
            return code;
        }
        if (n)
            gd_sort(files, n, sizeof *files, cmp_str);
        if (n == 0)
            code = gd_error_set(err, GD_ERR_DATA, 0, 0, "no files in folder");
        size_t taken = 0, usable0 = rc->usable;
        rc->in_folder++;
        for (size_t i = 0; i < n && !code; i++) {
            char why[512];
            if (!rc->opts->format && !is_capture(files[i], why, sizeof why)) {
                gd_ingest_report rep = {.source = files[i], .not_capture = why};
                if (rc->fn)
                    rc->fn(rc->ctx, &rep);
                continue;
            }
            code = ingest_one(rc, files[i], err);
            if (code == GD_ERR_NOT_MINE) {
                /* recognised by its bytes (a zip), then found to be none
                 * of the reader's (a zip that is no bugreport): passed over
                 * and counted like a file in no known format */
                gd_ingest_report rep = {.source = files[i], .not_capture = err->msg};
                if (rc->fn)
                    rc->fn(rc->ctx, &rep);
                gd_error_clear(err);
                code = GD_OK;
                continue;
            }
            taken++;
            if (code && rc->per_input)
                code = refuse(rc, files[i], code, 1, err);
        }
        rc->in_folder--;
        if (!code && n && !taken)
            code = gd_error_set(err, GD_ERR_DATA, 0, 0, "no captures in folder (%zu file%s in no known format)",
                                n, n == 1 ? "" : "s");
        else if (!code && taken && rc->usable == usable0 && !rc->opts->keep_going &&
                 (!rc->per_input || rc->single))
            code = gd_error_set(err, GD_ERR_DATA, 0, 0,
                                "nothing usable in folder (%zu capture%s read, none with an event)", taken,
                                taken == 1 ? "" : "s");
        if (code && !err->source[0])
            snprintf(err->source, sizeof err->source, "%s", path);
        free_list(files, n);
        return code;
    }
    if ((code = gd_input_open_file(&in, path, err)))
        return code;
    code = ingest_input(rc, in, strcmp(path, "-") == 0 ? "-" : path, err);
    gd_input_close(in);
    if (code == GD_ERR_NOT_MINE && strcmp(path, "-") != 0 && !rc->opts->format)
        code = zip_as_folder(rc, path, err);
    if (code && !err->source[0])
        snprintf(err->source, sizeof err->source, "%s", path);
    return code;
}

/* The first load of a new database takes a rollback journal (the store's
 * policy, gd_store_journal_first_load), not when a folder is read: its
 * listing must know every side file of the database, and -journal comes
 * and goes.  1 when switched. */
static int journal_for_first_load(gd_store *s, char *const *inputs, size_t n)
{
    const char *db = gd_store_filename(s);
    if (!db || !*db)
        return 0;
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (strcmp(inputs[i], "-") && stat(inputs[i], &st) == 0 && S_ISDIR(st.st_mode))
            return 0;
    }
    return gd_store_journal_first_load(s);
}

int gd_ingest(gd_store *s, char *const *inputs, size_t n, const gd_ingest_opts *opts,
              gd_ingest_report_fn fn, void *ctx, gd_error *err)
{
    gd_ingest_opts def = {0};
    run_ctx rc = {.s = s, .opts = opts ? opts : &def, .fn = fn, .ctx = ctx};
    const char *db = gd_store_filename(s);
    static const char *const side[] = {"", "-wal", "-shm", "-journal"};
    for (int i = 0; db && i < 4; i++) {
        char p[4096];
        snprintf(p, sizeof p, "%s%s", db, side[i]);
        if (stat(p, &rc.db[rc.ndb]) == 0)
            rc.ndb++;
    }
    int code = GD_OK;
    if (rc.opts->mapping) {
        if ((code = gd_mapping_load_file(&rc.mapping, rc.opts->mapping, err))) {
            snprintf(err->source, sizeof err->source, "%s", rc.opts->mapping);
            return code;
        }
        const char *id;
        long line;
        size_t nunk = gd_mapping_unknown_ids(rc.mapping, &id, &line);
        if (nunk && fn) {
            char msg[300];
            snprintf(msg, sizeof msg, "%ld: %zu metadata line(s) with an unknown id ignored (first: '%.120s')",
                     line, nunk, id);
            gd_ingest_report rep = {.source = rc.opts->mapping, .warning = msg};
            fn(ctx, &rep);
        }
    }
    if (!rc.opts->strict) {
        rc.per_input = 1;
        rc.single = n == 1;
        int journal = rc.single && journal_for_first_load(s, inputs, n);
        for (size_t i = 0; i < n && !code; i++) {
            err->source[0] = 0;
            code = ingest_one(&rc, inputs[i], err);
            if (code && !err->source[0])
                gd_url_redact(inputs[i], err->source, sizeof err->source);
            if (code && !rc.single)
                code = refuse(&rc, inputs[i], code, 0, err);
        }
        gd_mapping_free(rc.mapping);
        if (journal)
            gd_store_journal_wal(s);
        return code;
    }
    int journal = journal_for_first_load(s, inputs, n);
    if ((code = gd_store_begin(s, err))) {
        gd_mapping_free(rc.mapping);
        if (journal)
            gd_store_journal_wal(s);
        return code;
    }
    for (size_t i = 0; i < n && !code; i++) {
        err->source[0] = 0;
        code = ingest_one(&rc, inputs[i], err);
        if (code && !err->source[0])
            gd_url_redact(inputs[i], err->source, sizeof err->source);
    }
    gd_mapping_free(rc.mapping);
    if (code)
        gd_store_rollback(s);
    else
        code = gd_store_commit(s, err);
    if (journal)
        gd_store_journal_wal(s);
    return code;
}

size_t gd_ingest_count_files(char *const *inputs, size_t n)
{
    run_ctx rc = {0};
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (strcmp(inputs[i], "-") == 0 || stat(inputs[i], &st) != 0 || !S_ISDIR(st.st_mode)) {
            total++;
            continue;
        }
        char **files = NULL;
        size_t k = 0, cap = 0;
        gd_error e = {0};
        list_files(&rc, inputs[i], &files, &k, &cap, 1, &e);
        total += k;
        free_list(files, k);
    }
    return total;
}
