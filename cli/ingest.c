/* ingest.c - `godeye ingest`: read captures into the database. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "builtins.h"
#include "core/escape.h"
#include "ingest/writer.h"
#include "io/fetch.h"
#include "ingest/ingest.h"

static const char *const usage_line = "godeye ingest [OPTIONS] FILE|FOLDER|URL|- ...";

typedef struct progress {
    time_t started;
    int delay;          /* seconds before the line shows (2; tests: 0) */
    int shown;          /* a line is on the terminal                  */
    size_t files_done;  /* inputs finished (stored, refused, passed)  */
    size_t files_total; /* inputs to read (a folder's files counted)  */
    uint64_t bytes_done; /* bytes of the inputs finished              */
} progress;

/* Takes the progress line off the terminal: back to its start, erase it. */
static void progress_clear(progress *p)
{
    if (p && p->shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
        p->shown = 0;
    }
}

/* How many traces of the closing summary are named as the largest. */
#define GD_INGEST_LARGEST 3

/* A bulk ingest's figures, for its closing summary. */
typedef struct tally {
    json_t *formats;    /* {"format": traces stored}                     */
    json_t *refusals;   /* {"kind of refusal": inputs}                   */
    size_t stored, duplicates, not_capture, passed_empty;
    uint64_t bytes;     /* of the traces stored or found stored          */
    struct {
        char source[256];
        uint64_t bytes;
        long long trace;
    } largest[GD_INGEST_LARGEST];
} tally;

static void tally_count(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    json_object_set_new(o, key, json_integer(v ? json_integer_value(v) + 1 : 1));
}

/* Keeps the GD_INGEST_LARGEST largest traces, largest first. */
static void tally_largest(tally *t, const char *source, uint64_t bytes, long long trace)
{
    int k = GD_INGEST_LARGEST;
    while (k > 0 && t->largest[k - 1].bytes < bytes)
        k--;
    if (k == GD_INGEST_LARGEST)
        return;
    memmove(&t->largest[k + 1], &t->largest[k], (GD_INGEST_LARGEST - 1 - (size_t)k) * sizeof t->largest[0]);
    snprintf(t->largest[k].source, sizeof t->largest[k].source, "%s", source);
    t->largest[k].bytes = bytes;
    t->largest[k].trace = trace;
}

typedef struct ingest_out {
    gd_renderer *r;     /* writes to what stdout gets once the ingest committed */
    int quiet;
    int verbose;        /* every skip reason, not only the top three */
    int bulk;           /* more than one file: a summary, per-file lines with -v */
    tally t;
    int timings;
    gd_ingest_timings sum;  /* over all inputs */
    progress *prog;         /* cleared before anything else on stderr */
    const gd_ctx *ctx;      /* the command's (on_report's ctx is this struct) */
} ingest_out;

static const gd_column columns[] = {
    {"trace", "TRACE", GD_COL_INT, .flex = 0, .hidden = 0},   {"source", "SOURCE", GD_COL_TEXT, .flex = 1, .hidden = 0},
    {"format", "FORMAT", GD_COL_TEXT, .flex = 0, .hidden = 0}, {"events", "EVENTS", GD_COL_INT, .flex = 0, .hidden = 0},
    {"skipped", "SKIPPED", GD_COL_INT, .flex = 0, .hidden = 0}, {"dispatches", "DISPATCHES", GD_COL_INT, .flex = 0, .hidden = 0},
    {"blocks", "BLOCKS", GD_COL_INT, .flex = 0, .hidden = 0},  {"duplicate", "DUPLICATE", GD_COL_BOOL, .flex = 0, .hidden = 1},
};

/* How many skip reasons a summary line shows without -v. */
#define GD_INGEST_TOP_REASONS 3

typedef struct reason {
    const char *name;
    long long n;
} reason;

static int by_count(const void *a, const void *b)
{
    const reason *x = a, *y = b;
    if (x->n != y->n)
        return x->n < y->n ? 1 : -1;
    return strcmp(x->name, y->name);
}

/* The reader's reason counts, most frequent first: the first `most` of
 * them, then one line saying how many more -v would show. */
static void print_reasons(FILE *out, json_t *stats, size_t most)
{
    size_t n = json_object_size(stats), i = 0;
    if (!n)
        return;
    reason *rs = calloc(n, sizeof *rs);
    if (!rs)
        return;
    const char *k;
    json_t *v;
    json_object_foreach(stats, k, v) {
        rs[i].name = k;
        rs[i++].n = (long long)json_integer_value(v);
    }
    qsort(rs, n, sizeof *rs, by_count);
    for (i = 0; i < n && i < most; i++) {
        char name[512];
        gd_escape_ctrl(rs[i].name, name, sizeof name); /* may quote a section title */
        fprintf(out, "    %-44s %lld\n", name, rs[i].n);
    }
    if (n > most) {
        long long rest = 0;
        for (i = most; i < n; i++)
            rest += rs[i].n;
        fprintf(out, "    (%zu more reasons, %lld in all: -v shows them)\n", n - most, rest);
    }
    free(rs);
}

