/* render.c - table, csv, json and jsonl output of rows described by columns. */
#include "render/render.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>

#include "core/escape.h"
#include "core/tmpfile.h"
#include "core/util.h"
#include "render/junit.h"
#include "core/row.h"
#include "render/jsontext.h"

#define JSON_FLAGS (JSON_COMPACT | JSON_REAL_PRECISION(16))

struct gd_renderer {
    FILE *out;
    gd_out_mode mode;
    const gd_column *cols;
    size_t ncols;
    int width;
    size_t nrows;
    size_t given;     /* rows the command gave (gd_render_rows) */
    json_t *buffered; /* table mode */
    FILE *spool;      /* table mode past TABLE_MEM_ROWS rows: all of them, JSON lines */
    int no_spool;     /* no temporary file could be made: rows stay in memory,
                       * at most TABLE_FALLBACK_ROWS of them */
    gd_error err;     /* why a table's rows could not be kept (the spool) */
    struct table_layout *lay; /* table mode: what the rows kept so far need */
    int relayout;     /* a clock or zone changed after rows were laid out */
    int failed;
    gd_text text;     /* json/jsonl: rows' text not yet written */
    struct trace_clock { int64_t trace; gd_clock c; } *clocks; /* table mode */
    size_t nclocks, clocks_cap;
    int tz_min;
    const char *children; /* rows are trees: their nodes' array field */
    gd_lines_fn lines;    /* table mode: rows written as lines by this   */
    void *lines_ctx;
};

/* A text cell that a spreadsheet would run as a formula gets a leading '. */
void gd_render_csv_field(FILE *out, const char *s, int text);

/* The value of column c in a row (NULL when absent). */
json_t *gd_render_col_value(const gd_column *c, const json_t *row);
/* The clock of a row's trace (NULL: unknown). */
const gd_clock *gd_render_row_clock(const gd_renderer *r, json_t *row);
/* Writes the json/jsonl text still held.  0, or -1. */
static int gd_render_values_flush(gd_renderer *r);
/* The same once the text held is a block's worth. */
static void gd_render_values_flush_at(gd_renderer *r);
/* What a table's layout needs of its rows, gathered as each row is kept
 * (the rows are then read once more, to print them): one per column. */
struct table_layout {
    size_t cw[2];   /* the widest cell, [0] with one zone label for the
                     * column (in its header), [1] with each cell's own */
    size_t cmin[2]; /* a flexible column's widest short frame (or whole
                     * cell), the narrowest it shrinks to first */
    int shown;      /* an auto-hidden column has a value in some row */
    int mixed;      /* a time column's rows have different zone labels */
    int zseen;
    char zfirst[GD_ZONE_MAX]; /* the zone label of its first time */
};

static struct table_layout *layout_new(size_t ncols);
static void layout_row(gd_renderer *r, json_t *row);
/* Table and Markdown modes: the buffered rows, printed. */
static void gd_render_flush_table(gd_renderer *r);
static void gd_render_flush_md(gd_renderer *r);

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
            r->relayout = r->lay != NULL;
            return 0;
        }
    if (gd_grow((void **)&r->clocks, &r->clocks_cap, r->nclocks + 1, sizeof *r->clocks, NULL))
        return -1;
    r->clocks[r->nclocks].trace = trace;
    r->clocks[r->nclocks++].c = *c;
    r->relayout = r->lay != NULL;
    return 0;
}

