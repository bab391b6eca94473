/* strbuf: the one growable string of src/lib (see strbuf.h). */
#include "lib/strbuf.h"

#include <stdlib.h>
#include <string.h>

bool strbuf_add(struct strbuf *b, const void *data, size_t n)
{
    if (b->failed) return false;
    if (n > STRBUF_MAX - 1 - b->n) {
        b->failed = true;
        return false;
    }
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + n + 1) cap *= 2;
        char *p = realloc(b->s, cap);
        if (!p) {
            b->failed = true;
            return false;
        }
        b->s = p;
        b->cap = cap;
    }
    memcpy(b->s + b->n, data, n);
    b->n += n;
    b->s[b->n] = '\0';
    return true;
}

bool strbuf_adds(struct strbuf *b, const char *s)
{
    return strbuf_add(b, s, strlen(s));
}

void strbuf_release(struct strbuf *b)
{
    free(b->s);
    *b = (struct strbuf){0};
}
