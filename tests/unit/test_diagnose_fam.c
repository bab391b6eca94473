/* diagnose: GPU OOMs of frameworks other than PyTorch (issue 12, helper
 * diagfam). Each case is a real line (source beside it) from the
 * development rows of tests/corpus-heldout24 (h24-26..57) or a seen corpus;
 * each failed on main 4c050b6 (the set-aside rows h24-01..25 are not used). */
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
#include "scan_fixture.h"

static void expect_no_oom(const char *source, const char *log)
{
    struct oom_report rep;
    scan_log(log, &rep);
    if (rep.primary >= 0) fail_msg("%s: called a GPU OOM", source);
    oom_report_release(&rep);
}

/* TensorRT's runtime: "Error Code 1: Cuda Runtime (out of memory)", the size
 * on the warning after it (open-mmlab/Live2Diff#9). */
static void test_tensorrt_runtime_request(void **state)
{
    (void)state;
    const char *log =
        "[I] Loading bytes from engines/disneyPixarCartoon_v10--lcm--step5--tiny_vae-True--h-512--"
        "w-512/unet/unet.engine\n"
        "[E] 1: [defaultAllocator.cpp::allocate::19] Error Code 1: Cuda Runtime (out of memory)\n"
        "[W] Requested amount of GPU memory (1180463648 bytes) could not be allocated. There may "
        "not be enough free memory for allocation to succeed.\n"
        "[E] 2: [safeDeserialize.cpp::load::269] Error Code 2: OutOfMemory (no further "
        "information)\n";
    struct oom_report rep;
    const struct oom_event *e = scan_primary(log, &rep);
    assert_int_equal(e->bytes.requested, 1180463648LL);
    assert_string_equal(e->framework, "tensorrt");
    oom_report_release(&rep);
}

/* TensorRT's builder skipping a tactic: a look-alike event with the request
 * of the "Tactic Device request" line (ultralytics/ultralytics#22271); the
 * TensorRT 8 spelling "insuficient" (ultralytics/yolov5#12248). */
static void test_tensorrt_tactic_lookalike(void **state)
{
    (void)state;
    const char *log =
        "[10/01/2025-08:26:34] [TRT] [W] UNSUPPORTED_STATE: Skipping tactic 33 due to insufficient "
        "memory on requested size of 629145600 detected for tactic 0xa5a46bfbd719d757.\n"
        "[10/01/2025-08:26:34] [TRT] [W] Tactic Device request: 600MB Available: 302MB. Device "
        "memory is insufficient to use tactic.\n";
    struct oom_report rep;
    scan_log(log, &rep);
    assert_true(rep.primary < 0);
    assert_true(rep.n_events >= 1);
    assert_false(rep.events[0].gpu_oom);
    assert_string_equal(rep.events[0].kind, "tensorrt-tactic");
    assert_int_equal(rep.events[0].bytes.requested, 629145600LL);
    oom_report_release(&rep);
    const char *trt8 =
        "[10/18/2023-20:27:00] [TRT] [W] Skipping tactic 3 due to insuficient memory on requested "
        "size of 449 detected for tactic 4.\n"
        "Try decreasing the workspace size with IBuilderConfig::setMaxWorkspaceSize().\n"
        "[10/18/2023-20:27:01] [TRT] [W] Tactic Device request: 448MB Available: 425MB. Device "
        "memory is insufficient to use tactic.\n";
    scan_log(trt8, &rep);
    assert_true(rep.primary < 0);
    assert_true(rep.n_events >= 1);
    assert_string_equal(rep.events[0].kind, "tensorrt-tactic");
    oom_report_release(&rep);
}

/* Caffe's check written without the dot, blanks around the colons
 * (BVLC/caffe#6821's title). */
static void test_caffe_check_no_dot(void **state)
{
    (void)state;
    struct oom_report rep;
    const struct oom_event *e = scan_primary(
        "Syncedmem.cpp : Check failed : error == cudaSuccess (2 vs 0) out of memory\n\n"
        "I am a new CAFFE user and I have been trying to get Deeplab v2 up and running in my "
        "system.\n",
        &rep);
    assert_string_equal(e->framework, "caffe");
    oom_report_release(&rep);
}

/* RAPIDS RMM: the device pool full is a GPU OOM, not the host's bad_alloc
 * (NVIDIA/cudf#9232); the error code in a title (rapidsai/rmm#201). */