/* Table mode: one line per input (and its reader's figures), not a table. */
static int report_line(FILE *out, const gd_renderer *r, json_t *row, void *ctx)
{
    const ingest_out *o = ctx;
    (void)r;
    if (o->quiet || (o->bulk && !o->verbose))
        return 0;
    char src[1024];
    gd_escape_ctrl(json_string_value(json_object_get(row, "source")), src, sizeof src); /* a folder member's name */
    long long trace = (long long)json_integer_value(json_object_get(row, "trace"));
    if (json_is_true(json_object_get(row, "duplicate"))) {
        fprintf(out, "'%s': already ingested as trace %lld (identical content)\n", src, trace);
        return 0;
    }
    const char *note = json_string_value(json_object_get(row, "note"));
    if (note) {
        fprintf(out, "'%s': %s, trace %lld: %s (%lld lines), %lld skipped\n", src,
                json_string_value(json_object_get(row, "format")), trace, note,
                (long long)json_integer_value(json_object_get(row, "log_lines")),
                (long long)json_integer_value(json_object_get(row, "skipped")));
        print_reasons(out, json_object_get(row, "stats"), o->verbose ? SIZE_MAX : GD_INGEST_TOP_REASONS);
        return 0;
    }
    fprintf(out, "'%s': %s, trace %lld: %lld events, %lld dispatches, %lld blocks, %lld skipped\n", src,
            json_string_value(json_object_get(row, "format")), trace,
            (long long)json_integer_value(json_object_get(row, "events")),
            (long long)json_integer_value(json_object_get(row, "dispatches")),
            (long long)json_integer_value(json_object_get(row, "blocks")),
            (long long)json_integer_value(json_object_get(row, "skipped")));
    print_reasons(out, json_object_get(row, "stats"), o->verbose ? SIZE_MAX : GD_INGEST_TOP_REASONS);
    json_t *rt = json_object_get(row, "retrace");
    if (rt)
        fprintf(out, "    retrace: %lld of %lld Java frames retraced, %lld of unknown classes, %lld cut\n",
                (long long)json_integer_value(json_object_get(rt, "retraced")),
                (long long)json_integer_value(json_object_get(rt, "frames")),
                (long long)json_integer_value(json_object_get(rt, "unknown_class")),
                (long long)json_integer_value(json_object_get(rt, "cut")));
    return 0;
}

static void on_report(void *ctx, const gd_ingest_report *rep)
{
    ingest_out *o = ctx;
    progress_clear(o->prog);
    if (!rep->warning) {
        o->prog->files_done++;
        o->prog->bytes_done += rep->bytes;
    }
    if (rep->refused) {
        /* one line: what godeye saw, where; the others are read on */
        tally_count(o->t.refusals, rep->refusal);
        gd_cli_fail_line(o->ctx, rep->refused);
        return;
    }
    if (rep->not_capture) {
        /* a file in no known format: counted; named with -v, or when it
         * is not one of many */
        o->t.not_capture++;
        if ((o->bulk || rep->member == 2) && !o->verbose) /* a zip's refusal names its members */
            return;
        fputs("godeye ingest: '", stderr);
        gd_fputs_escaped(rep->source, stderr); /* a folder member's name */
        fprintf(stderr, "': passed over: %s\n", rep->not_capture);
        return;
    }
    if (rep->warning) {
        fputs("godeye ingest: warning: '", stderr);
        gd_fputs_escaped(rep->source, stderr);
        fputs("':", stderr); /* the warning starts with the line number */
        gd_fputs_escaped(rep->warning, stderr); /* holds an id from the mapping */
        fputc('\n', stderr);
        return;
    }
    if (rep->nothing_usable) {
        o->t.passed_empty++;
        fputs("godeye ingest: '", stderr);
        gd_fputs_escaped(rep->source, stderr);
        fprintf(stderr, "': passed over: %s\n", rep->nothing_usable);
        return;
    }
    if (rep->res.duplicate) {
        o->t.duplicates++;
    } else {
        o->t.stored++;
        tally_count(o->t.formats, rep->format);
        tally_largest(&o->t, rep->source, rep->bytes, (long long)rep->res.trace);
    }
    o->t.bytes += rep->bytes;
    if (o->timings) {
        const gd_ingest_timings *t = &rep->res.timings;
        gd_cli_say(o->ctx, "'%s': read %.3f s, write %.3f s, analyse %.3f s",
                rep->source, t->read, t->write, t->analyse);
        o->sum.read += t->read;
        o->sum.write += t->write;
        o->sum.analyse += t->analyse;
    }
    if (rep->res.duplicate && rep->res.tags_differ)
        gd_cli_say(o->ctx,
                   "'%s': --set not applied: trace %lld holds this content with other tags; to retag it: "
                   "godeye rm %lld, then ingest it again with --set (godeye push then replaces the rows "
                   "already pushed)",
                   rep->source, (long long)rep->res.trace, (long long)rep->res.trace);
    json_t *row = json_pack("{s:I s:s s:s s:I s:I s:I s:I s:b}", "trace", (json_int_t)rep->res.trace,
                            "source", rep->source, "format", rep->format, "events",
                            (json_int_t)rep->res.events, "skipped", (json_int_t)rep->res.skipped,
                            "dispatches", (json_int_t)rep->res.dispatches, "blocks",
                            (json_int_t)rep->res.blocks, "duplicate", rep->res.duplicate);
    if (!row)
        return;
    if (!rep->res.duplicate && rep->stats && json_object_size(rep->stats))
        json_object_set(row, "stats", rep->stats);
    if (rep->retrace)
        json_object_set(row, "retrace", rep->retrace);
    if (rep->note && !rep->res.duplicate) {
        json_object_set_new(row, "note", json_string(rep->note));
        json_object_set_new(row, "log_lines", json_integer(rep->res.log_lines));
    }
    if (o->r)
        gd_render_row(o->r, row);
    json_decref(row);
}

