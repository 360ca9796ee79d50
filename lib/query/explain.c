/* query/explain.c - one item of `godeye top` explained: its figures, the
 * evidence rows behind them and the commands that show them, composed
 * from the queries of top, anr, blocks, startup and issues (no rule of
 * its own: every figure is a field some other command prints). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/frames.h"
#include "core/row.h"
#include "query/anr_context.h"
#include "query/blocks.h"
#include "query/explain.h"
#include "query/frames.h"
#include "query/issues.h"
#include "query/startup.h"
#include "query/top.h"

#define EX_FRAMES 12   /* stack frames shown; the rest counted */
#define EX_LOG_LINES 8 /* log lines before an ANR, the nearest */
#define EX_ROWS 5      /* blocks of a group, launches, contentions */

typedef struct ex_acc {
    gd_store *s;
    const gd_explain_query *q;
    gd_row_fn fn;
    void *ctx;
    gd_error *err;
    json_t *rows; /* the facts so far, handed out by section at the end */
    char top[600], top_json[620]; /* the top command that lists the item */
} ex_acc;

/* A field of a row shown as a figure: its key ("a.b": field b of object
 * a) and the name it is given. */
typedef struct ex_field {
    const char *key, *name;
} ex_field;

static const char *str(const json_t *o, const char *k)
{
    return json_string_value(json_object_get(o, k));
}

/* The value at `key` in o: "a.b.c" goes down objects. */
static json_t *path(const json_t *o, const char *key)
{
    const char *dot = strchr(key, '.');
    if (!dot)
        return json_object_get(o, key);
    char head[64];
    snprintf(head, sizeof head, "%.*s", (int)(dot - key), key);
    return path(json_object_get(o, head), dot + 1);
}

/* One fact row; steals value; a null or absent value is not a fact (the
 * database holds nothing there): no row. */
static int fact(ex_acc *a, const char *section, const char *name, json_t *value, const char *source)
{
    if (!value || json_is_null(value)) {
        json_decref(value);
        return 0;
    }
    json_t *row = json_pack("{s:s s:s s:o s:o}", "section", section, "name", name, "value", value, "source",
                            source ? gd_json_str(source) : json_null());
    if (!row || json_array_append_new(a->rows, row))
        return gd_error_oom(a->err);
    return 0;
}

/* Hands the facts to the caller, section by section in the order of
 * query/explain.h, each section in the order its facts were found. */
static int hand_out(ex_acc *a)
{
    static const char *const order[] = {"item", "figure", "evidence", "definition", "more"};
    for (size_t k = 0; k < sizeof order / sizeof *order; k++) {
        json_t *row;
        size_t i;
        json_array_foreach(a->rows, i, row)
            if (strcmp(str(row, "section"), order[k]) == 0 && a->fn(a->ctx, row))
                return 0; /* the sink stopped (its own failure, told by its owner) */
    }
    return 0;
}

static int fact_s(ex_acc *a, const char *section, const char *name, const char *text, const char *source)
{
    return fact(a, section, name, text ? gd_json_str(text) : NULL, source);
}

static int figures(ex_acc *a, const json_t *row, const ex_field *f, size_t n, const char *source)
{
    int rc = 0;
    for (size_t i = 0; !rc && i < n; i++)
        rc = fact(a, "figure", f[i].name, json_incref(path(row, f[i].key)), source);
    return rc;
}

/* The frames of a stack, innermost first, EX_FRAMES of them; the rest
 * counted, with `more` (the command that shows them all). */
static int stack(ex_acc *a, const char *what, const json_t *frames, const char *source, const char *more)
{
    size_t n = json_array_size(frames), i;
    json_t *fr;
    char name[96];
    int rc = 0;
    json_array_foreach(frames, i, fr) {
        if (i == EX_FRAMES || rc)
            break;
        snprintf(name, sizeof name, "%s frame %zu of %zu", what, i + 1, n);
        rc = fact(a, "evidence", name, json_incref(fr), source);
    }
    if (!rc && n > EX_FRAMES) {
        snprintf(name, sizeof name, "the other %zu frames of the %s", n - EX_FRAMES, what);
        rc = fact_s(a, "more", name, more, NULL);
    }
    return rc;
}

/* The query's filter as options of a command line (" --trace 1 --app x"). */
static void filter_opts(const gd_explain_query *q, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = 0;
    for (size_t i = 0; i < q->filter.ntraces && used < n; i++)
        used += (size_t)snprintf(buf + used, n - used, " --trace %lld", (long long)q->filter.traces[i]);
    if (q->filter.app && used < n)
        snprintf(buf + used, n - used, " --app %.200s", q->filter.app);
}

/* ---- an ANR dump (`anr --id`) ---- */

typedef struct first_row {
    json_t *row;
} first_row;

static int keep_first(void *ctx, json_t *row)
{
    first_row *f = ctx;
    if (!f->row)
        f->row = json_incref(row);
    return 0;
}

