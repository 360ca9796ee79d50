/* capture/record.h - running adb for `godeye capture` on the chosen device and recording its files in the manifest. */
#ifndef GD_CAPTURE_RECORD_H
#define GD_CAPTURE_RECORD_H

#include <jansson.h>

#include "capture/adb.h"

typedef struct cap {
    const char *serial;  /* chosen device */
    const char *dir;
    json_t *files;       /* manifest "files" */
    json_t *warnings;
    int disconnected;
    /* a signal counter: an adb run is killed once it exceeds sig_base
     * (NULL: never), and `interrupted` set; what follows is not pulled */
    const volatile sig_atomic_t *sigs;
    long sig_base;
    int interrupted;
} cap;

/* A background adb (logcat, the sampling loop, simpleperf) writing to DIR/name,
 * and what the manifest says of it. */
typedef struct bg {
    gd_adb_bg a;
    const char *name, *what;
    json_t *cmd;
} cap_bg;

/* The command as the manifest records it (argv joined by spaces). */
json_t *gd_cap_cmd_text(const cap *c, const char *const *args);
/* adb with the chosen device (c may be NULL: none yet); as gd_adb_run. */
int gd_cap_run_adb(cap *c, const char *const *args, int out_fd, char **out, char *err, size_t errn,
                double timeout_ms);
/* adb shell with one command line (already quoted where needed). */
int gd_cap_shell(cap *c, const char *cmdline, int out_fd, char **out, char *err, size_t errn);
/* The same, never cut short by a signal (what puts the device back as it
 * was); still bounded by its timeout. */
int gd_cap_shell_always(cap *c, const char *cmdline, char *err, size_t errn);
/* Is the device still there?  (`adb -s SERIAL get-state` says "device") */
int gd_cap_device_alive(cap *c);
/* Adds a warning to the manifest. */
void gd_cap_warn(cap *c, const char *msg);
/* Runs an adb command into DIR/name and records it in the manifest.
 * Returns 0, or -1 when it failed (recorded; c->disconnected set when the
 * device is gone). */
int gd_cap_to_file(cap *c, const char *name, const char *what, const char *const *args, double timeout_ms);

void gd_cap_bg_init(cap_bg *b);
/* Starts a background adb writing to DIR/name (as gd_adb_bg_start). */
int gd_cap_bg_start(cap *c, cap_bg *b, const char *name, const char *what, const char *const *args);
/* Stops it (again: nothing) and records its file in the manifest. */
void gd_cap_bg_stop(cap *c, cap_bg *b);

/* Device clocks against the host's: wall, uptime and their offset (null when unknown). */
json_t *gd_cap_clocks(cap *c);

#endif
