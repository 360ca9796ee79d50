/* anr.c - `godeye anr` and `godeye issues`: ANR dumps (main thread state,
 * lock holder, deadlocks) and the findings tools reported as they are. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins.h"
#include "capture/capture.h" /* gd_capture_parse_duration */
#include "fleet/gate.h"
#include "query/anr_context.h"
#include "query/issues.h"

/* BLOCKED BY: the lock holder of the main thread, and where the chain of
 * lock waits ends when it ends at a thread in a binder call. */
static const char *blocked_by_text(const json_t *row, char *buf, size_t size)
{
    json_t *main = json_object_get(row, "main");
    json_t *peer = json_object_get(row, "binder_peer");
    if (json_is_object(main) && !json_object_get(main, "held_by") && json_is_object(peer)) {
        /* main in a binder call the bugreport's snapshot proves (#28) */
        const char *by = json_string_value(json_object_get(json_object_get(peer, "waits_on"), "held_by_name"));
        int n = snprintf(buf, size, "binder %lld:%lld %s", (long long)json_integer_value(json_object_get(peer, "pid")),
                         (long long)json_integer_value(json_object_get(peer, "tid")),
                         json_is_string(json_object_get(peer, "thread"))
                             ? json_string_value(json_object_get(peer, "thread")) : "?");
        if (by && n > 0 && (size_t)n < size)
            n += snprintf(buf + n, size - (size_t)n, " -> waits on %s", by);
        if (json_is_true(json_object_get(row, "cross_process_cycle")) && n > 0 && (size_t)n < size)
            snprintf(buf + n, size - (size_t)n, " (%s)", json_string_value(json_object_get(row, "binder_reason")));
        return buf;
    }
    if (!json_is_object(main) || !json_object_get(main, "held_by"))
        return NULL;
    if (!json_is_integer(json_object_get(main, "held_by"))) {
        /* the dump names a holder it does not list */
        snprintf(buf, size, "thread %lld (not in the dump)",
                 (long long)json_integer_value(json_object_get(main, "held_by_dalvik_tid")));
        return buf;
    }
    json_int_t held = json_integer_value(json_object_get(main, "held_by"));
    const char *name = json_string_value(json_object_get(main, "held_by_name"));
    int n = snprintf(buf, size, "%s (%lld)", name ? name : "?", (long long)held);
    json_t *bw, *w;
    size_t i, k;
    json_array_foreach(json_object_get(row, "binder_waits"), i, bw) {
        json_t *h = json_object_get(bw, "holder");
        json_array_foreach(json_object_get(bw, "waiters"), k, w)
            if (json_equal(json_object_get(w, "tid"), json_object_get(main, "tid")) && n > 0 &&
                (size_t)n < size) {
                if (json_integer_value(json_object_get(h, "tid")) == held)
                    snprintf(buf + n, size - (size_t)n, " in a binder call");
                else
                    snprintf(buf + n, size - (size_t)n, " -> %s (%lld) in a binder call",
                             json_string_value(json_object_get(h, "name")),
                             (long long)json_integer_value(json_object_get(h, "tid")));
            }
    }
    return buf;
}

/* DEADLOCK: the first cycle of lock waits, "a -> b -> a". */
static const char *cycle_text(const json_t *row, char *buf, size_t size)
{
    json_t *cycle = json_array_get(json_object_get(row, "deadlocks"), 0), *th;
    if (!cycle)
        return NULL;
    size_t used = 0, i;
    buf[0] = 0;
    json_array_foreach(cycle, i, th)
        used += (size_t)snprintf(buf + used, used < size ? size - used : 0, "%s -> ",
                                 json_string_value(json_object_get(th, "name")));
    if (used < size)
        snprintf(buf + used, size - used, "%s", json_string_value(json_object_get(json_array_get(cycle, 0), "name")));
    return buf;
}

/* MAIN AT: the first Java frame (native ones read "native:..."); the
 * innermost frame when the stack has no Java frame */
