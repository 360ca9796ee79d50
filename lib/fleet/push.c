/* push.c - streaming a store's traces into ClickHouse, batch by batch (TabSeparated). */
#include "push.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fleet/export.h"

/* A JSONEachRow body is sent when it reaches this size, before its batch
 * is full (TabSeparated rows are streamed: they need no such cap). */
#define JSON_MAX (8u << 20)

typedef struct batcher {
    gd_ch *c;
    const char *table;
    size_t batch;
    char *buf;
    size_t len, cap;
    size_t rows;              /* rows in buf                              */
    long long sent;           /* rows of this table accepted so far        */
    long long seen;           /* rows given by the store so far            */
    gd_error *err;
    int rc;
} batcher;

static int flush(batcher *b)
{
    if (!b->rows)
        return GD_OK;
    b->rc = gd_ch_insert(b->c, b->table, b->buf, b->len, b->err);
    if (b->rc)
        return b->rc; /* rows stay counted for the error message */
    b->sent += (long long)b->rows;
    b->len = b->rows = 0;
    return GD_OK;
}

static int on_row(void *ctx, json_t *row)
{
    batcher *b = ctx;
    char *line = json_dumps(row, JSON_COMPACT | JSON_REAL_PRECISION(17));
    if (!line) {
        b->rc = gd_error_oom(b->err);
        return 1;
    }
    size_t n = strlen(line);
    if (b->len + n + 1 > b->cap) {
        size_t nc = b->cap ? b->cap : 1 << 20;
        while (nc < b->len + n + 1)
            nc *= 2;
        char *nb = realloc(b->buf, nc);
        if (!nb) {
            free(line);
            b->rc = gd_error_oom(b->err);
            return 1;
        }
        b->buf = nb;
        b->cap = nc;
    }
    memcpy(b->buf + b->len, line, n);
    b->seen++;
    b->buf[b->len + n] = '\n';
    b->len += n + 1;
    free(line);
    if ((++b->rows >= b->batch || b->len >= JSON_MAX) && flush(b))
        return 1;
    return 0;
}

/* The TabSeparated stream of one table's rows: INSERTs of up to `batch`
 * rows whose body is read from the store while it is sent. */
typedef struct sender {
    batcher *b;
    gd_fleet_export_rows *r;
    gd_tsv tsv;               /* rendered rows, from `off` not yet sent    */
    size_t off;
    gd_tsv json;              /* rows without a TabSeparated form          */
    size_t rows, jrows;       /* of this INSERT                            */
    int done;
} sender;

/* Reads rows until `want` bytes wait or the batch is full; 0 or an error. */
static int refill(sender *w, size_t want)
{
    while (w->tsv.len - w->off < want && !w->done && w->rows + w->jrows < w->b->batch &&
           w->json.len < JSON_MAX) {
        int k = gd_fleet_export_rows_next(w->r, &w->tsv, &w->json, w->b->err);
        if (k < 0)
            return w->b->rc = w->b->err->code;
        if (w->tsv.oom || w->json.oom)
            return w->b->rc = gd_error_oom(w->b->err);
        w->done = k == 0;
        w->rows += k == 1;
        w->jrows += k == 2;
    }
    return GD_OK;
}

static size_t fill(void *ctx, char *buf, size_t n)
{
    sender *w = ctx;
    if (w->off) { /* keep the unsent bytes at the start */
        memmove(w->tsv.p, w->tsv.p + w->off, w->tsv.len - w->off);
        w->tsv.len -= w->off;
        w->off = 0;
    }
    if (refill(w, n))
        return GD_CH_FILL_ABORT;
    size_t k = w->tsv.len < n ? w->tsv.len : n;
    memcpy(buf, w->tsv.p, k);
    w->off = k;
    return k;
}

/* The ClickHouse columns of each exported table, read once per push. */
typedef struct ch_table {
    char table[32];
    int n;
    char name[32][32];
    gd_tsv_col col[32];
} ch_table;

