/* common.c - store opening, error reporting and rendering helpers for commands. */
#include "common.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/escape.h"
#include "io/input.h"
#include "query/apps.h"
#include "query/blocks.h"

/* Prints the source line of an error with a caret under the column.  Streams
 * the input and keeps only the 100 bytes around the column, so a 2 GB line
 * costs no memory and an error near its start no time. */
static void show_line(const gd_error *err)
{
    struct stat st;
    if (!err->source[0] || err->line <= 0 || err->col <= 0 || strcmp(err->source, "-") == 0 ||
        stat(err->source, &st) != 0 || !S_ISREG(st.st_mode))
        return;
    gd_input *in;
    gd_error e = {0};
    if (gd_input_open_file(&in, err->source, &e))
        return;
    size_t col = (size_t)err->col - 1;
    size_t from = col > 60 ? col - 60 : 0, to = col + 40, pos = 0, nwin = 0;
    char win[192]; /* from..to is at most 130 bytes */
    long line = 1;
    int more = 0, done = 0;
    unsigned char buf[4096];
    ssize_t k;
    while (!done && (k = gd_input_read(in, buf, sizeof buf, &e)) > 0) {
        for (ssize_t i = 0; i < k; i++) {
            if (line < err->line) {
                line += buf[i] == '\n';
                continue;
            }
            if (buf[i] == '\n' || pos >= to) {
                more = buf[i] != '\n';
                done = 1;
                break;
            }
            if (pos >= from)
                win[nwin++] = (char)buf[i];
            pos++;
        }
    }
    gd_input_close(in);
    if (line != err->line)
        return;
    if (!more && nwin && win[nwin - 1] == '\r')
        nwin--;
    if (col > from + nwin)
        col = from + nwin;
    for (size_t i = 0; i < nwin; i++)
        if ((unsigned char)win[i] < 0x20 && win[i] != '\t')
            return;
    fprintf(stderr, "    %s%.*s%s\n", from ? "..." : "", (int)nwin, win, more ? "..." : "");
    fprintf(stderr, "    %*s^\n", (int)(col - from + (from ? 3 : 0)), "");
}

const gd_command *gd_cli_command(const gd_ctx *ctx, const char *name)
{
    for (const gd_command *c = ctx->commands; c && c->name; c++)
        if (strcmp(c->name, name) == 0)
            return c;
    return NULL;
}

const gd_command *gd_cli_enter(gd_ctx *ctx, const char *name)
{
    const gd_command *c = gd_cli_command(ctx, name);
    if (c) {
        ctx->cmd = c->name;
        ctx->flags = c->flags;
    }
    return c;
}

void gd_cli_say(const gd_ctx *ctx, const char *fmt, ...)
{
    /* the message may quote the user's own argument or a file name: every
     * control character is written escaped (core/escape.h) */
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    fprintf(stderr, "godeye %s: ", ctx->cmd);
    gd_fputs_escaped(buf, stderr);
    fputc('\n', stderr);
}

int gd_cli_fail(const gd_ctx *ctx, const gd_error *err)
{
    char buf[2048];
    /* the message may quote a capture's text or a server's answer */
    fprintf(stderr, "godeye %s: ", ctx->cmd);
    gd_fputs_escaped(gd_error_format(err, buf, sizeof buf), stderr);
    fputc('\n', stderr);
    show_line(err);
    return err->code == GD_ERR_USAGE ? GD_EXIT_USAGE : GD_EXIT_FAIL;
}

int gd_cli_render_end(const gd_ctx *ctx, gd_renderer *r)
{
    gd_error err = {0};
    if (!gd_render_end_err(r, &err))
        return 0;
    if (err.code)
        gd_cli_fail(ctx, &err);
    return -1;
}

int gd_cli_fail_line(const gd_ctx *ctx, const gd_error *err)
{
    char buf[2048];
    fprintf(stderr, "godeye %s: ", ctx->cmd);
    gd_fputs_escaped(gd_error_format(err, buf, sizeof buf), stderr);
    fputc('\n', stderr);
    return err->code == GD_ERR_USAGE ? GD_EXIT_USAGE : GD_EXIT_FAIL;
}

static void say_waiting(void *cmd)
{
    fprintf(stderr, "godeye %s: waiting for the database lock held by another godeye\n", (const char *)cmd);
}

int gd_cli_open_store(const gd_ctx *ctx, gd_store **out)
{
    gd_error err = {0};
    if (gd_store_open(out, ctx->db_path, ctx->flags & GD_CMD_WRITES ? GD_STORE_RW : GD_STORE_RO, &err))
        return gd_cli_fail(ctx, &err);
    gd_store_on_wait(*out, say_waiting, (void *)ctx->cmd);
    return GD_EXIT_OK;
}

