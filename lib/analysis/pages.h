/* pages.h - page load timeline of one page instance from its lifecycle callbacks.
 *
 * Pure function over a plain array (no SQL, no I/O).  Definition ("Page load
 * timeline"): docs/capture-format.md and godeye-capture(5), "Definitions".
 *
 *   start     = the first ON_CREATE (activity) or ON_ATTACH (fragment)
 *   draw_ms   = first ON_DRAW at or after the start − start
 *   load_ms   = first ON_LOAD at or after the start − start
 *
 * "First" is in time order; events are sorted by ts, stably (equal ts keep
 * their input order).  A value whose events are missing is absent (NAN,
 * test with gd_has()), never 0. */
#ifndef GD_ANALYSIS_PAGES_H
#define GD_ANALYSIS_PAGES_H

#include <stddef.h>

#include "core/error.h"
#include "core/event.h"

typedef enum gd_page_kind {
    GD_PAGE_UNKNOWN = 0,
    GD_PAGE_ACTIVITY,
    GD_PAGE_FRAGMENT
} gd_page_kind;

/* "activity" / "fragment" (case-insensitive) -> kind; GD_PAGE_UNKNOWN else. */
gd_page_kind gd_page_kind_parse(const char *type);

/* One lifecycle callback of the page instance. */
typedef struct gd_page_event {
    const char *event;   /* "ON_CREATE", ...; NULL allowed (never matches) */
    double ts;           /* epoch ms; NaN: the event is dropped (counted)   */
    double end_ts;       /* callback exit or NONE                           */
} gd_page_event;

/* One event of the timeline, in time order. */
typedef struct gd_page_step {
    const char *event;   /* borrowed from the input                         */
    double ts, end_ts;
    double callback_ms;  /* end_ts − ts, NONE without end_ts                */
    double to_next_ms;   /* next step's ts − ts, NONE for the last step     */
    size_t index;        /* position in the input array                     */
} gd_page_step;

typedef struct gd_page_timeline {
    gd_page_kind kind;   /* as given, or inferred when GD_PAGE_UNKNOWN       */
    const char *start_event; /* "ON_CREATE" or "ON_ATTACH" (static)          */
    double start_ts;     /* NONE when the start event is missing            */
    double draw_ms;      /* NONE when the start or ON_DRAW is missing        */
    double load_ms;      /* NONE when the start or ON_LOAD is missing        */
    gd_page_step *steps; /* owned: gd_page_timeline_free                    */
    size_t nsteps;
    size_t dropped;      /* input events without a ts                       */
} gd_page_timeline;

/* Builds the timeline of one page instance from its `n` lifecycle events in
 * any order.  `kind` GD_PAGE_UNKNOWN is inferred: FRAGMENT when any
 * fragment-only event (ON_ATTACH, ON_VIEW_CREATE, ON_SHOW, ON_HIDE,
 * ON_VIEW_DESTROY, ON_DETACH) is present, else ACTIVITY.  Returns GD_OK and
 * fills *out (which needs no initialisation); on failure (GD_ERR_IO "out of
 * memory"; GD_ERR_USAGE for evs == NULL with n > 0 or out == NULL) fills err
 * and leaves *out empty (safe to gd_page_timeline_free). */
int gd_pages_timeline(const gd_page_event *evs, size_t n, gd_page_kind kind,
                      gd_page_timeline *out, gd_error *err);

/* Releases the steps and empties *t.  Safe on NULL and twice. */
void gd_page_timeline_free(gd_page_timeline *t);

#endif