static void test_rmm(void **state)
{
    (void)state;
    struct oom_report rep;
    const struct oom_event *e = scan_primary(
        "  File \"cudf/_lib/filling.pyx\", line 86, in cudf._lib.filling._repeat_via_size_type\n"
        "MemoryError: std::bad_alloc: RMM failure at:/datasets/mkristensen/miniconda3/envs/"
        "rap-0913/include/rmm/mr/device/pool_memory_resource.hpp:182: Maximum pool size "
        "exceeded\n",
        &rep);
    assert_string_equal(e->framework, "rapids");
    oom_report_release(&rep);
    scan_primary("[BUG] RMM_ERROR_OUT_OF_MEMORY with minimal memory usage\n\n"
                 "**Describe the bug**\nAfter several computations in GPU, every use of GPU raises "
                 "RMM_ERROR_OUT_OF_MEMORY, even copying small 1D array to gpu.\n",
                 &rep);
    oom_report_release(&rep);
}

/* ArrayFire's "Device out of memory:101" (arrayfire/arrayfire#3094) and
 * flashlight's native-alloc line with the request (arrayfire/arrayfire#2895). */
static void test_arrayfire(void **state)
{
    (void)state;
    struct oom_report rep;
    scan_primary("terminate called after throwing an instance of 'af::exception'\n"
                 "  what():  ArrayFire Exception (Device out of memory:101):\n"
                 "In function void* cuda::MemoryManager::nativeAlloc(size_t)\n"
                 "In file src/backend/cuda/memory.cpp:149\n"
                 "CUDA Error (2): out of memory\n",
                 &rep);
    oom_report_release(&rep);
    const struct oom_event *e = scan_primary(
        "[ RUN      ] CachingMemoryManagerTest.OOM\n"
        "Unable to allocate memory with native alloc for size 3999880001355776 bytes with AF "
        "error 'ArrayFire Exception (Device out of memory:101):\n",
        &rep);
    assert_int_equal(e->bytes.requested, 3999880001355776LL);
    oom_report_release(&rep);
}

/* A BFC memory dump cut before its error line is the failure
 * (elixir-nx/bumblebee#203, EXLA's Logger lines); the pinned host
 * allocator's dump is not (tensorflow/tensorflow#11915 = corpus 269). */
static void test_bfc_dump(void **state)
{
    (void)state;
    struct oom_report rep;
    scan_primary("14:58:53.921 [info] Sum Total of in-use chunks: 13.06GiB\n\n"
                 "14:58:53.921 [info] total_region_allocated_bytes_: 14019467520 memory_limit_: "
                 "14019467673 available bytes: 153 curr_region_allocation_bytes_: 28038935552\n\n"
                 "14:58:53.921 [info] Stats:\nLimit:                     14019467673\n"
                 "InUse:                     14019467264\n\n"
                 "14:58:53.921 [warning] ************************************\n",
                 &rep);
    oom_report_release(&rep);
    expect_no_oom(
        "tensorflow/tensorflow#11915",
        "2017-07-31 11:36:02.748450: I tensorflow/core/common_runtime/bfc_allocator.cc:700] Sum "
        "Total of in-use chunks: 64.00GiB\n"
        "2017-07-31 11:36:02.748462: I tensorflow/core/common_runtime/bfc_allocator.cc:702] Stats: \n"
        "Limit:                 68719476736\n"
        "InUse:                 68719476736\n"
        "2017-07-31 11:36:02.748547: W tensorflow/core/common_runtime/bfc_allocator.cc:273] "
        "Allocator (cuda_host_bfc) ran out of memory trying to allocate 3.72GiB.  Current "
        "allocation summary follows.\n");
}

/* A dump followed by its error line: the error is the event, with its own
 * device (nshepperd/gpt-2#5 = corpus-heldout5 h5-40, seen; a first version
 * of the dump row made the dump the event and lost GPU 0). */
