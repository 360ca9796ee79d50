/* check_retrace.c - R8/ProGuard mappings and frame retrace (lib/derive/retrace.c).
 * The R8-only grammar (metadata lines, qualified inline frames, synthesized
 * frames) is checked here on a hand-written R8 mapping; ProGuard's own
 * output is compared with the real tool in tests/retrace_proguard.sh. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "derive/retrace.h"
#include "derive/retrace_text.h"
#include "testutil.h"

static gd_mapping *load_text(const char *text, gd_error *err)
{
    gd_input *in;
    gd_mapping *m = NULL;
    ck_assert_int_eq(gd_input_open_mem(&in, text, strlen(text), err), 0);
    gd_mapping_load(&m, in, err);
    gd_input_close(in);
    return m;
}

static gd_mapping *r8(void)
{
    gd_error err = {0};
    gd_mapping *m = NULL;
    int rc = gd_mapping_load_file(&m, GODEYE_FIXTURES "/retrace/r8-mapping.txt", &err);
    ck_assert_msg(rc == 0, "%s", err.msg);
    return m;
}

/* Retraces "frame" and checks the frames of alternative `alt`. */
static void retrace(const gd_mapping *m, const char *frame, gd_retrace_res *res)
{
    gd_frame_parts fp;
    gd_error err = {0};
    ck_assert(gd_frame_split(frame, &fp));
    ck_assert_int_eq(gd_retrace_frame(m, fp.cls, fp.clen, fp.method, fp.mlen, fp.line, res, &err), 0);
}

static void frame_is(const gd_retrace_res *r, size_t i, const char *cls, const char *method,
                     const char *file, long line)
{
    ck_assert_uint_lt(i, r->n);
    ck_assert_str_eq(r->f[i].cls, cls);
    if (method)
        ck_assert_str_eq(r->f[i].method, method);
    else
        ck_assert_ptr_null(r->f[i].method);
    ck_assert_str_eq(r->f[i].file, file);
    ck_assert_int_eq(r->f[i].line, line);
}

/* Collects the matcher's output lines; stops (returns 7) at `stop_at`. */
typedef struct text_out {
    char lines[16][160];
    size_t n, stop_at;
} text_out;

static int take_line(void *ctx, const char *line)
{
    text_out *o = ctx;
    ck_assert_uint_lt(o->n, 16);
    snprintf(o->lines[o->n++], sizeof o->lines[0], "%s", line);
    return o->stop_at && o->n == o->stop_at ? 7 : 0;
}

/* The text matcher (derive/retrace_text.c): a stack read line by line
 * over the R8 fixture, each output checked against the frames t_r8_lines
 * and t_r8_ambiguous check one by one. */
START_TEST(t_text_lines)
{
    gd_mapping *m = r8();
    gd_retrace_text *t = gd_retrace_text_new(m, 0);
    ck_assert_ptr_nonnull(t);
    static const char *const in[] = {
        "a.b.e: boom",                                            /* the exception's class */
        "\tat a.b.c.d(SourceFile:11)",                           /* an inline chain: 2 frames */
        "\tat a.b.c.c(SourceFile:5)",                            /* ambiguous: <OR> */
        "\tat android.os.Handler.dispatchMessage(Handler.java:106)", /* unknown: as it is */
        "Caused by: a.b.c",
        "plain text",
    };
    static const char *const want[] = {
        "com.example.shop.feed.FeedAdapter$Holder: boom",
        "\tat com.example.shop.feed.FeedAdapter.over(FeedAdapter.kt:71)",
        "\tat com.example.shop.feed.FeedAdapter.over(FeedAdapter.kt:80)",
        "\tat com.example.shop.feed.FeedAdapter.other(FeedAdapter.kt:5)",
        "\t<OR> at com.example.shop.feed.FeedAdapter.unlined(FeedAdapter.kt:5)",
        "\tat android.os.Handler.dispatchMessage(Handler.java:106)",
        "Caused by: com.example.shop.feed.FeedAdapter",
        "plain text",
    };
    text_out o = {.n = 0};
    gd_error err = {0};
    for (size_t i = 0; i < sizeof in / sizeof *in; i++)
        ck_assert_int_eq(gd_retrace_text_line(t, in[i], take_line, &o, &err), 0);
    ck_assert_uint_eq(o.n, sizeof want / sizeof *want);
    for (size_t i = 0; i < o.n; i++)
        ck_assert_str_eq(o.lines[i], want[i]);
    /* the callback's nonzero return stops the line and is returned */
    text_out stop = {.stop_at = 1};
    ck_assert_int_eq(gd_retrace_text_line(t, "\tat a.b.c.d(SourceFile:11)", take_line, &stop, &err), 7);
    ck_assert_uint_eq(stop.n, 1);
    ck_assert_str_eq(stop.lines[0], want[1]);
    gd_retrace_text_free(t);
    gd_mapping_free(m);
}
END_TEST

