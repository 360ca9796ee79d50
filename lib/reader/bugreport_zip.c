/* bugreport_zip.c - the Android 7+ bugreport zip, read with libzip: its
 * main text and its ANR dump files streamed member by member.
 *
 * The zip is untrusted.  Nothing is ever written out of it: member names
 * are only compared and quoted (escaped), never used as paths, and each
 * member read is streamed through libzip into the text splitter or the anr
 * reader.  A regular file is read in place (pread, so the input's own
 * position and content hash are untouched); stdin, a URL or a gzip-wrapped
 * zip is first copied to an anonymous temp file (tmpfile(), already
 * unlinked), at most caps->spool_max bytes.
 *
 * Members read:
 *   - the main text: the name in main_entry.txt when there is one (else,
 *     or when it names no member: counted, then) the first top-level
 *     "bugreport-*.txt"; none at all = "not a bugreport zip" (GD_ERR_NOT_MINE:
 *     a zip of something else, passed over in a folder);
 *   - ANR dumps: "FS/data/anr/anr_*" and "FS/data/anr/traces*.txt" (Android
 *     10+ puts "traces-just-now.txt" there instead of in the text), each an
 *     ANR file of its own, except one the main text already held as a "VM
 *     TRACES" section of the same path (counted "ignored: bugreport zip
 *     member already read as a VM TRACES section");
 *   - every other member is counted as "ignored: bugreport zip member not
 *     read" (folders are passed over).
 *
 * Refused members (counted, the rest of the zip is read): encrypted ones
 * ("bugreport: zip member encrypted"), ones compressed with a method libzip
 * cannot inflate ("bugreport: zip member compression unsupported"), ones
 * whose declared size is over the per-member cap or would take the total
 * over its cap ("bugreport: zip member over the size cap", "... over the
 * total size cap"), ones whose declared compression ratio is over the cap
 * ("bugreport: zip member over the compression ratio cap").  The caps are
 * enforced again on the bytes actually streamed (a member that inflates
 * past what it declared is an error: the zip lies about itself). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zip.h>

#include "reader/bugreport.h"

const gd_bugreport_caps gd_bugreport_default_caps = {
    .member_max = (uint64_t)512 << 20,
    .total_max = (uint64_t)2 << 30,
    .ratio_max = 200,
    .ratio_floor = (uint64_t)1 << 20,
    .spool_max = (uint64_t)1 << 30,
    .members_max = 100000,
};

/* ---- a zip source over a file descriptor, by pread ---- */

typedef struct fd_src {
    int fd;
    uint64_t size, pos;
    zip_error_t error;
} fd_src;

static zip_int64_t fd_src_cb(void *ud, void *data, zip_uint64_t len, zip_source_cmd_t cmd)
{
    fd_src *f = ud;
    switch (cmd) {
    case ZIP_SOURCE_OPEN:
        f->pos = 0;
        return 0;
    case ZIP_SOURCE_READ: {
        if (f->pos >= f->size)
            return 0;
        if (len > f->size - f->pos)
            len = f->size - f->pos;
        for (;;) {
            ssize_t k = pread(f->fd, data, len, (off_t)f->pos);
            if (k < 0 && errno == EINTR)
                continue;
            if (k < 0) {
                zip_error_set(&f->error, ZIP_ER_READ, errno);
                return -1;
            }
            f->pos += (uint64_t)k;
            return k;
        }
    }
    case ZIP_SOURCE_CLOSE:
        return 0;
    case ZIP_SOURCE_STAT: {
        if (len < sizeof(zip_stat_t)) {
            zip_error_set(&f->error, ZIP_ER_INVAL, 0);
            return -1;
        }
        zip_stat_t *st = data;
        zip_stat_init(st);
        st->size = f->size;
        st->valid |= ZIP_STAT_SIZE;
        return sizeof *st;
    }
    case ZIP_SOURCE_ERROR:
        return zip_error_to_data(&f->error, data, len);
    case ZIP_SOURCE_FREE:
        zip_error_fini(&f->error);
        free(f);
        return 0;
    case ZIP_SOURCE_SEEK: {
        zip_int64_t p = zip_source_seek_compute_offset(f->pos, f->size, data, len, &f->error);
        if (p < 0)
            return -1;
        f->pos = (uint64_t)p;
        return 0;
    }
    case ZIP_SOURCE_TELL:
        return (zip_int64_t)f->pos;
    case ZIP_SOURCE_SUPPORTS:
        return zip_source_make_command_bitmap(ZIP_SOURCE_OPEN, ZIP_SOURCE_READ, ZIP_SOURCE_CLOSE,
                                              ZIP_SOURCE_STAT, ZIP_SOURCE_ERROR, ZIP_SOURCE_FREE,
                                              ZIP_SOURCE_SEEK, ZIP_SOURCE_TELL, ZIP_SOURCE_SUPPORTS, -1);
    default:
        zip_error_set(&f->error, ZIP_ER_OPNOTSUPP, 0);
        return -1;
    }
}