static void test_bfc_dump_then_error(void **state)
{
    (void)state;
    struct oom_report rep;
    const struct oom_event *e = scan_primary(
        "2019-05-12 14:33:35.463612: I tensorflow/core/common_runtime/bfc_allocator.cc:645] Sum "
        "Total of in-use chunks: 8.58GiB\n"
        "2019-05-12 14:33:35.467832: I tensorflow/core/common_runtime/bfc_allocator.cc:647] Stats:\n"
        "Limit:                  9218918974\n"
        "InUse:                  9217796864\n"
        "MaxInUse:               9217796864\n"
        "NumAllocs:                    3470\n"
        "MaxAllocSize:            329412864\n"
        "\n"
        "2019-05-12 14:33:35.475291: W tensorflow/core/common_runtime/bfc_allocator.cc:271] "
        "****************************************************************************************************\n"
        "2019-05-12 14:33:35.482129: W tensorflow/core/framework/op_kernel.cc:1401] OP_REQUIRES "
        "failed at cast_op.cc:109 : Resource exhausted: OOM when allocating tensor with "
        "shape[1,16,1024,1024] and type float on /job:localhost/replica:0/task:0/device:GPU:0\n",
        &rep);
    assert_int_equal(e->gpu, 0);
    assert_string_equal(e->kind, "tensorflow");
    oom_report_release(&rep);
}

/* XLA's BFC line: the exact figure in parentheses beats the rounded TiB one
 * (jax-ml/jax#27354). */
static void test_bfc_rounded_exact(void **state)
{
    (void)state;
    struct oom_report rep;
    const struct oom_event *e = scan_primary(
        "2025-03-23 20:28:59.832181: W external/xla/xla/tsl/framework/bfc_allocator.cc:501] "
        "Allocator (GPU_0_bfc) ran out of memory trying to allocate 1.25TiB (rounded to "
        "1374521760000)requested by op \n",
        &rep);
    assert_int_equal(e->bytes.requested, 1374521760000LL);
    assert_int_equal(e->gpu, 0);
    oom_report_release(&rep);
}

/* tensorflow-directml names its device "device:DML:0" (microsoft/DirectML#34). */
static void test_tf_directml_device(void **state)
{
    (void)state;
    struct oom_report rep;
    const struct oom_event *e = scan_primary(
        " 21:43:27.369699: W tensorflow/core/framework/op_kernel.cc:1651] OP_REQUIRES failed at "
        "dml_kernel_context.cc:174 : Resource exhausted: OOM when allocating tensor with "
        "shape[16,128,98,98] and type float on /job:localhost/replica:0/task:0/device:DML:0 by "
        "allocator DmlAllocato.\n",
        &rep);
    assert_int_equal(e->gpu, 0);
    assert_int_equal(e->bytes.requested, 78675968LL);
    oom_report_release(&rep);
}

/* Batch 2 (h24-58..68, scored at first sight before these rows). */

/* Triton's CUDA pool falling back to pinned host memory: a look-alike event
 * with its request and GPU (triton-inference-server/server#8177). */
static void test_triton_pool_fallback(void **state)
{
    (void)state;
    const char *log =
        "W0410 13:51:44.743979 1 memory.cc:212] Failed to allocate CUDA memory with byte size "
        "102236160 on GPU 0: CNMEM_STATUS_OUT_OF_MEMORY, falling back to pinned system memory\n\n"
        "E0410 13:51:44.772932 1 pb_stub.cc:402] An error occurred while trying to load GPU "
        "buffers in the Python backend stub: failed to copy data: invalid argument\n";
    struct oom_report rep;
    scan_log(log, &rep);
    assert_true(rep.primary < 0);
    assert_true(rep.n_events >= 1);
    assert_string_equal(rep.events[0].kind, "triton-pool-fallback");
    assert_int_equal(rep.events[0].bytes.requested, 102236160LL);
    assert_int_equal(rep.events[0].gpu, 0);
    oom_report_release(&rep);
}

/* PyTorch/XLA's TPU reservation table: the exact request, the HBM capacity
 * and what is allocated (pytorch/xla#1735). */
static void test_xla_hbm_table(void **state)
{
    (void)state;
    struct oom_report rep;
    const struct oom_event *e = scan_primary(
        "RuntimeError: Resource exhausted: From /job:tpu_worker/replica:0/task:0:\n"
        "Attempting to reserve 3.95G at the bottom of memory. That was not possible. There are "
        "1.92G free, 0B reserved, and 1.92G reservable.; \n"
        "HBM capacity 8.00G:\n"
        "       Top-of-Memory reserved:  529.00M (     554,696,704 bytes)\n"
        "          Currently allocated:    6.08G (   6,532,939,776 bytes)\n"
        "          Program requirement:    3.95G (   4,237,689,856 bytes)\n",
        &rep);
    assert_int_equal(e->bytes.requested, 4237689856LL);
    assert_int_equal(e->bytes.capacity, 8589934592LL);
    assert_int_equal(e->bytes.allocated, 6532939776LL);
    oom_report_release(&rep);
}

