/* strbuf: the one growable string of src/lib, and the text helpers that
 * more than one module needs (see strbuf.h). */
#include "lib/strbuf.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

bool strbuf_add(struct strbuf *b, const void *data, size_t n)
{
    if (b->failed) return false;
    if (n > STRBUF_MAX - 1 - b->n) {
        b->failed = true;
        return false;
    }
    if (b->n + n + 1 > b->cap) {
        char *p = strbuf_grow(b->s, &b->cap, b->n + n + 1 > 256 ? b->n + n + 1 : 256, 1, STRBUF_MAX);
        if (!p) {
            b->failed = true;
            return false;
        }
        b->s = p;
    }
    memcpy(b->s + b->n, data, n);
    b->n += n;
    b->s[b->n] = '\0';
    return true;
}

void *strbuf_grow(void *p, size_t *cap, size_t need, size_t elem, size_t max)
{
    if (need <= *cap) return p;
    if (need > max || elem == 0) return NULL;
    size_t ncap = *cap == 0 ? 16 : *cap > max / 2 ? max : *cap * 2;
    if (ncap < need) ncap = need;
    if (ncap > max) ncap = max;
    if (ncap > SIZE_MAX / elem) {
        if (need > SIZE_MAX / elem) return NULL;
        ncap = SIZE_MAX / elem; /* doubling would overflow; need still fits */
    }
    void *grown = realloc(p, ncap * elem);
    if (!grown) return NULL;
    *cap = ncap;
    return grown;
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
            int differ = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
            size_t best = diag + (size_t)differ;
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

size_t strbuf_near_third(size_t len)
{
    return len / 3 > 2 ? len / 3 : 2;
}

bool strbuf_near_offer_at(struct strbuf_near *n, const char *cand, size_t d)
{
    if (d > n->max_edits || d >= strlen(n->word) || d >= n->best || !strcmp(n->word, cand)) return false;
    n->best = d;
    n->pick = cand;
    return true;
}

bool strbuf_near_offer(struct strbuf_near *n, const char *cand)
{
    return strbuf_near_offer_at(n, cand, strbuf_distance(n->word, cand));
}

size_t strbuf_utf8_seq(const unsigned char *s, size_t left, uint32_t *cp)
{
    unsigned char c = s[0];
    size_t n = c < 0x80 ? 1 : c < 0xC0 ? 0 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : c < 0xF8 ? 4 : 0;
    if (n == 0 || n > left) return 0;
    uint32_t v = n == 1 ? c : c & (0x7Fu >> n);
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        v = v << 6 | (s[i] & 0x3Fu);
    }
    static const uint32_t min[] = {0, 0, 0x80, 0x800, 0x10000};
    if (v < min[n] || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
    if (cp) *cp = v;
    return n;
}

bool strbuf_word_in(const char *w, size_t n, const char *const *set, size_t cap)
{
    for (size_t k = 0; k < cap && set[k]; k++)
        if (strlen(set[k]) == n && !strncasecmp(w, set[k], n)) return true;
    return false;
}

bool strbuf_word_before(const char *text, size_t at, const char *const *set, size_t cap)
{
    size_t i = at;
    while (i > 0 && (text[i - 1] == ' ' || text[i - 1] == '\t')) i--;
    if (i == at) return false;
    size_t we = i;
    while (i > 0 && isalnum((unsigned char)text[i - 1])) i--;
    return we > i && strbuf_word_in(text + i, we - i, set, cap);
}
