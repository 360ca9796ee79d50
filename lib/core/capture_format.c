/* capture_format.c - the capture format's table (capture_format.def) as C data. */
#include "capture_format.h"

#include <stdint.h>

#define GD_CF_CAT_(a, b) a##b
#define GD_CF_CAT2(a, b) GD_CF_CAT_(a, b)

/* Row numbers: each field row is one enumerator; a group row names the
 * number its first field gets (then steps back so that the field gets it). */
enum {
#define GD_CF_GROUP(id, base, kind, name, flags, schema, desc) gd_cf_first_##id, gd_cf_back_##id = gd_cf_first_##id - 1,
#define GD_CF_FIELD(group, key, handler, flags, member, sub, schema, desc) GD_CF_CAT2(gd_cf_row_, __LINE__),
#define GD_CF_NEST(group, key, handler, flags, sub, schema, desc) GD_CF_CAT2(gd_cf_row_, __LINE__),
#include "capture_format.def"
    gd_cf_nfields
};

/* The base struct of each group. */
#define GD_CF_GROUP(id, base, kind, name, flags, schema, desc) typedef base gd_cf_base_##id;
#include "capture_format.def"

/* Each member has the C type its handler reads and writes. */
#define GD_CF_CTYPE_TYPE gd_event_kind
#define GD_CF_CTYPE_TS double
#define GD_CF_CTYPE_PID int64_t
#define GD_CF_CTYPE_TID int64_t
#define GD_CF_CTYPE_NUM double
#define GD_CF_CTYPE_NUM_REQ double
#define GD_CF_CTYPE_NUM_REQ0 double
#define GD_CF_CTYPE_INT int64_t
#define GD_CF_CTYPE_INT0 int64_t
#define GD_CF_CTYPE_CINT int
#define GD_CF_CTYPE_FLAGS int64_t
#define GD_CF_CTYPE_STR const char *
#define GD_CF_CTYPE_STR_REQ const char *
#define GD_CF_CTYPE_STARTUP_KIND const char *
#define GD_CF_CTYPE_BOOL0 int
#define GD_CF_CTYPE_BOOL1 int
#define GD_CF_CTYPE_BOOLN int
#define GD_CF_CTYPE_PHASE_BE gd_phase
#define GD_CF_CTYPE_PHASE_EE gd_phase
#define GD_CF_CTYPE_FRAMES gd_stack_ev
#define GD_CF_CTYPE_STAT gd_cpu_counters
#define GD_CF_CTYPE_PID_STAT gd_cpu_counters
#define GD_CF_CTYPE_STAT_COUNTERS gd_cpu_counters
#define GD_CF_CTYPE_PID_COUNTERS gd_cpu_counters
#define GD_CF_CTYPE_OBJ gd_page
#define GD_CF_CTYPE_VIEWS gd_view_dump_ev
#define GD_CF_CTYPE_RECT int32_t *
#define GD_CF_CTYPE_LAYERS int32_t
#define GD_CF_CTYPE_SCREEN_SIDE int32_t
#define GD_CF_CTYPE_SIDE int32_t
#define GD_CF_CTYPE_BITMAP_SIDE int32_t
#define GD_CF_CTYPE_CONCERN const char **
#define GD_CF_CTYPE_FIGURES gd_frame_summary_ev
#define GD_CF_CTYPE_JSON_TEXT const char *

#define GD_CF_FIELD(group, key, handler, flags, member, sub, schema, desc)                        \
    _Static_assert(_Generic(((gd_cf_base_##group *)0)->member, GD_CF_CTYPE_##handler: 1, default: 0), \
                   "member of " #group "." key " is not what " #handler " reads");
#include "capture_format.def"

const gd_cf_field gd_cf_fields[] = {
#define GD_CF_FIELD(group, key, handler, flags, member, sub, schema, desc)                             \
    {key, sizeof key - 1, GD_CF_##handler, flags, GD_CFG_##sub, offsetof(gd_cf_base_##group, member), \
     schema, desc},
#define GD_CF_NEST(group, key, handler, flags, sub, schema, desc) \
    {key, sizeof key - 1, GD_CF_##handler, flags, GD_CFG_##sub, 0, schema, desc},
#include "capture_format.def"
};

/* Fields of a group run up to the next group's first (the last: to the end). */
const unsigned short gd_cf_group_first[GD_CFG__COUNT + 1] = {
#define GD_CF_GROUP(id, base, kind, name, flags, schema, desc) gd_cf_first_##id,
#include "capture_format.def"
    gd_cf_nfields};

const gd_cf_group gd_cf_groups[GD_CFG__COUNT] = {
#define GD_CF_GROUP(id, base, kind, name, flags, schema, desc) {name, kind, flags, schema, desc},
#include "capture_format.def"
};

const gd_cf_def gd_cf_defs[] = {
#define GD_CF_DEF(name, schema, desc) {name, schema, desc},
#include "capture_format.def"
};
const size_t gd_cf_ndefs = sizeof gd_cf_defs / sizeof gd_cf_defs[0];

gd_cf_group_id gd_cf_kind_group(gd_event_kind k)
{
    for (int g = 0; g < GD_CFG__COUNT; g++)
        if (gd_cf_groups[g].kind == (int)k)
            return (gd_cf_group_id)g;
    return GD_CFG_NONE;
}

const char *gd_cf_check(const gd_event *ev)
{
    const gd_cpu_ev *cpu = &ev->u.cpu;
    if (ev->kind == GD_EV_CPU && !cpu->raw.has_stat && !gd_has(cpu->total) && !gd_has(cpu->app))
        return "cpu: no counters or ratios";
    return NULL;
}