/* The TPU's HBM named inside the words (tensorflow/tensor2tensor#1382's
 * title) needs no traceback. */
static void test_tpu_hbm_mention(void **state)
{
    (void)state;
    struct oom_report rep;
    scan_primary("Getting out of hbm memory error on TPU\n", &rep);
    oom_report_release(&rep);
}

/* Device-memory exhaustion named by the GPU APIs (Vulkan, Level Zero,
 * OpenCL); llama.cpp's Vulkan backend gives the size on the line before. */
static void test_gpu_api_codes(void **state)
{
    (void)state;
    struct oom_report rep;
    const struct oom_event *e = scan_primary(
        "ggml_vulkan: Device memory allocation of size 118497280 failed.\n"
        "ggml_vulkan: vk::Device::allocateMemory: ErrorOutOfDeviceMemory\n"
        "double free or corruption (out)\n",
        &rep); /* ggml-org/llama.cpp#15256 */
    assert_int_equal(e->bytes.requested, 118497280LL);
    oom_report_release(&rep);
    scan_primary("[GSD-12641] USM device allocation fails with UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY "
                 "when Level Zero context spans 2 discrete Arc A770 GPUs (regression from 25.40 to "
                 "26.09)\n",
                 &rep); /* intel/compute-runtime#916 */
    oom_report_release(&rep);
    scan_primary("(what():  OpenCL error at /home/dwugcloud/data/kata/cpp/neuralnet/openclbackend.cpp, "
                 "func err, line 1115, error CL_MEM_OBJECT_ALLOCATION_FAILURE)\n",
                 &rep); /* lightvector/KataGo#166 */
    oom_report_release(&rep);
    scan_primary("Error: vkAllocateMemory failed -2\n", &rep); /* DaGooseYT/FrameGUI#12 */
    oom_report_release(&rep);
    /* -20 is not -2 */
    expect_no_oom("constructed from DaGooseYT/FrameGUI#12", "Error: vkAllocateMemory failed -20\n");
}

/* diagcall3: TensorRT's builder fails a tactic's allocation ("Error Code 2:
 * OutOfMemory", the "Requested amount of GPU memory" warning), then skips
 * that tactic and builds on (VoltaML/voltaML-fast-stable-diffusion#15, lines
 * as pasted there): the OOM was caught, no failure. The same OOM lines after
 * the skip (the order rearranged) stay a GPU OOM. */
static void test_tensorrt_oom_answered_by_skip(void **state)
{
    (void)state;
    const char *oom =
        "[12/09/2022-20:25:24] [TRT] [E] 2: [virtualMemoryBuffer.cpp::resizePhysical::145] Error "
        "Code 2: OutOfMemory (no further information)\n"
        "[12/09/2022-20:25:24] [TRT] [E] 2: [virtualMemoryBuffer.cpp::resizePhysical::145] Error "
        "Code 2: OutOfMemory (no further information)\n"
        "[12/09/2022-20:25:24] [TRT] [W] Requested amount of GPU memory (17179869184 bytes) could "
        "not be allocated. There may not be enough free memory for allocation to succeed.\n";
    const char *skip =
        "[12/09/2022-20:25:25] [TRT] [W] Skipping tactic 8 due to insufficient memory on requested "
        "size of 17179869184 detected for tactic 0x000000000000003c.\n"
        "Try decreasing the workspace size with IBuilderConfig::setMemoryPoolLimit().\n";
    char log[2048];
    struct oom_report rep;
    snprintf(log, sizeof log, "Error on optimization step\n\n%s%s", oom, skip);
    scan_log(log, &rep);
    assert_true(rep.primary < 0);
    assert_true(rep.n_events >= 2);
    assert_string_equal(rep.events[0].kind, "tensorrt");
    assert_false(rep.events[0].gpu_oom);
    oom_report_release(&rep);
    snprintf(log, sizeof log, "Error on optimization step\n\n%s%s", skip, oom);
    scan_log(log, &rep);
    assert_true(rep.primary >= 0);
    assert_string_equal(rep.events[rep.primary].kind, "tensorrt");
    oom_report_release(&rep);
}

