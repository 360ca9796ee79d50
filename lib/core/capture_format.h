/* capture_format.h - the capture format's table (capture_format.def) as C data. */
#ifndef GD_CORE_CAPTURE_FORMAT_H
#define GD_CORE_CAPTURE_FORMAT_H

#include <stddef.h>

#include "event.h"

/* How a field is read (lib/reader/godeye.c, godeye_fast.c) and written
 * (lib/core/event_json.c).  "opt" = absent or null leaves the member as
 * gd_event_init / gd_meta_init set it; a value of the wrong type is counted
 * ("ignored: field of wrong type") and ignored. */
typedef enum gd_cf_handler {
    GD_CF_TYPE,          /* event kind: "type" (gd_event_kind)                      */
    GD_CF_TS,            /* double, required number ("epoch ms"); written when set  */
    GD_CF_PID,           /* int64, taken when an integer; written unless GD_PID_APP */
    GD_CF_TID,           /* int64, integer or null (else an error); unless main     */
    GD_CF_NUM,           /* double, opt number; written when set                    */
    GD_CF_NUM_REQ,       /* double, required number ("ms")                          */
    GD_CF_NUM_REQ0,      /* double, required number >= 0                            */
    GD_CF_INT,           /* int64, opt integer (or a real, or a string of digits);  *
                          * written when >= 0 (GD_CF_ALWAYS: always)                */
    GD_CF_INT0,          /* int64 as GD_CF_INT, absent or negative = 0; always      */
    GD_CF_CINT,          /* int written when >= 0                                   */
    GD_CF_FLAGS,         /* int64 written when not 0                                */
    GD_CF_STR,           /* const char *, opt string; written when not NULL         */
    GD_CF_STR_REQ,       /* as GD_CF_STR, then required (checked last)              */
    GD_CF_STARTUP_KIND,  /* as GD_CF_STR, other than cold/warm/hot counted, NULL    */
    GD_CF_BOOL0,         /* int, opt boolean (or integer), absent 0; written when 1 */
    GD_CF_BOOL1,         /* absent 1; written when 0 (GD_CF_ALWAYS: always)         */
    GD_CF_BOOLN,         /* absent -1; written when 0 or 1                          */
    GD_CF_PHASE_BE,      /* gd_phase from opt "begin"/"end" (else an error)         */
    GD_CF_PHASE_EE,      /* gd_phase from required "enter"/"exit"                   */
    GD_CF_FRAMES,        /* gd_stack_ev: required array of strings                  */
    GD_CF_STAT,          /* gd_cpu_counters from a /proc/stat line (bad: an error)  */
    GD_CF_PID_STAT,      /* gd_cpu_counters from a /proc/<pid>/stat line            */
    GD_CF_STAT_COUNTERS, /* gd_cpu_counters written as an object when has_stat      */
    GD_CF_PID_COUNTERS,  /* ... when has_pid_stat                                   */
    GD_CF_OBJ,           /* object of group `sub`, read when an object; written     *
                          * when not empty (GD_CF_ALWAYS: always)                   */
    GD_CF_OBJ_REQ,       /* object of group `sub`, required; always written         */
    GD_CF_OBJ_SIDES,     /* object of group `sub`, written when a member is > 0     */
    GD_CF_VIEWS,         /* gd_view_dump_ev: required array of `sub` objects; one   *
                          * without its required members is counted, dropped        */
    GD_CF_RECT,          /* int32_t[4] from an array of 4 numbers within +-1e9      */
    GD_CF_LAYERS,        /* int32, integer, else 1 (-1 when the dump has no paint)  */
    GD_CF_SCREEN_SIDE,   /* int32 from opt integer, negative = 0; always            */
    GD_CF_SIDE,          /* int32 from opt integer, saturated; always               */
    GD_CF_BITMAP_SIDE,   /* int32 from a required integer, saturated; always        */
    GD_CF_CONCERN,       /* gd_meta.concern: the strings of an array (first 16)     */
    GD_CF_FIGURES,       /* gd_frame_summary_ev: keys/values as an object           */
    GD_CF_JSON_TEXT,     /* const char * JSON text written as its value             */
    GD_CF__HANDLERS
} gd_cf_handler;

enum {
    GD_CF_REQ = 1,       /* required by the schema                                  */
    GD_CF_IN = 2,        /* read, never written                                     */
    GD_CF_OUT = 4,       /* written by godeye only: not read, not in the schema     */
    GD_CF_ALWAYS = 8,    /* written even when absent                                */
    GD_CF_FAST = 16,     /* group: a kind the fast reader reads                     */
    GD_CF_INTERNAL = 32, /* group: a kind the capture reader counts as unknown      */
};

/* The groups, in table order: GD_CFG_EVENT, GD_CFG_LOOPER, ... */
typedef enum gd_cf_group_id {
#define GD_CF_GROUP(id, base, kind, name, flags, schema, desc) GD_CFG_##id,
#include "capture_format.def"
    GD_CFG__COUNT,
    GD_CFG_NONE = -1
} gd_cf_group_id;

typedef struct gd_cf_field {
    const char *key;
    unsigned char len;   /* strlen(key) */
    unsigned char handler;
    unsigned char flags;
    signed char sub;     /* gd_cf_group_id of an object field, else GD_CFG_NONE */
    size_t off;          /* offset of the member in the group's struct          */
    const char *schema;  /* JSON Schema members, ' for "                        */
    const char *desc;    /* or NULL                                             */
} gd_cf_field;

typedef struct gd_cf_group {
    const char *name;    /* $defs name, or NULL (inline; a kind: its name)      */
    int kind;            /* gd_event_kind, or -1                                */
    int flags;
    const char *schema;
    const char *desc;
} gd_cf_group;

typedef struct gd_cf_def {
    const char *name, *schema, *desc;
} gd_cf_def;

extern const gd_cf_field gd_cf_fields[];
extern const gd_cf_group gd_cf_groups[GD_CFG__COUNT];
/* The fields of group g: gd_cf_fields[gd_cf_group_first[g] .. gd_cf_group_first[g + 1]) */
extern const unsigned short gd_cf_group_first[GD_CFG__COUNT + 1];
extern const gd_cf_def gd_cf_defs[];
extern const size_t gd_cf_ndefs;

/* The group of event kind k (GD_CFG_NONE when none). */
gd_cf_group_id gd_cf_kind_group(gd_event_kind k);

/* The kind's reason for skipping an otherwise well-formed event (a cpu
 * sample without counters or ratios), or NULL. */
const char *gd_cf_check(const gd_event *ev);

/* Member of `base` at the field's offset. */
#define GD_CF_AT(base, f, type) ((type *)((char *)(base) + (f)->off))
#define GD_CF_CAT(base, f, type) ((const type *)((const char *)(base) + (f)->off))

#endif
