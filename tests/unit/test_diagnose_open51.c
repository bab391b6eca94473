/* Unit tests for the mechanisms read from the misses of heldout51
 * (mainstream deep learning outside the LLM stack: detection,
 * segmentation, speech, image generation, TensorFlow, Caffe2, apex),
 * opened for study after its blind figures were recorded at 9e07f268
 * (68/75 calls, 93/94 numbers, 18/20 stages). Each case has a guard that
 * must stay as it was. The pastes are written here, in the shape of the
 * posts named. */
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
#include "lib/verdict.h"
#include "call_fixture.h"

/* Advice to the reader whose condition is the reader meeting the OOM
 * (a maintainer's reply quoted over a batching assertion,
 * facebookresearch/fairseq#1191) supposes one; a condition on the
 * writer's own action stays a report. */
static const struct call_case advice_calls[] = {
    {"advice, you are getting",
     "If you are getting CUDA out of memory errors, you should reduce the size of your batch by "
     "setting `--max-tokens` to a smaller value.\n",
     false},
    {"advice, you still see", "If you still see CUDA out of memory, lower the batch.\n", false},
    {"advice, you encounter (Real-ESRGAN's hint)",
     "If you encounter CUDA out of memory, try to set --tile with a smaller number.\n", false},
    /* guards */
    {"a condition on the writer's action", "If I use 4 GPUs I get CUDA out of memory\n", true},
    {"the message itself",
     "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 7.79 GiB total "
     "capacity; 6.1 GiB already allocated; 3.19 MiB free; 6.2 GiB reserved in total by PyTorch)\n",
     true},
    {"a report under the hint",
     "Error CUDA out of memory. Tried to allocate 1.34 GiB (GPU 0; 3.94 GiB total capacity; 2.23 "
     "GiB already allocated; 479.00 MiB free; 2.38 GiB reserved in total by PyTorch)\n"
     "If you encounter CUDA out of memory, try to set --tile with a smaller number.\n",
     true},
};

static void test_advice_to_the_reader(void **state)
{
    (void)state;
    expect_calls(advice_calls, sizeof advice_calls / sizeof advice_calls[0]);
}

/* "otherwise" makes what follows a consequence supposed, unless the
 * writer is its subject (then it tells what the writer's runs do). */
static const struct call_case otherwise_calls[] = {
    {"otherwise it gives",
     "I cannot increase the max tokens otherwise it gives CUDA oom error. how can I skip these?\n",
     false},
    {"otherwise you will get", "otherwise you will get CUDA oom error\n", false},
    /* guard: the writer's own runs */
    {"otherwise i'll get",
     "i can't go any higher than batch_size = 1, otherwise i'll get CUDA oom error\n", true},
};

static void test_otherwise_supposes(void **state)
{
    (void)state;
    expect_calls(otherwise_calls, sizeof otherwise_calls / sizeof otherwise_calls[0]);
}

/* The failing statement Python prints above its error tells no stage:
 * "sample_len" is no sampling. */
static void test_assert_line_no_stage(void **state)
{
    (void)state;
    struct oom_event e = primary(
        "assert sample_len <= max_tokens, f\"sentence at index {idx} exceeds max_tokens limit!\"\n"
        "AssertionError: sentence at index 25683144 exceeds max_tokens limit!\n");
    assert_false(e.gpu_oom);
    assert_int_equal(e.stage, OOM_STAGE_UNKNOWN);
}

/* A pull request whose title is a change and whose description says what
 * it catches (crynux-network/crynux-node#59) discusses the OOM; a report
 * asking how to catch one, under a title of its own, stays a report. */
static const struct call_case catch_calls[] = {
    {"a change catching the error",
     "update stable-diffusion-task\n\n"
     "- update stable-diffusion-task lib to catch RuntimeError: CUDA error: out of memory\n",
     false},
    {"a report asking how to catch it",
     "How to catch exception OOM.\n\n"
     "RuntimeError: CUDA error: out of memory\n"
     "Is there any way to catch this error?\n",
     true},
};

static void test_change_that_catches(void **state)
{
    (void)state;
    expect_calls(catch_calls, sizeof catch_calls / sizeof catch_calls[0]);
}