static const ex_field dump_fields[] = {
    {"process", "process"},
    {"pid", "pid"},
    {"trace", "trace"},
    {"ts_ms", "dump time (ms)"},
    {"anr", "the ANR of record (not a snapshot)"},
    {"type", "ANR type"},
    {"type_label", "ANR type, as named"},
    {"user_perceived", "user-perceived"},
    {"timeout_ms", "the platform's timeout (ms)"},
    {"waited_ms", "waited (ms), as the reason says"},
    {"reason", "reason"},
    {"threads", "threads in the dump"},
    {"main.state", "main thread state"},
    {"main.kernel_state", "main thread kernel state"},
    {"main.wchan", "main thread wait channel"},
    {"main.lock", "main waits to lock"},
    {"main.held_by_name", "lock held by"},
    {"main.held_by", "lock holder tid"},
    {"main.holder_state", "lock holder state"},
    {"deadlock", "deadlock among the dump's threads"},
    {"cross_process_cycle", "cross-process binder cycle"},
    {"binder_reason", "binder chain"},
    {"signature", "group signature (anr --group)"},
};

/* The log lines of the dump's pid in the 10 s before it, the nearest
 * EX_LOG_LINES (anr --context). */
typedef struct log_acc {
    json_t *lines;
} log_acc;

static int keep_log(void *ctx, json_t *row)
{
    log_acc *l = ctx;
    const char *k = str(row, "kind");
    if (k && strcmp(k, "log") == 0)
        json_array_append(l->lines, row);
    return 0;
}

static int dump_logs(ex_acc *a, const json_t *d, long long id)
{
    gd_anr_context_query cq = {.filter = a->q->filter, .trace = json_integer_value(json_object_get(d, "trace")),
                               .pid = json_integer_value(json_object_get(d, "pid")),
                               .ts_ms = json_number_value(json_object_get(d, "ts_ms")), .window_ms = 10000,
                               .process = str(d, "process")};
    log_acc l = {json_array()};
    int rc = gd_query_anr_context(a->s, &cq, keep_log, &l, a->err);
    size_t n = json_array_size(l.lines), i = n > EX_LOG_LINES ? n - EX_LOG_LINES : 0;
    char src[96], name[96];
    snprintf(src, sizeof src, "godeye anr --context 10s --id %lld", id);
    for (; !rc && i < n; i++) {
        json_t *r = json_array_get(l.lines, i);
        snprintf(name, sizeof name, "log line %.1f ms before the dump",
                 json_number_value(json_object_get(r, "before_ms")));
        rc = fact(a, "evidence", name, json_incref(json_object_get(r, "what")), src);
    }
    json_decref(l.lines);
    return rc;
}

static int dump_cycle(ex_acc *a, const json_t *d, const char *src)
{
    json_t *th;
    size_t i;
    char text[1200];
    int rc = 0;
    json_array_foreach(json_array_get(json_object_get(d, "deadlocks"), 0), i, th) {
        snprintf(text, sizeof text, "%.200s (tid %lld) waits to lock %.300s held by tid %lld", str(th, "name"),
                 (long long)json_integer_value(json_object_get(th, "tid")), str(th, "lock") ? str(th, "lock") : "?",
                 (long long)json_integer_value(json_object_get(th, "held_by")));
        if ((rc = fact_s(a, "evidence", "deadlock cycle", text, src)))
            break;
    }
    return rc;
}

static int dump_chain(ex_acc *a, const json_t *d, const char *src)
{
    json_t *n;
    size_t i;
    char text[600], name[64];
    int rc = 0;
    json_array_foreach(json_object_get(d, "binder_chain"), i, n) {
        snprintf(text, sizeof text, "pid %lld tid %lld %.200s%s%.200s", (long long)json_integer_value(json_object_get(n, "pid")),
                 (long long)json_integer_value(json_object_get(n, "tid")), str(n, "thread") ? str(n, "thread") : "?",
                 str(n, "via") ? " via " : "", str(n, "via") ? str(n, "via") : "");
        snprintf(name, sizeof name, "binder chain step %zu", i + 1);
        if ((rc = fact_s(a, "evidence", name, text, src)))
            break;
    }
    return rc ? rc : fact(a, "evidence", "binder peer", json_incref(json_object_get(d, "binder_peer")), src);
}

