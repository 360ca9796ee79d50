/* perfdata.c - simpleperf's binary perf.data ("PERFILE2"), for the simpleperf
 * reader: the same stack samples as its text forms, named from the file's
 * own symbol tables, as `report_sample.py` names them.
 *
 * The layout (facts from simpleperf's record_file_format.h and
 * record_file.proto, and the kernel's perf_event.h; no code taken):
 *
 *   header: "PERFILE2", header size, attr entry size, then three sections
 *           (offset, size: attrs, data, event types) and a 256-bit map of
 *           the feature sections present;
 *   attrs:  one perf_event_attr per event (its sample_type says which
 *           fields a sample record holds, in the kernel's fixed order),
 *           each followed by its ids section;
 *   data:   records, each "type u32, misc u16, size u16" then its body;
 *   features, after the data: one (offset, size) per feature present, in
 *           feature order.  Read here: FILE (128) and FILE2 (132, the same
 *           as protobuf FileFeature messages), each mapped file's type,
 *           min_vaddr, offset of min_vaddr and the symbols simpleperf
 *           dumped for it; META_INFO (129), "key\0value\0" pairs
 *           (app_package_name, clockid); CMDLINE (11), for "--app" when
 *           there is no META_INFO.
 *
 * Records read: MMAP and MMAP2 (a process's mappings; a new one replaces
 * the parts of older ones it overlaps, as the kernel's do), COMM (a
 * thread's name), FORK (a new thread or process: its name, and a new
 * process's copy of its parent's mappings), SAMPLE.  Every other type is
 * counted ("ignored: simpleperf: binary record not used"); an AUXTRACE
 * record's trailing data is stepped over.
 *
 * A sample becomes one GD_EV_STACK: ts = its time (ns; clockid from the
 * meta info, monotonic by default), pid, tid, thread = the thread's name
 * at that point of the file, frames innermost first: its call chain
 * without the context markers (or its ip alone when it has none).  A frame
 * is named from the mapping holding its address (the kernel's mappings for
 * kernel addresses): its address in the file (vaddr: ip - start + pgoff,
 * and for an ELF file - offset of min_vaddr + min_vaddr; ip itself for the
 * kernel and for simpleperf's JIT symbol files, shown as "[JIT app
 * cache]"), the symbol covering that vaddr, C++ names demangled
 * (io/demangle_dl.h), then profname.h's rule: "Class.method" for Java
 * files, "native:<basename>(<symbol>)", "native:<basename>(pc <vaddr>)"
 * without a symbol.  A frame in no mapping is kept as
 * "native:[unknown](pc <ip>)" and counted.
 *
 * Memory: the mappings, the threads, the dumped symbols and the file names
 * (a recording's, not its samples'); the records are read through one
 * buffer.  A file that is not a regular file read as is (stdin, a URL, a
 * gzip) is copied to an anonymous temporary file first (io/randin.h). */
#include "perfdata.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/keytab.h"
#include "core/skip_reasons.h"
#include "core/util.h"
#include "io/demangle_dl.h"
#include "io/randin.h"
#include "pbwire.h"
#include "profname.h"
#include "spmeta.h"

#define PD_SPOOL_CAP ((uint64_t)8 << 30) /* bytes copied from a stream      */
#define PD_MAX_ATTRS 4096
#define PD_MAX_FRAMES 1024
#define PD_FRAME 4096
#define PD_BUF ((size_t)1 << 20)
#define PD_FEAT_MAX ((uint64_t)1 << 30) /* a feature section's bytes        */

/* sample_type bits (perf_event.h) */
enum {
    S_IP = 1 << 0, S_TID = 1 << 1, S_TIME = 1 << 2, S_ADDR = 1 << 3, S_READ = 1 << 4, S_CALLCHAIN = 1 << 5,
    S_ID = 1 << 6, S_CPU = 1 << 7, S_PERIOD = 1 << 8, S_STREAM_ID = 1 << 9, S_IDENTIFIER = 1 << 16
};
/* read_format bits */
enum { R_ENABLED = 1, R_RUNNING = 2, R_ID = 4, R_GROUP = 8, R_LOST = 16 };
/* record types */
enum { REC_MMAP = 1, REC_COMM = 3, REC_FORK = 7, REC_SAMPLE = 9, REC_MMAP2 = 10, REC_AUXTRACE = 71 };
/* features */
enum { FEAT_CMDLINE = 11, FEAT_FILE = 128, FEAT_META_INFO = 129, FEAT_FILE2 = 132 };
/* simpleperf's file types */
enum { DSO_KERNEL = 0, DSO_KERNEL_MODULE = 1, DSO_ELF = 2, DSO_DEX = 3 };

#define KERNEL_PID UINT32_MAX
#define CONTEXT_MAX ((uint64_t)-4095)
#define CONTEXT_KERNEL ((uint64_t)-128)
#define CONTEXT_USER ((uint64_t)-512)

typedef struct pd_sym {
    uint64_t addr;
    uint32_t len;
    uint32_t name; /* in the arena */
    uint32_t text; /* its frame's text in the arena, once named; UINT32_MAX before */
} pd_sym;

typedef struct pd_dso {
    uint32_t path; /* in the arena */
    int type;      /* DSO_*, -1: not in the file's tables */
    uint64_t min_vaddr, offset; /* offset of min_vaddr: in the file (ELF) or in memory (module) */
    size_t sym0, nsym;
    int jit;       /* 1 app cache, 2 zygote cache */
    int old_jit;   /* simpleperf's older JIT symbol file ("TemporaryFile-...") */
    int art;       /* ART's own library (libart.so, libartd.so) */
} pd_dso;