typedef struct ch_tables {
    int loaded;
    ch_table t[16];
    size_t n;
} ch_tables;

static int load_columns(gd_ch *c, ch_tables *ts, gd_error *err)
{
    char q[1024], ans[16384];
    size_t used = (size_t)snprintf(q, sizeof q, "SELECT table, name, type FROM system.columns WHERE"
                                                " database = currentDatabase() AND table IN (");
    const char *const *names = gd_fleet_export_tables();
    for (size_t i = 0; names[i] && used < sizeof q; i++)
        used += (size_t)snprintf(q + used, sizeof q - used, "%s'%s'", i ? ", " : "", names[i]);
    if (used < sizeof q)
        snprintf(q + used, sizeof q - used, ") FORMAT TabSeparated");
    int rc = gd_ch_query(c, q, ans, sizeof ans, err);
    if (rc)
        return rc;
    ts->loaded = 1;
    if (strlen(ans) >= sizeof ans - 1)
        return GD_OK; /* cut: no types, every table as JSONEachRow */
    for (char *line = ans; *line;) {
        char *nl = strchr(line, '\n'), *name = strchr(line, '\t');
        char *type = name ? strchr(name + 1, '\t') : NULL;
        if (nl)
            *nl = 0;
        if (type) {
            *name++ = 0;
            *type++ = 0;
            ch_table *t = NULL;
            for (size_t i = 0; i < ts->n && !t; i++)
                if (strcmp(ts->t[i].table, line) == 0)
                    t = &ts->t[i];
            if (!t && ts->n < sizeof ts->t / sizeof ts->t[0]) {
                t = &ts->t[ts->n++];
                snprintf(t->table, sizeof t->table, "%s", line);
            }
            if (t && t->n < 32) {
                snprintf(t->name[t->n], sizeof t->name[0], "%s", name);
                t->col[t->n++] = gd_tsv_col_of(type);
            }
        }
        line = nl ? nl + 1 : line + strlen(line);
    }
    return GD_OK;
}

/* The table's columns on the server (NULL when it has none known). */
static int table_columns(gd_ch *c, ch_tables *ts, const char *table, ch_table **out, gd_error *err)
{
    *out = NULL;
    int rc = ts->loaded ? GD_OK : load_columns(c, ts, err);
    for (size_t i = 0; !rc && i < ts->n; i++)
        if (strcmp(ts->t[i].table, table) == 0)
            *out = &ts->t[i];
    return rc;
}

/* The ClickHouse types of r's columns and their list "a, b, ..."; 0 when a
 * column is not in the table (its rows then go as JSONEachRow, as before). */
static int match_columns(gd_fleet_export_rows *r, const ch_table *t, char *list, size_t n)
{
    gd_tsv_col cols[32];
    size_t used = 0;
    list[0] = 0;
    for (int i = 0; i < gd_fleet_export_rows_ncols(r); i++) {
        const char *name = gd_fleet_export_rows_name(r, i);
        int j = 0;
        while (j < t->n && strcmp(t->name[j], name) != 0)
            j++;
        if (j == t->n || i >= 32)
            return 0;
        cols[i] = t->col[j];
        used += (size_t)snprintf(list + used, used < n ? n - used : 0, "%s%s", i ? ", " : "", name);
    }
    gd_fleet_export_rows_types(r, cols);
    return used < n;
}

/* Every column of the export the server's tables lack although the schema
 * has them (tables made by an older godeye: CREATE ... IF NOT EXISTS keeps
 * them), gathered over all tables before one error (#53 item 9: it named
 * one table a run). */
typedef struct lacking {
    char alter[420];     /* "ALTER TABLE t ADD COLUMN a T, ADD COLUMN b T; ALTER TABLE u ..." */
    size_t used;
    int columns, tables, fits;
} lacking;

