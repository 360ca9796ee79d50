/* demangle_dl.h - C++ symbol names demangled as a profiler shows them,
 * with the C++ runtime's own demangler (libstdc++'s __cxa_demangle, the
 * Itanium ABI's), loaded at run time on first use: godeye links no C++
 * runtime, and every Debian system has libstdc++.so.6. */
#ifndef GD_IO_DEMANGLE_DL_H
#define GD_IO_DEMANGLE_DL_H

#include <stddef.h>

/* The demangled form of the NUL-terminated `mangled` ("_ZN7android..."),
 * into out (capacity cap > 0, always terminated, cut to fit); returns its
 * length, or 0 when `mangled` is not a mangled C++ name the demangler
 * accepts (out then untouched) or libstdc++.so.6 cannot be loaded (*missing
 * set to 1 when given). */
size_t gd_demangle(const char *mangled, char *out, size_t cap, int *missing);

#endif
