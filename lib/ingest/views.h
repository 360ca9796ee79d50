/* ingest/views.h - pages, view dumps, images and frames into the store at ingest. */
#ifndef GD_INGEST_VIEWS_H
#define GD_INGEST_VIEWS_H

#include "store/sql.h"

/* Writing pages, view dumps (overdraw computed here), images and frames. */
typedef struct gd_views_writer gd_views_writer;
gd_views_writer *gd_views_writer_new(gd_store *s, gd_error *err);
void gd_views_writer_free(gd_views_writer *w);
/* Stores a lifecycle, view_dump, image or frame event of `trace`; malformed
 * parts are counted through `skip`.  GD_OK or an error code. */
int gd_views_put(gd_views_writer *w, int64_t trace, int64_t max_depth, const gd_event *ev,
                 void (*skip)(void *, const char *, long, long), void *skip_ctx, gd_error *err);

#endif
