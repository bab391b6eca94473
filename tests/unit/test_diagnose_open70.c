/* Unit tests for the mechanisms read from the misses of heldout70, opened
 * for study after its blind figures were recorded at af512501 (call 56/67,
 * numbers 5/10, stages 8/16). Each case has a guard that must stay as it
 * was. The pastes are written here in the shape of the posts named beside
 * them (the tools' own frames and wording, from their sources), not copied
 * from the threads. */
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

/* The first event's kind and whether it is a GPU OOM. */
static void expect_first_kind(const char *log, const char *kind, bool gpu_oom)
{
    struct oom_report rep;
    scan_log(log, &rep);
    assert_true(rep.n_events > 0);
    assert_string_equal(rep.events[0].kind, kind);
    assert_int_equal(rep.events[0].gpu_oom, gpu_oom);
    oom_report_release(&rep);
}

/* A TPU's scalar memory (smem) run out at compile is the kernel's on-chip
 * scratch, as vmem: a look-alike; hbm stays the device's memory. */
static void test_tpu_smem_is_lookalike(void **state)
{
    (void)state;
    /* vLLM on a TPU v5e (vllm-project/vllm#8318) */
    expect_first_kind("RuntimeError: Bad StatusOr access: RESOURCE_EXHAUSTED: XLA:TPU compile permanent error. "
                      "Ran out of memory in memory space smem. Used 1.00M of 1.00M smem. Exceeded smem "
                      "capacity by 1.7K.\n",
                      "tpu-vmem", false);
    expect_no_gpu_oom("RuntimeError: Bad StatusOr access: RESOURCE_EXHAUSTED: XLA:TPU compile permanent error. "
                      "Ran out of memory in memory space smem. Used 1.00M of 1.00M smem. Exceeded smem "
                      "capacity by 1.7K.\n");
    /* torch_xla 1.6's wording (pytorch/xla#2628 = heldout70 h70-27) */
    expect_no_gpu_oom("Exception in device=TPU:0: (0) Resource exhausted: Ran out of memory in memory space smem. "
                      "It should not be possible to run out of smem - please file a bug against XLA.\n");
    /* guard: the HBM is the device's memory (google-research/albert#168) */
    expect_first_kind("Compilation failure: Ran out of memory in memory space hbm. Used 12.34G of 8.00G hbm. "
                      "Exceeded hbm capacity by 4.34G.\n",
                      "jax", true);
}

/* A negation before verbs of seeming still denies the OOM named after
 * them ("does not seem to be an OOM"). */
static void test_denied_through_seeming(void **state)
{
    (void)state;
    /* NVIDIA/cuml#4984 = heldout70 h70-57: the reporter's own reading */
    expect_no_gpu_oom("Iterative transforms fail\n\n"
                      "* Does not seem to be an OOM but rather some other kind of memory access bug that may "
                      "happen with stale data in GPU memory.\n");
    expect_no_gpu_oom("Crash on the second batch\n\n"
                      "The card has room left, so it doesn't look like an OOM on the GPU.\n");
    expect_no_gpu_oom("Crash on the second batch\n\n"
                      "It does not appear to be a CUDA OOM, the GPU memory stays at 40%.\n");
    /* guard: the same verbs without a negation keep the OOM */
    struct oom_report rep;
    scan_primary("Crash on the second batch\n\n"
                 "It seems to be an OOM on the GPU, memory goes up to 24 GB before it dies.\n",
                 &rep);
    oom_report_release(&rep);
}

/* "memory access" is the access fault, not the amount: "fails with CUDA
 * memory access error" names no OOM. */
static void test_memory_access_is_no_oom(void **state)
{
    (void)state;
    /* NVIDIA/cuml#4984 = heldout70 h70-57, the title */
    expect_no_gpu_oom("[BUG] UMAP transform fails with CUDA memory access error on large batch processing\n\n"
                      "some text\n");
    /* hangg7/deformable-kernels#5: the same fault named in words */
    expect_no_gpu_oom("Training fails with GPU memory accesses out of bounds\n\nsome text\n");
    /* guard: the device's memory with trouble beside it stays an OOM
     * (MIC-DKFZ/nnUNet#1771's wording) */
    struct oom_report rep;
    scan_primary("Problems with CUDA memory when validation\n\nsome text\n", &rep);
    oom_report_release(&rep);
    scan_primary("Training fails with GPU memory error\n\nsome text\n", &rep);
    oom_report_release(&rep);
}

/* Deeplearning4j's passes split into helpers: activateHelper,
 * rnnTimeStep and rnnActivateUsingStoredState forward, a cuDNN helper's
 * backpropGradient the backward. */
