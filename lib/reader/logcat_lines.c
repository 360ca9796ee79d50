/* logcat_lines.c - the layouts of one logcat line into an lc_line. */
#define _GNU_SOURCE /* memmem */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"
#include "reader/component.h"
#include "reader/matrix.h"
#include "reader/logcat_int.h"

int gd_lc_is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Parses a decimal integer of at most 10 digits; returns bytes used or 0. */
size_t gd_lc_parse_int(const char *p, size_t n, int64_t *out)
{
    size_t i = 0;
    int64_t v = 0;
    while (i < n && gd_lc_is_digit(p[i]) && i < 10) {
        v = v * 10 + (p[i] - '0');
        i++;
    }
    if (i == 0 || (i < n && gd_lc_is_digit(p[i])))
        return 0;
    *out = v;
    return i;
}

static int is_level(char c)
{
    return c == 'V' || c == 'D' || c == 'I' || c == 'W' || c == 'E' || c == 'F' || c == 'A' ||
           c == 'S';
}

/* A uid column's word: digits or a user name ("u0_a45", "system"). */
size_t gd_lc_word_len(const char *p, size_t n)
{
    size_t i = 0;
    while (i < n && ((p[i] >= 'a' && p[i] <= 'z') || (p[i] >= 'A' && p[i] <= 'Z') ||
                     gd_lc_is_digit(p[i]) || p[i] == '_'))
        i++;
    return i;
}

static void set_tag(lc_line *l, const char *t, size_t n)
{
    while (n && t[n - 1] == ' ')
        n--;
    l->tag = t;
    l->tag_len = n;
}

static void set_msg(lc_line *l, const char *s, size_t m, size_t n)
{
    l->msg = s + m;
    l->msg_len = n - m;
}

/* "TAG(  PID): msg" or, with -v uid, "TAG(UID:  PID): msg" from p: the
 * first '(' followed by spaces, [word ':' spaces] digits, ')' and ':'.
 * Returns 0 on success. */
static int parse_tag_pid(const char *p, size_t n, lc_line *l)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i] != '(')
            continue;
        size_t j = i + 1;
        while (j < n && p[j] == ' ')
            j++;
        size_t w = gd_lc_word_len(p + j, n - j);
        if (w && j + w < n && p[j + w] == ':') {
            j += w + 1;
            while (j < n && p[j] == ' ')
                j++;
        }
        int64_t pid;
        size_t k = gd_lc_parse_int(p + j, n - j, &pid);
        if (!k)
            continue;
        j += k;
        if (j + 1 < n && p[j] == ')' && p[j + 1] == ':') {
            set_tag(l, p, i);
            l->pid = l->tid = pid;
            j += 2;
            if (j < n && p[j] == ' ')
                j++;
            set_msg(l, p, j, n);
            return 0;
        }
    }
    return -1;
}

/* "L/TAG(  PID): msg" at p. */
static int parse_level_tag_pid(const char *p, size_t n, lc_line *l)
{
    if (n < 4 || !is_level(p[0]) || p[1] != '/')
        return -1;
    l->level = p[0];
    return parse_tag_pid(p + 2, n - 2, l);
}

/* "TAG: msg" from s[i..n): the tag ends at the first ':' followed by a space
 * or the end of the line. */
static int parse_tag_colon(const char *s, size_t i, size_t n, lc_line *l)
{
    for (size_t j = i; j < n; j++)
        if (s[j] == ':' && (j + 1 == n || s[j + 1] == ' ')) {
            set_tag(l, s + i, j - i);
            size_t m = j + 1;
            if (m < n && s[m] == ' ')
                m++;
            set_msg(l, s, m, n);
            return LC_THREADTIME;
        }
    return LC_NONE;
}

/* Android Studio, from s[i] just past "PID-TID":
 *   before Dolphin  "/pkg L/tag: msg"
 *   Dolphin+        "  tag  pkg  L  msg" (columns padded with spaces) */
