/* strbuf: a growable, NUL-terminated byte string with a hard cap (curl's
 * dynbuf). An append that runs out of memory or past the cap marks the
 * buffer failed and every later append is ignored, so a writer can append
 * freely and check once at the end. The caller frees s (strbuf_release).
 * Also the one edit distance of src/lib, behind every did-you-mean. */
#ifndef OOMLAB_STRBUF_H
#define OOMLAB_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

#define STRBUF_MAX ((size_t)1 << 30) /* 1 GiB: nothing oomlab writes this way comes near */

struct strbuf {
    char *s;  /* NULL until the first append */
    size_t n, cap;
    bool failed;
};

/* Append n bytes; false once the buffer has failed. */
bool strbuf_add(struct strbuf *b, const void *data, size_t n);
bool strbuf_adds(struct strbuf *b, const char *s);
void strbuf_release(struct strbuf *b);

/* Levenshtein distance of a and b, letters compared case-blind (every
 * did-you-mean names a key or a model whose case the user may not have
 * typed); SIZE_MAX when either is longer than STRBUF_DISTANCE_MAX. */
#define STRBUF_DISTANCE_MAX 127
size_t strbuf_distance(const char *a, const char *b);

#endif
