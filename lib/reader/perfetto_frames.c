/* perfetto_frames.c - the perfetto reader's FrameTimeline: surface frames
 * paired by cookie, deduplicated by token, checked against their expected
 * timeline.
 *
 * FrameTimelineEvent (field 76 of TracePacket): expected_display_frame_start
 * 1 (cookie 1, token 2, pid 3), actual_display_frame_start 2 (cookie 1,
 * token 2, pid 3, present_type 4, jank_type 7), expected_surface_frame_start
 * 3 (cookie 1, token 2, pid 4), actual_surface_frame_start 4 (cookie 1,
 * token 2, pid 4, layer_name 5, present_type 6, jank_type 9), frame_end 5
 * (cookie 1).
 *
 * Each actual display frame (SurfaceFlinger's own, on its pid), at its
 * frame_end, becomes a GD_EV_FRAME of source "displayframe" (no window,
 * token: the display frame's; jank and present as given; its jank tag is
 * the display frame's, analysis/frametimeline.h), as Perfetto's
 * actual_frame_timeline_slice lists it; no issue (the compositor's frames
 * are not the app's), no deduplication by token (Perfetto has none for
 * display frames).  An actual frame started again under the cookie of one
 * still open replaces it (counted: "perfetto: frame timeline: frame
 * started again under its cookie before it ended (the earlier one not
 * kept)"; Perfetto keeps that one as a slice of dur -1).
 *
 * Each actual surface frame, at its frame_end, becomes a GD_EV_FRAME (ts =
 * its start, dur = end - start, window = its layer, source
 * "frametimeline", jank, present, token); a janky one
 * (analysis/frametimeline.h) also becomes a GD_EV_ISSUE tool "android",
 * type "frame_jank".  Perfetto keys a surface frame by (process, token):
 * a second actual frame of the same pid, layer and token is not a new frame
 * (counted: "ignored: perfetto: frame timeline: duplicate surface frame
 * token", or "perfetto: frame timeline: duplicate surface frame token with
 * conflicting jank" when its jank_type differs; the first one stays).  An
 * actual frame whose (pid, token) no expected surface frame had is kept and
 * counted ("ignored: perfetto: frame timeline: surface frame without its
 * expected timeline (kept)").  A surface frame with no frame_end before the trace stopped
 * is not a frame (counted: "perfetto: frame timeline: surface frame not
 * ended when the trace stopped"; Perfetto keeps it as a slice of dur -1).
 *
 * Memory: PF_MAX_FRAMES open frames; the tokens seen are kept in two
 * generations of FT_GEN entries (the older one is dropped when the newer
 * fills): a duplicate or an expected timeline further back than that is
 * not matched. */
#include "perfetto_int.h"

#include "analysis/frametimeline.h"
#include "core/row.h"

#define FT_GEN 8192
#define FT_SLOTS (FT_GEN * 2) /* load <= 1/2 */

typedef struct pframe {
    int64_t cookie;
    int used, display; /* display: SurfaceFlinger's display frame (else a surface frame) */
    double ts;
    int64_t pid, token;
    int64_t jank, present;
    char layer[ATRACE_MAX_NAME]; /* cut at a character boundary, counted (gd_sink_cut) */
} pframe;

typedef struct ftent {
    int64_t pid, token, jank;
    uint64_t lh;         /* the layer name's hash; 0 for expected frames */
    int used;
} ftent;

/* (pid, token, layer) keys in two generations: gen[0] fills, gen[1] is older */
typedef struct ftset {
    ftent *gen[2];
    size_t n;
} ftset;

struct pf_ft {
    pframe frames[PF_MAX_FRAMES];
    ftset expected, done;
};

static uint64_t key_hash(int64_t pid, int64_t token, uint64_t lh)
{
    uint64_t h = (uint64_t)pid * 0x9E3779B97F4A7C15ull ^ (uint64_t)token * 0xC2B2AE3D27D4EB4Full ^ lh;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    return h ^ (h >> 32);
}

static ftent *gen_find(ftent *t, int64_t pid, int64_t token, uint64_t lh, int create)
{
    if (!t)
        return NULL;
    size_t h = (size_t)(key_hash(pid, token, lh) % FT_SLOTS);
    for (size_t k = 0; k < FT_SLOTS; k++) {
        ftent *e = &t[(h + k) % FT_SLOTS];
        if (e->used && e->pid == pid && e->token == token && e->lh == lh)
            return e;
        if (!e->used)
            return create ? e : NULL;
    }
    return NULL;
}

