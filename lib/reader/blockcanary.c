/* blockcanary.c - reader of BlockCanary 1.5 block logs (looper-*.log), one or many concatenated. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "reader/mdstamp.h"
#include "reader.h"
#include "core/util.h"
#include "core/skip_reasons.h"

/*
 * Layout written by BlockCanary's LogWriter.save() (CRLF; the input layer
 * strips the "\r"), one block per file, files possibly concatenated:
 *
 *   <blank>
 *   **********************                      (22 asterisks)
 *   2024-01-01 00:00:01(write log time)          (yyyy-MM-dd HH:mm:ss)
 *   <blank>
 *   qua = ... / versionName / versionCode / imei / uid / network / model /
 *   api-level ("23 6.0.1") / cpu-core / process / freeMemory / totalMemory
 *   time = <wall ms> / thread-time = <thread cpu ms>
 *   time-start = MM-dd HH:mm:ss.SSS / time-end = MM-dd HH:mm:ss.SSS
 *   cpu-busy = true|false
 *   cpu-rate = <stamp> cpu:N% app:N% [user:N% system:N% ioWait:N% ]
 *   <stamp> cpu:... (one per further sample)         then a blank line;
 *                                                    empty on API >= 26
 *   stack = <stamp>          then per sample: blank, one frame per line
 *   <blank>                  (innermost first), blank, next <stamp> ...
 *
 * Stamps carry no year: each gets the write time's year, or the previous
 * one when that would put it more than a day after the write time (a block
 * started on Dec 31 and written on Jan 1).  Without a header line the year
 * is opts->year (else the current one).  Local time is treated as UTC.
 *
 * Emitted per block:
 *   - gd_meta: app = process without its ":sub" suffix, version_name,
 *     version_code, device = model, api_level (the leading number),
 *     cpu_cores, concern = [app]; json {"qua","network"}.  The imei and the
 *     uid are never read into anything (they identify a person's device).
 *   - GD_EV_DISPATCH: ts = time-start, dur = `time` (wall ms, equal to
 *     time-end - time-start by construction; the difference is used when
 *     `time` is absent), thread_dur = thread-time; main thread.
 *   - GD_EV_ISSUE tool "blockcanary" type "cpu_busy" json {"cpu_busy":true}
 *     at time-start when BlockCanary judged the CPU busy (its own verdict,
 *     kept as reported; godeye's analysis computes its own).
 *   - GD_EV_MEMORY at time-end (BlockInfo.newInstance() reads memory on the
 *     writer thread right after the block ended; the write time has only
 *     second precision, so time-end is the closer stamp): freeMemory is ActivityManager.MemoryInfo
 *     .availMem / 1024 and totalMemory the MemTotal line of /proc/meminfo,
 *     both device RAM in KB (not the Java heap): ram_avail_kb, ram_total_kb.
 *   - GD_EV_CPU per cpu-rate entry at its stamp: ratios 0..1 from the
 *     percentages (cpu -> total, app, user, system -> sys, ioWait -> iowait).
 *   - GD_EV_STACK per sample at its stamp, frames as printed, main thread.
 * A log cut above its header opens a block at its first "key = value" line.
 * Skip reasons: "blockcanary: line outside a block", "blockcanary: unknown
 * key", "blockcanary: unparsable line", "blockcanary: bad cpu-rate entry",
 * "blockcanary: bad time" (a time-start/time-end/sample stamp),
 * "blockcanary: block without time-start", "blockcanary: frames over limit" (a sample over 4096 frames or 4 MiB keeps
 * its first frames; memory stays bounded by one sample).
 */

#define BC_STARS 22
#define BC_MAX_FRAMES 4096
#define BC_MAX_STACK_BYTES ((size_t)4 << 20)

enum { SEC_NONE, SEC_HEADER, SEC_BODY, SEC_CPU, SEC_STACK_HEAD, SEC_STACK_FRAMES, SEC_STACK_GAP,
       SEC_STACK_BAD };

typedef struct bc_block {
    int open;
    int has_write;
    double write_ms;
    int write_year;
    char process[256], version_name[128], model[128], qua[128], network[64];
    int64_t version_code, api_level, cpu_cores, free_kb, total_kb;
    double time_ms, thread_ms, start_ms, end_ms;
    int meta_sent, times_sent;
    long start_line;
} bc_block;

