/* check_bugreport.c - the adb bugreport reader: text sections routed to
 * their readers with bugreport line numbers, and the zip path with its caps. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zip.h>

#include "reader/bugreport.h"
#include "reader/bugreport_int.h"
#include "testutil.h"

extern const gd_reader gd_reader_bugreport;
#define R (&gd_reader_bugreport)
#define SMALL GODEYE_FIXTURES "/bugreport/small.txt"

static const char *sval(json_t *o, const char *k) { return json_string_value(json_object_get(o, k)); }

/* ---- a sink that keeps lines: events' and skips' first positions ---- */

typedef struct lines {
    long ev_line[64];
    int ev_kind[64];
    size_t nev;
    char reasons[512][96];
    long first[512];
    long count[512];
    size_t nr;
    gd_meta meta;
    char device[64], json[512], clock[16];
    int metas;
} lines;

static int l_meta(void *ctx, const gd_meta *m, gd_error *err)
{
    lines *l = ctx;
    l->metas++;
    snprintf(l->device, sizeof l->device, "%s", m->device ? m->device : "");
    snprintf(l->json, sizeof l->json, "%s", m->json ? m->json : "");
    snprintf(l->clock, sizeof l->clock, "%s", m->clock ? m->clock : "");
    l->meta.api_level = m->api_level;
    l->meta.pid = m->pid;
    return 0;
}

static int l_event(void *ctx, const gd_event *ev, gd_error *err)
{
    lines *l = ctx;
    if (ev->kind == GD_EV_LOG) /* log lines are rows, not the sections' events */
        return 0;
    if (l->nev < 64) {
        l->ev_line[l->nev] = ev->line;
        l->ev_kind[l->nev++] = ev->kind;
    }
    return 0;
}

static void l_skip(void *ctx, const char *reason, long line, long col)
{
    lines *l = ctx;
    for (size_t i = 0; i < l->nr; i++)
        if (strcmp(l->reasons[i], reason) == 0) {
            l->count[i]++;
            return;
        }
    if (l->nr < 512) {
        snprintf(l->reasons[l->nr], sizeof l->reasons[0], "%s", reason);
        l->first[l->nr] = line;
        l->count[l->nr++] = 1;
    }
}

static long first_line(const lines *l, const char *reason)
{
    for (size_t i = 0; i < l->nr; i++)
        if (strcmp(l->reasons[i], reason) == 0)
            return l->first[i];
    return -1;
}

static long count_of(const lines *l, const char *reason)
{
    for (size_t i = 0; i < l->nr; i++)
        if (strcmp(l->reasons[i], reason) == 0)
            return l->count[i];
    return 0;
}

static long line_of_kind(const lines *l, int kind, size_t nth)
{
    for (size_t i = 0; i < l->nev; i++)
        if (l->ev_kind[i] == kind && nth-- == 0)
            return l->ev_line[i];
    return -1;
}

static int read_lines(const char *path, lines *l, gd_error *err)
{
    memset(l, 0, sizeof *l);
    gd_sink sink = {l, l_meta, l_event, l_skip};
    gd_input *in = NULL;
    if (gd_input_open_file(&in, path, err))
        return -1;
    gd_read_opts ro = {.year = 2024};
    int rc = R->read(in, &sink, &ro, err);
    gd_input_close(in);
    return rc;
}

static char *slurp(const char *path, size_t *n);

/* ---- text ---- */

