/* check_anrtype.c - an ANR's type, timeout and process from its reason;
 * a main thread idle in its looper (analysis/anrtype.c, #48). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/anrtype.h"
#include "analysis/blocks.h"
#include "testutil.h"

static gd_anr_kind kind(const char *reason, const char *process)
{
    gd_anr_kind k;
    gd_anr_kind_of(reason, process, &k);
    return k;
}

START_TEST(types_and_timeouts)
{
    /* the Android 15 record of the corpus (tokinouta_xiaomi_android15_example_anr_record, line 1) */
    gd_anr_kind k = kind("Input dispatching timed out (af4e4d2 NotificationShade (server) is not responding. "
                         "Waited 5000ms for MotionEvent(action=MOVE)).", "com.android.systemui");
    ck_assert_str_eq(k.type, "INPUT_DISPATCHING_TIMEOUT");
    ck_assert_str_eq(k.label, "input dispatch");
    ck_assert_int_eq(k.user_perceived, 1);
    ck_assert(k.timeout_ms == 5000 && k.waited_ms == 5000);
    k = kind("Input dispatching timed out (Application does not have a focused window)", NULL);
    ck_assert_str_eq(k.type, "INPUT_DISPATCHING_TIMEOUT_NO_FOCUSED_WINDOW");
    ck_assert(k.waited_ms == -1);
    /* FLAG_RECEIVER_FOREGROUND (0x10000000) set: 10 s; not set: 60 s */
    k = kind("Broadcast of Intent { act=android.intent.action.SCREEN_ON flg=0x50200010 }", NULL);
    ck_assert_str_eq(k.label, "broadcast (foreground)");
    ck_assert(k.timeout_ms == 10000 && k.user_perceived == 0);
    k = kind("Broadcast of Intent { act=com.example.SYNC flg=0x10 cmp=com.example.app/.SyncReceiver }", NULL);
    ck_assert_str_eq(k.label, "broadcast (background)");
    ck_assert(k.timeout_ms == 60000);
    k = kind("executing service com.example.notes/.SyncService", NULL);
    ck_assert_str_eq(k.type, "EXECUTING_SERVICE");
    ck_assert(k.timeout_ms == 20000);
    k = kind("ContentProvider not responding", NULL);
    ck_assert_str_eq(k.type, "CONTENT_PROVIDER_NOT_RESPONDING");
    ck_assert(k.timeout_ms == -1);
    ck_assert_str_eq(kind("No response to onStartJob", NULL).type, "JOB_SERVICE_START");
    ck_assert_str_eq(kind("Process ProcessRecord{1a2b 4321:com.x/u0a99} failed to complete startup", NULL).type,
                     "BIND_APPLICATION");
    ck_assert_str_eq(kind("Blocked in handler on foreground thread (android.fg) for 2s", "system_server").type,
                     "SYSTEM_SERVER_WATCHDOG_TIMEOUT");
    ck_assert(kind("Blocked in handler on foreground thread (android.fg) for 2s", "system_server").waited_ms == 2000);
    ck_assert_str_eq(kind("something else", "com.x").type, "UNKNOWN_ANR_TYPE");
    ck_assert_ptr_null(kind(NULL, "com.x").type);
}
END_TEST

START_TEST(reason_process)
{
    char b[64];
    ck_assert_int_eq(gd_anr_reason_process("Input dispatching timed out (af4e4d2 NotificationShade (server) is not "
                                           "responding. Waited 5000ms for MotionEvent(action=MOVE)).", b, sizeof b), 1);
    ck_assert_str_eq(b, "com.android.systemui");
    ck_assert_int_eq(gd_anr_reason_process("Input dispatching timed out (ActivityRecord{3a2b u0 "
                                           "com.example.shop/.CartActivity t12} is not responding)", b, sizeof b), 1);
    ck_assert_str_eq(b, "com.example.shop");
    ck_assert_int_eq(gd_anr_reason_process("Broadcast of Intent { act=X flg=0x10 cmp=com.a.b/.R }", b, sizeof b), 1);
    ck_assert_str_eq(b, "com.a.b");
    ck_assert_int_eq(gd_anr_reason_process("Process ProcessRecord{1a2b 4321:com.x:remote/u0a99} failed", b, sizeof b), 1);
    ck_assert_str_eq(b, "com.x:remote");
    ck_assert_int_eq(gd_anr_reason_process("ContentProvider not responding", b, sizeof b), 0);
    ck_assert_str_eq(b, "");
    /* a window name inside a word is not SystemUI's */
    ck_assert_int_eq(gd_anr_reason_process("MyStatusBarish timed out", b, sizeof b), 0);
}
END_TEST

START_TEST(idle_and_waiting)
{
    const char *idle[] = {"native:libc.so(__epoll_pwait+4)", "android.os.MessageQueue.nativePollOnce(Native method)",
                          "android.os.MessageQueue.next(MessageQueue.java:335)"};
    const char *latch[] = {"jdk.internal.misc.Unsafe.park(Native method)",
                           "java.util.concurrent.CountDownLatch.await(CountDownLatch.java:230)",
                           "com.example.player.session.PlayerSession.closeBlocking(PlayerSession.java:148)"};
    const char *dalvik2[] = {"android.os.MessageQueue.next(MessageQueue.java:119)", "android.os.Looper.loop(Looper.java:110)"};
    ck_assert_int_eq(gd_anr_main_idle(idle, 3), 1);
    ck_assert_int_eq(gd_anr_main_idle(latch, 3), 0);
    ck_assert_int_eq(gd_anr_main_idle(dalvik2, 2), 1);
    ck_assert_int_eq(gd_anr_main_idle(idle, 1), 0); /* native only: not known idle */
    ck_assert_int_eq(gd_frame_is_app(latch[2]), 1);
    ck_assert_int_eq(gd_frame_is_app(latch[1]), 0);
    ck_assert_int_eq(gd_frame_is_app(idle[0]), 0);
    ck_assert_int_eq(gd_anr_waiting_state("Waiting"), 1);
    ck_assert_int_eq(gd_anr_waiting_state("MONITOR"), 1);
    ck_assert_int_eq(gd_anr_waiting_state("Native"), 0);
    ck_assert_int_eq(gd_anr_waiting_state(NULL), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("anrtype");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, types_and_timeouts);
    tcase_add_test(tc, reason_process);
    tcase_add_test(tc, idle_and_waiting);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
