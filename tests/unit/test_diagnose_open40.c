/* Unit tests for the mechanisms read from the misses of heldout40 (training
 * logs), opened for study after its blind figures were recorded (call
 * 106/114, numbers 117/118, stages 17/26 at 727c5c9a; diagopen40): TF's BFC
 * allocator's failed request over the driver's region growth; optimizers
 * outside torch.optim (DeepSpeed's ops, apex); a per-epoch test pass; a
 * trainer creating its model; a split's item count; a tensor's .cpu() in
 * prose; the plural "memories"; a glog signal stack's C++ frames; MATLAB's
 * stack lines. Each case has a guard that must stay as it
 * was. The pastes are written here, in the shape of the posts named. */
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
#include "stage_fixture.h"
#include "scan_fixture.h"

/* The requested bytes of a log's GPU OOM (-1 when none is called). */
static int64_t requested_of(const char *log)
{
    struct oom_report rep;
    scan_log(log, &rep);
    int64_t bytes = rep.primary >= 0 ? rep.events[rep.primary].bytes.requested : -1;
    oom_report_release(&rep);
    return bytes;
}

/* Is the log called a GPU OOM? */
static bool called(const char *log)
{
    struct oom_report rep;
    scan_log(log, &rep);
    bool yes = rep.primary >= 0 && rep.events[rep.primary].gpu_oom;
    oom_report_release(&rep);
    return yes;
}

/* TF's stream executor refuses the BFC allocator's region growth, then the
 * BFC gives up on the request itself (the shape of a TF 1.x RL trainer's
 * paste, heldout40 h40-25; TF 2.3+'s "(rounded to N)requested by op" form):
 * the request is the BFC's figure. Guards: the driver line alone keeps its
 * figure; the BFC's retry warning ("not a failure") is no failed request. */
static void test_bfc_request_over_region_growth(void **state)
{
    (void)state;
    const char *tf1 =
        "2019-07-30 03:35:51.119107: E tensorflow/stream_executor/cuda/cuda_driver.cc:806] failed to allocate 3.10G "
        "(3328599552 bytes) from device: CUDA_ERROR_OUT_OF_MEMORY: out of memory\n"
        "2019-07-30 03:35:51.119149: W tensorflow/core/common_runtime/bfc_allocator.cc:267] Allocator (GPU_0_bfc) "
        "ran out of memory trying to allocate 64.0KiB.  Current allocation summary follows.\n"
        "2019-07-30 03:35:51.119173: I tensorflow/core/common_runtime/bfc_allocator.cc:597] Bin (256): \tTotal "
        "Chunks: 0, Chunks in use: 0. 0B allocated for chunks.\n";
    const char *tf2 =
        "2021-03-01 10:00:00.100000: I tensorflow/stream_executor/cuda/cuda_driver.cc:789] failed to allocate 4.00G "
        "(4294967296 bytes) from device: CUDA_ERROR_OUT_OF_MEMORY: out of memory\n"
        "2021-03-01 10:00:00.100100: W tensorflow/core/common_runtime/bfc_allocator.cc:431] Allocator (GPU_0_bfc) "
        "ran out of memory trying to allocate 1.50GiB (rounded to 1610612736)requested by op MatMul\n";
    const char *alone =
        "2019-07-30 03:35:51.119107: E tensorflow/stream_executor/cuda/cuda_driver.cc:806] failed to allocate 3.10G "
        "(3328599552 bytes) from device: CUDA_ERROR_OUT_OF_MEMORY: out of memory\n";
    const char *retry =
        "2020-06-01 20:07:58.089000: I tensorflow/stream_executor/cuda/cuda_driver.cc:789] failed to allocate 3.10G "
        "(3328599552 bytes) from device: CUDA_ERROR_OUT_OF_MEMORY: out of memory\n"
        "2020-06-01 20:07:58.089327: W tensorflow/core/common_runtime/bfc_allocator.cc:239] Allocator (GPU_0_bfc) "
        "ran out of memory trying to allocate 45.53MiB with freed_by_count=0. The caller indicates that this is not "
        "a failure, but may mean that there could be performance gains if more memory were available.\n";
    assert_int_equal(requested_of(tf1), 65536);
    assert_int_equal(requested_of(tf2), 1610612736);
    assert_int_equal(requested_of(alone), 3328599552);
    assert_int_equal(requested_of(retry), 3328599552);
}

