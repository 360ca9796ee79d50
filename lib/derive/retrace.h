/* retrace.h - R8/ProGuard mapping files: one load into an index, then
 * obfuscated classes and stack frames back to their original names.
 *
 * The mapping grammar (R8 and ProGuard):
 *   orig.Class -> obf.a:                          a class
 *       type field -> b                           a field (read, not used)
 *       [a:b:]ret name(args)[:c[:d]] -> x         a method; `name` may be
 *                                                 qualified (code moved in
 *                                                 from another class)
 *   # {"id":"...", ...}                           R8 metadata
 * Consecutive method lines with the same obfuscated name and range a:b are
 * one inline chain, innermost first, each caller with its call-site line.
 * Line mapping: no original line keeps the line; one original line (c, or
 * c == d) gives c; otherwise c + (L - a).  A reversed range (5:3, or an
 * original 5:2) is read in order, as R8 reads it.  Metadata comments
 * (JSON, or R8's lenient JSON: single quotes, bare keys) that apply to
 * the class or member line before them: sourceFile, synthesized, outline,
 * outlineCallsite, rewriteFrame.
 *
 * Memory: strings interned once in one arena, members as fixed records
 * sorted by (class, obfuscated name, file order); lookups hash the class
 * name, then binary-search the member name.  Nothing is linear in the
 * mapping per frame. */
#ifndef GD_DERIVE_RETRACE_H
#define GD_DERIVE_RETRACE_H

#include <stddef.h>

#include "core/error.h"
#include "io/input.h"

typedef struct gd_mapping gd_mapping;

/* Reads a mapping from `in` (gzip allowed).  On failure returns the code
 * (GD_ERR_DATA with err->line/col for a malformed line, GD_ERR_IO for
 * memory or reading) and *out is NULL. */
int gd_mapping_load(gd_mapping **out, gd_input *in, gd_error *err);
/* Same from a file path. */
int gd_mapping_load_file(gd_mapping **out, const char *path, gd_error *err);
void gd_mapping_free(gd_mapping *m);

/* The content hash of the mapping file (hex, 32 chars), its class and
 * member counts. */
const char *gd_mapping_hash(const gd_mapping *m);
size_t gd_mapping_classes(const gd_mapping *m);
size_t gd_mapping_members(const gd_mapping *m);
/* Metadata lines with an id this reader does not know: how many, and the
 * first one's id and line (NULL / 0 when none).  They are ignored. */
size_t gd_mapping_unknown_ids(const gd_mapping *m, const char **first_id, long *first_line);
/* The "com.android.tools.r8.mapping" version, or NULL. */
const char *gd_mapping_version(const gd_mapping *m);

/* The original name of obfuscated class `obf` (dotted; len bytes), or NULL
 * when the class is not in the mapping. */
const char *gd_mapping_class(const gd_mapping *m, const char *obf, size_t len);

/* One retraced frame; strings are owned by the mapping. */
typedef struct gd_rframe {
    const char *cls;     /* original class (dotted)                         */
    const char *method;  /* original method name (or the obfuscated one     *
                          * when the class is known but the member is not)  */
    const char *file;    /* "Foo.java" (outer class + .java, or .kt, or     *
                          * the sourceFile of the class it comes from)      */
    const char *sig;     /* "ret name(args)" as the mapping writes it, or   *
                          * NULL (the member is not known)                  */
    long line;           /* the line to print, or -1: none                  */
} gd_rframe;

/* Caps of one retraced frame: alternatives, and frames over all of them
 * (a hostile mapping can expand one frame into millions); what is left
 * out is counted in gd_retrace_res.cut. */
#define GD_RETRACE_MAX_ALTS 32
#define GD_RETRACE_MAX_FRAMES 256

/* What gd_retrace_frame found: `nalt` alternatives (1: resolved; more:
 * ambiguous, every original that fits by R8's rules (gd_retrace_frame_in),
 * in mapping order, names may repeat; 0: the class is not in the mapping,
 * or every frame was dropped, see `dropped`), alternative i being frames
 * f[alt[i]] .. f[alt[i+1]-1], innermost first (inline chains expanded,
 * synthesized frames dropped).
 * Reused across calls; free with gd_retrace_res_free. */
