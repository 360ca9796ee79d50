/* ftrace_binder.h - binder transactions from the kernel's binder ftrace events.
 *
 * Shared by the perfetto reader (ftrace protobuf events) and the systrace
 * reader (the same events as text lines).  The caller feeds the events in
 * time order; a transaction comes out (GD_EV_BINDER) when it completes:
 *   - binder_transaction (reply 0) on the client thread: the call starts;
 *     one-way (flags & 1) calls complete when the server receives them
 *     (client dur 0, as Perfetto's "binder transaction async");
 *   - binder_transaction_received of it on a server thread: the server
 *     side starts there;
 *   - binder_transaction (reply 1) on that server thread: the server side
 *     ends (the call the thread is serving, innermost first: the calls a
 *     server thread serves nest on its stack of reader/slicetrack.h, as
 *     Perfetto's binder tracker keeps them on its slice tracker);
 *   - binder_transaction_received of the reply on the client: the client
 *     side ends.
 *   - binder_return with a failure (BR_DEAD_REPLY, BR_FAILED_REPLY,
 *     BR_FROZEN_REPLY, BR_TRANSACTION_PENDING_FROZEN) on a client thread:
 *     its innermost synchronous call ends there, marked with the failure
 *     (reply_status), as Perfetto's binder tracker ends it.
 * A call whose reply never came comes out from gd_binder_finish without a
 * client end (dur NONE); a reply or a received event matching no call is
 * counted ("<prefix>: binder reply without its transaction").
 *
 * Memory: at most GD_BINDER_MAX_OPEN calls waiting (the oldest is dropped
 * and counted beyond it) and per server thread a stack of the calls it
 * serves, GD_BINDER_MAX_DEPTH deep (a call received deeper is counted and
 * its reply closes nothing), GD_BINDER_MAX_OPEN open in all. */
#ifndef GD_READER_FTRACE_BINDER_H
#define GD_READER_FTRACE_BINDER_H

#include <stddef.h>
#include <stdint.h>

#include "core/event.h"

#define GD_BINDER_MAX_OPEN 65536
#define GD_BINDER_MAX_DEPTH 16

typedef struct gd_binder gd_binder;

gd_binder *gd_binder_new(const gd_sink *sink, const char *prefix);
void gd_binder_free(gd_binder *b);
/* Names the server process of each transaction as it comes out
 * (server_process): fn(ctx, pid) gives the name the trace gives process
 * pid, or NULL; the name is read at once (it need only live until fn is
 * called again).  Without it server_process is NULL. */
typedef const char *(*gd_binder_process_fn)(void *ctx, int64_t pid);
void gd_binder_set_process_names(gd_binder *b, gd_binder_process_fn fn, void *ctx);
/* #51 item 4: the client's process when the events give only its thread
 * (ftrace's pid is the thread): fn(ctx, tid, &pid, &name) as
 * gd_sched_lookup_fn, 1 with pid (-1 unknown) when the trace knows the
 * thread (a process tree's thread entry, a TGID column); Perfetto's
 * test_android_binder attributes the calls of thread 7 to its process 1.
 * Without it, or when unknown, the client's pid is left to ingest (its
 * thread rows). */
typedef int (*gd_binder_thread_fn)(void *ctx, int64_t tid, int64_t *pid, const char **name);
void gd_binder_set_thread_lookup(gd_binder *b, gd_binder_thread_fn fn, void *ctx);

/* binder_transaction by thread tid at ts_ns.  0 or the sink's error code. */
int gd_binder_transaction(gd_binder *b, int64_t ts_ns, int64_t tid, int64_t id, int64_t to_proc,
                          int64_t to_thread, int reply, int64_t flags, int64_t code, long line,
                          gd_error *err);
/* binder_transaction_received by thread tid at ts_ns. */
int gd_binder_received(gd_binder *b, int64_t ts_ns, int64_t tid, int64_t id, long line, gd_error *err);

/* binder_return (cmd = the BR_ code) by thread tid at ts_ns: only failures
 * matter (a failure without a call waiting is counted). */
int gd_binder_return(gd_binder *b, int64_t ts_ns, int64_t tid, int64_t cmd, long line, gd_error *err);
/* The failure a binder_return cmd names ("BR_FAILED_REPLY"...), NULL for
 * any other command. */
const char *gd_binder_failure(int64_t cmd);

/* One ftrace text event (systrace); *used = 1 when it is binder_transaction,
 * binder_transaction_received or binder_return. */
int gd_binder_text(gd_binder *b, int64_t ts_ns, int64_t tid, const char *func, size_t flen,
                   const char *payload, size_t plen, long line, int *used, gd_error *err);

/* Emits the calls still waiting for their reply.  0 or the sink's error. */
int gd_binder_finish(gd_binder *b, gd_error *err);

unsigned long gd_binder_count(const gd_binder *b);

#endif
