/* Unit tests for the mechanisms read from the misses of heldout65
 * (generation and speech apps), opened for study after its blind figures
 * were recorded at ac913751 (call 56/66, numbers 42/42, stages 6/10). Each
 * case has a guard that must stay as it was. The pastes are written here
 * in the shape of the posts named beside them (the tools' own wording),
 * not copied from the threads. */
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
#include "lib/stage.h"
#include "scan_fixture.h"

#define MSG                                                                                        \
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 64.00 MiB. GPU 0 has a total "  \
    "capacity of 24.00 GiB of which 0 bytes is free. Of the allocated memory 22.89 GiB is "        \
    "allocated by PyTorch, and 355.13 MiB is reserved by PyTorch but unallocated.\n"

/* nn.Module.to's per-tensor convert: since torch 2.1 its statement spans
 * lines ("return t.to(\n    device,\n    dtype if t.is_floating_point() ...",
 * pytorch/pytorch:torch/nn/modules/module.py), and Python's traceback
 * prints its first line alone, "    return t.to(", under "module.py", line
 * 1326, in convert" (public pastes with that pair over the OOM: find_string
 * ids 69854565513, 30693610190, 42088252846, 69082163242; the seen sets'
 * heldout18 h18-35, heldout27 h27-105, heldout4 k01, heldout60 h60-56).
 * Moving a model to the device: load. Pasted with only the innermost frame,
 * or the code line alone, or quoted in backticks over the message
 * (Lightricks/LTX-Video#64 = heldout65 h65-35: "`   return t.to(" then
 * the message). */
static void test_module_to_convert_line(void **state)
{
    (void)state;
    /* the innermost frame alone: was forward (module.py's frame) */
    assert_string_equal(primary_stage("Traceback (most recent call last):\n"
                                      "  File \"/x/site-packages/torch/nn/modules/module.py\", line 1326, in convert\n"
                                      "    return t.to(\n" MSG),
                        "load");
    /* the code line without its header, under the traceback's title */
    assert_string_equal(primary_stage("Traceback (most recent call last):\n"
                                      "    return t.to(\n" MSG),
                        "load");
    /* quoted in backticks right above the message, in a reply's prose */
    assert_string_equal(primary_stage("Now i tried on 2 RTX3090 24 GB VRAM, and had this error:\n"
                                      "`   return t.to(\n" MSG),
                        "load");
    assert_string_equal(primary_stage("had this error:\nreturn t.to(\n" MSG), "load");
    /* guards: a sentence starting with "return" is no code; a fenced
     * block's opener is no inline quote; the call's whole line as before */
    assert_string_equal(primary_stage("After that I return to the main menu\n" MSG), "unknown");
    assert_string_equal(primary_stage("```\n" MSG), "unknown");
    assert_string_equal(primary_stage("    return t.to(device, dtype if t.is_floating_point() or t.is_complex() else None, non_blocking)\n" MSG),
                        "load");
}

/* "return <call>" right above the message, its header lost: the keyword
 * does not make the line a sentence; the call after it names the stage as
 * a frame's code line does ("return self._apply(convert)", nn.Module.to's
 * last line, in kohya-ss/sd-scripts#725's Rich box = heldout65 h65-20;
 * "return F.linear(input, self.weight, self.bias)", nn.Linear.forward's
 * line, over countless OOMs, e.g. heldout27's pastes). */
static void test_return_statement_code_line(void **state)
{
    (void)state;
    assert_true(stage_code_shaped("    return self._apply(convert)", 31));
    assert_true(stage_code_shaped("`return F.linear(input, self.weight, self.bias)", 48));
    assert_true(stage_code_shaped("    return t.to(", 16));
    assert_string_equal(primary_stage("some words:\nreturn self._apply(convert)\n" MSG), "load");
    /* guards: prose after the keyword, a keyword alone */
    assert_false(stage_code_shaped("return to the main menu", 23));
    assert_false(stage_code_shaped("return it", 9));
    assert_false(stage_code_shaped("```python", 9));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_module_to_convert_line),
        cmocka_unit_test(test_return_statement_code_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
