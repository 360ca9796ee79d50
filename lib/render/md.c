/* md.c - the report as a Markdown summary for pull-request comments. */
#include <stdio.h>
#include <string.h>

#include "core/escape.h"
#include "render/render.h"
#include "report.h"

/* Writes `s` as inline code, safe in a Markdown table cell and on a
 * terminal (control and bidi characters as visible escapes). */
static void code(FILE *out, const char *s)
{
    if (!s) {
        fputs("-", out);
        return;
    }
    fputc('`', out);
    char esc[16];
    size_t skip;
    for (const char *p = s; *p; p++) {
        if (*p != '\n' && *p != '\r' && gd_escape_at(p, esc, &skip)) {
            fputs(esc, out); /* ESC, BEL, C1, bidi: visible, as in the tables */
            p += skip - 1;
        } else if (*p == '`')
            fputc('\'', out);
        else if (*p == '|')
            fputs("\\|", out);
        else if (*p == '\n' || *p == '\r')
            fputc(' ', out);
        else
            fputc(*p, out);
    }
    fputc('`', out);
}

static const char *str(const json_t *o, const char *k)
{
    return json_string_value(json_object_get(o, k));
}

static double dbl(const json_t *o, const char *k)
{
    return json_number_value(json_object_get(o, k));
}

static void ms_cell(FILE *out, const json_t *v)
{
    if (json_is_number(v))
        fprintf(out, "%.1f ms", json_number_value(v));
    else
        fputs("-", out);
}

/* A time of trace `trace` as the one rule shows it. */
static const char *when(const json_t *doc, const json_t *trace, const json_t *v, int tz_min, char *buf,
                        size_t n)
{
    gd_clock c = gd_report_clock(doc, json_integer_value(trace));
    if (!json_is_number(v)) {
        snprintf(buf, n, "-");
        return buf;
    }
    return gd_time_label(json_number_value(v), &c, tz_min, buf, n);
}

/* The traces, and the summary counts. */
static void md_summary(FILE *out, const json_t *doc, int tz_min)
{
    const json_t *m = json_object_get(doc, "summary");
    size_t i;
    json_t *r;
    char buf[96];
    fprintf(out, "## godeye report\n\n");
    json_array_foreach(json_object_get(doc, "traces"), i, r) {
        fputs("- trace ", out);
        fprintf(out, "%lld: ", (long long)json_integer_value(json_object_get(r, "trace")));
        code(out, str(r, "app"));
        fputs(" on ", out);
        code(out, str(r, "device"));
        fprintf(out, ", %.1f s", (dbl(r, "end_ms") - dbl(r, "start_ms")) / 1000.0);
        if (gd_clock_of_trace_row(r).kind == GD_CLOCK_MONOTONIC)
            fputs(" (monotonic clock: times are offsets from its start)\n", out);
        else if (json_is_number(json_object_get(r, "start_ms")))
            fprintf(out, " from %s\n", when(doc, json_object_get(r, "trace"),
                                            json_object_get(r, "start_ms"), tz_min, buf, sizeof buf));
        else
            fputc('\n', out);
    }
    fprintf(out, "\n| dispatches | blocks | long | ANR | pages | view dumps | images | frames |\n"
                 "|---:|---:|---:|---:|---:|---:|---:|---:|\n"
                 "| %lld | %lld | %lld | %lld | %lld | %lld | %lld | %lld |\n",
            (long long)json_integer_value(json_object_get(m, "dispatches")),
            (long long)json_integer_value(json_object_get(m, "blocks")),
            (long long)json_integer_value(json_object_get(m, "long")),
            (long long)json_integer_value(json_object_get(m, "anr")),
            (long long)json_integer_value(json_object_get(m, "pages")),
            (long long)json_integer_value(json_object_get(m, "dumps")),
            (long long)json_integer_value(json_object_get(m, "images")),
            (long long)json_integer_value(json_object_get(m, "frames")));
}

