/* mend.c - an event's or a capture's metadata texts made valid UTF-8 where
 * they enter (#53 item 1): the one place invalid bytes are replaced. */
#include "event.h"
#include "row.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* 1 when s is NULL or valid UTF-8 (ASCII first, the common case: eight
 * bytes at a time over its length, #50: the byte loop was 3 % of a JSONL
 * ingest). */
static int text_ok(const char *s)
{
    if (!s)
        return 1;
    size_t n = strlen(s), i = 0;
    for (uint64_t w; i + 8 <= n; i += 8) {
        memcpy(&w, s + i, 8);
        if (w & 0x8080808080808080u)
            break;
    }
    while (i < n && (unsigned char)s[i] < 0x80)
        i++;
    return i == n || gd_utf8_valid(s + i, n - i);
}

typedef int (*slot_fn)(const char **slot, gd_mend *m);

/* (a NULL text is valid: no call for it, #50) */
#define SLOT(x)                                                                                   \
    do {                                                                                          \
        if ((x) && (rc = fn((const char **)&(x), m)))                                             \
            return rc;                                                                            \
    } while (0)

static int page_texts(gd_page *p, slot_fn fn, gd_mend *m)
{
    int rc;
    SLOT(p->type);
    SLOT(p->cls);
    return 0;
}

/* fn over every text slot of e, its arrays' too (the slots of the arrays
 * are written only by the mending pass, which first copies them). */
static int each_text(gd_event *e, slot_fn fn, gd_mend *m)
{
    int rc;
    SLOT(e->thread);
    switch (e->kind) {
    case GD_EV_LOOPER:
        SLOT(e->u.looper.msg);
        break;
    case GD_EV_DISPATCH:
        SLOT(e->u.dispatch.msg);
        break;
    case GD_EV_STACK:
        SLOT(e->u.stack.state);
        SLOT(e->u.stack.source);
        for (size_t i = 0; i < e->u.stack.nframes; i++)
            SLOT(((const char **)e->u.stack.frames)[i]);
        break;
    case GD_EV_LIFECYCLE:
        if ((rc = page_texts(&e->u.lifecycle.page, fn, m)))
            return rc;
        SLOT(e->u.lifecycle.event);
        break;
    case GD_EV_VIEW_DUMP:
        if ((rc = page_texts(&e->u.view_dump.page, fn, m)))
            return rc;
        SLOT(e->u.view_dump.window);
        for (size_t i = 0; i < e->u.view_dump.nviews; i++) {
            gd_view *v = (gd_view *)&e->u.view_dump.views[i];
            SLOT(v->cls);
            SLOT(v->res_id);
            SLOT(v->text);
        }
        break;
    case GD_EV_IMAGE:
        if ((rc = page_texts(&e->u.image.page, fn, m)))
            return rc;
        SLOT(e->u.image.view_cls);
        SLOT(e->u.image.config);
        SLOT(e->u.image.source);
        break;
    case GD_EV_METHOD:
        SLOT(e->u.method.cls);
        SLOT(e->u.method.method);
        SLOT(e->u.method.desc);
        break;
    case GD_EV_FRAME:
        SLOT(e->u.frame.window);
        SLOT(e->u.frame.source);
        break;
    case GD_EV_MARK:
        SLOT(e->u.mark.name);
        break;
    case GD_EV_FRAME_SUMMARY:
        SLOT(e->u.frame_summary.window);
        for (size_t i = 0; i < e->u.frame_summary.n; i++) {
            SLOT(((const char **)e->u.frame_summary.keys)[i]);
            SLOT(((const char **)e->u.frame_summary.values)[i]);
        }
        break;
    case GD_EV_ISSUE:
        SLOT(e->u.issue.tool);
        SLOT(e->u.issue.type);
        SLOT(e->u.issue.detail);
        SLOT(e->u.issue.json);
        break;
    case GD_EV_STARTUP:
        SLOT(e->u.startup.app);
        SLOT(e->u.startup.activity);
        SLOT(e->u.startup.kind);
        SLOT(e->u.startup.source);
        break;
    case GD_EV_THREAD_STATE:
        SLOT(e->u.thread_state.state);
        SLOT(e->u.thread_state.blocked_function);
        break;
    case GD_EV_BINDER:
        SLOT(e->u.binder.reply_status);
        SLOT(e->u.binder.server_process);
        break;
    case GD_EV_LOG:
        SLOT(e->u.log.level);
        SLOT(e->u.log.tag);
        SLOT(e->u.log.msg);
        break;
    default:
        break;
    }
    return 0;
}