START_TEST(t_r8_header)
{
    gd_mapping *m = r8();
    ck_assert_str_eq(gd_mapping_version(m), "2.2");
    ck_assert_uint_eq(gd_mapping_classes(m), 3);
    ck_assert_uint_eq(gd_mapping_members(m), 15); /* methods; the field is not kept */
    const char *id;
    long line;
    ck_assert_uint_eq(gd_mapping_unknown_ids(m, &id, &line), 1);
    ck_assert_str_eq(id, "com.android.tools.r8.residualsignature");
    ck_assert_int_eq(line, 29);
    ck_assert_str_eq(gd_mapping_class(m, "a.b.c", 5), "com.example.shop.feed.FeedAdapter");
    ck_assert_str_eq(gd_mapping_class(m, "a.b.e", 5), "com.example.shop.feed.FeedAdapter$Holder");
    ck_assert_ptr_null(gd_mapping_class(m, "a.b.x", 5));
    ck_assert_ptr_null(gd_mapping_class(m, "a.b", 3));
    ck_assert_uint_eq(strlen(gd_mapping_hash(m)), 32);
    gd_mapping_free(m);
}
END_TEST

START_TEST(t_r8_lines)
{
    gd_mapping *m = r8();
    gd_retrace_res r = {0};
    /* range with an original range: c + (L - a) */
    retrace(m, "a.b.c.a(SourceFile:3)", &r);
    ck_assert_uint_eq(r.nalt, 1);
    ck_assert_uint_eq(r.n, 1);
    frame_is(&r, 0, "com.example.shop.feed.FeedAdapter", "bind", "FeedAdapter.kt", 41);
    /* one original line */
    retrace(m, "a.b.c.b(SourceFile:6)", &r);
    frame_is(&r, 0, "com.example.shop.feed.FeedAdapter", "render", "FeedAdapter.kt", 50);
    retrace(m, "a.b.c.b(SourceFile:8)", &r);
    ck_assert_uint_eq(r.n, 1);
    frame_is(&r, 0, "com.example.shop.feed.FeedAdapter", "render", "FeedAdapter.kt", 61);
    /* sourceFile applies to the class it follows only; inner classes take
     * the outer class's name */
    retrace(m, "a.b.e.a(SourceFile:4)", &r);
    frame_is(&r, 0, "com.example.shop.feed.FeedAdapter$Holder", "onClick", "FeedAdapter.java", 21);
    gd_retrace_res_free(&r);
    gd_mapping_free(m);
}
END_TEST

