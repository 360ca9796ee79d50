/* bugreport.h - the parts of the bugreport reader shared by its text
 * splitter (bugreport.c) and its zip path (bugreport_zip.c), and the entry
 * points the tests and fuzzers call with caps of their own. */
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

/* NULL when out of memory. */
gd_br *gd_br_new(const gd_sink *sink, const gd_read_opts *opts);
void gd_br_free(gd_br *b);
/* Reads one bugreport text (the whole file, or the zip's main member,
 * named `member` in messages; NULL for a plain file), routing each known
 * section to its reader.  GD_OK, or an error code with err set (a read
 * failure, a line over GD_INPUT_MAX_LINE, a sink that stopped). */
int gd_br_text(gd_br *b, gd_input *in, const char *member, gd_error *err);
/* Reads an ANR dump file of its own (a zip's FS/data/anr/ member);
 * *stream_failed is set by the stream when `in` itself failed (then its
 * error is passed on, not counted as an unreadable dump). */
int gd_br_anr_file(gd_br *b, gd_input *in, const char *member, const int *stream_failed, gd_error *err);
/* 1 when a "VM TRACES" section of the text was the dump of `path`
 * ("/data/anr/anr_2019-..."), so the same file in the zip is not read twice. */
int gd_br_anr_seen(const gd_br *b, const char *path);
/* Counts a skip through the bugreport's sink. */
void gd_br_skip(gd_br *b, const char *reason, long line);
/* Sends the meta gathered from the header and the system properties
 * (format "text" or "zip" goes into its JSON). */
int gd_br_finish(gd_br *b, const char *format, gd_error *err);

/* A copy of untrusted text safe to print: at most `n`-1 bytes, control
 * and non-ASCII bytes as '?'. */
void gd_br_printable(char *out, size_t n, const char *s, size_t len);

/* Reads a bugreport zip held in memory, with the given caps (tests,
 * fuzzers).  Same contract as the reader's read. */
int gd_bugreport_read_zip_mem(const void *data, size_t n, const gd_bugreport_caps *caps,
                              const gd_sink *sink, const gd_read_opts *opts, gd_error *err);
/* Reads a bugreport zip from an input positioned anywhere: a regular file
 * is read in place (pread, the input's own position untouched), anything
 * else is spooled first (caps->spool_max). */
int gd_bugreport_read_zip(gd_input *in, const gd_bugreport_caps *caps, const gd_sink *sink,
                          const gd_read_opts *opts, gd_error *err);

#endif