static const char *top_text(const json_t *row, char *buf, size_t size)
{
    json_t *stack = json_object_get(row, "main_stack"), *fr, *top = json_array_get(stack, 0);
    size_t k;
    (void)buf, (void)size;
    json_array_foreach(stack, k, fr) {
        const char *f = json_string_value(fr);
        if (f && strncmp(f, "native:", 7) != 0) {
            top = fr;
            break;
        }
    }
    return json_string_value(top);
}

/* HOLDER AT: the first Java frame of the thread holding main's lock */
static const char *holder_text(const json_t *row, char *buf, size_t size)
{
    json_t *stack = json_object_get(row, "holder_stack"), *fr, *top;
    if (!json_is_array(stack)) /* the holder of main's binder peer's lock (#28) */
        stack = json_object_get(json_object_get(json_object_get(row, "binder_peer"), "waits_on"), "holder_stack");
    top = json_array_get(stack, 0);
    size_t k;
    (void)buf, (void)size;
    json_array_foreach(stack, k, fr) {
        const char *f = json_string_value(fr);
        if (f && strncmp(f, "native:", 7) != 0) {
            top = fr;
            break;
        }
    }
    return json_string_value(top);
}

/* MAIN STATE: the VM's state word, else the kernel's state and wait
 * channel of a dump that has only its Waiting Channels (#48) */
static const char *state_text(const json_t *row, char *buf, size_t size)
{
    json_t *main = json_object_get(row, "main");
    const char *st = json_string_value(json_object_get(main, "state"));
    if (st)
        return st;
    const char *ks = json_string_value(json_object_get(main, "kernel_state"));
    if (!ks)
        return NULL;
    snprintf(buf, size, "%s %s", ks, json_string_value(json_object_get(main, "wchan")) ? json_string_value(json_object_get(main, "wchan")) : "");
    return buf;
}

/* PRESSURE: the resource whose stall is the worst over the last 10 s of
 * an ANR record's /proc/pressure ("io full 31% /10s"; "full" when any
 * task stalled fully, else "some") */
static const char *pressure_text(const json_t *row, char *buf, size_t size)
{
    static const char *const kinds[] = {"full", "some"};
    json_t *p = json_object_get(row, "pressure"), *r;
    const char *k;
    for (int i = 0; i < 2; i++) {
        const char *best = NULL;
        double v = 0;
        json_object_foreach(p, k, r) {
            double a = json_number_value(json_object_get(json_object_get(r, kinds[i]), "avg10"));
            if (a > v) {
                v = a;
                best = k;
            }
        }
        if (best) {
            snprintf(buf, size, "%s %s %.0f%% /10s", best, kinds[i], v);
            return buf;
        }
    }
    return NULL;
}

/* MEMORY: an ANR record's memory lines ("RssKb: 301234") in MB, in the
 * record's order: "Rss 294.2 MB, VmSwap 4.0 MB" */
static const char *memory_text(const json_t *row, char *buf, size_t size)
{
    json_t *m = json_object_get(row, "memory_kb"), *v;
    const char *k;
    size_t n = 0;
    if (!json_object_size(m))
        return NULL;
    buf[0] = 0;
    json_object_foreach(m, k, v) {
        size_t kl = strlen(k);
        if (kl > 2 && strcmp(k + kl - 2, "Kb") == 0)
            kl -= 2; /* the record's unit goes: MB follows */
        if (n < size)
            n += (size_t)snprintf(buf + n, size - n, "%s%.*s %.1f MB", n ? ", " : "", (int)kl, k,
                                  json_number_value(v) / 1024.0);
    }
    return buf;
}

/* a readable summary of each dump (JSON keeps the whole object): the
 * headline of an ANR is app, time, reason, main state, where main is, who
 * blocks it */
