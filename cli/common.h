/* common.h - what every command shares: the context, opening the store,
 * reporting errors git-style, rendering rows. */
#ifndef GD_CLI_COMMON_H
#define GD_CLI_COMMON_H

#include <jansson.h>

#include "opts.h"
#include "query/columns.h"
#include "render/render.h"
#include "store/store.h"

/* Exit codes: never renumbered (godeye(1) EXIT STATUS). */
enum {
    GD_EXIT_OK = 0,
    GD_EXIT_FAIL = 1,
    GD_EXIT_USAGE = 2,
    GD_EXIT_BROKEN = 3, /* check: a budget rule broken */
    GD_EXIT_SOME = 4    /* ingest: some inputs refused, the others stored */
};

/* What a command does with the database and a fleet: the flags column of
 * the command table (cli/godeye.c), read by the helpers below instead of
 * each command naming itself and its mode at every call. */
enum {
    GD_CMD_STORE = 1 << 0,      /* opens the database: read-only unless GD_CMD_WRITES */
    GD_CMD_WRITES = 1 << 1,     /* writes: the database read-write; a fleet created if absent */
    GD_CMD_CLICKHOUSE = 1 << 2, /* reads or writes a fleet in ClickHouse (OPT_CLICKHOUSE) */
    GD_CMD_LISTING = 1 << 3,    /* lists or reports rows: takes --app (OPT_APP; tests/app_option_check.py) */
};

typedef struct gd_ctx gd_ctx;
typedef struct gd_cmd_desc gd_cmd_desc;
typedef int (*gd_cmd_fn)(int argc, char **argv, gd_ctx *ctx);

/* One row of the command table. */
typedef struct gd_command {
    const char *name;
    gd_cmd_fn fn;
    unsigned flags; /* GD_CMD_* */
    const char *summary;
} gd_command;

struct gd_ctx {
    const char *cmd;       /* the running command's name (set by the driver) */
    unsigned flags;        /* its GD_CMD_* flags */
    const gd_command *commands; /* the command table, NULL-name terminated */
    const char *db_path;   /* --db, $GODEYE_DB or ./godeye.db */
    const char *argv0;
    const char *tz_arg;    /* --tz or $GODEYE_TZ as given, or NULL */
    int tz_min;            /* that zone in minutes east of UTC, else GD_TZ_NONE */
    int wide;              /* --wide: tables cut nothing (OPT_LISTING sets it) */
    gd_cmd_desc *describe; /* describe mode (#49): the command fills it and returns (gd_cli_describe) */
};

/* What a command declares, handed back without running it (#49): its
 * usage line, its whole option table (the shared options included, as -h
 * lists them) and the columns of its rows; a variant is another tool made
 * of the command with one flag set (`blocks --group`), rows of other
 * columns.  `godeye mcp` makes its tools of these (cli/mcp_tools.c). */
typedef struct gd_cmd_variant {
    const char *flag;           /* a BOOL option's long name */
    const gd_column *cols;
    size_t ncols;
    int tool;                   /* a tool of its own; else the columns the flag gives */
} gd_cmd_variant;
struct gd_cmd_desc {
    int described;
    const char *usage;
    gd_option opts[64];         /* copies: only types, names, help, choices are read */
    size_t nopts;
    const gd_column *cols;
    size_t ncols;
    gd_cmd_variant variants[6];
    size_t nvariants;
};
/* In describe mode (ctx->describe set): records usage, opts (OPT_END-ended)
 * and cols in it and returns 1: the command returns GD_EXIT_OK at once,
 * having read and written nothing.  Else 0: the command goes on. */
int gd_cli_describe(gd_ctx *ctx, const char *usage, const gd_option *opts, const gd_column *cols, size_t ncols);
/* Adds a variant to the description being made (no-op outside describe
 * mode): a tool of its own (`blocks --group`), or with tool 0 only the
 * columns the flag gives the rows (`anr --group`). */
void gd_cli_describe_variant(gd_ctx *ctx, const char *flag, const gd_column *cols, size_t ncols, int tool);