static ftent *set_get(ftset *s, int64_t pid, int64_t token, uint64_t lh)
{
    ftent *e = gen_find(s->gen[0], pid, token, lh, 0);
    return e ? e : gen_find(s->gen[1], pid, token, lh, 0);
}

/* Adds a key (known absent); 0, or -1 out of memory. */
static int set_put(ftset *s, int64_t pid, int64_t token, uint64_t lh, int64_t jank)
{
    if (!s->gen[0] || s->n >= FT_GEN) {
        ftent *fresh = calloc(FT_SLOTS, sizeof *fresh);
        if (!fresh)
            return -1;
        if (s->gen[0]) {
            free(s->gen[1]);
            s->gen[1] = s->gen[0];
        }
        s->gen[0] = fresh;
        s->n = 0;
    }
    ftent *e = gen_find(s->gen[0], pid, token, lh, 1);
    e->used = 1;
    e->pid = pid, e->token = token, e->lh = lh, e->jank = jank;
    s->n++;
    return 0;
}

void gd_pf_ft_finish(pctx *c)
{
    if (!c->ft)
        return;
    for (size_t i = 0; i < PF_MAX_FRAMES; i++)
        if (c->ft->frames[i].used)
            gd_sink_skip(c->sink,
                         c->ft->frames[i].display ? GD_SKIP(PERFETTO_FRAME_TIMELINE_DISPLAY_FRAME_NOT)
                                                  : GD_SKIP(PERFETTO_FRAME_TIMELINE_SURFACE_FRAME_NOT),
                         c->pkno, 0);
}

void gd_pf_ft_free(pctx *c)
{
    if (!c->ft)
        return;
    for (int g = 0; g < 2; g++) {
        free(c->ft->expected.gen[g]);
        free(c->ft->done.gen[g]);
    }
    free(c->ft);
    c->ft = NULL;
}

static pframe *frame_slot(struct pf_ft *ft, int64_t cookie, int create)
{
    size_t h = (size_t)((uint64_t)cookie * 0x9E3779B97F4A7C15ull >> 40) % PF_MAX_FRAMES;
    for (size_t k = 0; k < PF_MAX_FRAMES; k++) {
        pframe *f = &ft->frames[(h + k) % PF_MAX_FRAMES];
        if (f->used && f->cookie == cookie)
            return f;
        if (!f->used)
            return create ? f : NULL;
    }
    return NULL;
}

/* Frees the slot of p, re-inserting its followers (linear probing). */
static void frame_drop(struct pf_ft *ft, pframe *p)
{
    p->used = 0;
    size_t i = (size_t)(p - ft->frames);
    for (size_t k = 1; k < PF_MAX_FRAMES; k++) {
        pframe *n = &ft->frames[(i + k) % PF_MAX_FRAMES];
        if (!n->used)
            break;
        pframe tmp = *n;
        n->used = 0;
        *frame_slot(ft, tmp.cookie, 1) = tmp;
    }
}

static uint64_t layer_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a, never 0 in practice; 0 is "expected" */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h | 1;
}

/* The frame_jank issue of a janky frame. */
static int jank_issue(pctx *c, const pframe *f, double end)
{
    json_t *o = json_object(), *types = json_array();
    uint64_t u = (uint64_t)f->jank;
    for (int b = 1; b < GD_FT_NBITS; b++)
        if (u & ((uint64_t)1 << b))
            json_array_append_new(types, json_string(gd_ft_jank_bit_name(b)));
    if (u >> GD_FT_NBITS)
        json_array_append_new(types, json_string("other"));
    json_object_set_new(o, "layer", gd_json_text(f->layer, strlen(f->layer)));
    json_object_set_new(o, "token", json_integer(f->token));
    json_object_set_new(o, "jank_type", json_integer(f->jank));
    json_object_set_new(o, "jank", types);
    json_object_set_new(o, "jank_tag", json_string(gd_ft_tag_name(gd_ft_tag_of(f->jank, f->present))));
    json_object_set_new(o, "present_type", json_integer(f->present));
    json_object_set_new(o, "dur_ms", json_real(end - f->ts));
    char *js = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(o);
    if (!js)
        return gd_error_oom_at(c->err, c->pkno, 0);
    gd_event ev;
    gd_event_init(&ev, GD_EV_ISSUE);
    ev.ts = f->ts;
    ev.pid = f->pid >= 0 ? f->pid : GD_PID_APP;
    ev.line = c->pkno;
    ev.u.issue.tool = "android";
    ev.u.issue.type = "frame_jank";
    ev.u.issue.detail = f->layer[0] ? f->layer : NULL;
    ev.u.issue.cost_ms = end - f->ts;
    ev.u.issue.json = js;
    int rc = gd_sink_event(c->sink, &ev, c->err);
    c->issues++;
    free(js);
    return rc;
}