/* diagcall3: cudaHostAlloc is pinned host memory: MindData's device queue
 * (mindspore-ai/mindspore#172) fails it "out of memory", then its task says
 * "Out of memory. Memory malloc failed." in words: a host look-alike, and
 * the words beside it do not stand as a GPU OOM. */
static void test_pinned_host_alloc_lookalike(void **state)
{
    (void)state;
    const char *log =
        "============== Starting Training ==============\n"
        "[ERROR] MD(14433,7fea2effd700,python):2021-12-12-14:13:43.932.181 "
        "[mindspore/ccsrc/minddata/dataset/util/arena.cc:250] Init] cudaHostAlloc failed, ret[2], "
        "out of memory\n"
        "[ERROR] MD(14433,7fea2effd700,python):2021-12-12-14:13:43.932.253 "
        "[mindspore/ccsrc/minddata/dataset/util/task.cc:67] operator()] Task:  - "
        "thread(140643787593472) is terminated with err msg: Out of memory. Memory malloc "
        "failed.\n";
    struct oom_report rep;
    scan_log(log, &rep);
    assert_true(rep.primary < 0);
    assert_true(rep.n_events >= 1);
    assert_string_equal(rep.events[0].kind, "host-cpu-alloc");
    assert_false(rep.events[0].gpu_oom);
    oom_report_release(&rep);
}

/* diagcall3: MindSpore's device memory pool refusing a block
 * (candle-org/MindAct#1761, an Ascend NPU): a device OOM, its figures read. */
static void test_mindspore_pool_refusal(void **state)
{
    (void)state;
    struct oom_report rep;
    const struct oom_event *e = scan_primary(
        "[ERROR] PRE_ACT(54175,fffdbcff91e0,python):2024-10-22-11:24:55.301.443 "
        "[mindspore/ccsrc/backend/common/mem_reuse/mem_dynamic_allocator.cc:392] "
        "AddMemBlockAndMemBufByEagerFree] TotalUsedMemStatistics : 29356337664 plus "
        "TotalUsedByEventMemStatistics : 0 and plus alloc size : 301990400 is more than total mem "
        "size : 29464985600.\n",
        &rep);
    assert_non_null(e);
    assert_string_equal(e->kind, "mindspore");
    assert_true(e->gpu_oom);
    assert_int_equal(e->bytes.requested, 301990400LL);
    assert_int_equal(e->bytes.capacity, 29464985600LL);
    assert_int_equal(e->bytes.allocated, 29356337664LL);
    oom_report_release(&rep);
}

/* diagctx2: ggml's page-locked host buffer refused is a host look-alike
 * with its request (a decimal comma read: ggml-org/llama.cpp#9629 =
 * heldout25 h25-47); beside the CUDA OOM that follows, that OOM stays the
 * root cause (SciSharp/LLamaSharp#337 = heldout27 h27-97, its lines 3 and
 * 15). */
static void test_ggml_pinned_host_lookalike(void **state)
{
    (void)state;
    const char *log = "Bug: ggml_cuda_host_malloc: failed to allocate 1900,00 MiB of pinned memory: "
                      "invalid argument\n";
    struct oom_report rep;
    scan_log(log, &rep);
    assert_true(rep.primary < 0);
    assert_int_equal(rep.n_events, 1);
    assert_string_equal(rep.events[0].kind, "host-cpu-alloc");
    assert_false(rep.events[0].gpu_oom);
    assert_int_equal(rep.events[0].bytes.requested, 1992294400LL);
    oom_report_release(&rep);
    log = "I'm getting this error now on certain requests using several different models "
          "randomly. I do see this warning before: WARNING: failed to allocate 16000.00 MiB of "
          "pinned memory: out of memory\n"
          "CUDA error 2 at D:\\a\\LLamaSharp\\LLamaSharp\\ggml-cuda.cu:6016: out of memory\n";
    scan_log(log, &rep);
    assert_true(rep.primary >= 0);
    assert_true(rep.events[rep.primary].gpu_oom);
    assert_string_equal(rep.events[rep.primary].kind, "cuda-error");
    oom_report_release(&rep);
}

