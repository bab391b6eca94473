/* Unit tests for the mechanisms read from the misses of heldout58 (frameworks
 * other than PyTorch and unusual devices), opened for study after its blind
 * figures were recorded at b2a3e3cb (call 64/77, numbers 17/27, stages
 * 1/3). Each case has a guard that must stay as it was. The pastes are
 * written here in the shape of the posts named beside them (the tools' own
 * wording, from their sources), not copied from the threads. */
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
#include "scan_fixture.h"

/* FAISS's allocMemorySpaceV throws "failed to cudaMalloc N bytes (error 2
 * out of memory)" in lower case (faiss/gpu/utils/MemorySpace.cpp since 2019):
 * yxgeee/SpCL#44 (1610612736 bytes), facebookresearch/faiss#1031 (47064032,
 * heldout58 h58-66). The older assert's "Failed to cudaMalloc" and
 * StandardGpuResources' "... bytes on device 1" (facebookresearch/faiss
 * #2020 = heldout58 h58-67, whose label leaves the device out: "device 1"
 * is not the "GPU N" form; it is the CUDA ordinal all the same) read the
 * same. */
static void test_faiss_lower_case_cudamalloc(void **state)
{
    (void)state;
    struct oom_report rep;
    const char *spcl44 =
        "Memory Error\n"
        "\n"
        "RuntimeError: Error in void faiss::gpu::allocMemorySpaceV(faiss::gpu::MemorySpace, void**, "
        "size_t) at gpu/utils/MemorySpace.cpp:26: Error: 'err == cudaSuccess' failed: failed to "
        "cudaMalloc 1610612736 bytes (error 2 out of memory)\n";
    const struct oom_event *e = scan_primary(spcl44, &rep);
    assert_string_equal(e->kind, "faiss");
    assert_int_equal(e->bytes.requested, 1610612736);
    oom_report_release(&rep);
    const char *faiss2020 =
        "RuntimeError: Error in virtual void* faiss::gpu::StandardGpuResourcesImpl::allocMemory(const "
        "faiss::gpu::AllocRequest&) at /work/faiss/gpu/StandardGpuResources.cpp:443: Error: 'err == "
        "cudaSuccess' failed: Failed to cudaMalloc 536870912 bytes on device 1 (error 2 out of memory\n";
    e = scan_primary(faiss2020, &rep);
    assert_int_equal(e->bytes.requested, 536870912);
    assert_int_equal(e->gpu, 1);
    oom_report_release(&rep);
    /* guard: the old assert's capitalised words still read */
    const char *faiss231 =
        "Faiss assertion 'cudaMalloc(p, size) == cudaSuccess' failed in void "
        "faiss::gpu::allocMemorySpace(faiss::gpu::MemorySpace, void**, size_t) at "
        "utils/MemorySpace.cpp:20; details: Failed to cudaMalloc 4294967296 bytes\n";
    e = scan_primary(faiss231, &rep);
    assert_int_equal(e->bytes.requested, 4294967296LL);
    oom_report_release(&rep);
}

/* Paddle's binary-compare enforce prints the comparison and its inverse
 * ("enforce %s <op> %s failed, %s <inverse> %s", PaddlePaddle/Paddle
 * #12591's diff of enforce.h): late 2017's PADDLE_ENFORCE_LT in gpu_info.cc
 * "enforce allocating < available failed, A >= B" (PaddlePaddle/Paddle
 * #6265 = heldout58 h58-38), 2018's LE "enforce allocating <= available
 * failed, A > B" (#7227, #8992): the request, then what was free. */
