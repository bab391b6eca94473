/* Unit tests for issue 12 (the GPU-OOM/look-alike call on unseen logs),
 * diagcall17:
 *
 * - A sentence that names the OOM with its device and, in another
 *   sentence, quotes a call ("each forward() makes ...") reads as code that
 *   lost its indentation (stage_line_kind), so the prose passes skipped it.
 *   The prose pass reads a person's unindented sentence so (diagopen41's
 *   rule in scan.c prose_pass, which the merge kept; this test holds it).
 * - The device said to lack memory ("I don't have enough CUDA memory",
 *   "the card does not have enough VRAM", "the GPU memory is not enough"),
 *   with the device in the sentence; not the host's "this machine does not
 *   have enough memory", not a condition ("if you don't have enough GPU
 *   memory, ...").
 * - An error's word right before "allocate"/"allocating" ("Error allocate
 *   memory when training on GPU"), with the device in the sentence, as
 *   "failed to allocate GPU memory" already reads.
 *
 * Each mechanism has guard rows for what must stay as it was. The pastes
 * are written here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/oom.h"
#include "lib/scan.h"
#include "call_fixture.h"

/* ---- a sentence that quotes a call ------------------------------------- */

static void test_sentence_quoting_a_call(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"a report whose next sentence quotes a call",
         "How much memory does this need\n\n"
         "I ran the training script on a card with 16G of GPU memory and it stopped with `out of "
         "memory` after two epochs. Printing shows that every forward() call grows the cache "
         "a little more.\n",
         true},
        /* guards: code, not prose */
        {"the sentences indented: a code block",
         "Training problem\n\n"
         "    I ran the training script on a card with 16G of GPU memory and it stopped with `out "
         "of memory` after two epochs. Printing shows that every forward() call grows the cache "
         "a little more.\n",
         false},
        {"a sentence without the device",
         "Training problem\n\n"
         "Calling model.generate() on long prompts is slow for me here. Then it ran out of memory "
         "on the third prompt and the whole run stopped.\n",
         false},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* ---- the device said to lack memory ------------------------------------ */

static void test_device_lacks_memory(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"don't have enough CUDA memory",
         "Cannot run the demo\n\nOn my 3060 the app says I don't have enough CUDA memory and "
         "stops.\n",
         true},
        {"the card does not have enough VRAM",
         "Crash at start\n\nThe reply was that my GPU simply does not have enough VRAM for the "
         "large model.\n",
         true},
        {"the GPU memory is not enough",
         "Training stops\n\nAfter 200 iterations the GPU memory is not enough and training "
         "stops.\n",
         true},
        /* guards */
        {"the host lacks memory",
         "Replay buffer\n\nThe warning says this machine does not have enough memory to hold "
         "the whole buffer.\n",
         false},
        {"a condition, advice",
         "Tips\n\nIf you don't have enough GPU memory, start the app with the low memory "
         "option.\n",
         false},
        {"enough memory",
         "Works now\n\nWith the new card I have enough GPU memory for the large model.\n",
         false},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* ---- an error's word before "allocate" ---------------------------------- */

static void test_error_allocating(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"a title: error allocate memory on the GPU",
         "Error allocate memory when fitting the big model on GPU\n\nAny idea?\n", true},
        {"errors allocating GPU memory",
         "Fit fails\n\nAt the second epoch I get errors allocating GPU memory and the fit stops.\n",
         true},
        /* guards: no device; a condition */
        {"error allocating memory, no device",
         "Fit fails\n\nAt the second epoch I get errors allocating memory and the fit stops.\n",
         false},
        {"a condition",
         "Notes\n\nIf there is an error allocating GPU memory, the loader tries a smaller chunk.\n",
         false},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* ---- a device word glued to "out" ------------------------------------- */

static void test_device_glued_to_out(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"cudaout, lower case",
         "Memory grows\n\nGraphics memory keeps increasing until cudaout of memory during "
         "training.\n",
         true},
        {"GPUout",
         "Crash\n\nThe run stops with GPUout of memory after a few steps.\n", true},
        /* guards: words that end in "out" are no device */
        {"checkout", "Build\n\nThe checkout of memory modules failed in the shop.\n", false},
        {"timeout", "Build\n\nA timeout of memory tests stops the run.\n", false},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sentence_quoting_a_call),
        cmocka_unit_test(test_device_lacks_memory),
        cmocka_unit_test(test_error_allocating),
        cmocka_unit_test(test_device_glued_to_out),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
