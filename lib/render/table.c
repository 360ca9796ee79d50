/* table.c - the table and Markdown modes: rows buffered, columns sized to
 * their cells and the terminal, cells escaped. */
#include <stdlib.h>
#include <string.h>

#include "core/escape.h"
#include "render/render_int.h"

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

static void print_cell(FILE *out, const char *s, size_t w, int right, int flex, int last)
{
    size_t tw = text_width(s);
    char shortened[1024];
    size_t name_at;
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
static int column_off(const gd_renderer *r, size_t c)
{
    if (r->cols[c].hidden)
        return 1;
    if (!r->cols[c].auto_hide)
        return 0;
    for (size_t i = 0; i < json_array_size(r->buffered); i++) {
        json_t *row = json_array_get(r->buffered, i), *v = gd_render_col_value(&r->cols[c], row);
        char buf[64];
        if (r->cols[c].text ? r->cols[c].text(row, buf, sizeof buf) != NULL : v && !json_is_null(v))
            return 0;
    }
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

/* A time column's header: "START (UTC)" when every time in it has the zone
 * UTC; *mixed = 1 when its rows have different zone labels (each cell then
 * carries its own). */
static void time_header(const gd_renderer *r, size_t c, char *hdr, size_t n, int *mixed)
{
    char first[GD_ZONE_MAX] = "", zone[GD_ZONE_MAX], buf[128];
    int seen = 0;
    *mixed = 0;
    for (size_t i = 0; i < json_array_size(r->buffered) && !*mixed; i++) {
        json_t *row = json_array_get(r->buffered, i);
        if (!time_cell(r, row, gd_render_col_value(&r->cols[c], row), 0, buf, sizeof buf, zone))
            continue;
        if (!seen)
            memcpy(first, zone, sizeof first);
        else if (strcmp(first, zone) != 0)
            *mixed = 1;
        seen = 1;
    }
    if (!*mixed && first[0])
        snprintf(hdr, n, "%s (%s)", r->cols[c].header, first);
    else
        snprintf(hdr, n, "%s", r->cols[c].header);
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
static void print_line(gd_renderer *r, const size_t *w, size_t last, json_t *row, const int *mixed,
                       char *buf, size_t n)
{
    for (size_t c = 0, first = 1; c < r->ncols; c++) {
        if (r->cols[c].hidden)
            continue;
        if (!first)
            fputs("  ", r->out);
        first = 0;
        const char *cell = row ? table_cell(r, c, row, mixed[c], buf, n) : r->cols[c].header;
        print_cell(r->out, cell, w[c], !is_text(&r->cols[c]), row ? r->cols[c].flex : 0, c == last);
    }
    fputc('\n', r->out);
}

void gd_render_flush_table(gd_renderer *r)
{
    size_t nvis = 0, nrows = json_array_size(r->buffered);
    if (nrows == 0)
        return; /* nothing to show: no header either */
    size_t *w = calloc(r->ncols, sizeof *w);
    gd_column *cols = malloc(r->ncols * sizeof *cols);
    int *mixed = calloc(r->ncols, sizeof *mixed);
    char (*hdr)[160] = calloc(r->ncols, sizeof *hdr);
    char buf[4096];
    if (!w || !cols || !mixed || !hdr) {
        free(w);
        free(cols);
        free(mixed);
        free(hdr);
        return;
    }
    for (size_t c = 0; c < r->ncols; c++) {
        cols[c] = r->cols[c];
        cols[c].hidden = column_off(r, c);
    }
    const gd_column *saved = r->cols;
    r->cols = cols;
    for (size_t c = 0; c < r->ncols; c++) {
        if (r->cols[c].type == GD_COL_TIME)
            time_header(r, c, hdr[c], sizeof hdr[c], &mixed[c]);
        else
            snprintf(hdr[c], sizeof hdr[c], "%s", r->cols[c].header);
        cols[c].header = hdr[c];
    }
    for (size_t c = 0; c < r->ncols; c++) {
        if (r->cols[c].hidden)
            continue;
        nvis++;
        w[c] = text_width(r->cols[c].header);
        for (size_t i = 0; i < nrows; i++) {
            size_t tw = text_width(table_cell(r, c, json_array_get(r->buffered, i), mixed[c], buf,
                                              sizeof buf));
            if (tw > w[c])
                w[c] = tw;
        }
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
            size_t minw = 12, excess = total - (size_t)r->width;
            if (pass == 0) { /* the widest short frame (or whole cell) */
                minw = text_width(r->cols[c].header);
                for (size_t i = 0; i < nrows; i++) {
                    char sh[1024];
                    const char *cell = table_cell(r, c, json_array_get(r->buffered, i), mixed[c],
                                                  buf, sizeof buf);
                    size_t tw = text_width(compact_frame(cell, sh, sizeof sh, NULL) ? sh : cell);
                    if (tw > minw)
                        minw = tw;
                }
            }
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
    print_line(r, w, last, NULL, mixed, buf, sizeof buf);
    for (size_t i = 0; i < nrows; i++)
        print_line(r, w, last, json_array_get(r->buffered, i), mixed, buf, sizeof buf);
    r->cols = saved;
    free(cols);
    free(w);
    free(mixed);
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
void gd_render_flush_md(gd_renderer *r)
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