START_TEST(test_text_sections)
{
    gd_collected c;
    gd_read_opts ro = {.year = 2024};
    gd_test_read_file(R, SMALL, &ro, &c);
    ck_assert_int_eq(c.rc, 0);
    /* SYSTEM LOG -> logcat: a Looper begin and end */
    ck_assert_uint_eq(gd_collected_count(&c, "looper"), 2);
    /* VM TRACES AT LAST ANR -> anr: two threads, the main state */
    ck_assert_uint_eq(gd_collected_count(&c, "stack"), 2);
    json_t *st = gd_collected_nth(&c, "stack", 0);
    ck_assert_str_eq(sval(st, "state"), "Blocked");
    ck_assert_int_eq(json_integer_value(json_object_get(st, "pid")), 1234);
    /* the main state and (#28) the dump's anr_dump issue */
    ck_assert_uint_eq(gd_collected_count(&c, "issue"), 2);
    /* DUMP OF SERVICE gfxinfo -> gfxinfo: two frames (#51: the Flags 1
     * row is a frame, as JankTracker counts it) and the summary */
    ck_assert_uint_eq(gd_collected_count(&c, "frame"), 2);
    ck_assert_uint_eq(gd_collected_count(&c, "frame_summary"), 1);
    /* the gfxinfo dump's "Graphics info for pid N [PKG]" names its process */
    ck_assert_uint_eq(gd_collected_count(&c, "process"), 1);
    ck_assert_uint_eq(json_array_size(c.events), 8 + 1 + 1); /* + the dump's anr_dump issue (#28), the process */
    /* other sections: once per title, not per line */
    ck_assert_int_eq(gd_collected_skips(&c, "ignored: bugreport section: MEMORY INFO"), 2);
    ck_assert_int_eq(gd_collected_skips(&c, "ignored: bugreport section: DUMP OF SERVICE SurfaceFlinger"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "ignored: bugreport section: DUMP OF SERVICE window"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "ignored: bugreport section: DUMPSYS"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "ignored: bugreport section: SYSTEM PROPERTIES"), 0);
    ck_assert_int_eq(gd_collected_skips(&c, "ignored: bugreport line outside a section"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "logcat: unparsable line"), 1);
    ck_assert_int_eq(gd_collected_skips(&c, "gfxinfo: outlier frame (Flags 1: window visibility changed)"), 0);
    /* one meta: the device's; its app the ANR's process at last ANR
     * (small.txt line 23, "Cmd line: com.example.shop", #30), never its pid */
    ck_assert_uint_eq(json_array_size(c.metas), 1);
    json_t *m = json_array_get(c.metas, 0);
    ck_assert_str_eq(sval(m, "device"), "Pixel 6");
    ck_assert_int_eq(json_integer_value(json_object_get(m, "api_level")), 34);
    ck_assert_str_eq(sval(m, "app"), "com.example.shop");
    ck_assert_ptr_null(json_object_get(m, "pid"));
    gd_collected_free(&c);
}
END_TEST

/* #30: without a dump at last ANR, the app is the package of dumpsys
 * activity's first mResumedActivity naming one (both record spellings); a
 * dump "JUST NOW" names no app; with neither, none. */
START_TEST(test_text_app)
{
    static const char head[] = "== dumpstate: 2024-03-05 14:22:07\n"
                               "------ VM TRACES JUST NOW (/data/anr/t: 2024-03-05 14:21:00) ------\n"
                               "----- pid 77 at 2024-03-05 14:21:00 -----\n"
                               "Cmd line: system_server\n"
                               "----- end 77 -----\n";
    static const char *const acts[] = {
        "  mResumedActivity: ActivityRecord{25f1806 u0 com.jeanboy.app/.ui.MainActivity t12}\n",
        "  mResumedActivity: HistoryRecord{40838768 com.sonymobile.testapp/.HybridDeadlock}\n",
        "  mResumedActivity: null\n",
    };
    /* a null record names nothing: the next line that names one is taken */
    static const char *const want[] = {"com.jeanboy.app", "com.sonymobile.testapp", "com.second"};
    for (int i = 0; i < 3; i++) {
        char text[1024];
        snprintf(text, sizeof text,
                 "%s-------------------------------------------------------------------------------\n"
                 "DUMP OF SERVICE CRITICAL activity:\n"
                 "ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\n%s"
                 "  mResumedActivity: ActivityRecord{1 u0 com.second/.Later t1}\n",
                 head, acts[i]);
        gd_collected c;
        gd_read_opts ro = {.year = 2024};
        gd_test_read_mem(R, text, strlen(text), &ro, &c);
        ck_assert_int_eq(c.rc, 0);
        ck_assert_uint_eq(json_array_size(c.metas), 1);
        json_t *m = json_array_get(c.metas, 0);
        ck_assert_str_eq(sval(m, "app"), want[i]);
        gd_collected_free(&c);
    }
    /* neither: no app */
    gd_collected c;
    gd_read_opts ro = {.year = 2024};
    gd_test_read_mem(R, head, strlen(head), &ro, &c);
    ck_assert_int_eq(c.rc, 0);
    ck_assert_uint_eq(json_array_size(c.metas), 1);
    ck_assert_ptr_null(json_object_get(json_array_get(c.metas, 0), "app"));
    gd_collected_free(&c);
}
END_TEST