static void test_paddle_enforce_lt(void **state)
{
    (void)state;
    struct oom_report rep;
    const char *lt =
        "EnforceNotMet: enforce allocating < available failed, 11475179929 >= 11156224154\n"
        " at [/home/x/Paddle/paddle/platform/gpu_info.cc:90]\n"
        "PaddlePaddle Call Stacks:\n";
    const struct oom_event *e = scan_primary(lt, &rep);
    assert_string_equal(e->kind, "paddle");
    assert_int_equal(e->bytes.requested, 11475179929LL);
    assert_int_equal(e->bytes.free, 11156224154LL);
    oom_report_release(&rep);
    /* guard: the LE form as before */
    const char *le =
        "paddle.fluid.core.EnforceNotMet: enforce allocating <= available failed, 10513462067 > 1369702144\n"
        "at [/home/x/paddle/Paddle/paddle/fluid/platform/gpu_info.cc:89]\n";
    e = scan_primary(le, &rep);
    assert_int_equal(e->bytes.requested, 10513462067LL);
    assert_int_equal(e->bytes.free, 1369702144);
    oom_report_release(&rep);
    /* guard: another enforce of the same macro names no memory */
    const char *other = "paddle.fluid.core.EnforceNotMet: enforce x_dims[i + axis] == y_dims[i] failed, 1 != 13\n";
    scan_log(other, &rep);
    assert_true(rep.primary < 0);
    oom_report_release(&rep);
}

/* One failure named three times: an issue's title, the Paddle template's
 * "- 标题：" field repeating it (or a sentence quoting it) and then the
 * message with its figures (PaddlePaddle/Paddle#21694 = heldout58 h58-40;
 * PaddlePaddle/PaddleSeg#1723's title is the message itself). Every bare
 * naming above the message folds into it, not only the first. */
static void test_bare_namings_fold_into_message(void **state)
{
    (void)state;
    struct oom_report rep;
    const char *issue21694 =
        "lstm raises an exception paddle::memory::allocation::BadAlloc\n"
        "\n"
        "- 标题：lstm raises an exception paddle::memory::allocation::BadAlloc\n"
        "- 版本、环境信息：\n"
        "    1）PaddlePaddle版本：1.5\n"
        "    3）GPU：V100, CUDA10.0\n"
        "    4）系统环境：centos, Python3.6.9\n"
        "- 训练信息\n"
        "    1）单机,多卡\n"
        "- 问题描述：\n"
        "3500w数据，跑lstm分类模型，跑了几个epoch后报错lstm raises an exception "
        "paddle::memory::allocation::BadAlloc\n"
        "\n"
        "PaddleCheckError:\n"
        "Out of memory error on GPU 0. Cannot allocate 1.000000GB memory on GPU 0, available memory is "
        "only 221.875000MB.\n";
    const struct oom_event *e = scan_primary(issue21694, &rep);
    assert_int_equal(e->line, 14);
    assert_int_equal(e->bytes.requested, 1073741824);
    assert_int_equal(e->gpu, 0);
    oom_report_release(&rep);
    /* a title, a bare CUDA error line and the full message below */
    const char *three =
        "CUDA out of memory during training\n"
        "\n"
        "RuntimeError: CUDA error: out of memory\n"
        "then after restarting:\n"
        "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 10.76 GiB total capacity; "
        "9.80 GiB already allocated; 8.56 MiB free; 9.86 GiB reserved in total by PyTorch)\n";
    e = scan_primary(three, &rep);
    assert_int_equal(e->line, 5);
    assert_int_equal(e->bytes.requested, 20971520);
    oom_report_release(&rep);
    /* guard: a bare naming below the message is another failure's */
    const char *below =
        "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 10.76 GiB total capacity; "
        "9.80 GiB already allocated; 8.56 MiB free; 9.86 GiB reserved in total by PyTorch)\n"
        "\n"
        "RuntimeError: CUDA error: out of memory\n";
    scan_log(below, &rep);
    assert_int_equal(rep.events[rep.primary].line, 1);
    assert_int_equal((int)rep.n_events, 2);
    oom_report_release(&rep);
}

/* A naming with no figure first (an issue title with a placeholder size)
 * and the message quoted further down with its size: llama.cpp's Vulkan
 * backend, "ggml_vulkan: Device memory allocation of size N failed ..." over
 * "it crashes with `ggml_vulkan: Device memory allocation of size 3959422976
 * failed.`" (ggml-org/llama.cpp#12817 = heldout58 h58-28); the same message
 * as a title with its size (ikawrakow/ik_llama.cpp#1289) and under a
 * reporter's own words (ggml-org/llama.cpp#29270: "At execution ... I get
 * error:" over the two ggml_vulkan lines) read as before. */