static int dump_definitions(ex_acc *a, const json_t *d)
{
    int rc = fact_s(a, "definition", "ANR of record",
                    "the dump the system took for the ANR: the first dump of the ANR's own file (a bugreport's "
                    "VM TRACES AT LAST ANR, an anr_* record; the anr_dump view's rule, per carrier); the other "
                    "dumps are snapshots, never counted as ANRs",
                    "godeye-anr(1); godeye-schema(7), anr_dump");
    if (!rc && str(d, "type"))
        rc = fact_s(a, "definition", "ANR type",
                    "read from the ANR's subject or reason as the platform prints it; input dispatch timeouts "
                    "are user-perceived",
                    "godeye-anr(1); https://developer.android.com/topic/performance/vitals/anr");
    if (!rc && path(d, "main.lock"))
        rc = fact_s(a, "definition", "lock holder",
                    "the thread the dump names in main's \"waiting to lock <addr> held by thread N\" line",
                    "godeye-anr(1)");
    if (!rc && json_is_true(json_object_get(d, "cross_process_cycle")))
        rc = fact_s(a, "definition", "binder cycle across processes",
                    "the chain of proven edges from main (binder calls, lock waits) comes back to a thread "
                    "already on it", "godeye-anr(1)");
    if (!rc && json_is_true(json_object_get(d, "deadlock")))
        rc = fact_s(a, "definition", "deadlock", "a cycle of lock waits among the dump's threads, every edge in the dump",
                    "godeye-anr(1)");
    return rc;
}

static int own_header(ex_acc *a, const char *kind, const char *selector)
{
    int rc = kind ? fact_s(a, "item", "kind", kind, NULL) : 0;
    return rc || !kind ? rc : fact_s(a, "item", "selector", selector, NULL);
}

/* The dump of id `id` in full (after its own kind and selector rows when
 * `kind`: an item top does not list); GD_ERR_DATA when the selection has
 * none. */
static int explain_dump(ex_acc *a, long long id, const char *kind)
{
    first_row f = {NULL};
    gd_anr_query aq = {.filter = a->q->filter, .app = a->q->filter.app, .all = 1, .id = id};
    int rc = gd_query_anr_list(a->s, &aq, keep_first, &f, a->err);
    if (!rc && !f.row)
        return gd_error_set(a->err, GD_ERR_DATA, 0, 0, "no ANR dump with id %lld", id);
    char src[96], more[96];
    snprintf(more, sizeof more, "anr:%lld", id);
    if (!rc)
        rc = own_header(a, kind, more);
    snprintf(src, sizeof src, "godeye anr --id %lld --format json", id);
    if (!rc)
        rc = figures(a, f.row, dump_fields, sizeof dump_fields / sizeof *dump_fields, src);
    snprintf(more, sizeof more, "godeye anr --id %lld", id);
    if (!rc)
        rc = stack(a, "main stack", json_object_get(f.row, "main_stack"), src, more);
    if (!rc)
        rc = stack(a, "lock holder stack", json_object_get(f.row, "holder_stack"), src, more);
    if (!rc)
        rc = dump_cycle(a, f.row, src);
    if (!rc)
        rc = dump_chain(a, f.row, src);
    if (!rc)
        rc = dump_logs(a, f.row, id);
    if (!rc)
        rc = dump_definitions(a, f.row);
    snprintf(more, sizeof more, "godeye anr --id %lld", id);
    if (!rc)
        rc = fact_s(a, "more", "the dump in full", more, NULL);
    snprintf(more, sizeof more, "godeye anr --context 10s --id %lld", id);
    if (!rc)
        rc = fact_s(a, "more", "what the database holds in the 10 s before it", more, NULL);
    snprintf(more, sizeof more, "godeye anr --group --trace %lld", (long long)json_integer_value(json_object_get(f.row, "trace")));
    if (!rc)
        rc = fact_s(a, "more", "the ANRs of its trace in groups of one signature", more, NULL);
    json_decref(f.row);
    return rc;
}

/* ---- an ANR block: the main thread did not come back for 5 s ---- */

typedef struct find_acc {
    const char *key;   /* the field compared */
    json_t *want;      /* its value          */
    json_t *row;       /* the first match    */
} find_acc;

static int find_row(void *ctx, json_t *row)
{
    find_acc *f = ctx;
    if (!f->row && json_equal(json_object_get(row, f->key), f->want))
        f->row = json_incref(row);
    return 0;
}

static const ex_field block_fields[] = {
    {"id", "block id"},         {"process", "process"},
    {"thread", "thread"},       {"tid", "tid"},
    {"start_ms", "start (ms)"}, {"duration_ms", "duration (ms)"},
    {"unfinished", "unfinished at the trace's end"},
    {"samples", "stack samples"}, {"key_frame", "key frame"},
    {"blame", "blame"},         {"msg", "Looper message"},
    {"group", "group"},         {"dominant_state", "dominant thread state"},
    {"running_ms", "running (ms)"}, {"runnable_ms", "runnable (ms)"},
    {"sleeping_ms", "sleeping (ms)"}, {"uninterruptible_ms", "uninterruptible (ms)"},
    {"binder_server", "binder server"}, {"lock_owner", "lock owner"},
};