static void lack_add(lacking *l, const char *text)
{
    size_t k = strlen(text);
    if (!l->fits || l->used + k >= sizeof l->alter) {
        l->fits = 0;
        return;
    }
    memcpy(l->alter + l->used, text, k + 1);
    l->used += k;
}

static void missing_columns(gd_fleet_export_rows *r, const ch_table *t, const char *table, lacking *l)
{
    int here = 0;
    for (int i = 0; i < gd_fleet_export_rows_ncols(r); i++) {
        const char *name = gd_fleet_export_rows_name(r, i);
        int j = 0;
        while (j < t->n && strcmp(t->name[j], name) != 0)
            j++;
        char type[64], piece[200];
        if (j < t->n || gd_ch_column_type(table, name, type, sizeof type))
            continue;
        if (here)
            snprintf(piece, sizeof piece, ", ADD COLUMN %s %s", name, type);
        else
            snprintf(piece, sizeof piece, "%sALTER TABLE %s ADD COLUMN %s %s", l->tables ? "; " : "", table, name,
                     type);
        lack_add(l, piece);
        here++;
        l->columns++;
    }
    l->tables += here > 0;
}

static int lacking_error(const lacking *l, gd_error *err)
{
    return gd_error_set(err, GD_ERR_DATA, 0, 0,
                        "%d table%s lack%s %d column%s of this godeye (made by an older one): add them once with %s%s",
                        l->tables, l->tables > 1 ? "s" : "", l->tables > 1 ? "" : "s", l->columns,
                        l->columns > 1 ? "s" : "", l->alter, l->fits ? "" : "; ... (see docs/fleet.md)");
}

typedef struct trace_list {
    int64_t *id;
    char (*uid)[40];
    size_t n, cap;
} trace_list;

static int on_trace(void *ctx, json_t *row)
{
    trace_list *l = ctx;
    if (l->n == l->cap) {
        size_t nc = l->cap ? l->cap * 2 : 16;
        int64_t *ni = realloc(l->id, nc * sizeof *ni);
        if (ni)
            l->id = ni;
        char(*nu)[40] = realloc(l->uid, nc * sizeof *nu);
        if (nu)
            l->uid = nu;
        if (!ni || !nu)
            return 1;
        l->cap = nc;
    }
    l->id[l->n] = json_integer_value(json_object_get(row, "trace"));
    snprintf(l->uid[l->n], sizeof l->uid[0], "%s", json_string_value(json_object_get(row, "trace_uid")));
    l->n++;
    return 0;
}

/* "dispatches 7, blocks 6" of what was accepted for the trace so far. */
static void sent_summary(json_t *tables, char *out, size_t n)
{
    const char *k;
    json_t *v;
    size_t used = 0;
    out[0] = 0;
    json_object_foreach(tables, k, v)
        if (used < n)
            used += (size_t)snprintf(out + used, n - used, "%s%s %lld", used ? ", " : "", k,
                                     (long long)json_integer_value(v));
    if (!used)
        snprintf(out, n, "nothing");
}

/* One table of a trace: TabSeparated when the store gives its rows one by
 * one and ClickHouse has their columns (r), else JSONEachRow. */
typedef struct shipment {
    const char *table;
    gd_fleet_export_rows *r;
    char columns[1024];
    long long sent;           /* rows the server took                      */
    long long rows;           /* of the INSERT that failed                 */
    long long *per;           /* JSONEachRow: rows of each trace           */
    int started;
} shipment;

/* The shipments the lanes take, in order, each as soon as one is free. */
typedef struct queue {
    shipment **tab;
    size_t n, next;
} queue;

/* A lane of gd_ch_insert_lanes: TabSeparated INSERTs of up to `batch` rows
 * one after another, each followed by one of the batch's rows that have no
 * TabSeparated form, if any (JSONEachRow). */
