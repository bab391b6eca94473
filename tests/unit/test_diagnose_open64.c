/* Unit tests for the mechanisms read from the misses of heldout64 (other
 * frameworks than PyTorch, unusual devices), opened for study after its
 * blind figures were recorded at b2a3e3cb (call 59/70, numbers 9/13,
 * stages 8/16). Each case has a guard that must stay as it was. The pastes
 * are written here in the shape of the posts named beside them (the tools'
 * own wording, from their sources), not copied from the threads. */
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

static enum oom_stage build(const char *line, const char *above)
{
    return stage_darknet_build(line, strlen(line), above, strlen(above));
}

/* Darknet prints each layer's index ("%5d " in pjreddie/darknet
 * src/parser.c parse_network_cfg, "%4d " in AlexeyAB's) before it makes
 * the layer, and the layer's row after; a device allocation failing while
 * the layer is made puts check_error's "CUDA Error: out of memory" right
 * after the index. The table's rows as pjreddie/darknet#2416 and #1135
 * show them ("   13 conv    128  1 x 1 / 1 ... BFLOPs", "4 res    1"), as
 * AlexeyAB/darknet#4581 and #5718 do ("  94 yolo", "  86 route  85 61 ...
 * BF"); heldout64 h64-04, -05, -08, -09 stop at the index. */
static void test_darknet_layer_index(void **state)
{
    (void)state;
    const char *pj =
        "$ ./darknet detect cfg/yolov3.cfg yolov3.weights data/dog.jpg\n"
        "layer     filters    size              input                output\n"
        "    0 conv     32  3 x 3 / 1   608 x 608 x   3   ->   608 x 608 x  32  0.639 BFLOPs\n"
        "    1 conv     64  3 x 3 / 2   608 x 608 x  32   ->   304 x 304 x  64  3.407 BFLOPs\n"
        "    4 res    1                 304 x 304 x  64   ->   304 x 304 x  64\n"
        "    5 CUDA Error: out of memory\n"
        "darknet: ./src/cuda.c:36: check_error: Assertion `0' failed.\n"
        "Aborted (core dumped)\n";
    assert_string_equal(primary_stage(pj), "load");
    /* the first layer, right under the header */
    const char *first =
        "layer     filters    size              input                output\n"
        "    0 CUDA Error: out of memory\n"
        "darknet: ./src/cuda.c:36: check_error: Assertion `0' failed.\n";
    assert_string_equal(primary_stage(first), "load");
    /* AlexeyAB's table and its error with the errno text */
    const char *ab =
        "   94 yolo\n"
        "[yolo] params: iou loss: mse (2), iou_norm: 0.75, cls_norm: 1.00, scale_x_y: 1.00\n"
        "   95 route  91                                     ->   20 x  20 x 256\n"
        "   96 CUDA Error: out of memory: File exists\n"
        "darknet: ./src/utils.c:293: error: Assertion `0' failed.\n";
    assert_string_equal(primary_stage(ab), "load");
    /* rows quoted with '>' or backticks, and a row inside the writer's
     * sentence (pjreddie/darknet#1796's shape) */
    assert_int_equal(build(">   96 CUDA Error: out of memory", ">   95 route  91"), OOM_STAGE_LOAD);
    assert_int_equal(build("`    0 CUDA Error: out of memory`", "`layer     filters    size      input     output`"),
                     OOM_STAGE_LOAD);
    assert_int_equal(build("   29 CUDA Error: out of memory",
                           "now it fails on layer 29 \"28 conv 128 1 x 1/1 76 x 76 x 256 -> 76 x 76 x 128"),
                     OOM_STAGE_LOAD);
    /* guards: darknet's error in its training loop has no index before it
     * (AlexeyAB/darknet#827: "Loaded: 0.000050 seconds" over "CUDA Error:
     * out of memory"); an index with no table above; a table above a line
     * that is no error; a number that is no layer index */
    const char *train =
        " 70: 146.247314, 206.038391 avg, 0.000000 rate, 0.534524 seconds, 4480 images\n"
        "Resizing\n"
        "576 x 576\n"
        "Loaded: 0.000050 seconds\n"
        "CUDA Error: out of memory\n"
        "darknet: ./src/cuda.c:36: check_error: Assertion `0' failed.\n";
    assert_string_not_equal(primary_stage(train), "load");
    assert_int_equal(build("    5 CUDA Error: out of memory", "Loaded: 0.000050 seconds"), OOM_STAGE_UNKNOWN);
    assert_int_equal(build("    5 conv     64  3 x 3 / 2", "    4 res    1"), OOM_STAGE_UNKNOWN);
    assert_int_equal(build("12345 CUDA Error: out of memory", "    4 res    1"), OOM_STAGE_UNKNOWN);
    assert_int_equal(build("    5 CUDA Error: out of memory", "we use 2 convolutions here"), OOM_STAGE_UNKNOWN);
}