static zip_source_t *fd_source(int fd, uint64_t size, zip_error_t *ze)
{
    fd_src *f = calloc(1, sizeof *f);
    if (!f) {
        zip_error_set(ze, ZIP_ER_MEMORY, 0);
        return NULL;
    }
    f->fd = fd;
    f->size = size;
    zip_error_init(&f->error);
    zip_source_t *src = zip_source_function_create(fd_src_cb, f, ze);
    if (!src) {
        zip_error_fini(&f->error);
        free(f);
    }
    return src;
}

/* ---- members ---- */

typedef struct zmember {
    zip_file_t *zf;
    const char *name;
    uint64_t got, declared, comp;
    const gd_bugreport_caps *caps;
    uint64_t *total;
    int failed;          /* the member could not be streamed */
} zmember;

static ssize_t member_pull(void *ctx, void *buf, size_t n, gd_error *err)
{
    zmember *m = ctx;
    zip_int64_t k = zip_fread(m->zf, buf, n);
    char nm[128];
    if (k < 0) {
        gd_br_printable(nm, sizeof nm, m->name, strlen(m->name));
        gd_error_set(err, GD_ERR_DATA, 0, 0, "zip member '%s' unreadable: %s", nm,
                     zip_error_strerror(zip_file_get_error(m->zf)));
        m->failed = 1;
        return -1;
    }
    m->got += (uint64_t)k;
    *m->total += (uint64_t)k;
    const char *why = NULL;
    if (m->got > m->declared)
        why = "more data than its declared size";
    else if (m->got > m->caps->member_max)
        why = "over the size cap";
    else if (*m->total > m->caps->total_max)
        why = "over the total size cap";
    else if (m->got > m->caps->ratio_floor && m->got / (m->comp ? m->comp : 1) > m->caps->ratio_max)
        why = "over the compression ratio cap";
    if (why) {
        gd_br_printable(nm, sizeof nm, m->name, strlen(m->name));
        gd_error_set(err, GD_ERR_DATA, 0, 0, "zip member '%s': %s", nm, why);
        m->failed = 1;
        return -1;
    }
    return (ssize_t)k;
}

/* 0 when member i may be read (*st filled), else 1 after counting why. */
static int refuse(zip_t *za, zip_uint64_t i, gd_br *b, const gd_bugreport_caps *caps, uint64_t total,
                  zip_stat_t *st)
{
    const char *why = NULL;
    if (zip_stat_index(za, i, 0, st) != 0 || !(st->valid & ZIP_STAT_SIZE) || !(st->valid & ZIP_STAT_COMP_SIZE))
        why = "bugreport: zip member without sizes";
    else if ((st->valid & ZIP_STAT_ENCRYPTION_METHOD) && st->encryption_method != ZIP_EM_NONE)
        why = "bugreport: zip member encrypted";
    else if (!(st->valid & ZIP_STAT_COMP_METHOD) || !zip_compression_method_supported(st->comp_method, 0))
        why = "bugreport: zip member compression unsupported";
    else if (st->size > caps->member_max)
        why = "bugreport: zip member over the size cap";
    else if (st->size > caps->total_max - (total < caps->total_max ? total : caps->total_max))
        why = "bugreport: zip member over the total size cap";
    else if (st->size > caps->ratio_floor && st->size / (st->comp_size ? st->comp_size : 1) > caps->ratio_max)
        why = "bugreport: zip member over the compression ratio cap";
    if (why) {
        gd_br_skip(b, why, 0);
        return 1;
    }
    return 0;
}

typedef int (*member_fn)(gd_br *b, gd_input *in, const char *member, const int *stream_failed,
                         gd_error *err);

/* The main text: its splitter knows when the text itself failed. */
static int main_text(gd_br *b, gd_input *in, const char *member, const int *stream_failed, gd_error *err)
{
    (void)stream_failed;
    return gd_br_text(b, in, member, err);
}

/* Streams member i through fn: fn's code (GD_OK too when the member was
 * refused: that is counted). */
static int read_member(zip_t *za, zip_uint64_t i, const char *name, gd_br *b, const gd_bugreport_caps *caps,
                       uint64_t *total, member_fn fn, gd_error *err)
{
    zip_stat_t st;
    if (refuse(za, i, b, caps, *total, &st))
        return GD_OK;
    zmember m = {.name = name, .declared = st.size, .comp = st.comp_size, .caps = caps, .total = total};
    if (!(m.zf = zip_fopen_index(za, i, 0))) {
        char nm[128];
        gd_br_printable(nm, sizeof nm, name, strlen(name));
        return gd_error_set(err, GD_ERR_DATA, 0, 0, "zip member '%s' unreadable: %s", nm,
                            zip_error_strerror(zip_get_error(za)));
    }
    gd_input *in = NULL;
    int rc = gd_input_open_pull(&in, member_pull, &m, err);
    if (!rc)
        rc = fn(b, in, name, &m.failed, err);
    if (rc && m.failed)
        err->line = err->col = 0; /* about the member, not one of its lines */
    gd_input_close(in);
    zip_fclose(m.zf);
    return rc;
}

