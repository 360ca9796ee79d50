/* perfetto_log.c - android_log packets of a Perfetto trace through the logcat line rules (#26).
 *
 * AndroidLogPacket (packet field 39): events 1 -> LogEvent: pid 2, tid 3,
 * timestamp 5 (CLOCK_REALTIME ns, mapped to BOOTTIME by the trace's clock
 * snapshots, as Perfetto does), tag 6, prio 7 (2 V, 3 D, 4 I, 5 W, 6 E,
 * 7 F), message 8.  Each line goes through logcat_rules.h: Looper Printer
 * lines, "Slow dispatch", "Skipped N frames", "Displayed" become the
 * events a logcat gives; lines no rule uses are counted. */
#include "logcat_rules.h"
#include "perfetto_int.h"

#define PF_LOG_CLOCK_REALTIME 1
#define PF_MAX_LOG_MSG 4096

int gd_pf_read_android_log(pctx *c, pb_cur m)
{
    pb_field f, g;
    int r, rc = 0;
    if (!c->logrules && !(c->logrules = gd_logcat_rules_new(c->sink)))
        return gd_error_oom_at(c->err, c->pkno, 0);
    while (!rc && (r = pb_next(&m, &f)) == 1) {
        if (f.num != 1 || f.wt != PB_LEN)
            continue;
        pb_cur e = pb_sub(&f);
        int64_t pid = -1, tid = -1;
        uint64_t ts = 0;
        int has_ts = 0, prio = 0, q;
        const uint8_t *tag = NULL, *msg = NULL;
        size_t tl = 0, ml = 0;
        while ((q = pb_next(&e, &g)) == 1) {
            if (g.num == 2 && g.wt == PB_VARINT)
                pid = (int64_t)(int32_t)g.v;
            else if (g.num == 3 && g.wt == PB_VARINT)
                tid = (int64_t)(int32_t)g.v;
            else if (g.num == 5 && g.wt == PB_VARINT)
                ts = g.v, has_ts = 1;
            else if (g.num == 6 && g.wt == PB_LEN)
                tag = g.data, tl = g.len;
            else if (g.num == 7 && g.wt == PB_VARINT)
                prio = (int)g.v;
            else if (g.num == 8 && g.wt == PB_LEN)
                msg = g.data, ml = g.len;
        }
        if (q < 0) {
            gd_pf_bad(c, GD_SKIP(MALFORMED_ANDROID_LOG_EVENT));
            continue;
        }
        uint64_t bt;
        if (!has_ts || !msg || !gd_pf_resolve_ts(c, NULL, PF_LOG_CLOCK_REALTIME, ts, &bt)) {
            gd_sink_skip(c->sink, GD_SKIP(PERFETTO_ANDROID_LOG_LINE_WITHOUT_A_USABLE),
                         c->pkno, 0);
            continue;
        }
        while (ml && (msg[ml - 1] == '\n' || msg[ml - 1] == '\r'))
            ml--;
        if (ml > PF_MAX_LOG_MSG)
            ml = PF_MAX_LOG_MSG;
        char buf[PF_MAX_LOG_MSG + 1];
        memcpy(buf, msg, ml);
        buf[ml] = 0; /* a Looper line's text is kept as a C string */
        static const char LEVELS[] = "??VDIWEF";
        char level = prio >= 2 && prio <= 7 ? LEVELS[prio] : '?';
        c->log_lines++;
        rc = gd_logcat_rules_line(c->logrules, (double)bt / 1e6, pid, tid, level,
                                  tag ? (const char *)tag : "", tl, buf, ml, c->pkno, c->err);
        if (rc == GD_OTHER_RULE) {
            rc = 0;
            gd_sink_skip(c->sink, GD_SKIP(IGNORED_PERFETTO_ANDROID_LOG_LINE_NOT_USED), c->pkno, 0);
        } else if (!rc) {
            c->log_used++;
        }
    }
    return rc;
}
