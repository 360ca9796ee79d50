/* store/spool.c - rows held back until the end of a load, given back in key
 * order by the virtual table gd_spool (#50; store/spool.h).
 *
 * A group's rows are records in its buffer: [u32 size] then each value as
 * a tag byte (0 NULL, 1 integer: zigzag varint, 2 real: 8 bytes, 3 text:
 * varint length and bytes).  A record that sorts before the buffer's last
 * one, by its first two values, is put before it.  A full buffer (or every buffer,
 * when all of them hold more than the memory bound) goes to the temporary
 * file as a chunk, [i64 next chunk][u32 bytes][records], but for its last
 * record (which a late row may still go before); chunks of a group are
 * linked in order.  The file is made at the first chunk and unlinked at
 * once, so nothing is left when the process ends; when none can be made,
 * the buffers grow up to the bound and then everything held is written
 * to the table (gd_spool_drain) there and then. */
#include "store/spool.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "core/tmpfile.h"
#include "store/sql.h"
#include "store/store_int.h"

#define BUF_START 256
#define BUF_FULL 8192 /* a buffer this full goes to the file */
#define HDR 4         /* u32 size */
#define CHUNK_HDR 12  /* i64 next, u32 bytes */

typedef struct group {
    int64_t key;
    int64_t head, tail; /* the first and last chunk in the file, -1: none */
    unsigned char *buf;
    uint32_t len, cap;
    uint32_t last; /* where the last record starts (len when empty) */
} group;

struct gd_spool {
    gd_store *s;
    const char *sql; /* the statement that writes the rows (borrowed) */
    int64_t p1;      /* its ?1 */
    int ncols;
    size_t mem_max, mem; /* the bound, and the bytes of the groups' buffers */
    group *g;
    size_t ng, gcap;
    uint32_t *slot; /* hash of group keys: index + 1 into g, 0 empty */
    size_t nslot;
    FILE *file;      /* the temporary file (gd_tmpfile), NULL until needed */
    int fd;          /* its descriptor, -1 until then */
    int no_file;     /* none could be made, or it filled its disk: the rows go to the table at the bound */
    int file_full;   /* the last write to it failed for want of room (ENOSPC, EDQUOT, EFBIG) */
    int64_t fend;    /* its size */
    int64_t rows;
    unsigned char *scratch; /* a record being moved */
    size_t scratch_cap;
};

gd_spool *gd_spool_new(gd_store *s, int ncols, const char *sql, int64_t p1, unsigned mem_kib)
{
    if (ncols < 1 || ncols > GD_SPOOL_COLS)
        return NULL;
    gd_spool *sp = calloc(1, sizeof *sp);
    if (!sp)
        return NULL;
    sp->s = s;
    sp->sql = sql;
    sp->p1 = p1;
    sp->ncols = ncols;
    sp->mem_max = (size_t)(mem_kib ? mem_kib : 16384) * 1024;
    sp->fd = -1;
    return sp;
}

static void clear(gd_spool *sp)
{
    for (size_t i = 0; i < sp->ng; i++)
        free(sp->g[i].buf);
    free(sp->g);
    free(sp->slot);
    free(sp->scratch);
    sp->scratch = NULL;
    sp->scratch_cap = 0;
    sp->g = NULL;
    sp->slot = NULL;
    sp->ng = sp->gcap = sp->nslot = 0;
    sp->mem = 0;
    sp->rows = 0;
    if (sp->file)
        fclose(sp->file);
    sp->file = NULL;
    sp->fd = -1; /* no_file stays */
    sp->fend = 0;
}

void gd_spool_free(gd_spool *sp)
{
    if (!sp)
        return;
    clear(sp);
    free(sp);
}

int64_t gd_spool_rows(const gd_spool *sp) { return sp ? sp->rows : 0; }

static size_t hash_of(int64_t key, size_t n)
{
    uint64_t h = (uint64_t)key * 0x9E3779B97F4A7C15ULL;
    return (size_t)(h >> 32) & (n - 1);
}