static int meta_texts(gd_meta *mt, slot_fn fn, gd_mend *m)
{
    int rc;
    SLOT(mt->app);
    SLOT(mt->version_name);
    SLOT(mt->device);
    SLOT(mt->session);
    SLOT(mt->json);
    SLOT(mt->clock);
    for (size_t i = 0; i < mt->nconcern && i < GD_MAX_CONCERN; i++)
        SLOT(mt->concern[i]);
    return 0;
}

static int find_bad(const char **slot, gd_mend *m)
{
    (void)m;
    return !text_ok(*slot);
}

/* Replaces *slot by its mended copy when it is not UTF-8: 0, or -1 when
 * out of memory. */
static int fix(const char **slot, gd_mend *m)
{
    if (text_ok(*slot))
        return 0;
    if (m->nowned == m->capowned) {
        size_t nc = m->capowned ? 2 * m->capowned : 16;
        char **o = realloc(m->owned, nc * sizeof *o);
        if (!o)
            return -1;
        m->owned = o;
        m->capowned = nc;
    }
    size_t n;
    char *t = gd_utf8_mend(*slot, strlen(*slot), &n);
    if (!t)
        return -1;
    m->owned[m->nowned++] = t;
    *slot = t;
    return 0;
}

static void drop_owned(gd_mend *m)
{
    for (size_t i = 0; i < m->nowned; i++)
        free(m->owned[i]);
    m->nowned = 0;
}

/* A copy of n pointers (the slots of an array the mending pass writes). */
static const char **copy_ptrs(gd_mend *m, size_t at, const char *const *src, size_t n)
{
    if (at + n > m->capptrs) {
        size_t nc = at + n < 64 ? 64 : 2 * (at + n);
        const char **p = realloc(m->ptrs, nc * sizeof *p);
        if (!p)
            return NULL;
        m->ptrs = p;
        m->capptrs = nc;
    }
    if (n)
        memcpy(m->ptrs + at, src, n * sizeof *src);
    return m->ptrs + at;
}

const gd_event *gd_event_mend(gd_mend *m, const gd_event *ev)
{
    gd_event *e = &m->ev;
    /* find_bad only reads: the event is copied only when a text needs mending (#50) */
    if (!each_text((gd_event *)ev, find_bad, m))
        return ev;
    *e = *ev;
    drop_owned(m);
    /* the arrays a pass writes are copies; their texts stay the reader's */
    if (e->kind == GD_EV_STACK && e->u.stack.nframes) {
        if (!copy_ptrs(m, 0, e->u.stack.frames, e->u.stack.nframes))
            return NULL;
        e->u.stack.frames = m->ptrs;
    } else if (e->kind == GD_EV_FRAME_SUMMARY && e->u.frame_summary.n) {
        size_t n = e->u.frame_summary.n;
        if (!copy_ptrs(m, 0, e->u.frame_summary.keys, n) || !copy_ptrs(m, n, e->u.frame_summary.values, n))
            return NULL;
        e->u.frame_summary.keys = m->ptrs;
        e->u.frame_summary.values = m->ptrs + n;
    } else if (e->kind == GD_EV_VIEW_DUMP && e->u.view_dump.nviews) {
        size_t n = e->u.view_dump.nviews;
        if (n > m->capviews) {
            gd_view *v = realloc(m->views, n * sizeof *v);
            if (!v)
                return NULL;
            m->views = v;
            m->capviews = n;
        }
        memcpy(m->views, e->u.view_dump.views, n * sizeof *m->views);
        e->u.view_dump.views = m->views;
    }
    return each_text(e, fix, m) ? NULL : e;
}

const gd_meta *gd_meta_mend(gd_mend *m, const gd_meta *meta)
{
    gd_meta *c = &m->meta;
    *c = *meta;
    if (!meta_texts(c, find_bad, m))
        return meta;
    drop_owned(m);
    return meta_texts(c, fix, m) ? NULL : c;
}

void gd_mend_free(gd_mend *m)
{
    drop_owned(m);
    free(m->owned);
    free(m->ptrs);
    free(m->views);
    memset(m, 0, sizeof *m);
}
