/* anr_thread.c - one thread of an ANR dump: header, frames, lock lines, its stack. */
#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"
#include "core/util.h"
#include "reader/anr_int.h"

/* ---- frames of the current thread ---- */

/* The innermost binder frame tells an outgoing call in progress (the thread
 * waits for another process) from an incoming call being served or an idle
 * binder thread.  Java and native (mangled or not) spellings. */
static void classify_binder(anr_thr *t, const char *f)
{
    static const char *const out[] = {"android.os.BinderProxy.transact", "IPCThreadState8transact",
                                      "IPCThreadState15waitForResponse", "IPCThreadState::transact",
                                      "IPCThreadState::waitForResponse"};
    static const char *const in[] = {"android.os.Binder.execTransact", "IPCThreadState14executeCommand",
                                     "IPCThreadState::executeCommand", "IPCThreadState14joinThreadPool",
                                     "IPCThreadState::joinThreadPool",
                                     "IPCThreadState20getAndExecuteCommand",
                                     "IPCThreadState::getAndExecuteCommand"};
    /* every pattern holds one of these two: most frames end here */
    if (!strstr(f, "IPCThreadState") && !strstr(f, "android.os.Binder"))
        return;
    for (size_t i = 0; i < sizeof out / sizeof *out; i++)
        if (strstr(f, out[i])) {
            t->binder_seen = 1;
            anr_copy_str(t->call, sizeof t->call, f, strlen(f));
            return;
        }
    for (size_t i = 0; i < sizeof in / sizeof *in; i++)
        if (strstr(f, in[i])) {
            t->binder_seen = 1;
            return;
        }
}

/* Appends a frame made of up to three pieces; counted skip when over the
 * per-thread bounds.  0 or an error code. */
int anr_add_frame(anr_ctx *c, const char *a, size_t na, const char *b, size_t nb,
                  const char *z, size_t nz, long line)
{
    size_t len = na + nb + nz;
    if (c->nframes >= ANR_MAX_FRAMES || c->flen + len + 1 > ANR_MAX_FRAME_BYTES) {
        if (!c->frames_over)
            gd_sink_skip(c->sink, "anr: frames over the per-thread limit", line, 1);
        c->frames_over = 1;
        return 0;
    }
    if (gd_grow((void **)&c->fbuf, &c->fcap, c->flen + len + 1, 1, c->err) ||
        gd_grow((void **)&c->foff, &c->foff_cap, c->nframes + 1, sizeof(size_t), c->err))
        return GD_ERR_IO;
    c->foff[c->nframes++] = c->flen;
    memcpy(c->fbuf + c->flen, a, na);
    memcpy(c->fbuf + c->flen + na, b, nb);
    memcpy(c->fbuf + c->flen + na + nb, z, nz);
    c->flen += len;
    c->fbuf[c->flen++] = 0;
    if (!c->cur.binder_seen)
        classify_binder(&c->cur, c->fbuf + c->foff[c->nframes - 1]);
    return 0;
}

size_t anr_trim_right(const char *s, size_t n)
{
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    return n;
}

/* End of a balanced "(...)" group starting at s[0] == '(' (index of the
 * closing paren), or the last ')' of the line when unbalanced, or -1. */
static long group_end(const char *s)
{
    int depth = 0;
    long last = -1;
    for (long i = 0; s[i]; i++) {
        if (s[i] == '(')
            depth++;
        else if (s[i] == ')') {
            last = i;
            if (--depth == 0)
                return i;
        }
    }
    return last > 0 ? last : -1;
}

/* `#NN pc HEX  /path/lib.so [(deleted)] [(offset 0x..)] [(symbol+N)] [(BuildId: ..)]`
 * starting at the '#' -> "native:lib.so(symbol+N)" or "native:lib.so(pc HEX)". */
int anr_native_frame(anr_ctx *c, const char *s, long line)
{
    const char *p = s + 1;
    while (isdigit((unsigned char)*p))
        p++;
    while (*p == ' ')
        p++;
    if (!anr_starts(p, "pc ")) {
        gd_sink_skip(c->sink, "anr: frame unparsable", line, 1);
        return 0;
    }
    p += 3;
    const char *pc = p;
    while (isxdigit((unsigned char)*p))
        p++;
    size_t npc = (size_t)(p - pc);
    while (*p == ' ')
        p++;
    const char *path = p;
    while (*p && !(p[0] == ' ' && p[1] == '('))
        p++;
    size_t npath = anr_trim_right(path, (size_t)(p - path));
    const char *base = path;
    for (size_t i = 0; i < npath; i++)
        if (path[i] == '/')
            base = path + i + 1;
    size_t nbase = npath - (size_t)(base - path);
    /* an anonymous mapping, `[anon:dalvik-classes16.dex extracted in memory
     * from /data/app/.../base.apk!classes16.dex]`: the file after the last
     * '/', without the closing bracket (`[vdso]` keeps its brackets) */
    if (npath > 1 && path[0] == '[' && base != path && nbase > 1 && base[nbase - 1] == ']')
        nbase--;
    const char *sym = NULL;
    size_t nsym = 0;
    while (*p == ' ' && p[1] == '(') {
        p++;
        long e = group_end(p);
        if (e < 0)
            break;
        const char *in = p + 1;
        size_t nin = (size_t)e - 1;
        if (!sym && !anr_starts(in, "offset ") && !anr_starts(in, "BuildId:") &&
            !(nin == 7 && anr_starts(in, "deleted"))) {
            sym = in;
            nsym = nin;
        }
        p += e + 1;
    }
    char head[300];
    size_t nh = (size_t)snprintf(head, sizeof head, "native:%.*s(", (int)(nbase > 256 ? 256 : nbase),
                                 base);
    if (nh >= sizeof head)
        nh = sizeof head - 1;
    if (sym)
        return anr_add_frame(c, head, nh, sym, nsym, ")", 1, line);
    char pcs[64];
    int np = snprintf(pcs, sizeof pcs, "pc %.*s)", (int)(npc > 40 ? 40 : npc), pc);
    return anr_add_frame(c, head, nh, pcs, (size_t)np, "", 0, line);
}

