/* query/apps.h - the processes and apps of the traces: what --app can
 * match, and why an answer is empty. */
#ifndef GD_QUERY_APPS_H
#define GD_QUERY_APPS_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "store/store.h"

/* *has = 1 when `table` (a store table with a trace column, named by the
 * caller, never by the user) holds a row of f's traces; 0 or an error. */
int gd_query_has_data(gd_store *s, const char *table, const gd_filter *f, int *has, gd_error *err);

/* *missing = the first of f's trace ids the store does not hold, or -1
 * when it holds them all (a primary-key read per id, not the trace table:
 * a listing reads that once, for its clocks).  0 or an error. */
int gd_query_trace_missing(gd_store *s, const gd_filter *f, int64_t *missing, gd_error *err);

/* Of f's traces: *matched = 1 when a process of them matches f->app
 * (gd_app_match; 1 when f->app is NULL); `present` gets the apps present,
 * comma separated, each package once ("PKG:svc" is PKG, gd_app_package;
 * the non-system ones first, else the traces' apps; "none" when there are
 * none), cut to n bytes.  0 or an error. */
int gd_query_app_presence(gd_store *s, const gd_filter *f, int *matched, char *present, size_t n,
                          gd_error *err);

/* The name of process `pid` of trace `trace` (GD_SQL_PROCESS_OF's rule;
 * pid < 0, unknown: the trace's app) into buf, "" when it has none.
 * 0 or an error. */
int gd_query_process_of(gd_store *s, int64_t trace, int64_t pid, char *buf, size_t n, gd_error *err);

/* #47 default focus: the apps the traces of `set` (SQL text, "(SELECT id
 * FROM trace ...)") name (trace.app), as packages, each once ("PKG:svc"
 * is PKG, gd_app_package), system processes left out (gd_app_is_system);
 * a new JSON array, empty for none; NULL with err set on failure. */
json_t *gd_query_trace_apps(gd_store *s, const char *set, gd_error *err);

/* A row's place under the default focus (godeye-top(1), FOCUS): "app"
 * (a process of one of `apps`, gd_app_match, or no process named),
 * "system" (gd_app_is_system) or "other" (another app's). */
const char *gd_query_focus_of(const char *process, const json_t *apps);

#endif
