/* spmeta.c - simpleperf's meta (spmeta.h). */
#include "spmeta.h"

#include <string.h>

int gd_simpleperf_meta(const gd_sink *sink, const char *app, int realtime, int64_t pid, int64_t main_tid,
                       gd_error *err)
{
    gd_meta m;
    gd_meta_init(&m);
    m.app = app;
    m.clock = realtime ? "utc" : "monotonic";
    m.pid = pid;
    m.main_tid = main_tid;
    return gd_sink_meta(sink, &m, err);
}

int gd_simpleperf_app_thread(const char *app, const char *thread)
{
    size_t na = strlen(app), nt = strlen(thread);
    return nt > 0 && nt <= na && strcmp(app + na - nt, thread) == 0;
}