/* 1 when the line is to be drawn now: after p->delay seconds of ingest */
static int progress_due(progress *p, time_t now)
{
    if (!p->started)
        p->started = now;
    if (now - p->started < p->delay && !p->shown)
        return 0;
    p->shown = 1;
    return 1;
}

static void on_progress(void *ctx, const char *source, uint64_t done, int64_t total)
{
    progress *p = ctx;
    time_t now = time(NULL);
    if (!progress_due(p, now))
        return;
    char src[128];
    gd_escape_ctrl(source, src, sizeof src); /* a folder member's name */
    source = src;
    double secs = difftime(now, p->started);
    if (p->files_total > 1) {
        /* many inputs: files done of all, bytes so far */
        double mb = (double)(p->bytes_done + done) / 1048576.0;
        fprintf(stderr, "\r\033[K%zu/%zu files, %.1f MB, %.1f MB/s: %.30s ", p->files_done, p->files_total, mb,
                secs > 0 ? mb / secs : 0, source);
        fflush(stderr);
        return;
    }
    double mbs = secs > 0 ? (double)done / 1048576.0 / secs : 0;
    if (total > 0) {
        int pct = (int)(100.0 * (double)done / (double)total);
        int bar = pct / 5;
        fprintf(stderr, "\r%.30s [%-20.*s] %3d%% %.1f MB/s ", source, bar, "####################",
                pct, mbs);
    } else {
        fprintf(stderr, "\r%.30s %.1f MB %.1f MB/s ", source, (double)done / 1048576.0, mbs);
    }
    fflush(stderr);
}

static void on_analysis(void *ctx, const char *source, uint64_t done, int64_t total)
{
    progress *p = ctx;
    if (!progress_due(p, time(NULL)))
        return;
    char src[128];
    gd_escape_ctrl(source, src, sizeof src); /* a folder member's name */
    fprintf(stderr, "\r\033[K%.30s analysing: %llu/%lld blocks ", src, (unsigned long long)done,
            (long long)total);
    fflush(stderr);
}

/* "N x, M y" of an object of counts, largest first, into out. */
static void print_counts(FILE *out, json_t *counts)
{
    size_t n = json_object_size(counts), i = 0;
    reason *rs = n ? calloc(n, sizeof *rs) : NULL;
    if (!rs)
        return;
    const char *k;
    json_t *v;
    json_object_foreach(counts, k, v) {
        rs[i].name = k;
        rs[i++].n = (long long)json_integer_value(v);
    }
    qsort(rs, n, sizeof *rs, by_count);
    for (i = 0; i < n; i++)
        fprintf(out, "%s%lld %s", i ? ", " : "", rs[i].n, rs[i].name);
    free(rs);
}

/* The closing summary of a bulk ingest, on stderr: what was stored by
 * format, what was refused by kind, the largest traces, time and rate. */