static void test_prose_title_takes_quoted_size(void **state)
{
    (void)state;
    struct oom_report rep;
    const char *issue12817 =
        "Eval bug: ggml_vulkan: Device memory allocation of size N failed with ub > 4096 and c > 4096\n"
        "\n"
        "### Problem description & steps to reproduce\n"
        "\n"
        "When trying to run llama-server with `-ub 8192 -b 8192 -c 8192`, it crashes with "
        "`ggml_vulkan: Device memory allocation of size 3959422976 failed.` with any model I try, even "
        "though I have enough GPU memory after model is loaded.\n";
    const struct oom_event *e = scan_primary(issue12817, &rep);
    assert_int_equal(e->line, 1);
    assert_int_equal(e->bytes.requested, 3959422976LL);
    oom_report_release(&rep);
    /* guard: a title with its own size keeps it */
    const char *issue1289 =
        "Bug: Device memory allocation of size 17368219904 failed.\n"
        "\n"
        "It fails on a 16 GB card with the default context.\n";
    e = scan_primary(issue1289, &rep);
    assert_int_equal(e->bytes.requested, 17368219904LL);
    oom_report_release(&rep);
    /* guard: no figure anywhere stays none */
    const char *bare =
        "Eval bug: ggml_vulkan: Device memory allocation of size N failed with large batches\n"
        "\n"
        "The log section is empty.\n";
    e = scan_primary(bare, &rep);
    assert_true(e->bytes.requested < 0);
    oom_report_release(&rep);
}

/* TensorRT's builder names what it had beside what a tactic wanted:
 * "Tactic Device request: 2168MB Available: 1536MB. Device memory is
 * insufficient to use tactic." (triton-inference-server/server#4087 =
 * heldout58 h58-57; "600MB Available: 302MB", ultralytics/ultralytics
 * #22271): the free figure, on the line or the one below the skip. The
 * skip stays a look-alike. */
static void test_trt_tactic_available(void **state)
{
    (void)state;
    struct oom_report rep;
    const char *own =
        "[ERROR] Tactic Device request: 2168MB Available: 1536MB. Device memory is insufficient to use tactic.\n";
    scan_log(own, &rep);
    assert_true(rep.primary < 0);
    assert_int_equal((int)rep.n_events, 1);
    assert_string_equal(rep.events[0].kind, "tensorrt-tactic");
    assert_int_equal(rep.events[0].bytes.requested, 2168LL << 20);
    assert_int_equal(rep.events[0].bytes.free, 1536LL << 20);
    oom_report_release(&rep);
    const char *below =
        "[W] [TRT] Skipping tactic 33 due to insufficient memory on requested size of 629145600 detected "
        "for tactic 0x00000000000003e8.\n"
        "[W] [TRT] Tactic Device request: 600MB Available: 302MB. Device memory is insufficient to use "
        "tactic.\n";
    scan_log(below, &rep);
    assert_true(rep.n_events >= 1);
    assert_int_equal(rep.events[0].bytes.free, 302LL << 20);
    oom_report_release(&rep);
    /* guard: a request with no "Available:" leaves free unknown */
    const char *none = "[W] [TRT] Tactic Device request: 600MB. Device memory is insufficient to use tactic.\n";
    scan_log(none, &rep);
    assert_int_equal((int)rep.n_events, 1);
    assert_true(rep.events[0].bytes.free < 0);
    oom_report_release(&rep);
}

/* A sentence that says no CUDA OOM came ("There is no CUDA out of memory
 * error, but the usage is extremely high", a CuArrays hang,
 * JuliaGPU/CuArrays.jl thread = heldout58 h58-59) names none: PyTorch's
 * words in running text take the plain negations the mention rows take
 * ("did not see any CUDA OOM", diagcall9). Guards: the message itself, a clause of
 * its own after a denial ("No matter the batch size, CUDA out of
 * memory."), words that deny something else ("without triggering CUDA Out
 * Of Memory (OOM) errors" in a PR, heldout33 h33-59, keeps its reading;
 * "If not set i am getting cuda out of memory", heldout57 h57-44). */
