/* query/columns.c - a query's declared columns: its SELECT list, its reads and its rows (#45 item 1). */
#include "query/columns.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "store/sql.h"

int gd_qcols_select(const gd_qcols *c, char *buf, size_t n)
{
    size_t at = 0;
    buf[0] = '\0';
    for (size_t k = 0; k < c->n; k++) {
        if (!c->reads[k].expr)
            continue;
        /* the alias quoted: a key may be an SQL keyword ("group") */
        int w = snprintf(buf + at, n - at, "%s%s AS \"%s\"", at ? ", " : "", c->reads[k].expr, c->keys[k]);
        if (w < 0 || (size_t)w >= n - at)
            return -1;
        at += (size_t)w;
    }
    return 0;
}

/* Column i of st as a field of type t. */
static void read_one(sqlite3_stmt *st, int i, gd_qtype t, unsigned flags, gd_value *v)
{
    if (sqlite3_column_type(st, i) == SQLITE_NULL) {
        gd_qv_null(v);
        return;
    }
    if (flags & GD_QC_PARSE) {
        const char *s = (const char *)sqlite3_column_text(st, i);
        gd_qv_json(v, gd_json_load_text(s, (size_t)sqlite3_column_bytes(st, i), JSON_DECODE_ANY));
        return;
    }
    if (flags & GD_QC_ASIS)
        t = GD_QT_NUM;
    switch (t) {
    case GD_QT_INT:
    case GD_QT_BYTES:
        gd_qv_int(v, sqlite3_column_int64(st, i));
        return;
    case GD_QT_MS:
    case GD_QT_TIME:
        gd_qv_ms(v, sqlite3_column_double(st, i));
        return;
    case GD_QT_BOOL:
        gd_qv_bool(v, sqlite3_column_int(st, i));
        return;
    case GD_QT_NUM:
        gd_col_value(st, i, v);
        return;
    default:
        v->kind = GD_V_TEXT;
        v->u.t.s = (const char *)sqlite3_column_text(st, i);
        v->u.t.n = (size_t)sqlite3_column_bytes(st, i);
        return;
    }
}

void gd_qcols_read(const gd_qcols *c, sqlite3_stmt *st, int first, gd_value *v)
{
    int i = first;
    for (size_t k = 0; k < c->n; k++)
        if (c->reads[k].expr)
            read_one(st, i++, c->reads[k].type, c->reads[k].flags, &v[k]);
}

int gd_qcols_pos(const gd_qcols *c, size_t k)
{
    int pos = 0;
    for (size_t j = 0; j < k && j < c->n; j++)
        pos += c->reads[j].expr != NULL;
    return pos;
}

json_t *gd_qcols_json(const gd_qcols *c, const gd_value *v)
{
    gd_row r = {c->keys, v, c->n};
    return gd_row_json(&r);
}

void gd_qcols_clear(const gd_qcols *c, gd_value *v)
{
    for (size_t k = 0; k < c->n; k++)
        if (v[k].kind == GD_V_JSON) {
            json_decref(v[k].u.json);
            gd_qv_null(&v[k]);
        }
}

void gd_qv_null(gd_value *v)
{
    v->kind = GD_V_NULL;
}

void gd_qv_int(gd_value *v, int64_t i)
{
    v->kind = GD_V_INT;
    v->u.i = i;
}

void gd_qv_real(gd_value *v, double d)
{
    v->kind = GD_V_REAL;
    v->u.d = d;
}

void gd_qv_ms(gd_value *v, double ms)
{
    if (isnan(ms))
        gd_qv_null(v);
    else
        gd_qv_real(v, gd_ms_round(ms));
}

void gd_qv_bool(gd_value *v, int yes)
{
    v->kind = GD_V_BOOL;
    v->u.i = yes != 0;
}

void gd_qv_text(gd_value *v, const char *s)
{
    if (!s) {
        gd_qv_null(v);
        return;
    }
    v->kind = GD_V_TEXT;
    v->u.t.s = s;
    v->u.t.n = strlen(s);
}

void gd_qv_json(gd_value *v, json_t *j)
{
    if (!j) {
        gd_qv_null(v);
        return;
    }
    v->kind = GD_V_JSON;
    v->u.json = j;
}

gd_qcols gd_qcols_vary(const gd_qcols *c, const char *const *over, gd_qread *reads)
{
    for (size_t k = 0; k < c->n; k++) {
        reads[k] = c->reads[k];
        if (over[k])
            reads[k].expr = over[k];
    }
    return (gd_qcols){c->keys, reads, c->n};
}

void gd_qv_row(gd_value *v, gd_row *r, const gd_qcols *c, const gd_value *fields)
{
    *r = (gd_row){c->keys, fields, c->n};
    gd_qv_nested(v, r);
}

void gd_qv_nested(gd_value *v, const gd_row *r)
{
    v->kind = GD_V_ROW;
    v->u.row = r;
}

json_t *gd_qcols_row(const gd_qcols *c, sqlite3_stmt *st)
{
    gd_value v[GD_QCOLS_MAX];
    if (c->n > GD_QCOLS_MAX)
        return NULL;
    gd_qcols_read(c, st, 0, v);
    json_t *row = gd_qcols_json(c, v);
    gd_qcols_clear(c, v);
    return row;
}

void gd_qv_absent(gd_value *v)
{
    gd_qv_real(v, NAN); /* gd_row_json leaves a non-finite real out */
}

void gd_qv_num(gd_value *v, double d)
{
    if (isfinite(d))
        gd_qv_real(v, d);
    else
        gd_qv_null(v);
}

gd_qcols gd_qcols_sub(const gd_qcols *c, size_t from, size_t to)
{
    gd_qcols s = {c->keys + from, c->reads + from, to - from};
    return s;
}
