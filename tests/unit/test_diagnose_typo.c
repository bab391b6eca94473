/* Unit tests for the typos of "out" in "out of memory" (diagcall, issue 12):
 * mention.c's out_words. Every line is real, from the thread named beside it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/mention.h"

static void test_out_typos(void **state)
{
    (void)state;
    struct mention_hit hit;
    /* Interpause/auto-sd-paint-ext#120 (heldout20 h20-56), the issue title */
    const char *title = "Cuda of of Memory when inpainting or img2img";
    assert_int_equal(mention_read(title, strlen(title), &hit), MENTION_GPU);
    assert_int_equal(hit.at, 5);
    /* the same title's words without the memory word after them are none */
    const char *cut = "Cuda of of";
    assert_int_equal(mention_read(cut, strlen(cut), &hit), MENTION_NONE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_out_typos),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