static void print_summary(const tally *t, size_t refused, double secs, int verbose)
{
    double mb = (double)t->bytes / 1048576.0;
    fprintf(stderr, "godeye ingest: %zu stored", t->stored);
    if (t->stored) {
        fputs(" (", stderr);
        print_counts(stderr, t->formats);
        fputc(')', stderr);
    }
    if (t->duplicates)
        fprintf(stderr, ", %zu already stored", t->duplicates);
    fprintf(stderr, ", %zu refused", refused);
    if (refused) {
        fputs(" (", stderr);
        print_counts(stderr, t->refusals);
        fputc(')', stderr);
    }
    if (t->passed_empty)
        fprintf(stderr, ", %zu passed over with nothing usable", t->passed_empty);
    fprintf(stderr, ", %zu not captures%s; %.1f MB in %.1f s (%.1f MB/s)\n", t->not_capture,
            t->not_capture && !verbose ? " (-v names them)" : "", mb, secs,
            secs > 0 ? mb / secs : 0);
    for (int i = 0; i < GD_INGEST_LARGEST && t->largest[i].bytes; i++) {
        char src[300];
        gd_escape_ctrl(t->largest[i].source, src, sizeof src); /* a folder member's name */
        fprintf(stderr, "    %s '%s': trace %lld, %.1f MB\n", i ? "       " : "largest", src,
                t->largest[i].trace, (double)t->largest[i].bytes / 1048576.0);
    }
}

/* --set KEY=VALUE into tags: keys version, app, device, build; 0, or 2
 * (usage, printed) for an unknown key, an empty value or a key given twice. */
static int parse_tags(const gd_str_list *set, gd_trace_tags *t)
{
    static const char *const keys[] = {"version", "app", "device", "build"};
    for (size_t i = 0; i < set->n; i++) {
        const char *a = set->v[i], *eq = strchr(a, '=');
        const char **slot[] = {&t->version, &t->app, &t->device, &t->build};
        size_t k = 0;
        for (; eq && k < sizeof keys / sizeof keys[0]; k++)
            if (strlen(keys[k]) == (size_t)(eq - a) && strncmp(a, keys[k], (size_t)(eq - a)) == 0)
                break;
        const char *why = !eq || k == sizeof keys / sizeof keys[0] ? "expected KEY=VALUE, KEY one of version, app, device, build"
                          : !eq[1]                                  ? "empty value"
                          : *slot[k]                                ? "given twice"
                                                                    : NULL;
        if (why) {
            fputs("godeye ingest: --set '", stderr);
            gd_fputs_escaped(a, stderr);
            fprintf(stderr, "': %s\n", why);
            return GD_EXIT_USAGE;
        }
        *slot[k] = eq + 1;
    }
    return 0;
}

