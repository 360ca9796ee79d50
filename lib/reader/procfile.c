/* procfile.c - reader "procstat": raw /proc/stat and /proc/<pid>/stat files into cpu samples. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "procstat.h"
#include "reader.h"
#include "io/textin.h"
#include "core/skip_reasons.h"

/* Samples.  Each aggregate "cpu " line starts a sample (so `cat /proc/stat;
 * sleep 1; cat /proc/stat` gives two); a /proc/<pid>/stat line joins the
 * open sample when that one has no process counters yet (files concatenated
 * as `cat /proc/stat /proc/<pid>/stat`), else starts its own.
 *
 * Time.  Neither file records when it was read.  ts is the boot time
 * (`btime` × 1000, epoch ms) of the sample's own /proc/stat block (the
 * latest btime line read when the sample ends), or 0 when there is none; it is a stand-in, not a capture time, and every sample
 * read this way is counted once under "procstat: no capture time" so that
 * the gap is never silent.  Consecutive samples of one file therefore share
 * a ts; their order is the file order.
 *
 * Series with times.  A /proc/uptime line ("12345.67 54321.00": seconds
 * since boot, idle seconds) inside a sample, as `godeye capture` writes
 * with `cat /proc/stat /proc/<pid>/stat /proc/uptime` per sample, dates
 * that sample: ts = btime × 1000 + uptime × 1000 (the device's wall clock,
 * within the second that btime rounds to). */

typedef struct pst {
    const gd_sink *sink;
    gd_cpu_counters c;
    int open;
    int64_t pid;
    long line;
    double btime_ms;
    double uptime_s; /* GD_NONE until a /proc/uptime line joins the sample */
} pst;

static int flush(pst *p, gd_error *err)
{
    if (!p->open)
        return 0;
    p->open = 0;
    gd_event ev;
    gd_event_init(&ev, GD_EV_CPU);
    ev.ts = gd_has(p->btime_ms) ? p->btime_ms : 0;
    ev.line = p->line;
    if (p->pid >= 0)
        ev.pid = p->pid;
    ev.u.cpu.raw = p->c;
    if (gd_has(p->btime_ms) && gd_has(p->uptime_s))
        ev.ts = p->btime_ms + p->uptime_s * 1000.0;
    else
        gd_sink_skip(p->sink, GD_SKIP(PROCSTAT_NO_CAPTURE_TIME), p->line, 1);
    p->uptime_s = GD_NONE;
    return gd_sink_event(p->sink, &ev, err);
}

/* "1234 (comm) S ..." */
static int looks_pid_stat(const char *s)
{
    const char *q = s;
    while (isdigit((unsigned char)*q))
        q++;
    return q > s && q[0] == ' ' && q[1] == '(' && strrchr(s, ')');
}

/* "12345.67 54321.00" (/proc/uptime): seconds since boot into *up. */
static int parse_uptime(const char *s, double *up)
{
    const char *q = s;
    for (int f = 0; f < 2; f++) {
        const char *d = q;
        while (isdigit((unsigned char)*q))
            q++;
        if (q == d || *q != '.' || !isdigit((unsigned char)q[1]))
            return -1;
        q++;
        while (isdigit((unsigned char)*q))
            q++;
        if (f == 0) {
            if (*q != ' ')
                return -1;
            *up = strtod(s, NULL);
            q++;
        }
    }
    while (*q == ' ' || *q == '\r' || *q == '\n')
        q++;
    return *q ? -1 : 0;
}

