/* Unit tests for stage_line_is_header (diagperf): the same answer as
 * stage_line_kind(...) == STAGE_LINE_HEADER on every kind of line, without
 * the frame cues. step_below asked stage_line_kind of each raw line below a
 * message, up to 64 KiB a line, only to know whether it was a header: on a
 * log of one long line that was half of diagnose's time. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/stage.h"

static const char *const lines[] = {
    "Traceback (most recent call last):",
    "  Traceback (most recent call last):",
    "19%|#9 | 3237/16700 [3:34:12<38:35:22, 10.32s/it]Traceback (most recent call last):",
    "stack traceback:",
    "Thread 0x00007f (most recent call first):",
    "*** Check failure stack trace: ***",
    "Stack (most recent call last):",
    "*** SIGABRT (@0x3e8) received by PID 18943 (TID 0x7f5f) from PID 18943; stack trace: ***",
    "C++ Call Stacks (More useful to developers):",
    "goroutine 1 [running]:",
    "LOG (nnet3-train[5.5]:main():nnet3-train.cc:73) Traceback (most recent call last)",
    "  File \"/home/ml/train.py\", line 212, in <module>",
    "    loss.backward()",
    "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB",
    "",
    "   ",
    "step=7 loss=1.0",
};

static void test_same_as_kind(void **state)
{
    (void)state;
    int headers = 0;
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        size_t n = strlen(lines[i]);
        bool want = stage_line_kind(lines[i], n) == STAGE_LINE_HEADER;
        headers += want;
        if (stage_line_is_header(lines[i], n) != want) fail_msg("differs on: %s", lines[i]);
    }
    assert_true(headers >= 8);
}

static void test_long_line(void **state)
{
    (void)state;
    /* a long line of frame words is no header either way */
    size_t n = 64u << 10;
    char *line = malloc(n);
    assert_non_null(line);
    for (size_t i = 0; i < n; i++) line[i] = "loss.backward() optimizer.step() "[i % 33];
    assert_false(stage_line_is_header(line, n));
    assert_int_not_equal(stage_line_kind(line, n), STAGE_LINE_HEADER);
    memcpy(line + n - 40, "Traceback (most recent call last):", 34);
    assert_true(stage_line_is_header(line, n));
    assert_int_equal(stage_line_kind(line, n), STAGE_LINE_HEADER);
    free(line);
}

/* a person's script: Cyrillic and CJK are, box and bar glyphs are not */
static void test_other_script(void **state)
{
    (void)state;
    static const char ru[] = "\xd0\xbf\xd0\xb0\xd0\xbc\xd1\x8f\xd1\x82\xd1\x8c"; /* память */
    static const char zh[] = "\xe6\x98\xbe\xe5\xad\x98\xe4\xb8\x8d\xe8\xb6\xb3"; /* 显存不足 */
    static const char bar[] = "50%|\xe2\x96\x88\xe2\x96\x88     | 5/10 \xe2\x94\x82";
    assert_true(stage_other_script(ru, strlen(ru)));
    assert_true(stage_other_script(zh, strlen(zh)));
    assert_false(stage_other_script(bar, strlen(bar)));
    assert_false(stage_other_script("CUDA out of memory", 18));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_as_kind),
        cmocka_unit_test(test_long_line),
        cmocka_unit_test(test_other_script),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
