/* diagnose on the gaps helpers diagstagenpt and diagnumsrc left (issue 12,
 * helper diagleft2): MindSpore's kernel scope, OpenVINO's nested exception
 * lines, Julia 1.6+ stacks below the message, Paddle's MemoryError head of
 * its own summary, ONNX Runtime DirectML's 8007000E, llama.cpp's KV cache
 * buffer, Kokkos' size, TF BFC's exact size wrapped. Each paste is written in the library's own printed
 * words (the source beside each test); every test but the guards failed on
 * 9b38a29e. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "lib/scan.h"
#include "lib/stage.h"
#include "stage_fixture.h"
#include "scan_fixture.h"

/* The report of a paste; the caller releases it. */
/* ---- 1. MindSpore's kernel scope (mindspore-ai/mindspore:mindspore/ccsrc/
 * runtime/graph_scheduler/actor/actor_common.h@94bdab39) ---- */
#define MS_OOM(kernel) \
    "RuntimeError: Device(id:0) memory isn't enough and alloc failed, kernel name: " kernel ", alloc size: 1073741824B.\n"

static void test_mindspore_scope(void **state)
{
    (void)state;
    assert_string_equal(stage_of(MS_OOM("Gradients/Default/network-WithLossCell/_backbone-ResNet/conv1-Conv2d/gradConv2D/Conv2DBackpropFilter-op88")), "backward");
    assert_string_equal(stage_of(MS_OOM("Default/optimizer-Adam/Adam-op301")), "optimizer");
    assert_string_equal(stage_of(MS_OOM("Default/network-WithLossCell/_backbone-ResNet/layer1-SequentialCell/0-ResidualBlock/conv1-Conv2d/Conv2D-op12")), "forward");
    /* guard: an actor, no scope */
    assert_string_equal(stage_of(MS_OOM("kernel_graph_@ HostDSActor")), "unknown");
}

/* ---- 2. OpenVINO's nested locations (openvinotoolkit/openvino:src/core/
 * src/except.cpp@0044167a Exception::make_what) between frames and message ---- */
static void test_openvino_nested(void **state)
{
    (void)state;
    assert_string_equal(stage_of("Traceback (most recent call last):\n"
                                 "  File \"/w/serve.py\", line 12, in <module>\n"
                                 "    compiled = ov.compile_model(model, \"GPU\")\n"
                                 "RuntimeError: Exception from src/inference/src/cpp/core.cpp:107:\n"
                                 "Check 'false' failed at src/plugins/intel_gpu/src/runtime/ocl/ocl_engine.cpp:161:\n"
                                 "[GPU] Exceeded max size of memory object allocation: requested 4294967296 bytes, but max alloc size supported by device is 3927572480 bytes.\n"),
                        "load");
}

/* ---- 3. Julia 1.6+ stacks (FluxML/Zygote.jl, FluxML/Flux.jl,
 * FluxML/Optimisers.jl, FluxML/NNlib.jl) ---- */
#define JL_HEAD "ERROR: Out of GPU memory trying to allocate 512.000 MiB\nEffective GPU memory usage: 99.10% (7.731 GiB/7.800 GiB)\nMemory pool usage: 6.900 GiB (7.125 GiB reserved)\nStacktrace:\n"
#define JL_ALLOC "  [1] throw_api_error(res::CUDA.cudaError_enum)\n    @ CUDA ~/.julia/packages/CUDA/35NC6/lib/cudadrv/libcuda.jl:27\n  [2] alloc(sz::Int64)\n    @ CUDA ~/.julia/packages/CUDA/35NC6/src/pool.jl:330\n"

