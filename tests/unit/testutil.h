/* testutil.h - helpers shared by the Check suites: run a reader over a
 * fixture and collect what it emitted as JSON, for exact assertions. */
#ifndef GD_TESTS_UNIT_TESTUTIL_H
#define GD_TESTS_UNIT_TESTUTIL_H

#include <check.h>
#include <stdint.h>
#include <jansson.h>

#include "reader/reader.h"

typedef struct gd_collected {
    json_t *events;  /* array of gd_event_to_json objects, in order      *
                      * (log lines, GD_EV_LOG, apart: logs)              */
    json_t *logs;    /* the GD_EV_LOG events, in order (#28)              */
    json_t *metas;   /* array of gd_meta_to_json objects                  */
    json_t *skips;   /* object: reason -> count                           */
    int rc;          /* the reader's return code                          */
    gd_error err;
} gd_collected;

/* Reader r's probe score for `len` bytes of `data` seen as ingest sees them:
 * through gd_input's peek (UTF-16 already transcoded, a UTF-8 BOM dropped). */
int gd_test_probe_mem(const gd_reader *r, const void *data, size_t len);

/* Runs reader `r` over `len` bytes of `data`. Always fills `out`. */
void gd_test_read_mem(const gd_reader *r, const void *data, size_t len,
                      const gd_read_opts *opts, gd_collected *out);
/* Same over a file (path). */
void gd_test_read_file(const gd_reader *r, const char *path, const gd_read_opts *opts,
                       gd_collected *out);
void gd_collected_free(gd_collected *c);
/* Number of collected events of a type ("looper", "stack", ...). */
size_t gd_collected_count(const gd_collected *c, const char *type);
/* The i-th collected event of a type, or NULL. */
json_t *gd_collected_nth(const gd_collected *c, const char *type, size_t i);
/* Count recorded for a skip reason (0 when none). */
long gd_collected_skips(const gd_collected *c, const char *reason);
/* The real captures kept outside the repository: $GODEYE_CORPUS when set,
 * else the folder compiled in (../shared/corpus beside the checkout). */
const char *gd_test_corpus_dir(void);
/* Path of a real capture `rel` (dir/file): the copy carried in the
 * repository (tests/corpus/files/rel) first, else gd_test_corpus_dir()/rel,
 * if it exists.  Else NULL: the case (`test`, the calling function) prints
 * "skipped: CASE: corpus file absent: REL" and returns without its
 * assertions; the suite still runs its other cases and passes when they
 * pass.  Each file found or absent is appended to $GODEYE_CORPUS_LOG when
 * set ("tested REL" / "absent REL"; scripts/test.sh counts them).  The
 * path is valid until the next call. */
const char *gd_test_corpus_at(const char *rel, const char *test);
#define gd_test_corpus(rel) gd_test_corpus_at((rel), __func__)

/* ctest's SKIP_RETURN_CODE for the unit tests. */
#define GD_TEST_SKIPPED 77
/* A suite's exit code from its failed-test count: 1 when any test failed,
 * else 0 (the cases whose corpus file was absent are named on stderr and
 * counted in the closing "skipped" line).
 * Every suite that includes this header ends with
 *     return gd_test_exit(srunner_ntests_failed(sr));  */
int gd_test_exit(int failed);

/* Binary input built byte by byte (an ART trace, a perf.data): numbers
 * little-endian; a write past the end fails the case. */
typedef struct gd_tbuf {
    unsigned char d[8192];
    size_t n;
} gd_tbuf;
void gd_tbuf_put(gd_tbuf *b, const void *p, size_t n);
void gd_tbuf_u8(gd_tbuf *b, unsigned v);
void gd_tbuf_u16(gd_tbuf *b, unsigned v);
void gd_tbuf_u32(gd_tbuf *b, uint32_t v);
void gd_tbuf_u64(gd_tbuf *b, uint64_t v);
/* Runs suite `s` (CK_NORMAL) and frees it: gd_test_exit of its failures. */
int gd_test_run(Suite *s);

#endif