int cmd_ingest(int argc, char **argv, gd_ctx *ctx)
{
    const char *format = NULL, *format_in = NULL, *mapping = NULL, *retrace = NULL;
    long year = 0, timeout = 0;
    double max_bytes = 0;
    int quiet = 0, verbose = 0, no_progress = 0, timings = 0, keep_going = 0, strict = 0;
    gd_str_list set = {{0}, 0};
    const gd_option opts[] = {
        OPT_CHOICE_(0, "format", &format, "FMT", "output: table, csv, json or jsonl", gd_format_choices),
        OPT_STRING_(0, "format-in", &format_in, "NAME", "read inputs as this format (no detection)"),
        OPT_INT_(0, "year", &year, "YYYY", "year of stamps that have none (logcat); default this year"),
        OPT_STRING_(0, "method-mapping", &mapping, "FILE", "Matrix methodMapping.txt for method ids"),
        OPT_STRING_(0, "mapping", &retrace, "FILE", "R8/ProGuard mapping.txt: retrace frames and methods"),
        OPT_DOUBLE_(0, "max-bytes", &max_bytes, "N", "largest URL body accepted (default 2 GiB)"),
        OPT_INT_(0, "timeout", &timeout, "SECONDS", "URL transfer time limit (default 600)"),
        OPT_STRING_LIST_(0, "set", &set, "KEY=VALUE", "tag every trace: version, app, device or build (repeatable)"),
        OPT_BOOL_(0, "keep-going", &keep_going, "drop a cut last line (JSONL, logcat); pass over inputs with nothing usable"),
        OPT_BOOL_(0, "strict", &strict, "all or nothing: one refused input stores none"),
        OPT_BOOL_(0, "no-progress", &no_progress, "no progress bar on a terminal"),
        OPT_BOOL_(0, "timings", &timings, "print time spent reading, writing and analysing"),
        OPT_BOOL_('q', "quiet", &quiet, "print nothing on success"),
        OPT_BOOL_('v', "verbose", &verbose, "list every skip reason (else the three most frequent)"),
        OPT_END_(),
    };
    int nargs, rc = gd_parse_options(argc, argv, opts, usage_line, &nargs);
    if (rc)
        return rc == 1 ? GD_EXIT_OK : GD_EXIT_USAGE;
    gd_trace_tags tags = {0};
    if ((rc = parse_tags(&set, &tags)))
        return rc;
    if (nargs == 0) {
        gd_cli_say(ctx, "nothing to ingest");
        gd_print_usage(stderr, usage_line, opts);
        return GD_EXIT_USAGE;
    }
    gd_fetch_opts fo = {.max_bytes = (uint64_t)max_bytes, .timeout_s = timeout};
    gd_store *s;
    if ((rc = gd_cli_open_store(ctx, &s)))
        return rc;
    /* rows are held until the transaction commits: a failed ingest (a full
     * disk at commit) prints no row for a trace that does not exist */
    char *held = NULL;
    size_t nheld = 0;
    FILE *mem = open_memstream(&held, &nheld);
    if (!mem) {
        gd_store_close(s);
        gd_cli_say(ctx, GD_ERR_NOMEM_MSG);
        return GD_EXIT_FAIL;
    }
    ingest_out out = {.quiet = quiet, .verbose = verbose, .timings = timings, .ctx = ctx};
    out.t.formats = json_object();
    out.t.refusals = json_object();
    size_t nfiles = gd_ingest_count_files(argv, (size_t)nargs);
    out.bulk = nfiles > 1;
    out.r = gd_render_new(mem, gd_cli_mode(format), columns, sizeof columns / sizeof columns[0], 0);
    if (out.r)
        gd_render_lines(out.r, report_line, &out);
    progress prog = {.delay = 2, .files_total = nfiles};
    const char *delay = getenv("GODEYE_PROGRESS_DELAY"); /* tests: 0 */
    if (delay && *delay)
        prog.delay = atoi(delay);
    out.prog = &prog;
    gd_ingest_opts io = {.timings = timings, .format = format_in, .year = (int)year, .method_mapping = mapping,
                         .keep_going = keep_going, .strict = strict, .mapping = retrace, .fetch = &fo,
                         .tags = set.n ? &tags : NULL};
    if (!no_progress && isatty(2)) {
        io.progress = on_progress;
        io.analysis_progress = on_analysis;
        io.progress_ctx = &prog;
    }
    gd_error err = {0};
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    rc = gd_ingest(s, argv, (size_t)nargs, &io, on_report, &out, &err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    progress_clear(&prog); /* before the summary and any message */
    gd_store_close(s);
    int rend = out.r ? gd_cli_render_end(ctx, out.r) : 0;
    fclose(mem);
    if (rc) {
        free(held);
        json_decref(out.t.formats);
        json_decref(out.t.refusals);
        /* a mapping error is one line, as godeye retrace prints it */
        if (retrace && !strcmp(err.source, retrace))
            return gd_cli_fail_line(ctx, &err);
        if (out.bulk || nargs > 1) /* the lines above named the inputs refused */
            return gd_cli_fail_line(ctx, &err);
        return gd_cli_fail(ctx, &err);
    }
    int wfail = rend || (nheld && fwrite(held, 1, nheld, stdout) != nheld) || fflush(stdout);
    free(held);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    size_t refused = 0;
    const char *k;
    json_t *v;
    json_object_foreach(out.t.refusals, k, v)
        refused += (size_t)json_integer_value(v);
    size_t kept = out.t.stored + out.t.duplicates;
    if (out.bulk && !quiet)
        print_summary(&out.t, refused, secs, verbose);
    json_decref(out.t.formats);
    json_decref(out.t.refusals);
    if (wfail)
        return GD_EXIT_FAIL;
    if (!kept && (refused || out.t.not_capture)) {
        gd_cli_say(ctx, "nothing stored (%zu input%s refused, %zu in no known format)", refused,
                   refused == 1 ? "" : "s", out.t.not_capture);
        return GD_EXIT_FAIL;
    }
    if (timings) {
        double total = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
        double other = total - out.sum.read - out.sum.write - out.sum.analyse;
        fprintf(stderr,
                "godeye ingest: %.3f s for %d input(s): read %.3f s, write %.3f s, analyse %.3f s,"
                " commit and other %.3f s\n",
                total, nargs, out.sum.read, out.sum.write, out.sum.analyse, other > 0 ? other : 0);
    }
    return refused ? GD_EXIT_SOME : GD_EXIT_OK;
}
