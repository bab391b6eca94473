/* Unit tests for the bound on scan.c's walks (fuzz13): a walk that skips
 * other writers' lines and blanks counts them too, WALK_LINES (400) in all.
 * Before, the walks down from a message (julia_stack, context_walk,
 * prose_code_walk) counted only the lines they read, so each of many
 * events interleaved with other ranks' lines read the rest of the log
 * (2.6 s on a 64 KiB paste of 400 ranks' messages over one rank's lines).
 * The logs are written here: a Julia stack (the shape of test_diagnose_left2's
 * rows) whose ranks' lines are interleaved with another rank's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stage_fixture.h"

/* Rank 0's Julia OOM, its "Stacktrace:" header, `others` lines of rank 1,
 * then rank 0's frame under gradient. */
static char *interleaved(int others)
{
    static const char head[] = "[rank0]: ERROR: LoadError: CUDA error: out of memory (code 2, ERROR_OUT_OF_MEMORY)\n"
                               "[rank0]: Stacktrace:\n";
    static const char other[] = "[rank1]: step 10 done\n";
    static const char frame[] = "[rank0]:  [2] withgradient(::Function, ::Chain{Tuple{Dense{typeof(relu)}}}) at "
                                "/home/u/.julia/packages/Zygote/ggM8Z/src/compiler/interface.jl:140\n";
    size_t n = sizeof head + (size_t)others * (sizeof other - 1) + sizeof frame;
    char *log = malloc(n);
    assert_non_null(log);
    char *p = log;
    memcpy(p, head, sizeof head - 1), p += sizeof head - 1;
    for (int i = 0; i < others; i++) memcpy(p, other, sizeof other - 1), p += sizeof other - 1;
    memcpy(p, frame, sizeof frame);
    return log;
}

static void test_walk_skips_other_writers(void **state)
{
    (void)state;
    /* interleaved output is read through: the frame below another rank's lines */
    char *log = interleaved(100);
    assert_string_equal(stage_of(log), "backward");
    free(log);
}

static void test_walk_bounded(void **state)
{
    (void)state;
    /* ...but not the whole rest of the log: 500 lines of another writer
     * end the walk (before, it read on to the frame) */
    char *log = interleaved(500);
    assert_string_equal(stage_of(log), "unknown");
    free(log);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walk_skips_other_writers),
        cmocka_unit_test(test_walk_bounded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
