/* testutil.c - collecting sink for reader tests; the corpus accessor and
 * the suites' exit rule (a case whose corpus file is absent is skipped by
 * name, the others run). */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

static int c_meta(void *ctx, const gd_meta *m, gd_error *err)
{
    gd_collected *c = ctx;
    json_array_append_new(c->metas, gd_meta_to_json(m));
    return 0;
}
static int c_event(void *ctx, const gd_event *ev, gd_error *err)
{
    gd_collected *c = ctx;
    json_array_append_new(ev->kind == GD_EV_LOG ? c->logs : c->events, gd_event_to_json(ev));
    return 0;
}
static void c_skip(void *ctx, const char *reason, long line, long col)
{
    gd_collected *c = ctx;
    json_t *v = json_object_get(c->skips, reason);
    json_object_set_new(c->skips, reason, json_integer(v ? json_integer_value(v) + 1 : 1));
}

static void run(const gd_reader *r, gd_input *in, const gd_read_opts *opts, gd_collected *out)
{
    gd_sink sink = {out, c_meta, c_event, c_skip};
    gd_read_opts def = {0};
    out->rc = r->read(in, &sink, opts ? opts : &def, &out->err);
}

static void init(gd_collected *out)
{
    memset(out, 0, sizeof *out);
    out->events = json_array();
    out->logs = json_array();
    out->metas = json_array();
    out->skips = json_object();
}

int gd_test_probe_mem(const gd_reader *r, const void *data, size_t len)
{
    gd_input *in = NULL;
    gd_error err;
    size_t n;
    int eof, score = -1;
    ck_assert_int_eq(gd_input_open_mem(&in, data, len, &err), 0);
    const unsigned char *head = gd_input_peek(in, &n, &eof, &err);
    ck_assert_ptr_nonnull(head);
    score = r->probe(head, n, eof);
    gd_input_close(in);
    return score;
}

void gd_test_read_mem(const gd_reader *r, const void *data, size_t len,
                      const gd_read_opts *opts, gd_collected *out)
{
    gd_input *in = NULL;
    init(out);
    out->rc = gd_input_open_mem(&in, data, len, &out->err);
    if (out->rc == 0)
        run(r, in, opts, out);
    gd_input_close(in);
}

void gd_test_read_file(const gd_reader *r, const char *path, const gd_read_opts *opts,
                       gd_collected *out)
{
    gd_input *in = NULL;
    init(out);
    out->rc = gd_input_open_file(&in, path, &out->err);
    if (out->rc == 0)
        run(r, in, opts, out);
    gd_input_close(in);
}

void gd_collected_free(gd_collected *c)
{
    json_decref(c->events);
    json_decref(c->logs);
    json_decref(c->metas);
    json_decref(c->skips);
}

size_t gd_collected_count(const gd_collected *c, const char *type)
{
    size_t i, n = 0;
    json_t *e;
    json_array_foreach(c->events, i, e)
        if (strcmp(json_string_value(json_object_get(e, "type")), type) == 0)
            n++;
    return n;
}

json_t *gd_collected_nth(const gd_collected *c, const char *type, size_t k)
{
    size_t i;
    json_t *e;
    json_array_foreach(c->events, i, e)
        if (strcmp(json_string_value(json_object_get(e, "type")), type) == 0 && k-- == 0)
            return e;
    return NULL;
}

long gd_collected_skips(const gd_collected *c, const char *reason)
{
    json_t *v = json_object_get(c->skips, reason);
    return v ? (long)json_integer_value(v) : 0;
}

/* How many corpus files the suite's tests asked for and did not find.
 * Check runs each test in a child process (CK_FORK=yes), so the count lives
 * in a shared anonymous mapping made when the program starts, before the
 * runner forks; the children's increments are seen by the suite's main. */
static long *corpus_missing;

__attribute__((constructor)) static void corpus_counter_init(void)
{
    void *p = mmap(NULL, sizeof *corpus_missing, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                   -1, 0);
    corpus_missing = p == MAP_FAILED ? NULL : p;
}

const char *gd_test_corpus_dir(void)
{
    const char *env = getenv("GODEYE_CORPUS");
    return env && *env ? env : GODEYE_CORPUS;
}

/* One line "tested REL" / "absent REL" to $GODEYE_CORPUS_LOG (O_APPEND: the
 * runners of a parallel ctest write whole lines). */
static void corpus_log(const char *what, const char *rel)
{
    const char *log = getenv("GODEYE_CORPUS_LOG");
    if (!log || !*log)
        return;
    char line[1024];
    int n = snprintf(line, sizeof line, "%s %s\n", what, rel);
    int fd = open(log, O_WRONLY | O_APPEND | O_CREAT, 0644);
    if (fd < 0)
        return;
    if (n > 0 && (size_t)n < sizeof line && write(fd, line, (size_t)n) < 0)
        n = 0;
    close(fd);
}

const char *gd_test_corpus_at(const char *rel, const char *test)
{
    static char buf[4096];
    snprintf(buf, sizeof buf, "%s/%s", GODEYE_CORPUS_INREPO, rel);
    if (access(buf, R_OK) == 0) {
        corpus_log("tested", rel);
        return buf;
    }
    snprintf(buf, sizeof buf, "%s/%s", gd_test_corpus_dir(), rel);
    if (access(buf, R_OK) == 0) {
        corpus_log("tested", rel);
        return buf;
    }
    /* START_TEST(name) defines name_fn: report the case by its name */
    size_t len = strlen(test);
    if (len > 3 && strcmp(test + len - 3, "_fn") == 0)
        len -= 3;
    fprintf(stderr, "skipped: %.*s: corpus file absent: %s (not in tests/corpus/files, nor under %s)\n",
            (int)len, test, rel, gd_test_corpus_dir());
    corpus_log("absent", rel);
    if (corpus_missing)
        __atomic_add_fetch(corpus_missing, 1, __ATOMIC_SEQ_CST);
    else
        abort(); /* no way to report the skip: never pass silently */
    return NULL;
}

int gd_test_run(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return gd_test_exit(failed);
}

int gd_test_exit(int failed)
{
    if (failed)
        return EXIT_FAILURE;
    long missing = corpus_missing ? __atomic_load_n(corpus_missing, __ATOMIC_SEQ_CST) : 0;
    if (missing)
        fprintf(stderr, "skipped: %ld case(s) whose corpus file is absent (set GODEYE_CORPUS); the others passed\n",
                missing);
    return EXIT_SUCCESS;
}

void gd_tbuf_put(gd_tbuf *b, const void *p, size_t n)
{
    ck_assert_uint_le(b->n + n, sizeof b->d);
    memcpy(b->d + b->n, p, n);
    b->n += n;
}

void gd_tbuf_u8(gd_tbuf *b, unsigned v)
{
    unsigned char c = (unsigned char)v;
    gd_tbuf_put(b, &c, 1);
}

void gd_tbuf_u16(gd_tbuf *b, unsigned v)
{
    gd_tbuf_u8(b, v & 0xff);
    gd_tbuf_u8(b, (v >> 8) & 0xff);
}

void gd_tbuf_u32(gd_tbuf *b, uint32_t v)
{
    gd_tbuf_u16(b, v & 0xffff);
    gd_tbuf_u16(b, v >> 16);
}

void gd_tbuf_u64(gd_tbuf *b, uint64_t v)
{
    gd_tbuf_u32(b, (uint32_t)v);
    gd_tbuf_u32(b, (uint32_t)(v >> 32));
}
