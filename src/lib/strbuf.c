/* strbuf: the one growable string of src/lib, and its one edit distance
 * (see strbuf.h). */
#include "lib/strbuf.h"

#include <ctype.h>
#include <stdint.h>
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

size_t strbuf_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), row[STRBUF_DISTANCE_MAX + 1];
    if (la > STRBUF_DISTANCE_MAX || lb > STRBUF_DISTANCE_MAX) return SIZE_MAX;
    for (size_t j = 0; j <= lb; j++) row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = diag + (tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]));
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}