static int parse_studio(const char *s, size_t i, size_t n, lc_line *l)
{
    if (i < n && s[i] == '/') {
        const char *sp = memchr(s + i, ' ', n - i);
        if (!sp)
            return LC_NONE;
        l->pkg = s + i + 1;
        l->pkg_len = (size_t)(sp - l->pkg);
        i = (size_t)(sp - s) + 1;
        if (i + 2 > n || !is_level(s[i]) || s[i + 1] != '/')
            return LC_NONE;
        l->level = s[i];
        return parse_tag_colon(s, i + 2, n, l);
    }
    if (i >= n || s[i] != ' ')
        return LC_NONE;
    /* the level column: " L  " (or " L" ending the line) */
    size_t j;
    for (j = i; j + 2 <= n; j++)
        if (s[j] == ' ' && is_level(s[j + 1]) &&
            (j + 2 == n || (s[j + 2] == ' ' && (j + 3 == n || s[j + 3] == ' '))))
            break;
    if (j + 2 > n)
        return LC_NONE;
    l->level = s[j + 1];
    size_t a = i, b = j;
    while (a < b && s[a] == ' ')
        a++;
    while (b > a && s[b - 1] == ' ')
        b--;
    /* tag, then the package column: the last word */
    size_t t = b;
    while (t > a && s[t - 1] != ' ')
        t--;
    set_tag(l, s + a, t > a ? t - a : b - a);
    if (t > a) {
        l->pkg = s + t;
        l->pkg_len = b - t;
    }
    size_t m = j + 2;
    if (m < n)
        m++;
    if (m < n && s[m] == ' ')
        m++;
    set_msg(l, s, m, n);
    return LC_THREADTIME;
}

/* Classifies one line; fills l for the timed layouts and brief. */
int gd_lc_parse_line(const char *s, size_t n, lc_line *l)
{
    memset(l, 0, sizeof *l);
    static const char beg[] = "--------- beginning of ";
    if (n >= sizeof beg - 1 && memcmp(s, beg, sizeof beg - 1) == 0)
        return l->layout = LC_BEGINNING;
    if (n && (s[0] == ' ' || s[0] == '\t'))
        return l->layout = LC_CONT;
    /* Android Studio: "------ PROCESS STARTED (PID) for package PKG ------"
     * (28 dashes each side; ENDED likewise) */
    size_t d = 0;
    while (d < n && s[d] == '-')
        d++;
    if (d >= 4 && (gd_starts_n(s + d, n - d, " PROCESS STARTED (") || gd_starts_n(s + d, n - d, " PROCESS ENDED ("))) {
        const char *f = memmem(s, n, " for package ", 13);
        const char *o = memchr(s, '(', n);
        if (!f || !o)
            return LC_NONE;
        gd_lc_parse_int(o + 1, (size_t)(s + n - o - 1), &l->pid);
        l->pkg = f + 13;
        l->pkg_len = gd_lc_word_len(l->pkg, (size_t)(s + n - l->pkg));
        return l->layout = LC_STUDIO_PROCESS;
    }
    size_t i = gd_mdstamp_parse(s, n, 1, &l->st);
    if (!i) {
        if (parse_level_tag_pid(s, n, l) == 0)
            return l->layout = LC_BRIEF;
        return LC_NONE;
    }
    if (i >= n || s[i] != ' ')
        return LC_NONE;
    i++;
    /* time: "L/TAG(" right after one space */
    if (i + 1 < n && is_level(s[i]) && s[i + 1] == '/') {
        if (parse_level_tag_pid(s + i, n - i, l) == 0)
            return l->layout = LC_TIME;
        return LC_NONE;
    }
    while (i < n && s[i] == ' ')
        i++;
    /* Android Studio: "PID-TID" */
    size_t k = gd_lc_parse_int(s + i, n - i, &l->pid);
    if (k && i + k < n && s[i + k] == '-') {
        size_t t = gd_lc_parse_int(s + i + k + 1, n - i - k - 1, &l->tid);
        if (!t)
            return LC_NONE;
        return l->layout = parse_studio(s, i + k + 1 + t, n, l);
    }
    /* threadtime: [uid] pid tid, spaces between, then " L " */
    const char *col[3];
    size_t ncol = 0;
    for (;;) {
        if (ncol >= 2 && i + 1 < n && is_level(s[i]) && s[i + 1] == ' ')
            break;
        if (ncol == 3)
            return LC_NONE;
        size_t w = gd_lc_word_len(s + i, n - i);
        if (!w || i + w >= n || s[i + w] != ' ')
            return LC_NONE;
        col[ncol++] = s + i;
        i += w;
        while (i < n && s[i] == ' ')
            i++;
    }
    const char *pid = col[ncol - 2], *tid = col[ncol - 1];
    if (!gd_lc_parse_int(pid, (size_t)(s + n - pid), &l->pid) ||
        !gd_lc_parse_int(tid, (size_t)(s + n - tid), &l->tid))
        return LC_NONE;
    l->level = s[i];
    return l->layout = parse_tag_colon(s, i + 2, n, l);
}

int gd_lc_tag_is(const lc_line *l, const char *t)
{
    size_t n = strlen(t);
    return l->tag_len == n && memcmp(l->tag, t, n) == 0;
}
