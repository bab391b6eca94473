/* Unit tests for lib/allocconf: the keys PyTorch's allocator parser knows,
 * a typo named, brackets of roundup_power2_divisions kept whole. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/allocconf.h"

static void test_known(void **state)
{
    (void)state;
    char out[128];
    assert_int_equal(allocconf_unknown_keys("expandable_segments:True", out, sizeof out), 0);
    assert_string_equal(out, "");
    assert_int_equal(
        allocconf_unknown_keys(" max_split_size_mb:128 , garbage_collection_threshold:0.6,"
                               "roundup_power2_divisions:[256:1,512:2,>:4],backend:native",
                               out, sizeof out),
        0);
    assert_int_equal(allocconf_unknown_keys("", out, sizeof out), 0);
}

static void test_unknown(void **state)
{
    (void)state;
    char out[128];
    assert_int_equal(allocconf_unknown_keys("expandable_segment:True", out, sizeof out), 1);
    assert_string_equal(out, "expandable_segment");
    /* the size unit belongs in the key: max_split_size:128 is refused */
    assert_int_equal(
        allocconf_unknown_keys("max_split_size:128,expandable_segments:True,foo", out, sizeof out),
        2);
    assert_string_equal(out, "max_split_size, foo");
    char tiny[8];
    assert_int_equal(allocconf_unknown_keys("aaaaaaaaaaaa:1", tiny, sizeof tiny), 1);
    assert_int_equal(strlen(tiny), 7);
    assert_int_equal(allocconf_suggest("expandable_segment:True", out, sizeof out), 1);
    assert_string_equal(out, "expandable_segments");
    assert_int_equal(allocconf_suggest("max_split_size:128", out, sizeof out), 1);
    assert_string_equal(out, "max_split_size_mb");
    assert_int_equal(allocconf_suggest("foo:1", out, sizeof out), 0);
    assert_string_equal(out, "");
    assert_int_equal(allocconf_suggest("expandable_segments:True", out, sizeof out), 0);
    /* every typo is named, not the first alone (the second was left to
     * "check the spelling"), and a key with none is passed over */
    assert_int_equal(allocconf_suggest("foo:1, expandable_segment:True,max_split_size:128", out, sizeof out), 2);
    assert_string_equal(out, "expandable_segments (for expandable_segment), max_split_size_mb (for max_split_size)");
    assert_int_equal(allocconf_suggest("foo:1,max_split_size:128", out, sizeof out), 1);
    assert_string_equal(out, "max_split_size_mb");
    /* PyTorch's keys are case-sensitive (its parser compares with ==), so a
     * key in capitals is refused; the did-you-mean names the key it reads */
    assert_int_equal(allocconf_unknown_keys("EXPANDABLE_SEGMENTS:True", out, sizeof out), 1);
    assert_int_equal(allocconf_suggest("EXPANDABLE_SEGMENTS:True", out, sizeof out), 1);
    assert_string_equal(out, "expandable_segments");
    assert_int_equal(allocconf_suggest("Max_Split_Size_MB:128", out, sizeof out), 1);
    assert_string_equal(out, "max_split_size_mb");
    /* what doctor and run say of them, in one place */
    char says[256];
    assert_int_equal(allocconf_unknown_said("expandable_segment:True", says, sizeof says), 1);
    assert_string_equal(says, "'expandable_segment' is not a key PyTorch's allocator reads: torch stops at the "
                              "first CUDA allocation (Unrecognized CachingAllocator option)");
    assert_int_equal(allocconf_unknown_said("foo:1,bar:2", says, sizeof says), 2);
    assert_non_null(strstr(says, "'foo, bar' are not keys PyTorch's allocator reads"));
    assert_int_equal(allocconf_unknown_said("expandable_segments:True", says, sizeof says), 0);
    assert_string_equal(says, "");
}

static void test_too_new(void **state)
{
    (void)state;
    const char *since = NULL;
    assert_string_equal(
        allocconf_too_new("max_split_size_mb:64, expandable_segments:True", "1.13.1+cu117", &since),
        "expandable_segments");
    assert_string_equal(since, "2.1");
    assert_non_null(allocconf_too_new("expandable_segments:True", "2.0.1", &since));
    assert_null(allocconf_too_new("expandable_segments:True", "2.1.0", &since));
    assert_null(allocconf_too_new("expandable_segments:True", "10.0", &since));
    assert_null(allocconf_too_new("expandable_segments:True", "unknown", &since));
    assert_null(allocconf_too_new("max_split_size_mb:64", "1.13.0a0", &since));
    assert_null(allocconf_too_new("not_expandable_segments:True", "1.13.0a0", &since));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known),
        cmocka_unit_test(test_unknown),
        cmocka_unit_test(test_too_new),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
