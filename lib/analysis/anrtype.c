/* anrtype.c - an ANR's type, timeout and process from its reason; a main
 * thread idle in its looper (#48).  The types and the timeouts are the
 * ones Perfetto's android_anrs module gives (anr_type, default_anr_dur_ms:
 * AOSP's defaults); godeye-anr(1) lists them. */
#include "analysis/anrtype.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/blocks.h" /* gd_frame_is_native */

/* Intent.FLAG_RECEIVER_FOREGROUND: a broadcast of a foreground receiver */
#define FLAG_RECEIVER_FOREGROUND 0x10000000UL

static int starts(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

/* "Waited 5000ms for", "waited 5001.2ms", "... for 2s" -> ms, or -1. */
static double waited_of(const char *r)
{
    const char *p = strstr(r, "Waited ");
    if (!p)
        p = strstr(r, "waited ");
    if (p) {
        char *e;
        double v = strtod(p + 7, &e);
        if (e != p + 7 && starts(e, "ms"))
            return v;
    }
    /* "Blocked in handler on foreground thread (android.fg) for 2s" */
    if (strstr(r, "Blocked in") && (p = strstr(r, " for "))) {
        char *e;
        double v = strtod(p + 5, &e);
        if (e != p + 5 && *e == 's')
            return v * 1000;
    }
    return -1;
}

void gd_anr_kind_of(const char *reason, const char *process, gd_anr_kind *out)
{
    static const struct {
        const char *prefix, *contains, *type, *label;
        int user;
        double timeout_ms;
    } rules[] = {
        /* the order matters: the first rule that matches names the type */
        {"Broadcast of", NULL, "BROADCAST_OF_INTENT", NULL, 0, 0},
        {"Input dispatching timed out", "does not have a focused window",
         "INPUT_DISPATCHING_TIMEOUT_NO_FOCUSED_WINDOW", "input dispatch (no focused window)", 1, 5000},
        {"Input dispatching timed out", "no window has focus but there is a focused application",
         "INPUT_DISPATCHING_TIMEOUT_NO_FOCUSED_WINDOW", "input dispatch (no focused window)", 1, 5000},
        {"Input dispatching timed out", NULL, "INPUT_DISPATCHING_TIMEOUT", "input dispatch", 1, 5000},
        {"keyDispatchingTimedOut", NULL, "INPUT_DISPATCHING_TIMEOUT", "input dispatch", 1, 5000},
        {"Context.startForegroundService() did not then call Service.startForeground()", NULL,
         "START_FOREGROUND_SERVICE", "start foreground service", 0, 30000},
        {"executing service", NULL, "EXECUTING_SERVICE", "executing service", 0, 20000},
        {"ContentProvider not responding", NULL, "CONTENT_PROVIDER_NOT_RESPONDING", "content provider", 0, -1},
        {"App requested: Buffer processing hung up due to stuck fence", NULL, "GPU_HANG", "GPU hang", 0, -1},
        {"No response to onStartJob", NULL, "JOB_SERVICE_START", "job (onStartJob)", 0, 8000},
        {"No response to onStopJob", NULL, "JOB_SERVICE_STOP", "job (onStopJob)", 0, 8000},
        {"Timed out while trying to bind", NULL, "JOB_SERVICE_BIND", "job (bind)", 0, 8000},
        {"required notification not provided", NULL, "JOB_SERVICE_NOTIFICATION_NOT_PROVIDED",
         "job (notification not provided)", 0, 8000},
        {"Process ProcessRecord{", "failed to complete startup", "BIND_APPLICATION", "app start", 0, 15000},
        {"A foreground service of FOREGROUND_SERVICE_TYPE_SHORT_SERVICE did not stop within a timeout", NULL,
         "FOREGROUND_SHORT_SERVICE_TIMEOUT", "short foreground service", 0, 180000},
        {"A foreground service of type", NULL, "FOREGROUND_SERVICE_TIMEOUT", "foreground service", 0, 30000},
        {"App requested: ", NULL, "APP_TRIGGERED", "app requested", 0, -1},
    };
    memset(out, 0, sizeof *out);
    out->timeout_ms = out->waited_ms = -1;
    if (!reason || !*reason)
        return;
    out->waited_ms = waited_of(reason);
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        if (!starts(reason, rules[i].prefix) || (rules[i].contains && !strstr(reason, rules[i].contains)))
            continue;
        out->type = rules[i].type;
        out->label = rules[i].label;
        out->user_perceived = rules[i].user;
        out->timeout_ms = rules[i].timeout_ms;
        if (strcmp(out->type, "BROADCAST_OF_INTENT") == 0) {
            /* a foreground receiver (flg= has FLAG_RECEIVER_FOREGROUND) has
             * 10 s, a background one 60 s; no flags: foreground */
            const char *f = strstr(reason, " flg=");
            unsigned long flg = f ? strtoul(f + 5, NULL, 16) : FLAG_RECEIVER_FOREGROUND;
            int fg = (flg & FLAG_RECEIVER_FOREGROUND) != 0;
            out->label = fg ? "broadcast (foreground)" : "broadcast (background)";
            out->timeout_ms = fg ? 10000 : 60000;
        }
        return;
    }
    if (process && strcmp(process, "system_server") == 0) {
        out->type = "SYSTEM_SERVER_WATCHDOG_TIMEOUT";
        out->label = "system_server watchdog";
        return;
    }
    out->type = "UNKNOWN_ANR_TYPE";
    out->label = "other";
}

