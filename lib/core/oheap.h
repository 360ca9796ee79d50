/* oheap.h - a min-heap of fixed-size entries in arrival order among equal
 * keys, for the Perfetto reader's time order (slice begins and ends,
 * scheduling events; #33).
 *
 * The heap moves 16-byte keys (a 64-bit key, and the arrival number shifted
 * left by GD_OHEAP_SLOT_BITS or'd with the entry's slot); the entries stay
 * in a slot array and are copied once in and once out.  Keys compare as
 * unsigned: gd_oheap_key_i64 and gd_oheap_key_f64 map signed integers and
 * doubles onto them in order.  Bounded: at most GD_OHEAP_MAX entries wait
 * (the callers keep their own, smaller caps); 2^44 pushes in all. */
#ifndef GD_CORE_OHEAP_H
#define GD_CORE_OHEAP_H

#include <stddef.h>
#include <stdint.h>

#define GD_OHEAP_SLOT_BITS 20
#define GD_OHEAP_MAX ((size_t)1 << GD_OHEAP_SLOT_BITS)

typedef struct gd_oheap_key {
    uint64_t key;
    uint64_t ord;
} gd_oheap_key;

typedef struct gd_oheap {
    size_t elem;          /* entry size */
    gd_oheap_key *k;      /* n keys in heap order */
    unsigned char *slots; /* cap entries */
    uint32_t *free;       /* nfree free slots below nslots */
    size_t n, cap, nslots, nfree;
    uint64_t seq;         /* arrivals so far */
} gd_oheap;

/* An empty heap of entries of `elem` bytes (nothing allocated yet). */
void gd_oheap_init(gd_oheap *h, size_t elem);
/* Room for the entry of `key`, to be filled by the caller before the next
 * call on the heap; NULL when out of memory or GD_OHEAP_MAX wait. */
void *gd_oheap_push(gd_oheap *h, uint64_t key);
/* Takes the top entry out into `out` (elem bytes); n > 0. */
void gd_oheap_pop(gd_oheap *h, void *out);
/* The i-th waiting entry in heap order: 0 is the top (the smallest key, the
 * earliest of equal keys), the others in no order (to free what they own). */
void *gd_oheap_at(const gd_oheap *h, size_t i);
/* Frees the arrays; the heap is empty again. */
void gd_oheap_clear(gd_oheap *h);

static inline uint64_t gd_oheap_key_i64(int64_t v) { return (uint64_t)v ^ ((uint64_t)1 << 63); }
/* In the order of <, with -0.0 as 0.0; not for NaN. */
static inline uint64_t gd_oheap_key_f64(double v)
{
    union {
        double d;
        uint64_t u;
    } x = {v == 0 ? 0.0 : v};
    return x.u >> 63 ? ~x.u : x.u | ((uint64_t)1 << 63);
}

#endif