/* Doubles the hash (load at most one half). */
static int rehash(gd_spool *sp)
{
    size_t n = sp->nslot ? sp->nslot * 2 : 64;
    uint32_t *slot = calloc(n, sizeof *slot);
    if (!slot)
        return -1;
    for (size_t i = 0; i < sp->ng; i++) {
        size_t h = hash_of(sp->g[i].key, n);
        while (slot[h])
            h = (h + 1) & (n - 1);
        slot[h] = (uint32_t)(i + 1);
    }
    free(sp->slot);
    sp->slot = slot;
    sp->nslot = n;
    return 0;
}

/* The group of key, made when new; NULL when out of memory. */
static group *group_of(gd_spool *sp, int64_t key)
{
    if (sp->ng) {
        size_t h = hash_of(key, sp->nslot);
        for (; sp->slot[h]; h = (h + 1) & (sp->nslot - 1))
            if (sp->g[sp->slot[h] - 1].key == key)
                return &sp->g[sp->slot[h] - 1];
    }
    if (sp->ng >= UINT32_MAX - 1)
        return NULL;
    if ((sp->ng + 1) * 2 > sp->nslot && rehash(sp))
        return NULL;
    if (sp->ng == sp->gcap) {
        size_t cap = sp->gcap ? sp->gcap * 2 : 64;
        group *g = realloc(sp->g, cap * sizeof *g);
        if (!g)
            return NULL;
        sp->g = g;
        sp->gcap = cap;
    }
    group *g = &sp->g[sp->ng++];
    *g = (group){.key = key, .head = -1, .tail = -1};
    size_t h = hash_of(key, sp->nslot);
    while (sp->slot[h])
        h = (h + 1) & (sp->nslot - 1);
    sp->slot[h] = (uint32_t)sp->ng;
    return g;
}

/* A write to the file failed: full when for want of room. */
static int io_fail(gd_spool *sp, gd_error *err)
{
    sp->file_full = errno == ENOSPC || errno == EDQUOT || errno == EFBIG;
    return gd_tmp_write_error(err, errno);
}

/* The temporary file, made at the first chunk: 0, or -1 when none can be
 * made (then sp->no_file). */
static int open_file(gd_spool *sp)
{
    if (sp->fd >= 0)
        return 0;
    if (!sp->no_file && (sp->file = gd_tmpfile(NULL)))
        sp->fd = fileno(sp->file);
    sp->no_file = sp->fd < 0;
    return sp->no_file ? -1 : 0;
}

static int write_all(int fd, const struct iovec *iov, int n, int64_t off)
{
    size_t want = 0;
    for (int i = 0; i < n; i++)
        want += iov[i].iov_len;
    ssize_t w = pwritev(fd, iov, n, off);
    if (w >= 0 && (size_t)w != want)
        errno = ENOSPC;
    return w >= 0 && (size_t)w == want ? 0 : -1;
}

/* Writes g's records but the last as a chunk, linked after its others. */
static int flush(gd_spool *sp, group *g, gd_error *err)
{
    uint32_t n = g->last;
    if (!n)
        return GD_OK;
    unsigned char hdr[CHUNK_HDR];
    int64_t none = -1;
    memcpy(hdr, &none, 8);
    memcpy(hdr + 8, &n, 4);
    struct iovec iov[2] = {{hdr, CHUNK_HDR}, {g->buf, n}};
    int64_t off = sp->fend;
    /* a failed write leaves what the file holds as it was: the chunk is
     * linked only once written, its records stay in g's buffer till then */
    if (write_all(sp->fd, iov, 2, off))
        return io_fail(sp, err);
    if (g->tail >= 0 && pwrite(sp->fd, &off, 8, g->tail) != 8)
        return io_fail(sp, err);
    if (g->head < 0)
        g->head = off;
    g->tail = off;
    sp->fend += CHUNK_HDR + n;
    memmove(g->buf, g->buf + n, g->len - n);
    g->len -= n;
    g->last = 0;
    return GD_OK;
}

static int flush_all(gd_spool *sp, gd_error *err)
{
    for (size_t i = 0; i < sp->ng; i++)
        if (flush(sp, &sp->g[i], err))
            return err->code;
    return GD_OK;
}