typedef struct lane {
    queue *q;
    shipment *cur;            /* the one being sent                         */
    batcher b;                /* batch, err, rc for refill                 */
    sender w;
    int json;                 /* the INSERT under way carries w.json's rows */
    long long json_rows;
} lane;

static int lane_next(void *ctx, gd_ch_request *req)
{
    lane *l = ctx;
    sender *w = &l->w;
    for (;;) {
        shipment *t = l->cur;
        if (!t) {
            if (l->q->next == l->q->n)
                return 0;
            t = l->cur = l->q->tab[l->q->next++];
            t->started = 1;
            w->r = t->r; /* the buffers are empty after each INSERT (lane_done) */
            w->done = 0;
        }
        l->json = w->jrows > 0;
        if (l->json) {
            t->rows = (long long)w->jrows;
            *req = (gd_ch_request){.table = t->table, .body = w->json.p, .n = w->json.len};
            return 1;
        }
        if (w->done) {
            l->cur = NULL;
            continue;
        }
        w->rows = 0;
        if (refill(w, 1))
            return -1;
        if (w->rows) {
            t->rows = (long long)w->rows;
            *req = (gd_ch_request){.table = t->table, .columns = t->columns, .fill = fill, .ctx = w};
            return 1;
        }
    }
}

static int lane_done(void *ctx, int rc)
{
    lane *l = ctx;
    sender *w = &l->w;
    shipment *t = l->cur;
    if (rc == GD_ERR_ABORT && l->b.rc)
        rc = l->b.rc; /* the store's error, in the lane's err */
    if (l->json) {
        w->json.len = 0;
        if (!rc) {
            t->sent += (long long)w->jrows;
            l->json_rows += (long long)w->jrows;
            w->jrows = 0;
        }
    } else {
        w->tsv.len = w->off = 0;
        t->rows = (long long)w->rows;
        if (!rc)
            t->sent += (long long)w->rows;
    }
    if (!rc)
        t->rows = 0;
    return rc;
}

/* Sends shipments tab[0..n) in TabSeparated on up to two lanes, each
 * taking the next one when it is free, so that the server parses and
 * stores one while the store reads another.  *failed: the one that failed. */
static int send_tsv(gd_ch *c, shipment **tab, size_t n, size_t batch, gd_push_report *rep,
                    shipment **failed, gd_error *err)
{
    if (!n)
        return GD_OK;
    queue q = {tab, n, 0};
    lane l[GD_CH_LANES] = {0};
    gd_ch_lane io[GD_CH_LANES] = {0};
    size_t nl = n < GD_CH_LANES ? n : GD_CH_LANES;
    for (size_t i = 0; i < nl; i++) {
        io[i] = (gd_ch_lane){.next = lane_next, .done = lane_done, .ctx = &l[i]};
        l[i].q = &q;
        l[i].b = (batcher){.batch = batch, .err = &io[i].err};
        l[i].w.b = &l[i].b;
    }
    size_t bad = 0;
    int rc = gd_ch_insert_lanes(c, io, nl, &bad, err);
    if (rc)
        *failed = l[bad].cur;
    for (size_t i = 0; i < nl; i++) {
        rep->json_rows += l[i].json_rows;
        gd_tsv_free(&l[i].w.tsv);
        gd_tsv_free(&l[i].w.json);
    }
    return rc;
}

/* Sends a table in JSONEachRow, batch by batch. */
static int send_json(gd_store *s, gd_ch *c, const int64_t *ids, size_t ng, shipment *t, batcher *b,
                     size_t batch, gd_push_report *rep, gd_error *err)
{
    *b = (batcher){.c = c, .table = t->table, .batch = batch, .buf = b->buf, .cap = b->cap, .err = err};
    t->started = 1;
    int rc = GD_OK;
    for (size_t i = 0; i < ng && !rc; i++) {
        long long before = b->seen;
        rc = gd_fleet_export(s, t->table, ids[i], on_row, b, err);
        t->per[i] = b->seen - before;
    }
    if (rc == GD_ERR_ABORT)
        rc = b->rc;
    else if (!rc)
        rc = flush(b);
    t->sent = b->sent;
    t->rows = rc ? (long long)b->rows : 0;
    rep->json_rows += b->sent;
    return rc;
}

