/* common.c - store opening, error reporting and rendering helpers for commands. */
#include "common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "input.h"

/* Prints the source line of an error with a caret under the column. */
static void show_line(const gd_error *err)
{
    struct stat st;
    if (!err->source[0] || err->line <= 0 || err->col <= 0 || strcmp(err->source, "-") == 0 ||
        stat(err->source, &st) != 0 || !S_ISREG(st.st_mode))
        return;
    gd_input *in;
    gd_error e = {0};
    if (gd_input_open_file(&in, err->source, &e))
        return;
    char *line;
    size_t len;
    int r;
    while ((r = gd_input_getline(in, &line, &len, &e)) == 1 && gd_input_lineno(in) < err->line)
        ;
    if (r == 1 && gd_input_lineno(in) == err->line) {
        size_t col = (size_t)err->col - 1, from = 0, to = len;
        if (col > len)
            col = len;
        if (col > 60)
            from = col - 60;
        if (to > col + 70)
            to = col + 70;
        int printable = 1;
        for (size_t i = from; i < to; i++)
            if ((unsigned char)line[i] < 0x20 && line[i] != '\t')
                printable = 0;
        if (printable) {
            fprintf(stderr, "    %s%.*s%s\n", from ? "..." : "", (int)(to - from), line + from,
                    to < len ? "..." : "");
            fprintf(stderr, "    %*s^\n", (int)(col - from + (from ? 3 : 0)), "");
        }
    }
    gd_input_close(in);
}

int gd_cli_fail(const char *cmd, const gd_error *err)
{
    char buf[2048];
    fprintf(stderr, "godeye %s: %s\n", cmd, gd_error_format(err, buf, sizeof buf));
    show_line(err);
    return err->code == GD_ERR_USAGE ? GD_EXIT_USAGE : GD_EXIT_FAIL;
}

int gd_cli_open_store(const gd_ctx *ctx, const char *cmd, int mode, gd_store **out)
{
    gd_error err = {0};
    if (gd_store_open(out, ctx->db_path, mode, &err))
        return gd_cli_fail(cmd, &err);
    return GD_EXIT_OK;
}

gd_filter gd_cli_filter(const gd_int_list *traces)
{
    gd_filter f = {traces->n ? traces->v : NULL, traces->n};
    return f;
}

int gd_cli_render_cb(void *ctx, json_t *row)
{
    return gd_render_row((gd_renderer *)ctx, row) ? 1 : 0;
}

gd_out_mode gd_cli_mode(const char *format)
{
    int m = format ? gd_out_mode_parse(format) : GD_OUT_TABLE;
    return m < 0 ? GD_OUT_TABLE : (gd_out_mode)m;
}

int gd_cli_width(void)
{
    const char *c = getenv("COLUMNS");
    int w = c ? atoi(c) : 0;
    return w >= 40 ? w : 100;
}