START_TEST(test_text_positions)
{
    lines l;
    gd_error err = {0};
    ck_assert_int_eq(read_lines(SMALL, &l, &err), 0);
    /* lines of the whole bugreport, not of the section */
    ck_assert_int_eq(first_line(&l, "logcat: unparsable line"), 17);
    ck_assert_int_eq(first_line(&l, "gfxinfo: outlier frame (Flags 1: window visibility changed)"), -1); /* #51: a frame */
    ck_assert_int_eq(first_line(&l, "ignored: bugreport section: MEMORY INFO"), 9);
    ck_assert_int_eq(first_line(&l, "ignored: bugreport section: DUMP OF SERVICE window"), 67);
    ck_assert_int_eq(first_line(&l, "ignored: bugreport line outside a section"), 19);
    ck_assert_int_eq(line_of_kind(&l, GD_EV_LOOPER, 0), 15);
    ck_assert_int_eq(line_of_kind(&l, GD_EV_LOOPER, 1), 16);
    ck_assert_int_eq(line_of_kind(&l, GD_EV_FRAME, 0), 61);
    ck_assert_int_eq(l.metas, 1);
    ck_assert_str_eq(l.device, "Pixel 6");
    ck_assert_str_eq(l.clock, "local");
    ck_assert_ptr_nonnull(strstr(l.json, "\"dumpstate\":\"2024-03-05 14:22:07\""));
    ck_assert_ptr_nonnull(strstr(l.json, "\"build\":\"UQ1A.240105.004\""));
    ck_assert_ptr_nonnull(strstr(l.json, "\"fingerprint\":\"google/oriole/oriole:14/"));
    ck_assert_ptr_nonnull(strstr(l.json, "\"bugreport\":\"text\""));
}
END_TEST

/* The smallest bugreport: banner, one section; detection by content. */
START_TEST(test_text_minimal_and_probe)
{
    static const char txt[] =
        "========================================================\n"
        "== dumpstate: 2024-03-05 14:22:07\n"
        "========================================================\n"
        "------ VM TRACES JUST NOW (/data/anr/dumptrace_x: 2024-03-05 14:22:08) ------\n"
        "----- pid 12 at 2024-03-05 14:22:08 -----\n"
        "\"main\" prio=5 tid=1 Native\n"
        "  at a.B.c(B.java:1)\n"
        "----- end 12 -----\n";
    gd_collected c;
    gd_test_read_mem(R, txt, sizeof txt - 1, NULL, &c);
    ck_assert_int_eq(c.rc, 0);
    ck_assert_uint_eq(gd_collected_count(&c, "stack"), 1);
    gd_collected_free(&c);
    /* no dumpstate banner: not a bugreport */
    ck_assert_int_eq(R->probe((const unsigned char *)txt + 57, sizeof txt - 58, 1), 0);
    ck_assert_int_eq(R->probe((const unsigned char *)txt, sizeof txt - 1, 1), 100);
    static const char logcat[] = "03-05 14:20:00.000  1234  1234 D Looper  : hi\n";
    ck_assert_int_eq(R->probe((const unsigned char *)logcat, sizeof logcat - 1, 1), 0);
}
END_TEST