void gd_render_tz(gd_renderer *r, int tz_min)
{
    r->tz_min = tz_min;
    r->relayout = r->lay != NULL;
}

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
    /* a key with a '.' of its own ("t.tid", an SQL expression, as long as
     * it is) is itself before it is a path */
    json_t *whole = json_is_object(v) ? json_object_get(v, path) : NULL;
    if (whole)
        return whole;
    while (v) {
        size_t n = strcspn(path, ".");
        if (json_is_array(v)) {
            char head[24], *end;
            if (n == 0 || n >= sizeof head)
                return NULL;
            memcpy(head, path, n);
            head[n] = '\0';
            unsigned long k = strtoul(head, &end, 10);
            v = *end == '\0' ? json_array_get(v, k) : NULL;
        } else {
            v = json_object_getn(v, path, n);
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

/* A table is laid out from all its rows (widths, hidden columns, zones),
 * so it holds them until the end: in memory up to this many, then all of
 * them in a temporary file, one compact JSON line each (reals written with
 * 17 digits read back the same), which the layout reads back: the memory
 * of a long table stays that of TABLE_MEM_ROWS rows. */
#define TABLE_MEM_ROWS 2048
/* When no temporary file can be made ($TMPDIR, else /tmp: core/tmpfile.h),
 * the rows stay in memory up to this many; past it the table fails with
 * the reason the file could not be made (#53 item 2). */
#define TABLE_FALLBACK_ROWS 65536

static int spool_put(gd_renderer *r, json_t *row)
{
    char *t = json_dumps(row, JSON_COMPACT);
    if (!t)
        return gd_error_oom(&r->err), -1;
    int bad = fputs(t, r->spool) == EOF || fputc('\n', r->spool) == EOF;
    free(t);
    if (bad)
        gd_tmp_write_error(&r->err, errno);
    return bad ? -1 : 0;
}

/* Table mode: row kept for the layout.  0, or -1 with r->err filled (no
 * memory, the temporary file could not be written, or none could be made
 * and the rows are past TABLE_FALLBACK_ROWS). */
static int table_keep(gd_renderer *r, json_t *row)
{
    if (!r->lay && !(r->lay = layout_new(r->ncols)))
        return gd_error_oom(&r->err), -1;
    layout_row(r, row);
    size_t held = json_array_size(r->buffered);
    if (!r->spool && !r->no_spool && held >= TABLE_MEM_ROWS) {
        if (!(r->spool = gd_tmpfile(&r->err))) {
            r->no_spool = 1; /* r->err says why, if the rows pass the bound */
        } else {
            size_t i;
            json_t *v;
            json_array_foreach(r->buffered, i, v)
                if (spool_put(r, v))
                    return -1;
            json_array_clear(r->buffered);
        }
    }
    if (r->spool)
        return spool_put(r, row);
    if (r->no_spool && held >= TABLE_FALLBACK_ROWS)
        return -1;
    if (json_array_append(r->buffered, row))
        return gd_error_oom(&r->err), -1;
    return 0;
}

/* The kept rows of a table, in order, read once per pass. */
typedef struct table_rows {
    gd_renderer *r;
    size_t i;
    json_t *cur; /* the row read from the spool last */
    char *line;
    size_t cap;
} table_rows;

static void rows_start(table_rows *it)
{
    it->i = 0;
    json_decref(it->cur);
    it->cur = NULL;
    if (it->r->spool && (fflush(it->r->spool) != 0 || fseek(it->r->spool, 0, SEEK_SET) != 0)) {
        gd_tmp_write_error(&it->r->err, errno);
        it->r->failed = 1;
    }
}

/* The next row (valid until the next call), or NULL at the end or on a
 * read error (r->failed then set). */
static json_t *rows_next(table_rows *it)
{
    gd_renderer *r = it->r;
    if (!r->spool)
        return it->i < json_array_size(r->buffered) ? json_array_get(r->buffered, it->i++) : NULL;
    json_decref(it->cur);
    it->cur = NULL;
    if (r->failed)
        return NULL;
    if (getline(&it->line, &it->cap, r->spool) < 0) {
        if (ferror(r->spool)) {
            gd_tmp_write_error(&r->err, errno);
            r->failed = 1;
        }
        return NULL;
    }
    if (!(it->cur = json_loads(it->line, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL)))
        r->failed = 1;
    return it->cur;
}

static void rows_end(table_rows *it)
{
    json_decref(it->cur);
    free(it->line);
}

void gd_render_lines(gd_renderer *r, gd_lines_fn fn, void *ctx)
{
    r->lines = fn;
    r->lines_ctx = ctx;
}

size_t gd_render_rows(const gd_renderer *r)
{
    return r->given;
}

int gd_render_row(gd_renderer *r, json_t *row)
{
    r->given++;
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
        if (table_keep(r, row))
            r->failed = 1;
        break;
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

int gd_render_end(gd_renderer *r) { return gd_render_end_err(r, NULL); }

int gd_render_end_err(gd_renderer *r, gd_error *err)
{
    if (!r)
        return -1;
    gd_render_values_flush(r);
    switch (r->mode) {
    case GD_OUT_TABLE:
        if (!r->failed) /* rows lost: no header over part of them */
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
    if (bad && r->failed && r->err.code && err)
        *err = r->err;
    json_decref(r->buffered);
    if (r->spool)
        fclose(r->spool);
    free(r->lay);
    free(r->text.p);
    free(r->clocks);
    free(r);
    return bad ? -1 : 0;
}

/* ==== the table and Markdown modes: rows buffered, columns sized to * their cells and the terminal, cells escaped. ==== */

/* 1 for a column of text (left-aligned, cut last). */
static int is_text(const gd_column *c)
{
    return c->type == GD_COL_TEXT || c->type == GD_COL_WINDOW;
}

/* Display width of UTF-8 text: counts code points (good enough for frames). */
static size_t text_width(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80)
            w++;
    return w;
}

/* A Java frame or method name too wide for its cell, short:
 * "com.x.feed.FeedAdapter.bind(FeedAdapter.java:88)" -> "FeedAdapter.bind:88",
 * "com.x.img.Decoder.decode" -> "Decoder.decode".  0 (out untouched) for
 * anything else (a message with spaces, a plain word). */
static int compact_frame(const char *s, char *out, size_t n, size_t *name_at)
{
    /* a name without spaces; what follows '(' may have some (a method's
     * parameter list, "(Native Method)") */
    const char *sp = strchr(s, ' '), *par = strchr(s, '(');
    if (sp && (!par || sp < par))
        return 0;
    if (strchr("{[\"", s[0])) /* JSON text, not a frame */
        return 0;
    const char *paren = strchr(s, '(');
    size_t name_len = paren ? (size_t)(paren - s) : strlen(s);
    /* the last two dotted parts of the name: Class.method */
    const char *start = s;
    int dots = 0;
    for (const char *p = s + name_len; p > s; p--)
        if (p[-1] == '.' && ++dots == 2) {
            start = p;
            break;
        }
    if (dots == 0)
        return 0;
    if (!paren) {
        /* a class ("com.x.MainActivity"): its simple name */
        const char *last = strrchr(s, '.');
        if (last && last[1] >= 'A' && last[1] <= 'Z')
            start = last + 1;
    }
    const char *line = NULL;
    if (paren) {
        const char *colon = strrchr(paren, ':');
        if (colon && colon[1] >= '0' && colon[1] <= '9')
            line = colon;
    }
    size_t len = (size_t)(s + name_len - start);
    size_t ll = line ? strcspn(line, ")") : 0;
    if (len + ll + 1 > n)
        return 0;
    memcpy(out, start, len);
    memcpy(out + len, line ? line : "", ll);
    out[len + ll] = 0;
    if (name_at)
        *name_at = (size_t)(start - s);
    return 1;
}

/* Prints s in a cell of `w` columns.  Text too wide is cut at its end,
 * marked with "…"; in flexible columns a Java frame is first made short
 * (without package and file) and then cut from the left, so that it keeps
 * Class.method and its line, and an indented tree keeps its indentation. */
/* s past its first `skip` characters (UTF-8 sequences count as one). */
static const char *tail_of(const char *s, size_t skip)
{
    for (size_t k = 0; *s && k < skip; k++) {
        s++;
        while (((unsigned char)*s & 0xC0) == 0x80)
            s++;
    }
    return s;
}

/* print_cell's `flex` for a column of paths (gd_column.cut_middle) */
#define GD_FLEX_PATH 2

/* 1 when s reads as a file path or URL (a trace's SOURCE): absolute, ./,
 * ../, scheme://, or a folder (no '.') before its first '/'; never a frame
 * or a window ("com.example/Act": a package before the '/'). */
static int path_like(const char *s)
{
    if (strchr(s, ' '))
        return 0;
    if (s[0] == '/' || strncmp(s, "./", 2) == 0 || strncmp(s, "../", 3) == 0 || strstr(s, "://"))
        return 1;
    const char *slash = strchr(s, '/');
    return slash && slash > s && !memchr(s, '.', (size_t)(slash - s)) && !strchr(s, '(') && !strchr(s, ' ');
}

/* Prints the first `n` characters of s (UTF-8 sequences count as one). */
static void put_head(FILE *out, const char *s, size_t n)
{
    for (size_t k = 0; *s && k < n; k++) {
        fputc(*s++, out);
        while (((unsigned char)*s & 0xC0) == 0x80)
            fputc(*s++, out);
    }
}

/* A path too wide for w (w >= 3) cut in its middle, so that two files of
 * one folder stay apart (#47): the folder's start, "…", and the file name
 * whole when it fits, else the name's start, "…", its end. */
static void print_path_cut(FILE *out, const char *s, size_t tw, size_t w, int last)
{
    const char *base = strrchr(s, '/');
    base = base && base[1] ? base + 1 : s;
    size_t bw = text_width(base);
    if (bw + 2 <= w && base > s) {
        put_head(out, s, w - 1 - bw);
        fputs("\xe2\x80\xa6", out);
        fputs(base, out);
    } else {
        size_t keep = w - 1, tail = keep / 2 + keep % 2, head = keep - tail;
        if (bw < tw && bw >= tail) /* cut inside the file name */
            s = base, tw = bw;
        put_head(out, s, head);
        fputs("\xe2\x80\xa6", out);
        fputs(tail_of(s, tw - tail), out);
    }
    (void)last; /* the cut text is exactly w wide */
}

static void print_cell(FILE *out, const char *s, size_t w, int right, int flex, int last)
{
    size_t tw = text_width(s);
    char shortened[1024];
    size_t name_at;
    if (tw > w && flex == GD_FLEX_PATH && !right && w >= 3 && path_like(s)) {
        print_path_cut(out, s, tw, w, last);
        return;
    }
    if (tw > w && flex && !right && s[0] == ' ') {
        /* a tree keeps its indentation: only the text after it is cut */
        size_t ind = strspn(s, " ");
        if (ind + 2 <= w) {
            fprintf(out, "%*s", (int)ind, "");
            print_cell(out, s + ind, w - ind, right, flex, last);
            return;
        }
    }
    int frame = flex && compact_frame(s, shortened, sizeof shortened, &name_at);
    if (tw > w && frame && w > 1) {
        /* the short frame when cutting the whole one from the left would
         * cut into its Class.method */
        if ((size_t)(tail_of(s, tw - (w - 1)) - s) > name_at) {
            s = shortened;
            tw = text_width(s);
        }
    }
    if (tw > w) {
        if (frame && w > 1) {
            /* a frame keeps its tail: Class.method and the line */
            const char *p = tail_of(s, tw - (w - 1));
            /* start at a whole name: "…Decoder.decode(…)", not "…der.decode(…)" */
            const char *paren = strchr(p, '(');
            const char *dot = strchr(p, '.');
            if (dot && (!paren || dot < paren) && strlen(dot + 1) >= 8)
                p = dot + 1;
            fputs("\xe2\x80\xa6", out);
            fputs(p, out);
            if (!last)
                for (size_t i = text_width(p) + 1; i < w; i++)
                    fputc(' ', out);
        } else {
            /* cut the end, marked with "…" (a cut app name must not pass
             * for a whole one) */
            size_t k = 0, keep = w > 1 ? w - 1 : w;
            const char *p = s;
            while (*p && k < keep) {
                fputc(*p++, out);
                while (((unsigned char)*p & 0xC0) == 0x80)
                    fputc(*p++, out);
                k++;
            }
            if (w > 1)
                fputs("\xe2\x80\xa6", out);
        }
        return;
    }
    if (right)
        for (size_t i = tw; i < w; i++)
            fputc(' ', out);
    fputs(s, out);
    if (!right && !last)
        for (size_t i = tw; i < w; i++)
            fputc(' ', out);
}

/* 1 when a column shows nothing in this table (auto_hide and all null). */
/* 1 when column col shows something in row (its text, or a value). */
static int has_value(const gd_column *col, json_t *row)
{
    char buf[64];
    json_t *v = gd_render_col_value(col, row);
    return col->text ? col->text(row, buf, sizeof buf) != NULL : v && !json_is_null(v);
}

static int column_off(const gd_renderer *r, size_t c)
{
    if (r->cols[c].hidden)
        return 1;
    if (!r->cols[c].auto_hide)
        return 0;
    for (size_t i = 0; i < json_array_size(r->buffered); i++)
        if (has_value(&r->cols[c], json_array_get(r->buffered, i)))
            return 0;
    return 1;
}

/* A time cell: its text by the one rule, with its zone label when the
 * column's rows do not share one (`mixed`); NULL when it is no time. */
static const char *time_cell(const gd_renderer *r, json_t *row, json_t *v, int mixed, char *buf,
                             size_t n, char zone[GD_ZONE_MAX])
{
    if (!json_is_number(v) ||
        !gd_time_text(json_number_value(v), gd_render_row_clock(r, row), r->tz_min, buf, n, zone))
        return NULL;
    if (mixed && zone[0]) {
        size_t k = strlen(buf);
        snprintf(buf + k, n - k, " %s", zone);
    }
    return buf;
}

/* The text of column c in a row (its text function's, escaped; else its
 * value's). */
static const char *human_cell(const gd_column *c, json_t *row, char *buf, size_t n)
{
    if (c->text) {
        char raw[4096];
        const char *t = c->text(row, raw, sizeof raw);
        /* the text holds names from the capture */
        return gd_escape_ctrl(t ? t : "-", buf, n);
    }
    return gd_render_cell(c, gd_render_col_value(c, row), buf, n);
}

/* The text of column c in a row of the table.  A text longer than the
 * buffer ends in "…" (at a whole character), as any cut cell does. */
static const char *table_cell(const gd_renderer *r, size_t c, json_t *row, int mixed, char *buf,
                              size_t n)
{
    json_t *v = gd_render_col_value(&r->cols[c], row);
    char zone[GD_ZONE_MAX];
    if (r->cols[c].type == GD_COL_TIME && time_cell(r, row, v, mixed, buf, n, zone))
        return buf;
    const char *t = human_cell(&r->cols[c], row, buf, n);
    size_t len = t == buf ? strlen(buf) : 0;
    if (n > 8 && len + 1 >= n) {
        size_t k = n - 4; /* room for the 3 bytes of "…" and the NUL */
        while (k > 0 && ((unsigned char)buf[k] & 0xC0) == 0x80)
            k--;
        memcpy(buf + k, "\xe2\x80\xa6", 4);
    }
    return t;
}

/* One line of the table: the headers (row NULL) or a row's cells. */
static void print_line(gd_renderer *r, const size_t *w, size_t last, json_t *row,
                       const struct table_layout *l, char *buf, size_t n)
{
    for (size_t c = 0, first = 1; c < r->ncols; c++) {
        if (r->cols[c].hidden)
            continue;
        if (!first)
            fputs("  ", r->out);
        first = 0;
        const char *cell = row ? table_cell(r, c, row, l[c].mixed, buf, n) : r->cols[c].header;
        print_cell(r->out, cell, w[c], !is_text(&r->cols[c]),
                   row ? (r->cols[c].cut_middle ? GD_FLEX_PATH : r->cols[c].flex) : 0, c == last);
    }
    fputc('\n', r->out);
}

static struct table_layout *layout_new(size_t ncols)
{
    return calloc(ncols ? ncols : 1, sizeof(struct table_layout));
}

/* A cell's width into *w, and, in a flexible column, that of the short
 * frame (or the whole cell) it may shrink to into *minw: the widest of
 * the column so far. */
static void cell_widths(const gd_renderer *r, size_t c, json_t *row, int mixed, size_t *w, size_t *minw)
{
    char buf[4096];
    const char *cell = table_cell(r, c, row, mixed, buf, sizeof buf);
    size_t tw = text_width(cell);
    if (tw > *w)
        *w = tw;
    if (r->cols[c].flex) {
        char sh[1024];
        tw = text_width(compact_frame(cell, sh, sizeof sh, NULL) ? sh : cell);
        if (tw > *minw)
            *minw = tw;
    }
}

/* One row into the layout: which auto-hidden columns have a value (the
 * others show nothing in this table), whether a time column's rows share
 * one zone label, and the cells' widths both ways. */
static void layout_row(gd_renderer *r, json_t *row)
{
    struct table_layout *l = r->lay;
    char buf[128], zone[GD_ZONE_MAX];
    for (size_t c = 0; c < r->ncols; c++) {
        const gd_column *col = &r->cols[c];
        if (col->hidden)
            continue;
        if (col->auto_hide && !l[c].shown)
            l[c].shown = has_value(col, row);
        int time = col->type == GD_COL_TIME;
        if (time && !l[c].mixed && time_cell(r, row, gd_render_col_value(col, row), 0, buf, sizeof buf, zone)) {
            if (!l[c].zseen)
                memcpy(l[c].zfirst, zone, sizeof l[c].zfirst);
            else if (strcmp(l[c].zfirst, zone) != 0)
                l[c].mixed = 1;
            l[c].zseen = 1;
        }
        cell_widths(r, c, row, 0, &l[c].cw[0], &l[c].cmin[0]);
        if (time)
            cell_widths(r, c, row, 1, &l[c].cw[1], &l[c].cmin[1]);
    }
}

static void gd_render_flush_table(gd_renderer *r)
{
    size_t nvis = 0;
    if (!r->lay)
        return; /* nothing to show: no header either */
    struct table_layout *l = r->lay;
    size_t n = r->ncols ? r->ncols : 1;
    /* per column: its width, and the narrowest a flexible one shrinks to first */
    size_t *w = calloc(n, sizeof *w), *minw0 = calloc(n, sizeof *minw0);
    gd_column *cols = malloc(n * sizeof *cols);
    char (*hdr)[160] = calloc(n, sizeof *hdr);
    char buf[4096];
    table_rows it = {.r = r};
    json_t *row;
    if (!w || !minw0 || !cols || !hdr) {
        r->failed = 1;
        goto out;
    }
    if (r->relayout) {
        /* a clock or the zone came after rows: their times again */
        struct table_layout *fresh = layout_new(r->ncols);
        if (!fresh) {
            r->failed = 1;
            goto out;
        }
        free(l);
        r->lay = l = fresh;
        rows_start(&it);
        while ((row = rows_next(&it)))
            layout_row(r, row);
    }
    /* a time column's header: "START (UTC)" when every time in it has the
     * zone UTC (with mixed zones each cell carries its own) */
    for (size_t c = 0; c < r->ncols; c++) {
        cols[c] = r->cols[c];
        cols[c].hidden = r->cols[c].hidden || (r->cols[c].auto_hide && !l[c].shown);
        if (r->cols[c].type == GD_COL_TIME && !l[c].mixed && l[c].zfirst[0])
            snprintf(hdr[c], sizeof hdr[c], "%s (%s)", r->cols[c].header, l[c].zfirst);
        else
            snprintf(hdr[c], sizeof hdr[c], "%s", r->cols[c].header);
        cols[c].header = hdr[c];
    }
    const gd_column *saved = r->cols;
    r->cols = cols;
    /* each column as wide as its widest cell or header; a flexible one
     * shrinks no narrower than its widest short frame (or whole cell) */
    for (size_t c = 0; c < r->ncols; c++)
        if (!r->cols[c].hidden) {
            nvis++;
            size_t hw = text_width(r->cols[c].header), m = (size_t)l[c].mixed;
            w[c] = l[c].cw[m] > hw ? l[c].cw[m] : hw;
            minw0[c] = l[c].cmin[m] > hw ? l[c].cmin[m] : hw;
        }
    /* fit the width: flexible columns shrink, first no narrower than their
     * frames made short (compact_frame), then to 12; then wide text columns */
    size_t total = nvis ? (nvis - 1) * 2 : 0;
    for (size_t c = 0; c < r->ncols; c++)
        total += r->cols[c].hidden ? 0 : w[c];
    for (int pass = 0; pass < 3 && total > (size_t)r->width; pass++)
        for (size_t c = r->ncols; c-- > 0 && total > (size_t)r->width;) {
            if (r->cols[c].hidden || (pass < 2 && !r->cols[c].flex) ||
                (pass == 2 && !is_text(&r->cols[c])))
                continue;
            size_t minw = pass == 0 ? minw0[c] : 12, excess = total - (size_t)r->width;
            if (w[c] > minw) {
                size_t cut = w[c] - minw < excess ? w[c] - minw : excess;
                w[c] -= cut;
                total -= cut;
            }
        }
    size_t last = 0;
    for (size_t c = 0; c < r->ncols; c++)
        if (!r->cols[c].hidden)
            last = c;
    /* the header, then the rows, read back */
    print_line(r, w, last, NULL, l, buf, sizeof buf);
    rows_start(&it);
    while ((row = rows_next(&it)))
        print_line(r, w, last, row, l, buf, sizeof buf);
    r->cols = saved;
out:
    rows_end(&it);
    free(cols);
    free(w);
    free(minw0);
    free(hdr);
}

/* A Markdown table cell: control characters escaped, and the characters
 * that would end the cell or turn into markup or HTML written as escapes
 * or entities, so text from a capture shows as the text it is. */
static void md_cell(FILE *out, const char *s)
{
    char esc[16];
    for (const char *p = s; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c < 0x20 || c == 0x7f) {
            char in[2] = {(char)c, 0};
            fputs(gd_escape_ctrl(in, esc, sizeof esc), out);
        } else if (c == '|') {
            fputs("\\|", out);
        } else if (c == '<') {
            fputs("&lt;", out);
        } else if (c == '>') {
            fputs("&gt;", out);
        } else if (c == '&') {
            fputs("&amp;", out);
        } else if (strchr("\\`*_[]#~!", c)) {
            fputc('\\', out);
            fputc(c, out);
        } else {
            fputc(c, out);
        }
    }
}

/* Markdown mode: a pipe table of the visible columns (empty: nothing). */
static void gd_render_flush_md(gd_renderer *r)
{
    size_t n = json_array_size(r->buffered);
    if (!n)
        return;
    char buf[512];
    /* which columns show, once (an auto-hidden column scans every row) */
    int *off = calloc(r->ncols ? r->ncols : 1, sizeof *off);
    if (!off)
        return;
    for (size_t c = 0; c < r->ncols; c++)
        off[c] = column_off(r, c);
    for (int pass = 0; pass < 2; pass++) {
        for (size_t c = 0; c < r->ncols; c++)
            if (!off[c]) {
                fputs("| ", r->out);
                if (pass == 0)
                    md_cell(r->out, r->cols[c].header);
                else
                    fputs(is_text(&r->cols[c]) || r->cols[c].type == GD_COL_BOOL ? ":--" : "--:",
                          r->out);
                fputc(' ', r->out);
            }
        fputs("|\n", r->out);
    }
    for (size_t i = 0; i < n; i++) {
        json_t *row = json_array_get(r->buffered, i);
        for (size_t c = 0; c < r->ncols; c++)
            if (!off[c]) {
                fputs("| ", r->out);
                md_cell(r->out, human_cell(&r->cols[c], row, buf, sizeof buf));
                fputc(' ', r->out);
            }
        fputs("|\n", r->out);
    }
    free(off);
}

/* ==== rows of plain values rendered as they come: json and jsonl as * text written straight from the values, csv cells from them; the table * modes (which buffer) and columns made by a function get the row as JSON. ==== */

/* jsonl text is written in blocks of about this many bytes */
#define FLUSH_AT 65536

static int flush_text(gd_renderer *r)
{
    if (r->text.n && fwrite(r->text.p, 1, r->text.n, r->out) != r->text.n)
        r->failed = 1;
    r->text.n = 0;
    return r->failed ? -1 : 0;
}

/* Writes r->text as one csv cell (`text`: a string value) and empties it. */
static int csv_text(gd_renderer *r, int text)
{
    if (gd_text_put(&r->text, "", 1))
        return -1;
    gd_render_csv_field(r->out, r->text.p, text);
    r->text.n = 0;
    return 0;
}

/* A csv cell of a plain value: the text gd_render_row writes for the same
 * value in a JSON row. */
static int csv_value(gd_renderer *r, const gd_value *v, const char *rest)
{
    r->text.n = 0;
    if (rest || v->kind == GD_V_JSON) {
        json_t *j = rest ? gd_render_get(v->u.json, rest) : v->u.json;
        if (!j || json_is_null(j))
            return 0;
        if (json_is_string(j)) {
            gd_render_csv_field(r->out, json_string_value(j), 1);
            return 0;
        }
        char *t = json_dumps(j, JSON_FLAGS | JSON_ENCODE_ANY);
        if (!t)
            return -1;
        gd_render_csv_field(r->out, t, 0);
        free(t);
        return 0;
    }
    char b[32];
    switch (v->kind) {
    case GD_V_TEXT:
        /* bytes that are not UTF-8 read U+FFFD each (gd_utf8_mend, as in
         * JSON); the text ends at a NUL, as in C */
        if (!gd_utf8_valid(v->u.t.s, v->u.t.n)) {
            size_t m;
            char *fixed = gd_utf8_mend(v->u.t.s, strnlen(v->u.t.s, v->u.t.n), &m);
            int rc = !fixed || gd_text_put(&r->text, fixed, m) || csv_text(r, 1);
            free(fixed);
            return rc ? -1 : 0;
        }
        return gd_text_put(&r->text, v->u.t.s, strnlen(v->u.t.s, v->u.t.n)) || csv_text(r, 1);
    case GD_V_INT:
        return gd_text_put(&r->text, b, (size_t)snprintf(b, sizeof b, "%" PRId64, v->u.i)) ||
               csv_text(r, 0);
    case GD_V_BOOL:
        fputs(v->u.i ? "true" : "false", r->out);
        return 0;
    case GD_V_REAL:
        return gd_json_real_text(&r->text, v->u.d) || csv_text(r, 0);
    case GD_V_ROW:
        return gd_json_row_text(&r->text, v->u.row) || csv_text(r, 0);
    default:
        return 0;
    }
}

/* 1 when csv needs the row as JSON (a column's text is made from it). */
static int csv_needs_json(const gd_renderer *r)
{
    for (size_t i = 0; i < r->ncols; i++)
        if (r->cols[i].text)
            return 1;
    return 0;
}

static int csv_row(gd_renderer *r, const gd_row *row)
{
    for (size_t i = 0; i < r->ncols; i++) {
        if (i)
            fputc(',', r->out);
        const char *rest;
        const gd_value *v = gd_row_get(row, r->cols[i].path ? r->cols[i].path : r->cols[i].key, &rest);
        if (v && csv_value(r, v, rest))
            r->failed = 1;
    }
    fputc('\n', r->out);
    return 0;
}

/* 1 when field `name` of a row shows in a table: a visible column reads it
 * (the first segment of its path) or it is the row's "trace" (its clock). */
static int table_field(const gd_renderer *r, const char *name)
{
    if (strcmp(name, "trace") == 0)
        return 1;
    for (size_t i = 0; i < r->ncols; i++) {
        const char *p = r->cols[i].path ? r->cols[i].path : r->cols[i].key;
        size_t n = strcspn(p, ".");
        if (!r->cols[i].hidden && strncmp(p, name, n) == 0 && name[n] == '\0')
            return 1;
    }
    return 0;
}

/* The row as JSON for the table modes, which hold every row: only the
 * fields a table shows (all of them when a column's text is made from the
 * whole row, or rows are written as lines). */
static json_t *table_row(const gd_renderer *r, const gd_row *row)
{
    int whole = r->lines != NULL || r->mode == GD_OUT_CSV;
    for (size_t i = 0; i < r->ncols && !whole; i++)
        whole = r->cols[i].text != NULL;
    if (whole)
        return gd_row_json(row);
    json_t *o = json_object();
    for (size_t k = 0; o && k < row->n; k++)
        if (table_field(r, row->names[k]))
            json_object_set_new(o, row->names[k], gd_value_json(&row->v[k]));
    return o;
}

int gd_render_values(gd_renderer *r, const gd_row *row)
{
    r->given++;
    if (r->mode == GD_OUT_JSON || r->mode == GD_OUT_JSONL) {
        if ((r->mode == GD_OUT_JSON && gd_text_put(&r->text, r->nrows ? ",\n" : "[\n", 2)) ||
            gd_json_row_text(&r->text, row) ||
            (r->mode == GD_OUT_JSONL && gd_text_put(&r->text, "\n", 1)))
            r->failed = 1;
        r->nrows++;
        gd_render_values_flush_at(r);
        return r->failed || ferror(r->out) ? -1 : 0;
    }
    if (r->mode == GD_OUT_CSV && !csv_needs_json(r)) {
        csv_row(r, row);
        r->nrows++;
        return r->failed || ferror(r->out) ? -1 : 0;
    }
    json_t *j = table_row(r, row);
    int rc = j ? gd_render_row(r, j) : -1;
    json_decref(j);
    return rc;
}

static int gd_render_values_flush(gd_renderer *r)
{
    return flush_text(r);
}

static void gd_render_values_flush_at(gd_renderer *r)
{
    if (r->text.n >= FLUSH_AT)
        flush_text(r);
}