static size_t put_varint(unsigned char *p, uint64_t v)
{
    size_t n = 0;
    while (v >= 0x80) {
        p[n++] = (unsigned char)(v | 0x80);
        v >>= 7;
    }
    p[n++] = (unsigned char)v;
    return n;
}

static size_t get_varint(const unsigned char *p, uint64_t *v)
{
    uint64_t r = 0;
    size_t n = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        unsigned char b = p[n++];
        r |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            break;
    }
    *v = r;
    return n;
}

/* The most bytes the record of values v can take. */
static size_t bound(const gd_spool *sp, const gd_value *v)
{
    size_t n = HDR + (size_t)sp->ncols * 11;
    for (int i = 0; i < sp->ncols; i++)
        if (v[i].kind == GD_V_TEXT)
            n += v[i].u.t.n;
    return n;
}

/* Writes the record at p; its size. */
static uint32_t encode(const gd_spool *sp, unsigned char *p, const gd_value *v)
{
    size_t k = HDR;
    for (int i = 0; i < sp->ncols; i++) {
        switch (v[i].kind) {
        case GD_V_INT:
            p[k++] = 1;
            k += put_varint(p + k, ((uint64_t)v[i].u.i << 1) ^ (uint64_t)(v[i].u.i >> 63));
            break;
        case GD_V_REAL:
            p[k++] = 2;
            memcpy(p + k, &v[i].u.d, 8);
            k += 8;
            break;
        case GD_V_TEXT:
            p[k++] = 3;
            k += put_varint(p + k, v[i].u.t.n);
            memcpy(p + k, v[i].u.t.s, v[i].u.t.n);
            k += v[i].u.t.n;
            break;
        default:
            p[k++] = 0;
        }
    }
    uint32_t size = (uint32_t)k;
    memcpy(p, &size, 4);
    return size;
}

/* The number value at p (a record's value; NULL and text: 0), into *d
 * or *i as its kind; its kind. */
