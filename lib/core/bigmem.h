/* core/bigmem.h - large zeroed tables that live for a whole ingest (the
 * writer's message table): mapped on huge pages where the system allows
 * it, so filling them costs a few page faults, not one per 4 KiB page. */
#ifndef GD_CORE_BIGMEM_H
#define GD_CORE_BIGMEM_H

#include <stddef.h>

/* n zeroed bytes, or NULL.  Free with gd_big_free(p, n), same n. */
void *gd_big_calloc(size_t n);
void gd_big_free(void *p, size_t n);

#endif
