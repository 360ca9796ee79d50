/* skip_reasons.h - the one table of skip reasons (skip_reasons.def): an ID
 * per text, so a reader names a reason instead of spelling it again. */
#ifndef GD_CORE_SKIP_REASONS_H
#define GD_CORE_SKIP_REASONS_H

typedef enum gd_skip_id {
#define GD_SKIP_REASON(id, text, readers) GD_SR_##id,
#include "core/skip_reasons.def"
#undef GD_SKIP_REASON
    GD_SR_N
} gd_skip_id;

typedef struct gd_skip_reason {
    const char *text;     /* as counted: ingest_stat.reason, ingest's summary */
    const char *readers;  /* the readers that count it, comma separated */
} gd_skip_reason;

/* The table, indexed by gd_skip_id (GD_SR_N rows). */
extern const gd_skip_reason gd_skip_reasons[GD_SR_N];

/* The text of row ID (the suffix of GD_SR_ID), for gd_sink_skip. */
#define GD_SKIP(id) (gd_skip_reasons[GD_SR_##id].text)

#endif
