/* tmpfile.c - temporary files in $TMPDIR (else /tmp), O_EXCL, unlinked at once. */
#define _GNU_SOURCE
#include "tmpfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *gd_tmp_dir(void)
{
    const char *d = getenv("TMPDIR");
    return d && *d ? d : "/tmp";
}

FILE *gd_tmpfile(gd_error *err)
{
    const char *dir = gd_tmp_dir();
    size_t n = strlen(dir);
    char *path = malloc(n + sizeof "/godeye-XXXXXX");
    if (!path) {
        gd_error_oom(err);
        return NULL;
    }
    memcpy(path, dir, n);
    memcpy(path + n, "/godeye-XXXXXX", sizeof "/godeye-XXXXXX");
    int fd = mkostemp(path, O_CLOEXEC); /* O_CREAT | O_EXCL, 0600 */
    int e = errno;
    if (fd >= 0)
        unlink(path);
    free(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w+b") : NULL;
    if (!f) {
        if (fd >= 0) {
            e = errno;
            close(fd);
        }
        gd_error_set(err, GD_ERR_IO, 0, 0, "cannot create a temporary file in '%s': %s", dir, strerror(e));
    }
    return f;
}

int gd_tmp_write_error(gd_error *err, int errnum)
{
    return gd_error_set(err, GD_ERR_IO, 0, 0, "cannot write a temporary file in '%s': %s", gd_tmp_dir(),
                        errnum ? strerror(errnum) : "write error");
}
