/* registry.c - the list of readers and detection by content. */
#include "reader.h"

#include <stdio.h>
#include <string.h>

#define GD_READER(n) extern const gd_reader gd_reader_##n;
#include "reader/readers.def"
#undef GD_READER

static const gd_reader *const all_readers[] = {
#define GD_READER(n) &gd_reader_##n,
#include "reader/readers.def"
#undef GD_READER
    NULL,
};

const gd_reader *const *gd_readers(void) { return all_readers; }

const gd_reader *gd_reader_find(const char *name)
{
    for (const gd_reader *const *r = all_readers; *r; r++)
        if (strcmp((*r)->name, name) == 0)
            return *r;
    return NULL;
}

const gd_reader *gd_reader_detect(const unsigned char *head, size_t n, int eof,
                                  char *tried, size_t tried_len)
{
    const gd_reader *best = NULL;
    int best_score = 0;
    size_t used = 0;
    if (tried && tried_len)
        tried[0] = 0;
    for (const gd_reader *const *r = all_readers; *r; r++) {
        int s = (*r)->probe ? (*r)->probe(head, n, eof) : 0;
        if (s > best_score) {
            best_score = s;
            best = *r;
        }
        if (tried && used < tried_len) {
            int k = snprintf(tried + used, tried_len - used, "%s%s", used ? ", " : "", (*r)->name);
            if (k > 0)
                used += (size_t)k;
        }
    }
    return best;
}

const char *gd_reader_not_capture(const unsigned char *head, size_t n, int eof)
{
    for (const gd_reader *const *r = all_readers; *r; r++) {
        const char *what = (*r)->not_capture ? (*r)->not_capture(head, n, eof) : NULL;
        if (what)
            return what;
    }
    return NULL;
}