static void test_julia_stack(void **state)
{
    (void)state;
    /* Flux 0.14's train!: Optimisers.update! of the explicit style */
    assert_string_equal(stage_of(JL_HEAD JL_ALLOC
                                 "  [5] update!(tree::NamedTuple{(:layers,)}, model::Chain{Tuple{Dense{typeof(relu)}}}, grad::NamedTuple{(:layers,)})\n    @ Optimisers ~/.julia/packages/Optimisers/1x8gl/src/interface.jl:73\n"
                                 "  [6] train!(loss::Function, model::Chain{Tuple{Dense{typeof(relu)}}}, data::Vector{Tuple{CuArray{Float32, 2, CUDA.Mem.DeviceBuffer}}}, opt::NamedTuple{(:layers,)})\n    @ Flux.Train ~/.julia/packages/Flux/u7QSl/src/train.jl:110\n"
                                 "  [7] top-level scope\n    @ /w/train.jl:40\n"),
                        "optimizer");
    /* NNlib's gradient kernel innermost, under gradient */
    assert_string_equal(stage_of(JL_HEAD JL_ALLOC
                                 "  [6] ∇conv_filter(x::CuArray{Float32, 4, CUDA.Mem.DeviceBuffer}, dy::CuArray{Float32, 4, CUDA.Mem.DeviceBuffer}, cdims::DenseConvDims{2, 2, 2, 4, 2})\n    @ NNlibCUDA ~/.julia/packages/NNlibCUDA/gzTJY/src/cudnn/conv.jl:110\n"
                                 "  [9] gradient(f::Function, args::Chain{Tuple{Conv{2, 4, typeof(relu)}}})\n    @ Zygote ~/.julia/packages/Zygote/SmJK6/src/compiler/interface.jl:97\n"),
                        "backward");
    /* a model called from the REPL: forward */
    assert_string_equal(stage_of(JL_HEAD JL_ALLOC
                                 "  [7] (::Chain{Tuple{Dense{typeof(relu), CuArray{Float32, 2, CUDA.Mem.DeviceBuffer}}}})(x::CuArray{Float32, 2, CUDA.Mem.DeviceBuffer})\n    @ Flux ~/.julia/packages/Flux/u7QSl/src/layers/basic.jl:53\n"
                                 "  [8] top-level scope\n    @ REPL[12]:1\n"),
                        "forward");
    /* Julia before 1.6: " [n] f(args) at path:line" on one line */
    assert_string_equal(stage_of("ERROR: LoadError: CUDA error: out of memory (code 2, ERROR_OUT_OF_MEMORY)\nStacktrace:\n"
                                 " [1] throw_api_error(::CUDA.cudaError_enum) at /home/u/.julia/packages/CUDA/wTQsK/lib/cudadrv/error.jl:103\n"
                                 " [2] withgradient(::Function, ::Chain{Tuple{Dense{typeof(relu)}}}) at /home/u/.julia/packages/Zygote/ggM8Z/src/compiler/interface.jl:140\n"),
                        "backward");
    /* guards: CUDA.jl's own frames, a kernel launch called as an object */
    assert_string_equal(stage_of(JL_HEAD JL_ALLOC
                                 "  [3] (::CUDA.HostKernel{typeof(my_kernel), Tuple{CuDeviceVector{Float32, 1}}})(args::CuArray{Float32, 1, CUDA.Mem.DeviceBuffer})\n    @ CUDA ~/.julia/packages/CUDA/35NC6/src/compiler/execution.jl:300\n"
                                 "  [4] top-level scope\n    @ /w/sim.jl:9\n"),
                        "unknown");
    /* guard: a closure as Julia < 1.6 printed it (CuArrays' pool), no model */
    assert_string_equal(stage_of("ERROR: LoadError: CUDA error: out of memory (code #2, ERROR_OUT_OF_MEMORY)\nStacktrace:\n"
                                 " [1] alloc at /home/u/.julia/packages/CUDAdrv/LC5XS/src/memory.jl:157 [inlined]\n"
                                 " [2] (::getfield(CuArrays, Symbol(\"##17#18\")){Base.RefValue{CUDAdrv.Mem.Buffer}})() at /home/u/.julia/packages/CuArrays/f4Eke/src/memory.jl:251\n"
                                 " [3] gemm at /home/u/.julia/packages/CuArrays/f4Eke/src/blas/wrap.jl:903 [inlined]\n"),
                        "unknown");
}

/* ---- 6. TF BFC's exact size wrapped inside its parenthesis
 * (tensorflow/tensorflow:tensorflow/core/common_runtime/bfc_allocator.cc) ---- */
static void test_tf_rounded_wrapped(void **state)
{
    (void)state;
    struct oom_report rep;
    scan_log("2019-05-01 10:00:00.000000: W tensorflow/core/common_runtime/bfc_allocator.cc:267] Allocator (GPU_0_bfc) ran out of memory trying to allocate 1.17GiB (rounded to\n"
         "1258291200).  Current allocation summary follows.\n",
         &rep);
    assert_int_equal(rep.primary, 0);
    assert_int_equal(rep.events[0].bytes.requested, 1258291200);
    oom_report_release(&rep);
}

/* ---- 4. Paddle's MemoryError head (PaddlePaddle/Paddle:paddle/fluid/
 * pybind/exception.cc@2618b1a4: ResourceExhaustedError -> MemoryError) ---- */
#define PD_SUMMARY "\n--------------------------------------\nC++ Traceback (most recent call last):\n--------------------------------------\n0   paddle::memory::allocation::CUDAAllocator::AllocateImpl(unsigned long)\n\n----------------------\nError Message Summary:\n----------------------\nResourceExhaustedError: \n\nOut of memory error on GPU 0. Cannot allocate 1.000000GB memory on GPU 0, 14.500000GB memory has been allocated and available memory is only 500.000000MB.\n\nPlease check whether there is any other process using GPU 0.\n1. If yes, please stop them, or start PaddlePaddle on another GPU.\n"

