/* icache.c - open-addressing string -> id cache with a hard size bound. */
#include "icache.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

typedef struct slot {
    uint64_t hash;      /* 0 = empty */
    int64_t id;
    uint32_t off, len;  /* key bytes in the arena */
} slot;

struct gd_icache {
    slot *slots;
    size_t cap;         /* power of two; grows up to max_cap */
    size_t max_cap;
    size_t count, max_entries;
    char *arena;
    size_t arena_len, arena_cap; /* arena grows up to max_bytes */
    size_t max_bytes;
};

uint64_t gd_icache_hash_of_fnv(uint64_t h)
{
    h ^= h >> 29;
    return h ? h : 1;
}

uint64_t gd_icache_hash(const void *p, size_t n) { return gd_icache_hash_of_fnv(gd_fnv1a(p, n)); }

gd_icache *gd_icache_new(size_t max_entries, size_t max_bytes)
{
    gd_icache *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->max_cap = 16;
    while (c->max_cap < max_entries * 2)
        c->max_cap <<= 1;
    /* start small: most captures intern far fewer keys than the bound */
    c->cap = c->max_cap < 1024 ? c->max_cap : 1024;
    c->max_entries = max_entries;
    c->max_bytes = max_bytes;
    c->slots = calloc(c->cap, sizeof(slot));
    c->arena_cap = max_bytes < 65536 ? max_bytes : 65536;
    c->arena = malloc(c->arena_cap ? c->arena_cap : 1);
    if (!c->slots || !c->arena) {
        gd_icache_free(c);
        return NULL;
    }
    return c;
}

/* Doubles the slot table (rehashing), keeping the load under one half. */
static int grow_slots(gd_icache *c)
{
    size_t nc = c->cap * 2;
    slot *ns = calloc(nc, sizeof(slot));
    if (!ns)
        return -1;
    for (size_t i = 0; i < c->cap; i++) {
        if (!c->slots[i].hash)
            continue;
        size_t j = c->slots[i].hash & (nc - 1);
        while (ns[j].hash)
            j = (j + 1) & (nc - 1);
        ns[j] = c->slots[i];
    }
    free(c->slots);
    c->slots = ns;
    c->cap = nc;
    return 0;
}

/* Makes room for `len` more key bytes (up to max_bytes). */
static int grow_arena(gd_icache *c, size_t len)
{
    size_t nc = c->arena_cap ? c->arena_cap : 1;
    while (nc < c->arena_len + len && nc < c->max_bytes)
        nc *= 2;
    if (nc > c->max_bytes)
        nc = c->max_bytes;
    if (nc < c->arena_len + len)
        return -1;
    char *na = realloc(c->arena, nc);
    if (!na)
        return -1;
    c->arena = na;
    c->arena_cap = nc;
    return 0;
}

void gd_icache_free(gd_icache *c)
{
    if (!c)
        return;
    free(c->slots);
    free(c->arena);
    free(c);
}

static void reset(gd_icache *c)
{
    memset(c->slots, 0, c->cap * sizeof(slot));
    c->count = 0;
    c->arena_len = 0;
}

int gd_icache_get(gd_icache *c, const void *key, size_t len, int64_t *id)
{
    return gd_icache_get_h(c, gd_icache_hash(key, len), key, len, id);
}

int gd_icache_get_h(gd_icache *c, uint64_t h, const void *key, size_t len, int64_t *id)
{
    for (size_t i = h & (c->cap - 1);; i = (i + 1) & (c->cap - 1)) {
        slot *s = &c->slots[i];
        if (!s->hash)
            return 0;
        if (s->hash == h && s->len == len && memcmp(c->arena + s->off, key, len) == 0) {
            *id = s->id;
            return 1;
        }
    }
}

void gd_icache_put(gd_icache *c, const void *key, size_t len, int64_t id)
{
    gd_icache_put_h(c, gd_icache_hash(key, len), key, len, id);
}

void gd_icache_put_h(gd_icache *c, uint64_t h, const void *key, size_t len, int64_t id)
{
    if (len > c->max_bytes / 4)
        return; /* too big to be worth caching */
    if (c->count + 1 > c->max_entries || c->arena_len + len > c->max_bytes)
        reset(c);
    if ((c->count + 1) * 2 > c->cap && c->cap < c->max_cap && grow_slots(c) != 0)
        reset(c);
    if (c->arena_len + len > c->arena_cap && grow_arena(c, len) != 0)
        return; /* out of memory: simply not cached */
    size_t i = h & (c->cap - 1);
    while (c->slots[i].hash) {
        slot *s = &c->slots[i];
        if (s->hash == h && s->len == len && memcmp(c->arena + s->off, key, len) == 0) {
            s->id = id;
            return;
        }
        i = (i + 1) & (c->cap - 1);
    }
    memcpy(c->arena + c->arena_len, key, len);
    c->slots[i].hash = h;
    c->slots[i].id = id;
    c->slots[i].off = (uint32_t)c->arena_len;
    c->slots[i].len = (uint32_t)len;
    c->arena_len += len;
    c->count++;
}

size_t gd_icache_count(const gd_icache *c) { return c->count; }
