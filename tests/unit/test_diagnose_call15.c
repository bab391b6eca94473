/* Unit tests for issue 12 (the GPU-OOM/look-alike call on
 * unseen logs): a message cut in its first word, and OOM words in a
 * proposal.
 *
 * - The Dreambooth extension's batch-size finder prints "OOM Detected,
 *   reducing batch/grad size to B/G." and the traceback of the OOM it
 *   caught; a paste cut at the line's first letter ("OM Detected, ...",
 *   the shape of d8ahazard/sd_dreambooth_extension#1457) reads as the whole
 *   line does.
 * - A feature request in DeepPavlov's template ("**What problem are we
 *   trying to solve?**", "**How can we solve it?**") or in the common
 *   GitHub form ("**Is your feature request related to a problem?**"),
 *   and a design issue
 *   ("Follow-up to #50", "**Proposed fix:**") name an OOM as the reason
 *   for a change: a look-alike.
 *
 * - An OOM named bare in a title ("Re: Error: ArrayFire Exception (Device
 *   out of memory:101)", copied from another thread) over the paste's own
 *   failure of the same framework that is no OOM (ArrayFire's driver
 *   error, 102): the failure shown is the paste's.
 *
 * Each mechanism has guard rows for what must stay as it was. The pastes
 * are written here, in the shape of the posts named. */
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

/* ---- a message cut in its first word ------------------------------------
 * The line as dreambooth/memory.py prints it (find_executable_batch_size:
 * print(f"OOM Detected, reducing batch/grad size to {batch_size}/{grad_size}.")
 * then traceback.print_exc(); d8ahazard/sd_dreambooth_extension@e85c8c5f),
 * a tqdm bar glued after it as the console shows it. */
#define DREAMBOOTH_TB                                                                          \
    "Traceback (most recent call last):\n"                                                     \
    "  File \"G:\\sd\\extensions\\sd_dreambooth_extension\\dreambooth\\memory.py\", line 126, " \
    "in decorator\n"                                                                           \
    "    return function(batch_size, grad_size, prof, *args, **kwargs)\n"                      \
    "  File \"G:\\sd\\extensions\\sd_dreambooth_extension\\dreambooth\\train_dreambooth.py\", " \
    "line 1361, in inner_loop\n"                                                               \
    "    accelerator.backward(loss)\n"

static void test_dreambooth_line_cut(void **state)
{
    (void)state;
    const char *cut = "### Console logs\n\n```Shell\n"
                      "OM Detected, reducing batch/grad size to 0/2.#####      | 4/5 [00:00<00:00,  5.44it/s]\n"
                      DREAMBOOTH_TB;
    struct seen s = look(cut);
    assert_true(s.gpu_oom);
    assert_string_equal(s.kind, "oom-mention");
}

/* Guards: the whole line over its traceback is the same call; the cut line
 * alone, no traceback after it, is no event (as the whole line alone); the
 * words in a person's sentence about batch sizes are none. */
static void test_dreambooth_line_guards(void **state)
{
    (void)state;
    const char *whole = "OOM Detected, reducing batch/grad size to 0/2.\n" DREAMBOOTH_TB;
    assert_true(look(whole).gpu_oom);
    assert_false(look("OM Detected, reducing batch/grad size to 2/2.\n").gpu_oom);
    assert_false(look("OOM Detected, reducing batch/grad size to 2/2.\n").gpu_oom);
    assert_false(look("The extension keeps reducing the batch size to 1 and training works.\n").gpu_oom);
}

/* ---- OOM words in a proposal ---------------------------------------------
 * DeepPavlov's feature-request form
 * (deeppavlov/DeepPavlov:.github/ISSUE_TEMPLATE/feature-request.md@65f69dfb)
 * filled in, in the shape of "Use TFLMSV to solve OOM Error.". */
static void test_proposal_template(void **state)
{
    (void)state;
    const char *req =
        "Use LMS to solve OOM Error.\n"
        "Want to contribute to DeepPavlov? Please read the [contributing guideline](http://docs.deeppavlov.ai/en/master/devguides/contribution_guide.html) first.\n"
        "**What problem are we trying to solve?**:\n"
        "```\n"
        "Since multi-GPU training is not supported, we often encounter OOM errors (insufficient GPU memory) with large models.\n"
        "```\n"
        "**How can we solve it?**:\n"
        "```\n"
        "Merge large model support.\n"
        "```\n"
        "**Are there other issues that block this solution?**:\n"
        "```\n"
        "No\n"
        "```\n";
    assert_false(look(req).gpu_oom);
}

/* A design issue: a follow-up to a change, its proposed fix. */
static void test_proposal_design_issue(void **state)
{
    (void)state;
    const char *issue =
        "Fall back to CPU when GPU segmentation runs out of VRAM\n"
        "Follow-up to #50 / PR #51, which moves the segmentation pipeline to CUDA.\n"
        "On a small card this can exhaust VRAM: the cached models on top of each other will OOM on 8 GB and below.\n"
        "Current behaviour on OOM: `torch.cuda.OutOfMemoryError` propagates out of `Worker.run` and surfaces as a generic error.\n"
        "**Proposed fix:** catch OOM from the `.to(cuda)` move, fall back to a CPU pipeline for that run.\n";
    assert_false(look(issue).gpu_oom);
}

/* The feature-request form many repositories copy
 * (Lightning-AI/pytorch-lightning:.github/ISSUE_TEMPLATE/
 * feature_request.md@d56a8f99), in the shape of a request for CPU-resident
 * embedding tables. */
