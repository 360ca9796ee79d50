/* profname.h - how a profiler's frame (a symbol in a mapped file) is named
 * as a stack frame: one rule for simpleperf text and Perfetto perf samples. */
#ifndef GD_READER_PROFNAME_H
#define GD_READER_PROFNAME_H

#include <stddef.h>

/* 1 when `file` (a mapping's path) holds Java code: .oat/.odex/.vdex/.dex/
 * .jar/.apk/.art, a JIT cache, or a member of an apk/jar. */
int gd_prof_java_file(const char *file);

/* The frame text of symbol sym[0..nsym) (nsym 0: unnamed) in `file`, into
 * out (capacity cap > 0, always terminated, cut to fit); pc (NULL: none)
 * is the hex offset printed for an unnamed symbol.  Java frames of a named
 * symbol become "Class.method" (a signature "void a.B.c(int)" keeps "a.B.c");
 * others "native:<file basename>(<symbol>)", "native:<basename>(pc <pc>)"
 * or "native:<basename>(?)".  Returns the text's length. */
size_t gd_prof_frame(char *out, size_t cap, const char *sym, size_t nsym, const char *file,
                     const char *pc, size_t npc);

#endif
