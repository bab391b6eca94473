/* Unit tests for posthdr17's rule (issue 12): a thread's post header
 * ("user · comment · date", "[turn N by user]") that starts a reply inside a
 * pasted thread is where every walk over the paste's lines stops
 * (scan.c's other_post): the reply below is another writer's, and its words
 * ("Running Evaluation", "Output generated in") are no evidence about the
 * reporter's failure. The header right under the paste's title is the
 * report's own body and stops no walk. Every paste is synthetic. The
 * context_walk and "[turn N by user]" rows fail on bc1a9281. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/activity.h"
#include "lib/oom.h"
#include "lib/scan.h"
#include "lib/stage.h"
#include "stage_fixture.h"

#define TITLE "My run crashes\n\nalice \xc2\xb7 comment \xc2\xb7 2023-03-15\n"
#define TORCH_OOM                                                                                   \
    "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 11.17 GiB total "       \
    "capacity; 10.50 GiB already allocated; 5.00 MiB free; 10.60 GiB reserved in total by PyTorch)\n"
#define REPLY "\nbob \xc2\xb7 comment \xc2\xb7 2023-03-16\n"

static void test_post_header_shapes(void **state)
{
    (void)state;
    static const char *const yes[] = {"bob \xc2\xb7 comment \xc2\xb7 2023-03-16", "[turn 2 by bob]",
                                      "[turn 12 by coderabbitai[bot], continued]", "[turn 3 by bob]\r"};
    static const char *const no[] = {"[turn by bob]", "turn 2 by bob", "[turn 2 of 5]",
                                     "Epoch 1 \xc2\xb7 loss 0.3", "[turn 2 by bob] said hi"};
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
        assert_true(activity_post_header(yes[i], strlen(yes[i])));
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        assert_false(activity_post_header(no[i], strlen(no[i])));
}

/* The message pasted with no traceback: the log lines below it say what
 * ran (context_walk going down), up to a reply's header. */
static void test_context_down_stops_at_reply(void **state)
{
    (void)state;
    assert_string_equal(stage_of(TITLE TORCH_OOM "Running Evaluation\n"), "eval");
    assert_string_equal(stage_of(TITLE TORCH_OOM REPLY "Running Evaluation\n"), "unknown");
    assert_string_equal(stage_of(TITLE TORCH_OOM "\n[turn 2 by bob]\nRunning Evaluation\n"), "unknown");
}

/* A web UI's line after the message (after_stage) is the run's; the same
 * line in a reply is not. */
static void test_after_stops_at_reply(void **state)
{
    (void)state;
    const char *ui = "Output generated in 3.21 seconds (10.00 tokens/s, 32 tokens)\n";
    char log[1024];
    snprintf(log, sizeof log, "%s%s%s", TITLE, TORCH_OOM, ui);
    assert_string_equal(stage_of(log), "generate");
    snprintf(log, sizeof log, "%s%s%s%s", TITLE, TORCH_OOM, REPLY, ui);
    assert_string_equal(stage_of(log), "unknown");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_post_header_shapes),
        cmocka_unit_test(test_context_down_stops_at_reply),
        cmocka_unit_test(test_after_stops_at_reply),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
