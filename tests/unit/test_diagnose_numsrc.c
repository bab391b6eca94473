/* diagnose's numbers from every framework's out-of-memory message, helper
 * diagnumsrc (issue 12): a message-format audit from the libraries' own
 * source. Each row is one format string (owner/repo:path@commit beside it)
 * filled with plausible values, with the lines the library prints around
 * it where its figures sit there, and every figure a labeller following
 * the corpus conventions gives it (tests/corpus/CONVENTIONS.md; heldout24
 * and heldout33's READMEs on byte figures and devices): units as the
 * library means them (Paddle's kB/MB/GB, MPS's KB/MB/GB, XLA's M/G and
 * Julia's GiB are all 1024-based), a TF request from shape x dtype, the
 * exact byte count where one is printed beside a rounded size, gpu from
 * 'GPU N', a TF device string or allocator name; allocator statistics
 * (BFC Limit/InUse) and TPU 'Used' figures unlabelled. No row was read
 * from a corpus log. `build/tests/test_diagnose_numsrc --table` prints
 * every row with what diagnose reads; `--paste N` prints row N. Rows after
 * the "set aside" marker were written after the fixes and scored once
 * (/work/notes/diagnumsrc.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "numsrc_audit.h"

/* tried total allocated free reserved gpu rank step */
#define W(t, c, a, f, r, g) {t, c, a, f, r, g, NA, NA}