enum { GD_ANR_TABLE(GD_CLI_TAB, GD_CLI_TAB_P) };
GD_CLI_TABLE_P_CHECK(GD_ANR_COLS, GD_ANR_TABLE);
static const gd_column anr_columns[] = {
    GD_ANR_COLS(GD_CLI_COL_AT, GD_CLI_JSON_ONLY)
    GD_ANR_TABLE(GD_CLI_NO_T, GD_CLI_PATH_AT)
    [GD_TAB_AN_ANR].words = "ANR|-",
    [GD_TAB_AN_T_STATE].text = state_text,
    [GD_TAB_AN_T_PRESSURE].text = pressure_text,
    [GD_TAB_AN_T_MEMORY].text = memory_text,
    [GD_TAB_AN_T_TOP].text = top_text,
    [GD_TAB_AN_T_BLOCKED_BY].text = blocked_by_text,
    [GD_TAB_AN_T_HOLDER_AT].text = holder_text,
    [GD_TAB_AN_T_CYCLE].text = cycle_text,
};

/* VERSIONS: first and last version the group was seen in */
static const char *versions_text(const json_t *row, char *buf, size_t size)
{
    const char *f = json_string_value(json_object_get(row, "first_version"));
    const char *l = json_string_value(json_object_get(row, "last_version"));
    if (!f)
        return NULL;
    if (strcmp(f, l) == 0)
        return f;
    snprintf(buf, size, "%s..%s", f, l);
    return buf;
}

/* a comma list of a JSON array of strings */
static const char *list_text(const json_t *a, char *buf, size_t size)
{
    json_t *e;
    size_t i, n = 0;
    if (!json_array_size(a))
        return NULL;
    buf[0] = 0;
    json_array_foreach(a, i, e)
        if (n < size)
            n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? "," : "", json_string_value(e));
    return buf;
}

static const char *apps_text(const json_t *row, char *buf, size_t size)
{
    return list_text(json_object_get(row, "apps"), buf, size);
}

static const char *devices_text(const json_t *row, char *buf, size_t size)
{
    return list_text(json_object_get(row, "devices"), buf, size);
}

/* --group: one ANR signature a row */
enum { GD_ANR_GROUPS_TABLE(GD_CLI_TAB, GD_CLI_TAB_P) };
GD_CLI_TABLE_P_CHECK(GD_ANR_GROUPS_COLS, GD_ANR_GROUPS_TABLE);
static const gd_column group_columns[] = {
    GD_ANR_GROUPS_COLS(GD_CLI_COL_AT, GD_CLI_JSON_ONLY)
    GD_ANR_GROUPS_TABLE(GD_CLI_NO_T, GD_CLI_PATH_AT)
    [GD_TAB_AG_APPS].text = apps_text,
    [GD_TAB_AG_T_VERSIONS].text = versions_text,
    [GD_TAB_AG_DEVICES].text = devices_text,
};

/* --context: what the database holds before each ANR */
enum { GD_ANR_CONTEXT_TABLE(GD_CLI_TAB) };
GD_CLI_TABLE_CHECK(GD_ANR_CONTEXT_COLS, GD_ANR_CONTEXT_TABLE);
static const gd_column context_columns[] = {GD_ANR_CONTEXT_COLS(GD_CLI_COL_AT, GD_CLI_JSON_ONLY)};

/* The ANR dumps listed (bounded: their trace, pid, time and process). */
typedef struct anr_list {
    gd_anr_context_query *a;
    size_t n, cap;
    int oom;
    int any; /* --id N: that dump, the ANR or a snapshot (#49: explain cites it) */
} anr_list;

static int collect_anr(void *ctx, json_t *row)
{
    anr_list *l = ctx;
    if (!l->any && !json_is_true(json_object_get(row, "anr")))
        return 0;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        gd_anr_context_query *a = realloc(l->a, cap * sizeof *a);
        if (!a) {
            l->oom = 1;
            return 1;
        }
        l->a = a;
        l->cap = cap;
    }
    gd_anr_context_query *q = &l->a[l->n++];
    memset(q, 0, sizeof *q);
    q->trace = json_integer_value(json_object_get(row, "trace"));
    q->pid = json_integer_value(json_object_get(row, "pid"));
    q->ts_ms = json_number_value(json_object_get(row, "ts_ms"));
    const char *p = json_string_value(json_object_get(row, "process"));
    q->process = p ? strdup(p) : NULL;
    if (p && !q->process) {
        l->oom = 1;
        return 1;
    }
    return 0;
}

