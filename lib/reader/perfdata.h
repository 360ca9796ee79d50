/* perfdata.h - simpleperf's binary perf.data, read by the simpleperf reader (perfdata.c). */
#ifndef GD_READER_PERFDATA_H
#define GD_READER_PERFDATA_H

#include "core/event.h"
#include "io/input.h"

/* 1 when head[0..n) begins as a perf.data does ("PERFILE2"). */
int gd_perfdata_is(const unsigned char *head, size_t n);

/* Reads the perf.data `in` (gd_perfdata_is of its head): one GD_EV_STACK a
 * sample, meta as the text forms give it.  GD_ERR_DATA with "perf.data:
 * WHAT at byte N" for a file it cannot walk. */
int gd_perfdata_read(gd_input *in, const gd_sink *sink, gd_error *err);

#endif
