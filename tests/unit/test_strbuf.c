/* Unit tests for lib/strbuf: appends, NUL termination, growth, the cap and
 * the sticky failure; the edit distance and the nearest-name search; the
 * UTF-8 sequence check. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/strbuf.h"

static void test_append_and_grow(void **state)
{
    (void)state;
    struct strbuf b = {0};
    assert_true(strbuf_adds(&b, "run_id="));
    for (int i = 0; i < 1000; i++) assert_true(strbuf_add(&b, "abc", 3));
    assert_int_equal(b.n, 7 + 3000);
    assert_int_equal(strlen(b.s), b.n);
    assert_memory_equal(b.s + 7 + 2997, "abc", 4); /* and its NUL */
    assert_true(strbuf_add(&b, "x\0y", 3));       /* bytes, not C strings */
    assert_int_equal(b.n, 3010);
    strbuf_release(&b);
    assert_null(b.s);
    assert_int_equal(b.n, 0);
}

static void test_grow(void **state)
{
    (void)state;
    size_t cap = 0;
    int *v = strbuf_grow(NULL, &cap, 1, sizeof *v, 100);
    assert_non_null(v);
    assert_int_equal(cap, 16);                          /* the first room */
    for (int i = 0; i < 16; i++) v[i] = i;
    assert_ptr_equal(strbuf_grow(v, &cap, 16, sizeof *v, 100), v); /* room already */
    int *w = strbuf_grow(v, &cap, 17, sizeof *v, 100);
    assert_non_null(w);
    assert_int_equal(cap, 32);                          /* doubled */
    assert_int_equal(w[15], 15);                        /* kept across the move */
    v = strbuf_grow(w, &cap, 70, sizeof *v, 100);
    assert_int_equal(cap, 70);                          /* need beats doubling */
    v = strbuf_grow(v, &cap, 71, sizeof *v, 100);
    assert_int_equal(cap, 100);                         /* doubling stops at the cap */
    assert_null(strbuf_grow(v, &cap, 101, sizeof *v, 100)); /* past the cap: refused */
    assert_int_equal(cap, 100);
    assert_int_equal(v[15], 15);                        /* and the old array stands */
    size_t big = 2;
    assert_null(strbuf_grow(v, &big, SIZE_MAX / 4 + 1, 8, SIZE_MAX)); /* need * 8 wraps */
    assert_int_equal(big, 2);
    assert_int_equal(v[15], 15);
    free(v);
}

static void test_cap_and_sticky_failure(void **state)
{
    (void)state;
    struct strbuf b = {0};
    assert_true(strbuf_adds(&b, "ok"));
    assert_false(strbuf_add(&b, "", STRBUF_MAX)); /* past the cap: refused, nothing read */
    assert_true(b.failed);
    assert_false(strbuf_adds(&b, "more"));        /* sticky */
    assert_string_equal(b.s, "ok");
    strbuf_release(&b);
    assert_false(b.failed);
}

static void test_distance(void **state)
{
    (void)state;
    assert_int_equal(strbuf_distance("learning_rat", "learning_rate"), 1);
    assert_int_equal(strbuf_distance("", "bs"), 2);
    assert_int_equal(strbuf_distance("kitten", "sitting"), 3);
    /* case-blind */
    assert_int_equal(strbuf_distance("Expandable_Segments", "expandable_segments"), 0);
    char longest[STRBUF_DISTANCE_MAX + 2];
    memset(longest, 'a', sizeof longest - 1);
    longest[sizeof longest - 1] = '\0';
    assert_int_equal(strbuf_distance(longest, "a"), SIZE_MAX); /* past the row: unknown, not 0 */
    longest[STRBUF_DISTANCE_MAX] = '\0';
    assert_int_equal(strbuf_distance(longest, "a"), STRBUF_DISTANCE_MAX - 1);
}

/* Offer each of names (NULL-ended) and return the pick. */
static const char *pick_of(const char *word, size_t max_edits, const char *const *names)
{
    struct strbuf_near near = STRBUF_NEAR_INIT(word, max_edits);
    for (; *names; names++) strbuf_near_offer(&near, *names);
    return near.pick;
}

