/* anr_locks.c - the end of an ANR dump: meta, main state, deadlocks, binder waits. */
#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"
#include "core/util.h"
#include "reader/anr_int.h"

/* ---- end of a dump: meta, main state, deadlocks ---- */

static int64_t find_dtid(const anr_ctx *c, int64_t dtid)
{
    if (dtid < 0)
        return -1;
    for (size_t i = 0; i < c->nthr; i++)
        if (c->thr[i].dtid == dtid)
            return (int64_t)i;
    return -1;
}

static int emit_issue(anr_ctx *c, const char *type, const char *detail, const anr_thr *who,
                      json_t *j)
{
    char *txt = j ? json_dumps(j, JSON_COMPACT) : NULL;
    json_decref(j);
    if (!txt)
        return gd_error_set(c->err, GD_ERR_NOMEM, 0, 0, "out of memory");
    gd_event ev;
    anr_event_init(c, &ev, GD_EV_ISSUE, who, c->dump_line);
    ev.u.issue.tool = "anr";
    ev.u.issue.type = type;
    ev.u.issue.detail = detail;
    ev.u.issue.json = txt;
    int rc = gd_sink_event(c->sink, &ev, c->err);
    free(txt);
    return rc;
}

static json_t *jstr(const char *s)
{
    json_t *j = json_string(s);
    return j ? j : json_string("\ufffd");
}

/* A thread waiting for a lock: {"name","tid","dalvik_tid","waiting_on"[,"lock"]}. */
static json_t *waiter_json(const anr_thr *t)
{
    json_t *o = json_object();
    json_object_set_new(o, "name", jstr(t->name));
    json_object_set_new(o, "tid", json_integer(t->tid));
    json_object_set_new(o, "dalvik_tid", json_integer(t->dtid));
    json_object_set_new(o, "waiting_on", jstr(t->waiting_on));
    if (t->lock[0])
        json_object_set_new(o, "lock", jstr(t->lock));
    return o;
}

/* ["0x..", ...] of the locks a thread holds, or NULL when none. */
static json_t *locks_json(const anr_thr *t)
{
    json_t *a = NULL;
    for (int i = 0; i < t->nlocked; i++) {
        if (strcmp(t->locked[i], t->wait_obj) == 0)
            continue;  /* released by Object.wait() */
        if (!a)
            a = json_array();
        json_array_append_new(a, jstr(t->locked[i]));
    }
    return a;
}

static int emit_main_state(anr_ctx *c)
{
    const anr_thr *m = &c->thr[c->main_idx];
    json_t *j = json_object();
    json_object_set_new(j, "name", jstr(m->name));
    json_object_set_new(j, "tid", json_integer(m->tid));
    if (m->has_state)
        json_object_set_new(j, "state", jstr(m->state));
    json_t *held = locks_json(m);
    if (held)
        json_object_set_new(j, "locks_held", held);
    if (m->call[0])  /* main's innermost binder frame is an outgoing call */
        json_object_set_new(j, "binder_call", jstr(m->call));
    if (m->waiting_on[0]) {
        json_object_set_new(j, "waiting_on", jstr(m->waiting_on));
        if (m->lock[0])
            json_object_set_new(j, "lock", jstr(m->lock));
        int64_t h = find_dtid(c, m->held_by);
        if (h >= 0) {
            const anr_thr *ht = &c->thr[h];
            json_object_set_new(j, "held_by", json_integer(ht->tid));
            json_object_set_new(j, "held_by_name", jstr(ht->name));
            json_object_set_new(j, "holder_state", ht->has_state ? jstr(ht->state) : json_null());
            json_t *hl = locks_json(ht);
            json_object_set_new(j, "holder_locks_held", hl ? hl : json_array());
            if (ht->waiting_on[0])
                json_object_set_new(j, "holder_waiting_on", jstr(ht->waiting_on));
        } else if (m->held_by >= 0) {
            /* the dump names a holder it does not list: said, never guessed */
            json_object_set_new(j, "held_by", json_null());
            json_object_set_new(j, "held_by_dalvik_tid", json_integer(m->held_by));
        }
    }
    return emit_issue(c, "anr_main_state", m->has_state ? m->state : NULL, m, j);
}

/* The name of the process: its "Cmd line:", else a native dump's ">>> name
 * <<<", else the name of the thread whose id is the pid; NULL when none. */
static const char *process_name(const anr_ctx *c, const char **from)
{
    *from = NULL;
    if (c->has_app && c->app[0]) {
        *from = "cmd_line";
        return c->app;
    }
    if (c->native_name[0]) {
        *from = "native_name";
        return c->native_name;
    }
    for (size_t i = 0; i < c->nthr; i++)
        if (c->thr[i].tid == c->pid && c->thr[i].name[0]) {
            *from = "main_thread";
            return c->thr[i].name;
        }
    return NULL;
}

/* One "anr_dump" issue per dump, whatever its threads: its process, its
 * carrier and place in it, the record's subject, heap/GC figures, locks. */