/* main_entry.txt's content (one name), trimmed, into out. */
static int read_main_entry(zip_t *za, zip_uint64_t i, char *out, size_t n)
{
    zip_stat_t st;
    out[0] = 0;
    if (zip_stat_index(za, i, 0, &st) != 0 || !(st.valid & ZIP_STAT_SIZE) || st.size >= n ||
        ((st.valid & ZIP_STAT_ENCRYPTION_METHOD) && st.encryption_method != ZIP_EM_NONE) ||
        ((st.valid & ZIP_STAT_COMP_METHOD) && !zip_compression_method_supported(st.comp_method, 0)))
        return -1;
    zip_file_t *zf = zip_fopen_index(za, i, 0);
    if (!zf)
        return -1;
    zip_int64_t k = zip_fread(zf, out, n - 1);
    zip_fclose(zf);
    if (k < 0)
        return -1;
    size_t len = (size_t)k;
    out[len] = 0;
    while (len && (out[len - 1] == '\n' || out[len - 1] == '\r' || out[len - 1] == ' '))
        out[--len] = 0;
    return len && memchr(out, 0, len) == NULL ? 0 : -1;
}

static int is_main_name(const char *s)
{
    size_t n = strlen(s);
    return strncmp(s, "bugreport-", 10) == 0 && n > 14 && strcmp(s + n - 4, ".txt") == 0 && !strchr(s, '/');
}

static int is_anr_name(const char *s)
{
    static const char dir[] = "FS/data/anr/";
    if (strncmp(s, dir, sizeof dir - 1) != 0)
        return 0;
    const char *base = s + sizeof dir - 1;
    size_t n = strlen(base);
    if (strchr(base, '/'))
        return 0;
    return (strncmp(base, "anr_", 4) == 0 && n > 4) ||
           (strncmp(base, "traces", 6) == 0 && n >= 10 && strcmp(base + n - 4, ".txt") == 0);
}

static int read_archive(zip_t *za, const gd_bugreport_caps *caps, const gd_sink *sink, const gd_read_opts *opts,
                        gd_error *err)
{
    zip_int64_t ne = zip_get_num_entries(za, 0);
    if (ne < 0 || (uint64_t)ne > caps->members_max)
        return gd_error_set(err, GD_ERR_DATA, 0, 0, "bugreport zip with too many members (%lld, at most %llu)",
                            (long long)ne, (unsigned long long)caps->members_max);
    zip_uint64_t n = (zip_uint64_t)ne;
    zip_int64_t main_i = -1, entry_i = -1, named_i = -1;
    for (zip_uint64_t i = 0; i < n; i++) {
        const char *name = zip_get_name(za, i, ZIP_FL_ENC_RAW);
        if (!name)
            continue;
        if (strcmp(name, "main_entry.txt") == 0 && entry_i < 0)
            entry_i = (zip_int64_t)i;
        else if (named_i < 0 && is_main_name(name))
            named_i = (zip_int64_t)i;
    }
    if (entry_i < 0 && named_i < 0)
        return gd_error_set(err, GD_ERR_NOT_MINE, 0, 0,
                            "not a bugreport zip: no main_entry.txt or bugreport-*.txt member");
    gd_br *b = gd_br_new(sink, opts);
    if (!b)
        return gd_error_set(err, GD_ERR_NOMEM, 0, 0, "out of memory");
    if (entry_i >= 0) {
        char want[1024];
        if (read_main_entry(za, (zip_uint64_t)entry_i, want, sizeof want) == 0) {
            for (zip_uint64_t i = 0; i < n && main_i < 0; i++) {
                const char *name = zip_get_name(za, i, ZIP_FL_ENC_RAW);
                if (name && (zip_int64_t)i != entry_i && strcmp(name, want) == 0)
                    main_i = (zip_int64_t)i;
            }
        }
        if (main_i < 0)
            gd_br_skip(b, "bugreport: main_entry.txt names no member", 0);
    }
    if (main_i < 0)
        main_i = named_i;
    int rc = 0;
    uint64_t total = 0;
    if (main_i < 0) {
        rc = gd_error_set(err, GD_ERR_DATA, 0, 0, "not a bugreport zip: main_entry.txt names no member");
    } else {
        const char *name = zip_get_name(za, (zip_uint64_t)main_i, ZIP_FL_ENC_RAW);
        rc = read_member(za, (zip_uint64_t)main_i, name ? name : "?", b, caps, &total, main_text, err);
    }
    for (zip_uint64_t i = 0; i < n && !rc; i++) {
        if ((zip_int64_t)i == main_i || (zip_int64_t)i == entry_i)
            continue;
        const char *name = zip_get_name(za, i, ZIP_FL_ENC_RAW);
        size_t len = name ? strlen(name) : 0;
        if (len && name[len - 1] == '/')
            continue;
        if (!name || !is_anr_name(name)) {
            gd_br_skip(b, "ignored: bugreport zip member not read", 0);
            continue;
        }
        if (gd_br_anr_seen(b, name + 2)) { /* "FS/data/anr/x" is "/data/anr/x" */
            gd_br_skip(b, "ignored: bugreport zip member already read as a VM TRACES section", 0);
            continue;
        }
        rc = read_member(za, i, name, b, caps, &total, gd_br_anr_file, err);
    }
    if (!rc)
        rc = gd_br_finish(b, "zip", err);
    gd_br_free(b);
    return rc;
}

