/* retrace_text.h - stack-trace text retraced line by line through a
 * mapping: frames ("at CLASS.METHOD(FILE:LINE)"), exception and "Caused by:"
 * class names, with R8 retrace's output of ambiguous frames ("<OR> "). */
#ifndef GD_DERIVE_RETRACE_TEXT_H
#define GD_DERIVE_RETRACE_TEXT_H

#include "core/error.h"
#include "derive/retrace.h"

/* The matcher's state across the lines of one text: the stack being read
 * (its exception class names the top frame's throw site) and the outline
 * frame's position for the frame after it. */
typedef struct gd_retrace_text gd_retrace_text;

/* Receives each output line (no newline; text as retraced, never escaped);
 * a nonzero return stops gd_retrace_text_line, which returns it. */
typedef int (*gd_retrace_line_fn)(void *ctx, const char *line);

/* A matcher over mapping m (kept, not owned); verbose: methods with their
 * return and argument types (R8's --verbose).  NULL when out of memory. */
gd_retrace_text *gd_retrace_text_new(const gd_mapping *m, int verbose);
void gd_retrace_text_free(gd_retrace_text *t);

/* Retraces one line of text (NUL-terminated, without its newline): out is
 * called once per output line, in order: the frames a frame maps back to
 * (alternatives depth by depth, each after the first as "<OR> " following
 * the line's indentation), the line with its mapped class names replaced,
 * or the line as it is when nothing matched (a frame the mapping drops
 * writes nothing).  Returns 0; GD_ERR_NOMEM (err filled) when out of
 * memory; the mapping's error; or out's nonzero return. */
int gd_retrace_text_line(gd_retrace_text *t, const char *line, gd_retrace_line_fn out, void *ctx,
                         gd_error *err);

#endif
