/* bugreport.h - the bugreport reader's zip limits and the entry point the
 * tests and fuzzers call with caps of their own. */
#ifndef GD_READER_BUGREPORT_H
#define GD_READER_BUGREPORT_H

#include <stdint.h>

#include "reader.h"

/* Limits on a bugreport zip (untrusted input).  Sizes are uncompressed
 * bytes actually streamed, not the sizes the zip declares. */
typedef struct gd_bugreport_caps {
    uint64_t member_max;  /* one member read (the main text, an ANR dump)   */
    uint64_t total_max;   /* every member read, together                   */
    uint64_t ratio_max;   /* uncompressed / compressed of one member (a    *
                           * member under ratio_floor bytes is exempt)      */
    uint64_t ratio_floor;
    uint64_t spool_max;   /* a zip that is not a regular file (stdin, URL, *
                           * gzip) is copied to an anonymous temp file:     *
                           * at most this many compressed bytes             */
    uint64_t members_max; /* entries in the central directory              */
} gd_bugreport_caps;

/* The defaults: 512 MiB per member, 2 GiB in all, ratio 200 above 1 MiB,
 * 1 GiB of zip to spool, 100 000 entries. */
extern const gd_bugreport_caps gd_bugreport_default_caps;

/* State across one bugreport (one trace): header fields for the meta, the
 * titles of ignored sections, the ANR files a "VM TRACES" section read. */
typedef struct gd_br gd_br;

/* A zip that is no bugreport, read as a folder (issue 46): fn is called
 * once per member that is a file (in the zip's order), with `in` streaming
 * it, or with in NULL and `why` saying why the member is not read (encrypted,
 * compression unsupported, over caps' size or ratio caps; a member that
 * inflates past them while read fails its fn with the reason).  The zip is
 * opened from the regular file `path` and never written out; member names
 * are only compared and quoted.  GD_OK, fn's first non-zero code (which
 * stops the walk), or GD_ERR_DATA when the zip cannot be read or holds more
 * than caps->members_max entries. */
typedef int (*gd_zip_member_fn)(void *ctx, const char *name, gd_input *in, const char *why, gd_error *err);
int gd_zip_each_member(const char *path, const gd_bugreport_caps *caps, gd_zip_member_fn fn, void *ctx,
                       gd_error *err);

/* Reads a bugreport zip held in memory, with the given caps (tests,
 * fuzzers).  Same contract as the reader's read. */
int gd_bugreport_read_zip_mem(const void *data, size_t n, const gd_bugreport_caps *caps,
                              const gd_sink *sink, const gd_read_opts *opts, gd_error *err);
#endif