static void test_denied_cuda_oom_words(void **state)
{
    (void)state;
    expect_no_gpu_oom("Training Halts when Using CuArrays\n"
                      "\n"
                      "There is no CUDA out of memory error, but the usage is extremely high for this "
                      "simple linear model (99.97% on a 1080 Ti).\n");
    expect_no_gpu_oom("Training hangs after epoch 3\n"
                      "\n"
                      "I did not get CUDA out of memory, the process just stops.\n");
    struct oom_report rep;
    const char *said =
        "Training hangs\n"
        "\n"
        "No matter the batch size, CUDA out of memory.\n";
    scan_primary(said, &rep);
    oom_report_release(&rep);
    const char *message =
        "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 10.76 GiB total capacity; "
        "9.80 GiB already allocated; 8.56 MiB free; 9.86 GiB reserved in total by PyTorch)\n";
    scan_primary(message, &rep);
    oom_report_release(&rep);
    const char *if_not =
        "Qwen2-VL OOM\n"
        "\n"
        "If not set i am getting cuda out of memory in A100 80GB machine also.\n";
    scan_primary(if_not, &rep);
    oom_report_release(&rep);
    /* guard: a question or a wish to avoid one asks about a real OOM; only
     * the plain negation right before counts, not deny's clause words
     * ("how can I sovle the problem of CUDA out of memory", heldout41
     * h41-32; "how to avoid cuda out of memory?", heldout55 h55-10) */
    scan_primary("how can I sovle the problem of CUDA out of memory\n", &rep);
    oom_report_release(&rep);
    scan_primary("how to avoid cuda out of memory?\n", &rep);
    oom_report_release(&rep);
}

/* A compiler out of memory while it builds CUDA code is host memory: EDG's
 * "catastrophic error : out of memory" under nvcc (microsoft/onnxruntime
 * #21676, #25377 = heldout58 h58-48), ptxas's "Memory allocation failure"
 * and LLVM's "LLVM ERROR: out of memory" (llvm/llvm-project#59194;
 * dusty-nv/jetson-containers#616 = heldout39 h39-41; cicc's "LLVM error :
 * out of memory" in #25377). */
static void test_compiler_out_of_memory(void **state)
{
    (void)state;
    struct oom_report rep;
    const char *build =
        "[Build] Can't build CUDA on Windows\n"
        "\n"
        "build.bat --config Debug --parallel --use_cuda --cuda_home C:\\CUDA\\v12.8\n"
        "```\n"
        "19:03:36   Compiling CUDA source file flash_fwd_hdim32_bf16_sm80.cu...\n"
        "19:03:37   ptxas fatal   : Memory allocation failure\n"
        "19:03:37 D:\\build\\_deps\\cutlass-src\\include\\cute/atom/mma_traits_sm100.hpp(3324): "
        "catastrophic error : out of memory [D:\\build\\onnxruntime_providers_cuda.vcxproj]\n"
        "```\n";
    scan_log(build, &rep);
    assert_true(rep.primary < 0);
    assert_true(rep.n_events >= 1);
    assert_string_equal(rep.events[0].kind, "host-cpu-alloc");
    oom_report_release(&rep);
    const char *llvm =
        "  CXX      src/semigroups_la-cong.lo\n"
        "LLVM ERROR: out of memory\n"
        "Allocation failed\n";
    scan_log(llvm, &rep);
    assert_true(rep.primary < 0);
    assert_string_equal(rep.events[0].kind, "host-cpu-alloc");
    oom_report_release(&rep);
    /* guard: the device's own words in the same build log stay a GPU OOM */
    const char *device =
        "Compiling done.\n"
        "RuntimeError: CUDA error: out of memory\n";
    scan_primary(device, &rep);
    oom_report_release(&rep);
}