/* Saved by a Windows tool: UTF-16LE with a BOM and CRLF endings. */
START_TEST(test_text_utf16)
{
    size_t n;
    char *txt = slurp(SMALL, &n);
    unsigned char *w = malloc(4 * n + 2);
    size_t k = 0;
    w[k++] = 0xff, w[k++] = 0xfe;
    for (size_t i = 0; i < n; i++) {
        if (txt[i] == '\n')
            w[k++] = '\r', w[k++] = 0;
        w[k++] = (unsigned char)txt[i], w[k++] = 0;
    }
    ck_assert_int_eq(gd_test_probe_mem(R, w, k), 100);
    gd_collected c;
    gd_read_opts ro = {.year = 2024};
    gd_test_read_mem(R, w, k, &ro, &c);
    ck_assert_int_eq(c.rc, 0);
    ck_assert_uint_eq(json_array_size(c.events), 8 + 1 + 1); /* + the dump's anr_dump issue (#28), gfxinfo's process */
    ck_assert_uint_eq(gd_collected_count(&c, "stack"), 2);
    ck_assert_int_eq(gd_collected_skips(&c, "ignored: bugreport section: MEMORY INFO"), 2);
    gd_collected_free(&c);
    free(w);
    free(txt);
}
END_TEST

/* ---- zip ---- */

typedef struct zmem {
    const char *name;
    const char *data;
    size_t len;
    int encrypt;
} zmem;

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    long k = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)k + 1);
    ck_assert_uint_eq(fread(b, 1, (size_t)k, f), (size_t)k);
    fclose(f);
    *n = (size_t)k;
    return b;
}

/* Writes a zip of the members to a temp file; returns its path (static). */
static const char *make_zip(const zmem *m, size_t n)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/check_bugreport_XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    int ze = 0;
    zip_t *za = zip_open(path, ZIP_TRUNCATE | ZIP_CREATE, &ze);
    ck_assert_ptr_nonnull(za);
    for (size_t i = 0; i < n; i++) {
        zip_source_t *s = zip_source_buffer(za, m[i].data, m[i].len, 0);
        ck_assert_ptr_nonnull(s);
        zip_int64_t idx = zip_file_add(za, m[i].name, s, ZIP_FL_ENC_UTF_8);
        ck_assert_int_ge(idx, 0);
        if (m[i].encrypt)
            ck_assert_int_eq(zip_file_set_encryption(za, (zip_uint64_t)idx, ZIP_EM_AES_256, "secret"), 0);
    }
    ck_assert_int_eq(zip_close(za), 0);
    return path;
}

static const char ANR_EXTRA[] =
    "----- pid 77 at 2024-03-05 13:00:00 -----\n"
    "Cmd line: com.example.other\n"
    "\"main\" prio=5 tid=1 Native\n"
    "  | sysTid=77 nice=0\n"
    "  at a.B.c(B.java:1)\n"
    "----- end 77 -----\n";

