/* adb.h - running adb for `godeye capture`: argument vectors through
 * posix_spawnp (never a shell on the host), stdout to a file or memory,
 * timeouts, and background collectors (logcat, on-device loops).  Nothing
 * here prints; every child runs in its own process group, so a terminal's
 * Ctrl-C reaches the caller and not adb. */
#ifndef GD_CAPTURE_ADB_H
#define GD_CAPTURE_ADB_H

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

/* Most arguments after "adb [-s SERIAL]". */
#define GD_ADB_MAX_ARGS 12

/* "adb" [-s serial] args... into av (GD_ADB_MAX_ARGS + 4 slots), NULL-ended. */
void gd_adb_argv(const char *serial, const char *const *args, const char **av);
/* The same joined by spaces into buf (cut to n), for the manifest. */
void gd_adb_cmdline(const char *serial, const char *const *args, char *buf, size_t n);

/* Runs adb with args to its end, or kills it after timeout_ms.  stdout
 * goes to out_fd when >= 0, else into *out (NUL-terminated, at most 8 MiB;
 * free it; may be NULL to drop it).  errtext (n bytes, may be NULL) gets
 * stderr's first line, or why adb could not be run or was killed.  Returns
 * adb's exit status (0..255), or -1 when it could not be started or did
 * not end by itself. */
int gd_adb_run(const char *serial, const char *const *args, int out_fd, char **out, char *errtext, size_t n,
               double timeout_ms);
/* As gd_adb_run, and adb is killed as soon as *count (a signal counter;
 * NULL: never) exceeds base: -1, errtext "interrupted", *interrupted = 1
 * (may be NULL).  A Ctrl-C never waits for a hung adb's timeout. */
int gd_adb_run_until(const char *serial, const char *const *args, int out_fd, char **out, char *errtext, size_t n,
                     double timeout_ms, const volatile sig_atomic_t *count, long base, int *interrupted);

/* A background adb writing its stdout to a file, which the caller can
 * count lines in while it grows. */
typedef struct gd_adb_bg {
    pid_t pid;      /* -1: not running (never started, ended and reaped) */
    int rfd;        /* the file opened for reading, -1 when closed       */
    long lines;     /* complete lines written so far                     */
    long samples;   /* lines starting with "cpu " (procstat samples)     */
    int at_bol;
} gd_adb_bg;

/* An idle collector (for one that may never start). */
void gd_adb_bg_init(gd_adb_bg *b);
/* Starts adb with args, stdout to path (created or truncated).  0, or -1
 * (errno set) when the file or the process could not be made. */
int gd_adb_bg_start(gd_adb_bg *b, const char *serial, const char *const *args, const char *path);
/* Reads what was written since the last call and updates the counts. */
void gd_adb_bg_count(gd_adb_bg *b);
/* 1 when it is not running (it ended by itself, or never started). */
int gd_adb_bg_done(gd_adb_bg *b);
/* Stops it (SIGTERM, SIGKILL after 1 s), reaps it, counts the rest and
 * closes the file; safe to call again. */
void gd_adb_bg_stop(gd_adb_bg *b);

/* CLOCK_MONOTONIC in ms. */
double gd_adb_mono_ms(void);

#endif
