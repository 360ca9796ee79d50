/* skip_reasons.c - the skip-reason table, expanded from skip_reasons.def. */
#include "core/skip_reasons.h"

const gd_skip_reason gd_skip_reasons[GD_SR_N] = {
#define GD_SKIP_REASON(id, text, readers) [GD_SR_##id] = {text, readers},
#include "core/skip_reasons.def"
#undef GD_SKIP_REASON
};
