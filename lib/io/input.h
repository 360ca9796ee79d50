/* input.h - a byte stream over a file, stdin, memory or several files, with
 * transparent gzip (by magic bytes), a content hash and a line reader.
 *
 * Memory is bounded: a fixed read buffer plus the longest line seen (lines
 * longer than GD_INPUT_MAX_LINE are an error, never an allocation). */
#ifndef GD_IO_INPUT_H
#define GD_IO_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/error.h"

#define GD_INPUT_MAX_LINE ((size_t)16 << 20)
#define GD_INPUT_PEEK 65536

typedef struct gd_input gd_input;

/* Opens `path` ("-" = stdin).  Fails with GD_ERR_IO on a missing file or a
 * directory (message says which). */
int gd_input_open_file(gd_input **out, const char *path, gd_error *err);
/* Opens the concatenation of `n` files, in order (a BlockCanary folder). */
int gd_input_open_files(gd_input **out, char *const *paths, size_t n, gd_error *err);
/* Opens a copy-free view of memory (tests, network bodies). */
int gd_input_open_mem(gd_input **out, const void *data, size_t n, gd_error *err);
/* Opens a stream fed by a pull callback returning bytes read, 0 at end, -1 on
 * error (with err filled).  Used by the URL fetcher. */
typedef ssize_t (*gd_pull_fn)(void *ctx, void *buf, size_t n, gd_error *err);
int gd_input_open_pull(gd_input **out, gd_pull_fn fn, void *ctx, gd_error *err);
void gd_input_close(gd_input *in);

/* Up to GD_INPUT_PEEK decompressed bytes from the start, without consuming;
 * *eof set when that is the whole stream.  For format detection. */
const unsigned char *gd_input_peek(gd_input *in, size_t *n, int *eof, gd_error *err);

/* Reads up to n decompressed bytes: >0 count, 0 at end, -1 error. */
ssize_t gd_input_read(gd_input *in, void *buf, size_t n, gd_error *err);

/* Next line without its "\n" (a trailing "\r" is removed too).  Returns 1
 * with line and len set (NUL-terminated, valid until the next call), 0 at end,
 * -1 on error (a line over GD_INPUT_MAX_LINE, a read failure). */
int gd_input_getline(gd_input *in, char **line, size_t *len, gd_error *err);
/* 1-based number of the line last returned by gd_input_getline. */
long gd_input_lineno(const gd_input *in);
/* 1 when the line last returned by gd_input_getline ended the input without
 * its "\n" (a capture cut mid-line), else 0. */
int gd_input_line_cut(const gd_input *in);

int gd_input_is_gzip(const gd_input *in);
/* Text encodings, below every reader: a UTF-8 BOM at the start is dropped;
 * UTF-16LE/BE text is transcoded to UTF-8, recognised by its BOM (dropped)
 * or, without one, by its first bytes: at least GD_INPUT_UTF16_SAMPLE bytes
 * (up to 512 looked at) all printable ASCII or whitespace with a NUL beside
 * each (as a PowerShell redirect writes).  Binary data never matches.
 * Line numbers are those of the original text; a column counts bytes of
 * the line as transcoded to UTF-8.  The content hash is of the bytes as
 * they were.  "UTF-16LE"/"UTF-16BE" when transcoding (known once peeked or
 * read), else NULL. */
#define GD_INPUT_UTF16_SAMPLE 32
const char *gd_input_encoding(const gd_input *in);
/* The descriptor of an input that is one regular file read as is (not
 * gzip), for readers that need random access (zip) and read it with pread
 * so the stream's position stays where it is; -1 for anything else. */
int gd_input_file_fd(const gd_input *in);
/* Compressed (on-disk) bytes consumed so far and the total when known (-1). */
uint64_t gd_input_raw_bytes(const gd_input *in);
int64_t gd_input_raw_size(const gd_input *in);
/* Hex content hash of the decompressed bytes read so far (32 hex chars + NUL);
 * complete once the stream has been read to its end. */
void gd_input_hash_hex(const gd_input *in, char out[33]);

#endif