static int anr_context(gd_ctx *ctx, gd_store *s, gd_out_mode mode, const gd_anr_query *q, double window_ms)
{
    anr_list l = {.any = q->id > 0};
    gd_error err = {0};
    int rc = gd_query_anr_list(s, q, collect_anr, &l, &err);
    if (!rc && l.oom)
        rc = gd_error_oom(&err);
    gd_renderer *r = NULL;
    if (!rc)
        r = gd_cli_renderer(ctx, s, mode, context_columns, sizeof context_columns / sizeof context_columns[0]);
    for (size_t i = 0; !rc && i < l.n; i++) {
        l.a[i].filter = q->filter;
        l.a[i].window_ms = window_ms;
        rc = gd_query_anr_context(s, &l.a[i], gd_cli_render_cb, r, &err);
    }
    int wrc = r ? gd_cli_render_end(ctx, r) : 0;
    for (size_t i = 0; i < l.n; i++)
        free((char *)l.a[i].process);
    free(l.a);
    gd_store_close(s);
    if (rc)
        return gd_cli_fail(ctx, &err);
    return wrc ? GD_EXIT_FAIL : GD_EXIT_OK;
}

/* ---- `anr --id N`: one dump in full, for a terminal (#48) ---- */

/* Prints `text` after `lead`, wrapped at `width` columns: a line that is
 * longer goes on under `indent` spaces; words are never cut, a frame
 * longer than a line is cut at the width only (nothing is dropped). */
static void card_line(const char *lead, const char *text, int indent, int width)
{
    int col = printf("%s", lead);
    const char *p = text ? text : "-";
    if (width < 40)
        width = 40;
    while (*p) {
        int room = width - col;
        if (room < 20)
            room = 20;
        size_t n = strlen(p);
        if ((int)n > room) {
            /* break after the last '.', ',', ' ' or '(' that fits, else at the width */
            size_t cut = (size_t)room;
            for (size_t k = (size_t)room; k > (size_t)room / 2; k--)
                if (p[k - 1] == ' ' || p[k - 1] == '.' || p[k - 1] == ',' || p[k - 1] == '(') {
                    cut = k;
                    break;
                }
            n = cut;
        }
        size_t shown = n;
        while (shown > 1 && p[shown - 1] == ' ')
            shown--; /* no trailing blank at a break */
        printf("%.*s\n", (int)shown, p);
        p += n;
        while (*p == ' ')
            p++;
        if (*p)
            col = printf("%*s", indent, "");
    }
    if (!text || !*text)
        printf("\n");
}

static void card_stack(const char *title, const json_t *stack, int width)
{
    json_t *f;
    size_t i;
    if (!json_is_array(stack) || json_array_size(stack) == 0)
        return;
    printf("%s (%zu frame%s, innermost first)\n", title, json_array_size(stack), json_array_size(stack) == 1 ? "" : "s");
    json_array_foreach(stack, i, f)
        card_line("  at ", json_string_value(f), 7, width);
}

