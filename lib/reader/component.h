/* component.h - an Android component name ("pkg/.Act", "pkg/pkg.Act") split
 * into the package and the full class name.
 *
 * Header-only (static inline) so that the readers that meet component names
 * (logcat's Displayed lines, am start -W output) share one rule. */
#ifndef GD_READER_COMPONENT_H
#define GD_READER_COMPONENT_H

#include <stddef.h>
#include <string.h>

/* Splits s[0..n) = "pkg/cls" into NUL-terminated `app` (the package) and
 * `act` (the class; a leading '.' is expanded with the package, as
 * ComponentName.flattenToShortString() shortens it).  Returns 0, or -1 when
 * the text is not "pkg/cls" with both parts non-empty and free of spaces,
 * or a part does not fit its buffer (the buffers are then undefined). */
static inline int gd_component_split(const char *s, size_t n, char *app, size_t app_cap, char *act,
                                     size_t act_cap)
{
    const char *slash = memchr(s, '/', n);
    if (!slash || slash == s || slash + 1 == s + n || memchr(s, ' ', n))
        return -1;
    size_t pn = (size_t)(slash - s), cn = n - pn - 1;
    const char *cls = slash + 1;
    if (memchr(cls, '/', cn) || pn >= app_cap)
        return -1;
    memcpy(app, s, pn);
    app[pn] = 0;
    size_t pre = cls[0] == '.' ? pn : 0;
    if (pre + cn >= act_cap)
        return -1;
    memcpy(act, s, pre);
    memcpy(act + pre, cls, cn);
    act[pre + cn] = 0;
    return 0;
}

#endif
