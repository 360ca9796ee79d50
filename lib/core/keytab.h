/* keytab.h - a keyed table: (64-bit key, 32-bit kind) -> a pointer and a
 * length, open addressing with linear probing, for the Perfetto reader's
 * interned data (event names, profile entries, kernel symbols; #24).
 *
 * The table owns only its slot array: what `val` points to belongs to the
 * caller, who frees it (walking `t[0..cap)` for `used` slots) before
 * gd_keytab_clear.  Bounded: it holds at most GD_KEYTAB_MAX entries (the
 * callers keep their own, smaller caps); the load stays at or under half, so
 * every probe ends at an empty slot. */
#ifndef GD_CORE_KEYTAB_H
#define GD_CORE_KEYTAB_H

#include <stddef.h>
#include <stdint.h>

#define GD_KEYTAB_MAX ((size_t)1 << 24)

typedef struct gd_keytab_ent {
    uint64_t key;
    uint32_t kind;
    uint32_t len;
    void *val;
    int used;
} gd_keytab_ent;

typedef struct gd_keytab {
    gd_keytab_ent *t; /* cap slots, cap a power of two (0: none yet) */
    size_t cap, n;
} gd_keytab;

/* The entry of (key, kind), or NULL. */
gd_keytab_ent *gd_keytab_find(const gd_keytab *t, uint64_t key, uint32_t kind);
/* The entry of (key, kind), made (used, val NULL, len 0; *fresh = 1) when
 * absent, after growing the array if needed; NULL when out of memory or
 * GD_KEYTAB_MAX entries are held. */
gd_keytab_ent *gd_keytab_put(gd_keytab *t, uint64_t key, uint32_t kind, int *fresh);
/* Frees the slot array; the table is empty again. */
void gd_keytab_clear(gd_keytab *t);

#endif