/* The id of the ANR dump that `dump` ({trace, pid, ts_ms}) names, or 0. */
static int dump_id_of(ex_acc *a, const json_t *dump, long long *id)
{
    int64_t t = json_integer_value(json_object_get(dump, "trace"));
    gd_anr_query aq = {.filter = {&t, 1, NULL}, .all = 1};
    find_acc f = {"ts_ms", json_object_get(dump, "ts_ms"), NULL};
    int rc = gd_query_anr_list(a->s, &aq, find_row, &f, a->err);
    *id = f.row && json_equal(json_object_get(f.row, "pid"), json_object_get(dump, "pid"))
              ? (long long)json_integer_value(json_object_get(f.row, "id")) : 0;
    json_decref(f.row);
    return rc;
}

static int block_more(ex_acc *a, long long trace, long long id)
{
    char more[96];
    snprintf(more, sizeof more, "godeye blocks --kind anr --trace %lld --stacks", trace);
    int rc = fact_s(a, "more", "the block with every stack sample", more, NULL);
    snprintf(more, sizeof more, "godeye threads --block %lld", id);
    if (!rc)
        rc = fact_s(a, "more", "the thread states during the block", more, NULL);
    snprintf(more, sizeof more, "godeye methods --block %lld", id);
    return rc ? rc : fact_s(a, "more", "the methods sampled during the block", more, NULL);
}

static int explain_anr_block(ex_acc *a, const json_t *entry)
{
    const json_t *ev = json_object_get(entry, "evidence");
    int64_t t = json_integer_value(json_object_get(entry, "trace"));
    gd_blocks_query bq = {.filter = {&t, 1, NULL}, .threshold = NAN, .kind = GD_KIND_ANR, .stacks = 1};
    find_acc f = {"id", json_object_get(ev, "block"), NULL};
    int rc = gd_query_blocks(a->s, &bq, find_row, &f, a->err);
    if (!rc && !f.row)
        return gd_error_set(a->err, GD_ERR_DATA, 0, 0, "no block %lld in trace %lld",
                            (long long)json_integer_value(json_object_get(ev, "block")), (long long)t);
    char src[96];
    snprintf(src, sizeof src, "godeye blocks --kind anr --trace %lld --stacks --format json", (long long)t);
    if (!rc)
        rc = figures(a, f.row, block_fields, sizeof block_fields / sizeof *block_fields, src);
    json_t *s0 = json_array_get(json_object_get(f.row, "stacks"), 0);
    char more[96];
    snprintf(more, sizeof more, "godeye blocks --kind anr --trace %lld --stacks", (long long)t);
    if (!rc)
        rc = stack(a, "first stack sample", json_object_get(s0, "frames"), src, more);
    if (!rc)
        rc = fact_s(a, "definition", "ANR block",
                    "a main-thread dispatch (Looper message) of at least the trace's ANR threshold (anr_ms, "
                    "5000 ms unless the capture says), the platform's input-dispatch timeout",
                    "godeye-blocks(1), KINDS; https://developer.android.com/topic/performance/vitals/anr");
    if (!rc)
        rc = block_more(a, (long long)t, (long long)json_integer_value(json_object_get(f.row, "id")));
    json_decref(f.row);
    long long id = 0;
    if (!rc && json_is_object(json_object_get(ev, "dump")))
        rc = dump_id_of(a, json_object_get(ev, "dump"), &id);
    if (!rc && id > 0) /* the ANR dump of the same freeze (top's rule) */
        rc = explain_dump(a, id, NULL);
    return rc;
}

/* ---- a block group ---- */

static const ex_field group_fields[] = {
    {"count", "blocks"},        {"total_ms", "total (ms)"},     {"max_ms", "longest (ms)"},
    {"p50_ms", "p50 (ms)"},     {"p95_ms", "p95 (ms)"},         {"traces", "traces"},
    {"first_version", "first version"}, {"last_version", "last version"},
    {"key_frame", "key frame"}, {"process", "process"},
};

/* The EX_ROWS longest blocks of one group (gd_query_blocks_light's rows),
 * the longest first, and how many it has: memory bounded whatever the
 * group's size. */
typedef struct group_top {
    json_t *want;  /* the group's name */
    json_t *rows;  /* at most EX_ROWS, by duration_ms descending */
    size_t n;      /* blocks of the group */
} group_top;

static double dur(const json_t *b)
{
    return json_number_value(json_object_get(b, "duration_ms"));
}

static int keep_group(void *ctx, json_t *row)
{
    group_top *g = ctx;
    if (!json_equal(json_object_get(row, "group"), g->want))
        return 0;
    g->n++;
    size_t i = json_array_size(g->rows);
    while (i > 0 && dur(json_array_get(g->rows, i - 1)) < dur(row))
        i--; /* ties: the earlier block stays first */
    if (i < EX_ROWS && json_array_insert(g->rows, i, row) == 0 && json_array_size(g->rows) > EX_ROWS)
        json_array_remove(g->rows, EX_ROWS);
    return 0;
}