/* The worst blocks and the top block groups. */
static void md_blocks(FILE *out, const json_t *doc, int tz_min)
{
    size_t i;
    json_t *r;
    char buf[96];
    if (json_array_size(json_object_get(doc, "worst_blocks"))) {
        fprintf(out, "\n### Worst blocks\n\n| ms | kind | block | trace | thread | start | samples | key frame |\n"
                     "|---:|---|---:|---:|---|---|---:|---|\n");
        json_array_foreach(json_object_get(doc, "worst_blocks"), i, r) {
            fprintf(out, "| %.1f | %s | %lld | %lld | ", dbl(r, "duration_ms"), str(r, "kind"),
                    (long long)json_integer_value(json_object_get(r, "id")),
                    (long long)json_integer_value(json_object_get(r, "trace")));
            /* "main", else the thread's name (from the capture) or its tid */
            if (str(r, "thread"))
                code(out, str(r, "thread"));
            else
                fprintf(out, "tid %lld", (long long)json_integer_value(json_object_get(r, "tid")));
            fprintf(out, " | %s | %lld | ",
                    when(doc, json_object_get(r, "trace"), json_object_get(r, "start_ms"), tz_min, buf,
                         sizeof buf),
                    (long long)json_integer_value(json_object_get(r, "samples")));
            if (str(r, "key_frame"))
                code(out, str(r, "key_frame"));
            else
                fputs(json_integer_value(json_object_get(r, "samples")) ? "(no app frame)" : "no samples", out);
            fputs(" |\n", out);
        }
    }
    if (json_array_size(json_object_get(doc, "groups"))) {
        fprintf(out, "\n### Top block groups\n\n| count | total | p95 | max | group |\n|---:|---:|---:|---:|---|\n");
        json_array_foreach(json_object_get(doc, "groups"), i, r) {
            if (i >= 10)
                break;
            fprintf(out, "| %lld | %.1f ms | %.1f ms | %.1f ms | ",
                    (long long)json_integer_value(json_object_get(r, "count")), dbl(r, "total_ms"),
                    dbl(r, "p95_ms"), dbl(r, "max_ms"));
            code(out, str(r, "group"));
            fputs(" |\n", out);
        }
    }
}

/* Slow pages and overdraw. */
static void md_pages(FILE *out, const json_t *doc, int tz_min)
{
    size_t i;
    json_t *r;
    (void)tz_min;
    if (json_array_size(json_object_get(doc, "slow_pages"))) {
        fprintf(out, "\n### Slow pages (draw or load over %.0f ms)\n\n| page | draw | load |\n|---|---:|---:|\n",
                dbl(json_object_get(doc, "thresholds"), "page_ok_ms"));
        json_array_foreach(json_object_get(doc, "slow_pages"), i, r) {
            fputs("| ", out);
            code(out, str(r, "page"));
            fputs(" | ", out);
            ms_cell(out, json_object_get(r, "draw_ms"));
            fputs(" | ", out);
            ms_cell(out, json_object_get(r, "load_ms"));
            fputs(" |\n", out);
        }
    }
    if (json_array_size(json_object_get(doc, "overdraw"))) {
        fprintf(out, "\n### Overdraw\n\n| page | views | depth | ratio | 4x+ px |\n|---|---:|---:|---:|---:|\n");
        json_array_foreach(json_object_get(doc, "overdraw"), i, r) {
            fputs("| ", out);
            code(out, str(r, "page") ? str(r, "page") : str(r, "window"));
            json_t *px4 = json_object_get(json_object_get(r, "overdraw_px"), "4+");
            fprintf(out, " | %lld | %lld/%lld | ", (long long)json_integer_value(json_object_get(r, "views")),
                    (long long)json_integer_value(json_object_get(r, "max_depth")),
                    (long long)json_integer_value(json_object_get(r, "depth_limit")));
            if (json_is_number(json_object_get(r, "overdraw_ratio")))
                fprintf(out, "%.2f", dbl(r, "overdraw_ratio"));
            else
                fputs("-", out);
            if (json_is_integer(px4))
                fprintf(out, " | %lld |\n", (long long)json_integer_value(px4));
            else
                fputs(" | - |\n", out);
        }
    }
}

/* Images by wasted bytes. */
static void md_images(FILE *out, const json_t *doc, int tz_min)
{
    size_t i;
    json_t *r;
    (void)tz_min;
    if (json_array_size(json_object_get(doc, "images"))) {
        fprintf(out, "\n### Images (by wasted bytes)\n\n| wasted | issue | bitmap | view | page |\n|---:|---|---|---|---|\n");
        json_array_foreach(json_object_get(doc, "images"), i, r) {
            if (i >= 10)
                break;
            json_t *b = json_object_get(r, "bitmap"), *v = json_object_get(r, "view");
            /* sizes as every table shows them (B, KB, MB) */
            static const gd_column bytes_col = {"wasted_bytes", "WASTED", GD_COL_BYTES, .flex = 0, .hidden = 0};
            char size[64];
            gd_render_cell(&bytes_col, json_object_get(r, "wasted_bytes"), size, sizeof size);
            fprintf(out, "| %s | %s | %lldx%lld | ", size,
                    str(r, "issue") ? str(r, "issue") : "-",
                    (long long)json_integer_value(json_array_get(b, 0)),
                    (long long)json_integer_value(json_array_get(b, 1)));
            if (json_is_array(v))
                fprintf(out, "%lldx%lld", (long long)json_integer_value(json_array_get(v, 0)),
                        (long long)json_integer_value(json_array_get(v, 1)));
            else
                fputs("-", out);
            fputs(" | ", out);
            code(out, str(r, "page"));
            fputs(" |\n", out);
        }
    }
}