START_TEST(t_r8_inline)
{
    gd_mapping *m = r8();
    gd_retrace_res r = {0};
    /* qualified inlinee first, then its caller at the call-site line */
    retrace(m, "a.b.c.a(SourceFile:4)", &r);
    ck_assert_uint_eq(r.nalt, 1);
    ck_assert_uint_eq(r.n, 2);
    frame_is(&r, 0, "com.example.shop.util.Images", "load", "Images.java", 7);
    frame_is(&r, 1, "com.example.shop.feed.FeedAdapter", "bind", "FeedAdapter.kt", 42);
    /* the synthesized lambda frame is stripped */
    retrace(m, "a.b.c.a(SourceFile:5)", &r);
    ck_assert_uint_eq(r.nalt, 1);
    ck_assert_uint_eq(r.n, 1);
    frame_is(&r, 0, "com.example.shop.feed.FeedAdapter", "bind", "FeedAdapter.kt", 43);
    /* a synthesized class with nothing else left: the frame is dropped
     * (R8's SyntheticLambdaMethodStackTrace) */
    retrace(m, "a.b.d.run(SourceFile:1)", &r);
    ck_assert_uint_eq(r.nalt, 0);
    ck_assert_uint_eq(r.n, 0);
    ck_assert_int_eq(r.dropped, 1);
    gd_retrace_res_free(&r);
    gd_mapping_free(m);
}
END_TEST

START_TEST(t_r8_ambiguous)
{
    gd_mapping *m = r8();
    gd_retrace_res r = {0};
    /* two members of one name with the same range, another name between
     * them: R8 reads them as one inline chain (IdentityMappingStackTrace),
     * the caller at its call-site line */
    retrace(m, "a.b.c.d(SourceFile:11)", &r);
    ck_assert_uint_eq(r.nalt, 1);
    ck_assert_uint_eq(r.n, 2);
    frame_is(&r, 0, "com.example.shop.feed.FeedAdapter", "over", "FeedAdapter.kt", 71);
    frame_is(&r, 1, "com.example.shop.feed.FeedAdapter", "over", "FeedAdapter.kt", 80);
    /* members without a range fit any line */
    retrace(m, "a.b.c.c(SourceFile:5)", &r);
    ck_assert_uint_eq(gd_retrace_distinct(&r), 2);
    frame_is(&r, 0, "com.example.shop.feed.FeedAdapter", "unlined", "FeedAdapter.kt", 5);
    frame_is(&r, 1, "com.example.shop.feed.FeedAdapter", "other", "FeedAdapter.kt", 5);
    /* no line, no 0:0 range: the outermost member of each chain (R8) */
    retrace(m, "a.b.c.b(Unknown Source)", &r);
    ck_assert_uint_eq(r.nalt, 2);
    ck_assert_uint_eq(gd_retrace_distinct(&r), 1); /* render twice */
    frame_is(&r, 0, "com.example.shop.feed.FeedAdapter", "render", "FeedAdapter.kt", -1);
    retrace(m, "a.b.c.a(Unknown Source)", &r);
    ck_assert_uint_eq(r.nalt, 3); /* bind three times */
    ck_assert_uint_eq(gd_retrace_distinct(&r), 1);
    gd_retrace_res_free(&r);
    gd_mapping_free(m);
}
END_TEST

START_TEST(t_unknown)
{
    gd_mapping *m = r8();
    gd_retrace_res r = {0};
    /* a class not in the mapping: nothing */
    retrace(m, "android.os.Handler.dispatchMessage(Handler.java:106)", &r);
    ck_assert_uint_eq(r.nalt, 0);
    /* a known class, an unknown member: the class only, line kept */
    retrace(m, "a.b.c.zz(SourceFile:3)", &r);
    ck_assert_uint_eq(r.nalt, 1);
    ck_assert_int_eq(r.member_known, 0);
    frame_is(&r, 0, "com.example.shop.feed.FeedAdapter", NULL, "FeedAdapter.kt", 3);
    /* a line outside every range of that name: the same (ProGuard does so) */
    retrace(m, "a.b.c.a(SourceFile:99)", &r);
    ck_assert_int_eq(r.member_known, 0);
    frame_is(&r, 0, "com.example.shop.feed.FeedAdapter", NULL, "FeedAdapter.kt", 99);
    gd_retrace_res_free(&r);
    gd_mapping_free(m);
}
END_TEST