/* "failed to start." ends vLLM's engine sentence (load); a recipe's
 * "failed to start stage 6 because of out of CUDA memory" (espnet) names
 * no stage. */
static void test_failed_to_start(void **state)
{
    (void)state;
    struct oom_event e = primary(
        "I tried to fine-tune VITS on a small data of 200 wav files, but failed to start stage 6 "
        "because of out of CUDA memory.\n");
    assert_true(e.gpu_oom);
    assert_int_equal(e.stage, OOM_STAGE_UNKNOWN);

    e = primary("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n"
                "ERROR 11-05 12:19:32 [core.py:708] EngineCore failed to start.\n");
    assert_true(e.gpu_oom);
    assert_int_equal(e.stage, OOM_STAGE_LOAD);
}

/* cuDNN's execution failure is a kernel fault, with the stage of the
 * frames above it (NVIDIA/apex#78); beside a GPU OOM it is the OOM's
 * consequence, not the root cause. */
static void test_cudnn_execution_failed(void **state)
{
    (void)state;
    struct oom_event e = primary(
        "Traceback (most recent call last):\n"
        "  File \"main.py\", line 348, in <module>\n"
        "    metrics = train(batch, args.fp16)\n"
        "  File \"main.py\", line 88, in train\n"
        "    scaled_loss.backward()\n"
        "  File \"/env/lib/python3.7/site-packages/torch/tensor.py\", line 102, in backward\n"
        "    torch.autograd.backward(self, gradient, retain_graph, create_graph)\n"
        "  File \"/env/lib/python3.7/site-packages/torch/autograd/__init__.py\", line 90, in "
        "backward\n"
        "    allow_unreachable=True)  # allow_unreachable flag\n"
        "RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED\n");
    assert_false(e.gpu_oom);
    assert_string_equal(e.kind, "cudnn-execution-failed");
    assert_int_equal(e.stage, OOM_STAGE_BACKWARD);
    assert_int_equal(verdict_lookalike(&e), VERDICT_KERNEL_FAULT);

    static const struct call_case guards[] = {
        {"an OOM before the fault",
         "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 7.79 GiB total "
         "capacity; 6.1 GiB already allocated; 3.19 MiB free; 6.2 GiB reserved in total by "
         "PyTorch)\n"
         "RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED\n",
         true},
        {"a denied fault", "It is not CUDNN_STATUS_EXECUTION_FAILED any more.\n", false},
        /* the allocation status stays a GPU OOM */
        {"cudnn alloc failed", "RuntimeError: cuDNN error: CUDNN_STATUS_ALLOC_FAILED\n", true},
    };
    expect_calls(guards, sizeof guards / sizeof guards[0]);
}

/* A Caffe2 operator that writes a gradient blob ("<blob>_grad") runs in
 * backward whatever its type (the multi-GPU all-reduce's "Add",
 * facebookresearch/Detectron#32); a forward operator stays forward. */
static void test_caffe2_gradient_blob(void **state)
{
    (void)state;
    struct oom_event e = primary(
        "  what():  [enforce fail at context_gpu.h:170] . Encountered CUDA error: an illegal memory "
        "access was encountered Error from operator: \n"
        "input: \"gpu_0/retnet_bbox_pred_fpn3_b_grad\" input: \"gpu_2/retnet_bbox_pred_fpn3_b_grad\" "
        "output: \"gpu_0/retnet_bbox_pred_fpn3_b_grad\" name: \"\" type: \"Add\" device_option { "
        "device_type: 1 cuda_gpu_id: 0 }\n");
    assert_string_equal(e.kind, "cuda-illegal-address");
    assert_int_equal(e.stage, OOM_STAGE_BACKWARD);

    e = primary(
        "  what():  [enforce fail at context_gpu.h:170] . Encountered CUDA error: an illegal memory "
        "access was encountered Error from operator: \n"
        "input: \"gpu_0/res4_7_branch2a\" input: \"gpu_0/res4_7_branch2b_w\" output: "
        "\"gpu_0/res4_7_branch2b\" name: \"\" type: \"Conv\" device_option { device_type: 1 "
        "cuda_gpu_id: 0 }\n");
    assert_int_equal(e.stage, OOM_STAGE_FORWARD);
}