static int print_card(void *ctx, json_t *r)
{
    int width = *(int *)ctx;
    char buf[512], lead[64];
    const char *proc = json_string_value(json_object_get(r, "process"));
    snprintf(buf, sizeof buf, "%s (pid %lld), trace %lld, dump %lld of its file (%s)%s", proc ? proc : "?",
             (long long)json_integer_value(json_object_get(r, "pid")), (long long)json_integer_value(json_object_get(r, "trace")),
             (long long)json_integer_value(json_object_get(r, "dump_index")),
             json_string_value(json_object_get(r, "section")) ? json_string_value(json_object_get(r, "section")) : "?",
             json_is_true(json_object_get(r, "anr")) ? ": the ANR" : json_is_true(json_object_get(r, "quiet")) ? ": a quiet snapshot" : ": a snapshot");
    card_line("dump     ", buf, 9, width);
    if (json_is_string(json_object_get(r, "reason")))
        card_line("reason   ", json_string_value(json_object_get(r, "reason")), 9, width);
    if (json_is_string(json_object_get(r, "type"))) {
        json_t *to = json_object_get(r, "timeout_ms");
        snprintf(buf, sizeof buf, "%s (%s%s)", json_string_value(json_object_get(r, "type_label")),
                 json_string_value(json_object_get(r, "type")), json_is_true(json_object_get(r, "user_perceived")) ? ", user-perceived" : "");
        if (json_is_integer(to)) {
            size_t n = strlen(buf);
            snprintf(buf + n, sizeof buf - n, "; the platform's timeout %lld ms", (long long)json_integer_value(to));
        }
        card_line("type     ", buf, 9, width);
    }
    const char *rp = json_string_value(json_object_get(r, "reason_process"));
    if (rp && proc && strcmp(rp, proc) != 0)
        card_line("note     ", "the reason names another process than this dump's:", 9, width), card_line("         ", rp, 9, width);
    json_t *main = json_object_get(r, "main");
    const char *st = state_text(r, buf, sizeof buf);
    snprintf(lead, sizeof lead, "main     ");
    char mline[600];
    snprintf(mline, sizeof mline, "%s (tid %lld) %s", json_string_value(json_object_get(main, "name")) ? json_string_value(json_object_get(main, "name")) : "main",
             (long long)json_integer_value(json_object_get(main, "tid")), st ? st : "state not given");
    if (json_is_string(json_object_get(main, "wchan")) && json_is_string(json_object_get(main, "state"))) {
        size_t n = strlen(mline);
        snprintf(mline + n, sizeof mline - n, " (kernel: %s %s)", json_string_value(json_object_get(main, "kernel_state")),
                 json_string_value(json_object_get(main, "wchan")));
    }
    card_line(lead, json_is_object(main) ? mline : "(no main thread in the dump)", 9, width);
    const char *by = blocked_by_text(r, buf, sizeof buf);
    if (by)
        card_line("blocked  ", by, 9, width);
    const char *cy = cycle_text(r, buf, sizeof buf);
    if (cy)
        card_line("deadlock ", cy, 9, width);
    json_t *w = json_object_get(r, "wchan");
    if (json_is_object(w)) {
        snprintf(buf, sizeof buf, "%lld threads, %lld in D (uninterruptible)", (long long)json_integer_value(json_object_get(w, "threads")),
                 (long long)json_integer_value(json_object_get(w, "d_count")));
        card_line("wchan    ", buf, 9, width);
        json_t *d;
        size_t i;
        json_array_foreach(json_object_get(w, "d_threads"), i, d) {
            snprintf(buf, sizeof buf, "tid %lld D %s", (long long)json_integer_value(json_object_get(d, "tid")),
                     json_string_value(json_object_get(d, "wchan")));
            card_line("         ", buf, 9, width);
        }
    }
    const char *k;
    json_t *res;
    json_object_foreach(json_object_get(r, "pressure"), k, res) {
        snprintf(buf, sizeof buf, "%s: some %.2f%% full %.2f%% (avg10; avg60 some %.2f%%)", k,
                 json_number_value(json_object_get(json_object_get(res, "some"), "avg10")),
                 json_number_value(json_object_get(json_object_get(res, "full"), "avg10")),
                 json_number_value(json_object_get(json_object_get(res, "some"), "avg60")));
        card_line("pressure ", buf, 9, width);
    }
    if (memory_text(r, buf, sizeof buf))
        card_line("memory   ", buf, 9, width);
    card_stack("main stack", json_object_get(r, "main_stack"), width);
    card_stack("holder stack", json_object_get(r, "holder_stack"), width);
    json_t *chain = json_object_get(r, "binder_chain"), *n;
    size_t i;
    json_array_foreach(chain, i, n) {
        snprintf(buf, sizeof buf, "%s%lld:%lld %s%s%s", i ? "-> " : "", (long long)json_integer_value(json_object_get(n, "pid")),
                 (long long)json_integer_value(json_object_get(n, "tid")),
                 json_string_value(json_object_get(n, "thread")) ? json_string_value(json_object_get(n, "thread")) : "?",
                 json_string_value(json_object_get(n, "via")) ? " via " : "",
                 json_string_value(json_object_get(n, "via")) ? json_string_value(json_object_get(n, "via")) : "");
        card_line(i ? "         " : "chain    ", buf, 9, width);
    }
    if (json_is_string(json_object_get(r, "binder_reason")))
        card_line("         ", json_string_value(json_object_get(r, "binder_reason")), 9, width);
    printf("\n");
    return 0;
}

