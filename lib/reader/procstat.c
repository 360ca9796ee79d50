/* procstat.c - /proc/stat and /proc/<pid>/stat line parsing. */
#include "procstat.h"

#include <stdlib.h>
#include <string.h>

static int parse_u64(const char **p, uint64_t *out)
{
    const char *s = *p;
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s < '0' || *s > '9')
        return -1;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    *out = v;
    *p = end;
    return 0;
}

int gd_procstat_parse_stat(const char *line, gd_cpu_counters *c)
{
    if (strncmp(line, "cpu", 3) != 0 || (line[3] != ' ' && line[3] != '\t'))
        return -1;
    const char *p = line + 3;
    uint64_t v[8] = {0};
    int n = 0;
    while (n < 8 && parse_u64(&p, &v[n]) == 0)
        n++;
    if (n < 4)
        return -1;
    c->user = v[0];
    c->nice = v[1];
    c->system = v[2];
    c->idle = v[3];
    c->iowait = v[4];
    c->irq = v[5];
    c->softirq = v[6];
    c->steal = v[7];
    c->has_stat = 1;
    return 0;
}

int gd_procstat_parse_pid_stat(const char *line, gd_cpu_counters *c, int64_t *pid, char *comm,
                               size_t comm_len)
{
    const char *open = strchr(line, '(');
    const char *close = strrchr(line, ')');
    if (!open || !close || close < open)
        return -1;
    char *end;
    long long p = strtoll(line, &end, 10);
    if (end == line)
        return -1;
    /* after ")" come: state(3) ppid(4) ... utime is field 14 */
    const char *s = close + 1;
    int field = 2; /* comm was field 2 */
    uint64_t vals[4];
    while (*s) {
        while (*s == ' ')
            s++;
        if (!*s)
            break;
        field++;
        const char *tok = s;
        while (*s && *s != ' ')
            s++;
        if (field >= 14 && field <= 17) {
            char *e;
            long long v = strtoll(tok, &e, 10);
            if (e != s)
                return -1;
            vals[field - 14] = v < 0 ? 0 : (uint64_t)v;
            if (field == 17)
                break;
        }
    }
    if (field < 17)
        return -1;
    c->utime = vals[0];
    c->stime = vals[1];
    c->cutime = vals[2];
    c->cstime = vals[3];
    c->has_pid_stat = 1;
    if (pid)
        *pid = p;
    if (comm && comm_len) {
        size_t k = (size_t)(close - open - 1);
        if (k >= comm_len)
            k = comm_len - 1;
        memcpy(comm, open + 1, k);
        comm[k] = 0;
    }
    return 0;
}

uint64_t gd_cpu_total(const gd_cpu_counters *c)
{
    return c->user + c->nice + c->system + c->idle + c->iowait + c->irq + c->softirq;
}

uint64_t gd_cpu_busy(const gd_cpu_counters *c)
{
    return gd_cpu_total(c) - c->idle - c->iowait;
}

uint64_t gd_cpu_app(const gd_cpu_counters *c)
{
    return c->utime + c->stime + c->cutime + c->cstime;
}