/* diagctx2: XLA's buffer report ("Buffer 15:" / "Size:" / "Operator:" /
 * "XLA Label:" / "Shape:") is printed with an allocation that failed for
 * want of device memory: the event where the paste cut the error above it
 * (prs-eth/thera#10 = heldout10 h10-25, its first 7 lines), a detail of the
 * RESOURCE_EXHAUSTED error some lines above it otherwise
 * (google-research/t5x#870 = corpus 113: one event, its figures kept). */
static void test_xla_buffer_report(void **state)
{
    (void)state;
    const char *cut =
        "How much memory does it require?\n"
        "    Buffer 15:\n"
        "        Size: 506.25MiB\n"
        "        Operator: op_name=\"jit(apply_encoder)/jit(main)/Hypernetwork.get_encoding/encoder/"
        "RDB_0/Conv_0/conv_general_dilated[window_strides=(1, 1) padding=((0, 0), (0, 0))\"\n"
        "        XLA Label: custom-call\n"
        "        Shape: f32[1,64,1080,1920]\n"
        "        ==========================\n";
    struct oom_report rep;
    scan_log(cut, &rep);
    assert_true(rep.primary >= 0);
    assert_true(rep.events[rep.primary].gpu_oom);
    assert_string_equal(rep.events[rep.primary].kind, "jax");
    assert_int_equal(rep.events[rep.primary].bytes.requested, -1);
    oom_report_release(&rep);
    const char *whole = "2022-10-25 21:52:08.148530: E external/org_tensorflow/tensorflow/compiler/xla/pjrt/pjrt_stream_executor_client.cc:2153] Execution of replica 0 failed: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 29995136128 bytes.\n"
        "BufferAssignment OOM Debugging.\n"
        "BufferAssignment stats:\n"
        "             parameter allocation:  475.37MiB\n"
        "              constant allocation:   512.0KiB\n"
        "        maybe_live_out allocation:  474.37MiB\n"
        "     preallocated temp allocation:   27.93GiB\n"
        "  preallocated temp fragmentation:    34.0KiB (0.00%)\n"
        "                 total allocation:   28.40GiB\n"
        "              total fragmentation:   615.5KiB (0.00%)\n"
        "Peak buffers:\n"
        "        Buffer 1:\n"
        "                Size: 1.96GiB\n"
        "                Operator: op_name=\"pjit(train_step)/jit(main)/mul\" source_file=\"/data/t5x/t5x/losses.py\" source_line=139\n"
        "\n";
    scan_log(whole, &rep);
    assert_int_equal(rep.n_events, 1);
    assert_int_equal(rep.events[0].bytes.requested, 29995136128LL);
    oom_report_release(&rep);
}

/* diagctx2: Paddle's C++ call stack thrown from its CUDA allocator (which
 * throws only its out-of-memory error) stands for the message the paste
 * cut (PaddlePaddle/PaddleDetection#1198 = heldout26 h26-04, its first 16
 * lines); words above it that name the OOM stay the event
 * (PaddlePaddle/PaddleFormers#682 = heldout23 h23-17, its first 17 lines). */