typedef struct bc_ctx {
    const gd_sink *sink;
    int dflt_year;
    long line;
    int sec;
    bc_block b;
    /* the stack sample being read: frames copied into one arena */
    double sample_ts;
    long sample_line;
    char *arena;
    size_t arena_len, arena_cap;
    size_t *offs;
    size_t nframes, offs_cap;
    const char **frames;
    size_t frames_cap;
    int over_limit;
    int bad_frames; /* SEC_STACK_BAD: the dropped sample's frames began */
} bc_ctx;

static int is_stars(const char *s, size_t n)
{
    if (n != BC_STARS)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] != '*')
            return 0;
    return 1;
}

static int is_blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t')
            return 0;
    return 1;
}

/* Stamp of a year-less "MM-dd HH:mm:ss.SSS" in the block's frame of years. */
static double block_ms(const bc_ctx *c, const gd_mdstamp *st)
{
    if (st->year)
        return gd_mdstamp_ms(st->year, st);
    if (!c->b.has_write)
        return gd_mdstamp_ms(c->dflt_year, st);
    return gd_mdstamp_before_ms(c->b.write_year, c->b.write_ms, st);
}

/* "MM-dd HH:mm:ss.SSS" at s: its epoch ms and the bytes used (0: none). */
static size_t parse_block_stamp(const bc_ctx *c, const char *s, size_t n, double *ms)
{
    gd_mdstamp st;
    size_t k = gd_mdstamp_parse(s, n, 1, &st);
    if (k)
        *ms = block_ms(c, &st);
    return k;
}

static void copy_str(char *dst, size_t cap, const char *v, size_t n)
{
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, v, n);
    dst[n] = 0;
}

/* Leading decimal integer of v (sign allowed); -1 when none or negative. */
static int64_t lead_int(const char *v, size_t n)
{
    size_t i = 0;
    int neg = 0;
    if (i < n && v[i] == '-') {
        neg = 1;
        i++;
    }
    int64_t x = 0;
    size_t d = 0;
    while (i < n && v[i] >= '0' && v[i] <= '9' && d < 18) {
        x = x * 10 + (v[i] - '0');
        i++;
        d++;
    }
    if (!d || neg)
        return -1;
    return x;
}

static void block_reset(bc_block *b)
{
    memset(b, 0, sizeof *b);
    b->version_code = b->api_level = b->cpu_cores = b->free_kb = b->total_kb = -1;
    b->time_ms = b->thread_ms = b->start_ms = b->end_ms = GD_NONE;
}

