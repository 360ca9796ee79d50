/* randin.h - random access to an input, for the readers of formats that
 * point backwards and forwards (a zip's central directory, a perf.data's
 * feature sections after its records): the input's own file read in place
 * with pread when it is one regular file read as is (its stream position
 * and content hash untouched), else its bytes copied to an anonymous
 * temporary file (core/tmpfile.h), at most `cap` bytes (the copy goes
 * through the stream, so the content hash covers them). */
#ifndef GD_IO_RANDIN_H
#define GD_IO_RANDIN_H

#include <stdint.h>
#include <stdio.h>

#include "core/error.h"
#include "io/input.h"

typedef struct gd_randin {
    int fd;        /* read with pread; the input's own or the copy's      */
    FILE *spool;   /* the copy, or NULL when read in place                */
    uint64_t size; /* bytes                                               */
} gd_randin;

/* Opens r over `in`.  Over `cap` bytes to copy: GD_ERR_DATA "WHAT over the
 * size cap (N bytes)"; a copy that cannot be made or written: GD_ERR_IO. */
int gd_randin_open(gd_randin *r, gd_input *in, uint64_t cap, const char *what, gd_error *err);
/* Closes the copy, if any (the input's own descriptor stays open). */
void gd_randin_close(gd_randin *r);
/* Reads exactly n bytes at off: 0, or -1 when the file ends first or the
 * read fails (errno set; 0 at the end). */
int gd_randin_read(const gd_randin *r, uint64_t off, void *buf, size_t n);

#endif
