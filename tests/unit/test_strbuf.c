/* Unit tests for lib/strbuf: appends, NUL termination, growth, the cap and
 * the sticky failure; the edit distance. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
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
    assert_int_equal(strbuf_distance("Expandable_Segments", "expandable_segments"), 0); /* case-blind */
    char longest[STRBUF_DISTANCE_MAX + 2];
    memset(longest, 'a', sizeof longest - 1);
    longest[sizeof longest - 1] = '\0';
    assert_int_equal(strbuf_distance(longest, "a"), SIZE_MAX); /* past the row: unknown, not 0 */
    longest[STRBUF_DISTANCE_MAX] = '\0';
    assert_int_equal(strbuf_distance(longest, "a"), STRBUF_DISTANCE_MAX - 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_append_and_grow),
        cmocka_unit_test(test_cap_and_sticky_failure),
        cmocka_unit_test(test_distance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