typedef struct card_ctx {
    int width;
    int n;
} card_ctx;

static int print_card_counted(void *ctx, json_t *r)
{
    card_ctx *c = ctx;
    c->n++;
    return print_card(&c->width, r);
}

static int fleet_groups(gd_ch *c, gd_row_fn fn, void *fn_ctx, void *arg, gd_error *err)
{
    gd_selection all = {.app = arg}; /* #47: --app keeps the app's processes' dumps */
    return gd_fleet_anr_groups(c, arg ? &all : NULL, fn, fn_ctx, err);
}

/* 1 when the options go with --clickhouse: --group alone (no option that needs one database). */
static int fleet_alone(int group, int all, long id, const char *context, size_t ntraces)
{
    return group && !all && !id && !context && !ntraces;
}

/* #48: --group over the fleet in ClickHouse (the signatures godeye push
 * sent with the ANR rows); the other options need one database. */
static int anr_fleet(gd_ctx *ctx, const gd_cli_ch *co, int group_only, const char *app, gd_out_mode mode)
{
    if (!group_only) {
        fprintf(stderr, "godeye anr: --clickhouse goes with --group (and --app, --format, --wide; no --all, --id,"
                        " --context, --trace)\n");
        return GD_EXIT_USAGE;
    }
    return gd_cli_fleet_listing(ctx, co, mode, group_columns, sizeof group_columns / sizeof group_columns[0],
                                fleet_groups, (void *)(app && *app ? app : NULL));
}