START_TEST(test_zip)
{
    size_t n;
    char *txt = slurp(SMALL, &n);
    /* the text's VM TRACES AT LAST ANR section holds this file already */
    zmem m[] = {
        {"version.txt", "2.0", 3, 0},
        {"FS/data/anr/anr_2024-03-05-14-21-00-000", ANR_EXTRA, sizeof ANR_EXTRA - 1, 0},
        {"FS/data/anr/traces_01.txt", ANR_EXTRA, sizeof ANR_EXTRA - 1, 0},
        {"FS/data/anr/notes", "x", 1, 0},
        {"bugreport-oriole-UQ1A-2024-03-05-14-22-07.txt", txt, n, 0},
        {"main_entry.txt", "bugreport-oriole-UQ1A-2024-03-05-14-22-07.txt\n", 47, 0},
    };
    const char *path = make_zip(m, sizeof m / sizeof m[0]);
    lines l;
    gd_error err = {0};
    /* a regular file: read in place */
    ck_assert_int_eq(read_lines(path, &l, &err), 0);
    size_t stacks = 0;
    for (size_t i = 0; i < l.nev; i++)
        stacks += l.ev_kind[i] == GD_EV_STACK;
    ck_assert_uint_eq(stacks, 3); /* 2 from the text, 1 from traces_01.txt */
    ck_assert_uint_eq(l.nev, 8 + 2 + 2 + 1); /* + one anr_dump issue per dump (#28), gfxinfo's process */
    ck_assert_int_eq(count_of(&l, "ignored: bugreport zip member already read as a VM TRACES section"), 1);
    ck_assert_int_eq(count_of(&l, "ignored: bugreport zip member not read"), 2);
    ck_assert_int_eq(first_line(&l, "gfxinfo: outlier frame (Flags 1: window visibility changed)"), -1); /* #51: a frame */
    ck_assert_ptr_nonnull(strstr(l.json, "\"bugreport\":\"zip\""));
    ck_assert_str_eq(l.device, "Pixel 6");

    /* the same bytes from memory (stdin, a URL): spooled, same result */
    size_t zn;
    char *z = slurp(path, &zn);
    gd_collected c;
    gd_test_read_mem(R, z, zn, NULL, &c);
    ck_assert_int_eq(c.rc, 0);
    ck_assert_uint_eq(gd_collected_count(&c, "stack"), 3);
    ck_assert_uint_eq(json_array_size(c.events), 10 + 2 + 1); /* + an anr_dump issue per dump (#28), gfxinfo's process */
    gd_collected_free(&c);
    ck_assert_int_eq(R->probe((const unsigned char *)z, zn, 1), GD_PROBE_CONTAINER);
    free(z);
    unlink(path);
    free(txt);
}
END_TEST

START_TEST(test_zip_main_by_name)
{
    size_t n;
    char *txt = slurp(SMALL, &n);
    zmem m[] = {
        {"main_entry.txt", "bugreport-gone.txt", 18, 0},
        {"bugreport-oriole-1.txt", txt, n, 0},
    };
    const char *path = make_zip(m, 2);
    lines l;
    gd_error err = {0};
    ck_assert_int_eq(read_lines(path, &l, &err), 0);
    ck_assert_int_eq(count_of(&l, "bugreport: main_entry.txt names no member"), 1);
    ck_assert_uint_eq(l.nev, 8 + 1 + 1); /* + the dump's anr_dump issue (#28), gfxinfo's process */
    unlink(path);
    free(txt);
}
END_TEST

START_TEST(test_zip_not_bugreport)
{
    zmem m[] = {{"photos/a.txt", "hello", 5, 0}, {"FS/data/anr/anr_1", ANR_EXTRA, sizeof ANR_EXTRA - 1, 0}};
    const char *path = make_zip(m, 2);
    lines l;
    gd_error err = {0};
    /* "not mine": a folder ingest passes over it (issue 32) */
    ck_assert_int_eq(read_lines(path, &l, &err), GD_ERR_NOT_MINE);
    ck_assert_str_eq(err.msg, "not a bugreport zip: no main_entry.txt or bugreport-*.txt member");
    ck_assert_uint_eq(l.nev, 0);
    unlink(path);
    /* zip magic then garbage */
    static const char bad[] = "PK\003\004 this is no zip at all";
    gd_collected c;
    gd_test_read_mem(R, bad, sizeof bad - 1, NULL, &c);
    ck_assert_int_eq(c.rc, GD_ERR_DATA);
    ck_assert_ptr_nonnull(strstr(c.err.msg, "not a readable zip"));
    gd_collected_free(&c);
}
END_TEST

static int zip_mem(const char *path, const gd_bugreport_caps *caps, lines *l, gd_error *err)
{
    size_t zn;
    char *z = slurp(path, &zn);
    memset(l, 0, sizeof *l);
    gd_sink sink = {l, l_meta, l_event, l_skip};
    int rc = gd_bugreport_read_zip_mem(z, zn, caps, &sink, NULL, err);
    free(z);
    return rc;
}