/* The trace's tables: every TabSeparated one but the last in lanes, then
 * the JSONEachRow ones, then the last (traces: its row says the trace is
 * complete, so it goes only once the others are in). */
static int push_tables(gd_store *s, gd_ch *c, const int64_t *ids, size_t ng, size_t batch, shipment *sh,
                       size_t n, batcher *b, gd_push_report *rep, shipment **failed, gd_error *err)
{
    shipment *tsv[16];
    size_t nt = 0;
    for (size_t i = 0; i + 1 < n; i++)
        if (sh[i].r)
            tsv[nt++] = &sh[i];
    int rc = send_tsv(c, tsv, nt, batch, rep, failed, err);
    for (size_t i = 0; i + 1 < n && !rc; i++)
        if (!sh[i].r && (rc = send_json(s, c, ids, ng, &sh[i], b, batch, rep, err)))
            *failed = &sh[i];
    shipment *last = &sh[n - 1];
    if (!rc && last->r)
        rc = send_tsv(c, &last, 1, batch, rep, failed, err);
    else if (!rc && (rc = send_json(s, c, ids, ng, last, b, batch, rep, err)))
        *failed = last;
    return rc;
}

/* The tags `godeye ingest --set` sets (version, app, device, build) as
 * the traces row holds them: a trace the server holds with other values
 * is sent again (#53 item 9: the content hash ignores them). */
static const char *const tag_cols[] = {"app", "version_name", "version_code", "device", "build"};
#define NTAGS (sizeof tag_cols / sizeof tag_cols[0])

typedef struct tags_seen {
    json_t *local;            /* the trace's traces row here               */
    long long rows;           /* its traces rows on the server             */
    int differ;
    char what[160];           /* "version_name '1.0' there, '1.1' here"    */
} tags_seen;

static int on_local_row(void *ctx, json_t *row)
{
    tags_seen *t = ctx;
    json_decref(t->local);
    t->local = json_incref(row);
    return 0;
}

static void tag_text(const json_t *v, char *out, size_t n)
{
    if (json_is_string(v))
        snprintf(out, n, "'%.40s'", json_string_value(v));
    else if (json_is_integer(v))
        snprintf(out, n, "%lld", (long long)json_integer_value(v));
    else
        snprintf(out, n, "none");
}

static int on_server_row(void *ctx, json_t *row)
{
    tags_seen *t = ctx;
    t->rows++;
    for (size_t i = 0; i < NTAGS && !t->differ; i++) {
        json_t *here = json_object_get(t->local, tag_cols[i]), *there = json_object_get(row, tag_cols[i]);
        int same = json_is_null(here) || !here ? json_is_null(there) || !there : json_equal(here, there);
        if (!same) {
            char a[64], b[64];
            tag_text(there, a, sizeof a);
            tag_text(here, b, sizeof b);
            snprintf(t->what, sizeof t->what, "%s %s there, %s here", tag_cols[i], a, b);
            t->differ = 1;
        }
    }
    return 0;
}

/* Whether the server holds the trace: 0 (no), 1 (with the same tags), 2
 * (with other tags, said in t->what); `there`: its traces rows there. */
static int server_holds(gd_store *s, int64_t trace, json_t *there, tags_seen *t, gd_error *err)
{
    if (!json_array_size(there))
        return 0;
    int rc = gd_fleet_export(s, "traces", trace, on_local_row, t, err);
    if (rc)
        return -rc;
    size_t i;
    json_t *row;
    json_array_foreach(there, i, row)
        on_server_row(t, row);
    return t->differ ? 2 : 1;
}

/* Traces asked about per query (a uid is 32 hex digits: about 18 KB). */
#define HELD_PER_QUERY 500

