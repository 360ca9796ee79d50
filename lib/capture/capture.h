/* capture.h - `godeye capture`'s device-independent part: what may be sent to
 * `adb shell`, the commands it sends, and the parsing of adb's answers.  No
 * process is started here (the command runs adb); nothing prints. */
#ifndef GD_CAPTURE_CAPTURE_H
#define GD_CAPTURE_CAPTURE_H

#include <stddef.h>

#include "core/error.h"

/* 1 when `pkg` is a Java package name as Android takes it for an app: at
 * least two dot-separated parts, each a letter or '_' followed by letters,
 * digits or '_', at most 255 bytes.  Only such a name reaches a shell. */
int gd_capture_valid_package(const char *pkg);

/* 1 when `act` names an activity class: ".Main", "Main" or "com.x.Main"
 * (parts as in a package name, '$' allowed for nested classes). */
int gd_capture_valid_activity(const char *act);

/* Appends `s` quoted for the device's sh (POSIX single quotes, each ' as
 * '\'') to buf (size n, NUL-terminated).  Returns 0, or -1 when it does not
 * fit (buf then holds the unquoted prefix up to where it stopped). */
int gd_capture_quote(char *buf, size_t n, const char *s);

/* What `adb devices -l` says about the device to use. */
typedef enum {
    GD_DEV_OK = 0,
    GD_DEV_NONE,          /* no device listed                          */
    GD_DEV_MANY,          /* several and no serial chosen              */
    GD_DEV_UNAUTHORIZED,  /* listed as "unauthorized"                  */
    GD_DEV_OFFLINE,       /* "offline" or another state than "device"  */
    GD_DEV_NOT_FOUND      /* the chosen serial is not listed           */
} gd_dev_state;

/* Reads `adb devices -l` output.  With `serial` NULL picks the only device;
 * the chosen serial is copied to out (size n).  Fills err with the one line
 * to show when the state is not GD_DEV_OK. */
gd_dev_state gd_capture_pick_device(const char *devices_out, const char *serial, char *out, size_t n,
                                    gd_error *err);

/* The app as `dumpsys package PKG` describes it. */
typedef struct gd_capture_pkg {
    char version_name[128]; /* "" when absent */
    long long version_code; /* -1 when absent */
    long uid;               /* userId=, -1 when absent (the package is unknown) */
} gd_capture_pkg;

/* Parses `dumpsys package PKG` output (the first "Package [PKG]" section). */
void gd_capture_parse_package(const char *dumpsys_out, const char *pkg, gd_capture_pkg *out);

/* The value of `key` in `getprop` output ("[key]: [value]" lines) copied to
 * out (size n); returns 1 when listed, 0 when not (out is then ""). */
int gd_capture_getprop(const char *getprop_out, const char *key, char *out, size_t n);

/* The device clocks command: prints `date +%s.%N` then /proc/uptime. */
extern const char gd_capture_clock_cmd[];
/* Parses its output: wall clock and uptime in ms.  0, or -1 when malformed. */
int gd_capture_parse_clock(const char *out, double *wall_ms, double *uptime_ms);

/* The name of the Looper property read by the main thread of app `uid`
 * (log.looper.<uid>.main.slow) into buf. */
void gd_capture_looper_prop(char *buf, size_t n, long uid);

/* The on-device sampling loop for `adb shell`: `count` samples (0: until
 * the connection closes) every `interval_ms`, each `cat /proc/stat
 * /proc/<pid>/stat /proc/uptime` (pid <= 0: without the process file), so
 * the procstat reader reads a dated series.  -1 when buf is too small. */
int gd_capture_procstat_loop(char *buf, size_t n, long pid, long interval_ms, long count);

/* Parses a duration: "60s", "1.5s", "500ms", "2m", "1h" or a plain number
 * of seconds, into ms.  0, or -1 when not a positive duration. */
int gd_capture_parse_duration(const char *s, double *ms);

#endif