static int emit_dump(anr_ctx *c)
{
    static const char *const heap_keys[ANR_H_N] = {
        [ANR_H_FREE_PCT] = "free_pct", [ANR_H_USED] = "used_bytes", [ANR_H_SIZE] = "size_bytes",
        [ANR_H_OBJECTS] = "objects", [ANR_H_ALLOCATED] = "allocated_bytes", [ANR_H_FREE] = "free_bytes",
        [ANR_H_FREE_OOME] = "free_until_oome_bytes", [ANR_H_TOTAL] = "total_bytes",
        [ANR_H_MAX] = "max_bytes", [ANR_H_GC_COUNT] = "gc_count", [ANR_H_GC_TIME] = "gc_time_ms",
        [ANR_H_GC_BLOCKING_COUNT] = "gc_blocking_count", [ANR_H_GC_BLOCKING_TIME] = "gc_blocking_time_ms"};
    const char *from, *name = process_name(c, &from);
    json_t *j = json_object();
    json_object_set_new(j, "process", name ? jstr(name) : json_null());
    json_object_set_new(j, "process_from", from ? json_string(from) : json_null());
    json_object_set_new(j, "section", json_string(c->section ? c->section : "traces_file"));
    json_object_set_new(j, "index", json_integer(c->ndump - 1));
    json_object_set_new(j, "subject", c->has_subject && c->ndump == 1 ? jstr(c->subject) : json_null());
    json_object_set_new(j, "threads", json_integer((json_int_t)c->nthr));
    json_object_set_new(j, "main_tid", c->main_tid >= 0 ? json_integer(c->main_tid) : json_null());
    json_t *heap = json_object();
    for (int i = 0; i < ANR_H_N; i++)
        if (c->heap[i] >= 0)
            json_object_set_new(heap, heap_keys[i], json_real(c->heap[i]));
    json_object_set_new(j, "heap", json_object_size(heap) ? heap : (json_decref(heap), json_null()));
    json_t *locks = json_array();
    for (size_t i = 0; i < c->nthr; i++) {
        json_t *l = locks_json(&c->thr[i]);
        if (l)
            json_array_append_new(locks, json_pack("{s:o s:I s:o s:b}", "name", jstr(c->thr[i].name), "tid",
                                                   (json_int_t)c->thr[i].tid, "locks", l, "more",
                                                   c->thr[i].locked_over));
    }
    json_object_set_new(j, "locks_held", locks);
    /* each thread waiting for a lock, with its holder (#28 item 2: the
     * binder chain across the dumps of a bugreport walks these) */
    json_t *waits = json_array();
    for (size_t i = 0; i < c->nthr; i++) {
        const anr_thr *t = &c->thr[i];
        if (!t->waiting_on[0])
            continue;
        int64_t h = find_dtid(c, t->held_by);
        json_array_append_new(waits, json_pack("{s:I s:o s:o s:o s:o s:o s:o}", "tid", (json_int_t)t->tid, "name",
                                               jstr(t->name), "state", t->has_state ? jstr(t->state) : json_null(),
                                               "waiting_on", jstr(t->waiting_on), "lock",
                                               t->lock[0] ? jstr(t->lock) : json_null(), "held_by",
                                               h >= 0 ? json_integer(c->thr[h].tid) : json_null(),
                                               "held_by_name", h >= 0 ? jstr(c->thr[h].name) : json_null()));
    }
    json_object_set_new(j, "lock_waits", waits);
    anr_thr who;
    memset(&who, 0, sizeof who);
    who.tid = c->main_tid >= 0 ? c->main_tid : c->pid;
    anr_copy_str(who.name, sizeof who.name, c->main_idx >= 0 ? c->thr[c->main_idx].name : "", 
                 c->main_idx >= 0 ? strlen(c->thr[c->main_idx].name) : 0);
    return emit_issue(c, "anr_dump", name, &who, j);
}

/* Each thread waits for at most one holder: the wait-for graph is a
 * functional graph; every cycle is found once by walking from each node. */
static int find_deadlocks(anr_ctx *c, const int64_t *next)
{
    size_t n = c->nthr;
    size_t *mark = calloc(n, sizeof *mark);
    int rc = 0;
    if (!mark)
        return gd_error_set(c->err, GD_ERR_NOMEM, 0, 0, "out of memory");
    for (size_t i = 0; i < n && !rc; i++) {
        int64_t j = (int64_t)i;
        while (j >= 0 && mark[j] == 0) {
            mark[j] = i + 1;
            j = next[j];
        }
        if (j < 0 || mark[j] != i + 1)
            continue;
        /* a new cycle through j: start it at its first-listed thread */
        int64_t first = j;
        for (int64_t k = next[j]; k != j; k = next[k])
            if (k < first)
                first = k;
        json_t *arr = json_array();
        int64_t k = first;
        do {
            const anr_thr *t = &c->thr[k], *h = &c->thr[next[k]];
            json_t *o = waiter_json(t);
            json_object_set_new(o, "held_by", json_integer(h->tid));
            json_object_set_new(o, "held_by_dalvik_tid", json_integer(h->dtid));
            json_array_append_new(arr, o);
            k = next[k];
        } while (k != first);
        json_t *j2 = json_object();
        json_object_set_new(j2, "threads", arr);
        rc = emit_issue(c, "deadlock", NULL, &c->thr[first], j2);
    }
    free(mark);
    return rc;
}

