/* escape.h - untrusted text made safe for a terminal or a line-oriented
 * file: control characters become visible escapes, as git and ls show them. */
#ifndef GD_CORE_ESCAPE_H
#define GD_CORE_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/* Copies `in` to `out` (at most n bytes with the NUL) with every C0 control
 * character, DEL and C1 control (U+0080..U+009F in UTF-8) written as a
 * visible escape: \n, \r, \t, \\e for ESC, else \xNN (the bidi controls
 * of gd_escape_at as \u202e).  A backslash stays as
 * it is.  An escape is never cut in half: when it does not fit, the copy ends
 * before it.  Returns out. */
char *gd_escape_ctrl(const char *in, char *out, size_t n);

/* The escape of the one character at p into buf (at least 16 bytes): its
 * length, 0 when the character is written as it is; *skip is how many
 * bytes of p it covers.  Also escaped: the bidirectional overrides and
 * isolates U+202A..U+202E, U+2066..U+2069 (as \u202e). */
size_t gd_escape_at(const char *p, char *buf, size_t *skip);

/* 1 when `in` holds a character gd_escape_ctrl would escape. */
int gd_has_ctrl(const char *in);

/* Writes `in` escaped to f (any length). */
void gd_fputs_escaped(const char *in, FILE *f);

#endif