/* The GD_EV_FRAME of frame f, ended at `end`. */
static int frame_emit(pctx *c, const pframe *f, double end)
{
    gd_event ev;
    gd_event_init(&ev, GD_EV_FRAME);
    ev.ts = f->ts;
    ev.pid = f->pid;
    ev.line = c->pkno;
    ev.u.frame.dur = end - f->ts;
    ev.u.frame.window = f->layer[0] ? f->layer : NULL;
    ev.u.frame.source = f->display ? "displayframe" : "frametimeline";
    ev.u.frame.jank = f->jank;
    ev.u.frame.present = f->present;
    ev.u.frame.token = f->token;
    c->ft_frames++;
    return gd_sink_event(c->sink, &ev, c->err);
}

/* A frame ended at `end`: checked, deduplicated (surface frames), emitted. */
static int frame_done(pctx *c, const pframe *f, double end)
{
    struct pf_ft *ft = c->ft;
    if (end < f->ts) {
        gd_pf_bad(c, f->display ? GD_SKIP(FRAME_TIMELINE_DISPLAY_FRAME_ENDS_BEFORE_IT)
                                : GD_SKIP(FRAME_TIMELINE_SURFACE_FRAME_ENDS_BEFORE_IT));
        return 0;
    }
    if (f->display)
        return frame_emit(c, f, end);
    uint64_t lh = layer_hash(f->layer);
    ftent *dup = set_get(&ft->done, f->pid, f->token, lh);
    if (dup) {
        if (dup->jank == f->jank)
            gd_sink_skip(c->sink, GD_SKIP(IGNORED_PERFETTO_FRAME_TIMELINE_DUPLICATE),
                         c->pkno, 0);
        else
            gd_pf_bad(c, GD_SKIP(FRAME_TIMELINE_DUPLICATE_SURFACE_FRAME_TOKEN));
        return 0;
    }
    if (set_put(&ft->done, f->pid, f->token, lh, f->jank))
        return gd_error_oom_at(c->err, c->pkno, 0);
    if (!set_get(&ft->expected, f->pid, f->token, 0))
        gd_sink_skip(c->sink, GD_SKIP(IGNORED_PERFETTO_FRAME_TIMELINE_SURFACE),
                     c->pkno, 0);
    int rc = frame_emit(c, f, end);
    if (!rc && gd_ft_is_janky(f->jank))
        rc = jank_issue(c, f, end);
    return rc;
}

/* One FrameTimelineEvent message's fields (its kind: the event's field number). */
typedef struct ftmsg {
    int64_t cookie, pid, token, jank, present;
    int has_cookie;
    const uint8_t *layer;
    size_t llen;
} ftmsg;

/* The field numbers of each kind's token, pid, layer, present type and jank
 * type (0: the kind has none); kinds 1..5 (frame_end: its cookie only). */
static const struct {
    int token, pid, layer, present, jank;
} FT_FIELDS[6] = {
    [1] = {2, 3, 0, 0, 0}, /* expected display frame */
    [2] = {2, 3, 0, 4, 7}, /* actual display frame */
    [3] = {2, 4, 5, 0, 0}, /* expected surface frame */
    [4] = {2, 4, 5, 6, 9}, /* actual surface frame */
};

