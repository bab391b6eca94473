/* Unit tests for diagcall6's mechanisms (issue 12): message forms of more
 * stacks read from their sources (Jittor, Blender Cycles, ggml's buffer
 * types, MLX, MIOpen, ROCm, XGBoost, Slurm, Ultralytics AutoBatch), a TF
 * node placed on the CPU, and context words (hyphenated host memory,
 * Conventional Commits titles). Each paste is synthetic, in the style of
 * the public threads and sources named beside it; every test fails on
 * 42eca62f (the controls inside them pass there too). */
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
#include "scan_fixture.h"

static size_t event_count(const char *text)
{
    struct oom_report rep;
    scan_log(text, &rep);
    size_t n = rep.n_events;
    oom_report_release(&rep);
    return n;
}

/* Jittor's display_memory_info (python/jittor/src/mem/mem_info.cc): the
 * device's total on the next line is its capacity; "Used" is not read; the
 * CPU variant is the host's. */
static void test_call6_jittor(void **state)
{
    (void)state;
    struct oom_event e = primary("[i 0926 09:44:26.5 04 mem_info.cc:197]\n*******************\n"
                                 "GPU memory is overflow, please reduce your batch_size or data size!\n"
                                 "Total:     4GB Used: 10.25GB\n");
    assert_true(e.gpu_oom);
    assert_string_equal(e.kind, "jittor");
    assert_int_equal(e.bytes.capacity, 4LL << 30);
    assert_int_equal(e.bytes.allocated, -1);
    e = primary("CPU memory is overflow, please reduce your batch_size or data size!\n"
                "Total: 15.5GB Used: 15.0GB\n");
    assert_false(e.gpu_oom);
}

/* Blender Cycles' generic_alloc and cuda_assert wordings. */
static void test_call6_cycles(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"shared host", "Rendering...\nSystem is out of GPU and shared host memory\n", true},
        {"device only", "Fra:1 Mem:9000M | Time:00:41.20 | System is out of GPU memory\n", true},
        {"cuda_assert",
         "CUDA error: Out of memory in cuMemAlloc_v2(&device_pointer, size), line 826\n", true},
        {"other driver error", "CUDA error: Illegal address in cuCtxSynchronize()\n", false},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
    assert_string_equal(primary("System is out of GPU and shared host memory\n").kind, "cycles");
}

/* "OOM (out of memory) killer" glosses the host's killer in prose; the
 * parenthesis of a CUDA error code is still the device's. */
static void test_call6_oom_gloss_killer(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"gloss", "Tortoise stops and says: killed\n\nthis is because the OOM (out of memory) "
                  "killer killed it. Try a bigger swapfile.\n", false},
        {"code", "RuntimeError: CUDA driver error 2 (out of memory)\n", true},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* A TF 1.x node placed on the CPU: the tensor is host memory, on the
 * message's line or the node line right after it; a GPU node followed by
 * the CPU _Recv nodes TF lists stays the GPU's (corpus 228's shape). */
static void test_call6_tf_cpu_node(void **state)
{
    (void)state;
    struct oom_event e = primary(
        "ResourceExhaustedError: OOM when allocating tensor with shape[1,720,1280,3] [[Node: "
        "ToFloat = Cast[DstT=DT_FLOAT, SrcT=DT_UINT8, _device=\"/job:localhost/replica:0/task:0/"
        "device:CPU:0\"](image_tensor)]]\n");
    assert_false(e.gpu_oom);
    assert_int_equal(e.bytes.requested, 1LL * 720 * 1280 * 3 * 4);
    assert_int_equal(e.stage, OOM_STAGE_FORWARD); /* the node's stage, as on a GPU row */
    e = primary("tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when "
                "allocating tensor with shape[1,720,1280,3]\n"
                "\t [[Node: ToFloat = Cast[DstT=DT_FLOAT, SrcT=DT_UINT8, _device=\"/job:localhost/"
                "replica:0/task:0/device:CPU:0\"](image_tensor)]]\n");
    assert_false(e.gpu_oom);
    e = primary("Exception during training: OOM when allocating tensor with shape[1024,4096]\n"
                "\t [[Node: dec/MatMul_grad/MatMul_1 = MatMul[T=DT_FLOAT, transpose_a=true, "
                "_device=\"/job:localhost/replica:0/task:0/device:GPU:0\"](a, b)]]\n"
                "\t [[Node: gradients/concat/_29 = _Recv[client_terminated=false, recv_device=\"/job:"
                "localhost/replica:0/task:0/device:CPU:0\", send_device=\"/job:localhost/replica:0/"
                "task:0/device:GPU:0\", tensor_type=DT_FLOAT, _device=\"/job:localhost/replica:0/"
                "task:0/device:CPU:0\"]()]]\n");
    assert_true(e.gpu_oom);
    assert_int_equal(e.gpu, 0);
    assert_int_equal(e.bytes.requested, 1024LL * 4096 * 4);
}

/* XGBoost's ThrowOOMError: the figures on the two lines under it, raw
 * bytes (older releases) or HumanMemUnit sizes. */