static int on_held(void *ctx, json_t *row)
{
    json_t *held = ctx, *uid = json_object_get(row, "trace_uid");
    if (!json_is_string(uid))
        return 0;
    json_t *rows = json_object_get(held, json_string_value(uid));
    if (!rows && json_object_set_new(held, json_string_value(uid), rows = json_array()))
        return 1;
    return json_array_append(rows, row);
}

static int bad_uid(int64_t trace, const char *uid, gd_error *err)
{
    for (const char *p = uid; *p; p++)
        if (!strchr("0123456789abcdefABCDEF", *p))
            return gd_error_set(err, GD_ERR_DATA, 0, 0, "trace %lld: bad content hash '%s'",
                                (long long)trace, uid);
    return GD_OK;
}

/* The server's traces rows of uid[0..n) into held ({uid: [rows]}): one
 * query per HELD_PER_QUERY traces rather than one per trace (#53 item 9). */
static int load_held(gd_ch *c, int64_t *id, char (*uid)[40], size_t n, json_t *held, gd_error *err)
{
    int rc = GD_OK;
    size_t cap = 160 + HELD_PER_QUERY * 44;
    char *q = malloc(cap);
    if (!q)
        return gd_error_oom(err);
    for (size_t i = 0; i < n && !rc; i += HELD_PER_QUERY) {
        size_t used = (size_t)snprintf(q, cap, "SELECT trace_uid, app, version_name, version_code, device,"
                                               " build FROM traces WHERE trace_uid IN (");
        for (size_t k = i; k < n && k < i + HELD_PER_QUERY && !rc; k++) {
            rc = bad_uid(id[k], uid[k], err);
            used += (size_t)snprintf(q + used, cap - used, "%s'%.39s'", k > i ? ", " : "", uid[k]);
        }
        snprintf(q + used, cap - used, ")");
        if (!rc && (rc = gd_ch_select(c, q, on_held, held, err)) == GD_ERR_ABORT)
            rc = gd_error_oom(err);
    }
    free(q);
    return rc;
}

/* Longest a retagged trace's deletion may take on the server. */
#define DELETE_WAIT_S 120

/* Deletes the trace's rows from every table, `traces` last (until its row
 * is gone a new push sees the other tags and deletes again; once it is
 * gone every other deletion was registered, and rows inserted after a
 * deletion are not touched by it), then waits until the server has
 * carried them out, so that no answer counts the old rows with the new. */
static int delete_trace(gd_ch *c, int64_t trace, const char *uid, const char *what, gd_error *err)
{
    char q[1024];
    int rc = GD_OK;
    for (const char *const *t = gd_fleet_export_tables(); *t && !rc; t++) {
        snprintf(q, sizeof q, "ALTER TABLE %s DELETE WHERE trace_uid = '%s'", *t, uid);
        rc = gd_ch_query(c, q, NULL, 0, err);
    }
    size_t used = (size_t)snprintf(q, sizeof q, "SELECT count() FROM system.mutations WHERE"
                                                " database = currentDatabase() AND NOT is_done AND table IN (");
    const char *const *names = gd_fleet_export_tables();
    for (size_t i = 0; names[i] && used < sizeof q; i++)
        used += (size_t)snprintf(q + used, sizeof q - used, "%s'%s'", i ? ", " : "", names[i]);
    if (used < sizeof q)
        snprintf(q + used, sizeof q - used, ")");
    for (int waited = 0; !rc; waited += 50) {
        char ans[64];
        if ((rc = gd_ch_query(c, q, ans, sizeof ans, err)))
            break;
        if (atoll(ans) == 0)
            return GD_OK;
        if (waited >= DELETE_WAIT_S * 1000)
            return gd_error_set(err, GD_ERR_IO, 0, 0,
                                "trace %lld ('%s') is on the server with other tags (%s): its old rows were"
                                " not deleted within %d s; push again once system.mutations shows them done",
                                (long long)trace, uid, what, DELETE_WAIT_S);
        usleep(50000);
    }
    char msg[sizeof err->msg];
    snprintf(msg, sizeof msg,
             "trace %lld ('%.40s') is on the server with other tags (%.90s) and its old rows could not be deleted"
             " (%.120s): run ALTER TABLE T DELETE WHERE trace_uid = '%.40s' for each of its tables (on every"
             " shard), then push again",
             (long long)trace, uid, what, err->msg, uid);
    snprintf(err->msg, sizeof err->msg, "%s", msg);
    return rc;
}

