/* fuzz_reader.h - the libFuzzer harness body shared by every fuzz_<reader>.c:
 * the fuzzer's bytes go through gd_input_open_mem to one reader, whose
 * events a counting sink turns into JSON (so every string and array the
 * reader hands out is read by ASan).  Include after defining FUZZ_READER. */
#ifndef GD_TESTS_FUZZ_FUZZ_READER_H
#define GD_TESTS_FUZZ_FUZZ_READER_H

#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "reader/reader.h"

#define FUZZ_STR2(x) #x
#define FUZZ_STR(x) FUZZ_STR2(x)

typedef struct fuzz_count {
    unsigned long metas, events, skips;
} fuzz_count;

static int fuzz_meta(void *ctx, const gd_meta *m, gd_error *err)
{
    ((fuzz_count *)ctx)->metas++;
    json_decref((json_t *)gd_meta_to_json(m));
    return 0;
}

static int fuzz_event(void *ctx, const gd_event *ev, gd_error *err)
{
    ((fuzz_count *)ctx)->events++;
    json_decref((json_t *)gd_event_to_json(ev));
    return 0;
}

static void fuzz_skip(void *ctx, const char *reason, long line, long col)
{
    ((fuzz_count *)ctx)->skips += strlen(reason) > 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const gd_reader *r;
    if (!r && !(r = gd_reader_find(FUZZ_STR(FUZZ_READER))))
        abort();
    fuzz_count c = {0};
    gd_sink sink = {&c, fuzz_meta, fuzz_event, fuzz_skip};
    /* odd sizes also exercise keep_going (cut last lines are skipped) */
    gd_read_opts ro = {.year = 2024, .name = "looper-2024-03-05_14-22-07.481.log",
                       .keep_going = (int)(size & 1)};
    gd_error err = {0};
    gd_input *in = NULL;
    if (gd_input_open_mem(&in, data, size, &err))
        abort();
    int rc = r->read(in, &sink, &ro, &err);
    /* a reader that fails must say why */
    if (rc && !err.msg[0])
        abort();
    gd_input_close(in);
    /* probing must be safe on any prefix too */
    r->probe(data, size, 1);
    return 0;
}

#endif