/* The table's row named `name`, or NULL. */
const gd_command *gd_cli_command(const gd_ctx *ctx, const char *name);
/* Makes `name` (a row of the table) the running command of ctx: its name
 * and flags; returns its row, NULL (ctx unchanged) when there is none. */
const gd_command *gd_cli_enter(gd_ctx *ctx, const char *name);

/* Prints "godeye CMD: <formatted error>" (CMD: ctx->cmd; and the source
 * line with a caret when the error names a position in a readable file);
 * returns the exit code for the error (2 for usage errors, else 1). */
int gd_cli_fail(const gd_ctx *ctx, const gd_error *err);
/* Ends a renderer (gd_render_end_err): 0, or -1 when the output failed,
 * with the one-line reason printed when the rows could not be kept (a
 * table's temporary file in $TMPDIR, #53 item 2). */
int gd_cli_render_end(const gd_ctx *ctx, gd_renderer *r);
/* Prints "godeye CMD: <printf-style message>\n" (CMD: ctx->cmd); the
 * caller escapes untrusted text it passes. */
void gd_cli_say(const gd_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same as gd_cli_fail in one line, without the source line and caret (errors read
 * by tools, e.g. a mapping file's: 'FILE':LINE:COL: problem). */
int gd_cli_fail_line(const gd_ctx *ctx, const gd_error *err);
/* Opens the store, read-write when the command's flags say GD_CMD_WRITES,
 * else read-only, or reports why not (returns 0 or an exit code). */
int gd_cli_open_store(const gd_ctx *ctx, gd_store **out);
/* A listing command's store, read-only, once every --trace id is known:
 * "godeye CMD: no trace 99" and exit 1 when one is not (the one home of
 * that rule).  Returns 0 or the exit code. */
int gd_cli_open_listing(const gd_ctx *ctx, const gd_int_list *traces, gd_store **out);
/* A trace filter over a --trace list (and --app PKG, NULL for none). */
gd_filter gd_cli_filter(const gd_int_list *traces);
gd_filter gd_cli_filter_app(const gd_int_list *traces, const char *app);

/* The options every listing command shares (OPT_LISTING, OPT_APP), as
 * the runner parsed them, and the filter they make. */
typedef struct gd_listing {
    const char *format;
    gd_int_list traces;
    const char *app;
    gd_filter filter;      /* --trace and --app, as the queries take them */
} gd_listing;

/* A command that the runner runs (git's run_builtin): its own options, the
 * checks on them, the columns it renders and its one query call. */
typedef struct gd_cmd_spec gd_cmd_spec;
struct gd_cmd_spec {
    const char *usage;          /* "godeye NAME [OPTIONS]": -h and errors      */
    const gd_option *opts;      /* its own options, OPT_END_() last: the
                                 * shared ones (OPT_LISTING, OPT_APP) follow  */
    void *arg;                  /* the command's own state, for the calls     */
    /* after parsing (may choose cols): 0 to go on, else the exit code,
     * the problem said; NULL: nothing to check */
    int (*check)(gd_ctx *ctx, gd_cmd_spec *spec, gd_listing *l);
    const gd_column *cols;      /* the rows' columns (check may change them) */
    size_t ncols;
    /* the query: its rows to r; 0, or an error in err */
    int (*query)(gd_store *s, const gd_listing *l, void *arg, gd_renderer *r, gd_error *err);
    /* an empty answer's reason when no trace has this data: a store table
     * (gd_query_has_data) and what it holds; table NULL: `data_name` is
     * the whole reason (NULL: "no row passed the options") */
    const char *data_table, *data_name;
    /* 1: an empty answer over traces with stack samples says how to see
     * them (gd_cli_say_samples_hint) */
    int samples_hint;
    /* the command's own --format (other choices, their help) in place of
     * OPT_LISTING's; NULL: the shared one */
    const gd_option *format;
};
#define GD_COLS(a) (a), sizeof(a) / sizeof((a)[0])

/* A command's columns made of its query's declaration (query/columns.h,
 * #45 item 1): static const gd_column cols[] = {GD_X_COLS(GD_CLI_COL,
 * GD_CLI_JSON_ONLY)};  or, in the order of the query's table list
 * GD_X_TABLE(T):  enum {GD_X_TABLE(GD_CLI_TAB)};  and GD_CLI_COL_AT for
 * GD_CLI_COL. */
#define GD_CLI_COL(id, e, k, h, t, f)                                                            \
    {.key = k, .header = h, .type = GD_COL_##t, .flex = ((f) & GD_QC_WIDE) != 0,                 \
     .hidden = ((f) & GD_QC_HIDDEN) != 0, .auto_hide = ((f) & GD_QC_AUTO) != 0,                   \
     .cut_middle = ((f) & GD_QC_CUT) != 0},
#define GD_CLI_JSON_ONLY(id, e, k, h, t, f)
#define GD_CLI_TAB(id) GD_TAB_##id,
#define GD_CLI_COL_AT(id, e, k, h, t, f) [GD_TAB_##id] = GD_CLI_COL(id, e, k, h, t, f)
/* A table order names each column of the list once: an ID missing or
 * twice fails as an enum, a J field in it (a gap in the spec) here. */
#define GD_CLI_ONE(id, e, k, h, t, f) +1
#define GD_CLI_ONE_T(id) +1
#define GD_CLI_TABLE_CHECK(COLS, TABLE) \
    _Static_assert(0 COLS(GD_CLI_ONE, GD_CLI_JSON_ONLY) == 0 TABLE(GD_CLI_ONE_T), #TABLE " names the columns of " #COLS)
/* A table order with table-only columns, TABLE(T, P) (query/columns.h's
 * P): enum {GD_X_TABLE(GD_CLI_TAB, GD_CLI_TAB_P)};  and in the spec, after
 * the list's GD_CLI_COL_AT, GD_X_TABLE(GD_CLI_NO_T, GD_CLI_PATH_AT). */
#define GD_CLI_TAB_P(id, p, k, h, t, f) GD_TAB_##id,
#define GD_CLI_NO_T(id)
#define GD_CLI_NO_P(id, p, k, h, t, f)
#define GD_CLI_PATH_AT(id, p, k, h, t, f)                                                        \
    [GD_TAB_##id] = {.key = k, .header = h, .type = GD_COL_##t, .flex = ((f) & GD_QC_WIDE) != 0,  \
                     .hidden = ((f) & GD_QC_HIDDEN) != 0, .auto_hide = ((f) & GD_QC_AUTO) != 0,    \
                     .path = p},
#define GD_CLI_TABLE_P_CHECK(COLS, TABLE) \
    _Static_assert(0 COLS(GD_CLI_ONE, GD_CLI_JSON_ONLY) == 0 TABLE(GD_CLI_ONE_T, GD_CLI_NO_P), #TABLE " names the columns of " #COLS)

/* Runs a command by its spec and the flags of its row in the command table:
 * parses argv (the spec's options, then the shared ones), refuses extra
 * arguments, opens the store as the flags say (GD_CMD_STORE: read-only,
 * GD_CMD_WRITES: read-write) after checking every --trace, makes the
 * renderer from the spec's columns, runs the query, renders, closes.  An
 * answer without rows gets its reason on stderr (gd_cli_say_empty).
 * In describe mode, hands back the spec (gd_cli_describe) and returns 0.
 * Returns the exit code. */
int gd_cli_run(gd_ctx *ctx, int argc, char **argv, gd_cmd_spec *spec);
/* After a listing printed no row: one line on stderr saying why (the
 * --app filter matched no process, naming the apps present; no selected
 * trace has `table`'s data, `what`; or nothing passed the options or the
 * thresholds; with table NULL, `what` itself when given).  Returns 1 when
 * the reason was the app's absence, else 0. */
int gd_cli_say_empty(const gd_ctx *ctx, gd_store *s, const gd_filter *f, const char *table,
                     const char *what);
/* After an empty answer of a command about blocks (top, blocks) that was
 * not the app's absence: when f's traces hold a profiler's samples
 * (simpleperf's, a Perfetto CPU profile's) and no main-thread dispatch (a
 * CPU profile alone), one more line says that `export --folded -
 * --samples` draws them. */
void gd_cli_say_samples_hint(const gd_ctx *ctx, gd_store *s, const gd_filter *f);

/* gd_render_new on stdout for a command's rows, with times shown by the
 * rule of render/timefmt.h: in table mode the renderer learns every trace's
 * clock from the store and the display zone from ctx (other modes print
 * times as the numbers they are).  When the clocks cannot be read, times
 * show as of unknown clock (the command's own query reports the store's
 * trouble).  NULL only when out of memory, like gd_render_new. */
gd_renderer *gd_cli_renderer(const gd_ctx *ctx, gd_store *s, gd_out_mode mode, const gd_column *cols,
                             size_t ncols);

/* Row sink that feeds a renderer (ctx = gd_renderer*). */
int gd_cli_render_cb(void *ctx, json_t *row);
/* The same for rows of plain values (gd_values_fn). */
int gd_cli_values_cb(void *ctx, const gd_row *row);
/* Mode from a --format choice (NULL = table). */
gd_out_mode gd_cli_mode(const char *format);
/* Width for tables: unlimited with --wide (ctx->wide; ctx may be NULL);
 * else the terminal's own (TIOCGWINSZ) when stdout is one; else $COLUMNS;
 * else 100 (a width under 40 is not taken). */
#define GD_CLI_WIDE (1 << 20) /* a table width that cuts nothing */
int gd_cli_width(const gd_ctx *ctx);

/* An output file written whole or not at all: when `path` is absent or a
 * regular file, writes go to a temporary file beside it (tmp, n >= 4096
 * bytes) that gd_cli_out_close renames over `path` when ok and every write
 * succeeded, else removes (an existing file is left as it was).  Anything
 * else (a symlink, a FIFO, a device) is opened and written in place, never
 * replaced; tmp is then "".  "-" is standard output.  NULL when the file
 * cannot be opened or made.  gd_cli_out_close returns 0 or -1. */
FILE *gd_cli_out_open(const char *path, char *tmp, size_t n);
int gd_cli_out_close(FILE *f, const char *tmp, const char *path, int ok);

/* ClickHouse: where `push` sends and the fleet commands read (cli/fleet.c). */
typedef struct gd_ch gd_ch;
typedef struct gd_cli_ch {
    const char *url, *database, *user, *pwfile;
    long timeout;          /* seconds per request; 0: 600 */
} gd_cli_ch;

/* The options of a command that reads a fleet: --clickhouse, --database,
 * --user, --password-file (as `push` takes them) and --timeout. */
#define OPT_CLICKHOUSE(o)                                                                           \
    OPT_STRING_(0, "clickhouse", &(o)->url, "URL", "read the fleet in ClickHouse (godeye push) instead"), \
    OPT_STRING_(0, "database", &(o)->database, "NAME", "ClickHouse database (default: the server's)"), \
    OPT_STRING_(0, "user", &(o)->user, "NAME", "ClickHouse user (default: $GODEYE_CLICKHOUSE_USER)"), \
    OPT_STRING_(0, "password-file", &(o)->pwfile, "FILE",                                           \
                "read the password from FILE (default: $GODEYE_CLICKHOUSE_PASSWORD)"),              \
    OPT_INT_(0, "timeout", &(o)->timeout, "S", "seconds a ClickHouse request may take (default 600)")

/* Connects as o says (user and password from the options or the
 * environment; the database created first when the command's flags say
 * GD_CMD_WRITES); on failure prints one line naming the server (no
 * credentials) and returns the exit code, else 0 with *out set. */
int gd_cli_ch_open(const gd_ctx *ctx, const gd_cli_ch *o, gd_ch **out);
/* err's message for a failure while talking to the server o names. */
int gd_cli_ch_fail(const gd_ctx *ctx, const gd_cli_ch *o, gd_error *err);

/* A fleet listing: connects as o says, renders the rows q gives (q(c, fn,
 * fn_ctx, arg, err) calls fn on each) in `mode` with cols, closes; the exit
 * status (a failure is one line naming the server). */
typedef int (*gd_cli_fleet_query)(gd_ch *c, gd_row_fn fn, void *fn_ctx, void *arg, gd_error *err);
int gd_cli_fleet_listing(gd_ctx *ctx, const gd_cli_ch *o, gd_out_mode mode, const gd_column *cols, size_t ncols,
                         gd_cli_fleet_query q, void *arg);

#endif