/* thrust's system_error (and its bad_alloc) names the CUDA error in
 * what(): the call's context, ": ", then cudaGetErrorString's "out of
 * memory" (dmlc/xgboost#3756 "what():  parallel_for failed: out of
 * memory" under XGBoost's predictor, the same in rapidsai/rmm#130;
 * OrangeOwlSolutions/Thrust#1
 * thrust::system::detail::bad_alloc, "what(): std::bad_alloc: out of
 * memory"; XGBoost's dh::safe_cuda, "what():  .../device_helpers.cuh(456):
 * out of memory", dmlc/xgboost#2874 = heldout64 h64-42). */
static void test_thrust_what_out_of_memory(void **state)
{
    (void)state;
    struct oom_report rep;
    const struct oom_event *e = scan_primary(
        "I am also running XGBoost with GPU. My data is large with 900 features.\n"
        "terminate called after throwing an instance of 'thrust::system::system_error'\n"
        "  what():  parallel_for failed: out of memory\n",
        &rep);
    assert_true(e->gpu_oom);
    oom_report_release(&rep);
    e = scan_primary("terminate called after throwing an instance of 'thrust::system::detail::bad_alloc'\n"
                     "\n"
                     "what(): std::bad_alloc: out of memory\n"
                     "\n"
                     "*** Process received signal ***\n",
                     &rep);
    assert_true(e->gpu_oom);
    oom_report_release(&rep);
    e = scan_primary("terminate called after throwing an instance of 'thrust::system::system_error'  what():  "
                     "/home/u/src/xgboost/src/tree/../common/device_helpers.cuh(456): out of memory\n",
                     &rep);
    assert_true(e->gpu_oom);
    oom_report_release(&rep);
    /* guards: the same what() with the other errors (NVIDIA/thrust#1636's
     * illegal address, antonmks/Alenka#49's launch failure, a driver
     * shutting down) is no OOM; a host bad_alloc's what() is bare */
    expect_no_gpu_oom("terminate called after throwing an instance of 'thrust::system::system_error'\n"
                      "  what():  device free failed: cudaErrorIllegalAddress: an illegal memory access was "
                      "encountered\n"
                      "Aborted (core dumped)\n");
    expect_no_gpu_oom("terminate called after throwing an instance of 'thrust::system::system_error'\n"
                      "  what():  unspecified launch failure\n");
    expect_no_gpu_oom("terminate called after throwing an instance of 'thrust::system::system_error'\n"
                      "   what():  CUDA free failed: cudaErrorCudartUnloading: driver shutting down\n");
    expect_no_gpu_oom("terminate called after throwing an instance of 'std::bad_alloc'\n"
                      "  what():  std::bad_alloc\n");
}

/* RMM's spill-on-demand giving up: the failure callback of dask-cuda's
 * ProxyManager and of cuDF's SpillManager finds nothing to spill, prints
 * "RMM allocation of {format_bytes(nbytes)} bytes failed, spill-on-demand
 * couldn't find any device memory to spill:" and returns false, so RMM
 * throws (rapidsai/dask-cuda#855 through distributed's logger, = heldout64
 * h64-25; cuDF's spill_manager.py and its first version printing the bare
 * byte count). The size is the request. */
static void test_rmm_spill_on_demand(void **state)
{
    (void)state;
    struct oom_report rep;
    const struct oom_event *e = scan_primary(
        "distributed.worker - WARNING - RMM allocation of 4.91 MiB failed, spill-on-demand couldn't find any "
        "device memory to spill:\n"
        "<ProxyManager dev_limit=9.31 GiB host_limit=503.90 GiB disk=0 B(0) host=0 B(0) dev=0 B(0)>: Empty\n"
        "traceback:\n",
        &rep);
    assert_true(e->gpu_oom);
    assert_int_equal(e->bytes.requested, 5148508); /* 4.91 * 2^20, rounded */
    oom_report_release(&rep);
    e = scan_primary("[WARNING] RMM allocation of 5147652 bytes failed, spill-on-demand couldn't find any device "
                     "memory to spill:\n",
                     &rep);
    assert_int_equal(e->bytes.requested, 5147652);
    oom_report_release(&rep);
    /* guard: spilling that found memory logs no failure (cudf-spark's
     * "Spilled 263708544 bytes from the device store", NVIDIA/cudf-spark#11742) */
    expect_no_gpu_oom("24/11/18 15:25:07 INFO DeviceMemoryEventHandler: Spilled 263708544 bytes from the device store\n");
}