/* Traces sent together, at most: one INSERT per table (of up to `batch`
 * rows) for all of them rather than about five per trace, their traces
 * rows last (#53 item 9). */
#define PUSH_TRACES 256

/* "trace 7" or "traces 1, 2, 3 ... 9 (9 traces)" */
static void trace_names(const int64_t *ids, size_t ng, char *out, size_t n)
{
    if (ng == 1) {
        snprintf(out, n, "trace %lld", (long long)ids[0]);
        return;
    }
    size_t used = (size_t)snprintf(out, n, "traces");
    for (size_t i = 0; i < ng && i < 3 && used < n; i++)
        used += (size_t)snprintf(out + used, n - used, "%s %lld", i ? "," : "", (long long)ids[i]);
    if (ng > 3 && used < n)
        snprintf(out + used, n - used, "%s %lld (%zu traces)", ng > 4 ? " ..." : ",", (long long)ids[ng - 1], ng);
}

/* Sends the rows of ids[0..ng) table by table, their traces rows last;
 * on success reps[i] gets what was sent of ids[i]. */
static int push_group(gd_store *s, gd_ch *c, const int64_t *ids, size_t ng, const gd_push_opts *opts,
                      batcher *b, ch_tables *ts, gd_push_report **reps, gd_error *err)
{
    size_t batch = opts->batch ? opts->batch : GD_PUSH_BATCH;
    shipment sh[16];
    size_t n = 0;
    int rc = GD_OK;
    for (const char *const *t = gd_fleet_export_tables(); *t && !rc && n < 16; t++) {
        shipment *x = &sh[n++];
        *x = (shipment){.table = *t, .per = calloc(ng, sizeof(long long))};
        if (!x->per) {
            rc = gd_error_oom(err);
            break;
        }
        ch_table *ct = NULL;
        if (!opts->json)
            rc = gd_fleet_export_rows_open_many(s, *t, ids, ng, &x->r, err);
        if (!rc && x->r)
            rc = table_columns(c, ts, *t, &ct, err);
        if (!rc && x->r && !(ct && match_columns(x->r, ct, x->columns, sizeof x->columns))) {
            gd_fleet_export_rows_close(x->r);
            x->r = NULL;
        }
    }
    shipment *failed = NULL;
    gd_push_report grp = {0};
    if (!rc)
        rc = push_tables(s, c, ids, ng, batch, sh, n, b, &grp, &failed, err);
    json_t *took = json_object();
    for (size_t i = 0; i < n; i++) {
        if (sh[i].started && took)
            json_object_set_new(took, sh[i].table, json_integer(sh[i].sent));
        for (size_t k = 0; k < ng && !rc; k++) {
            long long js = 0, rows = sh[i].r ? gd_fleet_export_rows_count(sh[i].r, k, &js) : sh[i].per[k];
            if (!sh[i].r)
                js = rows;
            json_object_set_new(reps[k]->tables, sh[i].table, json_integer(rows));
            reps[k]->rows += rows;
            reps[k]->json_rows += js;
        }
        gd_fleet_export_rows_close(sh[i].r);
        free(sh[i].per);
    }
    if (rc && failed) {
        /* say exactly what was sent before the failure */
        char msg[sizeof err->msg], done[200], names[120];
        sent_summary(took, done, sizeof done);
        trace_names(ids, ng, names, sizeof names);
        snprintf(msg, sizeof msg,
                 "%.240s (%s: rows %lld..%lld of '%s' refused; accepted for %s: %s;"
                 " %s traces row%s not sent, so a new push sends %s again)",
                 err->msg, names, failed->sent + 1, failed->sent + failed->rows, failed->table,
                 ng > 1 ? "them" : "it", done, ng > 1 ? "their" : "its", ng > 1 ? "s were" : " was",
                 ng > 1 ? "them" : "it");
        snprintf(err->msg, sizeof err->msg, "%s", msg);
    }
    json_decref(took);
    return rc;
}

