/* values.c - rows of plain values rendered as they come: json and jsonl as
 * text written straight from the values, csv cells from them; the table
 * modes (which buffer) and columns made by a function get the row as JSON. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "render/render_int.h"
#include "core/row.h"

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

int gd_render_values_flush(gd_renderer *r)
{
    return flush_text(r);
}

void gd_render_values_flush_at(gd_renderer *r)
{
    if (r->text.n >= FLUSH_AT)
        flush_text(r);
}
