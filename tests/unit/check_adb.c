/* check_adb.c - running adb (lib/capture/adb.c) against a stand-in script named adb. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture/adb.h"

static char dir[256];

/* A script named adb first on PATH. */
static void fake_adb(const char *body)
{
    char p[300];
    snprintf(p, sizeof p, "%s/adb", dir);
    FILE *f = fopen(p, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "#!/bin/sh\n%s\n", body);
    fclose(f);
    chmod(p, 0755);
}

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/check_adb.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    setenv("PATH", dir, 1);
}

static void teardown(void)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "/bin/rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

START_TEST(test_argv)
{
    const char *args[] = {"shell", "pidof 'a.b'", NULL};
    const char *av[GD_ADB_MAX_ARGS + 4];
    gd_adb_argv("emulator-5554", args, av);
    ck_assert_str_eq(av[0], "adb");
    ck_assert_str_eq(av[1], "-s");
    ck_assert_str_eq(av[2], "emulator-5554");
    ck_assert_str_eq(av[4], "pidof 'a.b'");
    ck_assert_ptr_null(av[5]);
    char b[64];
    gd_adb_cmdline(NULL, args, b, sizeof b);
    ck_assert_str_eq(b, "adb shell pidof 'a.b'");
}
END_TEST

START_TEST(test_run)
{
    /* each argument arrives whole: no shell splits "pidof 'a.b'" */
    fake_adb("printf '%s|' \"$@\"; echo 'error: closed' >&2; echo more >&2; exit 3");
    const char *args[] = {"shell", "pidof 'a.b'; x", NULL};
    char *out = NULL, err[64];
    ck_assert_int_eq(gd_adb_run("S1", args, -1, &out, err, sizeof err, 10000), 3);
    ck_assert_str_eq(out, "-s|S1|shell|pidof 'a.b'; x|");
    ck_assert_str_eq(err, "error: closed");
    free(out);
}
END_TEST

START_TEST(test_timeout_and_missing)
{
    fake_adb("exec /bin/sleep 30");
    const char *args[] = {"get-state", NULL};
    char err[64];
    ck_assert_int_eq(gd_adb_run(NULL, args, -1, NULL, err, sizeof err, 300), -1);
    ck_assert_str_eq(err, "adb did not answer in 0.3 s");
    setenv("PATH", "/nonexistent", 1);
    ck_assert_int_eq(gd_adb_run(NULL, args, -1, NULL, err, sizeof err, 300), -1);
    ck_assert(strncmp(err, "cannot run adb: ", 16) == 0);
}
END_TEST

/* a signal counter past its base kills a hung adb at once, whatever the
 * timeout (#25 item 17): "interrupted", not "did not answer" */
START_TEST(test_interrupted)
{
    fake_adb("exec /bin/sleep 30");
    const char *args[] = {"shell", "dumpsys gfxinfo x framestats", NULL};
    char err[64];
    volatile sig_atomic_t count = 0;
    int irq = -1;
    ck_assert_int_eq(gd_adb_run_until(NULL, args, -1, NULL, err, sizeof err, 300, &count, 0, &irq), -1);
    ck_assert_int_eq(irq, 0);
    ck_assert_str_eq(err, "adb did not answer in 0.3 s");
    count = 2;
    ck_assert_int_eq(gd_adb_run_until(NULL, args, -1, NULL, err, sizeof err, 120000, &count, 1, &irq), -1);
    ck_assert_int_eq(irq, 1);
    ck_assert_str_eq(err, "interrupted");
    /* not past its base: runs to the end */
    fake_adb("exit 4");
    ck_assert_int_eq(gd_adb_run_until(NULL, args, -1, NULL, err, sizeof err, 120000, &count, 2, &irq), 4);
    ck_assert_int_eq(irq, 0);
}
END_TEST

START_TEST(test_background)
{
    fake_adb("printf 'cpu  1 2\\nbtime 5\\ncpu  3 4\\n'; exec /bin/sleep 30");
    char path[300];
    snprintf(path, sizeof path, "%s/out.txt", dir);
    const char *args[] = {"shell", "loop", NULL};
    gd_adb_bg b;
    ck_assert_int_eq(gd_adb_bg_start(&b, "S1", args, path), 0);
    for (int i = 0; i < 500 && b.lines < 3; i++) {
        usleep(10000);
        gd_adb_bg_count(&b);
    }
    ck_assert_int_eq(b.lines, 3);
    ck_assert_int_eq(b.samples, 2);
    ck_assert_int_eq(gd_adb_bg_done(&b), 0);
    gd_adb_bg_stop(&b);
    ck_assert_int_eq(b.pid, -1);
    ck_assert_int_eq(b.rfd, -1);
    gd_adb_bg_stop(&b); /* again: nothing to signal */
    ck_assert_int_eq(gd_adb_bg_done(&b), 1);
    gd_adb_bg idle;
    gd_adb_bg_init(&idle);
    ck_assert_int_eq(gd_adb_bg_done(&idle), 1);
    gd_adb_bg_stop(&idle);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("adb");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 20);
    tcase_add_test(tc, test_argv);
    tcase_add_test(tc, test_run);
    tcase_add_test(tc, test_timeout_and_missing);
    tcase_add_test(tc, test_interrupted);
    tcase_add_test(tc, test_background);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
