/* reader.h - the interface every input format implements, and the registry
 * that detects a format by content.
 *
 * A reader consumes a gd_input and calls the sink for the meta and for each
 * event, in input order.  It never prints, never exits, and keeps memory
 * independent of the input size (per-event buffers only).  Malformed input
 * it cannot recover from: return GD_ERR_DATA with err->line/col set.
 * Records it can step over: gd_sink_skip() with a stable reason, go on. */
#ifndef GD_READER_READER_H
#define GD_READER_READER_H

#include "core/event.h"
#include "io/input.h"

typedef struct gd_read_opts {
    int year;                    /* for stamps without a year (logcat); 0 = current */
    const char *method_mapping;  /* Matrix methodMapping file or NULL       */
    const char *name;            /* source name, for stamps in file names   */
    /* 1: a capture cut short (the device died mid-write) is not an error:
     * line formats drop the cut last line as the skip GD_SKIP(TRUNCATED_INPUT).
     * Readers that support it: godeye (JSONL), logcat. */
    int keep_going;
    /* #28: the carrier of ANR dumps (the anr reader's section field):
     * "at_last_anr", "just_now", "when_slow", "vm_traces" (bugreport
     * sections), "anr_file" (a zip's FS/data/anr/ member); NULL = a file of
     * its own, decided by the reader ("anr_file" or "traces_file"). */
    const char *anr_section;
} gd_read_opts;

#define GD_PROBE_CONTAINER 200

typedef struct gd_reader {
    const char *name;            /* stable: "godeye", "logcat", ...         */
    const char *description;
    /* Confidence 0..100 that `head` (the first bytes, decompressed) is this
     * format; eof = head is the whole input.  GD_PROBE_CONTAINER: `head`
     * starts with this reader's container magic (a zip's local header),
     * whose members decide what it holds: it beats every text probe, which
     * could otherwise take a stored (uncompressed) first member's bytes for
     * its own format. */
    int (*probe)(const unsigned char *head, size_t n, int eof);
    /* Reads the whole input; returns GD_OK or an error code with err set. */
    int (*read)(gd_input *in, const gd_sink *sink, const gd_read_opts *opts, gd_error *err);
    /* Optional: when `head` is a known file of this tool that is not a
     * capture (a Matrix methodMapping), what it is and where it goes, in
     * one lower-case phrase without parentheses; else NULL. */
    const char *(*not_capture)(const unsigned char *head, size_t n, int eof);
    /* What the format's times are ("utc", "local", "monotonic"; see
     * gd_meta.clock), or NULL when it cannot tell.  A capture whose meta
     * names a clock overrides it. */
    const char *clock;
} gd_reader;

/* NULL-terminated list of all readers, in detection priority order. */
const gd_reader *const *gd_readers(void);
/* Reader by name or NULL. */
const gd_reader *gd_reader_find(const char *name);
/* The reader with the highest probe score (> 0), or NULL; `tried` receives
 * the comma-separated names tried (for the error message). */
const gd_reader *gd_reader_detect(const unsigned char *head, size_t n, int eof,
                                  char *tried, size_t tried_len);
/* For a head no reader takes: the first reader's not_capture phrase, or NULL. */
const char *gd_reader_not_capture(const unsigned char *head, size_t n, int eof);

#endif
