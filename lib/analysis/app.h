/* app.h - which app a process belongs to: the package-prefix rule of
 * --app and the system processes that are never a capture's app. */
#ifndef GD_ANALYSIS_APP_H
#define GD_ANALYSIS_APP_H

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
 * without a '.' (daemons such as logd, adbd, servicemanager); 0 for an
 * app's package. */
int gd_app_is_system(const char *process);

#endif