static enum oom_stage julia_frame(const char *line)
{
    enum oom_stage st = OOM_STAGE_COUNT;
    return stage_julia_frame(line, strlen(line), &st) ? st : OOM_STAGE_COUNT;
}

/* Julia before 1.0 printed " in f(args) at path:line" frames with no
 * number and no "Stacktrace:" (Julia 0.5 traces kept in comments of
 * TuringLang/Turing.jl:example-models/naive-bayes/run.jl and JuliaMPC/MAVs:
 * MichiganAutonomousVehicles/old/examples/pathFollowing/
 * testPathFollowing.jl@e906c476; Knet under
 * AutoGrad, denizyuret/AutoGrad.jl#29 = heldout64 h64-70). AutoGrad
 * records the differentiated function's forward pass (forward_pass in 0.x,
 * forw around each op in 1.x: "#forw#1(...) at .../AutoGrad/src/core.jl:66",
 * JuliaGPU/CUDA.jl#111, JuliaGPU/CuArrays.jl#491) before its backward_pass. */
static void test_julia_old_frames_and_autograd(void **state)
{
    (void)state;
    const char *old =
        "ERROR: Out of gpu memory\n"
        " in Knet.KnetPtr(::Int64) at /home/u/.julia/v0.5/Knet/src/kptr.jl:96\n"
        " in relu(::Knet.KnetArray{Float32,4}) at /home/u/.julia/v0.5/Knet/src/unary.jl:85\n"
        " in relu(::AutoGrad.Rec{Knet.KnetArray{Float32,4}}) at ./<missing>:0\n"
        " in predict(::AutoGrad.Rec{Array{Any,1}}, ::Knet.KnetArray{Float32,4}) at /home/u/lenet.jl:30\n"
        " in forward_pass(::Function, ::Tuple{Array{Any,1}}, ::Array{Any,1}, ::Int64) at "
        "/home/u/.julia/v0.5/AutoGrad/src/core.jl:75\n"
        " in include_from_node1(::String) at ./loading.jl:488\n";
    assert_string_equal(primary_stage(old), "forward");
    const char *forw =
        "ERROR: LoadError: CUDA error: out of memory (code #2, ERROR_OUT_OF_MEMORY)\n"
        "Stacktrace:\n"
        " [1] macro expansion at /home/u/.julia/packages/CUDAdrv/JWljj/src/base.jl:147 [inlined]\n"
        " [2] conv4(::Knet.KnetArray{Float32,4}, ::Knet.KnetArray{Float32,4}) at /home/u/.julia/packages/Knet/IIjk8/src/conv.jl:12\n"
        " [3] #forw#1(::Base.Iterators.Pairs{Symbol,Int64}, ::typeof(AutoGrad.forw), ::Function, "
        "::AutoGrad.Param{Knet.KnetArray{Float32,4}}) at /home/u/.julia/packages/AutoGrad/9MrCC/src/core.jl:66\n";
    assert_string_equal(primary_stage(forw), "forward");
    assert_int_equal(julia_frame(" in backward_pass(::Array{Any,1}, ::AutoGrad.Rec{Float32}, ::Array{AutoGrad.Node,1}) "
                                 "at /home/u/.julia/v0.6/AutoGrad/src/core.jl:233"),
                     OOM_STAGE_BACKWARD);
    /* Tracker's keyword method body names its function the same way */
    assert_int_equal(julia_frame(" [76] #gradient#24(::Bool, ::typeof(Tracker.gradient), ::Function) at "
                                 "/home/u/.julia/packages/Tracker/m6d46/src/back.jl:164"),
                     OOM_STAGE_BACKWARD);
    /* guards: allocator frames alone name nothing; a sentence with "in"
     * and "at" but no frame shape is no frame; "forward" alone is no
     * AutoGrad name */
    const char *alloc_only =
        "ERROR: Out of gpu memory\n"
        " in Knet.KnetPtr(::Int64) at /home/u/.julia/v0.5/Knet/src/kptr.jl:96\n"
        " in similar(::Knet.KnetArray{Float32,4}) at /home/u/.julia/v0.5/Knet/src/karray.jl:110\n";
    assert_string_equal(primary_stage(alloc_only), "unknown");
    assert_int_equal(julia_frame("in the end it fails"), OOM_STAGE_COUNT);
    assert_int_equal(julia_frame(" in forward(::Chain) at /home/u/model.jl:3"), OOM_STAGE_UNKNOWN);
}

