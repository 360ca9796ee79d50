/* adb.c - adb run with argument vectors, timeouts and background collectors. */
#include "adb.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define OUT_CAP (8u << 20) /* most adb output read into memory (parsed answers) */

double gd_adb_mono_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1000.0 + (double)t.tv_nsec / 1e6;
}

void gd_adb_argv(const char *serial, const char *const *args, const char **av)
{
    int k = 0;
    av[k++] = "adb";
    if (serial) {
        av[k++] = "-s";
        av[k++] = serial;
    }
    for (int i = 0; args[i] && i < GD_ADB_MAX_ARGS; i++)
        av[k++] = args[i];
    av[k] = NULL;
}

void gd_adb_cmdline(const char *serial, const char *const *args, char *buf, size_t n)
{
    const char *av[GD_ADB_MAX_ARGS + 4];
    gd_adb_argv(serial, args, av);
    if (!n)
        return;
    *buf = 0;
    for (int i = 0; av[i]; i++) {
        if (i)
            strncat(buf, " ", n - strlen(buf) - 1);
        strncat(buf, av[i], n - strlen(buf) - 1);
    }
}

/* Starts adb with stdout to out_fd (or a pipe read into *out when out_fd <
 * 0) and stderr to a pipe; in its own process group, so that the
 * terminal's Ctrl-C reaches godeye, not adb.  Returns the pid or -1. */