/* #27: the launches [from, to) of doc.startups read from a trace's slices,
 * phase by phase (the query's startup_phase rows; godeye-startup(1),
 * Breakdown), 20 launches at most: #47, the app's under its startup table,
 * the other processes' under theirs (the HTML report's startupTable). */
static void md_startup_phases(FILE *out, const json_t *doc, size_t from, size_t to)
{
    static const char *const cols[][2] = {
        {"before_process_start", "before proc"}, {"start_process", "start proc"},
        {"bind_application", "bindApplication"}, {"activity_start", "activityStart"},
        {"activity_resume", "activityResume"}, {"first_frame", "first frame"},
        {"fully_drawn", "reportFullyDrawn"},
    };
    size_t i, n = 0;
    json_t *r;
    json_array_foreach(json_object_get(doc, "startups"), i, r) {
        if (i < from || i >= to || i >= from + 20 || json_object_size(json_object_get(r, "phases")) == 0)
            continue;
        if (n++ == 0) {
            fputs("\nBreakdown (from the trace's slices; main thread Running / runnable during the launch):\n\n"
                  "| app | total |", out);
            for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++)
                fprintf(out, " %s |", cols[c][1]);
            fputs(" main running | main runnable |\n|---|---:|", out);
            for (size_t c = 0; c < sizeof cols / sizeof cols[0] + 2; c++)
                fputs("---:|", out);
            fputs("\n", out);
        }
        const json_t *ph = json_object_get(r, "phases"), *launch = json_object_get(ph, "launch");
        fputs("| ", out);
        code(out, str(r, "app"));
        fputs(" | ", out);
        ms_cell(out, json_object_get(r, "total_ms"));
        for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++) {
            fputs(" | ", out);
            ms_cell(out, json_object_get(json_object_get(ph, cols[c][0]), "dur_ms"));
        }
        fputs(" | ", out);
        ms_cell(out, json_object_get(launch, "running_ms"));
        fputs(" | ", out);
        ms_cell(out, json_object_get(launch, "runnable_ms"));
        fputs(" |\n", out);
    }
}

/* Launches [from, to) of doc.startups against the vitals bars, 20 at most. */
static size_t md_startup_rows(FILE *out, const json_t *doc, size_t from, size_t to)
{
    fprintf(out, "| total | kind | vitals | app | activity | source |\n|---:|---|---|---|---|---|\n");
    size_t i;
    for (i = from; i < to && i < from + 20; i++) {
        json_t *r = json_array_get(json_object_get(doc, "startups"), i), *slow = json_object_get(r, "slow");
        fputs("| ", out);
        ms_cell(out, json_object_get(r, "total_ms"));
        /* an unknown kind is graded against the bar it names (graded_as: cold) */
        if (str(r, "kind"))
            fprintf(out, " | %s | ", str(r, "kind"));
        else
            fprintf(out, " | unknown (graded as %s) | ", str(r, "graded_as") ? str(r, "graded_as") : "-");
        fprintf(out, "%s | ", json_is_true(slow) ? "**slow**" : json_is_false(slow) ? "ok" : "-");
        code(out, str(r, "app"));
        fputs(" | ", out);
        code(out, str(r, "activity"));
        fputs(" | ", out);
        code(out, str(r, "source"));
        fputs(" |\n", out);
    }
    return i - from;
}

/* App launches against the vitals bars: the app's (#47: the rows the
 * query put first), then the other processes' and how many frame windows
 * of theirs the page folds (doc.other_processes). */
