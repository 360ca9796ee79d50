/* fuzz_ingest.c - libFuzzer harness for the ingest entry point: detection,
 * the detected reader and the store writer, into an in-memory database.
 * Oracle besides the sanitizers: a failed ingest leaves no rows behind. */
#define _GNU_SOURCE
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ingest/ingest.h"
#include "query/sql.h"

static int count_rows(void *ctx, json_t *row)
{
    *(json_int_t *)ctx = json_integer_value(json_object_get(row, "n"));
    return 0;
}

static json_int_t rows(gd_store *s)
{
    json_int_t n = -1;
    gd_error err = {0};
    if (gd_query_sql(s,
                     "SELECT (SELECT count(*) FROM trace) + (SELECT count(*) FROM dispatch) +"
                     " (SELECT count(*) FROM sample) + (SELECT count(*) FROM raw_event) +"
                     " (SELECT count(*) FROM block) + (SELECT count(*) FROM issue) +"
                     " (SELECT count(*) FROM issue_fps) + (SELECT count(*) FROM mark) +"
                     " (SELECT count(*) FROM frame_summary) + (SELECT count(*) FROM frame_figure) AS n", 0,
                     count_rows, &n, &err))
        abort();
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static gd_store *s;
    static int fd = -1;
    static unsigned long runs;
    static char path[64];
    gd_error err = {0};
    if (fd < 0) {
        if ((fd = memfd_create("fuzz_ingest", 0)) < 0)
            abort();
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    /* a fresh database now and then keeps memory flat over millions of runs */
    if (s && ++runs % 512 == 0) {
        gd_store_close(s);
        s = NULL;
    }
    if (!s && gd_store_open(&s, ":memory:", GD_STORE_RW, &err))
        abort();
    if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
        abort();
    json_int_t before = rows(s);
    char *inputs[] = {path};
    gd_ingest_opts opts = {.year = 2024, .keep_going = (int)(size & 1)};
    gd_error e = {0};
    if (gd_ingest(s, inputs, 1, &opts, NULL, NULL, &e)) {
        if (!e.msg[0] || rows(s) != before)
            abort();
    }
    return 0;
}
