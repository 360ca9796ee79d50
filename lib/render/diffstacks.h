/* render/diffstacks.h - `godeye diff --stacks` as text: the regressed paths
 * as an indented tree, and FlameGraph's two-column folded lines (#52). */
#ifndef GD_RENDER_DIFFSTACKS_H
#define GD_RENDER_DIFFSTACKS_H

#include <jansson.h>
#include <stdio.h>

/* The summary of gd_ds_summary (query/diffstacks.h) as lines: what was
 * compared and how it was normalised, then its "tree" indented by depth
 * (frame names escaped, never cut).  0, or -1 when a write failed. */
int gd_render_ds_tree(FILE *out, const json_t *summary);
/* One frame row as "stack base head\n" (base_self_ms, head_self_ms), the
 * form difffolded.pl writes and flamegraph.pl reads; control bytes in the
 * stack escaped.  0, or -1 when a write failed. */
int gd_render_ds_folded(FILE *out, const json_t *row);

#endif