START_TEST(test_zip_caps)
{
    size_t n;
    char *txt = slurp(SMALL, &n);
    /* 4 MiB of one letter deflates over 200 times: a bomb by the defaults */
    size_t bn = (size_t)4 << 20;
    char *bomb = malloc(bn);
    memset(bomb, 'a', bn);
    zmem m[] = {
        {"bugreport-x.txt", txt, n, 0},
        {"FS/data/anr/anr_bomb", bomb, bn, 0},
        {"FS/data/anr/traces.txt", ANR_EXTRA, sizeof ANR_EXTRA - 1, 0},
    };
    const char *path = make_zip(m, 3);
    lines l;
    gd_error err = {0};
    ck_assert_int_eq(zip_mem(path, &gd_bugreport_default_caps, &l, &err), 0);
    ck_assert_int_eq(count_of(&l, "bugreport: zip member over the compression ratio cap"), 1);
    ck_assert_uint_eq(l.nev, 8 + 2 + 2 + 1); /* the text and traces.txt, + an anr_dump issue each (#28), gfxinfo's process */

    /* a member cap under the text's size: the main text is refused */
    gd_bugreport_caps small = gd_bugreport_default_caps;
    small.member_max = 1024;
    ck_assert_int_eq(zip_mem(path, &small, &l, &err), 0);
    ck_assert_int_eq(count_of(&l, "bugreport: zip member over the size cap"), 2);
    ck_assert_uint_eq(l.nev, 2 + 1); /* traces.txt only, + its anr_dump issue (#28) */

    /* a total cap: what fits is read, the rest refused */
    gd_bugreport_caps total = gd_bugreport_default_caps;
    total.total_max = n + 10;
    ck_assert_int_eq(zip_mem(path, &total, &l, &err), 0);
    ck_assert_int_eq(count_of(&l, "bugreport: zip member over the total size cap"), 2);
    ck_assert_uint_eq(l.nev, 8 + 1 + 1); /* + the dump's anr_dump issue (#28), gfxinfo's process */

    /* too many entries */
    gd_bugreport_caps few = gd_bugreport_default_caps;
    few.members_max = 2;
    ck_assert_int_eq(zip_mem(path, &few, &l, &err), GD_ERR_DATA);
    ck_assert_ptr_nonnull(strstr(err.msg, "too many members"));
    unlink(path);
    free(bomb);
    free(txt);
}
END_TEST

/* Sets the uncompressed size of member `name` to `size` in its local
 * header and its central directory entry. */
static void lie_about_size(unsigned char *z, size_t zn, const char *name, uint32_t size)
{
    size_t nl = strlen(name);
    int patched = 0;
    for (size_t i = 0; i + 46 + nl <= zn; i++) {
        unsigned char *p = z + i;
        if (p[0] == 'P' && p[1] == 'K' && p[2] == 3 && p[3] == 4 && p[26] == nl && p[27] == 0 &&
            memcmp(p + 30, name, nl) == 0) {
            p[22] = size & 0xff, p[23] = (size >> 8) & 0xff, p[24] = (size >> 16) & 0xff, p[25] = size >> 24;
            patched++;
        }
        if (p[0] == 'P' && p[1] == 'K' && p[2] == 1 && p[3] == 2 && p[28] == nl && p[29] == 0 &&
            memcmp(p + 46, name, nl) == 0) {
            p[24] = size & 0xff, p[25] = (size >> 8) & 0xff, p[26] = (size >> 16) & 0xff, p[27] = size >> 24;
            patched++;
        }
    }
    ck_assert_int_eq(patched, 2);
}

/* A member that inflates past the size it declares: the zip lies, the
 * bugreport is refused with the member named (libzip itself reads on). */
