/* app.c - the package-prefix rule of --app and the system-process rule. */
#include "analysis/app.h"

#include <string.h>

int gd_app_match(const char *process, const char *pkg)
{
    if (!process || !pkg || !*pkg)
        return 0;
    size_t n = strlen(pkg);
    return strncmp(process, pkg, n) == 0 && (process[n] == 0 || process[n] == ':');
}

static int starts(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

int gd_app_is_system(const char *process)
{
    if (!process || !*process)
        return 1;
    static const char *const prefixes[] = {
        "/system/", "/vendor/", "/apex/", "/product/", "/odm/", "[", "kworker", "android.", "com.android.",
        "vendor.", "system_server", "surfaceflinger", "zygote", "app_process", "webview_zygote",
        "com.qualcomm.", "com.qti.", "org.codeaurora.",
    };
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (starts(process, prefixes[i]))
            return 1;
    /* a kernel name (comm, 15 bytes: the name's end) of a com.android.*
     * or android.* package: "ndroid.systemui" */
    const char *dot = strchr(process, '.');
    if (strlen(process) == 15 && dot && dot > process) {
        static const char full[] = "com.android";
        size_t k = (size_t)(dot - process);
        if (k <= sizeof full - 1 && strncmp(full + sizeof full - 1 - k, process, k) == 0)
            return 1;
    }
    /* "android" itself, daemons and HAL services (…@2.0-service); a path
     * (an executable: /data/…/lib/arm64/libbusybox.so), a name that
     * begins with a digit (a kernel thread: 110f0000.drmdp) or a dot
     * (".ShannonImsService", a modem's service) is no package */
    if (strchr(process, '@') || !strchr(process, '.') || process[0] == '/' || process[0] == '.' ||
        (process[0] >= '0' && process[0] <= '9'))
        return 1;
    return 0;
}

int gd_app_package(const char *process, char *buf, size_t n)
{
    if (!process || !*process || !n)
        return 0;
    const char *colon = strchr(process, ':');
    size_t k = colon && colon > process ? (size_t)(colon - process) : strlen(process);
    if (k >= n)
        return 0;
    memcpy(buf, process, k);
    buf[k] = 0;
    return 1;
}

int gd_app_of_window(const char *window, char *buf, size_t n)
{
    if (!window || !n)
        return 0;
    if (starts(window, "TX - "))
        window += 5;
    const char *slash = strchr(window, '/');
    size_t k = slash ? (size_t)(slash - window) : 0;
    if (!k || k >= n || !memchr(window, '.', k) || memchr(window, ' ', k) || memchr(window, '(', k))
        return 0;
    memcpy(buf, window, k);
    buf[k] = 0;
    return 1;
}

int gd_app_is_system_layer(const char *window)
{
    if (!window)
        return 0;
    if (starts(window, "TX - "))
        window += 5;
    return starts(window, "Surface(") || strstr(window, "animation-leash") != NULL;
}