/* Opens the archive over src (taken in every case) and reads it. */
static int read_source(zip_source_t *src, const gd_bugreport_caps *caps, const gd_sink *sink,
                       const gd_read_opts *opts, gd_error *err)
{
    zip_error_t ze;
    zip_error_init(&ze);
    zip_t *za = zip_open_from_source(src, ZIP_RDONLY, &ze);
    if (!za) {
        int rc = gd_error_set(err, GD_ERR_DATA, 0, 0, "not a readable zip: %s", zip_error_strerror(&ze));
        zip_error_fini(&ze);
        zip_source_free(src);
        return rc;
    }
    zip_error_fini(&ze);
    int rc = read_archive(za, caps, sink, opts, err);
    zip_discard(za);
    return rc;
}

int gd_bugreport_read_zip_mem(const void *data, size_t n, const gd_bugreport_caps *caps,
                              const gd_sink *sink, const gd_read_opts *opts, gd_error *err)
{
    zip_error_t ze;
    zip_error_init(&ze);
    zip_source_t *src = zip_source_buffer_create(data, n, 0, &ze);
    if (!src) {
        int rc = gd_error_set(err, GD_ERR_IO, 0, 0, "zip: %s", zip_error_strerror(&ze));
        zip_error_fini(&ze);
        return rc;
    }
    zip_error_fini(&ze);
    return read_source(src, caps, sink, opts, err);
}

int gd_bugreport_read_zip(gd_input *in, const gd_bugreport_caps *caps, const gd_sink *sink,
                          const gd_read_opts *opts, gd_error *err)
{
    zip_error_t ze;
    zip_error_init(&ze);
    zip_source_t *src = NULL;
    int fd = gd_input_file_fd(in);
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        src = fd_source(fd, (uint64_t)st.st_size, &ze);
    } else {
        /* not a file we can read in place: spool it (the input's bytes,
         * so its hash covers them) to an anonymous temp file */
        FILE *f = tmpfile();
        if (!f) {
            zip_error_fini(&ze);
            return gd_error_set(err, GD_ERR_IO, 0, 0, "cannot create a temp file for the zip: %s",
                                strerror(errno));
        }
        char buf[65536];
        ssize_t k;
        uint64_t got = 0;
        while ((k = gd_input_read(in, buf, sizeof buf, err)) > 0) {
            got += (uint64_t)k;
            if (got > caps->spool_max) {
                fclose(f);
                zip_error_fini(&ze);
                return gd_error_set(err, GD_ERR_DATA, 0, 0, "bugreport zip over the size cap (%llu bytes)",
                                    (unsigned long long)caps->spool_max);
            }
            if (fwrite(buf, 1, (size_t)k, f) != (size_t)k) {
                fclose(f);
                zip_error_fini(&ze);
                return gd_error_set(err, GD_ERR_IO, 0, 0, "cannot write the zip's temp file: %s",
                                    strerror(errno));
            }
        }
        if (k < 0 || fflush(f) != 0) {
            fclose(f);
            zip_error_fini(&ze);
            return k < 0 ? (err->code ? err->code : GD_ERR_IO)
                         : gd_error_set(err, GD_ERR_IO, 0, 0, "cannot write the zip's temp file");
        }
        src = zip_source_filep_create(f, 0, -1, &ze);
        if (!src)
            fclose(f);
    }
    if (!src) {
        int rc = gd_error_set(err, GD_ERR_IO, 0, 0, "zip: %s", zip_error_strerror(&ze));
        zip_error_fini(&ze);
        return rc;
    }
    zip_error_fini(&ze);
    return read_source(src, caps, sink, opts, err);
}