static void md_startups(FILE *out, const json_t *doc, int tz_min)
{
    (void)tz_min;
    const json_t *other = json_object_get(doc, "other_processes"), *th = json_object_get(doc, "thresholds");
    size_t n = json_array_size(json_object_get(doc, "startups"));
    size_t no = (size_t)json_integer_value(json_object_get(other, "startups")), mine = n - (no < n ? no : n);
    size_t nf = (size_t)json_integer_value(json_object_get(other, "frames"));
    if (mine) {
        fprintf(out, "\n### Startup (Android vitals: slow at %.1f s cold, %.1f s warm, %.1f s hot)\n\n",
                dbl(th, "startup_cold_ms") / 1000.0, dbl(th, "startup_warm_ms") / 1000.0,
                dbl(th, "startup_hot_ms") / 1000.0);
        md_startup_rows(out, doc, 0, mine);
        json_t *total = json_object_get(doc, "startups_total");
        if (json_integer_value(total) > (json_int_t)n)
            fprintf(out, "\n%zu of %lld launches listed.\n", n, (long long)json_integer_value(total));
        md_startup_phases(out, doc, 0, mine);
    }
    if (!(n - mine) && !nf)
        return;
    fprintf(out, "\n### Other processes\n\n%zu launch%s and %zu frame window%s of processes other than the app "
                 "(other apps, system apps and layers; the HTML report folds them)%s\n",
            n - mine, n - mine == 1 ? "" : "es", nf, nf == 1 ? "" : "s", n - mine ? ":\n" : ".");
    if (n - mine) {
        md_startup_rows(out, doc, mine, n);
        md_startup_phases(out, doc, mine, n);
    }
}

/* Two versions compared. */
static void md_versions(FILE *out, const json_t *doc, int tz_min)
{
    size_t i;
    json_t *r;
    (void)tz_min;
    const json_t *v = json_object_get(doc, "versions");
    if (json_is_object(v)) {
        fprintf(out, "\n### Versions\n\n");
        code(out, str(v, "base"));
        fputs(" (base) against ", out);
        code(out, str(v, "head"));
        fprintf(out, " (head): %lld changed, %lld the same, %lld inconclusive.\n",
                (long long)json_integer_value(json_object_get(v, "changed_total")),
                (long long)json_integer_value(json_object_get(v, "same")),
                (long long)json_integer_value(json_object_get(v, "inconclusive")));
        if (json_array_size(json_object_get(v, "changed")))
            fputs("\n| status | kind | name | base p95 | head p95 | base count | head count |\n"
                  "|---|---|---|---:|---:|---:|---:|\n",
                  out);
        json_array_foreach(json_object_get(v, "changed"), i, r) {
            if (i >= 20)
                break;
            const json_t *b = json_object_get(r, "base"), *h = json_object_get(r, "head");
            fprintf(out, "| %s | %s | ", str(r, "status") ? str(r, "status") : "-",
                    str(r, "kind") ? str(r, "kind") : "-");
            code(out, str(r, "name"));
            fputs(" | ", out);
            ms_cell(out, json_object_get(b, "p95_ms"));
            fputs(" | ", out);
            ms_cell(out, json_object_get(h, "p95_ms"));
            fprintf(out, " | %lld | %lld |\n", (long long)json_integer_value(json_object_get(b, "count")),
                    (long long)json_integer_value(json_object_get(h, "count")));
        }
    }
}

/* What to fix first (godeye top), ranked. */
static void md_top(FILE *out, const json_t *doc)
{
    const json_t *top = json_object_get(doc, "top");
    if (!json_array_size(top))
        return;
    fputs("\n### What to fix first\n\n| # | kind | ms lost per min | what | more |\n|---|---|---|---|---|\n", out);
    size_t i;
    const json_t *e;
    json_array_foreach(top, i, e) {
        fprintf(out, "| %lld | %s | ", (long long)json_integer_value(json_object_get(e, "rank")), str(e, "kind"));
        const json_t *sc = json_object_get(e, "score_ms_per_min");
        if (json_is_number(sc))
            fprintf(out, "%.1f", json_number_value(sc));
        else
            fputs("-", out);
        fputs(" | ", out);
        code(out, str(e, "title"));
        fputs(" | ", out);
        code(out, str(e, "command"));
        fputs(" |\n", out);
    }
    json_int_t more = json_integer_value(json_object_get(doc, "top_more"));
    if (more)
        fprintf(out, "\n%lld more: `godeye top --limit 50`.\n", (long long)more);
}

/* #48: the ANR dumps listed (ANRs of record first), with main's state,
 * the holder of its lock and the binder chain across processes (a
 * cross-process cycle says so), then the ANR groups (anr --group). */
