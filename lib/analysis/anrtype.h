/* analysis/anrtype.h - what kind of ANR a reason names, the process it
 * names, and whether a main thread is idle in its looper (#48): pure rules
 * over the texts a dump or a log gives, used by the reader and the queries. */
#ifndef GD_ANALYSIS_ANRTYPE_H
#define GD_ANALYSIS_ANRTYPE_H

#include <stddef.h>

/* An ANR's type as Perfetto's android_anrs names it (anr_type), from the
 * record's Subject: or the log's Reason: (godeye-anr(1) lists them). */
typedef struct gd_anr_kind {
    const char *type;    /* "INPUT_DISPATCHING_TIMEOUT", ...; "UNKNOWN_ANR_TYPE" when no rule
                          * names the reason; NULL when there is no reason        */
    const char *label;   /* "input dispatch", "broadcast (background)", ...; NULL with type */
    int user_perceived;  /* Play's user-perceived ANR: an input dispatch timeout  */
    double timeout_ms;   /* the timeout the platform (AOSP) applies to the type;  *
                          * -1 when the platform has none or it depends on state  */
    double waited_ms;    /* what the reason says was waited ("Waited 5000ms for",  *
                          * "for 2s"), -1 when it says none                        */
} gd_anr_kind;

/* The type of an ANR whose reason is `reason` (may be NULL) in `process`
 * (may be NULL: a system_server ANR without a known reason is a watchdog). */
void gd_anr_kind_of(const char *reason, const char *process, gd_anr_kind *out);

/* The process the system named in a reason: `PKG/.Activity` (and
 * `PKG/cls`, `cmp=PKG/...`, `ProcessRecord{.. pid:PKG/u0a..}`) gives PKG;
 * a system window (NotificationShade, StatusBar, NavigationBar, ...) gives
 * com.android.systemui.  Writes it to out (NUL-terminated, cut to cap) and
 * returns 1; 0 (out = "") when the reason names no process. */
int gd_anr_reason_process(const char *reason, char *out, size_t cap);

/* 1 when a main thread whose frames (innermost first) are `frames` is
 * idle in its looper: its first Java frame is MessageQueue.nativePollOnce
 * (epoll_wait under it), or MessageQueue.next on Android 2.x. */
int gd_anr_main_idle(const char *const *frames, size_t n);

/* 1 when a thread state word (ART's or Dalvik's) says the thread waits or
 * sleeps: Blocked/MONITOR, Waiting/WAIT, TimedWaiting/TIMED_WAIT,
 * Sleeping/SLEEPING, WaitingForLockInflation... */
int gd_anr_waiting_state(const char *state);

#endif