static int number_at(const unsigned char *p, double *d, int64_t *i, size_t *len)
{
    uint64_t u;
    *d = 0;
    *i = 0;
    switch (p[0]) {
    case 1:
        *len = 1 + get_varint(p + 1, &u);
        *i = (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
        return GD_V_INT;
    case 2:
        memcpy(d, p + 1, 8);
        *len = 9;
        return GD_V_REAL;
    default:
        *len = 1; /* the order's values are never texts */
        return GD_V_NULL;
    }
}

/* -1, 0, 1 as the value at a is below, equal to or above the one at b;
 * their sizes into *na, *nb. */
static int cmp_value(const unsigned char *a, const unsigned char *b, size_t *na, size_t *nb)
{
    double da, db;
    int64_t ia, ib;
    int ka = number_at(a, &da, &ia, na), kb = number_at(b, &db, &ib, nb);
    if (ka == GD_V_INT && kb == GD_V_INT)
        return (ia > ib) - (ia < ib);
    if (ka == GD_V_INT)
        da = (double)ia;
    if (kb == GD_V_INT)
        db = (double)ib;
    return (da > db) - (da < db);
}

/* 1 when the record at a sorts after the one at b, by (c0, c1). */
static int after(const unsigned char *a, const unsigned char *b)
{
    size_t na, nb;
    int c = cmp_value(a + HDR, b + HDR, &na, &nb);
    if (c || a[HDR] > 2 || b[HDR] > 2)
        return c > 0;
    return cmp_value(a + HDR + na, b + HDR + nb, &na, &nb) > 0;
}

/* Makes room for n more bytes in g's buffer; -1 when out of memory. */
static int room(gd_spool *sp, group *g, size_t n)
{
    if (g->len + n <= g->cap)
        return 0;
    size_t cap = g->cap ? g->cap : BUF_START;
    while (cap < g->len + n)
        cap *= 2;
    if (cap > UINT32_MAX)
        return -1;
    unsigned char *b = realloc(g->buf, cap);
    if (!b)
        return -1;
    sp->mem += cap - g->cap;
    g->buf = b;
    g->cap = (uint32_t)cap;
    return 0;
}

/* The new record (at g->len, size n) goes before the last one when it
 * sorts before it: 1 when it did, 0 when not, -1 when out of memory. */
static int order_last(gd_spool *sp, group *g, uint32_t n)
{
    unsigned char *last = g->buf + g->last, *rec = g->buf + g->len;
    if (g->last == g->len || !after(last, rec))
        return 0;
    uint32_t lastn = g->len - g->last;
    if (sp->scratch_cap < n) {
        unsigned char *s = realloc(sp->scratch, n);
        if (!s)
            return -1;
        sp->scratch = s;
        sp->scratch_cap = n;
    }
    memcpy(sp->scratch, rec, n);
    memmove(last + n, last, lastn);
    memcpy(last, sp->scratch, n);
    return 1;
}

/* Past the memory bound: every buffer to the file, each then made as
 * small as what it keeps; the bound doubles when the groups' smallest
 * buffers alone reach half of it (memory then follows the groups, not the
 * rows). */
static int over_bound(gd_spool *sp, gd_error *err)
{
    if (flush_all(sp, err))
        return err->code;
    for (size_t i = 0; i < sp->ng; i++) {
        group *g = &sp->g[i];
        uint32_t cap = BUF_START;
        while (cap < g->len)
            cap *= 2;
        unsigned char *b = cap < g->cap ? realloc(g->buf, cap) : NULL;
        if (b) {
            sp->mem -= g->cap - cap;
            g->buf = b;
            g->cap = cap;
        }
    }
    if (sp->mem > sp->mem_max / 2)
        sp->mem_max *= 2;
    return GD_OK;
}

int gd_spool_put(gd_spool *sp, int64_t key, const gd_value *v, gd_error *err)
{
    group *g = group_of(sp, key);
    size_t need = bound(sp, v);
    if (!g || need > UINT32_MAX / 2 || room(sp, g, need))
        return gd_error_oom(err);
    uint32_t n = encode(sp, g->buf + g->len, v);
    int moved = order_last(sp, g, n);
    if (moved < 0)
        return gd_error_oom(err);
    g->last = moved ? g->last + n : g->len; /* the last record: the old one moved, or the new one */
    g->len += n;
    sp->rows++;
    int full = g->len >= BUF_FULL, over = sp->mem > sp->mem_max;
    if (!full && !over)
        return GD_OK;
    if (open_file(sp)) /* no file: at the bound, what is held goes to the table */
        return over ? gd_spool_drain(sp, err) : GD_OK;
    int rc = full && flush(sp, g, err) ? err->code : over ? over_bound(sp, err) : GD_OK;
    if (rc && sp->file_full) {
        /* the file filled its disk: what it and the buffers hold goes to
         * the table now, and from here on the rows go there at the bound,
         * as with no file (slower, the same rows) */
        sp->file_full = 0;
        sp->no_file = 1;
        gd_error_clear(err);
        return gd_spool_drain(sp, err);
    }
    return rc;
}

/* ---- reading: the virtual table gd_spool ---- */

typedef struct spool_cur {
    sqlite3_vtab_cursor base;
    gd_spool *sp;
    size_t *order; /* the groups, smallest key first */
    size_t at;     /* the group read: order[at] */
    int64_t chunk; /* its next chunk in the file, -1: none left */
    int in_buf;    /* its chunks are read: now its buffer */
    unsigned char *cbuf;
    size_t ccap;
    const unsigned char *p, *end; /* the records left of the chunk or buffer */
    sqlite3_int64 rowid;
    int eof;
    gd_value v[GD_SPOOL_COLS];
} spool_cur;

static int v_connect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out, char **msg)
{
    (void)aux, (void)argc, (void)argv, (void)msg;
    int rc = sqlite3_declare_vtab(db, "CREATE TABLE x(c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11,"
                                      " c12, c13, c14, c15, spool HIDDEN)");
    if (rc != SQLITE_OK)
        return rc;
    *out = sqlite3_malloc(sizeof **out);
    if (!*out)
        return SQLITE_NOMEM;
    memset(*out, 0, sizeof **out);
    return SQLITE_OK;
}