int gd_cli_open_listing(const gd_ctx *ctx, const gd_int_list *traces, gd_store **out)
{
    gd_ctx ro = *ctx; /* a listing reads, even for a command that writes elsewhere (push) */
    ro.flags &= ~(unsigned)GD_CMD_WRITES;
    int rc = gd_cli_open_store(&ro, out);
    if (rc || !traces->n)
        return rc;
    /* the ids given exist: each looked up, the trace table itself read
     * once per listing, for the clocks (gd_cli_renderer) */
    gd_filter f = gd_cli_filter(traces);
    gd_error err = {0};
    int64_t missing;
    if (gd_query_trace_missing(*out, &f, &missing, &err)) {
        gd_store_close(*out);
        return gd_cli_fail(ctx, &err);
    }
    if (missing >= 0) {
        fprintf(stderr, "godeye %s: no trace %lld\n", ctx->cmd, (long long)missing);
        gd_store_close(*out);
        return GD_EXIT_FAIL;
    }
    return GD_EXIT_OK;
}

gd_filter gd_cli_filter(const gd_int_list *traces)
{
    return gd_cli_filter_app(traces, NULL);
}

gd_filter gd_cli_filter_app(const gd_int_list *traces, const char *app)
{
    gd_filter f = {traces->n ? traces->v : NULL, traces->n, app && *app ? app : NULL};
    return f;
}

int gd_cli_say_empty(const gd_ctx *ctx, gd_store *s, const gd_filter *f, const char *table,
                     const char *what)
{
    gd_error err = {0};
    int matched = 1, has = 1;
    char present[512];
    if (f->app && gd_query_app_presence(s, f, &matched, present, sizeof present, &err) == GD_OK && !matched) {
        gd_cli_say(ctx, "no process of app '%s' in %s (apps present: %s)", f->app,
                   f->ntraces ? "these traces" : "the database", present);
        return 1;
    }
    if (table && gd_query_has_data(s, table, f, &has, &err) == GD_OK && !has) {
        if (strcmp(table, "trace") == 0)
            gd_cli_say(ctx, "the database holds no trace (godeye ingest FILE)");
        else
            gd_cli_say(ctx, "no %s has %s", f->ntraces ? "selected trace" : "trace", what);
        return 0;
    }
    if (!table && what)
        gd_cli_say(ctx, "%s", what);
    else
        gd_cli_say(ctx, "no row passed the options or the thresholds%s", f->app ? " (with --app)" : "");
    return 0;
}

void gd_cli_say_samples_hint(const gd_ctx *ctx, gd_store *s, const gd_filter *f)
{
    gd_error err = {0};
    int has = 0;
    int blocks = 1; /* traces with main-thread dispatches: their blocks were filtered, not absent */
    /* a profiler's samples (sample.source, godeye-schema(7)), not a thread
     * dump's or a sampler's around blocks */
    static const char profile[] =
        "(SELECT trace FROM sample WHERE source IN ('simpleperf', 'perf_sample', 'streaming_profile'))";
    if (gd_query_has_data(s, profile, f, &has, &err) == GD_OK && has &&
        gd_query_has_data(s, "dispatch", f, &blocks, &err) == GD_OK && !blocks)
        gd_cli_say(ctx, "the traces' stack samples are a CPU profile: 'godeye export --folded - --samples%s%s'"
                        " draws them (a flame graph's lines)",
                   f->app ? " --app " : "", f->app ? f->app : "");
}

int gd_cli_describe(gd_ctx *ctx, const char *usage, const gd_option *opts, const gd_column *cols, size_t ncols)
{
    gd_cmd_desc *d = ctx->describe;
    if (!d)
        return 0;
    d->described = 1;
    d->usage = usage;
    d->nopts = 0;
    for (const gd_option *o = opts; o && o->type != OPT_END && d->nopts + 1 < sizeof d->opts / sizeof d->opts[0]; o++)
        d->opts[d->nopts++] = *o;
    d->opts[d->nopts] = (gd_option)OPT_END_();
    d->cols = cols;
    d->ncols = ncols;
    return 1;
}

void gd_cli_describe_variant(gd_ctx *ctx, const char *flag, const gd_column *cols, size_t ncols, int tool)
{
    gd_cmd_desc *d = ctx->describe;
    if (!d || d->nvariants >= sizeof d->variants / sizeof d->variants[0])
        return;
    d->variants[d->nvariants++] = (gd_cmd_variant){flag, cols, ncols, tool};
}

