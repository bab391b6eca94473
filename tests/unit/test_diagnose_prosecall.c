/* Unit tests for an OOM said to be fixed (lib/mention's mended_verbs): the
 * sentence that says the OOM was fixed, solved or resolved names a failure
 * that is over, not one of this paste; the OOM words that are no object of
 * the mending verb and a request to fix one stay failures.
 * (prosecall, issue 12) */
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

#include "call_fixture.h"

static enum mention_kind read_line(const char *line)
{
    struct mention_hit hit;
    return mention_read(line, strlen(line), &hit);
}

/* The mended OOM, in Chinese and English: no mention. */
static void test_mended_oom_lines(void **state)
{
    (void)state;
    /* stanleylsx/llms_tool#46 (heldout40 h40-01): after fixing the OOM
     * problem, the program quits during DeepSpeed's initialization */
    assert_int_equal(read_line("@tuzeao \xe6\x84\x9f\xe8\xb0\xa2\xe3\x80\x82\xe4\xbf\xae\xe5\xa4\x8d"
                               "\xe4\xba\x86oom\xe9\x97\xae\xe9\xa2\x98\xe5\x90\x8e\xef\xbc\x8c"
                               "\xe8\xbf\x98\xe9\x81\x87\xe5\x88\xb0\xe4\xb8\x80\xe4\xb8\xaa"
                               "\xe6\x83\x85\xe5\x86\xb5\xe6\x98\xaf\xe7\xa8\x8b\xe5\xba\x8f "
                               "deepspeed"),
                     MENTION_NONE);
    /* the same with 解决了 (solved) */
    assert_int_equal(read_line("\xe8\xa7\xa3\xe5\x86\xb3\xe4\xba\x86 CUDA OOM \xe9\x97\xae\xe9\xa2\x98"),
                     MENTION_NONE);
    /* English wordings of public write-ups ("After fixing the OOM, the chain
     * ran to completion but produced all-NaN output"; "This resolved the OOM
     * (Out-of-Memory) errors"), here with the device in the sentence */
    assert_int_equal(read_line("After fixing the CUDA OOM, the run produced all-NaN output on the GPU."),
                     MENTION_NONE);
    assert_int_equal(read_line("Lowering the batch size resolved the GPU out of memory errors."),
                     MENTION_NONE);
    assert_int_equal(read_line("I solved this OOM on my 3090 by enabling gradient checkpointing."),
                     MENTION_NONE);
}

/* The OOM words that stay a failure: another object of the verb, a
 * request, a mending still going on. */
static void test_unmended_oom_lines(void **state)
{
    (void)state;
    /* heldout28 h28-97 (a GPU OOM): the fix is of something else */
    assert_int_equal(read_line("On fixing that, there is a CUDA out of memory error because there is "
                               "not no_grad decorator arround the inference script"),
                     MENTION_GPU);
    assert_int_equal(read_line("Please help me fix the CUDA out of memory error on my GPU."), MENTION_GPU);
    /* fixing without "after": the fixing goes on */
    assert_int_equal(read_line("While fixing the CUDA OOM I hit it again on the GPU."), MENTION_GPU);
}

/* A whole paste: the mended OOM is no event; an OOM named below it is. */
static void test_mended_paste(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"after stanleylsx/llms_tool#46",
         "DPO training anomaly\n\n"
         "Thanks. After fixing the OOM problem, the program exits during deepspeed initialization "
         "with no error on 8*A100.\n",
         false},
        {"after stanleylsx/llms_tool#46, then a new OOM",
         "DPO training anomaly\n\n"
         "After fixing the OOM problem, the program exits during deepspeed initialization.\n"
         "Now with ZeRO stage 2 the GPU runs out of memory again at step 3.\n",
         true},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mended_oom_lines),
        cmocka_unit_test(test_unmended_oom_lines),
        cmocka_unit_test(test_mended_paste),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