static void test_paddle_memoryerror_head(void **state)
{
    (void)state;
    struct oom_report rep;
    scan_log("Traceback (most recent call last):\n  File \"/w/train.py\", line 40, in <module>\n    loss.backward()\nMemoryError: \n" PD_SUMMARY, &rep);
    assert_int_equal(rep.n_events, 1);
    assert_int_equal(rep.primary, 0);
    assert_string_equal(rep.events[0].kind, "paddle");
    oom_report_release(&rep);
    /* guard: NumPy's MemoryError with its own text stays a host event */
    scan_log("numpy.core._exceptions._ArrayMemoryError: Unable to allocate 58.0 GiB for an array with shape (7800000000,) and data type float64\nMemoryError: \n", &rep);
    assert_true(rep.n_events >= 1);
    assert_false(rep.events[rep.n_events - 1].gpu_oom);
    oom_report_release(&rep);
}

/* ---- 5. calls with no event ---- */
static void test_directml_8007000e(void **state)
{
    (void)state;
    struct oom_report rep;
    /* huggingface/diffusers#552's thread: ORT's DirectML provider */
    scan_log("2022-10-18 13:56:21.2822368 [E:onnxruntime:, sequential_executor.cc:369 onnxruntime::SequentialExecutor::Execute] Non-zero status code returned while running MemcpyToHost node. Name:'Memcpy_token_29' Status Message: D:\\a\\_work\\1\\s\\onnxruntime\\core\\providers\\dml\\DmlExecutionProvider\\src\\MLOperatorAuthorImpl.cpp(1978)\\onnxruntime_pybind11_state.pyd!00007FFBDC8EBB9F: (caller: 00007FFBDCFFDEFF) Exception(3) tid(4304) 8007000E Not enough memory resources are available to complete this operation.\n", &rep);
    assert_int_equal(rep.primary, 0);
    assert_string_equal(rep.events[0].kind, "onnxruntime");
    oom_report_release(&rep);
    /* guard: Windows' E_OUTOFMEMORY with no DirectML named is no GPU OOM */
    expect_no_gpu_oom("Exception(1) tid(1a2c) 8007000E Not enough memory resources are available to complete this operation.\n");
}

static void test_llamacpp_kv_cache(void **state)
{
    (void)state;
    struct oom_report rep;
    /* alone (ggml-org/llama.cpp:src/llama-kv-cache.cpp's throw, as
     * llama_init_from_model logs it) */
    scan_log("llama_init_from_model: failed to initialize the context: failed to allocate buffer for kv cache\n", &rep);
    assert_int_equal(rep.primary, 0);
    assert_string_equal(rep.events[0].kind, "ggml");
    oom_report_release(&rep);
    /* guard: after the backend's CPU buffer: host memory, one event */
    scan_log("alloc_tensor_range: failed to allocate CPU buffer of size 37748736000\nllama_init_from_model: failed to initialize the context: failed to allocate buffer for kv cache\n", &rep);
    assert_true(rep.primary < 0);
    assert_int_equal(rep.n_events, 1);
    oom_report_release(&rep);
    /* guard: after a device buffer: that event */
    scan_log("alloc_tensor_range: failed to allocate CUDA0 buffer of size 4412935168\nllama_init_from_model: failed to initialize the context: failed to allocate buffer for kv cache\n", &rep);
    assert_int_equal(rep.primary, 0);
    assert_int_equal(rep.n_events, 1);
    assert_int_equal(rep.events[0].bytes.requested, 4412935168);
    oom_report_release(&rep);
}

static void test_kokkos_size(void **state)
{
    (void)state;
    struct oom_report rep;
    /* kokkos/kokkos:core/src/impl/Kokkos_Error.cpp: 4.657 * 2^30 */
    scan_log("terminate called after throwing an instance of 'Kokkos::Experimental::CudaRawMemoryAllocationFailure'\n"
         "  what():  Kokkos failed to allocate memory for label \"A\".  Allocation using MemorySpace named \"Cuda\" failed with the following error:  Allocation of size 4.657 G failed, likely due to insufficient memory.  (The allocation mechanism was cudaMalloc().  The Cuda allocation returned the error code \"cudaErrorMemoryAllocation\".)\n",
         &rep);
    assert_int_equal(rep.primary, 0);
    assert_int_equal(rep.events[0].bytes.requested, 5000415674);
    oom_report_release(&rep);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mindspore_scope),     cmocka_unit_test(test_openvino_nested),
        cmocka_unit_test(test_julia_stack),         cmocka_unit_test(test_paddle_memoryerror_head),
        cmocka_unit_test(test_directml_8007000e),   cmocka_unit_test(test_llamacpp_kv_cache),
        cmocka_unit_test(test_kokkos_size),         cmocka_unit_test(test_tf_rounded_wrapped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