static void test_call6_xgboost(void **state)
{
    (void)state;
    struct oom_event e = primary(
        "xgboost.core.XGBoostError: [11:01:50] ../src/common/device_helpers.cuh:431: Memory "
        "allocation error on worker 0: std::bad_alloc: cudaErrorMemoryAllocation: out of memory\n"
        "- Free memory: 8126464\n- Requested memory: 33554432\n");
    assert_true(e.gpu_oom);
    assert_int_equal(e.bytes.free, 8126464);
    assert_int_equal(e.bytes.requested, 33554432);
    e = primary("XGBoostError: [10:02:11] device_helpers.cu:31: Memory allocation error on worker "
                "0: std::bad_alloc: cudaErrorMemoryAllocation: out of memory\n"
                "- Free memory: 1.5GB\n- Requested memory: 3GB\n");
    assert_int_equal(e.bytes.requested, 3LL << 30);
    assert_int_equal(e.bytes.free, 3LL << 29);
}

/* ggml's buffer allocations by buffer type: a device's is its memory, a
 * host buffer type or the CPU backend's malloc check is the host's. */
static void test_call6_ggml_buffers(void **state)
{
    (void)state;
    struct oom_event e = primary("alloc_tensor_range: failed to allocate CUDA1 buffer of size 4412935168\n"
                                 "llama_model_load: error loading model: unable to allocate CUDA1 buffer\n");
    assert_true(e.gpu_oom);
    assert_string_equal(e.kind, "ggml");
    assert_int_equal(e.gpu, 1);
    assert_int_equal(e.bytes.requested, 4412935168LL);
    static const struct call_case logs[] = {
        {"rocm", "ggml_gallocr_reserve_n: failed to allocate ROCm0 buffer of size 838447104\n", true},
        {"vulkan", "llama_model_load: error loading model: unable to allocate Vulkan0 buffer\n", true},
        {"metal", "ggml_backend_metal_buffer_type_alloc_buffer: error: failed to allocate buffer, "
                  "size = 12288.00 MiB\n", true},
        {"cpu buffer", "alloc_tensor_range: failed to allocate CPU buffer of size 34359738368\n", false},
        {"pinned host", "ggml_gallocr_reserve_n: failed to allocate CUDA_Host buffer of size 1024\n",
         false},
        {"cpu malloc assert", "whisper_model_load: loading model\nGGML_ASSERT: D:\\a\\whisper.cpp\\"
                              "ggml-backend.c:460: data != NULL && \"failed to allocate buffer\"\n",
         false},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* Paddle's allocator on its other devices (custom devices, XPU), and
 * MindSpore's Ascend memory adapter with its statistics below it. */
static void test_call6_paddle_mindspore_devices(void **state)
{
    (void)state;
    struct oom_event e = primary("ResourceExhaustedError: \n\nOut of memory error on npu:1. Cannot "
                                 "allocate 1.00GB memory on npu:1, available memory is only 50.00MB.\n");
    assert_true(e.gpu_oom);
    assert_string_equal(e.kind, "paddle");
    assert_int_equal(e.gpu, 1);
    assert_int_equal(e.bytes.requested, 1LL << 30);
    assert_int_equal(e.bytes.free, 50LL << 20);
    e = primary("Out of memory error on XPU 0. Cannot allocate 2.000000GB memory on XPU 0, "
                "14.000000GB memory has been allocated and available memory is only 50.000000MB.\n");
    assert_string_equal(e.kind, "paddle");
    assert_int_equal(e.bytes.allocated, 14LL << 30);
    e = primary("- Framework Error Message:\n"
                "Out of Memory!!! Request memory size: 33100113920B, Memory Statistic:\n"
                "Device HBM memory size: 32768M\nMindSpore Used memory size: 30684M\n");
    assert_true(e.gpu_oom);
    assert_string_equal(e.kind, "mindspore");
    assert_int_equal(e.bytes.requested, 33100113920LL);
    assert_int_equal(e.bytes.capacity, 32768LL << 20);
}

/* OpenCV's pinned host allocator names its file; its GpuMat allocator is
 * the device's. */
static void test_call6_opencv_pinned(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"pinned", "terminate called after throwing an instance of 'cv::Exception'\n  what():  "
                   "OpenCV(4.2.0) /opt/opencv/modules/core/src/cuda_host_mem.cpp:95: error: "
                   "(-217:Gpu API call) out of memory in function 'allocate'\n", false},
        {"device", "  what():  OpenCV(4.5.1) /opt/opencv/modules/core/src/cuda/gpu_mat.cu:116: "
                   "error: (-217:Gpu API call) out of memory in function 'allocate'\n", true},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* MLX's Metal allocator, MIOpen's allocation status, ROCm's access fault. */
static void test_call6_apple_rocm(void **state)
{
    (void)state;
    struct oom_event e = primary("RuntimeError: [metal::malloc] Attempting to allocate 137438953472 "
                                 "bytes which is greater than the maximum allowed buffer size of "
                                 "77309411328 bytes.\n");
    assert_true(e.gpu_oom);
    assert_int_equal(e.bytes.requested, 137438953472LL);
    e = primary("RuntimeError: [Rank:3] FATAL ERROR :: MODULE:PT_DEVMEM Allocation failed for "
                "size::939524096 (896)MB\n");
    assert_true(e.gpu_oom);
    assert_string_equal(e.kind, "hpu");
    assert_int_equal(e.bytes.requested, 939524096);
    assert_int_equal(e.rank, 3);
    e = primary("MIOpen Error: /MIOpen/src/ocl/convolutionocl.cpp:123: miopenStatusAllocFailed\n");
    assert_true(e.gpu_oom);
    e = primary("Memory access fault by GPU node-1 (Agent handle: 0x55d0) on address 0x7f00. "
                "Reason: Page not present or supervisor privilege.\n");
    assert_false(e.gpu_oom);
    assert_string_equal(e.kind, "cuda-illegal-address");
}

/* Slurm's cgroup OOM lines and srun's task report are the host's killer. */
static void test_call6_slurm(void **state)
{
    (void)state;
    struct oom_event e = primary("slurmstepd: error: Detected 1 oom_kill event in StepId=1054.0. "
                                 "Some of the step tasks have been OOM Killed.\n"
                                 "srun: error: node01: task 0: Out Of Memory\n");
    assert_false(e.gpu_oom);
    assert_string_equal(e.kind, "host-oom-killer");
    static const struct call_case logs[] = {
        {"srun alone", "srun: error: gpu-a12: task 3: Out Of Memory\n", false},
        {"limit", "slurmstepd: error: StepId=7.batch exceeded memory limit (734003200 > 52428800), "
                  "being killed\n", false},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* Ultralytics AutoBatch keeps a default batch when its profiling fails:
 * the OOM it caught (its own line, or printed just above) is no failure;
 * an OOM later in training still is. */
static void test_call6_autobatch(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"fallback line",
         "AutoBatch: WARNING error detected: 'OutOfMemoryError' object has no attribute 'encode',  "
         "using default batch-size 16.\n", false},
        {"caught above",
         "AutoBatch: Computing optimal batch size for imgsz=640\n"
         "CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 7.79 GiB of "
         "which 3.00 MiB is free.\n"
         "AutoBatch: WARNING CUDA anomaly detected, using default batch-size 16.\n", false},
        {"later OOM",
         "AutoBatch: WARNING CUDA anomaly detected, using default batch-size 16.\n"
         "Starting training for 100 epochs...\n  1/100  6.1G  1.2  0.9\n  2/100  6.3G  1.1  0.8\n"
         "  3/100  6.4G  1.0  0.8\n  4/100  6.4G  1.0  0.7\n  5/100  6.5G  0.9  0.7\n"
         "  6/100  6.5G  0.9  0.7\n  7/100  7.7G  0.9  0.6\n"
         "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total "
         "capacity of 7.79 GiB of which 3.00 MiB is free.\n", true},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* Context words: hyphenated host memory; Conventional Commits titles of
 * the types that are no title word (a change with one more piece of
 * change evidence). */
static void test_call6_context_words(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"hyphenated host",
         "out-of-memory when running the sampling example\n\n- GPU models and configuration: K40\n"
         "- CUDA version: 9.0\n\nIt is strange to see the out-of-CPU-memory error when I am using "
         "the GPU.\n", false},
        {"test(scope) title over a review",
         "test(cuda_core): capture machine state on the first CUDA OOM\n\n"
         "alice \xc2\xb7 review thread \xc2\xb7 2026-08-19\nExample output:\n"
         "exception: CUDA_ERROR_OUT_OF_MEMORY: The API call failed because it was unable to "
         "allocate enough memory\n", false},
        {"test as a word", "Test fails with CUDA out of memory on the A100 runner\n", true},
        {"a reply's guess",
         "Negative loss when training step2\n\nmaintainer \xc2\xb7 comment \xc2\xb7 2021-03-02\n"
         "That batch size is still too large for a 12GB 1080TI GPU. You probably ran into OOM there.\n",
         false},
        {"a fact beside the guess",
         "My 12GB 1080TI GPU ran out of memory at batch 32. The batch is probably too large.\n", true},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
    assert_true(event_count("test(cuda_core): capture machine state on the first CUDA OOM\n") <= 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_call6_jittor),
        cmocka_unit_test(test_call6_cycles),
        cmocka_unit_test(test_call6_oom_gloss_killer),
        cmocka_unit_test(test_call6_tf_cpu_node),
        cmocka_unit_test(test_call6_xgboost),
        cmocka_unit_test(test_call6_ggml_buffers),
        cmocka_unit_test(test_call6_paddle_mindspore_devices),
        cmocka_unit_test(test_call6_apple_rocm),
        cmocka_unit_test(test_call6_opencv_pinned),
        cmocka_unit_test(test_call6_slurm),
        cmocka_unit_test(test_call6_autobatch),
        cmocka_unit_test(test_call6_context_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
