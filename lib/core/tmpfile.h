/* tmpfile.h - the one way libgodeye makes a temporary file (#53 item 2):
 * in $TMPDIR (else /tmp), created with O_EXCL and unlinked at once. */
#ifndef GD_CORE_TMPFILE_H
#define GD_CORE_TMPFILE_H

#include <stdio.h>

#include "error.h"

/* The folder temporary files go to: $TMPDIR when set and not empty, else
 * /tmp. */
const char *gd_tmp_dir(void);

/* A new, empty temporary file in gd_tmp_dir() opened for reading and
 * writing: made by mkostemp (O_EXCL, mode 0600, close-on-exec) and
 * unlinked at once, so only the returned stream holds it.  NULL with err
 * filled (GD_ERR_IO, "cannot create a temporary file in 'DIR': reason")
 * when it cannot be made. */
FILE *gd_tmpfile(gd_error *err);

/* Fills err for a temporary file that could not be written (errnum an
 * errno value, 0: unknown): GD_ERR_IO, "cannot write a temporary file in
 * 'DIR': reason".  Returns GD_ERR_IO. */
int gd_tmp_write_error(gd_error *err, int errnum);

#endif