static int send_meta(bc_ctx *c, gd_error *err)
{
    bc_block *b = &c->b;
    if (b->meta_sent)
        return 0;
    b->meta_sent = 1;
    gd_meta m;
    gd_meta_init(&m);
    if (b->process[0]) {
        char *colon = strchr(b->process, ':');
        if (colon)
            *colon = 0; /* "com.example.shop:push" -> the package */
        m.app = b->process;
        m.concern[m.nconcern++] = b->process;
    }
    m.version_name = b->version_name[0] ? b->version_name : NULL;
    m.version_code = b->version_code;
    m.device = b->model[0] ? b->model : NULL;
    m.api_level = b->api_level;
    m.cpu_cores = b->cpu_cores;
    json_t *js = json_object();
    if (b->qua[0])
        json_object_set_new(js, "qua", json_string(b->qua));
    if (b->network[0])
        json_object_set_new(js, "network", json_string(b->network));
    char *txt = json_object_size(js) ? json_dumps(js, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    json_decref(js);
    m.json = txt;
    int rc = gd_sink_meta(c->sink, &m, err);
    free(txt);
    return rc;
}

static int send(bc_ctx *c, const gd_event *ev, gd_error *err)
{
    int rc = send_meta(c, err);
    return rc ? rc : gd_sink_event(c->sink, ev, err);
}

/* The dispatch and the memory snapshot, once the time keys are read. */
static int send_times(bc_ctx *c, gd_error *err)
{
    bc_block *b = &c->b;
    if (b->times_sent)
        return 0;
    b->times_sent = 1;
    int rc;
    if (gd_has(b->start_ms)) {
        double dur = gd_has(b->time_ms) ? b->time_ms
                     : gd_has(b->end_ms) ? b->end_ms - b->start_ms
                                         : GD_NONE;
        if (gd_has(dur) && dur >= 0) {
            gd_event ev;
            gd_event_init(&ev, GD_EV_DISPATCH);
            ev.ts = b->start_ms;
            ev.line = b->start_line;
            ev.u.dispatch.dur = dur;
            ev.u.dispatch.thread_dur = b->thread_ms;
            if ((rc = send(c, &ev, err)))
                return rc;
        } else {
            gd_sink_skip(c->sink, GD_SKIP(BLOCKCANARY_BLOCK_WITHOUT_TIME_START), b->start_line, 1);
        }
    } else {
        gd_sink_skip(c->sink, GD_SKIP(BLOCKCANARY_BLOCK_WITHOUT_TIME_START), b->start_line, 1);
    }
    if (b->free_kb >= 0 || b->total_kb >= 0) {
        double ts = gd_has(b->end_ms) ? b->end_ms : b->has_write ? b->write_ms : GD_NONE;
        if (gd_has(ts)) {
            gd_event ev;
            gd_event_init(&ev, GD_EV_MEMORY);
            ev.ts = ts;
            ev.line = b->start_line;
            ev.u.memory.ram_avail_kb = b->free_kb;
            ev.u.memory.ram_total_kb = b->total_kb;
            if ((rc = send(c, &ev, err)))
                return rc;
        }
    }
    return 0;
}

static void sample_begin(bc_ctx *c, double ts)
{
    c->sample_ts = ts;
    c->sample_line = c->line;
    c->arena_len = 0;
    c->nframes = 0;
    c->over_limit = 0;
}

static int sample_frame(bc_ctx *c, const char *s, size_t n, gd_error *err)
{
    if (c->nframes >= BC_MAX_FRAMES || c->arena_len + n + 1 > BC_MAX_STACK_BYTES) {
        if (!c->over_limit)
            gd_sink_skip(c->sink, GD_SKIP(BLOCKCANARY_FRAMES_OVER_LIMIT), c->line, 1);
        c->over_limit = 1;
        return 0;
    }
    if (gd_grow((void **)&c->arena, &c->arena_cap, c->arena_len + n + 1, 1, err) ||
        gd_grow((void **)&c->offs, &c->offs_cap, c->nframes + 1, sizeof(size_t), err))
        return GD_ERR_IO;
    memcpy(c->arena + c->arena_len, s, n);
    c->arena[c->arena_len + n] = 0;
    c->offs[c->nframes++] = c->arena_len;
    c->arena_len += n + 1;
    return 0;
}

static int sample_end(bc_ctx *c, gd_error *err)
{
    if (c->nframes == 0)
        return 0;
    if (gd_grow((void **)&c->frames, &c->frames_cap, c->nframes, sizeof(char *), err))
        return GD_ERR_IO;
    for (size_t i = 0; i < c->nframes; i++)
        c->frames[i] = c->arena + c->offs[i];
    gd_event ev;
    gd_event_init(&ev, GD_EV_STACK);
    ev.ts = c->sample_ts;
    ev.line = c->sample_line;
    ev.u.stack.frames = c->frames;
    ev.u.stack.nframes = c->nframes;
    c->nframes = 0;
    c->arena_len = 0;
    return send(c, &ev, err);
}

/* A whole line that is only a sample stamp (after "stack = " or alone). */
static int stack_stamp(bc_ctx *c, const char *s, size_t n)
{
    double ts;
    size_t k = parse_block_stamp(c, s, n, &ts);
    if (!k || !is_blank(s + k, n - k))
        return 0;
    sample_begin(c, ts);
    return 1;
}

/* "<stamp> cpu:85% app:60% [user:50% system:30% ioWait:2% ]" */
static int cpu_entry(bc_ctx *c, const char *s, size_t n, gd_error *err)
{
    double ts;
    size_t i = parse_block_stamp(c, s, n, &ts);
    if (!i) {
        gd_sink_skip(c->sink, GD_SKIP(BLOCKCANARY_BAD_CPU_RATE_ENTRY), c->line, 1);
        return 0;
    }
    gd_event ev;
    gd_event_init(&ev, GD_EV_CPU);
    ev.ts = ts;
    ev.line = c->line;
    int got = 0;
    while (i < n) {
        while (i < n && (s[i] == ' ' || s[i] == '[' || s[i] == ']'))
            i++;
        size_t k0 = i;
        while (i < n && s[i] != ':' && s[i] != ' ')
            i++;
        if (i >= n || s[i] != ':') {
            while (i < n && s[i] != ' ')
                i++;
            continue;
        }
        size_t klen = i - k0;
        i++;
        int64_t v = lead_int(s + i, n - i);
        while (i < n && s[i] != ' ')
            i++;
        if (v < 0 || v > 100000)
            continue;
        double r = (double)v / 100.0;
        const char *k = s + k0;
        if (klen == 3 && memcmp(k, "cpu", 3) == 0)
            ev.u.cpu.total = r;
        else if (klen == 3 && memcmp(k, "app", 3) == 0)
            ev.u.cpu.app = r;
        else if (klen == 4 && memcmp(k, "user", 4) == 0)
            ev.u.cpu.user = r;
        else if (klen == 6 && memcmp(k, "system", 6) == 0)
            ev.u.cpu.sys = r;
        else if (klen == 6 && memcmp(k, "ioWait", 6) == 0)
            ev.u.cpu.iowait = r;
        else
            continue;
        got++;
    }
    if (!got) {
        gd_sink_skip(c->sink, GD_SKIP(BLOCKCANARY_BAD_CPU_RATE_ENTRY), c->line, 1);
        return 0;
    }
    return send(c, &ev, err);
}

/* "2024-01-01 00:00:01(write log time)" */
static int header_line(bc_ctx *c, const char *s, size_t n)
{
    gd_mdstamp st;
    size_t k = gd_mdstamp_parse(s, n, 0, &st);
    static const char tail[] = "(write log time)";
    if (!k || !st.year || n - k != sizeof tail - 1 || memcmp(s + k, tail, sizeof tail - 1) != 0)
        return 0;
    c->b.has_write = 1;
    c->b.write_year = st.year;
    c->b.write_ms = gd_mdstamp_ms(st.year, &st);
    return 1;
}

/* The " = " that separates a key from its value, or NULL. */
static const char *find_kv(const char *s, size_t n)
{
    for (size_t i = 0; i + 2 < n; i++)
        if (s[i] == ' ' && s[i + 1] == '=' && s[i + 2] == ' ')
            return s + i;
    return NULL;
}

#define KEY(name) (klen == sizeof(name) - 1 && memcmp(s, name, sizeof(name) - 1) == 0)

static int key_value(bc_ctx *c, const char *s, size_t n, gd_error *err)
{
    const char *eq = find_kv(s, n);
    size_t klen = eq ? (size_t)(eq - s) : 0;
    const char *v = eq ? eq + 3 : NULL;
    size_t vn = eq ? n - klen - 3 : 0;
    if (!eq) {
        /* an editor may trim "cpu-rate = " to "cpu-rate =": accept that */
        if (n >= 2 && s[n - 1] == '=' && s[n - 2] == ' ') {
            klen = n - 2;
            v = s + n;
            vn = 0;
        } else {
            gd_sink_skip(c->sink, GD_SKIP(BLOCKCANARY_UNPARSABLE_LINE), c->line, 1);
            return 0;
        }
    }
    bc_block *b = &c->b;
    gd_mdstamp st;
    if (KEY("qua"))
        copy_str(b->qua, sizeof b->qua, v, vn);
    else if (KEY("versionName"))
        copy_str(b->version_name, sizeof b->version_name, v, vn);
    else if (KEY("versionCode"))
        b->version_code = lead_int(v, vn);
    else if (KEY("imei") || KEY("uid"))
        ; /* personal identifiers: never kept */
    else if (KEY("network"))
        copy_str(b->network, sizeof b->network, v, vn);
    else if (KEY("model"))
        copy_str(b->model, sizeof b->model, v, vn);
    else if (KEY("api-level"))
        b->api_level = lead_int(v, vn);
    else if (KEY("cpu-core"))
        b->cpu_cores = lead_int(v, vn) > 0 ? lead_int(v, vn) : -1;
    else if (KEY("process"))
        copy_str(b->process, sizeof b->process, v, vn);
    else if (KEY("freeMemory"))
        b->free_kb = lead_int(v, vn);
    else if (KEY("totalMemory"))
        b->total_kb = lead_int(v, vn);
    else if (KEY("time"))
        b->time_ms = lead_int(v, vn) >= 0 ? (double)lead_int(v, vn) : GD_NONE;
    else if (KEY("thread-time"))
        b->thread_ms = lead_int(v, vn) >= 0 ? (double)lead_int(v, vn) : GD_NONE;
    else if (KEY("time-start") || KEY("time-end")) {
        size_t k = gd_mdstamp_parse(v, vn, 1, &st);
        if (!k || !is_blank(v + k, vn - k)) {
            gd_sink_skip(c->sink, GD_SKIP(BLOCKCANARY_BAD_TIME), c->line, 1);
            return 0;
        }
        if (s[5] == 's') {
            b->start_ms = block_ms(c, &st);
            b->start_line = c->line;
        } else {
            b->end_ms = block_ms(c, &st);
        }
    } else if (KEY("cpu-busy")) {
        int rc = send_times(c, err);
        if (rc)
            return rc;
        if (vn >= 4 && memcmp(v, "true", 4) == 0) {
            if (!gd_has(b->start_ms)) {
                gd_sink_skip(c->sink, GD_SKIP(BLOCKCANARY_BLOCK_WITHOUT_TIME_START), c->line, 1);
                return 0;
            }
            gd_event ev;
            gd_event_init(&ev, GD_EV_ISSUE);
            ev.ts = b->start_ms;
            ev.line = c->line;
            ev.u.issue.tool = "blockcanary";
            ev.u.issue.type = "cpu_busy";
            ev.u.issue.json = "{\"cpu_busy\":true}";
            return send(c, &ev, err);
        }
    } else if (KEY("cpu-rate")) {
        int rc = send_times(c, err);
        if (rc)
            return rc;
        c->sec = SEC_CPU;
        if (!is_blank(v, vn))
            return cpu_entry(c, v, vn, err);
    } else if (KEY("stack")) {
        int rc = send_times(c, err);
        if (rc)
            return rc;
        if (stack_stamp(c, v, vn)) {
            c->sec = SEC_STACK_HEAD;
        } else {
            gd_sink_skip(c->sink, GD_SKIP(BLOCKCANARY_BAD_TIME), c->line, 1);
            c->sec = SEC_STACK_BAD;
            c->bad_frames = 0;
        }
    } else {
        gd_sink_skip(c->sink, GD_SKIP(BLOCKCANARY_UNKNOWN_KEY), c->line, 1);
    }
    return 0;
}

static int block_end(bc_ctx *c, gd_error *err)
{
    if (!c->b.open)
        return 0;
    int rc = sample_end(c, err);
    if (!rc)
        rc = send_times(c, err);
    if (!rc)
        rc = send_meta(c, err);
    c->b.open = 0;
    return rc;
}

static int one_line(bc_ctx *c, const char *s, size_t n, gd_error *err)
{
    if (is_stars(s, n)) {
        int rc = block_end(c, err);
        if (rc)
            return rc;
        block_reset(&c->b);
        c->b.open = 1;
        c->b.start_line = c->line;
        c->sec = SEC_HEADER;
        return 0;
    }
    if (is_blank(s, n)) {
        switch (c->sec) {
        case SEC_CPU:
            c->sec = SEC_BODY;
            break;
        case SEC_STACK_HEAD:
            c->sec = SEC_STACK_FRAMES;
            break;
        case SEC_STACK_FRAMES:
            c->sec = SEC_STACK_GAP;
            return sample_end(c, err);
        case SEC_STACK_BAD:
            if (c->bad_frames)
                c->sec = SEC_STACK_GAP;
            break;
        default:
            break;
        }
        return 0;
    }
    if (!c->b.open) {
        if (!find_kv(s, n)) {
            gd_sink_skip(c->sink, GD_SKIP(BLOCKCANARY_LINE_OUTSIDE_A_BLOCK), c->line, 1);
            return 0;
        }
        /* a log cut above its header: the keys open a block (opts year) */
        block_reset(&c->b);
        c->b.open = 1;
        c->b.start_line = c->line;
        c->sec = SEC_BODY;
    }
    switch (c->sec) {
    case SEC_HEADER:
        c->sec = SEC_BODY;
        if (header_line(c, s, n))
            return 0;
        break; /* no header: read the line as a key */
    case SEC_STACK_HEAD:
    case SEC_STACK_FRAMES:
        c->sec = SEC_STACK_FRAMES;
        return sample_frame(c, s, n, err);
    case SEC_STACK_BAD:
        c->bad_frames = 1; /* frames of a sample whose stamp was counted as bad */
        return 0;
    case SEC_STACK_GAP:
        if (stack_stamp(c, s, n)) {
            c->sec = SEC_STACK_HEAD;
        } else {
            gd_sink_skip(c->sink, GD_SKIP(BLOCKCANARY_BAD_TIME), c->line, 1);
            c->sec = SEC_STACK_BAD;
            c->bad_frames = 0;
        }
        return 0;
    case SEC_CPU: {
        gd_mdstamp st;
        if (gd_mdstamp_parse(s, n, 1, &st))
            return cpu_entry(c, s, n, err);
        c->sec = SEC_BODY;
        break;
    }
    default:
        break;
    }
    return key_value(c, s, n, err);
}

static int read_blockcanary(gd_input *in, const gd_sink *sink, const gd_read_opts *opts,
                            gd_error *err)
{
    bc_ctx c = {.sink = sink, .sec = SEC_NONE};
    block_reset(&c.b);
    c.dflt_year = gd_mdstamp_year_or_now(opts ? opts->year : 0);
    char *s;
    size_t n;
    int r, rc = GD_OK;
    while ((r = gd_input_getline(in, &s, &n, err)) == 1) {
        c.line = gd_input_lineno(in);
        if (c.line == 1 && n >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0) {
            s += 3; /* UTF-8 byte order mark */
            n -= 3;
        }
        if ((rc = one_line(&c, s, n, err)))
            break;
    }
    if (!rc && r < 0)
        rc = err->code ? err->code : GD_ERR_IO;
    if (!rc)
        rc = block_end(&c, err);
    free(c.arena);
    free(c.offs);
    free(c.frames);
    return rc;
}

static int probe(const unsigned char *h, size_t n, int eof)
{
    static const char *const keys[] = {"qua = ", "versionName = ", "versionCode = ",
                                       "api-level = ", "cpu-core = ", "time-start = ",
                                       "time-end = ", "cpu-busy = ", "cpu-rate = ",
                                       "thread-time = "};
    int stars = 0, header = 0, nkeys = 0, lines = 0;
    size_t i = 0;
    while (i < n && lines < 64) {
        const unsigned char *nl = memchr(h + i, '\n', n - i);
        if (!nl && !eof)
            break;
        size_t len = nl ? (size_t)(nl - (h + i)) : n - i;
        const char *s = (const char *)h + i;
        i += len + 1;
        if (len && s[len - 1] == '\r')
            len--;
        if (len == 0)
            continue;
        lines++;
        if (is_stars(s, len)) {
            stars++;
            continue;
        }
        static const char tail[] = "(write log time)";
        if (len > sizeof tail && memcmp(s + len - (sizeof tail - 1), tail, sizeof tail - 1) == 0) {
            header++;
            continue;
        }
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
            size_t kl = strlen(keys[k]);
            if (len >= kl && memcmp(s, keys[k], kl) == 0) {
                nkeys++;
                break;
            }
        }
    }
    if (stars && header)
        return 95;
    if (nkeys >= 3 && (stars || header))
        return 90;
    if (nkeys >= 4)
        return 80;
    return 0;
}

const gd_reader gd_reader_blockcanary = {
    .name = "blockcanary",
    .description = "BlockCanary block logs (looper-*.log; several concatenated)",
    .probe = probe,
    .read = read_blockcanary,
    .clock = "local",
};
