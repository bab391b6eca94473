/* Unit tests for the mechanisms read from the misses of heldout66 (vision,
 * science, graphs, RL and tabular on PyTorch: the long tail), opened for
 * study after its blind figures were recorded at ac913751 (call 63/71,
 * numbers 54/56, stages 6/22). Each case has a guard that must stay as it
 * was. The pastes are written here in the shape of the posts named beside
 * them (the tools' own wording, from their sources), not copied from the
 * threads. */
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

/* Ray before 2.0 raised its memory monitor's error as
 * ray.memory_monitor.RayOutOfMemoryError when the node's host memory
 * passed 95% (ray-project/ray#3323, the change that added it; its
 * wrapper "RayTaskError(RayOutOfMemoryError)" in ray-project/ray#20906;
 * ray-project/ray#10431's title; heldout66 h66-35): host memory, no GPU
 * OOM, as Ray 2's ray.exceptions.OutOfMemoryError. */
static void test_ray_memory_monitor_old_name(void **state)
{
    (void)state;
    const char *monitor =
        "Workers keep crashing\n"
        "\n"
        "```\n"
        "Traceback (most recent call last):\n"
        "  File \"/opt/ray/python/ray/worker.py\", line 826, in _process_task\n"
        "    self.memory_monitor.raise_if_low_memory()\n"
        "ray.memory_monitor.RayOutOfMemoryError: More than 95% of the memory on node\n"
        "box-1 is used (30.1 / 31.4 GB). The top 5 memory consumers are:\n"
        "\n"
        "PID\tMEM\tCOMMAND\n"
        "4411\t9.0GB\tray_Learner:train()\n"
        "```\n";
    expect_no_gpu_oom(monitor);
    const char *wrapped =
        "ray.exceptions.RayTaskError(RayOutOfMemoryError): ray::f() (pid=812, ip=10.0.0.3)\n"
        "ray.memory_monitor.RayOutOfMemoryError: More than 95% of the memory on node n3 is used (61.0 / 62.8 GB).\n";
    expect_no_gpu_oom(wrapped);
    /* guard: a task's own torch OOM re-raised by Ray stays a GPU OOM */
    const char *torch_oom =
        "ray.exceptions.RayTaskError(OutOfMemoryError): ray::Actor.step() (pid=55, ip=10.0.0.2)\n"
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity "
        "of 79.15 GiB of which 1.10 GiB is free.\n";
    struct oom_report rep;
    scan_primary(torch_oom, &rep);
    oom_report_release(&rep);
}

/* A function named for inference handed the validation split's loader
 * runs the validation pass: DARTS' "valid_acc, valid_obj = infer(
 * valid_queue, model, criterion)" (quark0/darts cnn/train.py and
 * train_imagenet.py; over an OOM in quark0/darts#27, and in
 * yuhuixu1993/PC-DARTS#16 as "infer(valid_queue, dp_model, model,
 * criterion)"; heldout66 h66-51), where the frame "in infer" alone says
 * forward. */
static const char *darts_paste(const char *call, const char *fn)
{
    static char buf[2048];
    snprintf(buf, sizeof buf,
             "07/10 07:05:24 PM valid 000 2.609589e+00 47.656250 76.562500\n"
             "THCudaCheck FAIL file=/pytorch/aten/src/THC/generic/THCStorage.cu line=58 error=2 : out of memory\n"
             "Traceback (most recent call last):\n"
             "  File \"train.py\", line 230, in <module>\n"
             "    main()\n"
             "  File \"train.py\", line 152, in main\n"
             "    %s\n"
             "  File \"train.py\", line 214, in %s\n"
             "    logits, _ = model(input)\n"
             "  File \"/usr/lib/python3.5/site-packages/torch/nn/modules/module.py\", line 491, in __call__\n"
             "    result = self.forward(*input, **kwargs)\n"
             "  File \"/home/u/darts/cnn/model.py\", line 207, in forward\n"
             "    s0, s1 = s1, cell(s0, s1, self.drop_path_prob)\n"
             "RuntimeError: cuda runtime error (2) : out of memory at /pytorch/aten/src/THC/generic/THCStorage.cu:58\n",
             call, fn);
    return buf;
}

static void test_infer_on_validation_loader(void **state)
{
    (void)state;
    assert_string_equal(primary_stage(darts_paste("valid_acc, valid_obj = infer(valid_queue, model, criterion)", "infer")),
                        "eval");
    assert_string_equal(
        primary_stage(darts_paste("valid_acc, valid_obj = infer(valid_queue, dp_model, model, criterion)", "infer")),
        "eval");
    assert_string_equal(primary_stage(darts_paste("scores = predict(model, val_loader)", "predict")), "eval");
    /* guards: the training loader, a test loader, no loader, and a loader
     * handed to a function not named for inference */
    assert_string_equal(primary_stage(darts_paste("out = infer(train_queue, model, criterion)", "infer")), "forward");
    assert_string_equal(primary_stage(darts_paste("preds = predict(model, test_loader)", "predict")), "forward");
    assert_string_equal(primary_stage(darts_paste("mask = infer(image, model)", "infer")), "forward");
    assert_string_equal(primary_stage(darts_paste("throughput(data_loader_val, model, logger)", "throughput")),
                        "forward");
}

/* MPS's allocator refusing one buffer larger than the device allows,
 * "RuntimeError: Invalid buffer size: 19.45 GB" (pytorch/pytorch
 * aten/src/ATen/mps/MPSAllocator.mm; pytorch/pytorch#141909 from one
 * torch.bmm, kijai/ComfyUI-SUPIR#151 in GiB, huggingface/diffusers#5894 =
 * heldout55 h55-35, heldout66 h66-07): a GPU-class OOM, the size its
 * request (format_size: 1024-based). */
static void test_mps_invalid_buffer_size(void **state)
{
    (void)state;
    struct oom_report rep;
    const struct oom_event *e = scan_primary(
        "Traceback (most recent call last):\n"
        "  File \"/Users/u/test1.py\", line 5, in <module>\n"
        "    res = torch.bmm(x1, x2)\n"
        "RuntimeError: Invalid buffer size: 19.45 GB\n",
        &rep);
    assert_int_equal(e->bytes.requested, 20884278477LL); /* 19.45 * 2^30, rounded */
    oom_report_release(&rep);
    e = scan_primary("- **Exception Message:** Invalid buffer size: 19.38 GiB\n", &rep);
    assert_int_equal(e->bytes.requested, 20809116549LL);
    oom_report_release(&rep);
    /* guard: ffmpeg's decoder names a packet's buffer, no allocation */
    expect_no_gpu_oom("[rawvideo @ 0x654c1c0] Invalid buffer size, packet size 65536 < expected frame_size 2359296\n"
                      "Error while decoding stream #0:0: Invalid argument\n");
    /* guards: other programs' checks of a buffer length, a bare number
     * with no unit (format_size always names one): a C tool's "Invalid
     * buffer size: 0", a Java IllegalArgumentException over a setting
     * (review23) */
    expect_no_gpu_oom("Starting copy\nlog_error: Invalid buffer size: 0\nAborting.\n");
    expect_no_gpu_oom("Exception in thread \"main\" java.lang.IllegalArgumentException: Invalid buffer size: 4096\n");
    /* ... while the smallest format_size prints still counts */
    e = scan_primary("RuntimeError: Invalid buffer size: 512 bytes\n", &rep);
    assert_int_equal(e->bytes.requested, 512);
    oom_report_release(&rep);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ray_memory_monitor_old_name),
        cmocka_unit_test(test_infer_on_validation_loader),
        cmocka_unit_test(test_mps_invalid_buffer_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
