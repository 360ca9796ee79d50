/* icache.h - a bounded cache from byte strings to 64-bit ids (interning).
 *
 * Memory never exceeds the capacity given at creation: when the table is
 * full it is emptied and starts over (callers fall back to the database,
 * which holds the truth). */
#ifndef GD_CORE_ICACHE_H
#define GD_CORE_ICACHE_H

#include <stddef.h>
#include <stdint.h>

typedef struct gd_icache gd_icache;

/* NULL when out of memory.  `max_entries` > 0, `max_bytes` bounds key bytes. */
gd_icache *gd_icache_new(size_t max_entries, size_t max_bytes);
void gd_icache_free(gd_icache *c);
/* 1 and *id when present, else 0. */
int gd_icache_get(gd_icache *c, const void *key, size_t len, int64_t *id);
/* Remembers key -> id (may first empty the cache to make room). */
void gd_icache_put(gd_icache *c, const void *key, size_t len, int64_t id);
/* The same with the key's hash computed once by the caller: gd_icache_hash
 * of the key (a caller that hashes the key for its own table anyway). */
uint64_t gd_icache_hash(const void *key, size_t len);
uint64_t gd_icache_hash_of_fnv(uint64_t fnv1a);
int gd_icache_get_h(gd_icache *c, uint64_t h, const void *key, size_t len, int64_t *id);
void gd_icache_put_h(gd_icache *c, uint64_t h, const void *key, size_t len, int64_t id);
/* The stored key of an entry found by id is not kept: this is one-way. */
size_t gd_icache_count(const gd_icache *c);

#endif