START_TEST(t_split)
{
    gd_frame_parts p;
    ck_assert(gd_frame_split("a.b.C.m(C.java:12) ~[x]", &p));
    ck_assert_int_eq((int)p.clen, 5);
    ck_assert_int_eq((int)p.mlen, 1);
    ck_assert_int_eq((int)p.flen, 6);
    ck_assert_int_eq(p.line, 12);
    ck_assert_str_eq(p.rest, " ~[x]");
    ck_assert(gd_frame_split("java.lang.Object.wait(Native Method)", &p));
    ck_assert_int_eq(p.line, -1);
    ck_assert_int_eq((int)p.flen, 13);
    ck_assert(!gd_frame_split("#00 pc 0001e0 /system/lib/libc.so (__epoll_pwait+8)", &p));
    ck_assert(!gd_frame_split("noclass(X.java:1)", &p));
    ck_assert(!gd_frame_split("a.b.c", &p));
    /* module prefixes (R8's NamedModuleStackTrace), Play services' file
     * with parentheses (AutoStackTrace), "File:" without a number */
    ck_assert(gd_frame_split("classloader.a.b.a/named_module@9.0/a.a(:101)", &p));
    ck_assert_int_eq((int)p.modlen, 35);
    ck_assert_int_eq((int)p.clen, 1);
    ck_assert_int_eq(p.line, 101);
    ck_assert(gd_frame_split("qtr.a(:com.google.android.gms@203915081@20.39.15 (060808-335085812):46)", &p));
    ck_assert_int_eq((int)p.modlen, 0);
    ck_assert_int_eq(p.line, 46);
    ck_assert_str_eq(p.rest, "");
    ck_assert(gd_frame_split("R8.main(Main.java:)", &p));
    ck_assert_int_eq(p.line, -1);
    ck_assert_int_eq((int)p.flen, 9);
    ck_assert(!gd_frame_split("a/b:c.d(X.java:1)", &p));
}
END_TEST

static void bad(const char *text, long line, long col, const char *msg)
{
    gd_error err = {0};
    gd_mapping *m = load_text(text, &err);
    ck_assert_ptr_null(m);
    ck_assert_int_eq(err.code, GD_ERR_DATA);
    ck_assert_int_eq(err.line, line);
    ck_assert_int_eq(err.col, col);
    ck_assert_msg(strstr(err.msg, msg), "%s", err.msg);
}

START_TEST(t_errors)
{
    bad("    void f() -> a\n", 1, 5, "before any class");
    bad("a.B -> c\n", 1, 9, "expected ':'");
    bad("a.B -> c:\n    3:4:void f():x -> a\n", 2, 18, "expected an original line number");
    bad("a.B -> c:\n    1:2:void f( -> a\n", 2, 15, "expected ')'");
    bad("a.B -> c:\n    void f() a\n", 2, 5, "expected 'member -> obfuscated'");
    bad("a.B -> c:\nd.E -> c:\n", 2, 8, "named twice");
    /* an empty mapping is a mapping; a reversed range is read in order */
    gd_error err = {0};
    gd_mapping *e = load_text("# only a comment\n\n", &err);
    ck_assert_ptr_nonnull(e);
    ck_assert_uint_eq(gd_mapping_classes(e), 0);
    gd_mapping_free(e);
    e = load_text("a.B -> c:\n    5:3:void f():9:7 -> a\n", &err);
    ck_assert_ptr_nonnull(e);
    gd_retrace_res rr = {0};
    retrace(e, "c.a(SourceFile:4)", &rr);
    frame_is(&rr, 0, "a.B", "f", "B.java", 8);
    gd_retrace_res_free(&rr);
    gd_mapping_free(e);
    /* a plain comment and a metadata line that is not JSON are comments */
    gd_mapping *m = load_text("# {not json\na.B -> c:\n    1:1:int f():5 -> a\n", &err);
    ck_assert_ptr_nonnull(m);
    ck_assert_uint_eq(gd_mapping_unknown_ids(m, NULL, NULL), 0);
    gd_mapping_free(m);
}
END_TEST

