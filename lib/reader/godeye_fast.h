/* godeye_fast.h - a small tokenizer for the hot event kinds of the godeye
 * capture format (looper, stack, cpu), so that most lines never build a
 * jansson tree.  It only accepts what it is sure of and hands everything
 * else to the general (jansson) path, which keeps all messages and rules. */
#ifndef GD_READER_GODEYE_FAST_H
#define GD_READER_GODEYE_FAST_H

#include <stddef.h>

#include "core/event.h"

/* Scratch owned by one read: decoded strings and the frame array.  Grows
 * to the longest event seen, never with the number of events. */
#define GD_FAST_MAX_KEYS 32
typedef struct gd_fast_scratch {
    char *buf;
    size_t cap;
    const char **frames;
    size_t frames_cap;
    /* the keys of the format's table that the fast path reads (built on
     * the first call): one slot per name, and the fields they feed */
    int nkeys, nfields, type_slot;
    struct {
        const char *name;
        unsigned char len, frames;
    } keys[GD_FAST_MAX_KEYS];
    struct {
        unsigned short field;
        unsigned char group, slot;
    } fields[GD_FAST_MAX_KEYS];
} gd_fast_scratch;

/* Parses one event object `text[0..len)` (trailing whitespace allowed).
 * Returns 1 with *ev filled (strings point into sc, valid until the next
 * call) when the object is a looper, stack or cpu event whose every field
 * the general path would accept without a skip or an error; 0 when the
 * general path must read it (any other kind, meta, unusual types, escapes
 * other than the simple ones, non-ASCII text, malformed JSON); -1 when out
 * of memory. */
int gd_fast_event(const char *text, size_t len, gd_fast_scratch *sc, gd_event *ev);

void gd_fast_scratch_free(gd_fast_scratch *sc);

#endif
