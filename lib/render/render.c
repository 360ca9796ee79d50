/* render.c - table, csv, json and jsonl output of rows described by columns. */
#include "render/render.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/escape.h"
#include "core/util.h"
#include "render/junit.h"
#include "render/render_int.h"

/* Appends row as compact JSON to the text written in blocks (json_dumpf
 * writes token by token, which was a third of `blocks`' time for large
 * answers). */
static int dump_row(gd_renderer *r, json_t *row)
{
    size_t room = r->text.cap - r->text.n;
    size_t n = json_dumpb(row, r->text.p ? r->text.p + r->text.n : NULL, room, JSON_FLAGS);
    if (n == 0)
        return -1;
    if (n > room) {
        if (gd_text_reserve(&r->text, n) ||
            json_dumpb(row, r->text.p + r->text.n, n, JSON_FLAGS) != n)
            return -1;
    }
    r->text.n += n;
    return 0;
}

int gd_out_mode_parse(const char *s)
{
    static const char *const names[] = {"table", "csv", "json", "jsonl", "md", "junit"};
    for (int i = 0; i < 6; i++)
        if (strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

gd_renderer *gd_render_new(FILE *out, gd_out_mode mode, const gd_column *cols, size_t ncols,
                           int width)
{
    gd_renderer *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->out = out;
    r->mode = mode;
    r->cols = cols;
    r->ncols = ncols;
    r->width = width > 0 ? width : 100;
    r->tz_min = GD_TZ_NONE;
    if (mode == GD_OUT_TABLE || mode == GD_OUT_MD || mode == GD_OUT_JUNIT)
        r->buffered = json_array();
    if (mode == GD_OUT_CSV) {
        for (size_t i = 0; i < ncols; i++)
            fprintf(out, "%s%s", i ? "," : "", cols[i].key);
        fputc('\n', out);
    }
    return r;
}

gd_clock gd_clock_of_trace_row(const json_t *row)
{
    json_t *off = json_object_get(row, "utc_offset_min"), *start = json_object_get(row, "start_ms");
    gd_clock c = gd_clock_unknown();
    c.kind = gd_clock_kind_parse(json_string_value(json_object_get(row, "clock")));
    if (json_is_number(start))
        c.origin_ms = json_number_value(start);
    if (json_is_integer(off))
        c.utc_offset_min = json_integer_value(off);
    return c;
}

int gd_render_clock(gd_renderer *r, int64_t trace, const gd_clock *c)
{
    for (size_t i = 0; i < r->nclocks; i++)
        if (r->clocks[i].trace == trace) {
            r->clocks[i].c = *c;
            return 0;
        }
    if (gd_grow((void **)&r->clocks, &r->clocks_cap, r->nclocks + 1, sizeof *r->clocks, NULL))
        return -1;
    r->clocks[r->nclocks].trace = trace;
    r->clocks[r->nclocks++].c = *c;
    return 0;
}

void gd_render_tz(gd_renderer *r, int tz_min) { r->tz_min = tz_min; }

int gd_render_wants_clocks(const gd_renderer *r)
{
    if (r->mode != GD_OUT_TABLE)
        return 0;
    for (size_t c = 0; c < r->ncols; c++)
        if (r->cols[c].type == GD_COL_TIME)
            return 1;
    return 0;
}

/* The clock of a row's trace (unknown when the row names none). */
const gd_clock *gd_render_row_clock(const gd_renderer *r, json_t *row)
{
    json_t *t = json_object_get(row, "trace");
    if (json_is_integer(t))
        for (size_t i = 0; i < r->nclocks; i++)
            if (r->clocks[i].trace == json_integer_value(t))
                return &r->clocks[i].c;
    return NULL;
}

const char *gd_render_time(const gd_renderer *r, json_t *row, json_t *v, char *buf, size_t n)
{
    if (!json_is_number(v)) {
        snprintf(buf, n, "-");
        return buf;
    }
    return gd_time_label(json_number_value(v), gd_render_row_clock(r, row), r->tz_min, buf, n);
}

/* A text cell that a spreadsheet would run as a formula (=, +, -, @, tab,
 * CR first) gets a leading ' (as OWASP advises for CSV exports); numbers
 * are never text here. */
/* One character of a CSV field: quoting keeps \n, \r and \t; every other
 * character a table cell escapes (ESC, BEL, C1, bidi) is escaped the same
 * way, so no CSV reaches a terminal raw. */
static void csv_char(FILE *out, const char **s)
{
    char esc[16];
    size_t skip;
    if (**s != '\n' && **s != '\r' && **s != '\t' && gd_escape_at(*s, esc, &skip)) {
        fputs(esc, out);
        *s += skip - 1;
        return;
    }
    if (**s == '"')
        fputc('"', out);
    fputc(**s, out);
}

void gd_render_csv_field(FILE *out, const char *s, int text)
{
    if (text && (*s == '=' || *s == '+' || *s == '-' || *s == '@' || *s == '\t' || *s == '\r')) {
        fputc('"', out);
        fputc('\'', out);
        for (; *s; s++)
            csv_char(out, &s);
        fputc('"', out);
        return;
    }
    int quote = strpbrk(s, ",\"\n\r") != NULL;
    if (quote)
        fputc('"', out);
    for (; *s; s++)
        csv_char(out, &s);
    if (quote)
        fputc('"', out);
}

static char *value_text(json_t *v)
{
    if (!v || json_is_null(v))
        return strdup("");
    if (json_is_string(v))
        return strdup(json_string_value(v));
    if (json_is_true(v))
        return strdup("true");
    if (json_is_false(v))
        return strdup("false");
    return json_dumps(v, JSON_FLAGS | JSON_ENCODE_ANY);
}

/* A copy of v with every real rounded to 3 decimals (milliseconds to the
 * microsecond, ratios to a thousandth): what a person reads in a cell. */
static json_t *rounded(json_t *v)
{
    if (json_is_real(v)) {
        double d = json_real_value(v);
        return json_real(isfinite(d) ? round(d * 1000) / 1000 : d);
    }
    if (json_is_array(v)) {
        json_t *a = json_array();
        size_t i;
        json_t *e;
        json_array_foreach(v, i, e)
            json_array_append_new(a, rounded(e));
        return a;
    }
    if (json_is_object(v)) {
        json_t *o = json_object();
        const char *k;
        json_t *e;
        json_object_foreach(v, k, e)
            json_object_set_new(o, k, rounded(e));
        return o;
    }
    return json_incref(v);
}

/* value_text for tables and Markdown: numbers inside objects rounded. */
static char *human_text(json_t *v)
{
    if (!json_is_object(v) && !json_is_array(v) && !json_is_real(v))
        return value_text(v);
    json_t *r = rounded(v);
    char *t = value_text(r);
    json_decref(r);
    return t;
}

json_t *gd_render_get(const json_t *row, const char *path)
{
    json_t *v = (json_t *)row;
    while (v) {
        size_t n = strcspn(path, ".");
        char head[64], *end;
        if (n >= sizeof head)
            return NULL;
        memcpy(head, path, n);
        head[n] = '\0';
        if (json_is_array(v)) {
            unsigned long k = strtoul(head, &end, 10);
            v = n && *end == '\0' ? json_array_get(v, k) : NULL;
        } else {
            v = json_object_get(v, head);
        }
        if (!path[n])
            return v;
        path += n + 1;
    }
    return NULL;
}

json_t *gd_render_col_value(const gd_column *c, const json_t *row)
{
    return gd_render_get(row, c->path ? c->path : c->key);
}

void gd_render_nodes(gd_renderer *r, const char *children) { r->children = children; }

/* A tree as rows (gd_render_nodes): the node, then its children. */
static int node_rows(gd_renderer *r, json_t *root, json_t *node, int depth)
{
    json_t *flat = json_copy(node), *v, *kid;
    const char *k;
    if (!flat || json_object_set_new(flat, "depth", json_integer(depth))) {
        json_decref(flat);
        return -1;
    }
    json_object_foreach(root, k, v)
        if (!json_object_get(flat, k))
            json_object_set(flat, k, v);
    json_object_del(flat, r->children);
    const char *saved = r->children;
    r->children = NULL;
    int rc = gd_render_row(r, flat);
    r->children = saved;
    json_decref(flat);
    size_t i;
    json_array_foreach(json_object_get(node, r->children), i, kid)
        if (!rc)
            rc = node_rows(r, root, kid, depth + 1);
    return rc;
}

void gd_render_lines(gd_renderer *r, gd_lines_fn fn, void *ctx)
{
    r->lines = fn;
    r->lines_ctx = ctx;
}

int gd_render_row(gd_renderer *r, json_t *row)
{
    if (r->lines && r->mode == GD_OUT_TABLE) {
        r->nrows++;
        return r->lines(r->out, r, row, r->lines_ctx) || ferror(r->out) ? -1 : 0;
    }
    if (r->children && r->mode != GD_OUT_JSON && r->mode != GD_OUT_JSONL)
        return node_rows(r, row, row, 0);
    if (r->text.n)
        gd_render_values_flush(r);
    switch (r->mode) {
    case GD_OUT_TABLE:
    case GD_OUT_MD:
    case GD_OUT_JUNIT:
        json_array_append(r->buffered, row);
        break;
    case GD_OUT_CSV:
        for (size_t i = 0; i < r->ncols; i++) {
            if (i)
                fputc(',', r->out);
            if (r->cols[i].text) {
                char buf[4096];
                const char *t = r->cols[i].text(row, buf, sizeof buf);
                gd_render_csv_field(r->out, t ? t : "", t != NULL);
                continue;
            }
            json_t *v = gd_render_col_value(&r->cols[i], row);
            char *t = value_text(v);
            gd_render_csv_field(r->out, t ? t : "", json_is_string(v));
            free(t);
        }
        fputc('\n', r->out);
        break;
    case GD_OUT_JSON:
        if (gd_text_put(&r->text, r->nrows ? ",\n" : "[\n", 2) || dump_row(r, row))
            r->failed = 1;
        gd_render_values_flush_at(r);
        break;
    case GD_OUT_JSONL:
        if (dump_row(r, row) || gd_text_put(&r->text, "\n", 1))
            r->failed = 1;
        gd_render_values_flush_at(r);
        break;
    }
    r->nrows++;
    return ferror(r->out) || r->failed ? -1 : 0;
}

const char *gd_render_cell(const gd_column *c, json_t *v, char *buf, size_t n)
{
    if (!v || json_is_null(v) || (json_is_array(v) && json_array_size(v) == 0)) {
        snprintf(buf, n, "-");
        return buf;
    }
    const char *no = c->words ? strchr(c->words, '|') : NULL;
    if (no && json_is_boolean(v)) { /* the column's words for true and false */
        if (json_is_true(v))
            snprintf(buf, n, "%.*s", (int)(no - c->words), c->words);
        else
            snprintf(buf, n, "%s", no + 1);
        return buf;
    }
    switch (c->type) {
    case GD_COL_MS:
        /* always ms: the header names the unit */
        if (json_is_number(v)) {
            snprintf(buf, n, "%.1f", json_number_value(v));
            return buf;
        }
        break;
    case GD_COL_TIME: {
        char zone[GD_ZONE_MAX];
        if (json_is_number(v) && gd_time_text(json_number_value(v), NULL, GD_TZ_NONE, buf, n, zone))
            return buf;
        break;
    }
    case GD_COL_BOOL:
        snprintf(buf, n, "%s", json_is_true(v) ? "yes" : json_is_false(v) ? "no" : "-");
        return buf;
    case GD_COL_WINDOW: {
        /* "pkg/Activity/android.view.ViewRootImpl@hash (visibility=N)"
         * reads as "pkg/Activity@hash" (cells are cut from the left) */
        const char *w = json_string_value(v), *vr = w ? strstr(w, "/android.view.ViewRootImpl@") : NULL;
        if (!vr)
            break;
        const char *at = vr + strlen("/android.view.ViewRootImpl"), *vis = strstr(at, " (visibility=");
        char t[1024];
        snprintf(t, sizeof t, "%.*s%.*s", (int)(vr - w), w, (int)(vis ? (size_t)(vis - at) : strlen(at)), at);
        return gd_escape_ctrl(t, buf, n);
    }
    case GD_COL_NUM:
        if (json_is_number(v)) {
            double x = json_number_value(v);
            snprintf(buf, n, fabs(x) >= 100 ? "%.0f" : "%.3g", x);
            return buf;
        }
        break;
    case GD_COL_BYTES:
        if (json_is_number(v)) {
            double b = json_number_value(v);
            if (b >= 1 << 20)
                snprintf(buf, n, "%.1f MB", b / (1 << 20));
            else if (b >= 1 << 10)
                snprintf(buf, n, "%.1f KB", b / (1 << 10));
            else
                snprintf(buf, n, "%.0f B", b);
            return buf;
        }
        break;
    default:
        break;
    }
    char *t = human_text(v);
    /* one line per cell, and nothing a terminal would obey: control
     * characters from a capture become visible escapes (\e, \n, \x07) */
    gd_escape_ctrl(t ? t : "", buf, n);
    free(t);
    return buf;
}

int gd_render_end(gd_renderer *r)
{
    if (!r)
        return -1;
    gd_render_values_flush(r);
    switch (r->mode) {
    case GD_OUT_TABLE:
        gd_render_flush_table(r);
        break;
    case GD_OUT_MD:
        gd_render_flush_md(r);
        break;
    case GD_OUT_JUNIT:
        if (gd_render_junit(r->out, "godeye check", r->buffered))
            r->failed = 1;
        break;
    case GD_OUT_JSON:
        fputs(r->nrows ? "\n]\n" : "[]\n", r->out);
        break;
    default:
        break;
    }
    int bad = r->failed || ferror(r->out) || fflush(r->out) != 0;
    json_decref(r->buffered);
    free(r->text.p);
    free(r->clocks);
    free(r);
    return bad ? -1 : 0;
}