/* Threads that hold a lock others wait for (through any chain of lock
 * waits) while in an outgoing binder call: one "binder_wait" issue each.
 * end[i] is where i's chain of waits ends (a thread not waiting for a
 * lock), -1 when it runs into a cycle; each chain is walked once. */
static int find_binder_waits(anr_ctx *c, const int64_t *next)
{
    size_t n = c->nthr;
    int64_t *end = malloc(n * sizeof *end);
    size_t *stamp = calloc(n, sizeof *stamp), *path = malloc(n * sizeof *path);
    if (!end || !stamp || !path) {
        free(end);
        free(stamp);
        free(path);
        return gd_error_set(c->err, GD_ERR_NOMEM, 0, 0, "out of memory");
    }
    for (size_t i = 0; i < n; i++)
        end[i] = -2;  /* not known yet */
    for (size_t i = 0; i < n; i++) {
        size_t np = 0;
        int64_t k = (int64_t)i, t;
        for (;;) {
            if (end[k] != -2) {
                t = end[k];
                break;
            }
            if (stamp[k] == i + 1) {
                t = -1;  /* a cycle: a deadlock, reported as such */
                break;
            }
            stamp[k] = i + 1;
            path[np++] = (size_t)k;
            if (next[k] < 0) {
                t = k;
                break;
            }
            k = next[k];
        }
        while (np)
            end[path[--np]] = t;
    }
    int rc = 0;
    for (size_t h = 0; h < n && !rc; h++) {
        const anr_thr *ht = &c->thr[h];
        if (!ht->call[0] || next[h] >= 0)
            continue;   /* not in a binder call, or itself waiting for a lock */
        json_t *waiters = json_array();
        for (size_t i = 0; i < n; i++) {
            if (i == h || end[i] != (int64_t)h)
                continue;
            const anr_thr *t = &c->thr[i];
            json_t *o = waiter_json(t);
            json_array_append_new(waiters, o);
        }
        if (json_array_size(waiters) == 0) {
            json_decref(waiters);
            continue;
        }
        json_t *j = json_object();
        json_object_set_new(j, "holder", json_pack("{s:o s:I s:I s:o}", "name", jstr(ht->name), "tid",
                                                   (json_int_t)ht->tid, "dalvik_tid",
                                                   (json_int_t)ht->dtid, "call", jstr(ht->call)));
        json_object_set_new(j, "waiters", waiters);
        rc = emit_issue(c, "binder_wait", NULL, ht, j);
    }
    free(end);
    free(stamp);
    free(path);
    return rc;
}

/* The wait-for graph: next[i] is the thread holding the lock i waits for,
 * -1 none.  Each thread waits for at most one lock. */
static int lock_waits(anr_ctx *c)
{
    size_t n = c->nthr;
    if (n == 0)
        return 0;
    int64_t *next = malloc(n * sizeof *next);
    if (!next)
        return gd_error_set(c->err, GD_ERR_NOMEM, 0, 0, "out of memory");
    for (size_t i = 0; i < n; i++) {
        next[i] = c->thr[i].waiting_on[0] ? find_dtid(c, c->thr[i].held_by) : -1;
        if (c->thr[i].waiting_on[0] && c->thr[i].held_by >= 0 && next[i] < 0 && !c->thr_over)
            gd_sink_skip(c->sink, "anr: lock holder not in the dump", c->thr[i].line, 1);
    }
    int rc = find_deadlocks(c, next);
    if (!rc)
        rc = find_binder_waits(c, next);
    free(next);
    return rc;
}

int anr_end_dump(anr_ctx *c)
{
    int rc = 0;
    if (c->where == ANR_IN_DUMP) {
        rc = anr_end_thread(c);
        if (!rc && c->main_tid < 0) {
            /* no "main" (native-only dumps, a main thread the OS renamed):
             * the thread whose id is the pid */
            for (size_t i = 0; i < c->nthr && c->main_tid < 0; i++)
                if (c->thr[i].tid == c->pid) {
                    c->main_tid = c->pid;
                    c->main_idx = (int64_t)i;
                }
        }
        if (!rc) {
            gd_meta m;
            gd_meta_init(&m);
            m.pid = c->pid;
            m.app = c->has_app ? c->app : NULL;
            m.device = c->device[0] ? c->device : NULL;
            m.main_tid = c->main_tid;
            if (c->zone_min != INT64_MIN) {
                /* the header named its zone: the times are true instants */
                m.clock = "utc";
                m.utc_offset_min = c->zone_min;
            }
            rc = gd_sink_meta(c->sink, &m, c->err);
        }
        if (!rc)
            rc = emit_dump(c);
        if (!rc && c->main_idx >= 0)
            rc = emit_main_state(c);
        if (!rc)
            rc = lock_waits(c);
    }
    anr_leave_dump(c);
    return rc;
}