/* Windows of the system UI: their ANRs are com.android.systemui's. */
static const char *const systemui_windows[] = {
    "NotificationShade", "StatusBar", "NavigationBar", "ScreenDecorOverlay", "NotificationPanel",
    "VolumeDialog", "KeyguardHost", "RecentsPanel", "TaskbarWindow", NULL,
};

static int pkg_char(int c)
{
    return isalnum(c) || c == '_' || c == '.' || c == ':';
}

int gd_anr_reason_process(const char *reason, char *out, size_t cap)
{
    if (cap)
        out[0] = 0;
    if (!reason || cap < 2)
        return 0;
    /* a component or a process record: "com.x/.Main", "cmp=com.x/.R", "1234:com.x/u0a12" */
    for (const char *p = strchr(reason, '/'); p; p = strchr(p + 1, '/')) {
        const char *b = p;
        while (b > reason && pkg_char((unsigned char)b[-1]))
            b--;
        if (b > reason && !(b[-1] == ' ' || b[-1] == '{' || b[-1] == '=' || b[-1] == '(' || b[-1] == ','))
            continue;
        /* "1234:com.x" of a ProcessRecord: the pid goes */
        const char *c = b;
        while (c < p && isdigit((unsigned char)*c))
            c++;
        if (c > b && c < p && *c == ':')
            b = c + 1;
        size_t n = (size_t)(p - b);
        if (n < 3 || !memchr(b, '.', n) || !isalpha((unsigned char)*b))
            continue;
        if (n >= cap)
            n = cap - 1;
        memcpy(out, b, n);
        out[n] = 0;
        return 1;
    }
    /* a window of the system UI: "(af4e4d2 NotificationShade (server) is not responding" */
    for (const char *const *w = systemui_windows; *w; w++) {
        const char *p = strstr(reason, *w);
        size_t n = strlen(*w);
        if (p && (p == reason || !isalnum((unsigned char)p[-1])) && !isalpha((unsigned char)p[n])) {
            size_t k = strlen("com.android.systemui");
            if (k >= cap)
                k = cap - 1;
            memcpy(out, "com.android.systemui", k);
            out[k] = 0;
            return 1;
        }
    }
    return 0;
}

int gd_anr_main_idle(const char *const *frames, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const char *f = frames[i];
        if (!f || gd_frame_is_native(f))
            continue;
        /* the first Java frame */
        return starts(f, "android.os.MessageQueue.nativePollOnce(") ||
               (starts(f, "android.os.MessageQueue.next(") && i + 1 < n && frames[i + 1] &&
                starts(frames[i + 1], "android.os.Looper.loop("));
    }
    return 0;
}

int gd_anr_waiting_state(const char *s)
{
    static const char *const words[] = {"Blocked", "MONITOR", "Waiting", "WAIT", "TimedWaiting", "TIMED_WAIT",
                                        "Sleeping", "SLEEPING", "WaitingForLockInflation", NULL};
    if (!s)
        return 0;
    for (const char *const *w = words; *w; w++)
        if (strcmp(s, *w) == 0)
            return 1;
    return 0;
}
