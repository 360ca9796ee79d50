/* mcp_exec.c - one `godeye mcp` call run as a child godeye (#49): a crash,
 * an exit or a hang of the command never takes the server down; its rows
 * are read as they come and only a capped prefix is kept. */
#define _GNU_SOURCE /* pipe2 */
#include "mcp.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define JSON_MAX (16u << 20) /* "json" mode: the whole array is read, up to this */

/* What is read of the child's standard output. */
typedef struct reader {
    const gd_mcp_limits *lim;
    const char *format;
    gd_mcp_answer *a;
    char *buf;              /* the line (jsonl), the whole output (json, text) */
    size_t n, cap;
    int line_over, full;    /* the line or the output is past its cap */
} reader;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Keeps a row when the prefix kept so far has room for it. */
static void keep_row(reader *r, const char *text, size_t len, json_t *row)
{
    gd_mcp_answer *a = r->a;
    a->total++;
    if (a->total <= r->lim->offset)
        return;
    int room = !r->full && json_array_size(a->rows) < r->lim->max_rows && a->bytes + len <= r->lim->max_bytes;
    json_t *v = row ? json_incref(row) : room ? json_loadb(text, len, 0, NULL) : NULL;
    if (room && v) {
        json_array_append(a->rows, v);
        a->bytes += len;
    } else {
        r->full = 1; /* a prefix: once one row is left out, so are the rest */
    }
    json_decref(v);
}

static void end_line(reader *r)
{
    if (r->n || r->line_over)
        keep_row(r, r->buf, r->line_over ? r->lim->max_bytes + 1 : r->n, NULL);
    r->n = 0;
    r->line_over = 0;
}

static int grow(reader *r, size_t want)
{
    if (want <= r->cap)
        return 0;
    size_t cap = r->cap ? r->cap : 4096;
    while (cap < want)
        cap *= 2;
    char *b = realloc(r->buf, cap);
    if (!b)
        return -1;
    r->buf = b;
    r->cap = cap;
    return 0;
}

/* One chunk of standard output: jsonl rows are counted line by line (a
 * line longer than the byte cap is counted, not kept); json and text are
 * kept whole up to their caps. */
static void feed(reader *r, const char *p, size_t len)
{
    if (!r->format || strcmp(r->format, "json") == 0) {
        size_t cap = r->format ? JSON_MAX : r->lim->max_bytes;
        size_t take = r->n + len > cap ? cap - r->n : len;
        if (take < len)
            r->line_over = 1;
        if (take && grow(r, r->n + take + 1) == 0) {
            memcpy(r->buf + r->n, p, take);
            r->n += take;
        }
        return;
    }
    for (size_t i = 0; i < len; i++) {
        if (p[i] == '\n') {
            end_line(r);
        } else if (r->line_over || r->n >= r->lim->max_bytes || grow(r, r->n + 2)) {
            r->line_over = 1;
        } else {
            r->buf[r->n++] = p[i];
        }
    }
}

static void finish(reader *r)
{
    gd_mcp_answer *a = r->a;
    if (r->format && strcmp(r->format, "jsonl") == 0) {
        end_line(r);
        return;
    }
    if (!r->format) {
        a->out = strndup(r->buf ? r->buf : "", r->n);
        return;
    }
    json_t *all = r->line_over ? NULL : json_loadb(r->buf ? r->buf : "", r->n, 0, NULL), *row;
    size_t i;
    if (json_is_object(all))
        keep_row(r, NULL, r->n, all);
    json_array_foreach(all, i, row) {
        char *t = json_dumps(row, JSON_COMPACT);
        keep_row(r, NULL, t ? strlen(t) : 0, row);
        free(t);
    }
    if (!all && r->n)
        snprintf(a->err, sizeof a->err, "the answer is not JSON%s", r->line_over ? " (over 16 MB)" : "");
    json_decref(all);
}

static pid_t spawn(const char *self, char **argv, int *out, int *err)
{
    int po[2], pe[2];
    if (pipe2(po, O_CLOEXEC))
        return -1;
    if (pipe2(pe, O_CLOEXEC)) {
        close(po[0]), close(po[1]);
        return -1;
    }
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_RDONLY);
        if (null < 0 || dup2(null, STDIN_FILENO) < 0 || dup2(po[1], STDOUT_FILENO) < 0 || dup2(pe[1], STDERR_FILENO) < 0)
            _exit(127);
        signal(SIGPIPE, SIG_DFL);
        execv(self, argv);
        _exit(127);
    }
    close(po[1]), close(pe[1]);
    if (pid < 0) {
        close(po[0]), close(pe[0]);
        return -1;
    }
    *out = po[0];
    *err = pe[0];
    return pid;
}

/* Reads both pipes until they close or the time is up. */
static void pump(reader *r, int out, int err, double deadline)
{
    struct pollfd fds[2] = {{out, POLLIN, 0}, {err, POLLIN, 0}};
    size_t nerr = 0;
    char chunk[65536];
    while (fds[0].fd >= 0 || fds[1].fd >= 0) {
        double left = deadline - now_s();
        if (left <= 0) {
            r->a->timed_out = 1;
            return;
        }
        int k = poll(fds, 2, (int)(left * 1000) + 1);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return;
        for (int i = 0; i < 2; i++) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            ssize_t got = read(fds[i].fd, chunk, sizeof chunk);
            if (got <= 0) {
                fds[i].fd = -1;
            } else if (i == 0) {
                feed(r, chunk, (size_t)got);
            } else if (nerr + 1 < sizeof r->a->err) {
                size_t take = (size_t)got < sizeof r->a->err - 1 - nerr ? (size_t)got : sizeof r->a->err - 1 - nerr;
                memcpy(r->a->err + nerr, chunk, take);
                nerr += take;
                r->a->err[nerr] = 0;
            }
        }
    }
}

int gd_mcp_exec(const char *self, char **argv, const char *format, const gd_mcp_limits *lim, gd_mcp_answer *a)
{
    memset(a, 0, sizeof *a);
    a->rows = json_array();
    int out, err;
    pid_t pid = spawn(self, argv, &out, &err);
    if (pid < 0) {
        snprintf(a->err, sizeof a->err, "cannot run '%s': %s", self, strerror(errno));
        return -1;
    }
    reader r = {.lim = lim, .format = format, .a = a};
    pump(&r, out, err, now_s() + lim->timeout_s);
    if (a->timed_out)
        kill(pid, SIGKILL);
    close(out), close(err);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    a->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    if (!a->timed_out)
        finish(&r);
    free(r.buf);
    return 0;
}

void gd_mcp_answer_free(gd_mcp_answer *a)
{
    json_decref(a->rows);
    free(a->out);
    a->rows = NULL;
    a->out = NULL;
}
