/* Unit tests for msg_classify's cost on hostile lines (fuzz16): a line of
 * many OOM words that its rules' denials check one by one must cost time
 * linear in its length. Checked as a ratio of CPU times measured in the
 * same run (4x the text: about 4x the time, not 16x), never a threshold
 * in seconds. Before: cjk_clause_denied walked back to the clause's start
 * from every hit of "not out of memory not out of memory ..." (no clause
 * mark), for every rule with deny: 23 s for a 72 KB line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "lib/msg.h"

/* copies of word as one line; the caller frees it */
static char *repeat(const char *word, size_t copies, size_t *len)
{
    size_t k = strlen(word);
    char *text = malloc(k * copies + 1);
    assert_non_null(text);
    for (size_t i = 0; i < copies; i++) memcpy(text + k * i, word, k);
    text[k * copies] = '\0';
    *len = k * copies;
    return text;
}

/* the least CPU time of three classifications of the line */
static double classify_cpu(const char *word, size_t copies)
{
    size_t len;
    char *text = repeat(word, copies, &len);
    double best = 0;
    for (int round = 0; round < 3; round++) {
        clock_t t0 = clock();
        (void)msg_classify(text, len);
        double t = (double)(clock() - t0);
        if (round == 0 || t < best) best = t;
    }
    free(text);
    return best > 1 ? best : 1;
}

static void check_linear(const char *word)
{
    double small = classify_cpu(word, 500), big = classify_cpu(word, 2000);
    print_message("%s x500 %.0f, x2000 %.0f clock ticks\n", word, small, big);
    assert_true(big < 8 * small);
}

static void test_denied_words_linear(void **state)
{
    (void)state;
    check_linear("not out of memory ");
    check_linear("avoid out of memory ");
    check_linear("otherwise out of memory ");
    check_linear("not OOM ");
}

static void test_cjk_hedge_still_read(void **state)
{
    (void)state;
    /* the bound keeps a CJK clause's hedge within reach: "if VRAM runs
     * short" (如果显存不足) is no OOM seen */
    static const char hedge[] = "\xe5\xa6\x82\xe6\x9e\x9c\xe6\x98\xbe\xe5\xad\x98\xe4\xb8\x8d\xe8\xb6\xb3";
    static const char plain[] = "\xe6\x98\xbe\xe5\xad\x98\xe4\xb8\x8d\xe8\xb6\xb3";
    const struct msg_rule *r = msg_classify(plain, strlen(plain));
    assert_non_null(r);
    const struct msg_rule *h = msg_classify(hedge, strlen(hedge));
    assert_true(h != r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_denied_words_linear),
        cmocka_unit_test(test_cjk_hedge_still_read),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
