/* strbuf: a growable, NUL-terminated byte string with a hard cap (curl's
 * dynbuf). An append that runs out of memory or past the cap marks the
 * buffer failed and every later append is ignored, so a writer can append
 * freely and check once at the end. The caller frees s (strbuf_release).
 * Also the text helpers more than one module needs: the edit distance
 * and nearest-name search behind every did-you-mean, the UTF-8 sequence
 * check, a word's test against a list of words (the stage and message
 * rules). */
#ifndef OOMLAB_STRBUF_H
#define OOMLAB_STRBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/* Grow the array p of *cap elements of elem bytes so that it holds at
 * least need (need <= *cap: p as it is). The new capacity doubles the old
 * one (16 when there was none), is at least need and at most max; the
 * byte count is checked before realloc. Returns the new array and sets
 * *cap, or NULL with p and *cap left as they were (still the caller's to
 * free) when need is past max, the bytes overflow or realloc fails. Pass
 * SIZE_MAX as max where only the overflow bounds it. */
void *strbuf_grow(void *p, size_t *cap, size_t need, size_t elem, size_t max);

/* Levenshtein distance of a and b, letters compared case-blind (every
 * did-you-mean names a key or a model whose case the user may not have
 * typed); SIZE_MAX when either is longer than STRBUF_DISTANCE_MAX. */
#define STRBUF_DISTANCE_MAX 127
size_t strbuf_distance(const char *a, const char *b);

/* A did-you-mean search: offer it every candidate for what the user typed
 * (word) and it keeps the nearest. A candidate is kept when it is not word
 * itself, at most max_edits away (strbuf_distance), fewer edits away than
 * word has letters (no rewrite of the whole word: 'x' is no typo of 'bs'),
 * and strictly nearer than the one kept before (of equals, the first
 * offered stays). word must outlive the search; pick points at the
 * caller's candidate, so one from a reused buffer is copied (or its index
 * noted) when strbuf_near_offer returns true. */
struct strbuf_near {
    const char *word; /* it and max_edits may change between offers */
    size_t max_edits;
    size_t best;      /* pick's distance; SIZE_MAX before one */
    const char *pick; /* NULL before one */
};
#define STRBUF_NEAR_INIT(w, max) {.word = (w), .max_edits = (max), .best = SIZE_MAX, .pick = NULL}
/* The usual max_edits for a word of len letters: a third of it, at least 2. */
size_t strbuf_near_third(size_t len);
/* Offer cand (strbuf_distance away, or d away by the caller's own rule);
 * true when it is kept. */
bool strbuf_near_offer(struct strbuf_near *n, const char *cand);
bool strbuf_near_offer_at(struct strbuf_near *n, const char *cand, size_t d);

/* The length (1-4) of the valid UTF-8 sequence at s[0..left) (left >= 1), its
 * code point in *cp (cp may be NULL); 0 when it is not one: a stray or missing
 * continuation byte, an overlong form, a surrogate, past U+10FFFF, or cut
 * short by left. */
size_t strbuf_utf8_seq(const unsigned char *s, size_t left, uint32_t *cp);

/* w[0..n) is one of set's words, in any case; set ends at a NULL or after
 * cap entries (SIZE_MAX: at its NULL; a rule's full array has none). */
bool strbuf_word_in(const char *w, size_t n, const char *const *set, size_t cap);

/* The word right before text[at], apart from it only by blanks (spaces
 * and tabs, at least one), is one of set (strbuf_word_in): the whole run
 * of letters and digits that ends there ("x4before" is no "before"). */
bool strbuf_word_before(const char *text, size_t at, const char *const *set, size_t cap);

#endif
