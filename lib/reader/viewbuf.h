/* viewbuf.h - a growing buffer of gd_view records with their strings, for
 * readers that must collect a whole view tree before emitting it (a view
 * dump is one event).  Bounded: at most `max_views` views and
 * GD_VIEWBUF_MAX_TEXT bytes of strings per dump. */
#ifndef GD_READER_VIEWBUF_H
#define GD_READER_VIEWBUF_H

#include <stddef.h>

#include "core/event.h"

#define GD_VIEWBUF_MAX_VIEWS ((size_t)200000)
#define GD_VIEWBUF_MAX_TEXT ((size_t)256 << 20)

typedef struct gd_viewbuf {
    gd_view *views;
    size_t n, cap;
    size_t *soff;        /* 3 per view: cls, res_id, text; (size_t)-1 = NULL */
    char *arena;
    size_t alen, acap;
    size_t max_views;
} gd_viewbuf;

void gd_viewbuf_init(gd_viewbuf *b, size_t max_views);
/* Empties the buffer, keeping its memory for the next dump. */
void gd_viewbuf_reset(gd_viewbuf *b);
void gd_viewbuf_free(gd_viewbuf *b);

/* Appends a view: id, parent, rect, layers, visible are taken from `v`; the
 * strings (NULL = absent; lengths in bytes) are copied.  Returns the index of
 * the new view, or -1 with err set (GD_ERR_DATA over the view or text cap,
 * GD_ERR_IO out of memory).  String pointers of buffered views are not valid
 * until gd_viewbuf_finish(). */
long gd_viewbuf_add(gd_viewbuf *b, const gd_view *v, const char *cls, size_t cls_len,
                    const char *res, size_t res_len, const char *text, size_t text_len,
                    long line, gd_error *err);

/* Points every view's strings into the buffer; the array stays valid until
 * the next add/reset/free. */
const gd_view *gd_viewbuf_finish(gd_viewbuf *b);

#endif