static void test_near(void **state)
{
    (void)state;
    static const char *const none[] = {NULL};
    assert_null(pick_of("jsn", 2, none)); /* an empty list: no pick, no crash */

    static const char *const opts[] = {"json", "quiet", "gpu", "jobs", NULL};
    assert_string_equal(pick_of("jsn", 2, opts), "json");
    assert_string_equal(pick_of("quite", 2, opts), "quiet"); /* a swap is 2 edits: at the cap, kept */
    assert_null(pick_of("quite", 1, opts));                  /* past it */
    static const char *const bs[] = {"bs", NULL};
    assert_null(pick_of("x", 2, bs));          /* 2 edits for 1 letter: a rewrite, no typo */
    assert_string_equal(pick_of("bz", 2, bs), "bs"); /* 1 for 2 letters is one */
    assert_null(pick_of("xy", 2, bs));               /* 2 for 2 is not */
    assert_string_equal(pick_of("JSON", 2, opts), "json"); /* case-blind: 0 edits */

    /* Ties: "see" is 1 from seed and from seen; the first offered stays,
     * a later one only when strictly nearer (seenx: 1 from seen, 2 from seed). */
    static const char *const tie[] = {"seed", "seen", NULL};
    static const char *const tie_rev[] = {"seen", "seed", NULL};
    assert_string_equal(pick_of("see", 2, tie), "seed");
    assert_string_equal(pick_of("see", 2, tie_rev), "seen");
    assert_string_equal(pick_of("seenx", 2, tie), "seen");

    /* The word itself is no suggestion for itself; one that differs only
     * in case is (Learning_Rate for learning_rate). */
    static const char *const self[] = {"learning_rate", "Learning_Rate", NULL};
    assert_string_equal(pick_of("learning_rate", 4, self), "Learning_Rate");
    static const char *const only_self[] = {"bs", NULL};
    assert_null(pick_of("bs", 2, only_self));

    /* offer says whether it kept; offer_at takes the caller's distance. */
    struct strbuf_near near = STRBUF_NEAR_INIT("batch-size", strbuf_near_third(10));
    assert_int_equal(near.max_edits, 3);
    assert_false(strbuf_near_offer(&near, "seed"));
    assert_true(strbuf_near_offer_at(&near, "batch", 1));
    assert_false(strbuf_near_offer(&near, "batch_sizes")); /* 2 > 1: not nearer */
    assert_string_equal(near.pick, "batch");
    assert_int_equal(near.best, 1);

    assert_int_equal(strbuf_near_third(0), 2); /* at least 2 */
    assert_int_equal(strbuf_near_third(8), 2);
    assert_int_equal(strbuf_near_third(9), 3);
}

static void test_utf8_seq(void **state)
{
    (void)state;
    static const struct {
        const char *bytes;
        size_t left, len;
        uint32_t cp;
    } cases[] = {
        {"A", 1, 1, 'A'},
        {"\xC3\xA9", 2, 2, 0xE9},
        {"\xE2\x82\xAC", 3, 3, 0x20AC},
        {"\xF0\x9F\x98\x80", 4, 4, 0x1F600},
        {"\xF4\x8F\xBF\xBF", 4, 4, 0x10FFFF},
        {"\xC3\xA9", 1, 0, 0},         /* cut short by left */
        {"\xA9", 1, 0, 0},              /* a stray continuation byte */
        {"\xC3(", 2, 0, 0},             /* a missing one */
        {"\xC0\x80", 2, 0, 0},         /* overlong */
        {"\xE0\x80\x80", 3, 0, 0},     /* overlong */
        {"\xF0\x8F\xBF\xBF", 4, 0, 0}, /* overlong */
        {"\xED\xA0\x80", 3, 0, 0},     /* a surrogate */
        {"\xF4\x90\x80\x80", 4, 0, 0}, /* past U+10FFFF */
        {"\xF8\x88\x80\x80\x80", 5, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint32_t cp = 0;
        const unsigned char *u = (const unsigned char *)cases[i].bytes;
        assert_int_equal(strbuf_utf8_seq(u, cases[i].left, &cp), cases[i].len);
        if (cases[i].len) assert_int_equal(cp, cases[i].cp);
        assert_int_equal(strbuf_utf8_seq(u, cases[i].left, NULL), cases[i].len);
    }
}

/* strbuf_word_in / strbuf_word_before: the word tests the stage rules
 * (stage.c's "before" a phase word) and the message rules (msg.c's
 * not_after) share (tidy22: one helper where each kept its own) */
static void test_word_before(void **state)
{
    (void)state;
    static const char *const set[] = {"before", "due", NULL};
    assert_true(strbuf_word_in("Before", 6, set, SIZE_MAX));
    assert_false(strbuf_word_in("befor", 5, set, SIZE_MAX));
    /* a full array with no NULL: cap bounds it */
    static const char *const full[2] = {"gpu", "cuda"};
    assert_true(strbuf_word_in("CUDA", 4, full, 2));
    assert_false(strbuf_word_in("CUDA", 4, full, 1));
    const char *t = "the models before generating";
    size_t at = (size_t)(strstr(t, "generating") - t);
    assert_true(strbuf_word_before(t, at, set, SIZE_MAX));
    /* a tab is a blank (review21) */
    const char *tab = "before\tgenerating";
    assert_true(strbuf_word_before(tab, 7, set, SIZE_MAX));
    /* a longer word that ends in it is no such word (review21: "x4before") */
    const char *glued = "x4before generating";
    assert_false(strbuf_word_before(glued, 9, set, SIZE_MAX));
    /* no blank between: no word before */
    const char *none = "beforegenerating";
    assert_false(strbuf_word_before(none, 6, set, SIZE_MAX));
    /* the start of the text */
    assert_false(strbuf_word_before(t, 0, set, SIZE_MAX));
    /* punctuation before the blank ends the word: nothing before */
    const char *comma = "before, generating";
    assert_false(strbuf_word_before(comma, 8, set, SIZE_MAX));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_append_and_grow),
        cmocka_unit_test(test_cap_and_sticky_failure),
        cmocka_unit_test(test_grow),
        cmocka_unit_test(test_distance),
        cmocka_unit_test(test_near),
        cmocka_unit_test(test_utf8_seq),
        cmocka_unit_test(test_word_before),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
