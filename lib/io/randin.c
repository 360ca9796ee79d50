/* randin.c - an input read in place or through an anonymous temporary copy (randin.h). */
#include "randin.h"

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/tmpfile.h"

int gd_randin_open(gd_randin *r, gd_input *in, uint64_t cap, const char *what, gd_error *err)
{
    r->fd = -1;
    r->spool = NULL;
    r->size = 0;
    int fd = gd_input_file_fd(in);
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        r->fd = fd;
        r->size = (uint64_t)st.st_size;
        return GD_OK;
    }
    FILE *f = gd_tmpfile(err);
    if (!f)
        return err->code;
    char buf[65536];
    ssize_t k;
    uint64_t got = 0;
    while ((k = gd_input_read(in, buf, sizeof buf, err)) > 0) {
        got += (uint64_t)k;
        if (got > cap) {
            fclose(f);
            return gd_error_set(err, GD_ERR_DATA, 0, 0, "%s over the size cap (%llu bytes)", what,
                                (unsigned long long)cap);
        }
        if (fwrite(buf, 1, (size_t)k, f) != (size_t)k) {
            int e = errno;
            fclose(f);
            return gd_tmp_write_error(err, e);
        }
    }
    if (k < 0 || fflush(f) != 0) {
        int e = errno;
        fclose(f);
        return k < 0 ? (err->code ? err->code : GD_ERR_IO) : gd_tmp_write_error(err, e);
    }
    r->spool = f;
    r->fd = fileno(f);
    r->size = got;
    return GD_OK;
}

void gd_randin_close(gd_randin *r)
{
    if (r->spool)
        fclose(r->spool);
    r->spool = NULL;
    r->fd = -1;
}

int gd_randin_read(const gd_randin *r, uint64_t off, void *buf, size_t n)
{
    char *p = buf;
    while (n) {
        ssize_t k = pread(r->fd, p, n, (off_t)off);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            if (k == 0)
                errno = 0;
            return -1;
        }
        p += k;
        n -= (size_t)k;
        off += (uint64_t)k;
    }
    return 0;
}