static int read_proc(gd_input *in, const gd_sink *sink, const gd_read_opts *opts, gd_error *err)
{
    (void)opts;
    pst p = {.sink = sink, .pid = -1, .btime_ms = GD_NONE, .uptime_s = GD_NONE};
    int rc = GD_OK;
    char *line;
    size_t len;
    int r = 0;
    double up = 0;
    while (rc == GD_OK && (r = gd_input_getline(in, &line, &len, err)) == 1) {
        long lineno = gd_input_lineno(in);
        const char *s = line;
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s)
            continue;
        if (strncmp(s, "cpu", 3) == 0 && (s[3] == ' ' || s[3] == '\t')) {
            gd_cpu_counters c = p.c;
            if (p.open && p.c.has_stat)
                rc = flush(&p, err);
            if (rc)
                break;
            if (!p.open)
                memset(&c, 0, sizeof c);
            if (gd_procstat_parse_stat(s, &c) != 0) {
                gd_sink_skip(sink, GD_SKIP(PROCSTAT_UNPARSABLE_CPU_LINE), lineno, 1);
                continue;
            }
            if (!p.open) {
                p.pid = -1;
                p.line = lineno;
            }
            p.c = c;
            p.open = 1;
        } else if (strncmp(s, "cpu", 3) == 0 && isdigit((unsigned char)s[3])) {
            gd_sink_skip(sink, GD_SKIP(PROCSTAT_PER_CPU_LINE_NOT_KEPT), lineno, 1);
        } else if (strncmp(s, "btime ", 6) == 0) {
            char *e;
            long long b = strtoll(s + 6, &e, 10);
            if (e != s + 6 && b > 0)
                p.btime_ms = (double)b * 1000.0;
        } else if (isdigit((unsigned char)*s) && parse_uptime(s, &up) == 0) {
            if (p.open)
                p.uptime_s = up;
            else
                gd_sink_skip(sink, GD_SKIP(PROCSTAT_UPTIME_OUTSIDE_A_SAMPLE), lineno, 1);
        } else if (looks_pid_stat(s)) {
            gd_cpu_counters c = p.c;
            int64_t pid;
            if (p.open && p.c.has_pid_stat)
                rc = flush(&p, err);
            if (rc)
                break;
            if (!p.open)
                memset(&c, 0, sizeof c);
            if (gd_procstat_parse_pid_stat(s, &c, &pid, NULL, 0) != 0) {
                gd_sink_skip(sink, GD_SKIP(PROCSTAT_UNPARSABLE_PID_STAT_LINE), lineno, 1);
                continue;
            }
            if (!p.open)
                p.line = lineno;
            p.c = c;
            p.pid = pid;
            p.open = 1;
        } else {
            static const char *const known[] = {"intr ", "ctxt ", "processes ", "procs_running ",
                                                "procs_blocked ", "softirq ", "page ", "swap "};
            size_t k;
            for (k = 0; k < sizeof known / sizeof *known; k++)
                if (strncmp(s, known[k], strlen(known[k])) == 0)
                    break;
            if (k == sizeof known / sizeof *known)
                gd_sink_skip(sink, GD_SKIP(PROCSTAT_UNKNOWN_LINE), lineno, 1);
        }
    }
    if (rc == GD_OK && r < 0)
        rc = err->code ? err->code : GD_ERR_DATA;
    if (rc == GD_OK)
        rc = flush(&p, err);
    return rc;
}

/* Counts the numbers after a "cpu  " prefix. */
static int cpu_fields(const char *s)
{
    int n = 0;
    s += 3;
    for (;;) {
        while (*s == ' ')
            s++;
        if (!isdigit((unsigned char)*s))
            break;
        while (isdigit((unsigned char)*s))
            s++;
        n++;
    }
    return (*s == '\n' || *s == '\r' || !*s) ? n : 0;
}

static int probe(const unsigned char *head, size_t n, int eof)
{
    (void)eof;
    char *h = gd_text_head(head, n, NULL);
    if (!h)
        return 0;
    char *s = h;
    while (*s == '\n' || *s == '\r' || *s == ' ')
        s++;
    int score = 0;
    if (strncmp(s, "cpu ", 4) == 0 && cpu_fields(s) >= 4) {
        score = 60;
        if (strstr(s, "\ncpu0 ") || strstr(s, "\nintr ") || strstr(s, "\nctxt ") ||
            strstr(s, "\nbtime "))
            score = 90;
    } else if (looks_pid_stat(s)) {
        /* one line; a state letter after the comm and at least 17 fields */
        char *nl = strchr(s, '\n');
        if (nl)
            *nl = 0;
        gd_cpu_counters c = {0};
        const char *close = strrchr(s, ')');
        if (close && close[1] == ' ' && isalpha((unsigned char)close[2]) && close[3] == ' ' &&
            gd_procstat_parse_pid_stat(s, &c, NULL, NULL, 0) == 0)
            score = 70;
    }
    free(h);
    return score;
}

const gd_reader gd_reader_procstat = {
    .name = "procstat",
    .description = "raw /proc/stat and /proc/<pid>/stat files (cat output, repeated blocks allowed)",
    .probe = probe,
    .read = read_proc,
    .clock = "utc",
};