/* "- waiting to lock <0x..> (a C) held by thread N" (ART), "held by tid=N
 * (name)" (Dalvik 4.x), "held by threadid=N (name)" (Dalvik 2.x). */
void anr_lock_line(anr_ctx *c, const char *s)
{
    if (anr_starts(s, "- waiting on <") && !c->cur.wait_obj[0]) {
        /* Object.wait(): the monitor a frame further out "locked" is
         * released while waiting -- not held */
        const char *a = s + strlen("- waiting on <"), *e = strchr(a, '>');
        if (e && e > a)
            gd_anr_copy_text(c, c->cur.wait_obj, sizeof c->cur.wait_obj, a, (size_t)(e - a));
        return;
    }
    if (anr_starts(s, "- locked <")) {
        const char *a = s + strlen("- locked <"), *e = strchr(a, '>');
        if (!e || e == a)
            return;
        for (int i = 0; i < c->cur.nlocked; i++)
            if (strlen(c->cur.locked[i]) == (size_t)(e - a) && memcmp(c->cur.locked[i], a, (size_t)(e - a)) == 0)
                return;  /* a lock taken again further out (recursive) */
        if (c->cur.nlocked == ANR_MAX_LOCKED) {
            c->cur.locked_over = 1;
            return;
        }
        gd_anr_copy_text(c, c->cur.locked[c->cur.nlocked++], sizeof c->cur.locked[0], a, (size_t)(e - a));
        return;
    }
    if (!anr_starts(s, "- waiting to lock <") || c->cur.waiting_on[0])
        return;
    const char *a = s + strlen("- waiting to lock <");
    const char *e = strchr(a, '>');
    if (!e)
        return;
    gd_anr_copy_text(c, c->cur.waiting_on, sizeof c->cur.waiting_on, a, (size_t)(e - a));
    const char *cl = strstr(e, "(a ");
    if (cl) {
        const char *ce = strchr(cl, ')');
        if (ce)
            gd_anr_copy_text(c, c->cur.lock, sizeof c->cur.lock, cl + 3, (size_t)(ce - cl - 3));
    }
    const char *h = strstr(e, "held by thread ");
    if (h)
        c->cur.held_by = anr_parse_uint(h + strlen("held by thread "), NULL);
    else if ((h = strstr(e, "held by tid=")))
        c->cur.held_by = anr_parse_uint(h + strlen("held by tid="), NULL);
    else if ((h = strstr(e, "held by threadid=")))
        c->cur.held_by = anr_parse_uint(h + strlen("held by threadid="), NULL);
}

/* ---- threads ---- */

static void reset_thread(anr_ctx *c)
{
    memset(&c->cur, 0, sizeof c->cur);
    c->cur.tid = c->cur.dtid = c->cur.held_by = -1;
    c->nframes = c->flen = 0;
    c->frames_over = 0;
}

/* The closing quote of a thread header's name: the last '"' followed by
 * " prio=", " daemon" or " sysTid="; NULL when s is no thread header. */
const char *anr_header_quote(const char *s)
{
    const char *q = NULL;
    if (s[0] != '"')
        return NULL;
    for (const char *p = s + 1; (p = strchr(p, '"')); p++)
        if (anr_starts(p, "\" prio=") || anr_starts(p, "\" daemon") || anr_starts(p, "\" sysTid="))
            q = p;
    return q;
}

/* `"name" [daemon] prio=N tid=N State[ ...]`, `"name" prio=N (not attached)`
 * or `"name" sysTid=N` (native process).  0 ok, -1 not a header. */
