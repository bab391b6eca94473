/* Unit tests for posthdr17's rule (issue 12): a thread's post header
 * ("user · comment · date", "[turn N by user]") that starts a reply inside a
 * pasted thread is where every walk over the paste's lines stops
 * (scan.c's other_post): the reply below is another writer's, and its words
 * ("Running Evaluation", "Output generated in") are no evidence about the
 * reporter's failure. The header right under the paste's title is the
 * report's own body and stops no walk. Every paste is synthetic. The
 * context_walk and "[turn N by user]" rows fail on bc1a9281; the chained
 * and tail rows fail with other_post dropped from chained_stage or
 * tail_walk. */
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

/* A failure whose frames name nothing, then Python's chain note and the
 * handler's traceback (chained_stage: its frames are the callers, the
 * graph capture at start-up). A reply's header between the two cuts the
 * paste: what follows it is another writer's traceback. */
#define TB "Traceback (most recent call last):\n"
#define INNER                                                                                       \
    TB "  File \"/x/sgl_kernel/moe.py\", line 58, in moe_fused_gate\n"                              \
       "    return torch.ops.sgl_kernel.moe_fused_gate.default(\n"                                  \
       "  File \"/x/torch/_ops.py\", line 756, in __call__\n"                                      \
       "    return self._op(*args, **kwargs)\n"                                                     \
       "RuntimeError: CUDA error: out of memory\n"
#define CHAINED                                                                                     \
    "During handling of the above exception, another exception occurred:\n\n" TB                    \
    "  File \"/x/sglang/srt/model_executor/cuda_graph_runner.py\", line 336, in __init__\n"         \
    "    self.capture()\n"                                                                          \
    "  File \"/x/sglang/srt/model_executor/cuda_graph_runner.py\", line 436, in capture\n"          \
    "    ) = self.capture_one_batch_size(bs, forward)\n"

static void test_chained_stops_at_reply(void **state)
{
    (void)state;
    assert_string_equal(stage_of(TITLE INNER "\n" CHAINED), "load");
    assert_string_equal(stage_of(TITLE INNER REPLY CHAINED), "unknown");
    assert_string_equal(stage_of(TITLE INNER "\n[turn 2 by bob]\n" CHAINED), "unknown");
}

/* A message nothing leads to (the paste's title) takes the paste's last
 * activity (tail_walk): the run's, above a reply's header, not the reply's
 * own last line. */
static void test_tail_stops_at_reply(void **state)
{
    (void)state;
    const char *head = "CUDA out of memory\n\nalice \xc2\xb7 comment \xc2\xb7 2023-03-15\n"
                       "The log ends:\n\n"
                       "Running Evaluation\n";
    const char *load = "Loading checkpoint shards: 100%|##########| 2/2 [00:03<00:00,  1.50s/it]\n";
    char log[1024];
    snprintf(log, sizeof log, "%s", head);
    assert_string_equal(stage_of(log), "eval");
    snprintf(log, sizeof log, "%s%s", head, load); /* the run's own later line */
    assert_string_equal(stage_of(log), "load");
    snprintf(log, sizeof log, "%s%s%s", head, REPLY, load); /* the same line in a reply */
    assert_string_equal(stage_of(log), "eval");
    snprintf(log, sizeof log, "%s%s%s", head, "\n[turn 2 by bob]\n", load);
    assert_string_equal(stage_of(log), "eval");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_post_header_shapes),
        cmocka_unit_test(test_context_down_stops_at_reply),
        cmocka_unit_test(test_after_stops_at_reply),
        cmocka_unit_test(test_chained_stops_at_reply),
        cmocka_unit_test(test_tail_stops_at_reply),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
