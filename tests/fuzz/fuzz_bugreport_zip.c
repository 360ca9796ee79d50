/* fuzz_bugreport_zip.c - libFuzzer harness for the bugreport zip path:
 * the fuzzer's bytes as a zip held in memory, read with caps small enough
 * that a zip bomb or an oversized member is refused within the time limit. */
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "reader/bugreport.h"

static int on_meta(void *ctx, const gd_meta *m, gd_error *err)
{
    (void)ctx, (void)err;
    json_decref((json_t *)gd_meta_to_json(m));
    return 0;
}

static int on_event(void *ctx, const gd_event *ev, gd_error *err)
{
    (void)ctx, (void)err;
    json_decref((json_t *)gd_event_to_json(ev));
    return 0;
}

static void on_skip(void *ctx, const char *reason, long line, long col)
{
    (void)line, (void)col;
    *(size_t *)ctx += strlen(reason) > 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const gd_bugreport_caps caps = {
        .member_max = 1 << 20, .total_max = 2 << 20, .ratio_max = 50,
        .ratio_floor = 4096, .spool_max = 4 << 20, .members_max = 256,
    };
    size_t skips = 0;
    gd_sink sink = {&skips, on_meta, on_event, on_skip};
    gd_read_opts ro = {.year = 2024, .name = "bugreport.zip"};
    gd_error err = {0};
    int rc = gd_bugreport_read_zip_mem(data, size, &caps, &sink, &ro, &err);
    /* a reader that fails must say why */
    if (rc && !err.msg[0])
        abort();
    return 0;
}