static void test_dl4j_helper_passes(void **state)
{
    (void)state;
    /* an LSTM's inference step under cuDNN (deeplearning4j/deeplearning4j#8253
     * = heldout70 h70-11) */
    assert_string_equal(
        primary_stage("Exception in thread \"main\" java.lang.RuntimeException: Failed to allocate 67108864 bytes "
                      "from DEVICE [0] memory\n"
                      "\tat org.nd4j.jita.allocator.impl.AtomicAllocator.allocateMemory(AtomicAllocator.java:438)\n"
                      "\tat org.nd4j.linalg.api.ndarray.BaseNDArray.dup(BaseNDArray.java:1722)\n"
                      "\tat org.deeplearning4j.nn.layers.recurrent.CudnnLSTMHelper.toCOrder(CudnnLSTMHelper.java:181)\n"
                      "\tat org.deeplearning4j.nn.layers.recurrent.CudnnLSTMHelper.activate(CudnnLSTMHelper.java:393)\n"
                      "\tat org.deeplearning4j.nn.layers.recurrent.LSTMHelpers.activateHelper(LSTMHelpers.java:204)\n"
                      "\tat org.deeplearning4j.nn.layers.recurrent.LSTM.activateHelper(LSTM.java:159)\n"),
        "forward");
    /* the stored-state forward of truncated BPTT (deeplearning4j/nd4j#2140) */
    assert_string_equal(
        primary_stage("Exception in thread \"main\" java.lang.RuntimeException: Failed to allocate 400000 bytes "
                      "from DEVICE [0] memory\n"
                      "\tat org.nd4j.jita.allocator.impl.AtomicAllocator.allocateMemory(AtomicAllocator.java:390)\n"
                      "\tat org.deeplearning4j.nn.layers.recurrent.GravesLSTM.rnnActivateUsingStoredState("
                      "GravesLSTM.java:258)\n"
                      "\tat org.deeplearning4j.nn.multilayer.MultiLayerNetwork.rnnActivateUsingStoredState("
                      "MultiLayerNetwork.java:2727)\n"),
        "forward");
    /* the convolution's cuDNN helper in the backward, the layer's own frame
     * cut (deeplearning4j/deeplearning4j#9119 = heldout70 h70-12): its
     * getCudnnForwardArgs is the backward's set-up, not a forward */
    assert_string_equal(
        primary_stage("Exception in thread \"main\" java.lang.RuntimeException: Failed to allocate 1077940224 "
                      "bytes from DEVICE [0] memory\n"
                      "\tat org.nd4j.jita.allocator.impl.AtomicAllocator.allocateMemory(AtomicAllocator.java:438)\n"
                      "\tat org.nd4j.linalg.factory.Nd4j.create(Nd4j.java:3986)\n"
                      "\tat org.deeplearning4j.cuda.convolution.CudnnConvolutionHelper.getCudnnForwardArgs("
                      "CudnnConvolutionHelper.java:684)\n"
                      "\tat org.deeplearning4j.cuda.convolution.CudnnConvolutionHelper.backpropGradient("
                      "CudnnConvolutionHelper.java:167)\n"
                      "\tat org.deeplearning4j.nn.layers.convolution.ConvolutionLayer.backpropGr\n"),
        "backward");
    /* guard: fit's computeGradientAndScore alone runs both passes: no stage */
    assert_string_equal(
        primary_stage("Exception in thread \"main\" java.lang.RuntimeException: Failed to allocate 400000 bytes "
                      "from DEVICE [0] memory\n"
                      "\tat org.nd4j.jita.allocator.impl.AtomicAllocator.allocateMemory(AtomicAllocator.java:390)\n"
                      "\tat org.deeplearning4j.nn.multilayer.MultiLayerNetwork.computeGradientAndScore("
                      "MultiLayerNetwork.java:2213)\n"),
        "unknown");
}

/* torch7's Module:type casting the network's storages (what :cuda() calls)
 * is the model moved to the GPU: load. */