START_TEST(test_zip_lying_size)
{
    size_t n;
    char *txt = slurp(SMALL, &n);
    char anr[sizeof ANR_EXTRA * 40];
    size_t an = 0;
    for (int i = 0; i < 40; i++, an += sizeof ANR_EXTRA - 1)
        memcpy(anr + an, ANR_EXTRA, sizeof ANR_EXTRA - 1);
    zmem m[] = {{"bugreport-x.txt", txt, n, 0}, {"FS/data/anr/anr_1", anr, an, 0}};
    const char *path = make_zip(m, 2);
    size_t zn;
    unsigned char *z = (unsigned char *)slurp(path, &zn);
    lie_about_size(z, zn, "FS/data/anr/anr_1", 100);
    lines l;
    memset(&l, 0, sizeof l);
    gd_sink sink = {&l, l_meta, l_event, l_skip};
    gd_error err = {0};
    ck_assert_int_eq(gd_bugreport_read_zip_mem(z, zn, &gd_bugreport_default_caps, &sink, NULL, &err),
                     GD_ERR_DATA);
    ck_assert_str_eq(err.msg, "in 'FS/data/anr/anr_1': zip member 'FS/data/anr/anr_1': more data than its declared size");
    ck_assert_int_eq(err.line, 0);
    free(z);
    unlink(path);
    free(txt);
}
END_TEST

START_TEST(test_zip_encrypted)
{
    size_t n;
    char *txt = slurp(SMALL, &n);
    zmem m[] = {
        {"bugreport-x.txt", txt, n, 0},
        {"FS/data/anr/anr_secret", ANR_EXTRA, sizeof ANR_EXTRA - 1, 1},
    };
    const char *path = make_zip(m, 2);
    lines l;
    gd_error err = {0};
    ck_assert_int_eq(read_lines(path, &l, &err), 0);
    ck_assert_int_eq(count_of(&l, "bugreport: zip member encrypted"), 1);
    ck_assert_uint_eq(l.nev, 8 + 1 + 1); /* + the dump's anr_dump issue (#28), gfxinfo's process */
    unlink(path);
    free(txt);
}
END_TEST

/* #28 item 2: the kernel's binder transaction lines, old (Android 2.3,
 * ChkBugReport's hybriddeadlock line 6967) and new spellings; a line that
 * says it is a transaction and cannot be read is -1, other lines 0. */
START_TEST(test_binder_parse)
{
    br_txn t;
    const char *old = "    outgoing transaction 8350: d4c1b1a0 from 613:613 to 622:628 code 2 flags 10 pri 0 r1 "
                      "node 8345 size 100:0 data e4a00054";
    ck_assert_int_eq(gd_br_binder_parse(old, strlen(old), &t), 1);
    ck_assert_str_eq(t.kind, "outgoing");
    ck_assert_int_eq(t.txn_id, 8350);
    ck_assert_int_eq(t.from_pid, 613);
    ck_assert_int_eq(t.from_tid, 613);
    ck_assert_int_eq(t.to_pid, 622);
    ck_assert_int_eq(t.to_tid, 628);
    ck_assert_int_eq(t.code, 2);
    ck_assert_int_eq(t.flags, 0x10);
    const char *nw = "  pending transaction 9007: 0000000000000000 from 4600:4600 to 4100:0 code 1f flags 11 pri 0:120 r0";
    ck_assert_int_eq(gd_br_binder_parse(nw, strlen(nw), &t), 1);
    ck_assert_str_eq(t.kind, "pending");
    ck_assert_int_eq(t.to_tid, 0);
    ck_assert_int_eq(t.code, 0x1f);
    ck_assert_int_eq(t.flags, 0x11);
    const char *in = "incoming transaction 1: x from 1:2 to 3:4 code 0 flags 0";
    ck_assert_int_eq(gd_br_binder_parse(in, strlen(in), &t), 1);
    ck_assert_str_eq(t.kind, "incoming");
    static const char *const bad[] = {
        "outgoing transaction 9006: 0 from 4600:x to 4500:4502 code 1 flags 10", /* tid not a number */
        "outgoing transaction : 0 from 1:2 to 3:4 code 1 flags 10",              /* no id */
        "outgoing transaction 12 from 1:2 to 3:4 code 1 flags 10",               /* no colon after the id */
        "outgoing transaction 12: 0 from 1:2 to 3:4 code 1",                     /* no flags */
        "outgoing transaction 12: 0 from 1:2 3:4 code 1 flags 10",               /* no "to" */
        "outgoing transaction 12: 0 from 1:2 to 3:4 code zz flags 10",           /* code not hex */
        "outgoing transaction 1234567890123456: 0 from 1:2 to 3:4 code 1 flags 1", /* over 15 digits */
        "outgoing transaction 12:",                                              /* cut short */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(gd_br_binder_parse(bad[i], strlen(bad[i]), &t) == -1, "%s", bad[i]);
    static const char *const other[] = {"proc 622", "  thread 628: l 02", "binder transactions:",
                                        "  buffer 8350: e4a00054 size 100:0 active", "pending transactions:",
                                        "outgoingtransaction 1: 0 from 1:2 to 3:4 code 1 flags 1", ""};
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++)
        ck_assert_msg(gd_br_binder_parse(other[i], strlen(other[i]), &t) == 0, "%s", other[i]);
}
END_TEST

