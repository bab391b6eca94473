/* A traceback whose every line carries a log prefix AND is followed by a
 * blank line (Docker, s6-overlay, journald and web-UI viewers print logs so;
 * blakeblackshear/frigate#8246 = h49-39): the prefix parse takes each code
 * line's indentation, so the code line reads as plain text, and the frame it
 * belongs to is a blank line above it. The stage must be the one the same
 * traceback gives with only the prefix, or only the blank lines. The
 * traceback is written here in that shape. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stage_fixture.h"

static const char *const tb[] = {
    "Traceback (most recent call last):",
    "  File \"/opt/app/detector.py\", line 229, in __init__",
    "    ) = self._allocate_buffers()",
    "  File \"/opt/app/detector.py\", line 131, in _allocate_buffers",
    "    err, host_mem = cuda.cuMemHostAlloc(",
    "  File \"cuda/cuda.pyx\", line 14069, in cuda.cuda.cuMemHostAlloc",
    ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total "
     "capacity of 3.86 GiB of which 1.02 GiB is free."),
};

static const char *const prefixes[] = {
    "2025-01-01 12:00:00,123 ERROR ",  /* ISO time + level */
    "[rank0]: ",                       /* torchrun */
    "svc-1  | ",                       /* docker compose */
    "2025-01-01T00:00:00.000Z ",       /* s6 / docker --timestamps */
    "2023-10-11 16:22:06.933668034  ", /* s6-log TAI64N as text, h49-39 */
};

/* The message first, its traceback below (walk_forward): the outer frame's
 * code line above the frame that names the stage. */
static const char *const below[] = {
    ("ERROR torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a "
     "total capacity of 3.86 GiB of which 1.02 GiB is free."),
    "Traceback (most recent call last):",
    "  File \"/opt/app/run.py\", line 12, in main",
    "    ) = self._allocate_buffers()",
    "  File \"/opt/app/detector.py\", line 229, in __init__",
    "    err, host_mem = cuda.cuMemHostAlloc(",
};

/* The lines of t (count n) with prefix p on each line on each line and `blanks` empty lines after each. */
static const char *lines_shaped(const char *const *t, size_t count, const char *p, int blanks)
{
    static char log[4096];
    size_t at = 0;
    for (size_t i = 0; i < count; i++) {
        int n = snprintf(log + at, sizeof log - at, "%s%s\n", p, t[i]);
        assert_true(n > 0 && (size_t)n < sizeof log - at);
        at += (size_t)n;
        for (int k = 0; k < blanks; k++) {
            assert_true(at + 1 < sizeof log);
            log[at++] = '\n';
        }
    }
    log[at] = '\0';
    return log;
}

static const char *shaped(const char *p, int blanks)
{
    return lines_shaped(tb, sizeof tb / sizeof tb[0], p, blanks);
}

static void test_prefix_only(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        assert_string_equal(stage_of(shaped(prefixes[i], 0)), "load");
}

static void test_blanks_only(void **state)
{
    (void)state;
    assert_string_equal(stage_of(shaped("", 1)), "load");
    assert_string_equal(stage_of(shaped("", 2)), "load");
}

/* failed before under_frame stepped over blank lines (stage unknown) */
static void test_prefix_and_blanks(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        assert_string_equal(stage_of(shaped(prefixes[i], 1)), "load");
        assert_string_equal(stage_of(shaped(prefixes[i], 2)), "load");
    }
}

/* the same below the message; "both" failed before walk_forward stepped
 * over blank lines between a frame and its prefixed code line */
static void test_below_message(void **state)
{
    (void)state;
    const size_t n = sizeof below / sizeof below[0];
    assert_string_equal(stage_of(lines_shaped(below, n, "", 0)), "load");
    assert_string_equal(stage_of(lines_shaped(below, n, "", 1)), "load");
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        assert_string_equal(stage_of(lines_shaped(below, n, prefixes[i], 0)), "load");
        assert_string_equal(stage_of(lines_shaped(below, n, prefixes[i], 1)), "load");
        assert_string_equal(stage_of(lines_shaped(below, n, prefixes[i], 2)), "load");
    }
}

/* Guard: more blank lines than a traceback walk steps over (WALK_BLANKS)
 * end the traceback, with a prefix as without one. */
static void test_too_many_blanks(void **state)
{
    (void)state;
    assert_string_equal(stage_of(shaped("", 3)), "unknown");
    assert_string_equal(stage_of(shaped(prefixes[0], 3)), "unknown");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prefix_only),
        cmocka_unit_test(test_blanks_only),
        cmocka_unit_test(test_prefix_and_blanks),
        cmocka_unit_test(test_below_message),
        cmocka_unit_test(test_too_many_blanks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