static void test_lua_module_type_is_load(void **state)
{
    (void)state;
    /* THC's OOM under nn.utils (itayhubara/BinaryNet#4; the frames of
     * heldout70 h70-06) */
    assert_string_equal(
        primary_stage("THCudaCheck FAIL file=/tmp/luarocks_cutorch-scm-1/cutorch/lib/THC/generic/THCStorage.cu "
                      "line=41 error=2 : out of memory\n"
                      "/home/u/torch/install/bin/luajit: /home/u/torch/install/share/lua/5.1/nn/utils.lua:11: "
                      "cuda runtime error (2) : out of memory at /tmp/luarocks_cutorch-scm-1/cutorch/lib/THC/"
                      "generic/THCStorage.cu:41\n"
                      "stack traceback:\n"
                      "\t[C]: in function 'resize'\n"
                      "\t/home/u/torch/install/share/lua/5.1/nn/utils.lua:11: in function 'torch_Storage_type'\n"),
        "load");
    /* recursiveType under Module.lua's type and cuda (torch/torch7#861's
     * frames) */
    assert_string_equal(
        primary_stage("/home/u/torch/install/bin/luajit: cuda runtime error (2) : out of memory at "
                      "/home/u/torch/extra/cutorch/lib/THC/generic/THCStorage.cu:66\n"
                      "stack traceback:\n"
                      "\t[C]: in function 'resize'\n"
                      "\t/torch/install/share/lua/5.1/nn/utils.lua:43: in function 'recursiveType'\n"
                      "\t/torch/install/share/lua/5.1/nn/Module.lua:152: in function 'type'\n"
                      "\t/torch/install/share/lua/5.1/nn/Module.lua:152: in function 'cuda'\n"),
        "load");
    /* guard: a module's updateOutput stays the forward */
    assert_string_equal(
        primary_stage("/home/u/torch/install/bin/luajit: cuda runtime error (2) : out of memory at "
                      "/home/u/torch/extra/cutorch/lib/THC/generic/THCStorage.cu:66\n"
                      "stack traceback:\n"
                      "\t[C]: in function 'v'\n"
                      "\t/home/u/torch/install/share/lua/5.1/nn/THNN.lua:110: in function "
                      "'SpatialConvolutionMM_updateOutput'\n"),
        "forward");
}

/* XLA's TPU OOM report: its buffer list ("Largest program allocations in
 * hbm", each "Allocation type: HLO temp") is the OOM's even when the paste
 * opens inside it, and joins the message above it, however long. */
static void test_xla_allocation_report(void **state)
{
    (void)state;
    /* a paste that opens inside the list (sokrypton/ColabFold#62's shape) */
    static const char list_only[] =
        "error when running on TPU\n\n"
        "```\n"
        "  17. Size: 64.00M\n"
        "     Operator: op_type=\"broadcast_in_dim\" op_name=\"jit(apply_fn)/scan/while/body/broadcast_in_dim\"\n"
        "     Shape: f32[1024,245,64]{1,2,0:T(8,128)}\n"
        "     Unpadded size: 61.25M\n"
        "     XLA label: %broadcast.82209 = f32[1024,245,64]{1,2,0:T(8,128)} broadcast(f32[]{:T(256)} %gte)\n"
        "     Allocation type: HLO temp\n"
        "     ==========================\n"
        "```\n";
    struct oom_report rep;
    const struct oom_event *e = scan_primary(list_only, &rep);
    assert_string_equal(e->kind, "jax");
    oom_report_release(&rep);
    /* under its message, far below it: one event (pytorch/xla#3041's
     * memory profile, EasyDeL's compile error) */
    char log[4096];
    int n = snprintf(log, sizeof log, "%s",
                     "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: XLA:TPU compile permanent "
                     "error. Ran out of memory in memory space hbm. Used 21.90G of 7.48G hbm. Exceeded hbm "
                     "capacity by 14.42G.\n\n"
                     "Total hbm usage >= 22.47G:\n"
                     "    reserved        530.00M\n"
                     "    program          21.95G\n\n"
                     "  Largest program allocations in hbm:\n\n");
    for (int i = 1; i <= 4 && n > 0 && (size_t)n < sizeof log; i++)
        n += snprintf(log + n, sizeof log - (size_t)n,
                      "  %d. Size: 2.00G\n"
                      "     Shape: f32[32,4096,4096]{1,2,0:T(8,128)}\n"
                      "     Unpadded size: 2.00G\n"
                      "     XLA label: fusion.1265.remat3 = fusion(custom-call.224), kind=kOutput\n"
                      "     Allocation type: HLO temp\n"
                      "     ==========================\n\n",
                      i);
    scan_log(log, &rep);
    assert_int_equal(rep.n_events, 1);
    assert_true(rep.primary == 0);
    oom_report_release(&rep);
    /* guard: a vmem look-alike keeps its call with such a list below it */
    expect_no_gpu_oom("RESOURCE_EXHAUSTED: XLA:TPU compile permanent error. Ran out of memory in memory space "
                      "vmem. Used 32.42M of 16.00M vmem. Exceeded vmem capacity by 16.42M\n"
                      "  1. Size: 16.00M\n"
                      "     Shape: f32[4096,1024]{1,0:T(8,128)}\n"
                      "     Allocation type: HLO temp\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tpu_smem_is_lookalike),
        cmocka_unit_test(test_denied_through_seeming),
        cmocka_unit_test(test_memory_access_is_no_oom),
        cmocka_unit_test(test_dl4j_helper_passes),
        cmocka_unit_test(test_lua_module_type_is_load),
        cmocka_unit_test(test_xla_allocation_report),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
