/* pbwire.h - the protobuf wire format, read in place: varints and fields
 * of a message held in memory (no generated code, no schema).  Used by the
 * perfetto reader. */
#ifndef GD_READER_PBWIRE_H
#define GD_READER_PBWIRE_H

#include <stddef.h>
#include <stdint.h>

enum { PB_VARINT = 0, PB_I64 = 1, PB_LEN = 2, PB_I32 = 5 };

typedef struct pb_cur {
    const uint8_t *p, *end;
} pb_cur;

typedef struct pb_field {
    uint32_t num;        /* field number                                   */
    int wt;              /* wire type                                      */
    uint64_t v;          /* value of VARINT / I64 / I32                    */
    const uint8_t *data; /* bytes of a LEN field                           */
    size_t len;
} pb_field;

/* Varint at *p (before end): 1 with *out set and *p advanced, 0 when the
 * bytes end first or it is longer than 10 bytes.  Non-minimal encodings
 * (padded with 0x80 bytes) are accepted.  Always inlined (#50): at -O3 a
 * call for each, even of one byte, cost the slices trace 1.4 %. */
static inline __attribute__((always_inline)) int pb_varint(const uint8_t **p, const uint8_t *end, uint64_t *out)
{
    if (*p < end && **p < 0x80) { /* #50: one byte, most keys and lengths */
        *out = *(*p)++;
        return 1;
    }
    if (end - *p >= 2 && (*p)[1] < 0x80) { /* #50: two bytes, pids and tids */
        *out = (uint64_t)((*p)[0] & 0x7F) | (uint64_t)(*p)[1] << 7;
        *p += 2;
        return 1;
    }
    if (end - *p >= 10) { /* #50: room for the longest, no bound to test a byte */
        const uint8_t *q = *p;
        uint64_t r = 0;
        for (int i = 0; i < 10; i++) {
            r |= (uint64_t)(q[i] & 0x7F) << (7 * i);
            if (q[i] < 0x80) {
                *out = r;
                *p = q + i + 1;
                return 1;
            }
        }
        return 0;
    }
    uint64_t r = 0;
    for (int s = 0; s < 70; s += 7) {
        if (*p >= end)
            return 0;
        uint8_t c = *(*p)++;
        if (s < 64)
            r |= (uint64_t)(c & 0x7F) << s;
        if (!(c & 0x80)) {
            *out = r;
            return 1;
        }
    }
    return 0;
}

/* Next field of the message: 1 with f set, 0 at the end, -1 when malformed
 * (a field cut short, a group or unknown wire type, field number 0).
 * Always inlined (#50): a call per field, 1.14 M of them, was 3 % of a
 * 4 MB sched-heavy trace's ingest; the readers' loops keep what they use. */
static inline __attribute__((always_inline)) int pb_next(pb_cur *c, pb_field *f)
{
    /* every member set, whatever the wire type (callers test wt first;
     * this keeps -Wmaybe-uninitialized quiet at -O2/-O3) */
    f->v = 0;
    f->data = NULL;
    f->len = 0;
    if (c->p >= c->end)
        return 0;
    uint64_t key;
    if (!pb_varint(&c->p, c->end, &key))
        return -1;
    f->num = (uint32_t)(key >> 3);
    f->wt = (int)(key & 7);
    if (f->num == 0 || (key >> 3) > 0x1FFFFFFF)
        return -1;
    switch (f->wt) {
    case PB_VARINT:
        return pb_varint(&c->p, c->end, &f->v) ? 1 : -1;
    case PB_I64:
        if (c->end - c->p < 8)
            return -1;
        f->v = 0;
        for (int i = 7; i >= 0; i--)
            f->v = f->v << 8 | c->p[i];
        c->p += 8;
        return 1;
    case PB_I32:
        if (c->end - c->p < 4)
            return -1;
        f->v = (uint64_t)c->p[0] | (uint64_t)c->p[1] << 8 | (uint64_t)c->p[2] << 16 |
               (uint64_t)c->p[3] << 24;
        c->p += 4;
        return 1;
    case PB_LEN: {
        uint64_t len;
        if (!pb_varint(&c->p, c->end, &len) || len > (uint64_t)(c->end - c->p))
            return -1;
        f->data = c->p;
        f->len = (size_t)len;
        c->p += len;
        return 1;
    }
    default:
        return -1;
    }
}

static inline pb_cur pb_sub(const pb_field *f)
{
    pb_cur c = {f->data, f->data + f->len};
    return c;
}

/* A message read by a table (#45 item 3: named fields, no hand loop): each
 * entry names a field number, what it holds and where its value goes.  A
 * field of that number and wire type is stored (a later one replaces an
 * earlier, as protobuf says); other fields are passed over. */
typedef enum {
    PBW_I32,   /* int64_t *: a varint read as int32 (pids, tids)   */
    PBW_U64,   /* uint64_t *: a varint                             */
    PBW_BOOL,  /* int *: a varint, 1 when not 0                    */
    PBW_BYTES  /* pb_bytes *: a LEN field's bytes                  */
} pb_want_kind;

typedef struct pb_bytes {
    const uint8_t *p; /* NULL: not given */
    size_t n;
} pb_bytes;

typedef struct pb_want {
    uint32_t num;
    pb_want_kind kind;
    void *dst;
} pb_want;

/* Reads message m by want[0..n) (n <= 32, field numbers distinct: a
 * field goes to the first entry of its number and kind): the set of
 * entries given (bit i: want[i]), or -1 when m is malformed (values read
 * so far are kept). */
static inline int64_t pb_read_wanted(pb_cur m, const pb_want *want, int n)
{
    pb_field f;
    int r;
    int64_t seen = 0;
    while ((r = pb_next(&m, &f)) == 1)
        for (int i = 0; i < n; i++) {
            const pb_want *w = &want[i];
            if (w->num != f.num || (w->kind == PBW_BYTES) != (f.wt == PB_LEN) ||
                (w->kind != PBW_BYTES && f.wt != PB_VARINT))
                continue;
            if (w->kind == PBW_I32)
                *(int64_t *)w->dst = (int64_t)(int32_t)f.v;
            else if (w->kind == PBW_U64)
                *(uint64_t *)w->dst = f.v;
            else if (w->kind == PBW_BOOL)
                *(int *)w->dst = f.v != 0;
            else
                *(pb_bytes *)w->dst = (pb_bytes){f.data, f.len};
            seen |= (int64_t)1 << i;
            break;
        }
    return r < 0 ? -1 : seen;
}
#define PB_WANTS(a) (a), (int)(sizeof(a) / sizeof((a)[0]))

#endif
