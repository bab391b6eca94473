/* Unit tests for msg_emitter_code and its use by the scan (diagcall, issue
 * 12): a print or logging call whose string argument names a GPU OOM is
 * code that would print the words (a pasted source file, a pull request's
 * diff), not an OOM of the log; what a logger printed at run time stays an
 * event. Every line is real, from the source named beside it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/msg.h"
#include "lib/scan.h"

#include "call_fixture.h"

/* facebookresearch/detectron2:detectron2/utils/memory.py@405ef0d4f466fb6fbc28fd219b6d03d5befb045a */
#define D2_CODE                                                                                   \
    "        logger.info(\"Attempting to copy inputs of {} to CPU due to CUDA OOM\".format(str(func)))"


/* The source line, pasted as it is or as a diff's added line, is no GPU OOM
 * (main called both one, through the rows' "CUDA OOM" mention). */
static void test_emitter_code_is_no_event(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"detectron2/utils/memory.py", D2_CODE "\n", false},
        {"detectron2/utils/memory.py as a diff", "```diff\n+" D2_CODE "\n```\n", false},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* What the same logger printed at run time stays the event: its prefix, then
 * the text (facebookresearch/detectron2#2946, heldout9 h9-84). */
static void test_emitted_text_stays(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"facebookresearch/detectron2#2946",
         "[04/19 09:58:05 d2.utils.memory]: Attempting to copy inputs of <function "
         "paste_masks_in_image at 0x7fcfef44fef0> to CPU due to CUDA OOM\n",
         true},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

static void test_emitter_line_shapes(void **state)
{
    (void)state;
    const char *code = D2_CODE;
    assert_true(msg_emitter_code(code, strlen(code)));
    /* a diff's marker before the indentation */
    const char *diff = "+" D2_CODE;
    assert_true(msg_emitter_code(diff, strlen(diff)));
    /* the runtime line: a prefix, no call */
    const char *run = "[04/19 09:58:05 d2.utils.memory]: Attempting to copy inputs of <function "
                      "paste_masks_in_image at 0x7fcfef44fef0> to CPU due to CUDA OOM";
    assert_false(msg_emitter_code(run, strlen(run)));
    /* code that is no printer's call: the condition of the same file's
     * except clause */
    const char *cond = "        if \"CUDA out of memory. \" in str(e):";
    assert_false(msg_emitter_code(cond, strlen(cond)));
    assert_false(msg_emitter_code("", 0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_emitter_code_is_no_event),
        cmocka_unit_test(test_emitted_text_stays),
        cmocka_unit_test(test_emitter_line_shapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
