/* fuzz_analysis.c - libFuzzer harness for the analysis step past the
 * readers (#53): a fuzzed input ingested into a fresh in-memory database
 * (detection, the reader, the writer and every deriver: blocks with their
 * thread states, binder and lock shares, launches and their phases, CPU
 * profiles, FrameTimeline), then `top` and `report` over it (the report
 * built in full and rendered as HTML, Markdown and JSON).  The seeds are
 * every reader's (scripts/fuzz-corpus.sh), with the generated CPU
 * profiles, launches, binder calls and FrameTimeline traces.
 * Oracle besides the sanitizers: a failed step says why (a message). */
#define _GNU_SOURCE
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ingest/ingest.h"
#include "query/report.h"
#include "query/top.h"
#include "render/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int fd = -1;
    static char path[64];
    static FILE *null;
    if (fd < 0) {
        if ((fd = memfd_create("fuzz_analysis", 0)) < 0 || !(null = fopen("/dev/null", "w")))
            abort();
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
        abort();
    gd_store *s = NULL;
    gd_error err = {0};
    if (gd_store_open(&s, ":memory:", GD_STORE_RW, &err))
        abort();
    char *inputs[] = {path};
    gd_ingest_opts opts = {.year = 2024, .keep_going = 1};
    if (gd_ingest(s, inputs, 1, &opts, NULL, NULL, &err)) {
        if (!err.msg[0])
            abort();
        gd_store_close(s);
        return 0;
    }
    gd_filter all = {0};
    json_t *doc = NULL;
    gd_error e = {0};
    if (gd_top_build(s, &all, 10, &doc, &e)) {
        if (!e.msg[0])
            abort();
    }
    json_decref(doc);
    doc = NULL;
    gd_report_opts ro = {.filter = all, .full = 1};
    gd_error e2 = {0};
    if (gd_report_build(s, &ro, &doc, &e2)) {
        if (!e2.msg[0])
            abort();
    } else {
        static const char *const formats[] = {"html", "md", "json"};
        for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
            gd_render_report(null, formats[i], doc, 0);
    }
    json_decref(doc);
    gd_store_close(s);
    return 0;
}