int cmd_anr(int argc, char **argv, gd_ctx *ctx)
{
    const char *format = NULL, *app = NULL, *context = NULL;
    int all = 0, group = 0;
    long id = 0;
    gd_int_list traces = {0};
    gd_cli_ch co = {0};
    const gd_option opts[] = {
        OPT_APP(&app),
        OPT_BOOL_(0, "all", &all, "list every dump, the quiet snapshot dumps too"),
        OPT_BOOL_(0, "group", &group, "the ANRs in groups of one signature (type, main's top app frames)"),
        OPT_INT_(0, "id", &id, "N", "one dump in full (its row's id): reason, type, stacks, chain, wait channels"),
        OPT_STRING_(0, "context", &context, "DUR",
                    "what the database holds for each ANR's process in the DUR (10s, 500ms, 1m) before its dump"),
        OPT_LISTING(&format, &traces),
        OPT_CLICKHOUSE(&co),
        OPT_END_(),
    };
    const char *usage = "godeye anr [OPTIONS]";
    gd_cli_describe_variant(ctx, "group", group_columns, sizeof group_columns / sizeof group_columns[0], 0);
    gd_cli_describe_variant(ctx, "context", context_columns, sizeof context_columns / sizeof context_columns[0], 0);
    if (gd_cli_describe(ctx, usage, opts, anr_columns, sizeof anr_columns / sizeof anr_columns[0]))
        return GD_EXIT_OK;
    int nargs, rc = gd_parse_options(argc, argv, opts, usage, &nargs);
    if (rc)
        return rc == 1 ? GD_EXIT_OK : GD_EXIT_USAGE;
    if (nargs) {
        gd_cli_say(ctx, "unexpected argument '%s'", argv[0]);
        return GD_EXIT_USAGE;
    }
    double window_ms = 0;
    if (context && gd_capture_parse_duration(context, &window_ms)) {
        gd_cli_say(ctx, "--context wants a duration (10s, 500ms, 1m), not '%s'", context);
        return GD_EXIT_USAGE;
    }
    if (co.url)
        return anr_fleet(ctx, &co, fleet_alone(group, all, id, context, traces.n), app, gd_cli_mode(format));
    gd_store *s;
    if ((rc = gd_cli_open_listing(ctx, &traces, &s)))
        return rc;
    gd_out_mode mode = gd_cli_mode(format);
    if (context) {
        gd_anr_query cq = {.filter = gd_cli_filter(&traces), .app = app, .all = 1, .id = id};
        return anr_context(ctx, s, mode, &cq, window_ms);
    }
    if (group) {
        gd_anr_query gq = {.filter = gd_cli_filter(&traces), .app = app, .all = 1};
        gd_renderer *gr = gd_cli_renderer(ctx, s, mode, group_columns, sizeof group_columns / sizeof group_columns[0]);
        gd_error err = {0};
        rc = gd_query_anr_groups(s, &gq, gd_cli_render_cb, gr, &err);
        int wrc = gd_cli_render_end(ctx, gr);
        gd_store_close(s);
        if (rc)
            return gd_cli_fail(ctx, &err);
        return wrc ? GD_EXIT_FAIL : GD_EXIT_OK;
    }
    if (id > 0 && mode == GD_OUT_TABLE) {
        /* one dump, as a card */
        gd_anr_counts n = {0};
        gd_anr_query iq = {.filter = gd_cli_filter(&traces), .app = app, .all = 1, .id = id, .counts = &n};
        int width = gd_cli_width(ctx);
        card_ctx cc = {width, 0};
        gd_error err = {0};
        rc = gd_query_anr_list(s, &iq, print_card_counted, &cc, &err);
        gd_store_close(s);
        if (rc)
            return gd_cli_fail(ctx, &err);
        if (!cc.n) {
            gd_cli_say(ctx, "no ANR dump with id %ld (godeye anr --all --format json lists the ids)", id);
            return GD_EXIT_FAIL;
        }
        return GD_EXIT_OK;
    }
    gd_renderer *r = gd_cli_renderer(ctx, s, mode, anr_columns, sizeof anr_columns / sizeof anr_columns[0]);
    gd_anr_counts counts = {0}, total = {0};
    gd_anr_query q = {.filter = gd_cli_filter(&traces), .app = app, .all = all || id > 0, .counts = &counts, .id = id};
    gd_error err = {0};
    rc = gd_query_anr_list(s, &q, gd_cli_render_cb, r, &err);
    if (!rc)
        rc = gd_query_anr_count(s, &q.filter, &total, &err);
    /* #47: --app that matched no ANR says why (no such app, no dump) */
    gd_filter af = gd_cli_filter_app(&traces, app);
    if (!rc && af.app && !gd_render_rows(r))
        gd_cli_say_empty(ctx, s, &af, "anr_dump", "ANR dumps");
    int wrc = gd_cli_render_end(ctx, r);
    gd_store_close(s);
    if (rc)
        return gd_cli_fail(ctx, &err);
    if (mode == GD_OUT_TABLE && !wrc) {
        /* the count every output gives (gd_query_anr_count), then what was folded */
        printf("%s%lld ANR%s: %lld dump%s the system took for an ANR, %lld main-thread block%s of kind anr;"
               " %lld other dump%s (snapshots, never counted)\n",
               app ? "every app: " : "", (long long)total.total, total.total == 1 ? "" : "s", (long long)total.dumps,
               total.dumps == 1 ? "" : "s", (long long)total.blocks, total.blocks == 1 ? "" : "s",
               (long long)total.snapshots, total.snapshots == 1 ? "" : "s");
        if (counts.folded)
            printf("%lld quiet snapshot dump%s not shown (not the ANR, no lock wait, no deadlock): --all lists them\n",
                   (long long)counts.folded, counts.folded == 1 ? "" : "s");
    }
    return wrc ? GD_EXIT_FAIL : GD_EXIT_OK;
}
