/* bugreport_binder.c - a bugreport's binder snapshot (#28 item 2).
 *
 * The kernel's binder debugfs text that dumpstate copies under
 * "BINDER TRANSACTIONS" (/sys/kernel/debug/binder/transactions) and
 * "BINDER STATE" (.../state) lists the transactions in flight when the
 * bugreport was taken, one line each:
 *
 *   outgoing transaction 8350: d4c1b1a0 from 613:613 to 622:628 code 2 flags 10 pri 0 r1 ...
 *   incoming transaction 8350: ... (the same transaction, seen by its server)
 *   pending transaction 8351: ...  (queued, no server thread yet: to PID:0)
 *
 * Each becomes one issue row of tool "bugreport", type "binder_txn", with
 * no time (the text carries none: it is the bugreport's snapshot) and pid
 * and tid of its client ("from").  Its content is {"txn_id", "kind"
 * ("outgoing" | "incoming" | "pending"), "from_pid", "from_tid", "to_pid",
 * "to_tid", "code", "flags"} (code and flags as the kernel prints them:
 * hexadecimal, read as numbers).  BINDER STATE repeats the transactions
 * of BINDER TRANSACTIONS: it is read only when no BINDER TRANSACTIONS
 * section came before it.  A transaction line that cannot be read is
 * counted ("bugreport: binder transaction line unreadable") with its line;
 * the section's other lines (proc, thread, node, ref, buffer...) are
 * counted as "ignored: bugreport binder line (not a transaction)". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "reader/bugreport_int.h"
#include "core/skip_reasons.h"

static const char *skip_sp(const char *p, const char *e)
{
    while (p < e && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

/* A decimal (base 10) or hexadecimal (base 16) number of at most 15
 * digits at p; the end of it, or NULL. */
static const char *num(const char *p, const char *e, int base, int64_t *out)
{
    int64_t v = 0;
    int nd = 0;
    for (; p < e; p++, nd++) {
        int d;
        if (*p >= '0' && *p <= '9')
            d = *p - '0';
        else if (base == 16 && *p >= 'a' && *p <= 'f')
            d = *p - 'a' + 10;
        else if (base == 16 && *p >= 'A' && *p <= 'F')
            d = *p - 'A' + 10;
        else
            break;
        if (nd >= 15)
            return NULL;
        v = v * base + d;
    }
    if (nd == 0)
        return NULL;
    *out = v;
    return p;
}

/* "word " at p (after blanks): the position after it, or NULL. */
static const char *word(const char *p, const char *e, const char *w)
{
    p = skip_sp(p, e);
    size_t n = strlen(w);
    if ((size_t)(e - p) < n || memcmp(p, w, n) != 0)
        return NULL;
    p += n;
    if (p < e && *p != ' ' && *p != '\t')
        return NULL;
    return p;
}

/* "PID:TID" at p (after blanks). */
static const char *pid_tid(const char *p, const char *e, int64_t *pid, int64_t *tid)
{
    p = num(skip_sp(p, e), e, 10, pid);
    if (!p || p >= e || *p != ':')
        return NULL;
    return num(p + 1, e, 10, tid);
}

int gd_br_binder_parse(const char *s, size_t n, br_txn *t)
{
    const char *p = s, *e = s + n;
    static const char *const kinds[] = {"outgoing", "incoming", "pending"};
    const char *q = NULL;
    int k;
    for (k = 0; k < 3 && !q; k++)
        q = word(p, e, kinds[k]);
    if (!q)
        return 0;
    q = word(q, e, "transaction");
    if (!q)
        return 0;  /* "pending transactions:" headings and the like */
    memset(t, 0, sizeof *t);
    t->kind = kinds[k - 1];
    q = num(skip_sp(q, e), e, 10, &t->txn_id);
    if (!q || q >= e || *q != ':')
        return -1;
    /* the kernel's debug id of the transaction, then "from" */
    const char *f = NULL;
    for (const char *r = q + 1; r + 6 <= e && !f; r++)
        if (memcmp(r, " from ", 6) == 0)
            f = r + 5;
    if (!f || !(f = pid_tid(f, e, &t->from_pid, &t->from_tid)))
        return -1;
    if (!(f = word(f, e, "to")) || !(f = pid_tid(f, e, &t->to_pid, &t->to_tid)))
        return -1;
    if (!(f = word(f, e, "code")) || !(f = num(skip_sp(f, e), e, 16, &t->code)))
        return -1;
    if (!(f = word(f, e, "flags")) || !(f = num(skip_sp(f, e), e, 16, &t->flags)))
        return -1;
    return 1;
}

int gd_br_binder_line(gd_br *b, const char *s, size_t n, long line, gd_error *err)
{
    br_txn t;
    int r = gd_br_binder_parse(s, n, &t);
    if (r < 0) {
        gd_sink_skip(b->sink, GD_SKIP(BUGREPORT_BINDER_TRANSACTION_LINE_UNREADABLE), line, 1);
        return 0;
    }
    if (r == 0) {
        if (skip_sp(s, s + n) < s + n && !(n == 20 && memcmp(s, "binder transactions:", 20) == 0) &&
            !(n == 13 && memcmp(s, "binder state:", 13) == 0))
            gd_sink_skip(b->sink, GD_SKIP(IGNORED_BUGREPORT_BINDER_LINE_NOT_A), line, 1);
        return 0;
    }
    json_t *j = json_pack("{s:I s:s s:I s:I s:I s:I s:I s:I}", "txn_id", (json_int_t)t.txn_id, "kind", t.kind,
                          "from_pid", (json_int_t)t.from_pid, "from_tid", (json_int_t)t.from_tid, "to_pid",
                          (json_int_t)t.to_pid, "to_tid", (json_int_t)t.to_tid, "code", (json_int_t)t.code,
                          "flags", (json_int_t)t.flags);
    char *txt = j ? json_dumps(j, JSON_COMPACT) : NULL;
    json_decref(j);
    if (!txt)
        return gd_error_oom(err);
    gd_event ev;
    gd_event_init(&ev, GD_EV_ISSUE);
    ev.pid = t.from_pid;
    ev.tid = t.from_tid;
    ev.line = line;
    ev.u.issue.tool = "bugreport";
    ev.u.issue.type = "binder_txn";
    ev.u.issue.detail = t.kind;
    ev.u.issue.json = txt;
    int rc = gd_sink_event(b->sink, &ev, err);
    free(txt);
    b->binder_txns++;
    return rc;
}
