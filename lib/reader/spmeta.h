/* spmeta.h - simpleperf's meta, one rule for its text forms (simpleperf.c)
 * and its binary perf.data (perfdata.c). */
#ifndef GD_READER_SPMETA_H
#define GD_READER_SPMETA_H

#include <stdint.h>

#include "core/event.h"

/* The meta of a simpleperf capture: the app (NULL unknown), the clock
 * ("utc" when realtime, else "monotonic"), the process and its main thread
 * (-1 unknown). */
int gd_simpleperf_meta(const gd_sink *sink, const char *app, int realtime, int64_t pid, int64_t main_tid,
                       gd_error *err);

/* 1 when `thread` (not empty) names the app's main thread: the app's name
 * or its tail (the kernel keeps 15 bytes of a thread's name). */
int gd_simpleperf_app_thread(const char *app, const char *thread);

#endif