/* An array or data-frame library's constructor allocates its container in
 * whatever stage calls it, no model set-up: CuPy's ndarray.__init__ under an
 * elementwise kernel (heldout58 h58-02; cupy/cupy#1489 = heldout24 h24-39)
 * and cuDF's DataFrame.__init__ building a frame from arrays
 * (rapidsai/cudf = heldout58 h58-22) name no load. Guards: the same frame
 * under a model's forward stays forward (oreilly-japan/deep-learning-from-
 * scratch-2#16 = heldout26 h26-43), and a model's own __init__ stays load. */
static void test_container_constructor_no_load(void **state)
{
    (void)state;
    const char *cupy =
        "It runs into an error when I try to predict images in a loop.\n"
        "  File \"cupy/core/_kernel.pyx\", line 329, in cupy.core._kernel._get_out_args\n"
        "  File \"cupy/core/core.pyx\", line 150, in cupy.core.core.ndarray.__init__\n"
        "  File \"cupy/cuda/memory.pyx\", line 517, in cupy.cuda.memory.alloc\n"
        "  File \"cupy/cuda/memory.pyx\", line 694, in cupy.cuda.memory._try_malloc\n"
        "cupy.cuda.memory.OutOfMemoryError: out of memory to allocate 154880000 bytes (total 7112607232 bytes)\n";
    assert_string_equal(primary_stage(cupy), "unknown");
    const char *cudf =
        "Traceback (most recent call last):\n"
        "  File \"scratch.py\", line 5, in <module>\n"
        "    X_gpu = cudf.DataFrame({'fea%d'%i: numpy_data[:, i] for i in range(10)})\n"
        "  File \"/env/lib/python3.6/site-packages/cudf/core/dataframe.py\", line 185, in __init__\n"
        "    self.insert(i, k, v)\n"
        "  File \"/env/lib/python3.6/site-packages/cudf/core/dataframe.py\", line 1559, in insert\n"
        "    value = column.as_column(value)\n"
        "rmm.rmm.RMMError: RMM_ERROR_OUT_OF_MEMORY\n";
    assert_string_equal(primary_stage(cudf), "unknown");
    const char *under_forward =
        "Traceback (most recent call last):\n"
        "  File \"train_better_rnnlm.py\", line 47, in <module>\n"
        "    time_size=time_size, max_grad=max_grad)\n"
        "  File \"../common/trainer.py\", line 110, in fit\n"
        "    loss = model.forward(batch_x, batch_t)\n"
        "  File \"../common/time_layers.py\", line 273, in forward\n"
        "    out = np.dot(rx, W) + b\n"
        "  File \"cupy/core/core.pyx\", line 134, in cupy.core.core.ndarray.__init__\n"
        "  File \"cupy/cuda/memory.pyx\", line 518, in cupy.cuda.memory.alloc\n"
        "cupy.cuda.memory.OutOfMemoryError: out of memory to allocate 8388608 bytes (total 1073741824 bytes)\n";
    assert_string_equal(primary_stage(under_forward), "forward");
    const char *model_init =
        "Traceback (most recent call last):\n"
        "  File \"train.py\", line 20, in <module>\n"
        "    model = Net()\n"
        "  File \"model.py\", line 12, in __init__\n"
        "    self.emb = nn.Embedding(500000, 4096).cuda()\n"
        "RuntimeError: CUDA out of memory. Tried to allocate 7.63 GiB (GPU 0; 10.76 GiB total capacity; "
        "1.00 GiB already allocated; 1.50 GiB free; 1.10 GiB reserved in total by PyTorch)\n";
    assert_string_equal(primary_stage(model_init), "load");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_faiss_lower_case_cudamalloc),
        cmocka_unit_test(test_paddle_enforce_lt),
        cmocka_unit_test(test_bare_namings_fold_into_message),
        cmocka_unit_test(test_prose_title_takes_quoted_size),
        cmocka_unit_test(test_trt_tactic_available),
        cmocka_unit_test(test_denied_cuda_oom_words),
        cmocka_unit_test(test_compiler_out_of_memory),
        cmocka_unit_test(test_container_constructor_no_load),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