/* The disk said in words to be full keeps a device-less memory guess off
 * the GPU (ultralytics/yolov5#6756); a denial past "think" does not count,
 * and a device-named OOM elsewhere is not the disk's. */
static const struct call_case disk_word_calls[] = {
    {"disk words over a guess",
     "error: no disk space in val one image end\n\n"
     "I think it is because of the continuous append images into the list, which leads to "
     "insufficient memory.\n"
     "Traceback (most recent call last):\n"
     "  File \"train.py\", line 10, in <module>\n",
     false},
    {"the guess alone",
     "I think it is because of the continuous append images into the list, which leads to "
     "insufficient memory.\n"
     "Traceback (most recent call last):\n"
     "  File \"train.py\", line 10, in <module>\n",
     true},
};

static void test_disk_words(void **state)
{
    (void)state;
    expect_calls(disk_word_calls, sizeof disk_word_calls / sizeof disk_word_calls[0]);
    struct oom_report rep;
    scan_log("The device has 800GB of disk space free, so I don't think insufficient disk space "
             "should be the cause.\n"
             "Traceback (most recent call last):\n"
             "  File \"train.py\", line 10, in <module>\n"
             "_pickle.PicklingError: Can't pickle <function <lambda>>\n",
             &rep);
    for (size_t i = 0; i < rep.n_events; i++) assert_string_not_equal(rep.events[i].kind, "disk-words");
    oom_report_release(&rep);
}

/* The device named after "for" in the OOM's clause ("Training memory error
 * for RTX 3090 24g", bmaltais/kohya_ss#1407); a later preposition counts
 * afresh; "for" and no device stays nothing. */
static const struct call_case for_device_calls[] = {
    {"memory error for a card", "Training memory error for RTX 3090 24g\n", true},
    {"for, then on", "out of memory error for batch size 8 on the GPU\n", true},
    {"for and no device", "out of memory error for the dataset\n", false},
};

static void test_device_after_for(void **state)
{
    (void)state;
    expect_calls(for_device_calls, sizeof for_device_calls / sizeof for_device_calls[0]);
}

/* A person's sentence below the message, or a thread's comment header
 * ("Building-max \xc2\xb7 comment \xc2\xb7 2021-05-15"), names no stage; a web
 * UI's own job line still does. */
static void test_lines_below_from_people(void **state)
{
    (void)state;
    static const char oom[] =
        "CUDA out of memory. Tried to allocate 1.75 GiB (GPU 0; 8.00 GiB total capacity; 5.09 GiB "
        "already allocated; 0 bytes free; 6.00 GiB reserved in total by PyTorch)\n";
    char log[1024];
    snprintf(log, sizeof log, "%s\nI Tried to use the img2img script. I got : \n", oom);
    assert_int_equal(primary(log).stage, OOM_STAGE_UNKNOWN);
    snprintf(log, sizeof log, "%s\nBuilding-max \xc2\xb7 comment \xc2\xb7 2021-05-15\nthanks\n", oom);
    assert_int_equal(primary(log).stage, OOM_STAGE_UNKNOWN);
    /* a reply's advice in the second person (CompVis/stable-diffusion#760) */
    snprintf(log, sizeof log,
             "%s\nTry to modify `txt2img.py` (or `img2img.py`), add calling of `.half()` when "
             "loading your model:\n",
             oom);
    assert_int_equal(primary(log).stage, OOM_STAGE_UNKNOWN);
    /* guard: the tool's own line */
    snprintf(log, sizeof log, "%sException processing job: func=<function img2img at 0x7f>\n", oom);
    assert_int_equal(primary(log).stage, OOM_STAGE_GENERATE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_advice_to_the_reader), cmocka_unit_test(test_otherwise_supposes),
        cmocka_unit_test(test_assert_line_no_stage), cmocka_unit_test(test_change_that_catches),
        cmocka_unit_test(test_failed_to_start),      cmocka_unit_test(test_cudnn_execution_failed),
        cmocka_unit_test(test_caffe2_gradient_blob), cmocka_unit_test(test_disk_words),
        cmocka_unit_test(test_device_after_for),    cmocka_unit_test(test_lines_below_from_people),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
