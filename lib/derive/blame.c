/* derive/blame.c - the blame of a block: the method with the largest self time inside its interval. */
#include <stdio.h>
#include <string.h>

#include "analysis/blocks.h"
#include "derive/calls.h"
#include "derive/methods.h"

int gd_methods_blame(gd_store *s, int64_t trace, const char *const *concern, size_t ncon,
                     int64_t pid, int64_t tid, double start, double end, char *out, size_t n,
                     gd_error *err)
{
    out[0] = 0;
    gd_calls_accs a = {0};
    int rc = gd_calls_walk(s, trace, pid, tid, start, end, gd_calls_acc_call, &a, err);
    if (rc == -1 || a.oom)
        rc = gd_error_oom(err);
    /* best concern candidate, else best non-framework one: larger self,
     * then the smaller name */
    sqlite3_stmt *nq = NULL;
    double best_self[2] = {0, 0};
    char best[2][1024] = {"", ""};
    for (size_t i = 0; !rc && i < a.n; i++) {
        if (!(a.v[i].self > 0))
            continue;
        gd_mname m;
        if ((rc = gd_calls_name(s, &nq, a.v[i].method, &m, err)))
            break;
        char full[1024];
        gd_calls_dotted(&m, full, sizeof full);
        gd_calls_name_free(&m);
        int k = gd_frame_is_concern(full, concern, ncon) ? 0 : !gd_frame_is_framework(full) ? 1 : -1;
        if (k < 0)
            continue;
        if (!best[k][0] || a.v[i].self > best_self[k] ||
            (a.v[i].self == best_self[k] && strcmp(full, best[k]) < 0)) {
            best_self[k] = a.v[i].self;
            snprintf(best[k], sizeof best[k], "%s", full);
        }
    }
    sqlite3_finalize(nq);
    gd_calls_accs_free(&a);
    if (!rc)
        snprintf(out, n, "%s", best[0][0] ? best[0] : best[1]);
    return rc;
}
