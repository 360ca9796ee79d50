/* version.h - app versions compared as versions ("3.10.0" > "3.9.2"). */
#ifndef GD_ANALYSIS_VERSION_H
#define GD_ANALYSIS_VERSION_H

/* <0, 0 or >0 as version a is older than, equal to or newer than b.  Both
 * are read left to right: a run of digits against a run of digits compares
 * as a number (any length; leading zeros ignored), any other character
 * compares by its byte; when one string is a prefix of the other, the
 * shorter is older ("3.1" < "3.1.0", "3.1.0" < "3.1.0-rc1": no pre-release
 * rule).  NULL is older than any text, two NULLs are equal. */
int gd_version_cmp(const char *a, const char *b);

#endif