static int group_blocks(ex_acc *a, json_t *name, const char *filt)
{
    gd_blocks_query bq = {.filter = a->q->filter, .threshold = NAN, .kind = GD_KIND_NONE};
    group_top g = {name, json_array(), 0};
    int rc = g.rows ? gd_query_blocks_light(a->s, &bq, keep_group, &g, a->err)
                    : gd_error_oom(a->err);
    char src[440], nm[64];
    snprintf(src, sizeof src, "godeye blocks --format json%s", filt);
    json_t *v;
    size_t i;
    json_array_foreach(g.rows, i, v) {
        if (rc)
            break;
        snprintf(nm, sizeof nm, "block %zu of %zu, the longest first", i + 1, g.n);
        json_t *b = json_pack("{s:O s:O s:O s:O s:O}", "id", json_object_get(v, "id"), "trace",
                              json_object_get(v, "trace"), "start_ms", json_object_get(v, "start_ms"),
                              "duration_ms", json_object_get(v, "duration_ms"), "kind", json_object_get(v, "kind"));
        rc = b ? fact(a, "evidence", nm, b, src) : gd_error_oom(a->err);
    }
    if (!rc && json_array_size(g.rows)) {
        char more[96];
        snprintf(more, sizeof more, "godeye threads --block %lld",
                 (long long)json_integer_value(json_object_get(json_array_get(g.rows, 0), "id")));
        rc = fact_s(a, "more", "the thread states during its longest block", more, NULL);
    }
    json_decref(g.rows);
    return rc;
}

static int explain_group(ex_acc *a, const char *name, const char *kind)
{
    gd_blocks_query bq = {.filter = a->q->filter, .threshold = NAN, .kind = GD_KIND_NONE};
    json_t *want = json_string(name);
    find_acc f = {"group", want, NULL};
    int rc = want ? gd_query_block_groups(a->s, &bq, find_row, &f, a->err) : GD_ERR_NOMEM;
    if (!rc && !f.row)
        rc = gd_error_set(a->err, GD_ERR_DATA, 0, 0, "no block group '%.200s'", name);
    char filt[400], src[500];
    snprintf(src, sizeof src, "group:%.400s", name);
    if (!rc)
        rc = own_header(a, kind, src);
    filter_opts(a->q, filt, sizeof filt);
    snprintf(src, sizeof src, "godeye blocks --group --format json%s", filt);
    if (!rc)
        rc = figures(a, f.row, group_fields, sizeof group_fields / sizeof *group_fields, src);
    if (!rc)
        rc = group_blocks(a, want, filt);
    if (!rc)
        rc = fact_s(a, "definition", "block",
                    "a main-thread dispatch (Looper message, or a slice on the main thread) of at least the "
                    "trace's short threshold (100 ms unless the capture says)", "godeye-blocks(1)");
    if (!rc)
        rc = fact_s(a, "definition", "group",
                    "blocks of one name: the key frame (the frame in the most stack samples among the app's "
                    "packages) without its line number, else the Looper message's handler and callback, else "
                    "the slice or message name",
                    "godeye-blocks(1), GROUPS");
    snprintf(src, sizeof src, "godeye blocks --group%s", filt);
    if (!rc)
        rc = fact_s(a, "more", "every group", src, NULL);
    json_decref(want);
    json_decref(f.row);
    return rc;
}

/* ---- launches, frames, lock contention: top's own figures ---- */

static const ex_field startup_fields[] = {
    {"kind", "launch kind"}, {"graded_as", "graded as (cold when the kind is unknown)"},
    {"count", "slow launches"}, {"worst_ms", "the slowest (ms)"},
    {"bar_ms", "Android vitals' bar (ms)"}, {"over_ms", "time over the bar, summed (ms)"},
};

static int keep_slow(void *ctx, json_t *row)
{
    find_acc *f = ctx; /* want: the activity (a string, or null) */
    if (json_is_true(json_object_get(row, "slow")) && json_array_size(f->row) < 1000 &&
        json_equal(json_object_get(row, "activity") ? json_object_get(row, "activity") : json_null(), f->want))
        json_array_append(f->row, row);
    return 0;
}

