/* fuzz_mapping.c - libFuzzer harness for the R8/ProGuard mapping parser:
 * the input is a mapping; when it loads, a few frames made from its own
 * obfuscated names and fixed ones are retraced. */
#include <stdint.h>
#include <string.h>

#include "io/input.h"
#include "derive/retrace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gd_input *in;
    gd_error err = {0};
    if (gd_input_open_mem(&in, data, size, &err))
        return 0;
    gd_mapping *m = NULL;
    if (gd_mapping_load(&m, in, &err) == 0) {
        static const char *const frames[] = {"a.a.a(SourceFile:1)", "a.b.a(Unknown Source)",
                                             "a.a.b(SourceFile:12)", "com.x.Y.z(Y.java:0)",
                                             "a.a(SourceFile:4294967296)", "b.a(SourceFile)"};
        gd_retrace_res res = {0};
        for (size_t i = 0; i < sizeof frames / sizeof frames[0]; i++) {
            gd_frame_parts fp;
            if (gd_frame_split(frames[i], &fp))
                gd_retrace_frame(m, fp.cls, fp.clen, fp.method, fp.mlen, fp.line, &res, &err);
            (void)gd_retrace_distinct(&res);
        }
        /* the first class line's obfuscated name, with every line number 0..3 */
        const char *arrow = memchr(data, '>', size);
        if (arrow && (size_t)(arrow - (const char *)data) + 2 < size) {
            const char *s = arrow + 2, *e = s;
            while (e < (const char *)data + size && *e != ':' && *e != '\n')
                e++;
            gd_mapping_class(m, s, (size_t)(e - s));
            for (long l = -1; l < 4; l++)
                gd_retrace_frame(m, s, (size_t)(e - s), "a", 1, l, &res, &err);
            /* R8's frame context: after an outline, as a top frame of an
             * NPE, a Kotlin file, the verbose lines */
            for (long l = 0; l < 4; l++) {
                gd_retrace_in ctx = {l, "java.lang.NullPointerException", 30, (int)(l & 1),
                                     (int)(l >> 1)};
                gd_retrace_frame_in(m, s, (size_t)(e - s), "a", 1, l + 1, &ctx, &res, &err);
                (void)gd_retrace_distinct(&res);
            }
            gd_retrace_method(m, s, (size_t)(e - s), "a", 1, &res, &err);
            (void)gd_retrace_distinct(&res);
        }
        gd_retrace_res_free(&res);
        gd_mapping_free(m);
    }
    gd_input_close(in);
    return 0;
}
