/* app.h - which app a process belongs to: the package-prefix rule of
 * --app and the system processes that are never a capture's app. */
#ifndef GD_ANALYSIS_APP_H
#define GD_ANALYSIS_APP_H

#include <stddef.h>

/* 1 when process name `process` is app `pkg`'s: the name is PKG, or PKG
 * followed by ':' and a service name (Android's android:process=":svc");
 * 0 otherwise, and when either is NULL or empty.  The one home of the
 * --app rule (every command's --app; SQL gd_app_match). */
int gd_app_match(const char *process, const char *pkg);

/* 1 when `process` is a system process, never a capture's app unless the
 * user says so: system_server, surfaceflinger, zygote, init, HALs
 * (android.hardware.*, vendor.*, *@N.N-service), anything under /system,
 * /vendor, /apex, /product or /odm, kernel threads ([kthreadd],
 * kworker/...), system packages (android.*, com.android.* such as the
 * system UI, com.qualcomm.*, com.qti.*, org.codeaurora.*; also their
 * kernel names, the last 15 bytes: "ndroid.systemui") and names
 * without a '.' (daemons such as logd, adbd, servicemanager), paths
 * (beginning with '/') and names beginning with a digit or a '.'; 0 for an
 * app's package. */
int gd_app_is_system(const char *process);

/* #47: the package of process name `process`, copied to buf (n bytes):
 * PKG of "PKG:svc" (Android's android:process=":svc"), the name itself
 * when it has no ':' after its first byte; 1 when copied, 0 for NULL, ""
 * and a package longer than the buffer (never cut).  The one home of the
 * rule; SQL gd_app_package (the store registers it) is this. */
int gd_app_package(const char *process, char *buf, size_t n);

/* #47: the package a frame window names, copied to buf (n bytes): the
 * text before the first '/' of "PKG/Activity..." (a FrameTimeline layer
 * "TX - PKG/Activity#N" without its "TX - ") when it has a '.' and no
 * space; 1 when found, 0 for a window naming none (a system layer:
 * "StatusBar", "InputMethod/...", an animation leash "Surface(name=...)")
 * and for NULL.  The one window rule: SQL gd_app_of_window (the store
 * registers it) is this, for trace-app.sql's rule 5. */
int gd_app_of_window(const char *window, char *buf, size_t n);

/* 1 when a frame window is a layer the system draws whatever app it names:
 * a SurfaceFlinger animation leash ("... - animation-leash of ...", a
 * "Surface(name=...)" layer); 0 otherwise and for NULL. */
int gd_app_is_system_layer(const char *window);

#endif
