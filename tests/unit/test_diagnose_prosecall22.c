/* Unit tests for prosecall22's mechanism (issue 12, the call on pastes that
 * name an OOM only in words): OOM words that are a heading's topic, "...
 * out of memory solutions", are advice, not a failure. The pastes are
 * synthetic, in the shape of the sources named (never a corpus log's
 * text). Both directions: the advice heading, and reports that say
 * "solutions" elsewhere in the sentence. The advice rows fail on d6808a88
 * (oomlab diagnose exits 1 on them there). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/scan.h"

#include "call_fixture.h"

/* "Solutions" right after the OOM words (generic_nouns in
 * src/lib/mention.c): ultralytics' stock reply under a question that shows
 * no failure ("How can I reduce GPU memory usage?", ultralytics/yolov5#7969:
 * "### CUDA Out of Memory Solutions" over a list of remedies), and a
 * guide's section heading ("## 1. CUDA out of memory solutions",
 * Mountchicken/Efficient-Deep-Learning:Efficient_GPUtilization.md@44b41778),
 * in the prose pass (words as typed: capitals, a device word other than the
 * CUDA message row's). A report that asks for solutions after its OOM, or
 * names tried solutions and then its own OOM, stays a report. */
static void test_prosecall22_solutions_heading(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"ultralytics/yolov5#7969: the stock reply's heading",
         "How can I reduce GPU memory usage while running inference?\n"
         "### CUDA Out of Memory Solutions\n"
         "- Reduce `--batch-size`\n"
         "- Reduce `--img-size`\n",
         false},
        {"Mountchicken/Efficient-Deep-Learning: a guide's heading",
         "# Efficient GPU Utilization\n"
         "## 1. GPU out of memory solutions\n"
         "### 1.1. Use a smaller batch size\n",
         false},
        {"guard: a report asking for solutions after its OOM",
         "Training dies with a GPU out of memory error, solutions please.\n", true},
        {"guard: tried solutions, then the run's own OOM",
         "I tried the GPU out of memory solutions from the FAQ, and training still dies "
         "with GPU out of memory at step 30.\n",
         true},
        {"guard: the singular stays a report",
         "The only solution I found for the GPU out of memory crash is batch size 1.\n", true},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prosecall22_solutions_heading),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