int gd_cli_run(gd_ctx *ctx, int argc, char **argv, gd_cmd_spec *spec)
{
    gd_listing l = {0};
    gd_option opts[64];
    size_t n = 0;
    for (const gd_option *o = spec->opts; o && o->type != OPT_END && n < 59; o++)
        opts[n++] = *o;
    gd_option shared[] = {OPT_LISTING(&l.format, &l.traces), OPT_APP(&l.app), OPT_END_()};
    if (spec->format) { /* its own choices, still parsed into l.format */
        shared[0].choices = spec->format->choices;
        shared[0].help = spec->format->help;
    }
    memcpy(opts + n, shared, sizeof shared);
    if (gd_cli_describe(ctx, spec->usage, opts, spec->cols, spec->ncols))
        return GD_EXIT_OK;
    int nargs, rc = gd_parse_options(argc, argv, opts, spec->usage, &nargs);
    if (rc)
        return rc == 1 ? GD_EXIT_OK : GD_EXIT_USAGE;
    if (nargs) {
        gd_cli_say(ctx, "unexpected argument '%s'", argv[0]);
        return GD_EXIT_USAGE;
    }
    l.filter = gd_cli_filter_app(&l.traces, l.app);
    if (spec->check && (rc = spec->check(ctx, spec, &l)))
        return rc;
    gd_store *s = NULL;
    if (ctx->flags & GD_CMD_STORE) {
        rc = ctx->flags & GD_CMD_WRITES ? gd_cli_open_store(ctx, &s) : gd_cli_open_listing(ctx, &l.traces, &s);
        if (rc)
            return rc;
    }
    gd_renderer *r = gd_cli_renderer(ctx, s, gd_cli_mode(l.format), spec->cols, spec->ncols);
    gd_error err = {0};
    rc = r ? spec->query(s, &l, spec->arg, r, &err) : gd_error_oom(&err);
    size_t rows = r ? gd_render_rows(r) : 0;
    int wrc = r ? gd_cli_render_end(ctx, r) : 0;
    if (!rc && !wrc && !rows && s && !gd_cli_say_empty(ctx, s, &l.filter, spec->data_table, spec->data_name) &&
        spec->samples_hint)
        gd_cli_say_samples_hint(ctx, s, &l.filter);
    if (s)
        gd_store_close(s);
    if (rc)
        return gd_cli_fail(ctx, &err);
    return wrc ? GD_EXIT_FAIL : GD_EXIT_OK;
}

static int add_clock(void *ctx, json_t *row)
{
    gd_clock c = gd_clock_of_trace_row(row);
    return gd_render_clock(ctx, json_integer_value(json_object_get(row, "trace")), &c) ? 1 : 0;
}

gd_renderer *gd_cli_renderer(const gd_ctx *ctx, gd_store *s, gd_out_mode mode, const gd_column *cols,
                             size_t ncols)
{
    gd_renderer *r = gd_render_new(stdout, mode, cols, ncols, gd_cli_width(ctx));
    if (!r)
        return r;
    gd_render_tz(r, ctx->tz_min);
    if (!s || !gd_render_wants_clocks(r)) /* the clocks serve time columns only */
        return r;
    gd_error err = {0};
    gd_query_trace_clocks(s, add_clock, r, &err);
    return r;
}

int gd_cli_render_cb(void *ctx, json_t *row)
{
    return gd_render_row((gd_renderer *)ctx, row) ? 1 : 0;
}

int gd_cli_values_cb(void *ctx, const gd_row *row)
{
    return gd_render_values((gd_renderer *)ctx, row) ? 1 : 0;
}

gd_out_mode gd_cli_mode(const char *format)
{
    int m = format ? gd_out_mode_parse(format) : GD_OUT_TABLE;
    return m < 0 ? GD_OUT_TABLE : (gd_out_mode)m;
}

int gd_cli_width(const gd_ctx *ctx)
{
    if (ctx && ctx->wide)
        return GD_CLI_WIDE;
    struct winsize ws;
    if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40)
        return ws.ws_col;
    const char *c = getenv("COLUMNS");
    int w = c ? atoi(c) : 0;
    return w >= 40 ? w : 100;
}

/* mkstemp makes 0600; an output file gets what fopen would give (0666 less
 * the umask). */
static void fchmod_like(const char *path)
{
    mode_t m = umask(0);
    umask(m);
    chmod(path, 0666 & ~m);
}

/* Temp-and-rename only replaces what it may: nothing, or a regular file.
 * A symlink, a FIFO, a device or a socket is written as it is (a symlink's
 * target), never replaced by a regular file. */
static int replaceable(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return errno == ENOENT;
    return S_ISREG(st.st_mode);
}

FILE *gd_cli_out_open(const char *path, char *tmp, size_t n)
{
    tmp[0] = 0;
    if (strcmp(path, "-") == 0)
        return stdout;
    if (!replaceable(path))
        return fopen(path, "w");
    if (snprintf(tmp, n, "%s.tmp.XXXXXX", path) >= (int)n) {
        tmp[0] = 0;
        return NULL;
    }
    int fd = mkstemp(tmp);
    if (fd < 0) {
        tmp[0] = 0;
        return NULL;
    }
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        unlink(tmp);
        tmp[0] = 0;
    }
    return f;
}

int gd_cli_out_close(FILE *f, const char *tmp, const char *path, int ok)
{
    int bad = fflush(f) != 0 || ferror(f);
    if (f == stdout)
        return ok && !bad ? 0 : -1;
    bad |= fclose(f) != 0;
    if (!tmp[0]) /* written in place: there is nothing to rename or undo */
        return ok && !bad ? 0 : -1;
    if (ok && !bad) {
        /* the new file takes the old one's place at once, never half written */
        fchmod_like(tmp);
        if (rename(tmp, path) == 0)
            return 0;
    }
    unlink(tmp);
    return -1;
}