static int explain_startup(ex_acc *a, const json_t *entry)
{
    const json_t *ev = json_object_get(entry, "evidence");
    long long t = (long long)json_integer_value(json_object_get(entry, "trace"));
    int rc = figures(a, ev, startup_fields, sizeof startup_fields / sizeof *startup_fields, a->top_json);
    int64_t tr = t;
    gd_startup_query sq = {.filter = {&tr, 1, NULL}, .app = str(ev, "app"), .kind = str(ev, "kind")};
    json_t *act = json_object_get(ev, "activity");
    find_acc f = {"activity", act ? act : json_null(), json_array()};
    if (!rc)
        rc = gd_query_startups(a->s, &sq, keep_slow, &f, a->err);
    char src[96], nm[64];
    snprintf(src, sizeof src, "godeye startup --trace %lld --format json", t);
    json_t *l;
    size_t i;
    json_array_foreach(f.row, i, l) {
        if (rc || i == EX_ROWS)
            break;
        snprintf(nm, sizeof nm, "launch %zu of %zu", i + 1, json_array_size(f.row));
        json_t *o = json_pack("{s:O s:O s:O s:O s:O s:O}", "ts_ms", json_object_get(l, "ts_ms"), "total_ms",
                              json_object_get(l, "total_ms"), "wait_ms", json_object_get(l, "wait_ms"), "source",
                              json_object_get(l, "source"), "activity", json_object_get(l, "activity"), "ttid_ms",
                              json_object_get(l, "ttid_ms"));
        rc = o ? fact(a, "evidence", nm, o, src) : gd_error_oom(a->err);
    }
    json_decref(f.row);
    if (!rc)
        rc = fact_s(a, "definition", "launch time",
                    "from the intent to the first frame drawn (the logcat \"Displayed\" total, am start's "
                    "TotalTime, Perfetto's android_startups); slow at or over Android vitals' bar: cold 5 s, "
                    "warm 2 s, hot 1.5 s", "godeye-startup(1); https://developer.android.com/topic/performance/vitals/launch-time");
    snprintf(src, sizeof src, "godeye startup --trace %lld --breakdown", t);
    return rc ? rc : fact_s(a, "more", "the launches with their phases", src, NULL);
}

static const ex_field frames_fields[] = {
    {"window", "window"}, {"frames", "frames"}, {"slow", "slow frames"}, {"frozen", "frozen frames"},
    {"lost_ms", "time past the 16.7 ms deadline, summed (ms)"},
};
/* #51: an entry from the device's gfxinfo summary (evidence.source
 * "device"): its own printed figures beside the histogram's */
static const ex_field device_fields[] = {
    {"device_frames", "the device's Total frames rendered"}, {"device_janky", "the device's Janky frames"},
    {"device_janky_pct", "the device's Janky frames (%)"},
};

/* `frames`' rows of the entry's window (want: its name, or null), by pid. */
static int keep_window(void *ctx, json_t *row)
{
    find_acc *f = ctx;
    const char *src = str(row, "source");
    if (src && strcmp(src, "frames") == 0 && json_array_size(f->row) < EX_ROWS &&
        json_equal(json_object_get(row, "window") ? json_object_get(row, "window") : json_null(), f->want))
        json_array_append(f->row, row);
    return 0;
}

static int window_rows(ex_acc *a, const json_t *entry, const char *src)
{
    int64_t t = json_integer_value(json_object_get(entry, "trace"));
    json_t *w = path(entry, "evidence.window");
    gd_frames_query fq = {.filter = {&t, 1, NULL}, .app_only = 1}; /* top's frames: an app's */
    find_acc f = {"window", w ? w : json_null(), json_array()};
    int rc = gd_query_frames(a->s, &fq, keep_window, &f, a->err);
    static const char *const keys[] = {"pid", "process", "frames", "slow", "frozen", "vitals_slow", "p50_ms",
                                       "p95_ms", "p99_ms", "max_ms", "frozen_blocks"};
    json_t *row;
    size_t i;
    char nm[64];
    json_array_foreach(f.row, i, row) {
        json_t *o = json_object();
        for (size_t k = 0; o && k < sizeof keys / sizeof *keys; k++)
            json_object_set(o, keys[k], json_object_get(row, keys[k]) ? json_object_get(row, keys[k]) : json_null());
        snprintf(nm, sizeof nm, "the window's frames, row %zu of %zu", i + 1, json_array_size(f.row));
        if (!rc)
            rc = o ? fact(a, "evidence", nm, o, src) : gd_error_oom(a->err);
        else
            json_decref(o);
    }
    json_decref(f.row);
    return rc;
}

static int explain_frames(ex_acc *a, const json_t *entry)
{
    long long t = (long long)json_integer_value(json_object_get(entry, "trace"));
    char src[96], json[120];
    snprintf(src, sizeof src, "godeye frames --trace %lld", t);
    snprintf(json, sizeof json, "%s --format json", src);
    int rc = fact(a, "figure", "trace", json_incref(json_object_get(entry, "trace")), src);
    if (!rc)
        rc = window_rows(a, entry, json);
    if (!rc)
        rc = figures(a, json_object_get(entry, "evidence"), frames_fields, sizeof frames_fields / sizeof *frames_fields,
                     a->top_json);
    const char *from = str(json_object_get(entry, "evidence"), "source");
    int device = from && strcmp(from, "device") == 0; /* #51: the device's summary leads */
    if (!rc && device)
        rc = figures(a, json_object_get(entry, "evidence"), device_fields, sizeof device_fields / sizeof *device_fields,
                     a->top_json);
    if (!rc && device)
        rc = fact_s(a, "definition", "frames from the device's summary",
                    "the window's rows are a placeholder, or there are none: frames, slow, frozen and the time "
                    "lost are read off the gfxinfo summary's HISTOGRAM, each bucket's time standing for its "
                    "frames'; the device's own Janky frames beside them",
                    "godeye-top(1); godeye-frames(1)");
    else if (!rc)
        rc = fact_s(a, "definition", "slow and frozen frames",
                    "a frame is slow over one 60 Hz vsync (16.7 ms) and frozen over 700 ms (Android vitals); the "
                    "time lost is each slow frame's time past 16.7 ms",
                    "godeye-frames(1); https://developer.android.com/topic/performance/vitals/render");
    if (device)
        snprintf(src, sizeof src, "godeye frames --trace %lld --summary", t);
    return rc ? rc
              : fact_s(a, "more",
                       device ? "the device's gfxinfo summary, as printed" : "the frames per window: slow, frozen, percentiles",
                       src, NULL);
}