/* Optimizers outside torch.optim, by their packages (DeepSpeed's CPU Adam
 * under ZeRO offload, the shape of a diffusion trainer's paste, heldout40
 * h40-02). Guard: DeepSpeed's inference kernels are no optimizer. */
static void test_optimizer_packages(void **state)
{
    (void)state;
    const char *log =
        "[rank0]: File \"/home/u/.local/lib/python3.10/site-packages/deepspeed/ops/adam/cpu_adam.py\", line 163, in step\n"
        "[rank0]: self.ds_opt_adam.adam_update(self.opt_id, state['step'], group['lr'], beta1, beta2,\n"
        "[rank0]: RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB\n";
    assert_string_equal(stage_of(log), "optimizer");
    assert_int_equal(line_stage("  File \"/env/site-packages/deepspeed/ops/lamb/fused_lamb.py\", line 120, in step"),
                     OOM_STAGE_OPTIMIZER);
    assert_int_equal(line_stage("  File \"/env/site-packages/apex/optimizers/fused_adam.py\", line 170, in step"),
                     OOM_STAGE_OPTIMIZER);
    assert_int_equal(line_stage("    optim.step(closure=None)"), OOM_STAGE_OPTIMIZER);
    assert_int_not_equal(line_stage("    optim_cfg = dict(step=10)"), OOM_STAGE_OPTIMIZER);
    assert_int_not_equal(
        line_stage("  File \"/env/site-packages/deepspeed/ops/transformer/inference/ds_attention.py\", line 9, in forward"),
        OOM_STAGE_OPTIMIZER);
}

/* A training script's per-epoch test pass (the shape of a point-cloud
 * segmentation paste, heldout40 h40-04): evaluation. Guards: "test" alone
 * (test.py's main), and a training epoch. */
static void test_test_epoch_is_eval(void **state)
{
    (void)state;
    const char *log = "Traceback (most recent call last):\n"
                      "  File \"main.py\", line 442, in <module>\n"
                      "    train(args, io)\n"
                      "  File \"main.py\", line 126, in train\n"
                      "    metrics = test_epoch(test_loader, model, epoch, io)\n"
                      "  File \"main.py\", line 256, in test_epoch\n"
                      "    seg_pred = model(points, norm_plt, label_one_hot)\n"
                      "RuntimeError: CUDA out of memory. Tried to allocate 1.20 GiB\n";
    assert_string_equal(stage_of(log), "eval");
    assert_int_equal(line_stage("  File \"main.py\", line 80, in test_one_epoch"), OOM_STAGE_EVAL);
    assert_int_equal(stage_pick(stage_name_bits("test", 4)), OOM_STAGE_UNKNOWN);
    assert_int_not_equal(stage_pick(stage_name_bits("train_one_epoch", 15)), OOM_STAGE_EVAL);
}

/* A trainer's own narration: a split's count, then "Creating the model..."
 * right before a host abort (the shape of an SSD trainer's paste, heldout40
 * h40-108): load. Guards: the count alone names no stage; a validation bar
 * stays eval; "Creating directory" is no load. */
static void test_model_creation_and_split_count(void **state)
{
    (void)state;
    const char *log = "[i] # training samples:    26411\n"
                      "[i] # validation samples:  677\n"
                      "[i] Creating the model...\n"
                      "terminate called after throwing an instance of 'std::bad_alloc'\n"
                      "  what():  std::bad_alloc\n";
    const char *count = "[i] # validation samples:  677\n"
                        "terminate called after throwing an instance of 'std::bad_alloc'\n";
    const char *bar = "Validation: 100%|#####| 20/20 [00:01<00:00]\n"
                      "terminate called after throwing an instance of 'std::bad_alloc'\n";
    assert_string_equal(first_stage_of(log, NULL), "load");
    assert_string_equal(first_stage_of(count, NULL), "unknown");
    assert_string_equal(first_stage_of(bar, NULL), "eval");
    bool done;
    assert_int_equal(stage_verb_line("Creating the model...", 21, &done), OOM_STAGE_LOAD);
    assert_int_equal(stage_verb_line("Instantiating network", 21, &done), OOM_STAGE_LOAD);
    assert_int_not_equal(stage_verb_line("Creating directory runs/1...", 28, &done), OOM_STAGE_LOAD);
}

/* A tensor's .cpu() quoted in a report is code, not host memory named (the
 * shape of a SAM fine-tuning question, heldout40 h40-69). Guard: the CPU
 * named as where the run is still guards. */
