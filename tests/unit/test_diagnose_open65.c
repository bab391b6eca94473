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
 * 1326, in convert" (threads with that pair over the OOM:
 * haoheliu/AudioLDM#133 = heldout18 h18-35,
 * kijai/ComfyUI-HunyuanVideoWrapper#333 = heldout27 h27-105,
 * Comfy-Org/ComfyUI#6176 = heldout4 k01, stepfun-ai/Step-Video-T2V#8 =
 * heldout60 h60-56).
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

/* The same first line under a user's own frame header is that helper's:
 * a tensor moved where the helper is called (here from a forward), no
 * model moved. Users' helpers do spell it so, the statement spread over
 * lines ("return t.to(\n    device=..., non_blocking=True)"); no public
 * traceback with one over an OOM was found, so the frames here are
 * written for the test. Indented under the header or not; read downward
 * (the header first) as upward. (left25) */
static void test_convert_line_in_user_helper(void **state)
{
    (void)state;
    static const char helper[] = "Traceback (most recent call last):\n"
                                 "  File \"/w/train.py\", line 41, in forward\n"
                                 "    h = move_like(h, self.proj.weight)\n"
                                 "  File \"/w/helpers.py\", line 12, in move_like\n";
    char log[2048];
    snprintf(log, sizeof log, "%s    return t.to(\n" MSG, helper);
    assert_string_equal(primary_stage(log), "forward");
    snprintf(log, sizeof log, "%sreturn t.to(\n" MSG, helper);
    assert_string_equal(primary_stage(log), "forward");
    /* the traceback printed below the message, read downward */
    snprintf(log, sizeof log, MSG "\n%s    return t.to(\n", helper);
    assert_string_equal(primary_stage(log), "forward");
    /* guard: under torch's nn.Module frame, slash or backslash, the model's move */
    assert_string_equal(primary_stage("Traceback (most recent call last):\n"
                                      "  File \"/w/train.py\", line 41, in forward\n"
                                      "    h = move_like(h, self.proj.weight)\n"
                                      "  File \"C:\\x\\torch\\nn\\modules\\module.py\", line 1326, in convert\n"
                                      "    return t.to(\n" MSG),
                        "load");
    assert_true(stage_convert_first_line("`   return t.to(", 16));
    assert_false(stage_convert_first_line("    return t.to(device)", 23));
    assert_false(stage_convert_first_line("x = 1; return t.to(", 19));
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

/* "this PR" on a line that links a pull request points at another change
 * (a reply in an issue: "there is this PR to allow it - https://github.com/
 * Stability-AI/stable-audio-tools/pull/162" under a first-person CUDA OOM
 * report, stable-audio-tools#161 = heldout65 h65-48; "This PR should fix
 * the issue! https://github.com/NVlabs/ProtoMotions/pull/223",
 * NVlabs/ProtoMotions#222 = heldout37 h37-19; "refer to [this pull
 * request](https://github.com/threestudio-project/threestudio/pull/174)",
 * threestudio-project/threestudio#187 = heldout65 h65-33): the paste is no
 * change of its own. A pull request's own words ("This PR fixes #576 ...",
 * heldout45 h45-65) still make it one. */
static void test_pull_request_linked_from_issue(void **state)
{
    (void)state;
    const char *report =
        "CUDA out of memory\n"
        "\n"
        "I'm getting a CUDA out of memory error while fine-tuning the model, even with batch size 1, on a 24 GB card.\n"
        "\n"
        "someone \xc2\xb7 comment \xc2\xb7 2024-12-25\n"
        "There is this PR to make it fit - https://github.com/org/tool/pull/162\n";
    struct oom_report rep;
    scan_primary(report, &rep);
    oom_report_release(&rep);
    const char *linked =
        "CUDA out of memory\n"
        "\n"
        "I'm getting a CUDA out of memory error while fine-tuning the model, even with batch size 1, on a 24 GB card.\n"
        "\n"
        "someone \xc2\xb7 comment \xc2\xb7 2024-12-25\n"
        "See [this pull request](https://github.com/org/tool/pull/174) for the fix.\n";
    scan_primary(linked, &rep);
    oom_report_release(&rep);
    /* guards: the pull request's own words, with no link, or linking an
     * issue, still make the paste a change that discusses the OOM */
    expect_no_gpu_oom("Reduce memory in the trainer\n"
                      "\n"
                      "This PR fixes CUDA out of memory errors when fine-tuning with batch size 8.\n");
    expect_no_gpu_oom("Reduce memory in the trainer\n"
                      "\n"
                      "This PR fixes https://github.com/org/tool/issues/576: CUDA out of memory when fine-tuning.\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_module_to_convert_line),
        cmocka_unit_test(test_convert_line_in_user_helper),
        cmocka_unit_test(test_return_statement_code_line),
        cmocka_unit_test(test_pull_request_linked_from_issue),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