static pid_t spawn_adb(const char *const *av, int out_fd, int *out_pipe, int *err_pipe)
{
    int op[2] = {-1, -1}, ep[2] = {-1, -1};
    if ((out_fd < 0 && pipe(op)) || (err_pipe && pipe(ep))) {
        int e = errno;
        for (int i = 0; i < 2; i++) {
            if (op[i] >= 0)
                close(op[i]);
            if (ep[i] >= 0)
                close(ep[i]);
        }
        errno = e;
        return -1;
    }
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    posix_spawn_file_actions_init(&fa);
    posix_spawnattr_init(&at);
    posix_spawnattr_setpgroup(&at, 0);
    sigset_t def;
    sigemptyset(&def);
    sigaddset(&def, SIGINT);
    sigaddset(&def, SIGTERM);
    sigaddset(&def, SIGPIPE);
    posix_spawnattr_setsigdefault(&at, &def);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    if (out_fd >= 0)
        posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
    else {
        posix_spawn_file_actions_adddup2(&fa, op[1], 1);
        posix_spawn_file_actions_addclose(&fa, op[0]);
        posix_spawn_file_actions_addclose(&fa, op[1]);
    }
    if (err_pipe) {
        posix_spawn_file_actions_adddup2(&fa, ep[1], 2);
        posix_spawn_file_actions_addclose(&fa, ep[0]);
        posix_spawn_file_actions_addclose(&fa, ep[1]);
    } else
        posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    int rc = posix_spawnp(&pid, "adb", &fa, &at, (char *const *)av, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    if (op[1] >= 0)
        close(op[1]);
    if (ep[1] >= 0)
        close(ep[1]);
    if (rc) {
        if (op[0] >= 0)
            close(op[0]);
        if (ep[0] >= 0)
            close(ep[0]);
        errno = rc;
        return -1;
    }
    if (out_pipe)
        *out_pipe = op[0];
    if (err_pipe)
        *err_pipe = ep[0];
    return pid;
}

typedef struct buf {
    char *p;
    size_t n, cap;
} buf;

static void buf_add(buf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        size_t nc = b->cap ? b->cap * 2 : 4096;
        while (nc < b->n + n + 1)
            nc *= 2;
        if (nc > OUT_CAP + 1) {
            if (b->n >= OUT_CAP)
                return;
            nc = OUT_CAP + 1;
            n = OUT_CAP - b->n;
        }
        char *q = realloc(b->p, nc);
        if (!q)
            return;
        b->p = q;
        b->cap = nc;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

int gd_adb_run(const char *serial, const char *const *args, int out_fd, char **out, char *errtext, size_t errn,
               double timeout_ms)
{
    return gd_adb_run_until(serial, args, out_fd, out, errtext, errn, timeout_ms, NULL, 0, NULL);
}

int gd_adb_run_until(const char *serial, const char *const *args, int out_fd, char **out, char *errtext, size_t errn,
                     double timeout_ms, const volatile sig_atomic_t *count, long base, int *interrupted)
{
    const char *av[GD_ADB_MAX_ARGS + 4];
    gd_adb_argv(serial, args, av);
    int opipe = -1, epipe = -1;
    pid_t pid = spawn_adb(av, out_fd, out_fd < 0 ? &opipe : NULL, &epipe);
    if (errtext && errn)
        *errtext = 0;
    if (pid < 0) {
        if (errtext)
            snprintf(errtext, errn, "cannot run adb: %s (install the 'adb' package)", strerror(errno));
        return -1;
    }
    buf ob = {0}, eb = {0};
    double t0 = gd_adb_mono_ms();
    struct pollfd pf[2] = {{opipe, POLLIN, 0}, {epipe, POLLIN, 0}};
    int killed = 0, stopped = 0;
    while (pf[0].fd >= 0 || pf[1].fd >= 0) {
        int r = poll(pf, 2, 200);
        if (r < 0 && errno != EINTR)
            break;
        for (int i = 0; i < 2; i++) {
            if (pf[i].fd < 0 || !(pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            char tmp[65536];
            ssize_t k = read(pf[i].fd, tmp, sizeof tmp);
            if (k <= 0) {
                close(pf[i].fd);
                pf[i].fd = -1;
            } else
                buf_add(i ? &eb : &ob, tmp, (size_t)k);
        }
        if (!killed && (gd_adb_mono_ms() - t0 > timeout_ms || (count && *count > base))) {
            kill(pid, SIGKILL);
            killed = 1;
            stopped = !(gd_adb_mono_ms() - t0 > timeout_ms);
            if (stopped)
                timeout_ms = gd_adb_mono_ms() - t0; /* the 2 s grace below counts from now */
        } else if (killed && gd_adb_mono_ms() - t0 > timeout_ms + 2000)
            break; /* something adb started still holds the pipes */
    }
    for (int i = 0; i < 2; i++)
        if (pf[i].fd >= 0)
            close(pf[i].fd);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (errtext && eb.p) {
        size_t k = strcspn(eb.p, "\r\n");
        if (k >= errn)
            k = errn - 1;
        memcpy(errtext, eb.p, k);
        errtext[k] = 0;
    }
    if (errtext && killed && stopped)
        snprintf(errtext, errn, "interrupted");
    else if (errtext && killed)
        snprintf(errtext, errn, "adb did not answer in %g s", timeout_ms / 1000);
    if (interrupted)
        *interrupted = stopped;
    free(eb.p);
    if (out)
        *out = ob.p ? ob.p : calloc(1, 1);
    else
        free(ob.p);
    if (killed || !WIFEXITED(st))
        return -1;
    return WEXITSTATUS(st);
}

void gd_adb_bg_init(gd_adb_bg *b)
{
    memset(b, 0, sizeof *b);
    b->pid = -1;
    b->rfd = -1;
    b->at_bol = 1;
}

int gd_adb_bg_start(gd_adb_bg *b, const char *serial, const char *const *args, const char *path)
{
    gd_adb_bg_init(b);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return -1;
    const char *av[GD_ADB_MAX_ARGS + 4];
    gd_adb_argv(serial, args, av);
    b->pid = spawn_adb(av, fd, NULL, NULL);
    int e = errno;
    close(fd);
    if (b->pid < 0) {
        errno = e;
        return -1;
    }
    b->rfd = open(path, O_RDONLY | O_CLOEXEC);
    return 0;
}

void gd_adb_bg_count(gd_adb_bg *b)
{
    char tmp[65536];
    ssize_t k;
    if (b->rfd < 0)
        return;
    while ((k = read(b->rfd, tmp, sizeof tmp)) > 0)
        for (ssize_t i = 0; i < k; i++) {
            if (b->at_bol && tmp[i] == 'c' && i + 3 < k && memcmp(tmp + i, "cpu ", 4) == 0)
                b->samples++;
            b->at_bol = tmp[i] == '\n';
            b->lines += b->at_bol;
        }
}

int gd_adb_bg_done(gd_adb_bg *b)
{
    if (b->pid < 0)
        return 1;
    int st;
    pid_t r = waitpid(b->pid, &st, WNOHANG);
    if (r == 0)
        return 0;
    /* reaped now (or not our child any more): never signalled again */
    b->pid = -1;
    return 1;
}

void gd_adb_bg_stop(gd_adb_bg *b)
{
    if (!gd_adb_bg_done(b)) {
        kill(b->pid, SIGTERM);
        int st;
        pid_t r = 0;
        for (int i = 0; i < 50 && (r = waitpid(b->pid, &st, WNOHANG)) == 0; i++)
            usleep(20000);
        if (r == 0) {
            kill(b->pid, SIGKILL);
            waitpid(b->pid, &st, 0);
        }
        b->pid = -1;
    }
    gd_adb_bg_count(b);
    if (b->rfd >= 0)
        close(b->rfd);
    b->rfd = -1;
}