static int v_disconnect(sqlite3_vtab *vt)
{
    sqlite3_free(vt);
    return SQLITE_OK;
}

/* Only read with its spool given (`gd_spool(?)`). */
static int v_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
    (void)vt;
    for (int i = 0; i < info->nConstraint; i++) {
        const struct sqlite3_index_constraint *c = &info->aConstraint[i];
        if (c->iColumn == GD_SPOOL_COLS && c->op == SQLITE_INDEX_CONSTRAINT_EQ && c->usable) {
            info->aConstraintUsage[i].argvIndex = 1;
            info->aConstraintUsage[i].omit = 1;
            info->estimatedCost = 1;
            return SQLITE_OK;
        }
    }
    return SQLITE_CONSTRAINT;
}

static int v_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
    (void)vt;
    spool_cur *c = sqlite3_malloc(sizeof *c);
    if (!c)
        return SQLITE_NOMEM;
    memset(c, 0, sizeof *c);
    c->eof = 1;
    *out = &c->base;
    return SQLITE_OK;
}

static int v_close(sqlite3_vtab_cursor *cur)
{
    spool_cur *c = (spool_cur *)cur;
    free(c->order);
    free(c->cbuf);
    sqlite3_free(c);
    return SQLITE_OK;
}

typedef struct keyed {
    int64_t key;
    size_t i;
} keyed;

static int by_key(const void *a, const void *b)
{
    int64_t ka = ((const keyed *)a)->key, kb = ((const keyed *)b)->key;
    return (ka > kb) - (ka < kb);
}