static void test_feature_request_form(void **state)
{
    (void)state;
    const char *req =
        "Add an option to keep embedding tables on the CPU while training on the GPU\n"
        "**Is your feature request related to a problem? Please describe.**\n"
        "With many users and items the embedding tables take so much GPU memory that training fails with an OOM error before the first step.\n"
        "**Describe the solution you'd like**\n"
        "Keep the tables on the CPU and move only the rows of each batch to the GPU.\n"
        "**Describe alternatives you've considered**\n"
        "A clear and concise description of any alternative solutions or features you've considered: model parallel tables over several GPUs.\n";
    assert_false(look(req).gpu_oom);
}

/* Guards: the same template over a pasted PyTorch OOM with its figures
 * stays a GPU OOM (the failure it wants fixed); "proposed fix" in a
 * report's prose, without the heading's colon, is no proposal; an issue
 * titled by its OOM over a traceback stays what it was. */
static void test_proposal_guards(void **state)
{
    (void)state;
    const char *req_with_oom =
        "Support gradient checkpointing\n"
        "**What problem are we trying to solve?**:\n"
        "Training the large model fails:\n"
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 15.78 GiB "
        "total capacity; 13.20 GiB already allocated; 1.02 GiB free; 13.50 GiB reserved in total by PyTorch)\n"
        "**How can we solve it?**:\n"
        "Add gradient checkpointing.\n";
    struct seen s = look(req_with_oom);
    assert_true(s.gpu_oom);
    assert_string_equal(s.kind, "pytorch-old");
    const char *form_with_oom =
        "Add CPU offload for the embedding tables\n"
        "**Is your feature request related to a problem? Please describe.**\n"
        "Training stops at the first step:\n"
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 9.54 GiB. GPU 0 has a total capacity "
        "of 23.64 GiB of which 2.10 GiB is free. Of the allocated memory 19.80 GiB is allocated by PyTorch, "
        "and 1.20 GiB is reserved by PyTorch but unallocated.\n";
    assert_true(look(form_with_oom).gpu_oom);
    const char *report =
        "CUDA out of memory when training the detector\n"
        "I tried the proposed fix from the docs but training still fails.\n"
        "Traceback (most recent call last):\n"
        "  File \"train.py\", line 88, in <module>\n"
        "    loss.backward()\n"
        "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 7.79 GiB total capacity; "
        "6.21 GiB already allocated; 9.31 MiB free; 6.40 GiB reserved in total by PyTorch)\n";
    assert_true(look(report).gpu_oom);
}

/* ---- a title's OOM over the paste's own, other failure ------------------
 * ArrayFire's exception names its code's string and number
 * (arrayfire/arrayfire:src/api/c/err_common.cpp@5594ae7a, af_err_to_string:
 * AF_ERR_NO_MEM "Device out of memory", AF_ERR_DRIVER "Driver not
 * available or incompatible"); flashlight's allocator wraps it, in the
 * shape of a wav2letter thread titled by another thread's error. */
#define AF_DRIVER_BODY                                                                           \
    "Hi, I ran the CTC training tutorial and got\n"                                               \
    "```\n"                                                                                       \
    "Unable to allocate memory with native alloc for size 2097152 bytes with error 'ArrayFire "   \
    "Exception (Driver not available or incompatible:102):\n"                                     \
    "In file /src/flashlight/memory/MemoryManagerInstaller.cpp:191'terminate called after "        \
    "throwing an instance of 'af::exception'\n"                                                   \
    "  what():  ArrayFire Exception (Driver not available or incompatible:102):\n"                \
    "In file src/api/c/memory.cpp:738\n"                                                          \
    " 6# af_randu in /usr/local/lib/libafcuda.so.3\n"                                             \
    "```\n"

static void test_arrayfire_title_over_driver_error(void **state)
{
    (void)state;
    const char *log = "Re: Error: ArrayFire Exception (Device out of memory:101)\n\n" AF_DRIVER_BODY;
    assert_false(look(log).gpu_oom);
    struct seen body = look(AF_DRIVER_BODY);
    assert_false(body.gpu_oom);
    assert_string_equal(body.kind, "arrayfire-error");
}

/* Guards: the title over the same OOM shown below stays a GPU OOM; a title
 * OOM over a kernel fault (what an unchecked failed allocation leaves
 * behind) stays one; a title OOM over another framework's error stays
 * what it was. */
static void test_arrayfire_title_guards(void **state)
{
    (void)state;
    const char *same = "Error: ArrayFire Exception (Device out of memory:101)\n\n"
                       "terminate called after throwing an instance of 'af::exception'\n"
                       "  what():  ArrayFire Exception (Device out of memory:101):\n"
                       "In file src/api/c/memory.cpp:738\n";
    assert_true(look(same).gpu_oom);
    const char *fault = "CUDA out of memory in my test program\n"
                        "RuntimeError: CUDA error: an illegal memory access was encountered\n";
    assert_true(look(fault).gpu_oom);
    /* the run's own bare message below its first line, then a
     * device-side assert of the same writer: the OOM stays */
    const char *run = "epoch 3 step 120 loss 0.412\n"
                      "RuntimeError: CUDA error: out of memory\n"
                      "epoch 3 step 121 loss 0.409\n"
                      "RuntimeError: CUDA error: device-side assert triggered\n";
    assert_true(look(run).gpu_oom);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dreambooth_line_cut),
        cmocka_unit_test(test_dreambooth_line_guards),
        cmocka_unit_test(test_proposal_template),
        cmocka_unit_test(test_proposal_design_issue),
        cmocka_unit_test(test_feature_request_form),
        cmocka_unit_test(test_proposal_guards),
        cmocka_unit_test(test_arrayfire_title_over_driver_error),
        cmocka_unit_test(test_arrayfire_title_guards),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