static const struct num_row rows[] = {
    /* ---- TensorFlow: OpKernelContext::allocate_tensor's status, tensorflow/tensorflow:tensorflow/core/framework/op_kernel.cc@c8e5f669 ---- */
    {"tensorflow", "tensorflow/tensorflow:tensorflow/core/framework/op_kernel.cc@c8e5f669", "tensorflow", true,
     W(205520896, NA, NA, NA, NA, 0), /* 32*512*56*56 floats */
     "tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor with "
     "shape[32,512,56,56] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n"
     "\t [[{{node conv4_block1_1_conv/Conv2D}}]]\n", NULL},
    {"tensorflow", "tensorflow/tensorflow:tensorflow/core/framework/op_kernel.cc@c8e5f669", "tensorflow", true,
     W(268435456, NA, NA, NA, NA, 1), /* 8*16*1024*1024 halfs, TF2 eager [Op:...] */
     "tensorflow.python.framework.errors_impl.ResourceExhaustedError: {{function_node __wrapped__Softmax_device_/"
     "job:localhost/replica:0/task:0/device:GPU:1}} OOM when allocating tensor with shape[8,16,1024,1024] and type "
     "half on /job:localhost/replica:0/task:0/device:GPU:1 by allocator GPU_1_bfc [Op:Softmax]\n", NULL},
    /* ---- TensorFlow/XLA BFC allocator: tensorflow/tensorflow:third_party/xla/xla/tsl/framework/bfc_allocator.cc@52630724
     * (HumanReadableNumBytes: "%.2f" + K/M/G/T + "iB", 1024-based; "(rounded to N)" the exact bytes, since TF 1.14);
     * TF 1.x: tensorflow/tensorflow:tensorflow/core/common_runtime/bfc_allocator.cc@dc0b924e ---- */
    {"tf-bfc", "tensorflow/tensorflow:third_party/xla/xla/tsl/framework/bfc_allocator.cc@52630724", NULL, true,
     W(1258291200, NA, NA, NA, NA, 0),
     "2023-05-01 12:00:00.000001: W tensorflow/tsl/framework/bfc_allocator.cc:485] Allocator (GPU_0_bfc) ran out of "
     "memory trying to allocate 1.17GiB (rounded to 1258291200)requested by op model/conv2d_5/Conv2D\n"
     "If the cause is memory fragmentation maybe the environment variable 'TF_GPU_ALLOCATOR=cuda_malloc_async' will "
     "improve the situation. \n"
     "Current allocation summary follows.\n"
     "Current allocation summary follows.\n"
     "2023-05-01 12:00:00.000002: I tensorflow/tsl/framework/bfc_allocator.cc:1039] BFCAllocator dump for GPU_0_bfc\n"
     "2023-05-01 12:00:00.000003: I tensorflow/tsl/framework/bfc_allocator.cc:1095] Sum Total of in-use chunks: 9.80GiB\n"
     "2023-05-01 12:00:00.000004: I tensorflow/tsl/framework/bfc_allocator.cc:1097] total_region_allocated_bytes_: "
     "10990990132 memory_limit_: 10990990132 available bytes: 0 curr_region_allocation_bytes_: 21981980264\n"
     "2023-05-01 12:00:00.000005: I tensorflow/tsl/framework/bfc_allocator.cc:1103] Stats: \n"
     "Limit:                     10990990132\n"
     "InUse:                     10522916864\n"
     "MaxInUse:                  10731225088\n"
     "NumAllocs:                        2801\n"
     "MaxAllocSize:               1258291200\n"
     "Reserved:                            0\n"
     "PeakReserved:                        0\n"
     "LargestFreeBlock:                    0\n\n"
     "2023-05-01 12:00:00.000006: W tensorflow/tsl/framework/bfc_allocator.cc:497] "
     "****************************************************************************************************\n"
     "2023-05-01 12:00:00.000007: W tensorflow/core/framework/op_kernel.cc:1830] OP_REQUIRES failed at "
     "conv_ops.cc:1068 : RESOURCE_EXHAUSTED: OOM when allocating tensor with shape[128,64,160,240] and type float on "
     "/job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n", NULL},
    {"tf-bfc", "tensorflow/tensorflow:tensorflow/core/common_runtime/bfc_allocator.cc@dc0b924e", NULL, true,
     W(2147483648, NA, NA, NA, NA, 0), /* TF 1.x: no '(rounded to'; the shape below agrees */
     "2018-02-07 22:06:21.000001: W tensorflow/core/common_runtime/bfc_allocator.cc:273] Allocator (GPU_0_bfc) ran "
     "out of memory trying to allocate 2.00GiB.  Current allocation summary follows.\n"
     "2018-02-07 22:06:21.000002: I tensorflow/core/common_runtime/bfc_allocator.cc:627] Bin (256): \tTotal Chunks: "
     "42, Chunks in use: 42. 10.5KiB allocated for chunks. 10.5KiB in use in bin. 1.6KiB client-requested in use in "
     "bin.\n"
     "2018-02-07 22:06:21.000003: I tensorflow/core/common_runtime/bfc_allocator.cc:679] Sum Total of in-use chunks: "
     "9.54GiB\n"
     "2018-02-07 22:06:21.000004: I tensorflow/core/common_runtime/bfc_allocator.cc:681] Stats: \n"
     "Limit:                 10990990132\n"
     "InUse:                 10245746432\n"
     "MaxInUse:              10245746432\n"
     "NumAllocs:                    1044\n"
     "MaxAllocSize:           2147483648\n\n"
     "2018-02-07 22:06:21.000005: W tensorflow/core/common_runtime/bfc_allocator.cc:277] *****************_____\n"
     "2018-02-07 22:06:21.000006: W tensorflow/core/framework/op_kernel.cc:1198] Resource exhausted: OOM when "
     "allocating tensor with shape[16384,32768] and type float\n", NULL},
    {"tf-bfc", "tensorflow/tensorflow:third_party/xla/xla/tsl/framework/bfc_allocator.cc@52630724", NULL, true,
     W(629145600, NA, NA, NA, NA, 0), /* the dump above its warning: the BFC stats are unlabelled */
     "2023-05-01 12:00:00.000003: I tensorflow/tsl/framework/bfc_allocator.cc:1095] Sum Total of in-use chunks: 9.80GiB\n"
     "2023-05-01 12:00:00.000004: I tensorflow/tsl/framework/bfc_allocator.cc:1097] total_region_allocated_bytes_: "
     "10990990132 memory_limit_: 10990990132 available bytes: 0 curr_region_allocation_bytes_: 21981980264\n"
     "2023-05-01 12:00:00.000005: I tensorflow/tsl/framework/bfc_allocator.cc:1103] Stats: \n"
     "Limit:                     10990990132\nInUse:                     10522916864\n"
     "2023-05-01 12:00:00.000006: W tensorflow/tsl/framework/bfc_allocator.cc:497] Allocator (GPU_0_bfc) ran out of "
     "memory trying to allocate 600.00MiB (rounded to 629145600)requested by op Adam/update\n", NULL},
    /* ---- TF/XLA stream executor's device allocation: tensorflow/tensorflow:tensorflow/stream_executor/cuda/cuda_driver.cc@4ccbd3e9
     * (HumanReadableNumBytes then "(N bytes) from device: "; XLA's gpu_driver.cc prints "MiB") ---- */
    {"tf-stream-executor", "tensorflow/tensorflow:tensorflow/stream_executor/cuda/cuda_driver.cc@4ccbd3e9", NULL, true,
     W(11996954624, NA, NA, NA, NA, NA),
     "2018-06-08 15:45:24.469000: E tensorflow/stream_executor/cuda/cuda_driver.cc:936] failed to allocate 11.17G "
     "(11996954624 bytes) from device: CUDA_ERROR_OUT_OF_MEMORY\n", NULL},
    {"tf-stream-executor", "openxla/xla:xla/stream_executor/cuda/cuda_driver.cc (LOG(INFO) since 2023)", NULL, true,
     W(268435456, NA, NA, NA, NA, NA),
     "2024-03-14 08:08:53.663124: I external/local_xla/xla/stream_executor/cuda/cuda_driver.cc:1004] failed to "
     "allocate 256.00MiB (268435456 bytes) from device: CUDA_ERROR_OUT_OF_MEMORY: out of memory\n", NULL},
    /* ---- TF/XLA cuda_malloc_async allocator: tensorflow/tensorflow:tensorflow/core/common_runtime/gpu/gpu_cudamallocasync_allocator.cc@1ac4593b
     * (Name() is "gpu_async_" + the device id; raw byte counts) ---- */
    {"tf-cudamallocasync", "tensorflow/tensorflow:tensorflow/core/common_runtime/gpu/gpu_cudamallocasync_allocator.cc@1ac4593b", NULL, true,
     W(2147483648, 8589934592, NA, 1073741824, NA, 0),
     "2022-11-03 09:00:00.000001: E tensorflow/core/common_runtime/gpu/gpu_cudamallocasync_allocator.cc:288] "
     "gpu_async_0 cuMemAllocAsync failed to allocate 2147483648 bytes: CUDA error: out of memory "
     "(CUDA_ERROR_OUT_OF_MEMORY)\n"
     " Reported by CUDA: Free memory/Total memory: 1073741824/8589934592\n", NULL},
    /* ---- XLA/JAX runtime: jax-ml/jax (XlaRuntimeError) over openxla/xla's PJRT and BFC allocators; exact bytes, or
     * HumanReadableNumBytes since 2024 ("262.56GiB."); the glog 'Failed to allocate request for X (NB) on device ordinal N' ---- */
    {"jax", "openxla/xla:xla/pjrt/gpu/se_gpu_pjrt_client.cc@86188339", "jax", true,
     W(6727663616, NA, NA, NA, NA, NA),
     "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 6727663616 "
     "bytes.\n", NULL},
    {"jax", "openxla/xla:xla/pjrt/gpu/se_gpu_pjrt_client.cc@86188339", "jax", true,
     W(281921653309, NA, NA, NA, NA, NA),
     "jax.errors.JaxRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 262.56GiB.\n"
     "  [executable_name='jit_train_step']\n", NULL},
    {"jax", "openxla/xla:xla/tsl/framework/bfc_allocator.cc (BFC via the XLA client allocator)", "jax", true,
     W(6727663616, NA, NA, NA, NA, 0),
     "2024-01-10 10:00:00.000001: W external/xla/xla/service/gpu/gpu_executable.cc:642] Resource exhausted: Failed to "
     "allocate request for 6.27GiB (6727663616B) on device ordinal 0\n", NULL},
    {"jax", "openxla/xla:xla/pjrt/tracked_device_buffer.cc (PJRT's allocation status)", "jax", true,
     W(4294967296, NA, NA, NA, NA, NA),
     "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory allocating 4294967296 bytes.\n", NULL},
    /* ---- XLA TPU: openxla/xla:docs/errors/error_1000.md@49aac430, error_0100.md@87aa8d2e, error_0101.md@11903d43
     * (XLA's "G"/"M" sizes, 1024-based) ---- */
    {"xla-tpu", "openxla/xla:docs/errors/error_1000.md@49aac430", "jax", true,
     W(NA, 33554432000, NA, NA, NA, NA), /* 'of 31.25G hbm' the capacity; Used/Exceeded unlabelled */
     "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: XLA:TPU compile permanent error. Ran out of memory in "
     "memory space hbm. Used 55.24G of 31.25G hbm. Exceeded hbm capacity by 23.99G.\n\n"
     "Total hbm usage >= 55.49G:\n    reserved        260.00M \n    program          55.24G \n    arguments            0B \n",
     NULL},
    {"xla-tpu", "openxla/xla:docs/errors/error_0100.md@87aa8d2e", "jax", true,
     W(8388608, NA, NA, 6742344, NA, NA),
     "ValueError: RESOURCE_EXHAUSTED: Error allocating device buffer: Attempting to allocate 8.00M. That was not "
     "possible. There are 6.43M free.; (0x0x1_HBM0)\n", NULL},
    {"xla-tpu", "openxla/xla:docs/errors/error_0101.md@11903d43", "jax", true,
     W(31664646390, NA, NA, 154811761, NA, NA),
     "XlaRuntimeError: RESOURCE_EXHAUSTED: Error loading program 'jit_embedding_pipeline_step_fn': Attempting to "
     "reserve 29.49G at the bottom of memory. That was not possible. There are 147.64M free, 0B reserved, and "
     "147.64M reservable. Scope: unknown..: while running replica 0 and partition 34 of a replicated computation "
     "(other replicas may have failed as well).\n", NULL},
    /* ---- PaddlePaddle: PaddlePaddle/Paddle:paddle/phi/core/memory/allocation/cuda_allocator.cc@61a4b083 and
     * cuda_virtual_mem_allocator.cc@2c3ba4b2 (HumanReadableSize: "%f" + B/kB/MB/GB, 1024-based) ---- */
    {"paddle", "PaddlePaddle/Paddle:paddle/phi/core/memory/allocation/cuda_allocator.cc@61a4b083", "paddle", true,
     W(1342177280, NA, 15634792280, 537329664, NA, 0),
     "ResourceExhaustedError: \n\n"
     "Out of memory error on GPU 0. Cannot allocate 1.250000GB memory on GPU 0, 14.561035GB memory has been allocated "
     "and available memory is only 512.437500MB.\n\n"
     "Please check whether there is any other process using GPU 0.\n"
     "1. If yes, please stop them, or start PaddlePaddle on another GPU.\n"
     "2. If no, please decrease the batch size of your model. \n"
     " (at /paddle/paddle/fluid/memory/allocation/cuda_allocator.cc:86)\n", NULL},
    {"paddle", "PaddlePaddle/Paddle:paddle/phi/core/memory/allocation/cuda_allocator.cc@61a4b083 (2.0's form)", "paddle", true,
     W(2147483648, NA, NA, 1610612736, NA, 3),
     "  File \"/usr/local/lib/python3.7/dist-packages/paddle/fluid/executor.py\", line 1110, in _run_impl\n"
     "    return_merged=return_merged)\n"
     "SystemError: (ResourceExhausted) \n\n"
     "Out of memory error on GPU 3. Cannot allocate 2.000000GB memory on GPU 3, available memory is only 1.500000GB.\n\n"
     "Please check whether there is any other process using GPU 3.\n", NULL},
    {"paddle", "PaddlePaddle/Paddle:paddle/phi/core/memory/allocation/cuda_allocator.cc@61a4b083 (kB)", "paddle", true,
     W(524288, NA, 16106127360, 0, NA, 1),
     "MemoryError: \n\n--------------------------------------\nC++ Traceback (most recent call last):\n"
     "--------------------------------------\n0   paddle::memory::allocation::CUDAAllocator::AllocateImpl(unsigned long)\n\n"
     "----------------------\nError Message Summary:\n----------------------\n"
     "ResourceExhaustedError: \n\nOut of memory error on GPU 1. Cannot allocate 512.000000kB memory on GPU 1, "
     "15.000000GB memory has been allocated and available memory is only 0.000000B.\n", NULL},
    /* ---- MindSpore: mindspore-ai/mindspore:mindspore/ccsrc/common/mem_reuse/mem_dynamic_allocator.cc (bytes) ---- */
    {"mindspore", "mindspore-ai/mindspore:mindspore/ccsrc/common/mem_reuse/mem_dynamic_allocator.cc", "mindspore", true,
     W(4294967296, 34359738368, 30064771072, NA, NA, NA),
     "[ERROR] PRE_ACT(12345,7f0000000000,python):2024-05-01-10:00:00.000.001 [mindspore/ccsrc/common/mem_reuse/"
     "mem_dynamic_allocator.cc:211] CalMemBlockAllocSize] Memory not enough: current free memory size[0] is smaller "
     "than required size[4294967296].\n"
     "[ERROR] DEVICE(12345,7f0000000000,python):2024-05-01-10:00:00.000.002 [mindspore/ccsrc/plugin/device/ascend/"
     "hal/device/ascend_memory_pool.cc:100] TotalUsedMemStatistics : 30064771072 plus TotalUsedByEventMemStatistics "
     ": 0 and plus alloc size : 4294967296 is more than total mem size : 34359738368.\n", NULL},
    {"mindspore", "mindspore-ai/mindspore:mindspore/ccsrc/runtime/graph_scheduler/actor/memory_manager_actor.cc", "mindspore", true,
     W(1073741824, NA, NA, NA, NA, 0),
     "RuntimeError: Device(id:0) memory isn't enough and alloc failed, kernel name: Default/network-WithLossCell/"
     "_backbone-ResNet/conv1-Conv2d/Conv2D-op1, alloc size: 1073741824B.\n", NULL},
    /* ---- MXNet: apache/mxnet:src/storage/pooled_storage_manager.h@b84609d3 (no figures) ---- */
    {"mxnet", "apache/mxnet:src/storage/pooled_storage_manager.h@b84609d3", "cuda-error", true,
     W(NA, NA, NA, NA, NA, NA),
     "mxnet.base.MXNetError: [10:12:10] src/storage/./pooled_storage_manager.h:212: Memory allocation failed out of "
     "memory\n", NULL},
    /* ---- ONNX Runtime: microsoft/onnxruntime:onnxruntime/core/framework/bfc_arena.cc@b57f3888, the CUDA provider's
     * CudaCall 'CUDA failure 2: out of memory ; GPU=N ; ...' (onnxruntime/core/providers/cuda/cuda_call.cc) ---- */
    {"onnxruntime", "microsoft/onnxruntime:onnxruntime/core/framework/bfc_arena.cc@b57f3888", "onnxruntime", true,
     W(2147483648, NA, NA, NA, NA, NA),
     "2024-02-01 10:00:00.000 [E:onnxruntime:, sequential_executor.cc:516 ExecuteKernel] Non-zero status code returned "
     "while running Conv node. Name:'/backbone/Conv_12' Status Message: /onnxruntime_src/onnxruntime/core/framework/"
     "bfc_arena.cc:376 void* onnxruntime::BFCArena::AllocateRawInternal(size_t, bool, onnxruntime::Stream*, bool, "
     "onnxruntime::WaitNotificationFn) Failed to allocate memory for requested buffer of size 2147483648\n", NULL},
    {"onnxruntime", "microsoft/onnxruntime:onnxruntime/core/providers/cuda/cuda_call.cc", NULL, true,
     W(NA, NA, NA, NA, NA, 2),
     "onnxruntime.capi.onnxruntime_pybind11_state.RuntimeException: [ONNXRuntimeError] : 6 : RUNTIME_EXCEPTION : "
     "Exception during initialization: /onnxruntime_src/onnxruntime/core/providers/cuda/cuda_call.cc:121 "
     "std::conditional_t<THRW, void, onnxruntime::common::Status> onnxruntime::CudaCall(ERRTYPE, const char*, const "
     "char*, ERRTYPE, const char*, const char*, int) [with ERRTYPE = cudaError; bool THRW = true] CUDA failure 2: out "
     "of memory ; GPU=2 ; hostname=worker-1 ; file=/onnxruntime_src/onnxruntime/core/providers/cuda/"
     "cuda_allocator.cc ; line=47 ; expr=cudaMalloc((void**)&p, size);\n", NULL},
    {"onnxruntime", "microsoft/onnxruntime:onnxruntime/core/framework/bfc_arena.cc@b57f3888 (the arena at its cap)", "onnxruntime", true,
     W(1048576, NA, NA, NA, NA, NA),
     "Status Message: /onnxruntime_src/onnxruntime/core/framework/bfc_arena.cc:342 void* onnxruntime::BFCArena::"
     "AllocateRawInternal(size_t, bool, onnxruntime::Stream*, bool, onnxruntime::WaitNotificationFn) Available memory "
     "of 0 is smaller than requested bytes of 1048576\n", NULL},
    /* ---- TensorRT: the runtime's and builder's allocator messages (closed source; wording as NVIDIA's logger prints
     * it, docs.nvidia.com TensorRT API 'IGpuAllocator') ---- */
    {"tensorrt", "NVIDIA TensorRT runtime (defaultAllocator.cpp, closed source)", NULL, true,
     W(17179869184, NA, NA, NA, NA, NA),
     "[01/10/2024-10:00:00] [TRT] [E] 1: [defaultAllocator.cpp::allocate::20] Error Code 1: Cuda Runtime (out of "
     "memory)\n"
     "[01/10/2024-10:00:00] [TRT] [W] Requested amount of GPU memory (17179869184 bytes) could not be allocated. "
     "There may not be enough free memory for allocation to succeed.\n"
     "[01/10/2024-10:00:00] [TRT] [E] 2: [executionContext.cpp::ExecutionContext::410] Error Code 2: OutOfMemory (no "
     "further information)\n", NULL},
    /* ---- llama.cpp/ggml: ggml-org/llama.cpp:ggml/src/ggml-cuda/ggml-cuda.cu ("%s: allocating %.2f MiB on device %d:
     * cudaMalloc failed: %s"), ggml/src/ggml-alloc.c ("%s: failed to allocate %s buffer of size %zu") ---- */
    {"ggml", "ggml-org/llama.cpp:ggml/src/ggml-cuda/ggml-cuda.cu, ggml/src/ggml-alloc.c", "ggml", true,
     W(5368709120, NA, NA, NA, NA, 0),
     "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 5120.00 MiB on device 0: cudaMalloc failed: out of memory\n"
     "alloc_tensor_range: failed to allocate CUDA0 buffer of size 5368709120\n"
     "llama_model_load: error loading model: unable to allocate CUDA0 buffer\n", NULL},
    {"ggml", "ggml-org/llama.cpp:ggml/src/ggml-alloc.c (the compute graph's buffer)", "ggml", true,
     W(1623195648, NA, NA, NA, NA, 1),
     "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 1548.00 MiB on device 1: cudaMalloc failed: out of memory\n"
     "ggml_gallocr_reserve_n: failed to allocate CUDA1 buffer of size 1623195648\n"
     "llama_init_from_model: failed to allocate compute buffers\n", NULL},
    {"ggml", "ggml-org/llama.cpp:ggml/src/ggml-vulkan/ggml-vulkan.cpp ('Device memory allocation of size N failed.')", NULL, true,
     W(4294967296, NA, NA, NA, NA, NA),
     "ggml_vulkan: Device memory allocation of size 4294967296 failed.\n"
     "ggml_vulkan: Requested buffer size exceeds device memory allocation limit: ErrorOutOfDeviceMemory\n", NULL},
    /* ---- CuPy/Chainer: cupy/cupy:cupy/cuda/memory.pyx@6b6d9563 (OutOfMemoryError: '{:,}' thousands separators; the old
     * 'out of memory to allocate N bytes (total M bytes)' form before 42e475eb) ---- */
    {"cupy", "cupy/cupy:cupy/cuda/memory.pyx@6b6d9563", "cupy", true,
     W(1073741824, NA, 15032385536, NA, NA, NA),
     "cupy.cuda.memory.OutOfMemoryError: Out of memory allocating 1,073,741,824 bytes (allocated so far: "
     "15,032,385,536 bytes).\n", NULL},
    {"cupy", "cupy/cupy:cupy/cuda/memory.pyx@6b6d9563 (with a pool limit)", "cupy", true,
     W(536870912, NA, 3758096384, NA, NA, NA),
     "cupy.cuda.memory.OutOfMemoryError: Out of memory allocating 536,870,912 bytes (allocated so far: 3,758,096,384 "
     "bytes, limit set to: 4,294,967,296 bytes).\n", NULL},
    {"chainer", "cupy/cupy:cupy/cuda/memory.pyx@42e475eb^ (the old form)", "cupy", true,
     W(8388608, NA, NA, NA, NA, NA),
     "cupy.cuda.memory.OutOfMemoryError: out of memory to allocate 8388608 bytes (total 12000000000 bytes)\n", NULL},
    /* ---- Julia CUDA.jl: JuliaGPU/CUDA.jl:CUDACore/src/memory.jl@fd1008df (Base.format_bytes: "%.3f" + KiB/MiB/GiB) ---- */
    {"julia", "JuliaGPU/CUDA.jl:CUDACore/src/memory.jl@fd1008df", "julia", true,
     W(12800076284, 16945793466, 14399951602, NA, 16407848813, NA),
     "ERROR: LoadError: Out of GPU memory trying to allocate 11.921 GiB\n"
     "Effective GPU memory usage: 99.85% (15.758 GiB/15.782 GiB)\n"
     "Memory pool usage: 13.411 GiB (15.281 GiB reserved)\n"
     "Stacktrace:\n  [1] throw_api_error(res::CUDA.cudaError_enum)\n", NULL},
    {"julia", "JuliaGPU/CUDA.jl:src/pool.jl@c3dbe3ba (2021: 'CUDA allocator usage', '(A allocated, C cached)')", "julia", true,
     W(16388521460, 12652973654, 1027936879, NA, NA, NA),
     "ERROR: Out of GPU memory trying to allocate 15.263 GiB\n"
     "Effective GPU memory usage: 11.12% (1.311 GiB/11.784 GiB)\n"
     "CUDA allocator usage: 980.317 MiB\n"
     "Memory pool usage: 980.317 MiB (980.317 MiB allocated, 0 bytes cached)\n", NULL},
    /* ---- DL4J/ND4J: deeplearning4j/deeplearning4j:libnd4j (CUDA memory manager 'Failed to allocate N bytes from DEVICE [G] memory') ---- */
    {"nd4j", "deeplearning4j/deeplearning4j:libnd4j/include/memory/cuda/Workspace.cu", "nd4j", true,
     W(4294967296, NA, NA, NA, NA, 0),
     "Exception in thread \"main\" java.lang.RuntimeException: Failed to allocate 4294967296 bytes from DEVICE [0] "
     "memory\n\tat org.nd4j.jita.memory.CudaMemoryManager.allocate(CudaMemoryManager.java:76)\n", NULL},
    /* ---- PyTorch MPS: pytorch/pytorch:aten/src/ATen/mps/MPSAllocator.mm@57ba4129 (format_size: KB/MB/GB 1024-based,
     * GiB since the c10 format_size) ---- */
    {"mps", "pytorch/pytorch:aten/src/ATen/mps/MPSAllocator.mm@57ba4129", "pytorch-mps", true,
     W(754974720, NA, 3339337073, NA, NA, NA),
     "RuntimeError: MPS backend out of memory (MPS allocated: 3.11 GB, other allocations: 5.42 GB, max allowed: 9.07 "
     "GB). Tried to allocate 720.00 MB on private pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable upper "
     "limit for memory allocations (may cause system failure).\n", NULL},
    {"mps", "pytorch/pytorch:aten/src/ATen/mps/MPSAllocator.mm@57ba4129 (GiB)", "pytorch-mps", true,
     W(3715146711, NA, 8375186227, NA, NA, NA),
     "torch.OutOfMemoryError: MPS backend out of memory (MPS allocated: 7.80 GiB, other allocations: 6.94 GiB, max "
     "allowed: 18.13 GiB). Tried to allocate 3.46 GiB on private pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to "
     "disable upper limit for memory allocations (may cause system failure).\n", NULL},
    {"mps", "pytorch/pytorch:aten/src/ATen/mps/MPSAllocator.mm@57ba4129 (KB)", "pytorch-mps", true,
     W(262144, NA, 19155554140, NA, NA, NA),
     "RuntimeError: MPS backend out of memory (MPS allocated: 17.84 GB, other allocations: 288.00 MB, max allowed: "
     "18.13 GB). Tried to allocate 256.00 KB on shared pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable "
     "upper limit for memory allocations (may cause system failure).\n", NULL},
    /* ---- Intel XPU: intel/intel-extension-for-pytorch (the old form), pytorch/pytorch:c10/xpu/XPUCachingAllocator.cpp@1e545826 ---- */
    {"xpu-ipex", "intel/intel-extension-for-pytorch:csrc/gpu/runtime/CachingDeviceAllocator.cpp", NULL, true,
     W(2147483648, 16707422781, 12992276070, NA, 14925011354, 0),
     "RuntimeError: XPU out of memory. Tried to allocate 2.00 GiB (GPU 0; 15.56 GiB total capacity; 12.10 GiB already "
     "allocated; 13.90 GiB reserved in total by PyTorch)\n", NULL},
    {"xpu", "pytorch/pytorch:c10/xpu/XPUCachingAllocator.cpp@1e545826 (torch 2.5: no free figure)", "pytorch-new", true,
     W(2147483648, 16707422781, 12992276070, NA, 367001600, 0),
     "torch.OutOfMemoryError: XPU out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 15.56 GiB. "
     "Of the allocated memory 12.10 GiB is allocated by PyTorch, and 350.00 MiB is reserved by PyTorch but "
     "unallocated. Please use `empty_cache` to release all unoccupied cached memory.\n", NULL},
    {"xpu", "pytorch/pytorch:c10/xpu/XPUCachingAllocator.cpp@1e545826 (torch 2.7+: of which X is free)", "pytorch-new", true,
     W(2147483648, 16707422781, 12992276070, 1095216660, 367001600, 0),
     "torch.OutOfMemoryError: XPU out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 15.56 GiB of "
     "which 1.02 GiB is free. Of the allocated memory 12.10 GiB is allocated by PyTorch, and 350.00 MiB is reserved by "
     "PyTorch but unallocated. Please use `empty_cache` to release all unoccupied cached memory.\n", NULL},
    /* ---- PyTorch's cudaMallocAsync backend: pytorch/pytorch:c10/cuda/CUDAMallocAsyncAllocator.cpp (format_size; the limit line wraps) ---- */
    {"pytorch-async", "pytorch/pytorch:c10/cuda/CUDAMallocAsyncAllocator.cpp", "pytorch-async", true,
     W(1073741824, 8589934592, 8085275935, 0, NA, 0),
     "torch.OutOfMemoryError: Allocation on device 0 would exceed allowed memory. (out of memory)\n"
     "Currently allocated     : 7.53 GiB\n"
     "Requested               : 1.00 GiB\n"
     "Device limit            : 8.00 GiB\n"
     "Free (according to CUDA): 0 bytes\n"
     "PyTorch limit (set by user-supplied memory fraction)\n"
     "                        : 17179869184.00 GiB\n", NULL},
    /* ---- numba: numba/numba:numba/cuda/cudadrv/driver.py (CudaAPIError [2] ... CUDA_ERROR_OUT_OF_MEMORY; no figures) ---- */
    {"numba", "numba/numba:numba/cuda/cudadrv/driver.py", NULL, true,
     W(NA, NA, NA, NA, NA, NA),
     "numba.cuda.cudadrv.driver.CudaAPIError: [2] Call to cuMemAlloc results in CUDA_ERROR_OUT_OF_MEMORY\n", NULL},
    /* ---- RAPIDS RMM: rapidsai/rmm:cpp/include/rmm/detail/error.hpp@5d50a37b ('RMM failure at:' / 'CUDA error at:'; no figures) ---- */
    {"rmm", "rapidsai/rmm:cpp/include/rmm/detail/error.hpp@5d50a37b", "rmm", true,
     W(NA, NA, NA, NA, NA, NA),
     "MemoryError: std::bad_alloc: out_of_memory: RMM failure at:/opt/conda/include/rmm/mr/device/"
     "pool_memory_resource.hpp:196: Maximum pool size exceeded\n", NULL},
    /* ---- MLX: ml-explore/mlx:mlx/backend/metal/allocator.cpp ('[metal::malloc] Attempting to allocate N bytes which is
     * greater than the maximum allowed buffer size of M bytes.') ---- */
    {"mlx", "ml-explore/mlx:mlx/backend/metal/allocator.cpp", "metal", true,
     W(137438953472, NA, NA, NA, NA, NA),
     "RuntimeError: [metal::malloc] Attempting to allocate 137438953472 bytes which is greater than the maximum allowed "
     "buffer size of 77309411328 bytes.\n", NULL},
    /* ---- Triton kernels' shared memory: triton-lang/triton:python/triton/runtime/errors.py (OutOfResources:
     * 'out of resource: shared memory, Required: N, Hardware limit: M'), a look-alike: no GPU memory figure ---- */
    {"triton", "triton-lang/triton:python/triton/runtime/errors.py", NULL, false,
     W(NA, NA, NA, NA, NA, NA),
     "triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 131072, Hardware limit: 101376. "
     "Reducing block sizes or `num_stages` may help.\n", NULL},
    /* ---- ArrayFire/flashlight: flashlight/flashlight:flashlight/fl/memory/managers/CachingMemoryManager.cpp ---- */
    {"flashlight", "flashlight/flashlight:flashlight/fl/memory/managers/CachingMemoryManager.cpp", "arrayfire", true,
     W(1363652116, 34080565494, 32190779884, NA, 1042662031, 1),
     "terminate called after throwing an instance of 'std::runtime_error'\n"
     "  what():  Failed to allocate memory of size 1.27 GiB (Device: 1, Capacity: 31.74 GiB, Allocated: 29.98 GiB, "
     "Cached: 994.36 MiB) with error 'ArrayFire Exception (Device out of memory:101):\n", NULL},
    /* ---- NCCL: NVIDIA/nccl:src/include/alloc.h ('Failed to CUDA calloc %ld bytes'), a rank prefix from torch ---- */
    {"nccl", "NVIDIA/nccl:src/include/alloc.h", "nccl-oom", true,
     {6291456, NA, NA, NA, NA, NA, 3, NA},
     "[rank3]: node-1:4123:4187 [3] include/alloc.h:125 NCCL WARN Failed to CUDA calloc 6291456 bytes\n"
     "[rank3]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, "
     "unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.18.1\n"
     "[rank3]: Last error:\n[rank3]: Failed to CUDA calloc 6291456 bytes\n", NULL},
    /* ---- variants of the formats above, each from its source ---- */
    {"tensorflow", "tensorflow/tensorflow:tensorflow/core/framework/op_kernel.cc@c8e5f669 (TF 2.x graph mode: 'Graph execution error')", "tensorflow", true,
     W(17179869184, NA, NA, NA, NA, 0),
     "tensorflow.python.framework.errors_impl.ResourceExhaustedError: Graph execution error:\n\n"
     "Detected at node 'model/dense/MatMul' defined at (most recent call last):\n"
     "    File \"train.py\", line 10, in <module>\n"
     "Node: 'model/dense/MatMul'\n"
     "OOM when allocating tensor with shape[65536,65536] and type float on /job:localhost/replica:0/task:0/device:GPU:0 "
     "by allocator GPU_0_bfc\n\t [[{{node model/dense/MatMul}}]]\n"
     "Hint: If you want to see a list of allocated tensors when OOM happens, add report_tensor_allocations_upon_oom to "
     "RunOptions for current allocation info. This isn't available when running in Eager mode.\n"
     " [Op:__inference_train_function_1234]\n", NULL},
    {"tensorflow", "tensorflow/tensorflow:tensorflow/core/framework/op_kernel.cc@c8e5f669 (int64 = 8 bytes)", "tensorflow", true,
     W(536870912, NA, NA, NA, NA, 0),
     "tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor with "
     "shape[1024,1024,64] and type int64 on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc "
     "[Op:Range]\n", NULL},
    {"tensorflow", "tensorflow/tensorflow:tensorflow/core/framework/op_kernel.cc@c8e5f669 (2 root errors, TF 1.15/2.x)", "tensorflow", true,
     W(411041792, NA, NA, NA, NA, 0),
     "tensorflow.python.framework.errors_impl.ResourceExhaustedError: 2 root error(s) found.\n"
     "  (0) Resource exhausted:  OOM when allocating tensor with shape[64,128,112,112] and type float on "
     "/job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n"
     "\t [[{{node conv2d_1/Conv2D}}]]\n"
     "Hint: If you want to see a list of allocated tensors when OOM happens, add report_tensor_allocations_upon_oom to "
     "RunOptions for current allocation info.\n\n", NULL},
    {"jax", "openxla/xla:xla/service/buffer_assignment.cc (BufferAssignment stats under the error: no request)", "jax", true,
     W(17179869184, NA, NA, NA, NA, NA),
     "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 17179869184 "
     "bytes.\nBufferAssignment OOM Debugging.\nBufferAssignment stats:\n"
     "             parameter allocation:    1.00GiB\n              constant allocation:         0B\n"
     "        maybe_live_out allocation:    2.00GiB\n     preallocated temp allocation:   16.00GiB\n"
     "                 total allocation:   19.00GiB\nPeak buffers:\n\tBuffer 1:\n\t\tSize: 8.00GiB\n"
     "\t\tOperator: op_name=\"jit(train_step)/dot_general\"\n\t\tXLA Label: fusion\n\t\tShape: f32[65536,32768]\n", NULL},
    {"paddle", "PaddlePaddle/Paddle:paddle/fluid/platform/enforce.h (1.5's PADDLE_ENFORCE_LE: 'Enforce failed. Expected A <= B, but received A:x > B:y.') over gpu_info.cc's 'Insufficient GPU memory to allocation.'", "paddle", true,
     W(2147483648, NA, NA, 1073741824, NA, NA),
     "paddle.fluid.core_avx.EnforceNotMet: \n\n"
     "--------------------------------------------\nC++ Call Stacks (More useful to developers):\n"
     "--------------------------------------------\n"
     "0   std::string paddle::platform::GetTraceBackString<char const*>(char const*&&, char const*, int)\n\n"
     "----------------------\nError Message Summary:\n----------------------\n"
     "Error: Enforce failed. Expected allocating <= available, but received allocating:2147483648 > "
     "available:1073741824.\nInsufficient GPU memory to allocation. at [/paddle/paddle/fluid/platform/gpu_info.cc:262]\n",
     NULL},
    {"onnxruntime", "microsoft/onnxruntime:onnxruntime/core/framework/bfc_arena.cc (raw bytes, no unit)", "onnxruntime", true,
     W(4294967296, NA, NA, NA, NA, NA),
     "2023-01-01 00:00:00.000 [E:onnxruntime:, bfc_arena.cc:330 AllocateRawInternal] BFC Arena ran out of memory "
     "trying to allocate 4294967296.  Current allocation summary follows.\n", NULL},
    {"ggml-sycl", "ggml-org/llama.cpp:ggml/src/ggml-sycl/ggml-sycl.cpp, docs/backend/SYCL.md", NULL, true,
     W(3503030272, NA, NA, NA, NA, NA),
     "ggml_backend_sycl_buffer_type_alloc_buffer: can't allocate 3503030272 Bytes of memory on device\n"
     "ggml_gallocr_reserve_n: failed to allocate SYCL0 buffer of size 3503030272\n", NULL},
    {"ggml-sycl", "ggml-org/llama.cpp:ggml/src/ggml-sycl/ggml-sycl.cpp (2024: 'can't malloc N Bytes memory on device')", NULL, true,
     W(3278637056, NA, NA, NA, NA, NA),
     "llama_new_context_with_model:  SYCL_Host  output buffer size =    27.82 MiB\n"
     "ggml_backend_sycl_buffer_type_alloc_buffer: can't malloc 3278637056 Bytes memory on device\n", NULL},
    {"ggml", "ggml-org/llama.cpp:ggml/src/ggml-cuda/ggml-cuda.cu (ggml_cuda_error: 'current device: N')", "cuda-error", true,
     W(NA, NA, NA, NA, NA, NA),
     "CUDA error: out of memory\n  current device: 1, in function alloc at /llama.cpp/ggml/src/ggml-cuda/ggml-cuda.cu:377\n"
     "  cuMemCreate(&handle, reserve_size, &prop, 0)\n", NULL},
    {"cupy", "cupy/cupy:cupy/cuda/memory.pyx@6b6d9563 (a pool that held nothing: 0 bytes)", "cupy", true,
     W(1073741824, NA, 0, NA, NA, NA),
     "cupy.cuda.memory.OutOfMemoryError: Out of memory allocating 1,073,741,824 bytes (allocated so far: 0 bytes).\n", NULL},
    {"cupy", "cupy/cupy:cupy/cuda/memory.pyx@6b6d9563 (total unknown: no parenthesis)", "cupy", true,
     W(512, NA, NA, NA, NA, NA),
     "cupy.cuda.memory.OutOfMemoryError: Out of memory allocating 512 bytes\n", NULL},
    {"julia", "JuliaGPU/CUDA.jl:CUDACore/src/memory.jl@fd1008df (no size: 'Out of GPU memory')", "julia", true,
     W(NA, 25397215363, 0, NA, 23488102400, NA),
     "ERROR: Out of GPU memory\nEffective GPU memory usage: 100.00% (23.653 GiB/23.653 GiB)\n"
     "Memory pool usage: 0 bytes (21.875 GiB reserved)\n", NULL},
    {"mps", "pytorch/pytorch:aten/src/ATen/mps/MPSAllocator.mm@57ba4129 (format_size: <= 1024 as ' bytes')", "pytorch-mps", true,
     W(256, NA, 1825361101, NA, NA, NA),
     "RuntimeError: MPS backend out of memory (MPS allocated: 1.70 GB, other allocations: 7.85 GB, max allowed: 9.07 "
     "GB). Tried to allocate 256 bytes on shared pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable upper limit "
     "for memory allocations (may cause system failure).\n", NULL},
    {"hip", "pytorch/pytorch:c10/cuda/CUDACachingAllocator.cpp (HIPified; the old form with '0 bytes free')", "pytorch-old", true,
     W(20971520, 17158394348, 16750372454, 0, 16900696310, 0),
     "RuntimeError: HIP out of memory. Tried to allocate 20.00 MiB (GPU 0; 15.98 GiB total capacity; 15.60 GiB already "
     "allocated; 0 bytes free; 15.74 GiB reserved in total by PyTorch)\n", NULL},
    {"nccl", "NVIDIA/nccl:src/include/alloc.h@5067397c (ncclCudaMalloc: 'Failed to CUDA malloc %ld bytes')", NULL, true,
     W(2097152, NA, NA, NA, NA, NA),
     "node-1:4123:4187 [0] include/alloc.h:462 NCCL WARN Failed to CUDA malloc 2097152 bytes\n", NULL},
    {"nccl", "NVIDIA/nccl:src/include/alloc.h@5067397c (ncclCudaCallocAsync: 'Failed to CUDA calloc async %ld bytes')", "nccl-oom", true,
     W(4194304, NA, NA, NA, NA, NA),
     "node-1:4123:4187 [0] include/alloc.h:520 NCCL WARN Failed to CUDA calloc async 4194304 bytes\n", NULL},
    {"mlx", "ml-explore/mlx:mlx/backend/metal/allocator.cpp@846d1762 ('[malloc] Unable to allocate N bytes.')", NULL, true,
     W(34359738368, NA, NA, NA, NA, NA),
     "libc++abi: terminating due to uncaught exception of type std::runtime_error: [malloc] Unable to allocate "
     "34359738368 bytes.\n", NULL},
    {"mlx", "ml-explore/mlx:mlx/backend/cuda/allocator.cpp@846d1762 (the CUDA backend, same words)", NULL, true,
     W(8589934592, NA, NA, NA, NA, NA),
     "RuntimeError: [malloc] Unable to allocate 8589934592 bytes.\n", NULL},
    /* ---- audit round 2: formats found after the first fixes, scored before their own fixes (base dde05b75) ---- */
    {"julia", "JuliaGPU/CUDA.jl:src/pool.jl@7f8aae98 (2020-21: 'binned usage: X (A allocated, C cached)')", "julia", true,
     W(2047625658, 8450348155, 7852273959, NA, NA, NA),
     "ERROR: Out of GPU memory trying to allocate 1.907 GiB\n"
     "Effective GPU memory usage: 96.19% (7.570 GiB/7.870 GiB)\n"
     "CUDA allocator usage: 7.313 GiB\n"
     "binned usage: 7.313 GiB (7.313 GiB allocated, 0 bytes cached)\n", NULL},
    {"julia", "JuliaGPU/CUDA.jl:src/pool.jl@c3dbe3ba ('Memory pool usage: X (A allocated, C cached)': X = A + C)", "julia", true,
     W(16388521460, 12652973654, 1027936879, NA, NA, NA),
     "ERROR: Out of GPU memory trying to allocate 15.263 GiB\n"
     "Effective GPU memory usage: 11.12% (1.311 GiB/11.784 GiB)\n"
     "CUDA allocator usage: 980.317 MiB\n"
     "Memory pool usage: 1.957 GiB (980.317 MiB allocated, 1.000 GiB cached)\n", NULL},
    {"theano", "Theano/Theano:theano/sandbox/cuda/cuda_ndarray.cu (device_malloc: the driver's report)", "theano", true,
     W(402653184, 4294770688, NA, 184459264, NA, NA),
     "MemoryError: Error allocating 402653184 bytes of device memory (out of memory). Driver report 184459264 bytes "
     "free and 4294770688 bytes total \n"
     "Apply node that caused the error: GpuElemwise{add,no_inplace}(GpuDot22.0, GpuDimShuffle{x,0}.0)\n", NULL},
    {"theano", "Theano/Theano:theano/sandbox/cuda/cuda_ndarray.cu (with CNMeM)", "theano", true,
     W(1073741824, NA, NA, NA, NA, NA),
     "MemoryError: Error allocating 1073741824 bytes of device memory (CNMEM_STATUS_OUT_OF_MEMORY).\n", NULL},
    {"faiss", "facebookresearch/faiss:faiss/gpu/StandardGpuResources.cpp (allocMemory, AllocRequest::toString)", "faiss", true,
     W(4513349632, NA, NA, NA, NA, NA),
     "RuntimeError: Error in virtual void* faiss::gpu::StandardGpuResourcesImpl::allocMemory(const "
     "faiss::gpu::AllocRequest&) at /project/faiss/faiss/gpu/StandardGpuResources.cpp:452: Error: 'err == "
     "cudaSuccess' failed: StandardGpuResources: alloc fail type TemporaryMemoryOverflow dev 0 space Device stream "
     "0x7effcc5f47a0 size 4513349632 bytes (cudaMalloc error out of memory [2])\n", NULL},
    {"xgboost", "dmlc/xgboost:src/common/device_helpers.cuh (ThrowOOMError: raw bytes, before HumanMemUnit)", NULL, true,
     W(4294967296, NA, NA, 1073741824, NA, NA),
     "xgboost.core.XGBoostError: [10:00:00] /workspace/src/c_api/../data/../common/device_helpers.cuh:428: Memory "
     "allocation error on worker 0: std::bad_alloc: cudaErrorMemoryAllocation: out of memory\n"
     "- Free memory: 1073741824\n- Requested memory: 4294967296\n", NULL},
    {"xgboost", "dmlc/xgboost:src/common/device_helpers.cu (HumanMemUnit: GB/MB/KB 1024-based)", NULL, true,
     W(1610612736, NA, NA, 536870912, NA, NA),
     "xgboost.core.XGBoostError: [10:00:00] /workspace/src/common/device_helpers.cu:44: Memory allocation error on "
     "worker 0: std::bad_alloc: cudaErrorMemoryAllocation: out of memory\n"
     "- Free memory: 512MB\n- Requested memory: 1.5GB\n", NULL},
    /* ---- audit round 3: found after round 2's fixes, scored before their own fixes ---- */
    {"kaldi", "kaldi-asr/kaldi:src/cudamatrix/cu-allocator.cc (AllocateNewRegion) and cu-device.cc (mem info: free/used/total in M = 2^20, truncated)", "kaldi", true,
     W(82837504, 11717836800, NA, 15728640, NA, NA),
     "ERROR (nnet3-chain-train[5.5.313~1-203c]:AllocateNewRegion():cu-allocator.cc:519) Failed to allocate a memory "
     "region of 82837504 bytes.  Possibly this is due to sharing the GPU.  Try switching the GPUs to exclusive mode "
     "(nvidia-smi -c 3) and using the option --use-gpu=wait to scripts like steps/nnet3/chain/train.py.  Memory info: "
     "free:15M, used:11160M, total:11175M, free/total:0.00138696 CUDA error: 'out of memory'\n", NULL},
    {"relion", "3dem/relion:src/acc/cuda/custom_allocator.cuh (raiseOutOfMemoryError)", "relion", true,
     W(1672740864, NA, NA, 1577153024, NA, NA),
     "ERROR: CudaCustomAllocator out of memory\n"
     " [requestedSpace:             1672740864 B]\n"
     " [largestContinuousFreeSpace: 1409897472 B]\n"
     " [totalFreeSpace:             1577153024 B]\n", NULL},
    /* ==== set aside: libraries whose rows were written after the fixes and scored once (not tuned on) ==== */
    {"tensorrt-llm", "NVIDIA/TensorRT-LLM:tensorrt_llm/_torch/pyexecutor/_util.py (executor creation report)", NULL, true,
     W(NA, 150388279869, NA, 116887534961, NA, NA),
     "RuntimeError: Executor creation failed due to insufficient GPU memory.\n\n"
     "The following component could not be created: Model\n"
     "Total GPU memory (GiB): 140.06\n"
     "Free GPU memory before component creation attempt (GiB): 108.86\n\n"
     "Previously created components and free GPU memory before/after creation (GiB):\n\n"
     "Please refer to the TensorRT LLM documentation for information on how to control the memory usage through "
     "TensorRT LLM configuration options. Possible options include:\n  Model: reduce max_num_tokens\n", NULL},
    {"miopen", "ROCm/MIOpen:src/hip/handlehip.cpp ('Memory not available to allocate buffer: N')", NULL, true,
     W(1073741824, NA, NA, NA, NA, NA),
     "MIOpen Error: /long_pathname_so_that_rpms_can_package_the_debug_info/data/driver/MLOpen/src/hip/"
     "handlehip.cpp:290: Memory not available to allocate buffer: 1073741824\n", NULL},
    {"torch-directml", "microsoft/DirectML:PyTorch (torch-directml's allocator: 'Could not allocate tensor with N bytes.')", "directml", true,
     W(1207959552, NA, NA, NA, NA, NA),
     "RuntimeError: Could not allocate tensor with 1207959552 bytes. There is not enough GPU video memory available!\n",
     NULL},
    {"triton-server", "triton-inference-server/core:src/pinned_memory_manager.cc / cuda_memory_manager.cc (pool fallback, a look-alike)", NULL, false,
     W(67108864, NA, NA, NA, NA, 0),
     "W0101 10:00:00.000000 1 memory.cc:212] Failed to allocate CUDA memory with byte size 67108864 on GPU 0: "
     "CNMEM_STATUS_OUT_OF_MEMORY, falling back to pinned system memory\n", NULL},
    {"flashlight", "flashlight/flashlight:flashlight/fl/memory/managers/CachingMemoryManager.cpp (native alloc)", "arrayfire", true,
     W(2147483648, NA, NA, NA, NA, NA),
     "terminate called after throwing an instance of 'std::invalid_argument'\n"
     "  what():  Unable to allocate memory with native alloc for size 2147483648 bytes with error 'ArrayFire Exception "
     "(Device out of memory:101):\n", NULL},
    {"kokkos", "kokkos/kokkos:core/src/impl/Kokkos_Error.cpp (human_memory_size: B/K/M/G, 1024-based, 4 digits)", NULL, true,
     W(5000415674, NA, NA, NA, NA, NA),
     "terminate called after throwing an instance of 'Kokkos::Experimental::CudaRawMemoryAllocationFailure'\n"
     "  what():  Kokkos failed to allocate memory for label \"A\".  Allocation using MemorySpace named \"Cuda\" failed "
     "with the following error:  Allocation of size 4.657 G failed, likely due to insufficient memory.  (The "
     "allocation mechanism was cudaMalloc().  The Cuda allocation returned the error code "
     "\"cudaErrorMemoryAllocation\".)\n",
     NULL}, /* a set-aside miss until diagleft2's clause */
    {"blender-cycles", "blender/blender:intern/cycles/device/cuda/device_impl.cpp (no figures)", "cycles", true,
     W(NA, NA, NA, NA, NA, NA),
     "Error: System is out of GPU memory\n", NULL},
    {"pycuda", "inducer/pycuda:src/cpp/cuda.hpp ('cuMemAlloc failed: out of memory'; no figures)", NULL, true,
     W(NA, NA, NA, NA, NA, NA),
     "pycuda._driver.MemoryError: cuMemAlloc failed: out of memory\n", NULL},
    {"thrust", "NVIDIA/cccl:thrust/thrust/system/cuda/detail/malloc_and_free.h (bad_alloc; no figures)", NULL, true,
     W(NA, NA, NA, NA, NA, NA),
     "terminate called after throwing an instance of 'thrust::system::detail::bad_alloc'\n"
     "  what():  std::bad_alloc: cudaErrorMemoryAllocation: out of memory\n", NULL},
    {"warp", "NVIDIA/warp:warp/native/warp.cu (no figures)", NULL, true,
     W(NA, NA, NA, NA, NA, NA),
     "Warp CUDA error 2: out of memory (in function wp_alloc_device_async, /builds/omniverse/warp/warp/native/"
     "warp.cu:412)\n", NULL},
};

static void test_numbers(void **state)
{
    (void)state;
    struct num_score s = num_audit(rows, sizeof rows / sizeof rows[0], false);
    num_print_score("numsrc", s);
    assert_int_equal(s.row_misses, 0);
}

int main(int argc, char **argv)
{
    size_t n = sizeof rows / sizeof rows[0];
    if (argc > 1 && strcmp(argv[1], "--table") == 0) {
        num_print_score("numsrc", num_audit(rows, n, true));
        return 0;
    }
    if (argc > 2 && strcmp(argv[1], "--paste") == 0) {
        long i = strtol(argv[2], NULL, 10);
        if (i < 1 || (size_t)i > n) return 1;
        fputs(rows[i - 1].text, stdout);
        return 0;
    }
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_numbers)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