/* Decodes message e of kind `kind` into m: 0, or -1 malformed. */
static int ft_decode(pb_cur e, int kind, ftmsg *m)
{
    pb_field g;
    int q;
    *m = (ftmsg){0, -1, -1, 0, -1, 0, NULL, 0};
    while ((q = pb_next(&e, &g)) == 1) {
        int n = (int)g.num;
        if (n == 1 && g.wt == PB_VARINT)
            m->cookie = (int64_t)g.v, m->has_cookie = 1;
        else if (g.wt == PB_LEN && n == FT_FIELDS[kind].layer)
            m->layer = g.data, m->llen = g.len;
        else if (g.wt != PB_VARINT || n == 1)
            continue;
        else if (n == FT_FIELDS[kind].token)
            m->token = (int64_t)g.v;
        else if (n == FT_FIELDS[kind].pid)
            m->pid = (int64_t)(int32_t)g.v;
        else if (n == FT_FIELDS[kind].present)
            m->present = (int64_t)(uint32_t)g.v;
        else if (n == FT_FIELDS[kind].jank)
            m->jank = (int64_t)(uint32_t)g.v;
    }
    return q < 0 ? -1 : 0;
}

/* An actual frame's start (kind 2 display, 4 surface) opens its slot. */
static void ft_start(pctx *c, int kind, const ftmsg *m, double ts)
{
    pframe *p = frame_slot(c->ft, m->cookie, 1);
    if (!p) {
        gd_pf_bad(c, GD_SKIP(TOO_MANY_OPEN_TIMELINE_FRAMES));
        return;
    }
    if (p->used)
        gd_sink_skip(c->sink, GD_SKIP(PERFETTO_FRAME_TIMELINE_FRAME_STARTED_AGAIN), c->pkno, 0);
    size_t llen = m->llen;
    if (m->layer)
        llen = gd_sink_cut(c->sink, (const char *)m->layer, llen, sizeof p->layer - 1, c->pkno);
    *p = (pframe){m->cookie, 1, kind == 2, ts, m->pid, m->token, m->jank, m->present, ""};
    memcpy(p->layer, m->layer ? (const char *)m->layer : "", m->layer ? llen : 0);
    p->layer[m->layer ? llen : 0] = 0;
}

/* One FrameTimelineEvent of kind `kind` at ts (ms): 0, or an error code. */
static int ft_event(pctx *c, int kind, const ftmsg *m, double ts)
{
    if (kind != 5 && (m->token < 0 || m->pid < 0)) {
        gd_pf_bad(c, kind <= 2 ? GD_SKIP(FRAME_TIMELINE_DISPLAY_FRAME_WITHOUT_TOKEN)
                               : GD_SKIP(FRAME_TIMELINE_SURFACE_FRAME_WITHOUT_TOKEN));
        return 0;
    }
    if (kind == 1) /* SurfaceFlinger's expected timeline: nothing to check against */
        return 0;
    if (kind == 3) {
        if (!set_get(&c->ft->expected, m->pid, m->token, 0) && set_put(&c->ft->expected, m->pid, m->token, 0, 0))
            return gd_error_oom_at(c->err, c->pkno, 0);
        return 0;
    }
    if (kind != 5) {
        ft_start(c, kind, m, ts);
        return 0;
    }
    pframe *p = frame_slot(c->ft, m->cookie, 0);
    if (!p) {
        gd_sink_skip(c->sink, GD_SKIP(IGNORED_PERFETTO_FRAME_END_OF_NO_APP_SURFACE), c->pkno, 0);
        return 0;
    }
    pframe done = *p;
    frame_drop(c->ft, p);
    return frame_done(c, &done, ts);
}

int gd_pf_read_frame_timeline(pctx *c, pb_cur m, int has_ts, uint64_t ts_ns)
{
    pb_field f;
    int r;
    if (!c->ft && !(c->ft = calloc(1, sizeof *c->ft)))
        return gd_error_oom_at(c->err, c->pkno, 0);
    while ((r = pb_next(&m, &f)) == 1) {
        if (f.wt != PB_LEN)
            continue;
        if (f.num < 1 || f.num > 5) {
            gd_sink_skip(c->sink, GD_SKIP(IGNORED_PERFETTO_FRAME_TIMELINE_EVENT_NOT), c->pkno, 0);
            continue;
        }
        ftmsg e;
        if (ft_decode(pb_sub(&f), (int)f.num, &e) < 0 || !has_ts || !e.has_cookie) {
            gd_pf_bad(c, GD_SKIP(MALFORMED_FRAME_TIMELINE_EVENT));
            continue;
        }
        int rc = ft_event(c, (int)f.num, &e, (double)ts_ns / 1e6);
        if (rc)
            return rc;
    }
    if (r < 0)
        gd_pf_bad(c, GD_SKIP(MALFORMED_FRAME_TIMELINE_EVENT));
    return 0;
}