static void md_anrs(FILE *out, const json_t *doc, int tz_min)
{
    const json_t *as = json_object_get(doc, "anrs"), *a, *n;
    size_t i, k;
    char buf[64], chain[2048];
    if (json_array_size(as)) {
        fputs("\n### ANRs\n\n| trace | dump | process | role | type | main | blocked by | binder chain |\n"
              "|---:|---|---|---|---|---|---|---|\n", out);
        json_array_foreach(as, i, a) {
            const json_t *m = json_object_get(a, "main");
            fprintf(out, "| %lld | %s | ", (long long)json_integer_value(json_object_get(a, "trace")),
                    when(doc, json_object_get(a, "trace"), json_object_get(a, "ts_ms"), tz_min, buf, sizeof buf));
            code(out, str(a, "process"));
            fprintf(out, " | %s | %s | ", json_is_true(json_object_get(a, "anr")) ? "ANR of record" : "snapshot",
                    str(a, "type_label") ? str(a, "type_label") : "-");
            const char *st = str(m, "state") ? str(m, "state") : str(m, "kernel_state");
            if (st && !str(m, "state") && str(m, "wchan")) {
                snprintf(chain, sizeof chain, "%s %s", st, str(m, "wchan"));
                st = chain;
            }
            code(out, st);
            fputs(" | ", out);
            const json_t *bp = json_object_get(json_object_get(a, "binder_peer"), "waits_on");
            code(out, str(m, "held_by_name") ? str(m, "held_by_name") : str(bp, "held_by_name"));
            fputs(" | ", out);
            size_t used = 0;
            chain[0] = 0;
            json_array_foreach(json_object_get(a, "binder_chain"), k, n)
                if (used < sizeof chain)
                    used += (size_t)snprintf(chain + used, sizeof chain - used, "%s%lld:%lld %s%s%s", k ? " -> " : "",
                                             (long long)json_integer_value(json_object_get(n, "pid")),
                                             (long long)json_integer_value(json_object_get(n, "tid")),
                                             str(n, "thread") ? str(n, "thread") : "?", str(n, "via") ? " via " : "",
                                             str(n, "via") ? str(n, "via") : "");
            if (str(a, "binder_reason") && used < sizeof chain)
                snprintf(chain + used, sizeof chain - used, "%s%s%s", used ? " (" : "",
                         json_is_true(json_object_get(a, "cross_process_cycle")) ? "cross-process deadlock: " : "",
                         str(a, "binder_reason"));
            if (str(a, "binder_reason") && used && strlen(chain) + 1 < sizeof chain)
                strcat(chain, ")");
            code(out, chain[0] ? chain : NULL);
            fputs(" |\n", out);
        }
        json_int_t total = json_integer_value(json_object_get(doc, "anrs_total"));
        if ((size_t)total > json_array_size(as))
            fprintf(out, "\n%zu of %lld dumps shown: `godeye anr`.\n", json_array_size(as), (long long)total);
    }
    const json_t *gs = json_object_get(doc, "anr_groups"), *g;
    if (!json_array_size(gs))
        return;
    fputs("\n### ANR groups\n\n| dumps | type | apps | versions | dump | signature |\n|---:|---|---|---|---:|---|\n", out);
    json_array_foreach(gs, i, g) {
        fprintf(out, "| %lld | %s | ", (long long)json_integer_value(json_object_get(g, "count")),
                str(g, "type_label") ? str(g, "type_label") : "-");
        size_t used = 0;
        chain[0] = 0;
        json_array_foreach(json_object_get(g, "apps"), k, n)
            if (used < sizeof chain)
                used += (size_t)snprintf(chain + used, sizeof chain - used, "%s%s", k ? ", " : "", json_string_value(n));
        code(out, chain[0] ? chain : NULL);
        fputs(" | ", out);
        const char *fv = str(g, "first_version"), *lv = str(g, "last_version");
        if (fv && lv && strcmp(fv, lv) != 0) {
            snprintf(chain, sizeof chain, "%s..%s", fv, lv);
            fv = chain;
        }
        code(out, fv);
        fprintf(out, " | %lld | ", (long long)json_integer_value(json_object_get(g, "id")));
        code(out, str(g, "signature"));
        fputs(" |\n", out);
    }
    json_int_t total = json_integer_value(json_object_get(doc, "anr_groups_total"));
    if ((size_t)total > json_array_size(gs))
        fprintf(out, "\n%zu of %lld groups shown: `godeye anr --group`.\n", json_array_size(gs), (long long)total);
}

int gd_render_md(FILE *out, const json_t *doc, int tz_min)
{
    md_summary(out, doc, tz_min);
    md_top(out, doc);
    md_anrs(out, doc, tz_min);
    md_blocks(out, doc, tz_min);
    md_pages(out, doc, tz_min);
    md_images(out, doc, tz_min);
    md_startups(out, doc, tz_min);
    md_versions(out, doc, tz_min);
    return ferror(out) ? -1 : 0;
}
