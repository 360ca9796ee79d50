/* error.c - filling and formatting gd_error records. */
#include "error.h"

#include <stdio.h>
#include <string.h>

void gd_error_clear(gd_error *e)
{
    if (!e)
        return;
    memset(e, 0, sizeof *e);
}

int gd_error_set(gd_error *e, int code, long line, long col, const char *fmt, ...)
{
    if (!e)
        return code;
    va_list ap;
    e->code = code;
    e->line = line;
    e->col = col;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    return code;
}

const char *gd_error_format(const gd_error *e, char *buf, unsigned long n)
{
    if (!e->source[0])
        snprintf(buf, n, "%s", e->msg);
    else if (e->line > 0 && e->col > 0)
        snprintf(buf, n, "'%s':%ld:%ld: %s", e->source, e->line, e->col, e->msg);
    else if (e->line > 0)
        snprintf(buf, n, "'%s':%ld: %s", e->source, e->line, e->msg);
    else
        snprintf(buf, n, "'%s': %s", e->source, e->msg);
    return buf;
}

int gd_error_oom_at(gd_error *e, long line, long col)
{
    return gd_error_set(e, GD_ERR_NOMEM, line, col, GD_ERR_NOMEM_MSG);
}

int gd_error_oom(gd_error *e) { return gd_error_oom_at(e, 0, 0); }
