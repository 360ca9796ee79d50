/* viewbuf.c - bounded buffer of views and their strings for one view dump. */
#include "viewbuf.h"

#include <stdlib.h>
#include <string.h>

#define NO_STR ((size_t)-1)

void gd_viewbuf_init(gd_viewbuf *b, size_t max_views)
{
    memset(b, 0, sizeof *b);
    b->max_views = max_views ? max_views : GD_VIEWBUF_MAX_VIEWS;
}

void gd_viewbuf_reset(gd_viewbuf *b)
{
    b->n = 0;
    b->alen = 0;
}

void gd_viewbuf_free(gd_viewbuf *b)
{
    free(b->views);
    free(b->soff);
    free(b->arena);
    gd_viewbuf_init(b, b->max_views);
}

static size_t put_str(gd_viewbuf *b, const char *s, size_t len, long line, gd_error *err, int *fail)
{
    if (!s)
        return NO_STR;
    if (b->alen + len + 1 > GD_VIEWBUF_MAX_TEXT) {
        *fail = gd_error_set(err, GD_ERR_DATA, line, 0,
                             "view dump too large (over %zu bytes of names and texts)",
                             (size_t)GD_VIEWBUF_MAX_TEXT);
        return NO_STR;
    }
    if (b->alen + len + 1 > b->acap) {
        size_t nc = b->acap ? b->acap : 4096;
        while (nc < b->alen + len + 1)
            nc *= 2;
        char *p = realloc(b->arena, nc);
        if (!p) {
            *fail = gd_error_oom_at(err, line, 0);
            return NO_STR;
        }
        b->arena = p;
        b->acap = nc;
    }
    size_t off = b->alen;
    memcpy(b->arena + off, s, len);
    b->arena[off + len] = 0;
    b->alen += len + 1;
    return off;
}

long gd_viewbuf_add(gd_viewbuf *b, const gd_view *v, const char *cls, size_t cls_len,
                    const char *res, size_t res_len, const char *text, size_t text_len,
                    long line, gd_error *err)
{
    if (b->n >= b->max_views) {
        gd_error_set(err, GD_ERR_DATA, line, 0, "view dump has more than %zu views", b->max_views);
        return -1;
    }
    if (b->n == b->cap) {
        size_t nc = b->cap ? b->cap * 2 : 64;
        gd_view *nv = realloc(b->views, nc * sizeof *nv);
        if (!nv) {
            gd_error_oom_at(err, line, 0);
            return -1;
        }
        b->views = nv;
        size_t *ns = realloc(b->soff, nc * 3 * sizeof *ns);
        if (!ns) {
            gd_error_oom_at(err, line, 0);
            return -1;
        }
        b->soff = ns;
        b->cap = nc;
    }
    int fail = 0;
    size_t *so = b->soff + b->n * 3;
    so[0] = put_str(b, cls, cls_len, line, err, &fail);
    so[1] = put_str(b, res, res_len, line, err, &fail);
    so[2] = put_str(b, text, text_len, line, err, &fail);
    if (fail)
        return -1;
    gd_view *d = &b->views[b->n];
    *d = *v;
    d->cls = d->res_id = d->text = NULL;
    return (long)b->n++;
}

const gd_view *gd_viewbuf_finish(gd_viewbuf *b)
{
    for (size_t i = 0; i < b->n; i++) {
        const size_t *so = b->soff + i * 3;
        b->views[i].cls = so[0] == NO_STR ? NULL : b->arena + so[0];
        b->views[i].res_id = so[1] == NO_STR ? NULL : b->arena + so[1];
        b->views[i].text = so[2] == NO_STR ? NULL : b->arena + so[2];
    }
    return b->views;
}