START_TEST(t_proguard_file)
{
    /* ProGuard 6.2's own output for tests/retrace/java (the program of
     * tests/retrace_proguard.sh), 3 optimisation passes */
    gd_error err = {0};
    gd_mapping *m = NULL;
    ck_assert_int_eq(gd_mapping_load_file(&m, GODEYE_FIXTURES "/retrace/proguard-mapping.txt", &err), 0);
    gd_retrace_res r = {0};
    retrace(m, "com.example.app.Main.main(SourceFile:1045)", &r);
    ck_assert_uint_eq(r.nalt, 1);
    ck_assert_uint_eq(r.n, 5);
    frame_is(&r, 0, "com.example.app.Main", "inner", "Main.java", 45);
    frame_is(&r, 1, "com.example.app.Main", "middle", "Main.java", 41);
    frame_is(&r, 4, "com.example.app.Main", "main", "Main.java", 18);
    retrace(m, "com.example.app.c.a(SourceFile:1006)", &r);
    frame_is(&r, 0, "com.example.util.Checker", "check", "Checker.java", 6);
    /* Worker.step kept (12:16 without an original range: lines kept) */
    retrace(m, "com.example.app.c.a(SourceFile:14)", &r);
    ck_assert_uint_eq(r.n, 1);
    frame_is(&r, 0, "com.example.app.Worker", "step", "Worker.java", 14);
    gd_retrace_res_free(&r);
    gd_mapping_free(m);
}
END_TEST

/* fuzz_mapping (CI): a synthesized member whose one obfuscated line stands
 * for ~2^31 original lines.  Every alternative is dropped (synthesized),
 * so none is kept and the alternatives cap was never reached: the loop
 * went over the whole span (a 10 s timeout).  At most 32 lines are tried,
 * the rest are counted as cut. */
START_TEST(t_wide_span_dropped)
{
    gd_error err = {0};
    gd_mapping *m = load_text("x.Y -> a.a:\n"
                              "    1:1:void m():1:2000000000 -> a\n"
                              "    # {\"id\":\"com.android.tools.r8.synthesized\"}\n"
                              "    2:2:void n():1:2000000000 -> b\n",
                              &err);
    ck_assert_msg(m != NULL, "%s", err.msg);
    gd_retrace_res r = {0};
    retrace(m, "a.a.a(SourceFile:1)", &r);
    ck_assert_uint_eq(r.nalt, 0);
    ck_assert_int_eq(r.dropped, 1);
    ck_assert_uint_eq(r.cut, 2000000000u - GD_RETRACE_MAX_ALTS);
    /* a kept span: 32 alternatives, lines 1..32, the rest cut */
    retrace(m, "a.a.b(SourceFile:2)", &r);
    ck_assert_uint_eq(r.nalt, GD_RETRACE_MAX_ALTS);
    frame_is(&r, 0, "x.Y", "n", "Y.java", 1);
    frame_is(&r, GD_RETRACE_MAX_ALTS - 1, "x.Y", "n", "Y.java", GD_RETRACE_MAX_ALTS);
    ck_assert_uint_eq(r.cut, 2000000000u - GD_RETRACE_MAX_ALTS);
    gd_retrace_res_free(&r);
    gd_mapping_free(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("retrace");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, t_r8_header);
    tcase_add_test(tc, t_r8_lines);
    tcase_add_test(tc, t_r8_inline);
    tcase_add_test(tc, t_r8_ambiguous);
    tcase_add_test(tc, t_unknown);
    tcase_add_test(tc, t_split);
    tcase_add_test(tc, t_errors);
    tcase_add_test(tc, t_proguard_file);
    tcase_add_test(tc, t_wide_span_dropped);
    tcase_add_test(tc, t_text_lines);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
