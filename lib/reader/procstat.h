/* procstat.h - parsing /proc/stat and /proc/<pid>/stat lines into counters. */
#ifndef GD_READER_PROCSTAT_H
#define GD_READER_PROCSTAT_H

#include <stddef.h>
#include <stdint.h>

#include "core/event.h"

/* Parses the aggregate "cpu  user nice system idle iowait irq softirq steal
 * ..." line (at least four fields).  Sets c->has_stat.  0 ok, -1 not such a
 * line (c untouched). */
int gd_procstat_parse_stat(const char *line, gd_cpu_counters *c);

/* Parses a /proc/<pid>/stat line.  `comm` is between the first '(' and the
 * LAST ')' (it may hold spaces and parentheses); utime, stime, cutime, cstime
 * are fields 14-17.  Sets c->has_pid_stat; *pid and comm (NUL-terminated,
 * truncated to comm_len) when non-NULL.  0 ok, -1 malformed. */
int gd_procstat_parse_pid_stat(const char *line, gd_cpu_counters *c, int64_t *pid, char *comm,
                               size_t comm_len);

/* total = user+nice+system+idle+iowait+irq+softirq (steal excluded, as the
 * capture format defines); busy = total - idle - iowait. */
uint64_t gd_cpu_total(const gd_cpu_counters *c);
uint64_t gd_cpu_busy(const gd_cpu_counters *c);
/* app jiffies = utime + stime + cutime + cstime. */
uint64_t gd_cpu_app(const gd_cpu_counters *c);

#endif
