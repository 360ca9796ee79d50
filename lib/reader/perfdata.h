/* perfdata.h - simpleperf's binary perf.data, read by the simpleperf reader (perfdata.c). */
#ifndef GD_READER_PERFDATA_H
#define GD_READER_PERFDATA_H

#include "core/event.h"
#include "io/input.h"

/* Reads the perf.data `in` (its head is "PERFILE2"): one GD_EV_STACK a
 * sample, meta as the text forms give it.  GD_ERR_DATA with "perf.data:
 * WHAT at byte N" for a file it cannot walk. */
int gd_perfdata_read(gd_input *in, const gd_sink *sink, gd_error *err);

#endif