typedef struct pd_map {
    uint64_t start, end, pgoff;
    const pd_dso *dso;
} pd_map;

typedef struct pd_thread {
    uint32_t pid;
    char name[64];
} pd_thread;

/* A process's mappings, sorted by start, none overlapping. */
typedef struct pd_proc {
    pd_map *maps;
    size_t n, cap;
} pd_proc;

/* What pd.tab holds, each its own allocation (a pointer stays valid as the
 * table grows): a thread by tid, a process by pid (KERNEL_PID: the
 * kernel's), a mapped file by its path's hash (the kind K_DSO + i: the
 * i-th path of that hash). */
enum { K_THREAD, K_PROC, K_DSO };

typedef struct pd {
    const gd_sink *sink;
    gd_error *err;
    gd_randin in;
    uint64_t data_off, data_end;
    /* the events */
    uint64_t sample_type, read_format;
    /* tables */
    char *arena;
    size_t alen, acap;
    pd_sym *syms;
    size_t nsyms, syms_cap;
    gd_keytab tab; /* threads, processes, files (K_*) */
    /* meta */
    char app[512];
    int have_app, realtime, main_sent, mangled_left;
    /* one sample's frames */
    char *fbuf;
    size_t flen, fcap;
    struct pd_frame *frames;
    const char **fptr;
    size_t nframes, frames_cap, fptr_cap;
    uint64_t pos; /* the record being read, for errors */
} pd;

static int bad(pd *p, const char *what)
{
    return gd_error_set(p->err, GD_ERR_DATA, 0, 0, "perf.data: %s at byte %llu", what, (unsigned long long)p->pos);
}

static int rd(pd *p, uint64_t off, void *buf, size_t n)
{
    if (off <= p->in.size && n <= p->in.size - off && gd_randin_read(&p->in, off, buf, n) == 0)
        return GD_OK;
    if (off <= p->in.size && n <= p->in.size - off && errno) /* the read failed, not the bounds */
        return gd_error_set(p->err, GD_ERR_IO, 0, 0, "perf.data: cannot read at byte %llu: %s",
                            (unsigned long long)off, strerror(errno));
    p->pos = off;
    return bad(p, "file ends inside a section");
}

static uint64_t u64at(const unsigned char *b) { uint64_t v; memcpy(&v, b, 8); return v; }
static uint32_t u32at(const unsigned char *b) { uint32_t v; memcpy(&v, b, 4); return v; }

/* ---- the arena, the hashes ------------------------------------------------ */

/* s[0..n) into the arena, NUL-terminated; its offset, or UINT32_MAX. */
static uint32_t intern(pd *p, const char *s, size_t n)
{
    if (p->alen + n + 1 > UINT32_MAX || gd_grow((void **)&p->arena, &p->acap, p->alen + n + 1, 1, p->err))
        return UINT32_MAX;
    uint32_t at = (uint32_t)p->alen;
    memcpy(p->arena + at, s, n);
    p->arena[at + n] = 0;
    p->alen += n + 1;
    return at;
}

static uint64_t hash_bytes(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
    return h;
}

/* The item of (key, kind) in pd.tab, made of `size` zero bytes when new
 * (*fresh set); NULL on error. */
static void *tab_get(pd *p, uint64_t key, uint32_t kind, size_t size, int *fresh)
{
    gd_keytab_ent *e = gd_keytab_put(&p->tab, key, kind, fresh);
    if (e && *fresh)
        e->val = calloc(1, size); /* NULL: the read stops here, the slot freed with the rest */
    if (!e || !e->val) {
        gd_error_oom(p->err);
        return NULL;
    }
    return e->val;
}

static void *tab_find(const pd *p, uint64_t key, uint32_t kind)
{
    const gd_keytab_ent *e = gd_keytab_find(&p->tab, key, kind);
    return e ? e->val : NULL;
}

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), k = strlen(tail);
    return n >= k && memcmp(s + n - k, tail, k) == 0;
}

/* simpleperf's older JIT symbol files: "TemporaryFile-XXXXXX". */
static int temporary_file(const char *path)
{
    const char *b = strrchr(path, '/');
    return strncmp(b ? b + 1 : path, "TemporaryFile", 13) == 0;
}

/* The file of path s[0..n), made (type -1, no symbols) when new; NULL on error. */
static pd_dso *dso_of(pd *p, const char *s, size_t n)
{
    uint64_t h = hash_bytes(s, n);
    for (uint32_t k = K_DSO;; k++) { /* paths of one hash, each its kind */
        int fresh;
        pd_dso *d = tab_get(p, h, k, sizeof *d, &fresh);
        if (!d)
            return NULL;
        if (!fresh) {
            const char *q = p->arena + d->path;
            if (strncmp(q, s, n) == 0 && q[n] == 0)
                return d;
            continue;
        }
        if ((d->path = intern(p, s, n)) == UINT32_MAX)
            return NULL;
        d->type = -1;
        const char *q = p->arena + d->path;
        d->jit = strstr(q, "_jit_app_cache:") ? 1 : strstr(q, "_jit_zygote_cache:") ? 2 : 0;
        d->old_jit = temporary_file(q);
        d->art = ends_with(q, "/libart.so") || ends_with(q, "/libartd.so");
        return d;
    }
}

/* The thread tid, made (no name) when new; NULL on error. */
static pd_thread *thread_of(pd *p, uint32_t tid, uint32_t pid)
{
    int fresh;
    pd_thread *t = tab_get(p, tid, K_THREAD, sizeof *t, &fresh);
    if (t && fresh)
        t->pid = pid;
    return t;
}

/* ---- mappings ------------------------------------------------------------- */

