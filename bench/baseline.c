/* baseline.c - the naive ingest the benchmark compares godeye against.
 *
 * Reads a godeye JSON Lines capture line by line, parses every line into a
 * full jansson tree with json_loadb, pairs looper begin/end prints per
 * thread in memory (a begin waits for the next end of its thread), and
 * writes one prepared INSERT per dispatch and per stack sample (frames as
 * JSON text) into a fresh SQLite database, in one transaction, with the
 * same journal settings godeye uses (WAL, synchronous=NORMAL).
 *
 *   godeye-baseline CAPTURE.jsonl DB
 *
 * Prints "dispatches N samples M" on success; exit 1 on any error. */
#include <jansson.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One pending begin per thread: a tiny open-addressing map tid -> begin. */
typedef struct pending {
    json_int_t tid;
    int used, open;
    double ts, thread_ts;
    char *msg;
} pending;

static pending *table;
static size_t table_cap;

static pending *slot(json_int_t tid)
{
    size_t i = (size_t)tid * 2654435761u & (table_cap - 1);
    while (table[i].used && table[i].tid != tid)
        i = (i + 1) & (table_cap - 1);
    table[i].used = 1;
    table[i].tid = tid;
    return &table[i];
}

static int die(sqlite3 *db, const char *what)
{
    fprintf(stderr, "godeye-baseline: %s: %s\n", what, db ? sqlite3_errmsg(db) : "failed");
    return 1;
}

static int step(sqlite3 *db, sqlite3_stmt *st)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? 0 : die(db, "insert");
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: godeye-baseline CAPTURE.jsonl DB\n");
        return 2;
    }
    FILE *in = fopen(argv[1], "rb");
    if (!in) {
        perror(argv[1]);
        return 1;
    }
    unlink(argv[2]);
    sqlite3 *db;
    if (sqlite3_open(argv[2], &db) != SQLITE_OK)
        return die(db, "open");
    if (sqlite3_exec(db,
                     "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
                     "CREATE TABLE dispatch(id INTEGER PRIMARY KEY, tid INTEGER, start_ms REAL,"
                     " dur_ms REAL, thread_ms REAL, msg TEXT);"
                     "CREATE TABLE sample(id INTEGER PRIMARY KEY, tid INTEGER, ts_ms REAL,"
                     " frames TEXT);"
                     "BEGIN;",
                     NULL, NULL, NULL) != SQLITE_OK)
        return die(db, "schema");
    sqlite3_stmt *ins_d, *ins_s;
    if (sqlite3_prepare_v2(db, "INSERT INTO dispatch(tid, start_ms, dur_ms, thread_ms, msg)"
                               " VALUES (?,?,?,?,?)", -1, &ins_d, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "INSERT INTO sample(tid, ts_ms, frames) VALUES (?,?,?)", -1, &ins_s,
                           NULL) != SQLITE_OK)
        return die(db, "prepare");
    table_cap = 1024;
    table = calloc(table_cap, sizeof *table);
    json_int_t main_tid = 0;
    long nd = 0, ns = 0, lineno = 0;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, in)) > 0) {
        lineno++;
        if (len <= 1)
            continue;
        json_error_t je;
        json_t *o = json_loadb(line, (size_t)len, 0, &je);
        if (!o) {
            fprintf(stderr, "godeye-baseline: line %ld: %s\n", lineno, je.text);
            return 1;
        }
        const char *type = json_string_value(json_object_get(o, "type"));
        json_t *tidv = json_object_get(o, "tid");
        double ts = json_number_value(json_object_get(o, "ts"));
        if (!type) {
        } else if (strcmp(type, "meta") == 0) {
            main_tid = json_integer_value(json_object_get(o, "main_tid"));
        } else if (strcmp(type, "looper") == 0) {
            json_int_t tid = tidv ? json_integer_value(tidv) : main_tid;
            const char *ph = json_string_value(json_object_get(o, "phase"));
            const char *msg = json_string_value(json_object_get(o, "msg"));
            int begin = ph ? strcmp(ph, "begin") == 0 : (msg && strncmp(msg, ">>>>>", 5) == 0);
            json_t *tt = json_object_get(o, "thread_ts");
            pending *p = slot(tid);
            if (begin) {
                free(p->msg);
                p->msg = msg ? strdup(msg) : NULL;
                p->ts = ts;
                p->thread_ts = tt ? json_number_value(tt) : -1;
                p->open = 1;
            } else if (p->open) {
                sqlite3_bind_int64(ins_d, 1, tid);
                sqlite3_bind_double(ins_d, 2, p->ts);
                sqlite3_bind_double(ins_d, 3, ts - p->ts);
                if (tt && p->thread_ts >= 0)
                    sqlite3_bind_double(ins_d, 4, json_number_value(tt) - p->thread_ts);
                else
                    sqlite3_bind_null(ins_d, 4);
                sqlite3_bind_text(ins_d, 5, p->msg, -1, SQLITE_STATIC);
                if (step(db, ins_d))
                    return 1;
                p->open = 0;
                nd++;
            }
        } else if (strcmp(type, "stack") == 0) {
            char *frames = json_dumps(json_object_get(o, "frames"), JSON_COMPACT | JSON_ENCODE_ANY);
            sqlite3_bind_int64(ins_s, 1, tidv ? json_integer_value(tidv) : main_tid);
            sqlite3_bind_double(ins_s, 2, ts);
            sqlite3_bind_text(ins_s, 3, frames ? frames : "[]", -1, SQLITE_TRANSIENT);
            free(frames);
            if (step(db, ins_s))
                return 1;
            ns++;
        }
        json_decref(o);
    }
    free(line);
    fclose(in);
    sqlite3_finalize(ins_d);
    sqlite3_finalize(ins_s);
    if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        return die(db, "commit");
    sqlite3_close(db);
    for (size_t i = 0; i < table_cap; i++)
        free(table[i].msg);
    free(table);
    printf("dispatches %ld samples %ld\n", nd, ns);
    return 0;
}
