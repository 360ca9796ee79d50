/* logcat_rules.h - the logcat reader's line rules for log lines that come
 * in other carriers (Perfetto android_log packets, #26): Looper Printer
 * lines, "Slow dispatch"/"Slow delivery", Choreographer "Skipped N frames",
 * ActivityManager/ActivityTaskManager "Displayed", launch-time events: the
 * same events the logcat reader emits for the same lines. */
#ifndef GD_READER_LOGCAT_RULES_H
#define GD_READER_LOGCAT_RULES_H

#include <stddef.h>
#include <stdint.h>

#include "core/event.h"

typedef struct lc_ctx gd_logcat_rules;

/* Rules emitting to `sink`; NULL when out of memory. */
gd_logcat_rules *gd_logcat_rules_new(const gd_sink *sink);
void gd_logcat_rules_free(gd_logcat_rules *r);
/* Emits what the rules still hold (an ANR report block cut by the end of
 * the log): 0 or the sink's error code. */
int gd_logcat_rules_finish(gd_logcat_rules *r, gd_error *err);

/* One log line at ts (ms on the carrier's clock) of pid/tid, priority
 * letter level ('V'...'F'), tag and message; `line` the source position.
 * 0 when a rule used it, GD_OTHER_RULE when no rule did, or the sink's
 * error code. */
int gd_logcat_rules_line(gd_logcat_rules *r, double ts, int64_t pid, int64_t tid, char level,
                         const char *tag, size_t tlen, const char *msg, size_t mlen, long line,
                         gd_error *err);

#endif