/* Index of the first mapping of pr starting at or after addr. */
static size_t map_lower(const pd_proc *pr, uint64_t addr)
{
    size_t lo = 0, hi = pr->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (pr->maps[mid].start < addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static const pd_map *map_find(const pd *p, uint32_t pid, uint64_t ip)
{
    const pd_proc *pr = tab_find(p, pid, K_PROC);
    size_t i = pr ? map_lower(pr, ip + 1) : 0;
    if (i == 0)
        return NULL;
    const pd_map *m = &pr->maps[i - 1];
    return ip >= m->start && ip < m->end ? m : NULL;
}

static int map_put(pd *p, pd_proc *pr, const pd_map *m)
{
    if (gd_grow((void **)&pr->maps, &pr->cap, pr->n + 1, sizeof *pr->maps, p->err))
        return p->err->code;
    size_t i = map_lower(pr, m->start);
    memmove(pr->maps + i + 1, pr->maps + i, (pr->n - i) * sizeof *pr->maps);
    pr->maps[i] = *m;
    pr->n++;
    return GD_OK;
}

/* Adds m to process pid, cutting out of older mappings the part it covers. */
static int map_add(pd *p, uint32_t pid, pd_map m)
{
    if (m.end <= m.start)
        return GD_OK;
    int fresh;
    pd_proc *pr = tab_get(p, pid, K_PROC, sizeof *pr, &fresh);
    if (!pr)
        return p->err->code;
    size_t i = map_lower(pr, 0);
    while (i < pr->n && pr->maps[i].start < m.end) {
        pd_map o = pr->maps[i];
        if (o.end <= m.start) {
            i++;
            continue;
        }
        memmove(pr->maps + i, pr->maps + i + 1, (pr->n - i - 1) * sizeof *pr->maps);
        pr->n--;
        if (o.end > m.end) {
            pd_map right = o;
            right.pgoff += m.end - o.start;
            right.start = m.end;
            if (map_put(p, pr, &right))
                return p->err->code;
        }
        if (o.start < m.start) {
            pd_map left = o;
            left.end = m.start;
            if (map_put(p, pr, &left))
                return p->err->code;
            i++;
        }
    }
    return map_put(p, pr, &m);
}

/* A new process `pid` starts with a copy of its parent's mappings (any it
 * had, a pid used before, are replaced).  An EXIT record does not drop a
 * process's mappings: records of several CPUs' buffers are not in time
 * order, and samples of a process come after its EXIT (perf_with_
 * interpreter_frames.data: 399 of them). */
static int map_copy(pd *p, uint32_t from, uint32_t to)
{
    const pd_proc *src = tab_find(p, from, K_PROC);
    if (!src || !src->n)
        return GD_OK;
    int fresh;
    pd_proc *dst = tab_get(p, to, K_PROC, sizeof *dst, &fresh);
    if (!dst)
        return p->err->code;
    dst->n = 0;
    if (gd_grow((void **)&dst->maps, &dst->cap, src->n, sizeof *dst->maps, p->err))
        return p->err->code;
    memcpy(dst->maps, src->maps, src->n * sizeof *dst->maps);
    dst->n = src->n;
    return GD_OK;
}


/* ---- features ------------------------------------------------------------- */

static int sym_cmp(const void *a, const void *b)
{
    const pd_sym *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* One file's table: its dso gets the symbols added since sym0. */
static int file_done(pd *p, const char *path, size_t npath, int type, uint64_t min_vaddr, uint64_t offset,
                     size_t sym0)
{
    pd_dso *o = dso_of(p, path, npath);
    if (!o)
        return p->err->code;
    o->type = type;
    o->min_vaddr = min_vaddr;
    o->offset = offset;
    o->sym0 = sym0;
    o->nsym = p->nsyms - sym0;
    if (o->nsym)
        qsort(p->syms + sym0, o->nsym, sizeof *p->syms, sym_cmp);
    return GD_OK;
}

static int add_sym(pd *p, uint64_t addr, uint32_t len, const char *name, size_t n)
{
    if (gd_grow((void **)&p->syms, &p->syms_cap, p->nsyms + 1, sizeof *p->syms, p->err))
        return p->err->code;
    uint32_t at = intern(p, name, n);
    if (at == UINT32_MAX)
        return p->err->code ? p->err->code : gd_error_oom(p->err);
    p->syms[p->nsyms++] = (pd_sym){addr, len, at, UINT32_MAX};
    return GD_OK;
}

/* A NUL-terminated string at *q before end: its length, *q past the NUL; -1 when none. */
static ssize_t cstr(const unsigned char **q, const unsigned char *end)
{
    const unsigned char *z = memchr(*q, 0, (size_t)(end - *q));
    if (!z)
        return -1;
    ssize_t n = z - *q;
    *q = z + 1;
    return n;
}

/* A FILE (128) entry: file_struct, its symbols and its type's tail. */
static int file_v1(pd *p, const unsigned char *q, size_t sz)
{
    const unsigned char *e = q + sz, *path = q;
    ssize_t np = cstr(&q, e);
    if (np < 0 || e - q < 16)
        return bad(p, "file table entry cut short");
    int type = (int)u32at(q);
    uint64_t min_vaddr = u64at(q + 4);
    uint32_t nsym = u32at(q + 12);
    q += 16;
    size_t sym0 = p->nsyms;
    for (uint32_t i = 0; i < nsym; i++) {
        if (e - q < 12)
            return bad(p, "symbol table cut short");
        uint64_t addr = u64at(q);
        uint32_t len = u32at(q + 8);
        q += 12;
        const unsigned char *nm = q;
        ssize_t nn = cstr(&q, e);
        if (nn < 0)
            return bad(p, "symbol name without its end");
        if (add_sym(p, addr, len, (const char *)nm, (size_t)nn))
            return p->err->code;
    }
    uint64_t offset = 0;
    if ((type == DSO_ELF || type == DSO_KERNEL_MODULE) && e - q >= 8)
        offset = u64at(q); /* a dex file's tail, its dex file offsets, is not needed */
    return file_done(p, (const char *)path, (size_t)np, type, min_vaddr, offset, sym0);
}

/* A FILE2 (132) entry: a protobuf FileFeature message. */
static int file_v2(pd *p, const unsigned char *q, size_t sz)
{
    pb_cur c = {q, q + sz};
    pb_field f;
    const char *path = "";
    size_t npath = 0, sym0 = p->nsyms;
    int type = -1, r;
    uint64_t min_vaddr = 0, offset = 0;
    while ((r = pb_next(&c, &f)) > 0) {
        if (f.num == 1 && f.wt == 2) {
            path = (const char *)f.data;
            npath = f.len;
        } else if (f.num == 2 && f.wt == 0) {
            type = (int)f.v;
        } else if (f.num == 3 && f.wt == 0) {
            min_vaddr = f.v;
        } else if (f.num == 4 && f.wt == 2) {
            pb_cur s = pb_sub(&f);
            pb_field g;
            uint64_t addr = 0, len = 0;
            const char *nm = "";
            size_t nn = 0;
            while (pb_next(&s, &g) > 0) {
                if (g.num == 1 && g.wt == 0)
                    addr = g.v;
                else if (g.num == 2 && g.wt == 0)
                    len = g.v;
                else if (g.num == 3 && g.wt == 2)
                    nm = (const char *)g.data, nn = g.len;
            }
            if (add_sym(p, addr, (uint32_t)len, nm, nn))
                return p->err->code;
        } else if ((f.num == 6 || f.num == 7) && f.wt == 2) {
            /* ElfFile / KernelModule: the offset of min_vaddr */
            pb_cur s = pb_sub(&f);
            pb_field g;
            while (pb_next(&s, &g) > 0)
                if (g.num == 1 && g.wt == 0)
                    offset = g.v;
        }
    }
    if (r < 0)
        return bad(p, "file table message unparsable");
    return file_done(p, path, npath, type, min_vaddr, offset, sym0);
}

/* FILE and FILE2: entries each after its u32 size. */
static int file_table(pd *p, const unsigned char *b, size_t n, int (*entry)(pd *, const unsigned char *, size_t))
{
    const unsigned char *q = b, *end = b + n;
    while (end - q >= 4) {
        uint32_t sz = u32at(q);
        q += 4;
        if (sz > (size_t)(end - q))
            return bad(p, "file table entry past its section");
        int rc = entry(p, q, sz);
        if (rc)
            return rc;
        q += sz;
    }
    return GD_OK;
}

static void set_app(pd *p, const char *v, size_t n)
{
    if (n == 0 || n >= sizeof p->app)
        return;
    memcpy(p->app, v, n);
    p->app[n] = 0;
    p->have_app = 1;
}

/* META_INFO (129): "key\0value\0" pairs. */
static void feat_meta(pd *p, const unsigned char *b, size_t n)
{
    const unsigned char *q = b, *end = b + n;
    while (q < end) {
        const unsigned char *k = q, *v;
        ssize_t nk = cstr(&q, end);
        if (nk < 0)
            return;
        v = q;
        ssize_t nv = cstr(&q, end);
        if (nv < 0)
            return;
        if (nk == 16 && memcmp(k, "app_package_name", 16) == 0)
            set_app(p, (const char *)v, (size_t)nv);
        else if (nk == 7 && memcmp(k, "clockid", 7) == 0)
            p->realtime = nv == 8 && memcmp(v, "realtime", 8) == 0;
    }
}

/* CMDLINE (11): u32 count, then (u32 len, string padded) each; "--app X". */
static void feat_cmdline(pd *p, const unsigned char *b, size_t n)
{
    if (n < 4 || p->have_app)
        return;
    uint32_t k = u32at(b);
    const unsigned char *q = b + 4, *end = b + n;
    int next_is_app = 0;
    for (uint32_t i = 0; i < k && end - q >= 4; i++) {
        uint32_t len = u32at(q);
        q += 4;
        if (len > (size_t)(end - q))
            return;
        size_t sl = strnlen((const char *)q, len);
        if (next_is_app) {
            set_app(p, (const char *)q, sl);
            return;
        }
        next_is_app = sl == 5 && memcmp(q, "--app", 5) == 0;
        q += len;
    }
}

static int read_features(pd *p, const unsigned char *bits)
{
    uint64_t at = p->data_end;
    for (int f = 0; f < 256; f++) {
        if (!(bits[f / 8] >> (f % 8) & 1))
            continue;
        unsigned char d[16];
        p->pos = at;
        if (rd(p, at, d, 16))
            return p->err->code;
        at += 16;
        uint64_t off = u64at(d), size = u64at(d + 8);
        if (f != FEAT_FILE && f != FEAT_FILE2 && f != FEAT_META_INFO && f != FEAT_CMDLINE)
            continue;
        p->pos = off;
        if (size > PD_FEAT_MAX)
            return bad(p, "feature section over its size cap");
        if (off > p->in.size || size > p->in.size - off)
            return bad(p, "feature section past the end of the file");
        unsigned char *b = malloc(size ? size : 1);
        if (!b)
            return gd_error_oom(p->err);
        int rc = rd(p, off, b, size);
        if (!rc) {
            if (f == FEAT_FILE || f == FEAT_FILE2)
                rc = file_table(p, b, size, f == FEAT_FILE ? file_v1 : file_v2);
            else if (f == FEAT_META_INFO)
                feat_meta(p, b, size);
            else
                feat_cmdline(p, b, size);
        }
        free(b);
        if (rc)
            return rc;
    }
    return GD_OK;
}

/* ---- frames --------------------------------------------------------------- */

/* What a frame is, for simpleperf's rule of the ART frames (hide_art). */
enum {
    F_NATIVE,   /* native code                                                */
    F_ART,      /* native code of ART's own: libart.so, libartd.so, a JNI      *
                 * trampoline                                                 */
    F_DEX,      /* an interpreted Java method (a dex file)                    */
    F_JIT,      /* a JIT-compiled Java method                                 */
    F_HIDDEN,   /* an ART frame hidden                                        */
};

/* One frame of the sample being read. */
struct pd_frame {
    size_t off;   /* its text in fbuf */
    uint32_t sym; /* its symbol's name (mangled): arena offset, or UINT32_MAX */
    int kind;     /* F_* */
};

static int add_frame(pd *p, const char *text, size_t n, int kind, uint32_t sym)
{
    if (gd_grow((void **)&p->fbuf, &p->fcap, p->flen + n + 1, 1, p->err) ||
        gd_grow((void **)&p->frames, &p->frames_cap, p->nframes + 1, sizeof *p->frames, p->err))
        return p->err->code;
    p->frames[p->nframes++] = (struct pd_frame){p->flen, sym, kind};
    memcpy(p->fbuf + p->flen, text, n);
    p->flen += n;
    p->fbuf[p->flen++] = 0;
    return GD_OK;
}

static const pd_sym *sym_find(const pd *p, const pd_dso *d, uint64_t vaddr)
{
    if (d->nsym == 0)
        return NULL;
    size_t lo = 0, hi = d->nsym;
    const pd_sym *s = p->syms + d->sym0;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s[mid].addr <= vaddr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo && vaddr < s[lo - 1].addr + s[lo - 1].len ? &s[lo - 1] : NULL;
}

/* Frame i's symbol name, or NULL. */
static const char *fsym(const pd *p, size_t i)
{
    return p->frames[i].sym == UINT32_MAX ? NULL : p->arena + p->frames[i].sym;
}

/* Keeps the frames `keep` says, in order. */
static void keep_frames(pd *p, int (*keep)(const pd *, size_t))
{
    size_t w = 0;
    for (size_t i = 0; i < p->nframes; i++)
        if (keep(p, i))
            p->frames[w++] = p->frames[i];
    p->nframes = w;
}

static int not_hidden(const pd *p, size_t i) { return p->frames[i].kind != F_HIDDEN; }

/* not a JIT frame whose caller is the same method interpreted */
static int not_jit_twin(const pd *p, size_t i)
{
    const struct pd_frame *f = p->frames;
    return !(f[i].kind == F_JIT && i + 1 < p->nframes && f[i + 1].kind == F_DEX && fsym(p, i) && fsym(p, i + 1) &&
             strcmp(fsym(p, i), fsym(p, i + 1)) == 0);
}

/* simpleperf's report shows a call chain without ART's own frames (its
 * report_sample.py and report-sample do unless --show-art-frames / 
 * --show_art_frames): a frame of ART (F_ART) next to a run of them that
 * touches a Java frame is hidden, except the frame a JNI trampoline calls
 * (the JNI method itself); then a JIT frame whose caller is the same
 * method interpreted is dropped (the method does not call itself).  The
 * rule as simpleperf's report_utils.cpp describes it (facts, no code). */
static void hide_art(pd *p)
{
    size_t n = p->nframes;
    struct pd_frame *f = p->frames;
    int near = 0;
    for (size_t i = 0; i < n; i++) {
        if (f[i].kind == F_DEX || f[i].kind == F_JIT) {
            near = 1;
            for (size_t j = i; j-- > 0 && (f[j].kind == F_ART || f[j].kind == F_HIDDEN);)
                f[j].kind = F_HIDDEN;
        } else if (near && f[i].kind == F_ART) {
            f[i].kind = F_HIDDEN;
        } else {
            near = 0;
        }
    }
    /* the JNI method a hidden trampoline calls stays */
    for (size_t i = 1; i < n; i++)
        if (f[i].kind == F_HIDDEN && fsym(p, i) && ends_with(fsym(p, i), "jni_trampoline") && f[i - 1].kind == F_HIDDEN)
            f[i - 1].kind = F_ART;
    keep_frames(p, not_hidden);
    keep_frames(p, not_jit_twin);
}

/* Address ip of mapping m as an address in its file d (simpleperf's rule
 * per file type); *file becomes the name shown for the kernel and JIT
 * symbol files. */
static uint64_t vaddr_of(const pd_map *m, int kernel_map, uint64_t ip, const char **file)
{
    const pd_dso *d = m->dso;
    if (kernel_map && d->type != DSO_KERNEL_MODULE && strncmp(*file, "[kernel.kallsyms]", 17) == 0) {
        *file = "[kernel.kallsyms]";
        return ip;
    }
    if (d->jit) {
        *file = d->jit == 1 ? "[JIT app cache]" : "[JIT zygote cache]";
        return ip;
    }
    if (d->type == DSO_KERNEL_MODULE)
        return ip - m->start - d->offset + d->min_vaddr;
    if (d->type == DSO_ELF)
        return ip - m->start + m->pgoff - d->offset + d->min_vaddr;
    return ip - m->start + m->pgoff;
}

/* The frame of address ip, in the kernel's mappings or pid's. */
static int frame(pd *p, uint32_t pid, uint64_t ip, int kernel)
{
    char out[PD_FRAME], pc[24], dm[PD_FRAME];
    uint32_t owner = kernel ? KERNEL_PID : pid;
    const pd_map *m = map_find(p, owner, ip);
    if (!m && !kernel)
        m = map_find(p, owner = KERNEL_PID, ip);
    size_t n;
    if (!m) {
        gd_sink_skip(p->sink, GD_SKIP(IGNORED_SIMPLEPERF_FRAME_OUTSIDE_EVERY_MAPPING), 0, 0);
        int k = snprintf(pc, sizeof pc, "%llx", (unsigned long long)ip);
        n = gd_prof_frame(out, sizeof out, NULL, 0, "[unknown]", pc, (size_t)k);
        return add_frame(p, out, n, F_NATIVE, UINT32_MAX);
    }
    const pd_dso *d = m->dso;
    const char *file = p->arena + d->path;
    uint64_t vaddr = vaddr_of(m, owner == KERNEL_PID, ip, &file);
    const pd_sym *s = d->type >= 0 || d->nsym ? sym_find(p, d, vaddr) : NULL;
    uint32_t sym = s ? s->name : UINT32_MAX;
    const char *sname = s ? p->arena + s->name : NULL;
    int kind = d->type == DSO_DEX ? F_DEX : d->jit || d->old_jit ? F_JIT : F_NATIVE;
    if (kind == F_NATIVE && (d->art || (sname && ends_with(sname, "jni_trampoline"))))
        kind = F_ART;
    if (s && s->text != UINT32_MAX) { /* named before: the same text */
        const char *t = p->arena + s->text;
        return add_frame(p, t, strlen(t), kind, sym);
    }
    if (s) {
        const char *name = p->arena + s->name;
        size_t nn = gd_demangle(name, dm, sizeof dm, &p->mangled_left);
        n = gd_prof_frame(out, sizeof out, nn ? dm : name, nn ? nn : strlen(name), file, NULL, 0);
        uint32_t at = intern(p, out, n); /* the arena may move: s by index */
        if (at == UINT32_MAX)
            return p->err->code ? p->err->code : gd_error_oom(p->err);
        p->syms[s - p->syms].text = at;
    } else {
        int k = snprintf(pc, sizeof pc, "%llx", (unsigned long long)vaddr);
        n = gd_prof_frame(out, sizeof out, NULL, 0, file, pc, (size_t)k);
    }
    return add_frame(p, out, n, kind, sym);
}

/* ---- records -------------------------------------------------------------- */

static int send_meta(pd *p, int64_t pid, int64_t main_tid)
{
    return gd_simpleperf_meta(p->sink, p->have_app ? p->app : NULL, p->realtime, pid, main_tid, p->err);
}

/* 1 when a main thread's name is the app's (or its tail), or unknown. */
static int app_thread(const pd *p, const char *name)
{
    return name[0] == 0 || gd_simpleperf_app_thread(p->app, name);
}

/* The size of a READ field, per read_format. */
static size_t read_size(const pd *p, const unsigned char *b, size_t left)
{
    uint64_t f = p->read_format;
    size_t per = 8 + (f & R_ID ? 8 : 0) + (f & R_LOST ? 8 : 0);
    size_t head = (f & R_ENABLED ? 8 : 0) + (f & R_RUNNING ? 8 : 0);
    if (!(f & R_GROUP))
        return head + per;
    if (left < 8)
        return SIZE_MAX;
    uint64_t nr = u64at(b);
    if (nr > left / per)
        return SIZE_MAX;
    return 8 + head + (size_t)nr * per;
}

/* A sample's fields up to its call chain. */
typedef struct pd_sample {
    uint64_t ip, time, nr;
    uint32_t pid, tid;
    const unsigned char *chain; /* nr entries, or NULL */
    int kernel;                 /* the sample's own mode: 1 kernel */
} pd_sample;

/* Reads the fields before the call chain, in the kernel's order. */
static int sample_fields(pd *p, const unsigned char *b, size_t n, pd_sample *s)
{
    const unsigned char *q = b, *end = b + n;
    uint64_t t = p->sample_type;
    static const uint64_t each8[] = {S_IDENTIFIER, S_IP, S_TID, S_TIME, S_ADDR, S_ID, S_STREAM_ID, S_CPU, S_PERIOD};
    for (size_t i = 0; i < sizeof each8 / sizeof *each8; i++) {
        if (!(t & each8[i]))
            continue;
        if (end - q < 8)
            return bad(p, "sample record cut short");
        if (each8[i] == S_IP)
            s->ip = u64at(q);
        else if (each8[i] == S_TID)
            s->pid = u32at(q), s->tid = u32at(q + 4);
        else if (each8[i] == S_TIME)
            s->time = u64at(q);
        q += 8;
    }
    if (t & S_READ) {
        size_t k = read_size(p, q, (size_t)(end - q));
        if (k == SIZE_MAX || k > (size_t)(end - q))
            return bad(p, "sample record cut short");
        q += k;
    }
    if (t & S_CALLCHAIN) {
        if (end - q < 8)
            return bad(p, "sample record cut short");
        s->nr = u64at(q);
        q += 8;
        if (s->nr > (size_t)(end - q) / 8)
            return bad(p, "call chain past its record");
        s->chain = q;
    }
    return GD_OK;
}

/* The sample's frames, innermost first, ART's own hidden (hide_art). */
static int sample_frames(pd *p, const pd_sample *s)
{
    p->nframes = p->flen = 0;
    int kernel = s->kernel, rc;
    for (uint64_t i = 0; s->chain && i < s->nr; i++) {
        uint64_t a = u64at(s->chain + 8 * i);
        if (a >= CONTEXT_MAX) {
            kernel = a == CONTEXT_KERNEL ? 1 : a == CONTEXT_USER ? 0 : kernel;
            continue;
        }
        if (a == 0)
            continue;
        if (p->nframes >= PD_MAX_FRAMES) {
            gd_sink_skip(p->sink, GD_SKIP(SIMPLEPERF_FRAMES_OVER_THE_PER_SAMPLE_LIMIT), 0, 0);
            break;
        }
        if ((rc = frame(p, s->pid, a, kernel)))
            return rc;
    }
    if (p->nframes == 0 && (p->sample_type & S_IP) && s->ip) {
        /* no call chain, or one not unwound (its registers and stack,
         * which simpleperf unwinds when it reports, are not read here) */
        if (s->chain)
            gd_sink_skip(p->sink, GD_SKIP(IGNORED_SIMPLEPERF_SAMPLE_NOT_UNWOUND_KEPT_AS_ITS_IP_ALONE), 0, 0);
        if ((rc = frame(p, s->pid, s->ip, s->kernel)))
            return rc;
    }
    hide_art(p);
    return GD_OK;
}

static int sample(pd *p, const unsigned char *b, size_t n, uint16_t misc)
{
    pd_sample s = {0};
    s.kernel = (misc & 7) == 1; /* PERF_RECORD_MISC_KERNEL */
    int rc = sample_fields(p, b, n, &s);
    if (rc || (rc = sample_frames(p, &s)))
        return rc;
    if (p->nframes == 0) {
        gd_sink_skip(p->sink, GD_SKIP(SIMPLEPERF_SAMPLE_WITHOUT_FRAMES), 0, 0);
        return GD_OK;
    }
    pd_thread *th = thread_of(p, s.tid, s.pid);
    if (!th)
        return p->err->code;
    if (!p->main_sent && s.pid == s.tid && s.pid > 0 && (!p->have_app || app_thread(p, th->name))) {
        p->main_sent = 1;
        if ((rc = send_meta(p, s.pid, s.tid)))
            return rc;
    }
    if (gd_grow((void **)&p->fptr, &p->fptr_cap, p->nframes, sizeof *p->fptr, p->err))
        return p->err->code;
    for (size_t i = 0; i < p->nframes; i++)
        p->fptr[i] = p->fbuf + p->frames[i].off;
    gd_event ev;
    gd_event_init(&ev, GD_EV_STACK);
    /* ns to ms, exact to the ns */
    ev.ts = (double)(s.time / 1000000) + (double)(s.time % 1000000) / 1e6;
    ev.pid = s.pid;
    ev.tid = s.tid;
    ev.thread = th->name[0] ? th->name : NULL;
    ev.u.stack.frames = p->fptr;
    ev.u.stack.nframes = p->nframes;
    return gd_sink_event(p->sink, &ev, p->err);
}

static int mmap_rec(pd *p, const unsigned char *b, size_t n, int v2)
{
    size_t name_at = v2 ? 64 : 32;
    if (n < name_at + 1)
        return bad(p, "mapping record cut short");
    pd_map m;
    uint32_t pid = u32at(b);
    m.start = u64at(b + 8);
    uint64_t len = u64at(b + 16);
    m.pgoff = u64at(b + 24);
    m.end = m.start + len < m.start ? UINT64_MAX : m.start + len;
    const unsigned char *nm = b + name_at;
    size_t nn = strnlen((const char *)nm, n - name_at);
    if (pid == KERNEL_PID && nn > 17 && memcmp(nm, "[kernel.kallsyms]", 17) == 0)
        nn = 17; /* "[kernel.kallsyms]_text": the kernel's file is "[kernel.kallsyms]" */
    if (!(m.dso = dso_of(p, (const char *)nm, nn)))
        return p->err->code;
    return map_add(p, pid, m);
}

static int comm_rec(pd *p, const unsigned char *b, size_t n)
{
    if (n < 9)
        return bad(p, "comm record cut short");
    uint32_t tid = u32at(b + 4);
    pd_thread *t = thread_of(p, tid, u32at(b));
    if (!t)
        return p->err->code;
    t->pid = u32at(b);
    size_t k = strnlen((const char *)b + 8, n - 8);
    if (k >= sizeof t->name)
        k = sizeof t->name - 1;
    memcpy(t->name, b + 8, k);
    t->name[k] = 0;
    /* the app's main thread named before any of its samples */
    if (!p->main_sent && p->have_app && tid == t->pid && t->pid > 0 && k && app_thread(p, t->name)) {
        p->main_sent = 1;
        return send_meta(p, t->pid, tid);
    }
    return GD_OK;
}

static int fork_rec(pd *p, const unsigned char *b, size_t n)
{
    if (n < 16)
        return bad(p, "fork record cut short");
    uint32_t pid = u32at(b), ppid = u32at(b + 4), tid = u32at(b + 8), ptid = u32at(b + 12);
    const pd_thread *par = thread_of(p, ptid, ppid);
    pd_thread *t = par ? thread_of(p, tid, pid) : NULL;
    if (!t)
        return p->err->code;
    t->pid = pid;
    memcpy(t->name, par->name, sizeof t->name);
    return pid != ppid ? map_copy(p, ppid, pid) : GD_OK;
}

static int records(pd *p)
{
    unsigned char *buf = malloc(PD_BUF);
    if (!buf)
        return gd_error_oom(p->err);
    uint64_t at = p->data_off, boff = 0;
    size_t blen = 0;
    int rc = GD_OK;
    while (at < p->data_end) {
        p->pos = at;
        if (at - boff + 8 > blen || at < boff) {
            uint64_t want = p->data_end - at < PD_BUF ? p->data_end - at : PD_BUF;
            if ((rc = rd(p, at, buf, (size_t)want)))
                break;
            boff = at;
            blen = (size_t)want;
        }
        if (at - boff + 8 > blen) {
            rc = bad(p, "record header cut short");
            break;
        }
        const unsigned char *h = buf + (at - boff);
        uint32_t type = u32at(h);
        uint16_t misc, size;
        memcpy(&misc, h + 4, 2);
        memcpy(&size, h + 6, 2);
        if (size < 8) {
            rc = bad(p, "record smaller than its header");
            break;
        }
        if (at + size > p->data_end) {
            rc = bad(p, "record past the end of the data section");
            break;
        }
        if (at - boff + size > blen) {
            boff = blen = 0; /* read again from this record */
            continue;
        }
        const unsigned char *b = h + 8;
        size_t n = size - 8u;
        uint64_t next = at + size;
        switch (type) {
        case REC_SAMPLE: rc = sample(p, b, n, misc); break;
        case REC_MMAP: rc = mmap_rec(p, b, n, 0); break;
        case REC_MMAP2: rc = mmap_rec(p, b, n, 1); break;
        case REC_COMM: rc = comm_rec(p, b, n); break;
        case REC_FORK: rc = fork_rec(p, b, n); break;
        default:
            if (type == REC_AUXTRACE && n >= 8)
                next += u64at(b); /* its trace data follows the record */
            gd_sink_skip(p->sink, GD_SKIP(IGNORED_SIMPLEPERF_BINARY_RECORD_NOT_USED), 0, 0);
        }
        if (rc)
            break;
        if (next < at) {
            rc = bad(p, "auxiliary data past the end of the file");
            break;
        }
        at = next;
    }
    free(buf);
    return rc;
}

/* ---- the file ------------------------------------------------------------- */

static int read_file(pd *p)
{
    unsigned char h[104];
    p->pos = 0;
    if (p->in.size < sizeof h)
        return gd_error_set(p->err, GD_ERR_DATA, 0, 0,
                            "perf.data: the file (%llu bytes) is shorter than its header (%zu bytes)",
                            (unsigned long long)p->in.size, sizeof h);
    if (rd(p, 0, h, sizeof h))
        return p->err->code;
    if (!gd_perfdata_is(h, sizeof h))
        return bad(p, "not a perf.data file (magic)");
    uint64_t attr_size = u64at(h + 16), attrs_off = u64at(h + 24), attrs_size = u64at(h + 32);
    p->data_off = u64at(h + 40);
    uint64_t data_size = u64at(h + 48);
    if (u64at(h + 8) < sizeof h)
        return bad(p, "header smaller than its fields");
    if (p->data_off > p->in.size || data_size > p->in.size - p->data_off)
        return gd_error_set(p->err, GD_ERR_DATA, 0, 0,
                            "perf.data: the data section (bytes %llu to %llu) is past the end of the file (%llu "
                            "bytes): the file is cut short",
                            (unsigned long long)p->data_off, (unsigned long long)(p->data_off + data_size),
                            (unsigned long long)p->in.size);
    p->data_end = p->data_off + data_size;
    if (attr_size < 16 + 48 || attr_size > 4096 || attrs_size % attr_size || attrs_size / attr_size == 0 ||
        attrs_size / attr_size > PD_MAX_ATTRS)
        return bad(p, "attribute section of no whole attributes");
    for (uint64_t i = 0; i < attrs_size / attr_size; i++) {
        unsigned char a[48];
        p->pos = attrs_off + i * attr_size;
        if (rd(p, p->pos, a, sizeof a))
            return p->err->code;
        uint64_t st = u64at(a + 24), rf = u64at(a + 32);
        if (i == 0) {
            p->sample_type = st;
            p->read_format = rf;
        } else if (st != p->sample_type || rf != p->read_format) {
            return bad(p, "events whose samples differ in layout");
        }
    }
    if (!(p->sample_type & S_TIME) || !(p->sample_type & S_TID))
        return gd_error_set(p->err, GD_ERR_DATA, 0, 0,
                            "perf.data: samples carry no time or thread (sample_type %#llx): nothing to place",
                            (unsigned long long)p->sample_type);
    int rc = read_features(p, h + 72);
    if (rc)
        return rc;
    if ((rc = send_meta(p, -1, -1)))
        return rc;
    if ((rc = records(p)))
        return rc;
    if (p->mangled_left)
        gd_sink_skip(p->sink, GD_SKIP(IGNORED_SIMPLEPERF_CPP_NAMES_LEFT_MANGLED_NO_LIBSTDCXX), 0, 0);
    return GD_OK;
}

int gd_perfdata_is(const unsigned char *head, size_t n)
{
    return n >= 8 && memcmp(head, "PERFILE2", 8) == 0;
}

int gd_perfdata_read(gd_input *in, const gd_sink *sink, gd_error *err)
{
    pd *p = calloc(1, sizeof *p);
    if (!p)
        return gd_error_set(err, GD_ERR_NOMEM, 0, 0, GD_ERR_NOMEM_MSG);
    p->sink = sink;
    p->err = err;
    int rc = gd_randin_open(&p->in, in, PD_SPOOL_CAP, "perf.data", err);
    if (rc == GD_OK) {
        rc = read_file(p);
        gd_randin_close(&p->in);
    }
    free(p->arena);
    free(p->syms);
    for (size_t i = 0; i < p->tab.cap; i++) {
        gd_keytab_ent *e = &p->tab.t[i];
        if (e->used && e->kind == K_PROC)
            free(((pd_proc *)e->val)->maps);
        if (e->used)
            free(e->val);
    }
    gd_keytab_clear(&p->tab);
    free(p->fbuf);
    free(p->frames);
    free(p->fptr);
    free(p);
    return rc;
}
