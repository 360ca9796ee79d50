/* retrace_int.h - the mapping index (gd_mapping) shared by retrace.c and retrace_parse.c. */
#ifndef GD_DERIVE_RETRACE_INT_H
#define GD_DERIVE_RETRACE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "derive/retrace.h"

/* A member line.  Strings are offsets into the arena (0 = none). */
typedef struct rt_member {
    uint32_t cls;        /* index of its class                               */
    uint32_t obf;        /* obfuscated name                                  */
    uint32_t name;       /* original method name                             */
    uint32_t ocls;       /* original class when qualified, else 0            */
    uint32_t file;       /* sourceFile of ocls when the mapping gives one     */
    uint32_t djava, dkt; /* file names derived from ocls (.java / .kt form)  */
    uint32_t sig;        /* "ret name(args)" for --verbose                   */
    int32_t a, b, c, d;  /* obfuscated range a:b, original c:d; -1 none      */
    uint32_t seq;        /* file order                                       */
    uint32_t cs_first;   /* outlineCallsite positions: m->cs[cs_first ..]    */
    uint32_t rw_throws;  /* rewriteFrame throws(...) class (dotted), or 0    */
    uint16_t cs_n;       /* how many (outline position, line) pairs          */
    uint8_t rw_remove;   /* removeInnerFrames(N)                             */
    uint8_t cont;        /* continues the inline chain of the member before  */
    uint8_t synth;       /* R8 synthesized                                   */
    uint8_t outline;     /* R8 outline                                       */
} rt_member;

typedef struct rt_klass {
    uint32_t orig, obf;
    uint32_t file;       /* sourceFile metadata, or 0                        */
    uint32_t djava, dkt; /* derived names: Foo.java / Foo.kt (Kt facades:    *
                          * FooKt -> Foo.kt in both)                         */
    uint32_t first, count; /* its members after sorting                     */
    uint8_t synth;
} rt_klass;

struct gd_mapping {
    char *arena;
    size_t alen, acap;
    uint32_t *strs;      /* intern table: arena offsets, 0 empty            */
    size_t scap, nstrs;
    uint32_t *ctab;      /* class table by obf offset: class index + 1      */
    size_t ccap;
    uint32_t *otab;      /* class table by original name: class index + 1   */
    size_t ocap;
    int32_t *cs;         /* outlineCallsite pairs                           */
    size_t ncs, cscap;
    rt_klass *cls;
    size_t ncls, clscap;
    rt_member *mem;
    size_t nmem, memcap;
    char hash[33];
    char *version;
    char *unknown_id;
    size_t nunknown;
    long unknown_line;
};

const rt_klass *gd_retrace_class_find(const gd_mapping *m, const char *s, size_t n);
int gd_retrace_ctab_put(gd_mapping *m, uint32_t obf, uint32_t idx, gd_error *err);
/* Interns the derived file names of class cls[0..n) into *java, *kt;
 * GD_OK or the error code. */
int gd_retrace_derived_files(gd_mapping *m, const char *cls, size_t n, uint32_t *java, uint32_t *kt,
                     gd_error *err);
/* Builds the original-name table (after parsing); GD_OK or the code. */
int gd_retrace_otab_build(gd_mapping *m, gd_error *err);
const rt_klass *gd_retrace_class_find_orig(const gd_mapping *m, uint32_t orig);
uint32_t gd_retrace_str_intern(gd_mapping *m, const char *s, size_t n, gd_error *err);

#endif
