/* retrace_int.h - the mapping index (gd_mapping) shared by retrace.c and retrace_parse.c. */
#ifndef GD_RETRACE_INT_H
#define GD_RETRACE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "derive/retrace.h"

/* A member line.  Strings are offsets into the arena (0 = none). */
typedef struct rt_member {
    uint32_t cls;        /* index of its class                               */
    uint32_t obf;        /* obfuscated name                                  */
    uint32_t name;       /* original method name                             */
    uint32_t ocls;       /* original class when qualified, else 0            */
    uint32_t file;       /* file of ocls, else 0 (the class's)               */
    int32_t a, b, c, d;  /* obfuscated range a:b, original c:d; -1 none      */
    uint32_t seq;        /* file order                                       */
    uint8_t cont;        /* continues the inline chain of the member before  */
    uint8_t synth;       /* R8 synthesized                                   */
} rt_member;

typedef struct rt_klass {
    uint32_t orig, obf, file;
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

const rt_klass *rt_class_find(const gd_mapping *m, const char *s, size_t n);
int rt_ctab_put(gd_mapping *m, uint32_t obf, uint32_t idx, gd_error *err);
uint32_t rt_derived_file(gd_mapping *m, const char *cls, size_t n, gd_error *err);
uint32_t rt_str_intern(gd_mapping *m, const char *s, size_t n, gd_error *err);

#endif