static const ex_field lock_fields[] = {
    {"owner", "lock owner thread"}, {"owner_method", "owner's method"}, {"blocked_method", "main's method"},
    {"count", "contentions"},      {"total_ms", "main waited, summed (ms)"}, {"max_ms", "the longest wait (ms)"},
};

/* The main-thread contentions of one (owner, blocked method, owner's
 * method), as top adds them up (query/top.c on_issue). */
typedef struct lock_find {
    const json_t *ev;
    json_t *rows;
} lock_find;

static int keep_lock(void *ctx, json_t *i)
{
    lock_find *l = ctx;
    json_t *c = json_object_get(i, "content");
    static const char *const keys[] = {"owner", "blocked_method", "owner_method"};
    if (!str(i, "type") || strcmp(str(i, "type"), "lock_contention") != 0 || !json_is_true(json_object_get(c, "main")) ||
        !(json_number_value(json_object_get(c, "dur_ms")) > 0) || json_array_size(l->rows) >= EX_ROWS)
        return 0;
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
        if (!json_equal(json_object_get(c, keys[k]) ? json_object_get(c, keys[k]) : json_null(),
                        json_object_get(l->ev, keys[k]) ? json_object_get(l->ev, keys[k]) : json_null()))
            return 0;
    json_array_append_new(l->rows, json_pack("{s:O s:O s:O s:O s:O}", "trace", json_object_get(i, "trace"), "ts_ms",
                                             json_object_get(i, "ts_ms"), "tid", json_object_get(i, "tid"), "dur_ms",
                                             json_object_get(c, "dur_ms"), "slice", json_object_get(c, "slice")));
    return 0;
}

static int explain_lock(ex_acc *a, const json_t *entry)
{
    int rc = figures(a, json_object_get(entry, "evidence"), lock_fields, sizeof lock_fields / sizeof *lock_fields,
                     a->top_json);
    lock_find l = {json_object_get(entry, "evidence"), json_array()};
    if (!rc)
        rc = gd_query_issues(a->s, &a->q->filter, NULL, keep_lock, &l, a->err);
    json_t *row;
    size_t i;
    char nm[64];
    json_array_foreach(l.rows, i, row) {
        snprintf(nm, sizeof nm, "contention %zu", i + 1);
        if (!rc)
            rc = fact(a, "evidence", nm, json_incref(row), "godeye issues --tool android --format json");
    }
    json_decref(l.rows);
    if (!rc)
        rc = fact_s(a, "definition", "lock contention",
                    "ART's \"monitor contention with owner NAME (TID) at METHOD\" and \"Lock contention on\" "
                    "slices on the main thread, kept as android lock_contention findings",
                    "godeye-blocks(1); godeye-issues(1)");
    return rc ? rc : fact_s(a, "more", "every lock contention finding", "godeye issues --tool android", NULL);
}

/* ---- the item: top's entry, then its kind's account ---- */

static int header(ex_acc *a, const json_t *e, const char *selector)
{
    char filt[400], lim[32] = "";
    filter_opts(a->q, filt, sizeof filt);
    json_int_t rank = json_integer_value(json_object_get(e, "rank"));
    if (rank > 10) /* past top's default --limit */
        snprintf(lim, sizeof lim, " --limit %lld", (long long)rank);
    snprintf(a->top, sizeof a->top, "godeye top%s%s%s", lim, a->q->focus ? "" : " --all-processes", filt);
    snprintf(a->top_json, sizeof a->top_json, "%s --format json", a->top);
    const char *src = a->top, *json = a->top_json;
    int rc = fact_s(a, "item", "kind", str(e, "kind"), NULL);
    if (!rc)
        rc = fact_s(a, "item", "selector", selector, NULL);
    if (!rc)
        rc = fact(a, "item", "rank in top", json_incref(json_object_get(e, "rank")), src);
    if (!rc)
        rc = fact(a, "item", "title", json_incref(json_object_get(e, "title")), src);
    if (!rc)
        rc = fact(a, "item", "process", json_incref(json_object_get(e, "process")), src);
    if (!rc)
        rc = fact(a, "figure", "ms lost per minute of capture", json_incref(json_object_get(e, "score_ms_per_min")), src);
    if (!rc)
        rc = fact(a, "figure", "minutes of capture", json_incref(json_object_get(e, "capture_min")), json);
    if (!rc)
        rc = fact(a, "figure", "ANR dumps in its group", json_incref(path(e, "evidence.group.count")), json);
    if (!rc)
        rc = fact(a, "figure", "traces of its group's dumps", json_incref(path(e, "evidence.group.traces")), json);
    if (!rc)
        rc = fact_s(a, "definition", "rank", "ANRs first; then ms users lost per minute of capture (the selected "
                    "traces' exposure)", "godeye-top(1), SCORING; docs/cli-contract.md, Exposure");
    return rc;
}

