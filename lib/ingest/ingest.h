/* ingest.h - turning inputs (files, folders, stdin, URLs) into traces:
 * detection by content, streaming through a reader, one transaction. */
#ifndef GD_INGEST_INGEST_H
#define GD_INGEST_INGEST_H

#include <jansson.h>

#include "ingest/writer.h"
#include "io/fetch.h"
#include "reader/reader.h"
#include "store/store.h"

typedef struct gd_ingest_opts {
    const char *format;          /* force this reader (NULL: detect)        */
    int year;                    /* for stamps without a year; 0 = current  */
    const char *method_mapping;  /* Matrix method mapping file or NULL      */
    /* progress of the current input (bytes read, total or -1); may be NULL */
    void (*progress)(void *ctx, const char *source, uint64_t done, int64_t total);
    void *progress_ctx;
    /* progress of the analysis after reading (blocks derived so far, how
     * many to derive), with progress_ctx; may be NULL */
    void (*analysis_progress)(void *ctx, const char *source, uint64_t done, int64_t total);
    int keep_going;              /* gd_read_opts.keep_going for every input  */
    /* R8/ProGuard mapping.txt, or NULL: loaded once, then the frames of
     * every stack and the class/method of every method event are retraced
     * before they are stored (key frames, groups, concern packages and
     * blame then see the original names).  Only the retraced frame is
     * stored; a frame whose class is not in the mapping stays as it is; an
     * ambiguous one (several originals fit) stays obfuscated and is counted
     * as the skip reason GD_SKIP(RETRACE_AMBIGUOUS).  The mapping's content
     * hash is part of each trace's duplicate key. */
    const char *mapping;
    const gd_fetch_opts *fetch;  /* limits of URL inputs; NULL: the defaults */
    const gd_trace_tags *tags;   /* stated for every trace of this ingest, or NULL */
    /* nonzero: timings.write is measured (two clock reads per event, a few
     * per cent of a JSONL ingest); zero: it is 0 and timings.read is the
     * whole read-and-write time */
    int timings;
    /* nonzero: one transaction for every input, the first refused input
     * fails the ingest and nothing is stored (`godeye ingest --strict`);
     * zero: each input is its own transaction (see gd_ingest) */
    int strict;
} gd_ingest_opts;

/* What one input became. */
typedef struct gd_ingest_report {
    const char *source;          /* as given (folder members: their path)  */
    const char *format;          /* reader name                            */
    gd_ingest_result res;
    json_t *stats;               /* {"reason": count, ...} (borrowed)      */
    const char *not_capture;     /* a folder member in no known format:
                                  * why it was passed over (nothing else
                                  * is set); NULL for an ingested input    */
    const char *warning;         /* a note on opts->mapping (source is its
                                  * path; nothing else is set): "LINE: ..."
                                  * metadata lines with unknown ids were
                                  * ignored                                */
    json_t *retrace;             /* with opts->mapping: {"frames": Java
                                  * frames and method names seen,
                                  * "retraced", "unknown_class": of a class
                                  * the mapping does not know, "cut": left
                                  * out by the expansion caps} (borrowed)  */
    const char *nothing_usable;  /* with keep_going: an input recognised as
                                  * `format` from which no event was taken,
                                  * passed over: the reason counts        */
    const gd_error *refused;     /* not strict, an input refused (nothing of
                                  * it stored): what godeye saw, with
                                  * source and position; `refusal` says
                                  * which kind; nothing else but `member`
                                  * and `format` (when detected) is set    */
    const char *refusal;         /* "broken or unsupported data" or
                                  * "unreadable"                           */
    int member;                  /* 1 a folder's member, 2 a zip's         */
    uint64_t bytes;              /* the input's size in bytes as read (a
                                  * stored or duplicate trace)             */
    const char *note;            /* what the trace is, when not what its
                                  * format says: GD_INGEST_LOG_ONLY        */
} gd_ingest_report;

/* The note of a trace with no event but log lines: they are stored (as
 * a bugreport's, bounded) as the context `godeye anr --context` and the
 * report show. */
#define GD_INGEST_LOG_ONLY "log lines only: context for anr --context and the report"

typedef void (*gd_ingest_report_fn)(void *ctx, const gd_ingest_report *r);

/* Ingests the inputs.  Not opts->strict: each input file (a folder's
 * member, a zip's member read as a capture) is its own transaction,
 * committed before fn hears of it; an input that is refused (broken or
 * unsupported data, unreadable) leaves no row and is reported through fn
 * with `refused` set, and the next input is read; an input in no known
 * format is reported with not_capture set, one with nothing usable in it
 * with nothing_usable set (both passed over).  Then the
 * return is GD_OK, except when a single input was given: its refusal (a
 * folder's own: empty, no capture in it) is returned as the error, as with
 * opts->strict; and except
 * for failures that stop everything (out of memory, a usage error, the
 * mapping).  opts->strict: every input in one transaction: all or
 * nothing, the first refusal is the error returned.  A folder is
 * one trace when all its files are BlockCanary logs (read in name order),
 * otherwise each file in it (recursively, sorted) is an input; there, a
 * file in no known format (a README beside the captures) is passed over
 * and reported through fn with not_capture set, and a folder with no
 * capture at all is an error.  An input recognised by a reader but
 * yielding no event at all fails with the reasons it was skipped for
 * (no silent success), unless opts->keep_going or it is a folder member:
 * then it is passed over and reported through fn with nothing_usable set
 * (a folder whose members all give nothing fails).  "-" reads
 * stdin.  On failure returns the code with err->source naming the input and
 * err->line/col the position, and the database is left as it was. */
int gd_ingest(gd_store *s, char *const *inputs, size_t n, const gd_ingest_opts *opts,
              gd_ingest_report_fn fn, void *ctx, gd_error *err);

/* How many files gd_ingest would read from inputs (a folder's regular
 * files, recursively; anything else counts one): for a progress line. */
size_t gd_ingest_count_files(char *const *inputs, size_t n);

/* Reads one already opened input with a reader into a sink (no store):
 * detection as above.  For tools and tests. */
int gd_ingest_detect(gd_input *in, const char *forced, const gd_reader **out, gd_error *err);

#endif