/* Dask's worker reports a failed task as a record ("Compute Failed" or
 * "Run Failed", then "Function:  name", "args:", "kwargs:", "Exception:";
 * distributed/worker.py, NVIDIA/cudf#22235, rapidsai/cugraph#2694): the
 * function is one task of a graph, not the program's phase, above a
 * later failure as much as its own (dask-cudf's "Function: load_data" over
 * a groupby's RMM failure, heldout64 h64-23). */
static void test_dask_task_record(void **state)
{
    (void)state;
    const char *rec =
        "distributed.worker - WARNING - Compute Failed\n"
        "Function:  load_data\n"
        "args:      (125000000)\n"
        "kwargs:    {}\n"
        "Exception: CudaAPIError(1, 'Call to cuMemcpyHtoD results in CUDA_ERROR_INVALID_VALUE')\n"
        "\n"
        "MemoryError: std::bad_alloc: out_of_memory: CUDA error (failed to allocate 4000000000 bytes) at: "
        "/opt/rmm/mr/device/cuda_memory_resource.hpp:62: cudaErrorMemoryAllocation out of memory\n";
    struct oom_report rep;
    const struct oom_event *e = scan_primary(rec, &rep);
    assert_int_equal(e->stage, OOM_STAGE_UNKNOWN);
    assert_int_equal(e->weak_stage, OOM_STAGE_UNKNOWN);
    oom_report_release(&rep);
    bool done = false;
    assert_int_equal(stage_verb_line("Function: _evaluate_pipeline_dask", 33, &done), OOM_STAGE_UNKNOWN);
    assert_int_equal(stage_context_line("Function:  load_data", 20), OOM_STAGE_UNKNOWN);
    /* guard: the tool's own loading line is still read */
    assert_int_equal(stage_context_line("Loading checkpoint shards: 100%", 31), OOM_STAGE_LOAD);
    done = false;
    assert_int_equal(stage_verb_line("Loading model weights", 21, &done), OOM_STAGE_LOAD);
}

/* A compiled extension's constructor (a Cython .pyx frame's __init__)
 * builds the library's own object wherever the program is: cuFFT's plan
 * under cupy.fft.fft (cupy/cupy#1063 = heldout64 h64-60, the same plan in
 * cupy/cupy#3777), CuPy's ndarray under a forward (heldout26 h26-43). */
static void test_pyx_constructor(void **state)
{
    (void)state;
    const char *fft =
        "Traceback (most recent call last):\n"
        "  File \"bug.py\", line 6, in <module>\n"
        "    cupy.fft.fft(a)\n"
        "  File \"/home/u/cupy/cupy/fft/fft.py\", line 73, in _exec_fft\n"
        "    fft_type, a.size // a.shape[-1])\n"
        "  File \"cupy/cuda/cufft.pyx\", line 90, in cupy.cuda.cufft.Plan1d.__init__\n"
        "  File \"cupy/cuda/cufft.pyx\", line 73, in cupy.cuda.cufft.check_result\n"
        "cupy.cuda.cufft.CuFftError: CUFFT_ALLOC_FAILED\n";
    assert_string_equal(primary_stage(fft), "unknown");
    /* guard: the program's own constructor still sets up (a model's
     * __init__ in a .py file) */
    const char *model =
        "Traceback (most recent call last):\n"
        "  File \"train.py\", line 20, in <module>\n"
        "    net = Net()\n"
        "  File \"train.py\", line 9, in __init__\n"
        "    self.w = cupy.empty((100000, 100000))\n"
        "cupy.cuda.memory.OutOfMemoryError: out of memory to allocate 80000000000 bytes (total 80000000000 bytes)\n";
    assert_string_equal(primary_stage(model), "load");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_darknet_layer_index),
        cmocka_unit_test(test_thrust_what_out_of_memory),
        cmocka_unit_test(test_rmm_spill_on_demand),
        cmocka_unit_test(test_julia_old_frames_and_autograd),
        cmocka_unit_test(test_dask_task_record),
        cmocka_unit_test(test_pyx_constructor),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