typedef struct gd_retrace_res {
    gd_rframe *f;
    size_t n, cap;
    size_t *alt;         /* nalt + 1 entries                                 */
    size_t nalt, altcap;
    int member_known;    /* 0: the class is known, the method is not        */
    int dropped;         /* frames R8 drops were dropped (synthesized,      *
                          * outline): n == 0 means "print nothing"          */
    int outline;         /* the frame is an outline: outline_pos goes to    *
                          * the next frame (gd_retrace_in.outline_pos)      */
    long outline_pos;
    long line;           /* the line retraced (after an outline's mapping)  */
    size_t cut;          /* frames left out by the caps                      */
} gd_retrace_res;

/* What the frame's context says (gd_retrace_frame_in): */
typedef struct gd_retrace_in {
    long outline_pos;    /* the position of the outline frame just before, *
                          * or -1                                           */
    const char *thrown;  /* the exception class (dotted) when this is the  *
                          * top frame of its stack (rewriteFrame), or NULL  */
    size_t thrown_len;
    int kotlin;          /* the frame's file name ends in ".kt"             */
    int all_lines;       /* keep the original lines R8 prints only in its   *
                          * verbose form (ambiguous range-less members, a  *
                          * 0:0 range's original span)                      */
} gd_retrace_in;

void gd_retrace_res_free(gd_retrace_res *r);
/* How many of r's alternatives differ (1: not ambiguous after all). */
size_t gd_retrace_distinct(const gd_retrace_res *r);

/* Retraces obfuscated class `cls` (dotted, clen bytes), method `method`
 * (mlen bytes), at `line` (-1: none).  Returns 0, or GD_ERR_IO when out
 * of memory (err set). */
int gd_retrace_frame(const gd_mapping *m, const char *cls, size_t clen, const char *method,
                     size_t mlen, long line, gd_retrace_res *res, gd_error *err);

/* The same with R8's frame context (outlines, rewriteFrame, .kt files);
 * `in` may be NULL.  R8's rules: a line inside an obfuscated range picks
 * those ranges; a line outside all picks the members without a range;
 * no line (or 0) picks the 0:0 ranges and the members without a range,
 * else the outermost member of each inline chain.  Original line 0 and
 * ambiguous range-less lines give no line; one obfuscated line for a span
 * of original lines gives one alternative per original line.  Synthesized
 * and outline frames are dropped, rewriteFrame's removeInnerFrames applied
 * when `in->thrown` matches its throws(...) condition. */
int gd_retrace_frame_in(const gd_mapping *m, const char *cls, size_t clen, const char *method,
                        size_t mlen, long line, const gd_retrace_in *in, gd_retrace_res *res,
                        gd_error *err);

/* Retraces a method as it exists at run time (a method-trace event, not a
 * frame): the alternatives are the outermost member of each inline chain
 * of that name, since the inlined ones are not methods any more. */
int gd_retrace_method(const gd_mapping *m, const char *cls, size_t clen, const char *method,
                      size_t mlen, gd_retrace_res *res, gd_error *err);

/* A frame text "[module/]a.b.C.m(File:12)" (optionally followed by more
 * text kept as is) split into its parts; 0 when it is not of that shape.
 * module/modlen: a module or class-loader prefix ending in '/'
 * ("java.base/", "classloader.a/named_module@9.0/"), empty when none.
 * The file ends at the last ')' (Play services' "(:com.google.android.gms@
 * 2039 (0608):46)").  `line` is -1 without a number ("File", "File:");
 * file/flen the text inside the parentheses before the line number. */
typedef struct gd_frame_parts {
    const char *module, *cls, *method, *file, *rest;
    size_t modlen, clen, mlen, flen;
    long line;
} gd_frame_parts;
int gd_frame_split(const char *frame, gd_frame_parts *p);

#endif