int gd_push(gd_store *s, gd_ch *c, const gd_push_opts *opts, gd_push_report_fn fn, void *ctx,
            gd_error *err)
{
    int rc = gd_ch_create_tables(c, err);
    if (rc)
        return rc;
    trace_list l = {0};
    rc = gd_fleet_export_traces(s, &opts->filter, on_trace, &l, err);
    if (rc == GD_ERR_ABORT)
        rc = gd_error_oom(err);
    batcher b = {.c = c, .err = err};
    ch_tables *ts = calloc(1, sizeof *ts);
    if (!ts && !rc)
        rc = gd_error_oom(err);
    /* tables made by an older godeye: said before anything is sent */
    lacking lk = {.fits = 1};
    for (const char *const *t = gd_fleet_export_tables(); *t && !rc && l.n; t++) {
        gd_fleet_export_rows *r = NULL;
        ch_table *ct = NULL;
        rc = gd_fleet_export_rows_open(s, *t, l.id[0], &r, err);
        if (!rc && r)
            rc = table_columns(c, ts, *t, &ct, err);
        if (!rc && r && ct)
            missing_columns(r, ct, *t, &lk);
        gd_fleet_export_rows_close(r);
    }
    if (!rc && lk.columns)
        rc = lacking_error(&lk, err);
    json_t *held = json_object();
    if (!held && !rc)
        rc = gd_error_oom(err);
    if (!rc)
        rc = load_held(c, l.id, l.uid, l.n, held, err);
    gd_push_report *rep = calloc(l.n ? l.n : 1, sizeof *rep);
    gd_push_report **grp = calloc(PUSH_TRACES, sizeof *grp);
    int64_t *gid = calloc(PUSH_TRACES, sizeof *gid);
    if ((!rep || !grp || !gid) && !rc)
        rc = gd_error_oom(err);
    for (size_t i = 0; i < l.n && !rc;) {
        /* the next traces to send, up to PUSH_TRACES of them, and those
         * the server holds already between them */
        size_t j = i, ng = 0;
        for (; j < l.n && ng < PUSH_TRACES && !rc; j++) {
            rep[j] = (gd_push_report){.trace = l.id[j], .trace_uid = l.uid[j], .tables = json_object()};
            tags_seen seen = {0};
            int h = server_holds(s, l.id[j], json_object_get(held, l.uid[j]), &seen, err);
            json_decref(seen.local);
            if (h < 0)
                rc = -h;
            else if (h == 1)
                rep[j].already = 1;
            else {
                if (h == 2 && !(rc = delete_trace(c, l.id[j], l.uid[j], seen.what, err)))
                    rep[j].replaced = 1;
                grp[ng] = &rep[j];
                gid[ng++] = l.id[j];
            }
        }
        if (!rc && ng)
            rc = push_group(s, c, gid, ng, opts, &b, ts, grp, err);
        for (size_t k = i; k < j; k++) {
            if (!rc && fn)
                fn(ctx, &rep[k]);
            json_decref(rep[k].tables);
        }
        i = j;
    }
    free(rep);
    free(grp);
    free(gid);
    json_decref(held);
    free(b.buf);
    free(ts);
    free(l.id);
    free(l.uid);
    return rc;
}
