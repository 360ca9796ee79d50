/* oheap.h - a min-heap of fixed-size entries in arrival order among equal
 * keys, for the Perfetto reader's time order (slice begins and ends,
 * scheduling events; #33).
 *
 * The heap moves 16-byte keys (a 64-bit key, and the arrival number shifted
 * left by GD_OHEAP_SLOT_BITS or'd with the entry's slot); the entries stay
 * in a slot array and are copied once in and once out.  Keys compare as
 * unsigned: gd_oheap_key_i64 and gd_oheap_key_f64 map signed integers and
 * doubles onto them in order.  Bounded: at most GD_OHEAP_MAX entries wait
 * (the callers keep their own, smaller caps); 2^44 pushes in all.
 *
 * Lanes (#50): entries that arrive in key order from one source (a CPU's
 * ftrace events) can be pushed in that source's lane: an entry not
 * smaller than its lane's last waiting one joins that one's run, and the
 * heap orders runs by their first entries, so a push is O(1) and a pop
 * sifts among the runs, not among every entry.  The order out is the same
 * (key, then arrival) whatever the lanes. */
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
    gd_oheap_key *k;      /* keys in heap order: n, or with lanes nk (each run's first entry's) */
    unsigned char *slots; /* cap entries */
    uint32_t *free;       /* nfree free slots below nslots */
    size_t n, cap, nslots, nfree;
    size_t nk;            /* with lanes, the runs waiting (0 without) */
    uint64_t seq;         /* arrivals so far */
    /* lanes (gd_oheap_init_lanes), NULL without: */
    size_t nlanes;
    gd_oheap_key *sk;     /* each slot's key (ord UINT64_MAX once taken out) */
    uint32_t *next;       /* each slot's next entry in its run, UINT32_MAX none */
    uint64_t *lane;       /* each lane's last entry's ord, UINT64_MAX none */
} gd_oheap;

/* An empty heap of entries of `elem` bytes (nothing allocated yet). */
void gd_oheap_init(gd_oheap *h, size_t elem);
/* The same, with lanes 0 .. nlanes - 1 for gd_oheap_push_lane. */
void gd_oheap_init_lanes(gd_oheap *h, size_t elem, size_t nlanes);
/* Room for the entry of `key`, to be filled by the caller before the next
 * call on the heap; NULL when out of memory or GD_OHEAP_MAX wait. */
void *gd_oheap_push(gd_oheap *h, uint64_t key);
/* The same in lane `lane` (past the heap's lanes: a run of its own).  A
 * heap with lanes (gd_oheap_init_lanes) takes its entries by this call
 * only, one without by gd_oheap_push only. */
void *gd_oheap_push_lane(gd_oheap *h, uint64_t key, size_t lane);
/* Takes the top entry out into `out` (elem bytes); n > 0. */
void gd_oheap_pop(gd_oheap *h, void *out);
/* The i-th waiting entry in heap order: 0 is the top (the smallest key, the
 * earliest of equal keys), the others in no order (to free what they own;
 * with lanes, only the top: i < nk are the runs' first entries). */
void *gd_oheap_at(const gd_oheap *h, size_t i);
/* Frees the arrays; the heap is empty again (with its lanes). */
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
