/* ingest/findings.c - issues, marks and gfxinfo summaries into their typed tables at ingest. */
#include "ingest/findings.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/frames.h"
#include "store/sql.h"

static const char *const issue_sql =
    "INSERT INTO issue(id, trace, tool, type, detail, cost_ms, content) VALUES (?,?,?,?,?,?,?)";
/* the drop columns in gd_drop_level order: best .. frozen */
static const char *const fps_sql =
    "INSERT INTO issue_fps(id, trace, scene, fps, best_frames, normal_frames, middle_frames,"
    " high_frames, frozen_frames, best_dropped, normal_dropped, middle_dropped, high_dropped,"
    " frozen_dropped) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
static const char *const mark_sql = "INSERT INTO mark(id, trace, name) VALUES (?,?,?)";
static const char *const summary_sql = "INSERT INTO frame_summary(id, trace, window) VALUES (?,?,?)";
static const char *const figure_sql =
    "INSERT INTO frame_figure(summary, trace, seq, name, value) VALUES (?,?,?,?,?)";

_Static_assert(GD_DROP__COUNT == 5, "issue_fps has five drop levels");

static const char *str_of(const json_t *o, const char *k)
{
    return json_string_value(json_object_get(o, k));
}

/* Binds a JSON value as SQLite's json_extract returns it: text, integer,
 * real, 1/0 for booleans, compact JSON text for objects and arrays, NULL
 * for null or absent.  *owned: text to free after the step. */
static void bind_json(sqlite3_stmt *st, int i, const json_t *v, char **owned)
{
    *owned = NULL;
    if (json_is_string(v))
        sqlite3_bind_text(st, i, json_string_value(v), (int)json_string_length(v), SQLITE_STATIC);
    else if (json_is_integer(v))
        sqlite3_bind_int64(st, i, json_integer_value(v));
    else if (json_is_real(v))
        sqlite3_bind_double(st, i, json_real_value(v));
    else if (json_is_boolean(v))
        sqlite3_bind_int(st, i, json_is_true(v));
    else if (v && !json_is_null(v) && (*owned = json_dumps(v, JSON_COMPACT)))
        sqlite3_bind_text(st, i, *owned, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, i);
}

static void bind_count(sqlite3_stmt *st, int i, const json_t *v)
{
    if (json_is_integer(v))
        sqlite3_bind_int64(st, i, json_integer_value(v));
    else
        sqlite3_bind_null(st, i);
}

/* A Matrix Trace_FPS issue's figures: the scene, the fps and the frames
 * (dropLevel) and dropped frames (dropSum) per drop level, from its
 * content as Matrix reports it. */
static int put_fps(gd_store *s, int64_t trace, int64_t id, const json_t *content, gd_error *err)
{
    sqlite3_stmt *st = gd_store_cached(s, fps_sql, err);
    if (!st)
        return err->code;
    char *scene = NULL;
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_int64(st, 2, trace);
    bind_json(st, 3, json_object_get(content, "scene"), &scene);
    const json_t *fps = json_object_get(content, "fps");
    if (json_is_number(fps))
        sqlite3_bind_double(st, 4, json_number_value(fps));
    const json_t *dl = json_object_get(content, "dropLevel"), *ds = json_object_get(content, "dropSum");
    for (int l = 0; l < GD_DROP__COUNT; l++) {
        const char *k = gd_drop_level_matrix_key((gd_drop_level)l);
        bind_count(st, 5 + l, json_object_get(dl, k));
        bind_count(st, 5 + GD_DROP__COUNT + l, json_object_get(ds, k));
    }
    int rc = gd_store_step(s, st, err);
    gd_store_release(s, st);
    free(scene);
    return rc;
}

static int put_issue(gd_store *s, int64_t trace, int64_t id, const json_t *o, gd_error *err)
{
    const json_t *content = json_object_get(o, "content");
    char *text = content ? json_dumps(content, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
    if (content && !text)
        return gd_error_oom(err);
    sqlite3_stmt *st = gd_store_cached(s, issue_sql, err);
    if (!st) {
        free(text);
        return err->code;
    }
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_int64(st, 2, trace);
    gd_bind_text(st, 3, str_of(o, "tool"));
    gd_bind_text(st, 4, str_of(o, "issue_type"));
    gd_bind_text(st, 5, str_of(o, "detail"));
    const json_t *cost = json_object_get(o, "cost");
    if (json_is_number(cost))
        sqlite3_bind_double(st, 6, json_number_value(cost));
    gd_bind_text(st, 7, text);
    int rc = gd_store_step(s, st, err);
    gd_store_release(s, st);
    free(text);
    const char *tool = str_of(o, "tool"), *type = str_of(o, "issue_type");
    if (!rc && tool && type && strcmp(tool, "matrix") == 0 && strcmp(type, "Trace_FPS") == 0)
        rc = put_fps(s, trace, id, content, err);
    return rc;
}

/* A row (id, trace, text) of `sql`: a mark's name, a summary's window. */
static int put_named(gd_store *s, const char *sql, int64_t trace, int64_t id, const char *text,
                     gd_error *err)
{
    sqlite3_stmt *st = gd_store_cached(s, sql, err);
    if (!st)
        return err->code;
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_int64(st, 2, trace);
    gd_bind_text(st, 3, text);
    int rc = gd_store_step(s, st, err);
    gd_store_release(s, st);
    return rc;
}

static int put_summary(gd_store *s, int64_t trace, int64_t id, const json_t *o, gd_error *err)
{
    int rc = put_named(s, summary_sql, trace, id, str_of(o, "window"), err);
    const json_t *figures = json_object_get(o, "figures");
    if (rc || !json_is_object(figures))
        return rc;
    sqlite3_stmt *st = gd_store_cached(s, figure_sql, err);
    if (!st)
        return err->code;
    const char *name;
    json_t *value;
    int64_t seq = 0;
    json_object_foreach((json_t *)figures, name, value) {
        sqlite3_bind_int64(st, 1, id);
        sqlite3_bind_int64(st, 2, trace);
        sqlite3_bind_int64(st, 3, seq++);
        sqlite3_bind_text(st, 4, name, -1, SQLITE_STATIC);
        gd_bind_text(st, 5, json_string_value(value));
        if ((rc = gd_store_step(s, st, err)))
            break;
    }
    gd_store_release(s, st);
    return rc;
}

int gd_findings_put(gd_store *s, int64_t trace, int64_t raw_id, gd_event_kind kind, const json_t *ev_json,
                    gd_error *err)
{
    switch (kind) {
    case GD_EV_ISSUE:
        return put_issue(s, trace, raw_id, ev_json, err);
    case GD_EV_FRAME_SUMMARY:
        return put_summary(s, trace, raw_id, ev_json, err);
    case GD_EV_MARK:
        return put_named(s, mark_sql, trace, raw_id, str_of(ev_json, "name"), err);
    default:
        return GD_OK;
    }
}