static void test_cpu_method_is_no_host(void **state)
{
    (void)state;
    assert_true(called("I'm facing a problem of running out of memory when fine-tuning the model on my "
                       "dataset. I did not get where I should use the `loss.item().cpu()`, is it on each loss?\n"));
    assert_false(called("I'm facing a problem of running out of memory when fine-tuning the model on the CPU.\n"));
}

/* The plural memory word and its misspellings in the OOM words (the shape
 * of a change-detection question, heldout40 h40-114). Guards: host memory
 * by name, and memories that are no memory. */
static void test_memories_plural(void **state)
{
    (void)state;
    assert_true(called("The CUDA is out of memeries. How can I solve the problems?\n"));
    assert_true(called("The GPU is out of memories.\n"));
    assert_false(called("The CPU is out of memories.\n"));
    assert_false(called("The GPU is out of memoirs.\n"));
    assert_false(called("We have fond memories of the GPU.\n"));
}

/* A host abort's glog stack below its message (glog's failure signal
 * handler; the shape of a Caffe SSD trainer's paste, heldout40 h40-109):
 * the prefetch thread's load_batch is data. Guards: frames of no stage. */
static void test_glog_signal_stack(void **state)
{
    (void)state;
    const char *log = "terminate called after throwing an instance of 'std::bad_alloc'\n"
                      "  what():  std::bad_alloc\n"
                      "*** Aborted at 1544160602 (unix time) try \"date -d @1544160602\" if you are using GNU date ***\n"
                      "PC: @     0x7f5fb6607428 gsignal\n"
                      "*** SIGABRT (@0x3e8000049ff) received by PID 18943 (TID 0x7f5f837fe700) from PID 18943; "
                      "stack trace: ***\n"
                      "    @     0x7f5fb6607428 gsignal\n"
                      "    @     0x7f5fb660902a abort\n"
                      "    @     0x7f5fb7442082 std::__throw_bad_alloc()\n"
                      "    @     0x7f5fb860ecf4 std::vector<>::vector()\n"
                      "    @     0x7f5fb86534d7 caffe::AnnotatedDataLayer<>::load_batch()\n"
                      "    @     0x7f5fb86e5112 caffe::BasePrefetchingDataLayer<>::InternalThreadEntry()\n"
                      "Aborted (core dumped)\n";
    assert_string_equal(first_stage_of(log, NULL), "data");
    assert_int_equal(line_stage("    @     0x7f5fb850b6e5 caffe::InternalThread::entry()"), OOM_STAGE_UNKNOWN);
    assert_int_equal(line_stage("    @     0x7f5fb6607428 gsignal"), OOM_STAGE_UNKNOWN);
}

/* MATLAB prints its error first and its stack below, innermost first
 * ("Error in dagnn.Conv/forward (line 11)", the prefix sometimes lost in a
 * paste; the shape of a MatConvNet super-resolution thread, heldout40
 * h40-12): the method's name parts. MatConvNet's DagNN.eval runs training
 * steps too: no evaluation. Guard: prose ending in "(line 5)". */
static void test_matlab_stack(void **state)
{
    (void)state;
    const char *log = "Error using gpuArray/subsasgn\n"
                      "Out of memory on device. To view more detail about available memory on the GPU, use "
                      "'gpuDevice()'.\n"
                      "Error in dagnn.Conv/forward (line 11)\n"
                      "Error in dagnn.Layer/forwardAdvanced (line 85)\n"
                      "Error in dagnn.DagNN/eval (line 91)\n"
                      "Error in cnn_train_dag>processEpoch (line 223)\n";
    assert_string_equal(stage_of(log), "forward");
    assert_int_equal(line_stage("Error in cnn_train>load_batch (line 40)"), OOM_STAGE_DATA);
    assert_int_equal(line_stage("dagnn.Conv/backward (line 20)"), OOM_STAGE_BACKWARD);
    assert_int_equal(line_stage("see the config (line 5)"), OOM_STAGE_UNKNOWN);
    assert_int_equal(line_stage("Error in dagnn.DagNN/eval (line 91)"), OOM_STAGE_UNKNOWN);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bfc_request_over_region_growth),
        cmocka_unit_test(test_optimizer_packages),
        cmocka_unit_test(test_test_epoch_is_eval),
        cmocka_unit_test(test_model_creation_and_split_count),
        cmocka_unit_test(test_cpu_method_is_no_host),
        cmocka_unit_test(test_memories_plural),
        cmocka_unit_test(test_glog_signal_stack),
        cmocka_unit_test(test_matlab_stack),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