int anr_thread_header(anr_ctx *c, const char *s, long line)
{
    const char *q = anr_header_quote(s);
    if (!q)
        return -1;
    reset_thread(c);
    c->in_thread = 1;
    c->thr_line = line;
    gd_anr_copy_text(c, c->cur.name, sizeof c->cur.name, s + 1, (size_t)(q - s - 1));
    const char *p = q + 1;
    const char *t = strstr(p, " tid=");
    if (t) {
        const char *e;
        c->cur.dtid = anr_parse_uint(t + 5, &e);
        if (c->cur.dtid >= 0 && *e == ' ') {
            e++;
            size_t n = 0;
            while (e[n] && e[n] != ' ')
                n++;
            if (n) {
                gd_anr_copy_text(c, c->cur.state, sizeof c->cur.state, e, n);
                c->cur.has_state = 1;
            }
        }
    }
    const char *st = strstr(p, " sysTid=");
    if (st)
        c->cur.tid = anr_parse_uint(st + 8, NULL);
    return 0;
}

/* An event of kind k about thread t of the current dump, at the dump's time. */
void anr_event_init(const anr_ctx *c, gd_event *ev, gd_event_kind k, const anr_thr *t, long line)
{
    gd_event_init(ev, k);
    ev->ts = c->ts;
    ev->pid = c->pid;
    ev->tid = t->tid;
    ev->thread = t->name;
    ev->line = line;
}

/* One GD_EV_STACK of thread t with the given frames. */
static int emit_frames(anr_ctx *c, const anr_thr *t, long line, const char *const *frames, size_t n)
{
    gd_event ev;
    anr_event_init(c, &ev, GD_EV_STACK, t, line);
    ev.u.stack.frames = frames;
    ev.u.stack.nframes = n;
    ev.u.stack.state = t->has_state ? t->state : NULL;
    return gd_sink_event(c->sink, &ev, c->err);
}

/* Copies the current thread's frames into the held buffer (a dump without
 * header).  0 held, -1 over the limit, or an error code. */
static int hold_frames(anr_ctx *c)
{
    if (c->held_len + c->flen > ANR_MAX_HELD_BYTES)
        return -1;
    if (gd_grow((void **)&c->held, &c->held_cap, c->held_len + c->flen + 1, 1, c->err))
        return GD_ERR_IO;
    c->cur.hoff = c->held_len;
    c->cur.hlen = c->flen;
    c->cur.hn = c->nframes;
    c->cur.line = c->thr_line;
    if (c->flen)
        memcpy(c->held + c->held_len, c->fbuf, c->flen);
    c->held_len += c->flen;
    return 0;
}

/* Ends the thread being read: emits its stack (or, in a dump without
 * header, holds its frames), keeps its record. */
int anr_end_thread(anr_ctx *c)
{
    if (!c->in_thread)
        return 0;
    c->in_thread = 0;
    anr_thr *t = &c->cur;
    t->line = c->thr_line;
    if (t->tid < 0)
        t->tid = t->dtid;
    if (t->tid < 0) {
        gd_sink_skip(c->sink, "anr: thread without tid", c->thr_line, 1);
        return 0;
    }
    int rc = 0;
    if (c->headless) {
        if (c->nthr >= ANR_MAX_THREADS || (rc = hold_frames(c)) < 0) {
            gd_sink_skip(c->sink, "anr: thread of a dump without header over the buffer limit",
                         c->thr_line, 1);
            return 0;
        }
    } else {
        if (gd_grow((void **)&c->fptr, &c->fptr_cap, c->nframes ? c->nframes : 1, sizeof(char *),
                    c->err))
            return GD_ERR_IO;
        for (size_t i = 0; i < c->nframes; i++)
            c->fptr[i] = c->fbuf + c->foff[i];
        rc = emit_frames(c, t, c->thr_line, c->fptr, c->nframes);
    }
    if (rc)
        return rc;
    if (c->nthr >= ANR_MAX_THREADS) {
        if (!c->thr_over)
            gd_sink_skip(c->sink, "anr: too many threads for the deadlock check", c->thr_line, 1);
        c->thr_over = 1;
        return 0;
    }
    if (gd_grow((void **)&c->thr, &c->thr_cap, c->nthr + 1, sizeof(anr_thr), c->err))
        return GD_ERR_IO;
    if (c->main_idx < 0 && strcmp(c->cur.name, "main") == 0) {
        c->main_idx = (int64_t)c->nthr;
        c->main_tid = c->cur.tid;
    }
    c->thr[c->nthr++] = c->cur;
    return 0;
}

/* The held threads of a dump without header, now that its pid is known. */
int anr_emit_held(anr_ctx *c)
{
    int rc = 0;
    for (size_t i = 0; i < c->nthr && !rc; i++) {
        const anr_thr *t = &c->thr[i];
        if (gd_grow((void **)&c->fptr, &c->fptr_cap, t->hn ? t->hn : 1, sizeof(char *), c->err))
            return GD_ERR_IO;
        const char *p = c->held + t->hoff;
        for (size_t k = 0; k < t->hn; k++) {
            c->fptr[k] = p;
            p += strlen(p) + 1;
        }
        rc = emit_frames(c, t, t->line, c->fptr, t->hn);
    }
    return rc;
}