static int explain_entry(ex_acc *a, const json_t *e, const char *selector)
{
    int rc = header(a, e, selector);
    const char *k = str(e, "kind");
    if (rc || !k)
        return rc;
    if (strcmp(k, "anr_dump") == 0)
        return explain_dump(a, (long long)json_integer_value(path(e, "evidence.id")), NULL);
    if (strcmp(k, "anr") == 0)
        return explain_anr_block(a, e);
    if (strcmp(k, "block_group") == 0)
        return explain_group(a, str(json_object_get(e, "evidence"), "group"), NULL);
    if (strcmp(k, "startup") == 0)
        return explain_startup(a, e);
    if (strcmp(k, "frames") == 0)
        return explain_frames(a, e);
    return strcmp(k, "lock") == 0 ? explain_lock(a, e) : 0;
}

/* The top entry a direct selector names (NULL: none in top's list). */
static const json_t *entry_of(const json_t *top, const gd_explain_query *q)
{
    json_t *e;
    size_t i;
    json_array_foreach(json_object_get(top, "entries"), i, e) {
        const char *k = str(e, "kind");
        if (q->anr_id > 0 && k && strcmp(k, "anr_dump") == 0 && json_integer_value(path(e, "evidence.id")) == q->anr_id)
            return e;
        if (q->group && k && strcmp(k, "block_group") == 0 && str(json_object_get(e, "evidence"), "group") &&
            strcmp(str(json_object_get(e, "evidence"), "group"), q->group) == 0)
            return e;
    }
    return NULL;
}

int gd_explain_parse(const char *sel, gd_explain_query *q, gd_error *err)
{
    if (sel && strncmp(sel, "anr:", 4) == 0) {
        char *end;
        long long id = strtoll(sel + 4, &end, 10);
        if (id > 0 && !*end && end != sel + 4) {
            q->anr_id = id;
            return GD_OK;
        }
    } else if (sel && strncmp(sel, "group:", 6) == 0 && sel[6]) {
        q->group = sel + 6;
        return GD_OK;
    }
    return gd_error_set(err, GD_ERR_USAGE, 0, 0, "--item wants anr:ID or group:NAME");
}

int gd_query_explain(gd_store *s, const gd_explain_query *q, gd_row_fn fn, void *ctx, gd_error *err)
{
    ex_acc a = {s, q, fn, ctx, err, json_array(), .top = ""};
    if (!a.rows)
        return gd_error_oom(err);
    json_t *top = NULL;
    int rc = gd_top_build_focus(s, &q->filter, GD_TOP_MAX, q->focus, &top, err);
    if (rc) {
        json_decref(a.rows);
        return rc;
    }
    char sel[300];
    const json_t *e = NULL;
    if (q->top > 0) {
        e = json_array_get(json_object_get(top, "entries"), (size_t)q->top - 1);
        size_t n = json_array_size(json_object_get(top, "entries"));
        if (!e)
            rc = gd_error_set(err, GD_ERR_DATA, 0, 0, "no item %ld: top lists %zu entr%s", q->top, n, n == 1 ? "y" : "ies");
    } else
        e = entry_of(top, q);
    const char *k = e ? str(e, "kind") : NULL;
    if (k && strcmp(k, "anr_dump") == 0)
        snprintf(sel, sizeof sel, "anr:%lld", (long long)json_integer_value(path(e, "evidence.id")));
    else if (k && strcmp(k, "block_group") == 0)
        snprintf(sel, sizeof sel, "group:%.290s", str(json_object_get(e, "evidence"), "group"));
    else
        snprintf(sel, sizeof sel, "--top %ld", q->top);
    if (!rc && e)
        rc = explain_entry(&a, e, sel);
    else if (!rc) /* an item top does not list: its own account only */
        rc = q->anr_id > 0 ? explain_dump(&a, q->anr_id, "anr_dump") : explain_group(&a, q->group, "block_group");
    json_decref(top);
    if (!rc)
        rc = hand_out(&a);
    json_decref(a.rows);
    return rc;
}