/* The fixture's BINDER TRANSACTIONS section (lines 122-150): 8 transaction lines, 7 read
 * (issues), 9006 counted at its line; BINDER STATE (a repeat) ignored. */
START_TEST(test_binder_section)
{
    lines l;
    gd_error err = {0};
    ck_assert_int_eq(read_lines(GODEYE_FIXTURES "/bugreport/binder_chain.txt", &l, &err), 0);
    ck_assert_int_eq(count_of(&l, "bugreport: binder transaction line unreadable"), 1);
    ck_assert_int_eq(first_line(&l, "bugreport: binder transaction line unreadable"), 148);
    ck_assert_int_eq(count_of(&l, "ignored: bugreport binder line (not a transaction)"), 18);
    ck_assert_int_eq(count_of(&l, "ignored: bugreport section: BINDER STATE"), 1);
    ck_assert_int_eq(line_of_kind(&l, GD_EV_ISSUE, 0) > 0, 1);
    size_t issues = 0;
    for (size_t i = 0; i < l.nev; i++)
        if (l.ev_kind[i] == GD_EV_ISSUE && l.ev_line[i] >= 127 && l.ev_line[i] <= 150)
            issues++;
    ck_assert_int_eq(issues, 7);
}
END_TEST

/* The real Android 9 zip: 11.7 MB of text streamed, ANR dumps counted by
 * hand (grep -c '^"' over each VM TRACES section). */
START_TEST(test_corpus_android9)
{
    const char *p = gd_test_corpus("bugreport/jeanboydev_bugreport_sdk_gphone_x86_android9.zip");
    if (!p)
        return;
    lines l;
    gd_error err = {0};
    ck_assert_int_eq(read_lines(p, &l, &err), 0);
    ck_assert_int_eq(count_of(&l, "ignored: bugreport zip member already read as a VM TRACES section"), 1);
    ck_assert_int_eq(count_of(&l, "ignored: bugreport zip member not read"), 89);
    /* 70 flagged rows: 6 with Flags 1, 64 with Flags 2; #51: frames now,
     * as JankTracker counts them (no Flags 8 row to skip) */
    ck_assert_int_eq(count_of(&l, "gfxinfo: outlier frame (Flags 1: window visibility changed)"), 0);
    ck_assert_int_eq(count_of(&l, "gfxinfo: outlier frame (Flags 2: render-thread animation)"), 0);
    ck_assert_str_eq(l.device, "Android SDK built for x86");
    ck_assert_int_eq(l.meta.api_level, 28);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("bugreport");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_text_sections);
    tcase_add_test(tc, test_text_positions);
    tcase_add_test(tc, test_text_app);
    tcase_add_test(tc, test_text_minimal_and_probe);
    tcase_add_test(tc, test_text_utf16);
    tcase_add_test(tc, test_zip);
    tcase_add_test(tc, test_zip_main_by_name);
    tcase_add_test(tc, test_zip_not_bugreport);
    tcase_add_test(tc, test_zip_caps);
    tcase_add_test(tc, test_zip_encrypted);
    tcase_add_test(tc, test_zip_lying_size);
    tcase_add_test(tc, test_corpus_android9);
    tcase_add_test(tc, test_binder_parse);
    tcase_add_test(tc, test_binder_section);
    suite_add_tcase(s, tc);
    return gd_test_run(s);
}