/* c->order: the spool's groups, smallest key first; -1 when out of memory. */
static int sort_groups(spool_cur *c)
{
    size_t n = c->sp->ng;
    keyed *k = malloc(n * sizeof *k);
    free(c->order);
    c->order = malloc(n * sizeof *c->order);
    if (!k || !c->order) {
        free(k);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        k[i] = (keyed){c->sp->g[i].key, i};
    qsort(k, n, sizeof *k, by_key);
    for (size_t i = 0; i < n; i++)
        c->order[i] = k[i].i;
    free(k);
    return 0;
}

static int cur_fail(spool_cur *c, const char *what)
{
    sqlite3_free(c->base.pVtab->zErrMsg);
    c->base.pVtab->zErrMsg = sqlite3_mprintf("cannot %s a temporary file in '%s': %s", what, gd_tmp_dir(),
                                             strerror(errno));
    return SQLITE_IOERR;
}

/* Reads the chunk at c->chunk; SQLITE_OK or an error. */
static int read_chunk(spool_cur *c)
{
    unsigned char hdr[CHUNK_HDR];
    int64_t next;
    uint32_t n;
    if (pread(c->sp->fd, hdr, CHUNK_HDR, c->chunk) != CHUNK_HDR)
        return cur_fail(c, "read");
    memcpy(&next, hdr, 8);
    memcpy(&n, hdr + 8, 4);
    if (n > c->ccap) {
        unsigned char *b = realloc(c->cbuf, n);
        if (!b)
            return SQLITE_NOMEM;
        c->cbuf = b;
        c->ccap = n;
    }
    if (pread(c->sp->fd, c->cbuf, n, c->chunk + CHUNK_HDR) != (ssize_t)n)
        return cur_fail(c, "read");
    c->p = c->cbuf;
    c->end = c->cbuf + n;
    c->chunk = next;
    return SQLITE_OK;
}

/* The record at c->p into c->v; c->p past it. */
static void decode(spool_cur *c)
{
    const unsigned char *p = c->p;
    uint32_t size;
    memcpy(&size, p, 4);
    size_t k = HDR;
    for (int i = 0; i < c->sp->ncols; i++) {
        gd_value *v = &c->v[i];
        uint64_t u;
        switch (p[k++]) {
        case 1:
            k += get_varint(p + k, &u);
            *v = (gd_value){.kind = GD_V_INT, .u.i = (int64_t)(u >> 1) ^ -(int64_t)(u & 1)};
            break;
        case 2:
            v->kind = GD_V_REAL;
            memcpy(&v->u.d, p + k, 8);
            k += 8;
            break;
        case 3:
            k += get_varint(p + k, &u);
            *v = (gd_value){.kind = GD_V_TEXT, .u.t = {(const char *)p + k, (size_t)u}};
            k += u;
            break;
        default:
            v->kind = GD_V_NULL;
        }
    }
    c->p = p + size;
}

/* To the next record, through the groups' chunks and buffers. */
static int v_next(sqlite3_vtab_cursor *cur)
{
    spool_cur *c = (spool_cur *)cur;
    while (c->p == c->end) {
        group *g = c->at < c->sp->ng ? &c->sp->g[c->order[c->at]] : NULL;
        if (!g) {
            c->eof = 1;
            return SQLITE_OK;
        }
        if (!c->in_buf && c->chunk >= 0) {
            int rc = read_chunk(c);
            if (rc != SQLITE_OK)
                return rc;
        } else if (!c->in_buf) {
            c->in_buf = 1;
            if (g->len) { /* (an empty group may have no buffer) */
                c->p = g->buf;
                c->end = g->buf + g->len;
            }
        } else if (++c->at < c->sp->ng) {
            c->in_buf = 0;
            c->chunk = c->sp->g[c->order[c->at]].head;
        }
    }
    decode(c);
    c->rowid++;
    return SQLITE_OK;
}

static int v_filter(sqlite3_vtab_cursor *cur, int idx, const char *idxs, int argc, sqlite3_value **argv)
{
    (void)idx, (void)idxs;
    spool_cur *c = (spool_cur *)cur;
    c->sp = argc == 1 ? sqlite3_value_pointer(argv[0], "gd_spool") : NULL;
    c->eof = 1;
    if (!c->sp || !c->sp->ng)
        return SQLITE_OK;
    if (sort_groups(c))
        return SQLITE_NOMEM;
    c->at = 0;
    c->in_buf = 0;
    c->chunk = c->sp->g[c->order[0]].head;
    c->p = c->end = NULL;
    c->rowid = 0;
    c->eof = 0;
    return v_next(cur);
}

static int v_eof(sqlite3_vtab_cursor *cur) { return ((spool_cur *)cur)->eof; }

static int v_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int i)
{
    spool_cur *c = (spool_cur *)cur;
    const gd_value *v = i < c->sp->ncols ? &c->v[i] : NULL;
    if (!v || v->kind == GD_V_NULL)
        sqlite3_result_null(ctx);
    else if (v->kind == GD_V_INT)
        sqlite3_result_int64(ctx, v->u.i);
    else if (v->kind == GD_V_REAL)
        sqlite3_result_double(ctx, v->u.d);
    else
        sqlite3_result_text(ctx, v->u.t.s, (int)v->u.t.n, SQLITE_STATIC);
    return SQLITE_OK;
}

static int v_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
    *rowid = ((spool_cur *)cur)->rowid;
    return SQLITE_OK;
}

static const sqlite3_module spool_module = {
    .xConnect = v_connect,
    .xBestIndex = v_best_index,
    .xDisconnect = v_disconnect,
    .xOpen = v_open,
    .xClose = v_close,
    .xFilter = v_filter,
    .xNext = v_next,
    .xEof = v_eof,
    .xColumn = v_column,
    .xRowid = v_rowid,
};

int gd_spool_drain(gd_spool *sp, gd_error *err)
{
    gd_store *s = sp->s;
    /* the table is made readable on the connection at its first use */
    if (!s->spool_module && sqlite3_create_module(s->db, "gd_spool", &spool_module, NULL) != SQLITE_OK)
        return gd_store_fail(s, err, "database");
    s->spool_module = 1;
    sqlite3_stmt *st = gd_store_prepare(s, sp->sql, err);
    if (!st)
        return err->code;
    sqlite3_bind_int64(st, 1, sp->p1);
    sqlite3_bind_pointer(st, 2, sp, "gd_spool", NULL);
    int rc = sqlite3_step(st) == SQLITE_DONE ? GD_OK : gd_store_fail(s, err, "database write");
    sqlite3_finalize(st);
    clear(sp);
    return rc;
}