static void test_paddle_allocator_stack(void **state)
{
    (void)state;
    const char *cut = "Failed to run cascade_rcnn_cbr200_vd_fpn_dcnv2_nonlocal_softnms.yml\n"
        "\n"
        "[2020/08/12 11:44:22] --------------------------------------------\n"
        "[2020/08/12 11:44:22] C++ Call Stacks (More useful to developers):\n"
        "[2020/08/12 11:44:22] --------------------------------------------\n"
        "[2020/08/12 11:44:22] 0 std::string paddle::platform::GetTraceBackString<std::string>(std::string&&, char const*, int)\n"
        "[2020/08/12 11:44:22] 1 paddle::memory::allocation::CUDAAllocator::AllocateImpl(unsigned long)\n"
        "[2020/08/12 11:44:22] 2 paddle::memory::allocation::AlignedAllocator::AllocateImpl(unsigned long)\n"
        "[2020/08/12 11:44:22] 3 paddle::memory::allocation::AutoGrowthBestFitAllocator::AllocateImpl(unsigned long)\n"
        "[2020/08/12 11:44:22] 4 paddle::memory::allocation::Allocator::Allocate(unsigned long)\n"
        "[2020/08/12 11:44:22] 5 paddle::memory::allocation::RetryAllocator::AllocateImpl(unsigned long)\n"
        "[2020/08/12 11:44:22] 6 paddle::memory::allocation::AllocatorFacade::Alloc(paddle::platform::Place const&, unsigned long)\n"
        "[2020/08/12 11:44:22] 7 paddle::memory::allocation::AllocatorFacade::AllocShared(paddle::platform::Place const&, unsigned long)\n"
        "[2020/08/12 11:44:22] 8 paddle::memory::AllocShared(paddle::platform::Place const&, unsigned long)\n"
        "[2020/08/12 11:44:22] 9 paddle::framework::Tensor::mutable_data(paddle::platform::Place const&, paddle::framework::proto::VarType_Type, unsigned long)\n"
        "[2020/08/12 11:44:22] 10 paddle\n";
    struct oom_report rep;
    scan_log(cut, &rep);
    assert_true(rep.primary >= 0);
    assert_true(rep.events[rep.primary].gpu_oom);
    assert_string_equal(rep.events[rep.primary].kind, "paddle");
    oom_report_release(&rep);
    const char *words = "hub Out of memory in a simple programm!!\n"
        "我部署在server上的文字识别模型，也是经常 挂掉，显存报错如下：\n"
        "--------------------------------------------\n"
        "C++ Call Stacks (More useful to developers):\n"
        "--------------------------------------------\n"
        "0   std::string paddle::platform::GetTraceBackString<std::string>(std::string&&, char const*, int)\n"
        "1   paddle::memory::allocation::CUDAAllocator::AllocateImpl(unsigned long)\n"
        "2   paddle::memory::allocation::AlignedAllocator::AllocateImpl(unsigned long)\n"
        "3   paddle::memory::allocation::AutoGrowthBestFitAllocator::AllocateImpl(unsigned long)\n"
        "4   paddle::memory::allocation::Allocator::Allocate(unsigned long)\n"
        "5   paddle::memory::allocation::RetryAllocator::AllocateImpl(unsigned long)\n"
        "6   paddle::memory::allocation::AllocatorFacade::Alloc(paddle::platform::Place const&, unsigned long)\n"
        "7   paddle::memory::allocation::AllocatorFacade::AllocShared(paddle::platform::Place const&, unsigned long)\n"
        "8   paddle::memory::AllocShared(paddle::platform::Place const&, unsigned long)\n"
        "9   paddle::framework::Tensor::mutable_data(paddle::platform::Place const&, paddle::framework::proto::VarType_Type, unsigned long)\n"
        "10  paddle::operators::BatchNormKernel<paddle::platform::CUDADeviceContext, float>::Compute(paddle::framework::ExecutionContext const&) const\n"
        "11  std::_Function_handler<void (paddle::framework::ExecutionContext const&), paddle::framework::OpKernelRegistrarFunctor<paddle::platform::CUDAPl\n";
    scan_log(words, &rep);
    assert_true(rep.primary >= 0);
    assert_string_equal(rep.events[rep.primary].kind, "oom-mention");
    assert_int_equal(rep.events[rep.primary].stage, OOM_STAGE_FORWARD);
    oom_report_release(&rep);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tensorrt_runtime_request),
        cmocka_unit_test(test_tensorrt_tactic_lookalike),
        cmocka_unit_test(test_caffe_check_no_dot),
        cmocka_unit_test(test_rmm),
        cmocka_unit_test(test_arrayfire),
        cmocka_unit_test(test_bfc_dump),
        cmocka_unit_test(test_bfc_dump_then_error),
        cmocka_unit_test(test_bfc_rounded_exact),
        cmocka_unit_test(test_tf_directml_device),
        cmocka_unit_test(test_triton_pool_fallback),
        cmocka_unit_test(test_xla_hbm_table),
        cmocka_unit_test(test_tpu_hbm_mention),
        cmocka_unit_test(test_gpu_api_codes),
        cmocka_unit_test(test_tensorrt_oom_answered_by_skip),
        cmocka_unit_test(test_pinned_host_alloc_lookalike),
        cmocka_unit_test(test_mindspore_pool_refusal),
        cmocka_unit_test(test_ggml_pinned_host_lookalike),
        cmocka_unit_test(test_xla_buffer_report),
        cmocka_unit_test(test_paddle_allocator_stack),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
