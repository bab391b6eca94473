/* allocsim: PyTorch's CUDA caching allocator rules (c10/cuda/
 * CUDACachingAllocator.cpp@001074d2), one behaviour each. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "lib/allocsim.h"

#define MIB (1024LL * 1024)

static void test_small_pool(void **state)
{
    (void)state;
    struct allocsim s;
    allocsim_init(&s);
    int a = allocsim_alloc(&s, 100); /* rounded to 512, a 2 MiB small segment */
    assert_true(a >= 0);
    assert_int_equal(s.allocated, 512);
    assert_int_equal(s.reserved, 2 * MIB);
    allocsim_alloc(&s, MIB); /* 1 MiB is still small: same segment */
    assert_int_equal(s.reserved, 2 * MIB);
    allocsim_alloc(&s, MIB); /* no room left: a second one */
    assert_int_equal(s.reserved, 4 * MIB);
    allocsim_release(&s);
}

static void test_large_segments(void **state)
{
    (void)state;
    struct allocsim s;
    allocsim_init(&s);
    allocsim_alloc(&s, 3 * MIB / 2); /* 1-10 MiB: a 20 MiB segment, split */
    assert_int_equal(s.reserved, 20 * MIB);
    assert_int_equal(s.allocated, 3 * MIB / 2);
    allocsim_alloc(&s, 5 * MIB); /* carved from the same segment */
    assert_int_equal(s.reserved, 20 * MIB);
    allocsim_alloc(&s, 11 * MIB + 1); /* fits the 13.5 MiB still free there */
    assert_int_equal(s.reserved, 20 * MIB);
    allocsim_alloc(&s, 14 * MIB + 1); /* above 10 MiB: a segment rounded up to 2 MiB */
    assert_int_equal(s.reserved, 36 * MIB);
    allocsim_release(&s);
}

static void test_split_and_merge(void **state)
{
    (void)state;
    struct allocsim s;
    allocsim_init(&s);
    int big = allocsim_alloc(&s, 12 * MIB);
    allocsim_free(&s, big);
    /* 0.8 MiB left over is not split off (large pool: only > 1 MiB): the
     * allocated figure counts the whole 12 MiB block */
    int b = allocsim_alloc(&s, 12 * MIB - 800 * 1024);
    assert_int_equal(s.allocated, 12 * MIB);
    assert_int_equal(s.reserved, 12 * MIB);
    allocsim_free(&s, b);
    int x = allocsim_alloc(&s, 4 * MIB), y = allocsim_alloc(&s, 4 * MIB); /* split twice */
    assert_int_equal(s.allocated, 8 * MIB);
    allocsim_free(&s, x);
    allocsim_free(&s, y); /* neighbours merge back into one 12 MiB block */
    allocsim_alloc(&s, 12 * MIB);
    assert_int_equal(s.reserved, 12 * MIB);
    assert_int_equal(s.peak_reserved, 12 * MIB);
    allocsim_release(&s);
}

/* The variable-length pathology: a freed block is never grown, so a request
 * slightly larger than every cached block cudaMallocs a new segment while
 * the old one stays reserved. */
static void test_longer_request_new_segment(void **state)
{
    (void)state;
    struct allocsim s;
    allocsim_init(&s);
    int a = allocsim_alloc(&s, 100 * MIB);
    allocsim_free(&s, a);
    allocsim_alloc(&s, 101 * MIB);
    assert_int_equal(s.reserved, 100 * MIB + 102 * MIB);
    assert_int_equal(s.allocated, 102 * MIB);
    allocsim_alloc(&s, 60 * MIB); /* a smaller one reuses the old block (split) */
    assert_int_equal(s.reserved, 202 * MIB);
    allocsim_free(&s, -1); /* no-op */
    allocsim_release(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_pool),
        cmocka_unit_test(test_large_segments),
        cmocka_unit_test(test_split_and_merge),
        cmocka_unit_test(test_longer_request_new_segment),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
