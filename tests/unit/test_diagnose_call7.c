/* diagcall7's coverage audit (issue 12): one synthetic paste per OOM
 * message form an ML engineer can paste, by stack and by version, and per
 * look-alike, each written in its real format (a traceback, a logger or rank
 * prefix, timestamps, ANSI colours, CRLF, a terminal's wrap) from the source
 * named beside it, with the call and the numbers it states. The table is
 * the audit of docs/diagnose.md's "Coverage audit" paragraph; the rows marked
 * "was:" failed on ab439f30 (before diagcall7's rows), the others passed
 * there and guard the forms already covered. NC: the paste states no such
 * number (not checked). Sizes stated with two decimals are checked to within
 * half a percent (the figure as printed, not its bytes). */
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

#define NC INT64_MIN

enum { W_REQUESTED, W_CAPACITY, W_ALLOCATED, W_FREE, W_RESERVED, W_GPU, W_RANK, W_STEP, W_N };
static const char *const want_names[W_N] = {"requested", "capacity", "allocated", "free",
                                            "reserved", "gpu", "rank", "step"};

struct audit_row {
    const char *id; /* the report's table names the row by it */
    const char *log;
    bool oom;       /* the primary event is a GPU OOM */
    int64_t want[W_N];
};

static const struct audit_row audit[] = {
    /* pt04-thc: PyTorch 0.4, THCudaCheck FAIL error=2 (pytorch/pytorch:aten/src/THC/THCGeneral.cpp (v0.4.0)) */
    {"pt04-thc", "THCudaCheck FAIL file=/pytorch/aten/src/THC/generic/THCStorage.cu line=58 error=2 : out of"
         " memory\n"
         "Traceback (most recent call last):\n"
         "  File \"train.py\", line 88, in <module>\n"
         "    output = model(input)\n"
         "RuntimeError: cuda runtime error (2) : out of memory at /pytorch/aten/src/THC/generic/THCS"
         "torage.cu:58\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* pt04-cudaerr: PyTorch 0.4-1.x, CUDA error: out of memory (pytorch/pytorch:c10/cuda/CUDAException.h) */
    {"pt04-cudaerr", "Traceback (most recent call last):\n"
         "  File \"main.py\", line 5, in <module>\n"
         "    x = torch.zeros(1).cuda()\n"
         "RuntimeError: CUDA error: out of memory\n"
         "CUDA kernel errors might be asynchronously reported at some other API call,so the stacktra"
         "ce below might be incorrect.\n"
         "For debugging consider passing CUDA_LAUNCH_BLOCKING=1.\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* pt10-cached: PyTorch 1.0-1.5, Tried to allocate (GPU; cached) (pytorch/pytorch:c10/cuda/CUDACachingAllocator.cpp (v1.4.0)) */
    {"pt10-cached", "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 5.80 GiB total capac"
         "ity; 4.36 GiB already allocated; 6.69 MiB free; 4.63 GiB cached)\n",
     true, {20971520, 6227702579, 4681514352, 7014973, NC, 0, NC, NC}},
    /* pt16-reserved: PyTorch 1.6-2.0, Tried to allocate (GPU; reserved in total) (pytorch/pytorch:c10/cuda/CUDACachingAllocator.cpp (v1.13.0)) */
    {"pt16-reserved", "\033[31mtorch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.53 GiB (GPU 1"
         "; 23.69 GiB total capacity; 20.11 GiB already allocated; 980.31 MiB free; 21.75 GiB reserv"
         "ed in total by PyTorch) If reserved memory is >> allocated memory try setting max_split_si"
         "ze_mb to avoid fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_AL"
         "LOC_CONF\033[0m\n",
     true, {1642824990, 25436943810, 21592948080, 1027929538, 23353884672, 1, NC, NC}},
    /* pt20-limit: PyTorch 1.13-2.0, with 'this process has' / limit (pytorch/pytorch:c10/cuda/CUDACachingAllocator.cpp (v2.0.0)) */
    {"pt20-limit", "RuntimeError: CUDA out of memory. Tried to allocate 256.00 MiB (GPU 0; 39.39 GiB total cap"
         "acity; 36.91 GiB already allocated; 211.94 MiB free; 37.73 GiB allowed; 37.34 GiB reserved"
         " in total by PyTorch)\n",
     true, {268435456, 42294690447, 39631810723, 222235197, 40093519708, 0, NC, NC}},
    /* pt21-capacty: PyTorch 2.1, GPU 0 has a total capacty (typo) (pytorch/pytorch:c10/cuda/CUDACachingAllocator.cpp (v2.1.0)) */
    {"pt21-capacty", "[rank1]: torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 172.00 MiB. GP"
         "U 1 has a total capacty of 79.15 GiB of which 95.25 MiB is free. Process 22 has 79.04 GiB "
         "memory in use. Of the allocated memory 77.10 GiB is allocated by PyTorch, and 498.45 MiB i"
         "s reserved by PyTorch but unallocated. If reserved but unallocated memory is large try set"
         "ting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management an"
         "d PYTORCH_CUDA_ALLOC_CONF\n",
     true, {180355072, 84986665369, 82785494630, 99876864, 522662707, 1, 1, NC}},
    /* pt24-new: PyTorch 2.2-2.5, GPU 0 has a total capacity; Including non-PyTorch (pytorch/pytorch:c10/cuda/CUDACachingAllocator.cpp (v2.4.0)) */
    {"pt24-new", "2024-06-01 10:00:01,123 - ERROR - torch.OutOfMemoryError: CUDA out of memory. Tried to all"
         "ocate 2.00 GiB. GPU 0 has a total capacity of 23.64 GiB of which 1.06 GiB is free. Includi"
         "ng non-PyTorch memory, this process has 22.56 GiB memory in use. Of the allocated memory 2"
         "0.81 GiB is allocated by PyTorch, and 1.30 GiB is reserved by PyTorch but unallocated. If "
         "reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_se"
         "gments:True to avoid fragmentation.  See documentation for Memory Management  (https://pyt"
         "orch.org/docs/stable/notes/cuda.html#environment-variables)\r\n",
     true, {2147483648, 25383256719, 22344567357, 1138166333, 1395864371, 0, NC, NC}},
    /* pt27-accel: PyTorch 2.7+, torch.OutOfMemoryError with 'Process N has'; two processes (pytorch/pytorch:c10/cuda/CUDACachingAllocator.cpp (v2.7.0)) */
    {"pt27-accel", "[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB. GPU 3 has"
         " a total capacity of 79.25 GiB of which 2.94 GiB is free. Process 1234 has 40.0 GiB memory"
         " in use. Process 5678 has 36.3 GiB memory in use. Of the allocated memory 33.2 GiB is allo"
         "cated by PyTorch, and 2.1 GiB is reserved by PyTorch but unallocated. If reserved but unal"
         "located memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to av"
         "oid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/sta"
         "ble/notes/cuda.html#environment-variables)\n",
     true, {4294967296, 85094039552, 35648228556, 3156800962, 2254857830, 3, 3, NC}},
    /* pt-wrapped80: PyTorch 2.x, new form hard-wrapped at 80 cols with rank prefix (terminal wrap) */
    {"pt-wrapped80", "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 512.00 MiB. G\n"
         "PU 0 has a total capacity of 39.38 GiB of which 301.38 MiB is free. Including no\n"
         "n-PyTorch memory, this process has 39.07 GiB memory in use. Of the allocated mem\n"
         "ory 37.59 GiB is allocated by PyTorch, and 1.00 GiB is reserved by PyTorch but u\n"
         "nallocated.\n",
     true, {536870912, 42283953029, 40361955164, 316019834, 1073741824, 0, 0, NC}},
    /* pt-cublas: PyTorch 1.x-2.x, CUBLAS_STATUS_ALLOC_FAILED (pytorch/pytorch:aten/src/ATen/cuda/CublasHandlePool.cpp) */
    {"pt-cublas", "  File \"/usr/lib/python3/site-packages/torch/nn/functional.py\", line 1848, in linear\n"
         "    return torch._C._nn.linear(input, weight, bias)\n"
         "RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* pt-cudnn: PyTorch 1.x-2.x, CUDNN_STATUS_ALLOC_FAILED (pytorch/pytorch:aten/src/ATen/cudnn/Exceptions.h) */
    {"pt-cudnn", "RuntimeError: cuDNN error: CUDNN_STATUS_ALLOC_FAILED\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* pt-cufft: PyTorch 1.x-2.x, CUFFT_ALLOC_FAILED (pytorch/pytorch:aten/src/ATen/native/cuda/CuFFTUtils.h) */
    {"pt-cufft", "RuntimeError: cuFFT error: CUFFT_ALLOC_FAILED\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* pt-cusolver: PyTorch 1.x-2.x, CUSOLVER_STATUS_ALLOC_FAILED (pytorch/pytorch:aten/src/ATen/cuda/Exceptions.h) */
    {"pt-cusolver", "RuntimeError: cusolver error: CUSOLVER_STATUS_ALLOC_FAILED, when calling `cusolverDnCreate"
         "(handle)`. If you keep seeing this error, you may use `torch.backends.cuda.preferred_linal"
         "g_library()` to try linear algebra operators with other supported backends. See https://py"
         "torch.org/docs/stable/backends.html#torch.backends.cuda.preferred_linalg_library\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* pt-cusparse: PyTorch 1.x-2.x, CUSPARSE_STATUS_ALLOC_FAILED (pytorch/pytorch:aten/src/ATen/cuda/CUDASparse.h) */
    {"pt-cusparse", "RuntimeError: CUDA error: CUSPARSE_STATUS_ALLOC_FAILED when calling `cusparseCreate(handle"
         ")`\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* nccl-cuda: NCCL 2.x, Cuda failure 'out of memory' (NVIDIA/nccl:src/include/checks.h) */
    {"nccl-cuda", "node1:1234:1250 [3] include/alloc.h:48 NCCL WARN Cuda failure 'out of memory'\n"
         "node1:1234:1250 [3] NCCL INFO include/alloc.h:55 -> 1\n"
         "[rank3]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d"
         "/ProcessGroupNCCL.cpp:1970, unhandled cuda error (run with NCCL_DEBUG=INFO for details), N"
         "CCL version 2.20.5\n"
         "[rank3]: ncclUnhandledCudaError: Call to CUDA function failed.\n"
         "[rank3]: Last error:\n"
         "[rank3]: Cuda failure 'out of memory'\n",
     true, {NC, NC, NC, NC, NC, 3, NC, NC}},
    /* hip-old: ROCm PyTorch 1.x ROCm, HIP out of memory (GPU 0; ...) (pytorch/pytorch:c10/cuda/CUDACachingAllocator.cpp hipified) */
    {"hip-old", "RuntimeError: HIP out of memory. Tried to allocate 2.00 GiB (GPU 0; 15.98 GiB total capaci"
         "ty; 12.71 GiB already allocated; 1.60 GiB free; 12.74 GiB reserved in total by PyTorch)\n",
     true, {2147483648, 17158394347, 13647258583, 1717986918, 13679470837, 0, NC, NC}},
    /* hip-new: ROCm PyTorch 2.x ROCm, HIP out of memory. GPU 0 has a total capacity (pytorch/pytorch (hipified)) */
    {"hip-new", "torch.OutOfMemoryError: HIP out of memory. Tried to allocate 1.17 GiB. GPU 0 has a total c"
         "apacity of 191.98 GiB of which 0 bytes is free. Of the allocated memory 188.40 GiB is allo"
         "cated by PyTorch, and 1.55 GiB is reserved by PyTorch but unallocated. If reserved but una"
         "llocated memory is large try setting PYTORCH_HIP_ALLOC_CONF=expandable_segments:True to av"
         "oid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/sta"
         "ble/notes/cuda.html#environment-variables)\n",
     true, {1256277934, 206136955371, 202292959641, 0, 1664299827, 0, NC, NC}},
    /* hip-raw: ROCm HIP runtime, hipErrorOutOfMemory (ROCm/HIP:include/hip/hip_runtime_api.h) */
    {"hip-raw", "RuntimeError: HIP error: hipErrorOutOfMemory\n"
         "HIP kernel errors might be asynchronously reported at some other API call, so the stacktra"
         "ce below might be incorrect.\n"
         "For debugging consider passing AMD_SERIALIZE_KERNEL=3\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* mps: MPS PyTorch 2.x, MPS backend out of memory (pytorch/pytorch:aten/src/ATen/mps/MPSAllocator.mm) */
    {"mps", "RuntimeError: MPS backend out of memory (MPS allocated: 17.79 GB, other allocations: 388.0"
         "0 KB, max allowed: 18.13 GB). Tried to allocate 375.00 MB on private pool. Use PYTORCH_MPS"
         "_HIGH_WATERMARK_RATIO=0.0 to disable upper limit for memory allocations (may cause system "
         "failure).\n",
     true, {393216000, NC, 19101867048, NC, NC, NC, NC, NC}},
    /* xpu-new: XPU PyTorch 2.5+, XPU out of memory. GPU 0 has a total capacity (pytorch/pytorch:c10/xpu/XPUCachingAllocator.cpp) */
    {"xpu-new", "torch.OutOfMemoryError: XPU out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total c"
         "apacity of 15.11 GiB. Of the allocated memory 13.50 GiB is allocated by PyTorch, and 512.0"
         "0 MiB is reserved by PyTorch but unallocated. Please use `empty_cache` to release all unoc"
         "cupied cached memory.\n",
     true, {2147483648, 16224238960, 14495514624, NC, 536870912, 0, NC, NC}},
    /* xpu-ipex: XPU IPEX 2.0, XPU out of memory (GPU 0; ...) (intel/intel-extension-for-pytorch) */
    {"xpu-ipex", "RuntimeError: XPU out of memory. Tried to allocate 1.00 GiB (GPU 0; 15.56 GiB total capaci"
         "ty; 13.82 GiB already allocated; 14.21 GiB reserved in total by PyTorch)\n",
     true, {1073741824, 16707422781, 14839112007, NC, 15257871319, 0, NC, NC}},
    /* xpu-ur: XPU oneAPI UR, UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY (oneapi-src/unified-runtime:include/ur_api.h) */
    {"xpu-ur", "RuntimeError: Native API failed. Native API returns: 39 (UR_RESULT_ERROR_OUT_OF_DEVICE_MEM"
         "ORY)\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* xpu-pi: XPU oneAPI PI (older), PI_ERROR_OUT_OF_RESOURCES -5 (intel/llvm:sycl/include/sycl/detail/pi_error.def) (was: call look-alike) */
    {"xpu-pi", "RuntimeError: Native API failed. Native API returns: -5 (PI_ERROR_OUT_OF_RESOURCES) -5 (PI"
         "_ERROR_OUT_OF_RESOURCES)\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* tf1-oom: TensorFlow 1.x, OOM when allocating tensor with shape (tensorflow/tensorflow:tensorflow/core/common_runtime/bfc_allocator.cc) */
    {"tf1-oom", "2019-01-01 12:00:00.000000: W tensorflow/core/common_runtime/bfc_allocator.cc:271] Allocat"
         "or (GPU_0_bfc) ran out of memory trying to allocate 1.53GiB.  Current allocation summary f"
         "ollows.\n"
         "tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor"
         " with shape[32,64,224,224] and type float on /job:localhost/replica:0/task:0/device:GPU:0 "
         "by allocator GPU_0_bfc\n"
         "\t [[node conv2d/Conv2D (defined at train.py:40) ]]\n"
         "Hint: If you want to see a list of allocated tensors when OOM happens, add report_tensor_a"
         "llocations_upon_oom to RunOptions for current allocation info.\n",
     true, {NC, NC, NC, NC, NC, 0, NC, NC}},
    /* tf2-bfc: TensorFlow 2.x, Allocator (GPU_0_bfc) ran out of memory (rounded to) (tensorflow/tensorflow:tensorflow/tsl/framework/bfc_allocator.cc) */
    {"tf2-bfc", "2023-05-01 10:00:00.123456: W tensorflow/tsl/framework/bfc_allocator.cc:485] Allocator (GP"
         "U_0_bfc) ran out of memory trying to allocate 2.00GiB (rounded to 2147483648)requested by "
         "op StatefulPartitionedCall/model/dense/MatMul\n"
         "If the cause is memory fragmentation maybe the environment variable 'TF_GPU_ALLOCATOR=cuda"
         "_malloc_async' will improve the situation. \n",
     true, {2147483648, NC, NC, NC, NC, 0, NC, NC}},
    /* tf2-keras: TensorFlow 2.x Keras, ResourceExhaustedError Graph execution error (tensorflow/tensorflow) */
    {"tf2-keras", "tensorflow.python.framework.errors_impl.ResourceExhaustedError: Graph execution error:\n"
         "\n"
         "Detected at node 'model/conv2d/Conv2D' defined at (most recent call last):\n"
         "    File \"train.py\", line 30, in <module>\n"
         "      model.fit(ds, epochs=10)\n"
         "Node: 'model/conv2d/Conv2D'\n"
         "OOM when allocating tensor with shape[64,128,128,64] and type float on /job:localhost/repl"
         "ica:0/task:0/device:GPU:1 by allocator GPU_1_bfc\n"
         "\t [[{{node model/conv2d/Conv2D}}]]\n",
     true, {268435456, NC, NC, NC, NC, 1, NC, NC}},
    /* tf-cudamallocasync: TensorFlow 2.5+, cuda_malloc_async (tensorflow/tensorflow:tensorflow/core/common_runtime/gpu/gpu_cudamallocasync_allocator.cc) (was: requested None; capacity None; free None) */
    {"tf-cudamallocasync", "2023-01-01 00:00:00.000000: E tensorflow/core/common_runtime/gpu/gpu_cudamallocasync_alloc"
         "ator.cc:288] gpu_async_0 cuMemAllocAsync failed to allocate 2147483648 bytes: CUDA error: "
         "out of memory (CUDA_ERROR_OUT_OF_MEMORY)\n"
         " Reported by CUDA: Free memory/Total memory: 201326592/16945512448\n",
     true, {2147483648, 16945512448, NC, 201326592, NC, NC, NC, NC}},
    /* jax-ra: JAX 0.4, RESOURCE_EXHAUSTED: Out of memory while trying to allocate (openxla/xla:xla/pjrt/gpu) */
    {"jax-ra", "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to al"
         "locate 17179869184 bytes.\n",
     true, {17179869184, NC, NC, NC, NC, NC, NC, NC}},
    /* jax-ra2: JAX 0.4.x, Failed to allocate request for ... on device ordinal (openxla/xla:xla/stream_executor/integrations/tf_allocator_adapter.cc) */
    {"jax-ra2", "E0101 00:00:00.000000  123 pjrt_stream_executor_client.cc:2985] Execution of replica 0 fai"
         "led: RESOURCE_EXHAUSTED: Failed to allocate request for 2.00GiB (2147483648B) on device or"
         "dinal 1\n"
         "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Failed to allocate request for 2"
         ".00GiB (2147483648B) on device ordinal 1\n",
     true, {2147483648, NC, NC, NC, NC, 1, NC, NC}},
    /* jax-ra3: JAX 0.4.30+, Out of memory allocating N bytes (openxla/xla) */
    {"jax-ra3", "jax.errors.JaxRuntimeError: RESOURCE_EXHAUSTED: Out of memory allocating 8589934592 bytes."
         "\n",
     true, {8589934592, NC, NC, NC, NC, NC, NC, NC}},
    /* jax-tpu: JAX TPU any, Ran out of memory in memory space hbm (openxla/xla (TPU)) */
    {"jax-tpu", "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: XLA:TPU compile permanent error."
         " Ran out of memory in memory space hbm. Used 17.52G of 15.48G hbm. Exceeded hbm capacity b"
         "y 2.04G.\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* ort-bfc: ONNX Runtime 1.x, BFCArena Failed to allocate memory for requested buffer (microsoft/onnxruntime:onnxruntime/core/framework/bfc_arena.cc) */
    {"ort-bfc", "2024-01-01 00:00:00.0 [E:onnxruntime:, sequential_executor.cc:514 ExecuteKernel] Non-zero "
         "status code returned while running Conv node. Name:'/conv1/Conv' Status Message: /onnxrunt"
         "ime_src/onnxruntime/core/framework/bfc_arena.cc:376 void* onnxruntime::BFCArena::AllocateR"
         "awInternal(size_t, bool, onnxruntime::Stream*, bool, onnxruntime::WaitNotificationFn) Fail"
         "ed to allocate memory for requested buffer of size 2147483648\n",
     true, {2147483648, NC, NC, NC, NC, NC, NC, NC}},
    /* ort-cudafail: ONNX Runtime 1.x CUDA EP, CUDA failure 2: out of memory (microsoft/onnxruntime:onnxruntime/core/providers/cuda/cuda_call.cc) */
    {"ort-cudafail", "onnxruntime.capi.onnxruntime_pybind11_state.Fail: [ONNXRuntimeError] : 1 : FAIL : CUDA fai"
         "lure 2: out of memory ; GPU=0 ; hostname=node1 ; file=/onnxruntime_src/onnxruntime/core/pr"
         "oviders/cuda/cuda_allocator.cc ; line=47 ; expr=cudaMalloc((void**)&p, size);\n",
     true, {NC, NC, NC, NC, NC, 0, NC, NC}},
    /* trt-req: TensorRT 8.x, Requested amount of GPU memory could not be allocated (NVIDIA/TensorRT) */
    {"trt-req", "[01/01/2024-00:00:00] [TRT] [E] 2: [virtualMemoryBuffer.cpp::resizePhysical::145] Error Co"
         "de 2: OutOfMemory (no further information)\n"
         "[01/01/2024-00:00:00] [TRT] [E] 1: Requested amount of GPU memory (4294967296 bytes) could"
         " not be allocated. There may not be enough free memory for allocation to succeed.\n",
     true, {4294967296, NC, NC, NC, NC, NC, NC, NC}},
    /* trt-cudart: TensorRT 8.x-10, Error Code 1: Cuda Runtime (out of memory) (NVIDIA/TensorRT) */
    {"trt-cudart", "[TRT] [E] 1: [defaultAllocator.cpp::allocate::20] Error Code 1: Cuda Runtime (out of memor"
         "y)\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* cupy: CuPy v7+, OutOfMemoryError: Out of memory allocating (cupy/cupy:cupy/cuda/memory.pyx) */
    {"cupy", "cupy.cuda.memory.OutOfMemoryError: Out of memory allocating 1,073,741,824 bytes (allocated"
         " so far: 8,589,934,592 bytes).\n",
     true, {1073741824, NC, 8589934592, NC, NC, NC, NC, NC}},
    /* cupy-rt: CuPy v8+, cudaErrorMemoryAllocation: out of memory (cupy/cupy:cupy_backends/cuda/api/runtime.pyx) */
    {"cupy-rt", "cupy_backends.cuda.api.runtime.CUDARuntimeError: cudaErrorMemoryAllocation: out of memory"
         "\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* rmm: RMM/cuDF 22+, std::bad_alloc: out_of_memory: CUDA error (rapidsai/rmm:include/rmm/mr/device/cuda_memory_resource.hpp) */
    {"rmm", "MemoryError: std::bad_alloc: out_of_memory: CUDA error at: /opt/conda/include/rmm/mr/devic"
         "e/cuda_memory_resource.hpp:70: cudaErrorMemoryAllocation out of memory\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* rmm-pool: RMM 0.x-21, Maximum pool size exceeded (rapidsai/rmm:include/rmm/mr/device/pool_memory_resource.hpp) */
    {"rmm-pool", "RuntimeError: RMM error: std::bad_alloc: RMM failure at:/opt/conda/include/rmm/mr/device/p"
         "ool_memory_resource.hpp:192: Maximum pool size exceeded\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* numba: Numba 0.4x+, CUDA_ERROR_OUT_OF_MEMORY (numba/numba:numba/cuda/cudadrv/driver.py) */
    {"numba", "numba.cuda.cudadrv.driver.CudaAPIError: [2] Call to cuMemAlloc results in CUDA_ERROR_OUT_O"
         "F_MEMORY\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* mxnet: MXNet 1.x, cudaMalloc failed: out of memory (apache/mxnet:src/storage/pooled_storage_manager.h) */
    {"mxnet", "mxnet.base.MXNetError: [12:00:00] src/storage/./pooled_storage_manager.h:157: cudaMalloc f"
         "ailed: out of memory\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* paddle: PaddlePaddle 2.x, ResourceExhaustedError: Out of memory error on GPU (PaddlePaddle/Paddle:paddle/fluid/memory/allocation/retry_allocator.cc) */
    {"paddle", "ResourceExhaustedError: \n"
         "\n"
         "Out of memory error on GPU 0. Cannot allocate 1.500000GB memory on GPU 0, 14.200000GB memo"
         "ry has been allocated and available memory is only 300.000000MB.\n"
         "\n"
         "Please check whether there is any other process using GPU 0.\n",
     true, {1610612736, NC, 15247133900, 314572800, NC, 0, NC, NC}},
    /* triton-smem: Triton 2.x-3.x, OutOfResources: out of resource: shared memory (triton-lang/triton:python/triton/runtime/errors.py) */
    {"triton-smem", "triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 98304, Har"
         "dware limit: 65536. Reducing block sizes or `num_stages` may help.\n",
     false, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* vllm-cache: vLLM 0.2-0.6, No available memory for the cache blocks (vllm-project/vllm:vllm/worker/worker.py) */
    {"vllm-cache", "ERROR 01-01 00:00:00 engine.py:366] ValueError: No available memory for the cache blocks. "
         "Try increasing `gpu_memory_utilization` when initializing the engine.\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* vllm-kvlen: vLLM 0.4-0.6, max seq len larger than KV cache (vllm-project/vllm:vllm/worker/worker.py (raise_if_cache_size_invalid)) */
    {"vllm-kvlen", "ValueError: The model's max seq len (32768) is larger than the maximum number of tokens th"
         "at can be stored in KV cache (20384). Try increasing `gpu_memory_utilization` or decreasin"
         "g `max_model_len` when initializing the engine.\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* vllm-v1-free: vLLM 0.7+ V1, Free memory on device ... less than desired GPU memory utilization (vllm-project/vllm:vllm/worker/worker.py) */
    {"vllm-v1-free", "ValueError: Free memory on device (10.5/79.1 GiB) on startup is less than desired GPU memo"
         "ry utilization (0.9, 71.19 GiB). Decrease GPU memory utilization or reduce GPU memory used"
         " by other processes.\n",
     true, {NC, 84932978278, NC, 11274289152, NC, NC, NC, NC}},
    /* vllm-v1-kv: vLLM 0.8+ V1, KV cache is needed, which is larger than the available KV cache memory (vllm-project/vllm:vllm/v1/core/kv_cache_utils.py) */
    {"vllm-v1-kv", "(EngineCore_0 pid=123) ValueError: To serve at least one request with the models's max seq"
         " len (131072), (16.00 GiB KV cache is needed, which is larger than the available KV cache "
         "memory (8.50 GiB). Based on the available memory, the estimated maximum model length is 69"
         "632. Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializi"
         "ng the engine.\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* sglang: SGLang 0.x, Not enough memory. Please try to increase --mem-fraction-static (sgl-project/sglang:python/sglang/srt/model_executor/model_runner.py) */
    {"sglang", "[2024-09-01 00:00:00 TP0] RuntimeError: Not enough memory. Please try to increase --mem-fr"
         "action-static.\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* tgi-prefill: TGI 1.x-2.x, Not enough memory to handle N prefill tokens (huggingface/text-generation-inference:router/src/main.rs) */
    {"tgi-prefill", "2024-01-01T00:00:00.000000Z ERROR warmup{max_input_length=4095 max_prefill_tokens=4096}: t"
         "ext_generation_client: router/client/src/lib.rs:33: Server error: Not enough memory to han"
         "dle 4096 prefill tokens. You need to decrease `--max-batch-prefill-tokens`\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* ggml-cuda: llama.cpp b2000+, cudaMalloc failed: out of memory / failed to allocate CUDA0 buffer (ggml-org/llama.cpp:ggml/src/ggml-cuda/ggml-cuda.cu) */
    {"ggml-cuda", "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 4096.00 MiB on device 0: cudaMalloc"
         " failed: out of memory\n"
         "ggml_gallocr_reserve_n: failed to allocate CUDA0 buffer of size 4294967296\n"
         "llama_new_context_with_model: failed to allocate compute buffers\n",
     true, {4294967296, NC, NC, NC, NC, 0, NC, NC}},
    /* ggml-pool: llama.cpp b1500+, CUDA error: out of memory current device (ggml-org/llama.cpp:ggml/src/ggml-cuda/ggml-cuda.cu (ggml_cuda_error)) */
    {"ggml-pool", "CUDA error: out of memory\n"
         "  current device: 1, in function ggml_cuda_pool_malloc at ggml-cuda.cu:7867\n"
         "  cudaMalloc((void **) &ptr, look_ahead_size)\n"
         "GGML_ASSERT: ggml-cuda.cu:255: !\"CUDA error\"\n",
     true, {NC, NC, NC, NC, NC, 1, NC, NC}},
    /* ollama: Ollama 0.1+, llama runner process has terminated: cudaMalloc failed (ollama/ollama) */
    {"ollama", "Error: llama runner process has terminated: error loading model: unable to allocate CUDA0 "
         "buffer\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* ct2: CTranslate2 3.x-4.x, CUDA failed with error out of memory (OpenNMT/CTranslate2:include/ctranslate2/cuda/utils.h) */
    {"ct2", "RuntimeError: CUDA failed with error out of memory\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* opencv: OpenCV CUDA 4.x, (-217:Gpu API call) out of memory (opencv/opencv:modules/core/include/opencv2/core/private.cuda.hpp) */
    {"opencv", "cv2.error: OpenCV(4.8.0) /io/opencv/modules/core/src/cuda/gpu_mat.cu:116: error: (-217:Gpu"
         " API call) out of memory in function 'allocate'\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* julia-new: CUDA.jl 3.x-5.x, Out of GPU memory trying to allocate (JuliaGPU/CUDA.jl:src/pool.jl) */
    {"julia-new", "ERROR: Out of GPU memory trying to allocate 1.000 GiB\n"
         "Effective GPU memory usage: 99.54% (7.759 GiB/7.795 GiB)\n"
         "Memory pool usage: 6.500 GiB (6.531 GiB reserved)\n",
     true, {1073741824, 8369817518, NC, NC, NC, NC, NC, NC}},
    /* julia-old: CUDA.jl 1.x-2.x, CUDA error: out of memory (code 2, ERROR_OUT_OF_MEMORY) (JuliaGPU/CUDA.jl:lib/cudadrv/error.jl) */
    {"julia-old", "ERROR: LoadError: CUDA error: out of memory (code 2, ERROR_OUT_OF_MEMORY)\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* mlx-buf: MLX 0.x, [metal::malloc] Attempting to allocate ... greater than the maximum allowed buffer size (ml-explore/mlx:mlx/backend/metal/allocator.cpp) */
    {"mlx-buf", "RuntimeError: [metal::malloc] Attempting to allocate 21474836480 bytes which is greater th"
         "an the maximum allowed buffer size of 17179869184 bytes.\n",
     true, {21474836480, NC, NC, NC, NC, NC, NC, NC}},
    /* mlx-cmdbuf: MLX/Metal 0.x, Insufficient Memory kIOGPUCommandBufferCallbackErrorOutOfMemory (ml-explore/mlx:mlx/backend/metal/device.cpp) */
    {"mlx-cmdbuf", "libc++abi: terminating due to uncaught exception of type std::runtime_error: [METAL] Comma"
         "nd buffer execution failed: Insufficient Memory (00000008:kIOGPUCommandBufferCallbackError"
         "OutOfMemory)\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* deepspeed: DeepSpeed 0.x, CUDA out of memory inside ZeRO stage3 with rank prefix (microsoft/DeepSpeed) */
    {"deepspeed", "[rank7]: Traceback (most recent call last):\n"
         "[rank7]:   File \"/opt/deepspeed/runtime/zero/stage3.py\", line 2062, in step\n"
         "[rank7]:     self._optimizer_step(sub_group_id)\n"
         "[rank7]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.50 GiB. GPU 7 has"
         " a total capacity of 79.33 GiB of which 1.10 GiB is free.\n",
     true, {3758096384, 85179938897, NC, 1181116006, NC, 7, 7, NC}},
    /* bnb: bitsandbytes 0.4x, cuda error out of memory in cdequantize / Error named symbol (bitsandbytes-foundation/bitsandbytes:csrc/ops.cuh) */
    {"bnb", "Error an illegal memory access was encountered at line 90 in file /src/csrc/ops.cu\n",
     false, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* xformers: xformers 0.0.2x, CUDA error: out of memory from cutlass kernel (facebookresearch/xformers) */
    {"xformers", "RuntimeError: CUDA error: out of memory\n"
         "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* la-oomkiller: Linux any, Out of memory: Killed process (torvalds/linux:mm/oom_kill.c) */
    {"la-oomkiller", "[123456.789012] Out of memory: Killed process 4321 (python) total-vm:98765432kB, anon-rss:"
         "65432100kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:130000kB oom_score_adj:0\n",
     false, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* la-memcg: Linux cgroup any, oom-kill:constraint=CONSTRAINT_MEMCG (torvalds/linux:mm/oom_kill.c) */
    {"la-memcg", "[1234.5] python invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, oom_score_adj=0\n"
         "[1234.6] oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=/,mems_allowed=0,oom_"
         "memcg=/kubepods/pod1,task_memcg=/kubepods/pod1,task=python,pid=42,uid=0\n"
         "[1234.7] Memory cgroup out of memory: Killed process 42 (python) total-vm:1kB, anon-rss:1k"
         "B\n",
     false, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* la-k8s: Kubernetes any, OOMKilled exit 137 (kubernetes/kubernetes) */
    {"la-k8s", "    State:          Terminated\n"
         "      Reason:       OOMKilled\n"
         "      Exit Code:    137\n",
     false, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* la-slurm: Slurm any, oom_kill event (SchedMD/slurm:src/plugins/task/cgroup) */
    {"la-slurm", "slurmstepd: error: Detected 1 oom_kill event in StepId=12345.batch. Some of the step tasks"
         " have been OOM Killed.\n",
     false, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* la-docker: Docker any, exited with code 137 (docker/compose) */
    {"la-docker", "trainer-1 exited with code 137\n",
     false, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* la-dlworker: PyTorch DataLoader 1.x-2.x, DataLoader worker killed by signal: Killed (pytorch/pytorch:torch/utils/data/_utils/signal_handling.py) */
    {"la-dlworker", "RuntimeError: DataLoader worker (pid 12345) is killed by signal: Killed. \n",
     false, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* la-shm: PyTorch DataLoader 1.x-2.x, Bus error insufficient shared memory (pytorch/pytorch:torch/utils/data/_utils/signal_handling.py) */
    {"la-shm", "ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient sh"
         "ared memory (shm).\n"
         "RuntimeError: DataLoader worker (pid 123) is killed by signal: Bus error. It is possible t"
         "hat dataloader's workers are out of shared memory. Please try to raise your shared memory "
         "limit.\n",
     false, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* la-illegal: CUDA any, an illegal memory access (pytorch/pytorch:c10/cuda/CUDAException.h) */
    {"la-illegal", "RuntimeError: CUDA error: an illegal memory access was encountered\n"
         "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktr"
         "ace below might be incorrect.\n",
     false, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* la-assert: CUDA any, device-side assert triggered (pytorch/pytorch) */
    {"la-assert", "../aten/src/ATen/native/cuda/Indexing.cu:1289: indexSelectLargeIndex: block: [0,0,0], thre"
         "ad: [0,0,0] Assertion `srcIndex < srcSelectDimSize` failed.\n"
         "RuntimeError: CUDA error: device-side assert triggered\n",
     false, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* la-ecc: CUDA any, uncorrectable ECC error (CUDA runtime) */
    {"la-ecc", "RuntimeError: CUDA error: uncorrectable ECC error encountered\n",
     false, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* la-nodev: CUDA any, no CUDA-capable device (CUDA runtime) */
    {"la-nodev", "RuntimeError: CUDA error: no CUDA-capable device is detected\n",
     false, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* la-nccl-timeout: NCCL 2.x, Watchdog caught collective operation timeout (pytorch/pytorch:torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp) */
    {"la-nccl-timeout", "[rank2]:[E ProcessGroupNCCL.cpp:523] [Rank 2] Watchdog caught collective operation timeout"
         ": WorkNCCL(SeqNum=1234, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran f"
         "or 600051 milliseconds before timing out.\n",
     false, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* la-disk: any any, No space left on device (POSIX ENOSPC) */
    {"la-disk", "OSError: [Errno 28] No space left on device: '/ckpt/step_1000/model.safetensors'\n",
     false, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* la-badalloc: C++ any, std::bad_alloc host (libstdc++) */
    {"la-badalloc", "terminate called after throwing an instance of 'std::bad_alloc'\n"
         "  what():  std::bad_alloc\n"
         "Aborted (core dumped)\n",
     false, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* la-memerror: Python/NumPy any, MemoryError: Unable to allocate (numpy/numpy:numpy/core/src/multiarray/alloc.c) */
    {"la-memerror", "numpy.core._exceptions._ArrayMemoryError: Unable to allocate 7.45 GiB for an array with sh"
         "ape (1000000000,) and data type float64\n",
     false, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* la-cpualloc: PyTorch CPU 1.x-2.x, DefaultCPUAllocator: not enough memory (pytorch/pytorch:c10/core/impl/alloc_cpu.cpp) */
    {"la-cpualloc", "RuntimeError: [enforce fail at alloc_cpu.cpp:114] data. DefaultCPUAllocator: not enough me"
         "mory: you tried to allocate 17179869184 bytes.\n",
     false, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* la-ollama-host: Ollama 0.1+, model requires more system memory (ollama/ollama:llm/server.go) */
    {"la-ollama-host", "Error: model requires more system memory (64.0 GiB) than is available (31.2 GiB)\n",
     false, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* pt10-mallocat: PyTorch 1.0, Tried to allocate ... cached) (malloc at THCCachingAllocator.cpp) (pytorch/pytorch:aten/src/THC/THCCachingAllocator.cpp (v1.0.0)) */
    {"pt10-mallocat", "RuntimeError: CUDA out of memory. Tried to allocate 1.53 GiB (GPU 0; 11.17 GiB total capac"
         "ity; 9.21 GiB already allocated; 1.49 GiB free; 9.33 MiB cached) (malloc at /opt/conda/con"
         "da-bld/pytorch_1544174967633/work/aten/src/THC/THCCachingAllocator.cpp:231)\n"
         "frame #0: std::function<std::string ()>::operator()() const + 0x11 (0x7f1 in /usr/lib/pyth"
         "on3/site-packages/torch/lib/libc10.so)\n",
     true, {1642824990, 11993696174, 9889162199, 1599875317, NC, 0, NC, NC}},
    /* pt-jupyter-ansi: PyTorch 2.x, Jupyter ANSI class name (IPython traceback colours) */
    {"pt-jupyter-ansi", "\033[0;31m---------------------------------------------------------------------------\033["
         "0m\n"
         "\033[0;31mOutOfMemoryError\033[0m                          Traceback (most recent call las"
         "t)\n"
         "Cell \033[0;32mIn[5], line 3\033[0m\n"
         "\033[0;31mOutOfMemoryError\033[0m: CUDA out of memory. Tried to allocate 64.00 MiB. GPU 0 "
         "has a total capacity of 14.75 GiB of which 3.06 MiB is free. Process 4321 has 14.74 GiB me"
         "mory in use. Of the allocated memory 14.52 GiB is allocated by PyTorch, and 95.35 MiB is r"
         "eserved by PyTorch but unallocated.\n",
     true, {67108864, 15837691904, 15590731284, 3208642, 99981721, 0, NC, NC}},
    /* pt-hf-step: PyTorch/HF Trainer 4.x, tqdm step then OOM, CRLF (huggingface/transformers Trainer) */
    {"pt-hf-step", "{'loss': 2.1234, 'grad_norm': 1.2, 'learning_rate': 1.9e-05, 'epoch': 0.12}\r\n"
         "  3%|▎         | 150/5000 [02:10<1:10:12,  1.15it/s]Traceback (most recent call last):\r\n"
         "  File \"train.py\", line 50, in <module>\r\n"
         "    trainer.train()\r\n"
         "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB. GPU 0 has a total "
         "capacity of 23.55 GiB of which 512.00 MiB is free.\r\n",
     true, {1073741824, 25286619955, NC, 536870912, NC, 0, NC, 150}},
    /* pt-mallocasync: PyTorch 2.0+ cudaMallocAsync backend, Allocation on device 0 would exceed allowed memory (pytorch/pytorch:c10/cuda/CUDAMallocAsyncAllocator.cpp) */
    {"pt-mallocasync", "torch.OutOfMemoryError: Allocation on device 0 would exceed allowed memory. (out of memory"
         ")\n"
         "Currently allocated     : 7.52 GiB\n"
         "Requested               : 1.25 GiB\n"
         "Device limit            : 8.00 GiB\n"
         "Free (according to CUDA): 0 bytes\n"
         "PyTorch limit (set by user-supplied memory fraction)\n"
         "                        : 17179869184.00 GiB\n",
     true, {1342177280, 8589934592, 8074538516, 0, NC, 0, NC, NC}},
    /* npu: Ascend torch_npu 2.x, NPU out of memory (NPU 0; ...) (Ascend/pytorch:torch_npu/csrc/core/npu/NPUCachingAllocator.cpp) */
    {"npu", "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.97 GiB total capaci"
         "ty; 55.30 GiB already allocated; 55.30 GiB current active; 1.20 GiB free; 58.10 GiB reserv"
         "ed in total by PyTorch) If reserved memory is >> allocated memory try setting max_split_si"
         "ze_mb to avoid fragmentation.\n",
     true, {2147483648, 65466039009, 59377922867, 1288490188, 62384399974, 0, NC, NC}},
    /* tf-resexh-old: TensorFlow 1.x-2.3, Resource exhausted: OOM when allocating (tensorflow/tensorflow:tensorflow/core/common_runtime/bfc_allocator.cc) */
    {"tf-resexh-old", "2020-05-01 10:00:00.000000: W tensorflow/core/framework/op_kernel.cc:1767] OP_REQUIRES fai"
         "led at conv_ops.cc:539 : Resource exhausted: OOM when allocating tensor with shape[16,256,"
         "128,128] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0"
         "_bfc\n",
     true, {268435456, NC, NC, NC, NC, 0, NC, NC}},
    /* tf-rooterr: TensorFlow 2.x, 2 root error(s) found. (0) RESOURCE_EXHAUSTED (tensorflow/tensorflow) */
    {"tf-rooterr", "tensorflow.python.framework.errors_impl.ResourceExhaustedError: 2 root error(s) found.\n"
         "  (0) RESOURCE_EXHAUSTED:  OOM when allocating tensor with shape[8,1024,1024] and type hal"
         "f on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n"
         "\t [[{{node attention/MatMul}}]]\n",
     true, {16777216, NC, NC, NC, NC, 0, NC, NC}},
    /* jax-old: JAX jaxlib<0.3, RuntimeError: Resource exhausted: Out of memory while trying to allocate (google/jax (jaxlib 0.1.x)) */
    {"jax-old", "RuntimeError: Resource exhausted: Out of memory while trying to allocate 4294967296 bytes."
         "\n",
     true, {4294967296, NC, NC, NC, NC, NC, NC, NC}},
    /* jax-unit: JAX 0.4.2x, Out of memory while trying to allocate 6.00GiB. (openxla/xla) (was: requested None) */
    {"jax-unit", "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to al"
         "locate 6.00GiB.\n",
     true, {6442450944, NC, NC, NC, NC, NC, NC, NC}},
    /* ptxla-tpu: PyTorch/XLA 1.x-2.x, Attempting to reserve ... at the bottom of memory (pytorch/xla (TPU runtime)) */
    {"ptxla-tpu", "RuntimeError: Resource exhausted: Attempting to reserve 10.50G at the bottom of memory. Th"
         "at was not possible. There are 8.20G free, 0B reserved, and 8.20G reservable.\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* mxnet-retry: MXNet 1.6+, cudaMalloc retry failed: out of memory (apache/mxnet:src/storage/pooled_storage_manager.h) */
    {"mxnet-retry", "mxnet.base.MXNetError: [10:00:00] src/storage/./pooled_storage_manager.h:161: cudaMalloc r"
         "etry failed: out of memory\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* paddle-old: PaddlePaddle 1.x, Out of memory error on GPU 0 ... available memory is only (PaddlePaddle/Paddle:paddle/fluid/memory/detail/system_allocator.cc) */
    {"paddle-old", "paddle.fluid.core_avx.EnforceNotMet: \n"
         "\n"
         "Out of memory error on GPU 0. Cannot allocate 1.000000GB memory on GPU 0, available memory"
         " is only 500.000000MB.\n"
         "\n"
         "Please check whether there is any other process using GPU 0.\n",
     true, {1073741824, NC, NC, 524288000, NC, 0, NC, NC}},
    /* trtllm: TensorRT-LLM 0.x, CUDA runtime error in ::cudaMallocAsync: out of memory (NVIDIA/TensorRT-LLM:cpp/tensorrt_llm/common/cudaUtils.h) */
    {"trtllm", "[TensorRT-LLM][ERROR] tensorrt_llm::common::TllmException: [TensorRT-LLM][ERROR] CUDA runt"
         "ime error in ::cudaMallocAsync(ptr, n, mCudaStream->get()): out of memory (/home/jenkins/a"
         "gent/workspace/cpp/tensorrt_llm/runtime/tllmBuffers.h:125)\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* trtllm-executor: TensorRT-LLM 0.2x-1.x PyTorch backend, the executor's memory report
     * (NVIDIA/TensorRT-LLM:tensorrt_llm/_torch/pyexecutor/py_executor_creator.py,
     * _ExecutorMemoryMonitor); was: an oom-mention without figures (diagcall9) */
    {"trtllm-executor", "[07/08/2025-10:02:11] [TRT-LLM] [RANK 0] [E] Failed to initialize executor on rank 0: "
         "Executor creation failed due to insufficient GPU memory.\n"
         "\n"
         "The following component could not be created: KV cache\n"
         "Total GPU memory (GiB): 79.11\n"
         "Free GPU memory before component creation attempt (GiB): 3.52\n"
         "\n"
         "Previously created components and free GPU memory before/after creation (GiB):\n"
         "Model: 78.52 / 3.90\n",
     true, {NC, 84943715697, NC, 3779571220, NC, NC, 0, NC}},
    /* ort-arena-cap: ONNX Runtime 1.1x, the arena at its gpu_mem_limit
     * (microsoft/onnxruntime:onnxruntime/core/framework/bfc_arena.cc); was: no event (diagcall9) */
    {"ort-arena-cap", "onnxruntime.capi.onnxruntime_pybind11_state.RuntimeException: [ONNXRuntimeError] : 6 : "
         "RUNTIME_EXCEPTION : Non-zero status code returned while running Cast node. Name:'graph_outp"
         "ut_cast0' Status Message: /onnxruntime_src/onnxruntime/core/framework/bfc_arena.cc:359 voi"
         "d* onnxruntime::BFCArena::AllocateRawInternal(size_t, bool, onnxruntime::Stream*, bool, onn"
         "xruntime::WaitNotificationFn) Available memory of 34699008 is smaller than requested bytes "
         "of 945041920\n",
     true, {945041920, NC, NC, NC, NC, NC, NC, NC}},
    /* ort-extend: ONNX Runtime 1.1x, no free block after the arena's extension
     * (microsoft/onnxruntime:onnxruntime/core/framework/bfc_arena.cc); was: no event (diagcall9) */
    {"ort-extend", "2024-05-02 10:11:12.345 [E:onnxruntime:, sequential_executor.cc:516 ExecuteKernel] Non-zero s"
         "tatus code returned while running MatMul node. Name:'/MatMul' Status Message: /onnxruntime_"
         "src/onnxruntime/core/framework/bfc_arena.cc:376 void* onnxruntime::BFCArena::AllocateRawIn"
         "ternal(size_t, bool, onnxruntime::Stream*, bool, onnxruntime::WaitNotificationFn) Failed t"
         "o find a free memory block despite calling Extend. rounded_bytes=1073741824\n",
     true, {1073741824, NC, NC, NC, NC, NC, NC, NC}},
    /* ort-cut-title: an issue title that cut ONNX Runtime's arena message after
     * "Failed to alloc" (poppanda/LLM_PDF_Translator#9); was: no event (diagcall9) */
    {"ort-cut-title", "/onnxruntime_src/onnxruntime/core/framework/bfc_arena.cc:376 void* onnxruntime::BFCArena::A"
         "llocateRawInternal(size_t, bool, onnxruntime::Stream*, bool, onnxruntime::WaitNotificationF"
         "n) Failed to alloc\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* numba-cuda: numba-cuda 0.x, CudaAPIError: [CUresult.CUDA_ERROR_OUT_OF_MEMORY] (NVIDIA/numba-cuda:numba_cuda/numba/cuda/cudadrv/driver.py) */
    {"numba-cuda", "numba.cuda.cudadrv.driver.CudaAPIError: [CUresult.CUDA_ERROR_OUT_OF_MEMORY] Call to cuMemA"
         "lloc results in CUDA_ERROR_OUT_OF_MEMORY\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* rmm-old: RMM 0.1x, std::bad_alloc: CUDA error at ... cudaErrorMemoryAllocation (rapidsai/rmm) */
    {"rmm-old", "MemoryError: std::bad_alloc: CUDA error at: /opt/conda/envs/rapids/include/rmm/mr/device/c"
         "uda_memory_resource.hpp:69: cudaErrorMemoryAllocation out of memory\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* ct2-cublas: CTranslate2 3.x, cuBLAS failed with status CUBLAS_STATUS_ALLOC_FAILED (OpenNMT/CTranslate2:src/cuda/utils.h) */
    {"ct2-cublas", "RuntimeError: cuBLAS failed with status CUBLAS_STATUS_ALLOC_FAILED\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* ggml-vulkan: llama.cpp Vulkan b3000+, Device memory allocation of size N failed / ErrorOutOfDeviceMemory (ggml-org/llama.cpp:ggml/src/ggml-vulkan/ggml-vulkan.cpp) */
    {"ggml-vulkan", "ggml_vulkan: Device memory allocation of size 4294967296 failed.\n"
         "ggml_vulkan: vk::Device::allocateMemory: ErrorOutOfDeviceMemory\n"
         "llama_model_load: error loading model: unable to allocate Vulkan0 buffer\n",
     true, {4294967296, NC, NC, NC, NC, NC, NC, NC}},
    /* ggml-metal: llama.cpp Metal b2000+, command buffer failed with status 5 Insufficient Memory (ggml-org/llama.cpp:ggml/src/ggml-metal/ggml-metal.m) */
    {"ggml-metal", "ggml_metal_graph_compute: command buffer 0 failed with status 5\n"
         "error: Insufficient Memory (00000008:kIOGPUCommandBufferCallbackErrorOutOfMemory)\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* hip-malloc: ROCm HIP, hipMalloc failed: out of memory (ggml) (ggml-org/llama.cpp (HIP build)) */
    {"hip-malloc", "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 8192.00 MiB on device 1: cudaMalloc"
         " failed: out of memory\n"
         "llama_model_load: error loading model: unable to allocate ROCm1 buffer\n",
     true, {8589934592, NC, NC, NC, NC, 1, NC, NC}},
    /* julia-load: CUDA.jl 5.x, LoadError: Out of GPU memory (JuliaGPU/CUDA.jl:src/pool.jl) */
    {"julia-load", "ERROR: LoadError: Out of GPU memory trying to allocate 4.000 GiB\n"
         "Effective GPU memory usage: 98.10% (15.50 GiB/15.80 GiB)\n"
         "Memory pool usage: 12.00 GiB (12.50 GiB reserved)\n"
         "Stacktrace:\n"
         "  [1] throw_api_error\n",
     true, {4294967296, 16965120819, 12884901888, NC, 13421772800, NC, NC, NC}},
    /* ds-step: DeepSpeed 0.1x, log_dist step= then OOM (microsoft/DeepSpeed:deepspeed/runtime/engine.py) */
    {"ds-step", "[2024-01-01 00:00:00,000] [INFO] [logging.py:96:log_dist] [Rank 0] step=420, skipped=0, lr"
         "=[1e-05], mom=[(0.9, 0.999)]\n"
         "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 8.00 GiB. GPU 0 has"
         " a total capacity of 79.33 GiB of which 2.00 GiB is free.\n",
     true, {8589934592, 85179938897, NC, 2147483648, NC, 0, 0, 420}},
    /* lightning-step: Lightning 2.x, tqdm Epoch N: x% | step/total then OOM (Lightning-AI/pytorch-lightning progress bar) */
    {"lightning-step", "Epoch 0:  12%|█▏        | 120/1000 [00:30<03:40,  4.00it/s, v_num=0, train_loss=2.31]\n"
         "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 256.00 MiB. GPU 0 has a tota"
         "l capacity of 10.75 GiB of which 100.00 MiB is free.\n",
     true, {268435456, 11542724608, NC, 104857600, NC, 0, NC, 120}},
    /* nccl-calloc: NCCL 2.x, Failed to CUDA calloc N bytes (NVIDIA/nccl:src/include/alloc.h) */
    {"nccl-calloc", "node1:1234:1250 [0] include/alloc.h:103 NCCL WARN Failed to CUDA calloc 10485760 bytes\n"
         "node1:1234:1250 [0] NCCL INFO transport/p2p.cc:200 -> 1\n",
     true, {10485760, NC, NC, NC, NC, NC, NC, NC}},
    /* torchrec-fbgemm: FBGEMM 0.x, CUDA error: out of memory in fbgemm (pytorch/FBGEMM) */
    {"torchrec-fbgemm", "RuntimeError: CUDA error: out of memory\n"
         "Exception raised from new_managed_tensor at /fbgemm_gpu/src/memory_utils/memory_utils.cu:1"
         "04 (most recent call first):\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* la-winpage: Windows any, WinError 1455 paging file too small (Microsoft system error codes) */
    {"la-winpage", "OSError: [WinError 1455] The paging file is too small for this operation to complete. Erro"
         "r loading \"C:\\\\Python\\\\lib\\\\site-packages\\\\torch\\\\lib\\\\cudnn_adv_infer64_8.dl"
         "l\" or one of its dependencies.\n",
     false, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* la-xid: NVIDIA driver any, NVRM: Xid 79 GPU has fallen off the bus (NVIDIA Xid catalogue) */
    {"la-xid", "[ 8123.456] NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, name=python, GPU has fallen off the "
         "bus.\n",
     false, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* la-misaligned: CUDA any, misaligned address (CUDA runtime) */
    {"la-misaligned", "RuntimeError: CUDA error: misaligned address\n"
         "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktr"
         "ace below might be incorrect.\n",
     false, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* la-launchtimeout: CUDA any, the launch timed out and was terminated (CUDA runtime) */
    {"la-launchtimeout", "RuntimeError: CUDA error: the launch timed out and was terminated\n",
     false, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* la-ds-flush: DeepSpeed 0.x, pytorch allocator cache flushes since last step (warning) (microsoft/DeepSpeed:deepspeed/runtime/zero/stage3.py) */
    {"la-ds-flush", "[2024-01-01 00:00:00,000] [WARNING] [stage3.py:1850:step] 3 pytorch allocator cache flushe"
         "s since last step. this happens when there is high memory pressure and is detrimental to p"
         "erformance. if this is happening frequently consider adjusting settings to reduce memory c"
         "onsumption. If you are unable to make the cache flushes go away consider adding get_accele"
         "rator().empty_cache() calls in your training loop to ensure that all ranks flush their cac"
         "hes at the same time\n",
     false, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* la-torchelastic9: torchelastic 2.x, exitcode -9 SIGKILL (pytorch/pytorch:torch/distributed/elastic) */
    {"la-torchelastic9", "torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: -9) local_rank: 0"
         " (pid: 1234) of binary: /usr/bin/python3\n",
     false, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* la-cuda-init: CUDA any, CUDA driver version is insufficient (CUDA runtime) */
    {"la-cuda-init", "RuntimeError: CUDA error: CUDA driver version is insufficient for CUDA runtime version\n",
     false, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* la-nccl-sys: NCCL 2.x, ncclSystemError shm (NVIDIA/nccl) */
    {"la-nccl-sys", "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled sy"
         "stem error (run with NCCL_DEBUG=INFO for details), NCCL version 2.19.3\n"
         "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or devi"
         "ce error.\n"
         "Last error:\n"
         "Error while creating shared memory segment /dev/shm/nccl-vzIpS6 (size 9637888)\n",
     false, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* la-hostfraction: HF accelerate 0.2x, not enough GPU RAM, dispatched on CPU (huggingface/transformers:src/transformers/modeling_utils.py).
     * Written here as a look-alike; since open74 a GPU OOM (kind device-map-refusal): the model does not
     * fit the GPU, a capacity refusal at load as vLLM's KV-cache budget is, and so the labels of
     * heldout74 h74-53 and the maintainers of unslothai/unsloth#1629, meta-llama/llama-cookbook#333 read it */
    {"la-hostfraction", "ValueError: Some modules are dispatched on the CPU or the disk. Make sure you have enough "
         "GPU RAM to fit the quantized model. If you want to dispatch the model on the CPU or the di"
         "sk while keeping these modules in 32-bit, you need to set `load_in_8bit_fp32_cpu_offload=T"
         "rue` and pass a custom `device_map` to `from_pretrained`.\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* pt21-both: PyTorch 2.1, capacty typo; Process N has and this process has (pytorch/pytorch:c10/cuda/CUDACachingAllocator.cpp (v2.1.0); quoted in a public fuzzing report) */
    {"pt21-both", "CUDA out of memory. Tried to allocate 4.50 GiB. GPU 0 has a total capacty of 23.69 GiB of "
         "which 3.19 GiB is free. Process 2006998 has 256.00 MiB memory in use. Including non-PyTorc"
         "h memory, this process has 20.23 GiB memory in use. Of the allocated memory 19.90 GiB is a"
         "llocated by PyTorch, and 32.75 MiB is reserved by PyTorch but unallocated. If reserved but"
         " unallocated memory is large try setting max_split_size_mb to avoid fragmentation.  See do"
         "cumentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF\n",
     true, {4831838208, 25436943810, 21367462297, 3425236418, 34340864, 0, NC, NC}},
    /* pt-absurd-inuse: PyTorch+vLLM 2.x, absurd 'this process has 17179869184.00 GiB' (vllm-project/vllm issue quoted in public notes) */
    {"pt-absurd-inuse", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 768.00 MiB. GPU 0 has a tota"
         "l capacity of 31.84 GiB of which 0 bytes is free. Including non-PyTorch memory, this proce"
         "ss has 17179869184.00 GiB memory in use. Of the allocated memory 52.93 GiB is allocated by"
         " PyTorch, and 32.88 MiB is reserved by PyTorch but unallocated.\n",
     true, {805306368, 34187939676, 56833154744, 0, 34477178, 0, NC, NC}},
    /* pt-userwrap: PyTorch 2.x, message broken by the user at sentence ends, trailing blanks (public notes) */
    {"pt-userwrap", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. \n"
         "GPU 0 has a total capacity of 31.36 GiB of which 18.12 MiB is free. \n"
         "Including non-PyTorch memory, this process has 31.33 GiB memory in use.\n"
         "Of the allocated memory 27.89 GiB is allocated by PyTorch, \n"
         "and 2.84 GiB is reserved by PyTorch but unallocated.\n",
     true, {20971520, 33672543600, 29946659471, 19000197, 3049426780, 0, NC, NC}},
    /* pt-fragment: PyTorch 2.x, fragment from 'Tried to allocate', wrapped mid-clause (public notes) */
    {"pt-fragment", "The OOM lands in repeat_kv:\n"
         "\n"
         "Tried to allocate 582.00 MiB. GPU 0 has a total capacity of 23.60 GiB of which\n"
         "561.44 MiB is free. Of the allocated memory 18.39 GiB is allocated by PyTorch,\n"
         "and 4.33 GiB is reserved by PyTorch but unallocated.\n",
     true, {610271232, 25340307046, 19746112143, 588712509, 4649302097, 0, NC, NC}},
    /* triton-cuda: Triton 2.x, Triton Error [CUDA]: out of memory (triton-lang/triton:python/triton/backends/nvidia/driver.c) */
    {"triton-cuda", "RuntimeError: Triton Error [CUDA]: out of memory\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* tf-fromdevice: TensorFlow 1.x-2.x, failed to allocate X (N bytes) from device: CUDA_ERROR_OUT_OF_MEMORY (tensorflow/tensorflow:tensorflow/stream_executor/cuda/cuda_driver.cc) */
    {"tf-fromdevice", "2019-03-01 10:00:00.000000: E tensorflow/stream_executor/cuda/cuda_driver.cc:806] failed t"
         "o allocate 2.00G (2147483648 bytes) from device: CUDA_ERROR_OUT_OF_MEMORY: out of memory\n",
     true, {2147483648, NC, NC, NC, NC, NC, NC, NC}},
    /* tf-cudnn-alloc: TensorFlow 1.x-2.x, could not create cudnn handle: CUDNN_STATUS_ALLOC_FAILED (tensorflow/tensorflow:tensorflow/stream_executor/cuda/cuda_dnn.cc) */
    {"tf-cudnn-alloc", "2020-01-01 00:00:00.000000: E tensorflow/stream_executor/cuda/cuda_dnn.cc:329] Could not c"
         "reate cudnn handle: CUDNN_STATUS_ALLOC_FAILED\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* tf-dsttensor: TensorFlow 2.x, Dst tensor is not initialized (tensorflow/tensorflow:tensorflow/core/common_runtime/gpu/gpu_util.cc) (was: call look-alike; gpu None) */
    {"tf-dsttensor", "tensorflow.python.framework.errors_impl.InternalError: Failed copying input tensor from /j"
         "ob:localhost/replica:0/task:0/device:CPU:0 to /job:localhost/replica:0/task:0/device:GPU:0"
         " in order to run _EagerConst: Dst tensor is not initialized.\n",
     true, {NC, NC, NC, NC, NC, 0, NC, NC}},
    /* openvino-gpu: OpenVINO 2023+, [GPU] Exceeded max size of memory object allocation (openvinotoolkit/openvino:src/plugins/intel_gpu/src/runtime/ocl/ocl_engine.cpp) (was: call look-alike; requested None) */
    {"openvino-gpu", "RuntimeError: Exception from src/plugins/intel_gpu/src/runtime/ocl/ocl_engine.cpp:185:\n"
         "[GPU] Exceeded max size of memory object allocation: requested 4294967296 bytes, but max a"
         "lloc size supported by device is 4294959104 bytes.Please try to reduce batch size or use l"
         "ower precision.\n",
     true, {4294967296, NC, NC, NC, NC, NC, NC, NC}},
    /* directml: torch-directml 0.2, not enough GPU video memory available (microsoft/DirectML (torch-directml)) */
    {"directml", "RuntimeError: Could not allocate tensor with 1073741824 bytes. There is not enough GPU vid"
         "eo memory available!\n",
     true, {1073741824, NC, NC, NC, NC, NC, NC, NC}},
    /* mindspore: MindSpore 2.x, Device(id:0) memory isn't enough and alloc failed (mindspore-ai/mindspore:mindspore/ccsrc/runtime) (was: call look-alike; requested None; gpu None) */
    {"mindspore", "RuntimeError: Device(id:0) memory isn't enough and alloc failed, kernel name: Default/netw"
         "ork/MatMul-op1, alloc size: 1073741824B.\n",
     true, {1073741824, NC, NC, NC, NC, 0, NC, NC}},
    /* habana: Habana Gaudi 1.x, PT_DEVMEM Allocation failed for size (HabanaAI (habana_frameworks)) */
    {"habana", "RuntimeError: [Rank:0] FATAL ERROR :: MODULE:PT_DEVMEM Allocation failed for size::1073741"
         "824 (1024)MB\n",
     true, {1073741824, NC, NC, NC, NC, NC, NC, NC}},
    /* candle: Candle (Rust) 0.x, DriverError(CUDA_ERROR_OUT_OF_MEMORY (huggingface/candle (cudarc)) */
    {"candle", "Error: DriverError(CUDA_ERROR_OUT_OF_MEMORY, \"out of memory\")\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* cudnn-noalgo: PyTorch 1.x-2.x, Unable to find a valid cuDNN algorithm (ambiguous) (pytorch/pytorch:aten/src/ATen/native/cudnn/Conv_v8.cpp) */
    {"cudnn-noalgo", "RuntimeError: Unable to find a valid cuDNN algorithm to run convolution\n",
     true, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* la-shm-nospace: PyTorch DataLoader 1.x-2.x, unable to write to file </torch_...>: No space left on device (28) (pytorch/pytorch:aten/src/ATen/MapAllocator.cpp) */
    {"la-shm-nospace", "RuntimeError: unable to write to file </torch_18692_1954506624_0>: No space left on device"
         " (28)\n",
     false, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* la-mmap: PyTorch DataLoader 1.x-2.x, unable to mmap ... Cannot allocate memory (12) (pytorch/pytorch:aten/src/ATen/MapAllocator.cpp) */
    {"la-mmap", "RuntimeError: unable to mmap 1048576 bytes from file </torch_123_456_7>: Cannot allocate m"
         "emory (12)\n",
     false, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* la-old-assert: PyTorch 0.4, cuda runtime error (59) : device-side assert triggered (pytorch/pytorch:aten/src/THC) */
    {"la-old-assert", "RuntimeError: cuda runtime error (59) : device-side assert triggered at /pytorch/aten/src/"
         "THC/generic/THCTensorMathPointwise.cu:96\n",
     false, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* la-cublas-exec: cuBLAS any, CUBLAS_STATUS_EXECUTION_FAILED (pytorch/pytorch:aten/src/ATen/cuda/CUDABlas.cpp) */
    {"la-cublas-exec", "RuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasSgemm( handle"
         ", opa, opb, m, n, k, &alpha, a, lda, b, ldb, &beta, c, ldc)`\n",
     false, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* la-xla-host: JAX/XLA 0.4.3x, Out of host memory while trying to allocate (openxla/xla:xla/stream_executor/integrations/tf_allocator_adapter.cc@370cfa8) (was: call OOM) */
    {"la-xla-host", "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of host memory while trying "
         "to allocate 68719476736 bytes. Please set the environment variable XLA_PJRT_GPU_HOST_MEMOR"
         "Y_LIMIT_GB to allocate larger host memory than the default 64 GB.\n",
     false, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* la-paddle-cpu: PaddlePaddle 2.x-3.x, (ResourceExhausted) Fail to alloc memory of N size (CPUAllocator posix_memalign) (PaddlePaddle/Paddle:paddle/phi/core/memory/allocation/cpu_allocator.cc) (was: call OOM) */
    {"la-paddle-cpu", "ResourceExhaustedError: Fail to alloc memory of 46549499904 size, error code is 12.\n"
         "  [Hint: Expected error == 0, but received error:12 != 0:0.] (at /paddle/paddle/fluid/memo"
         "ry/allocation/cpu_allocator.cc:50)\n",
     false, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* la-segv: any any, Segmentation fault (core dumped) (POSIX) */
    {"la-segv", "Fatal Python error: Segmentation fault\n"
         "\n"
         "Thread 0x00007f (most recent call first):\n"
         "  File \"train.py\", line 12 in <module>\n"
         "Segmentation fault (core dumped)\n",
     false, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* wrap-compose: PyTorch 2.x, docker compose service prefix (docker/compose log prefix) */
    {"wrap-compose", "trainer-1  | torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 1"
         " has a total capacity of 79.14 GiB of which 1.50 GiB is free. Including non-PyTorch memory"
         ", this process has 77.63 GiB memory in use. Of the allocated memory 75.00 GiB is allocated"
         " by PyTorch, and 1.20 GiB is reserved by PyTorch but unallocated.\n",
     true, {2147483648, 84975927951, 80530636800, 1610612736, 1288490188, 1, NC, NC}},
    /* wrap-json: PyTorch 2.x, JSON log line (structured logging) (k8s JSON logs) */
    {"wrap-json", "{\"level\":\"error\",\"ts\":\"2024-01-01T00:00:00Z\",\"msg\":\"torch.OutOfMemoryError: CUD"
         "A out of memory. Tried to allocate 2.00 GiB. GPU 1 has a total capacity of 79.14 GiB of wh"
         "ich 1.50 GiB is free. Including non-PyTorch memory, this process has 77.63 GiB memory in u"
         "se. Of the allocated memory 75.00 GiB is allocated by PyTorch, and 1.20 GiB is reserved by"
         " PyTorch but unallocated.\"}\n",
     true, {2147483648, 84975927951, 80530636800, 1610612736, 1288490188, 1, NC, NC}},
    /* wrap-ray: PyTorch/Ray 2.x, Ray worker prefix (ray-project/ray log prefix) */
    {"wrap-ray", "(RayTrainWorker pid=1234, ip=10.0.0.1) torch.OutOfMemoryError: CUDA out of memory. Tried t"
         "o allocate 2.00 GiB. GPU 1 has a total capacity of 79.14 GiB of which 1.50 GiB is free. In"
         "cluding non-PyTorch memory, this process has 77.63 GiB memory in use. Of the allocated mem"
         "ory 75.00 GiB is allocated by PyTorch, and 1.20 GiB is reserved by PyTorch but unallocated"
         ".\n",
     true, {2147483648, 84975927951, 80530636800, 1610612736, 1288490188, 1, NC, NC}},
    /* wrap-srun: PyTorch/Slurm 2.x, srun --label 'N: ' prefix (SchedMD/slurm srun --label) (was: rank None);
     * the task's traceback above carries the same label, indented after it; the
     * command names srun, as a bare label is read only then (tidy23) */
    {"wrap-srun", "$ srun -l python train.py\n3: Traceback (most recent call last):\n"
         "3:   File \"train.py\", line 10, in <module>\n"
         "3:     loss.backward()\n"
         "3: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 1 has a tot"
         "al capacity of 79.14 GiB of which 1.50 GiB is free. Including non-PyTorch memory, this pro"
         "cess has 77.63 GiB memory in use. Of the allocated memory 75.00 GiB is allocated by PyTorc"
         "h, and 1.20 GiB is reserved by PyTorch but unallocated.\n",
     true, {2147483648, 84975927951, 80530636800, 1610612736, 1288490188, 1, 3, NC}},
    /* wrap-srun-interleaved: srun -l output of several tasks interleaves; the OOM task's label
     * recurs a few lines away, not on the next line (the clusters.md example under load) */
    {"wrap-srun-interleaved", "$ srun --label python train.py\n0: step 1\n2: Traceback (most recent call last):\n3: step 2\n"
         "2:   File \"train.py\", line 10, in <module>\n0: step 2\n3: step 3\n"
         "2: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 1 has a tot"
         "al capacity of 79.14 GiB of which 1.50 GiB is free.\n3: step 4\n",
     true, {2147483648, NC, NC, NC, NC, 1, 2, NC}},
    /* wrap-srun-padded: srun -l pads the task number to the widest task's (SchedMD/slurm
     * src/api/step_io.c _wid): among 16 tasks task 3 writes " 3: " (was: rank None) */
    {"wrap-srun-padded", "$ srun -l -n 16 python train.py\n12: step 1\n 3: Traceback (most recent call last):\n 3:   File \"train.py\", line 10, in <module>\n"
         "12: step 2\n 3:     loss.backward()\n"
         " 3: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 1 has a tot"
         "al capacity of 79.14 GiB of which 1.50 GiB is free.\n",
     true, {2147483648, NC, NC, NC, NC, 1, 3, NC}},
    /* wrap-numbered: a user's numbered list looks like srun's labels but has each number once:
     * no rank (the review of 2026-12-06 found "2: RuntimeError ..." read as rank 2) */
    {"wrap-numbered", "I tried these batch sizes:\n1: works\n"
         "2: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 1 has a tot"
         "al capacity of 79.14 GiB of which 1.50 GiB is free. Including non-PyTorch memory, this pro"
         "cess has 77.63 GiB memory in use. Of the allocated memory 75.00 GiB is allocated by PyTorc"
         "h, and 1.20 GiB is reserved by PyTorch but unallocated.\n",
     true, {2147483648, NC, NC, NC, NC, 1, -1, NC}},
    /* wrap-loguru: PyTorch 2.x, loguru prefix (Delgan/loguru default format) */
    {"wrap-loguru", "2024-01-01 00:00:00.000 | ERROR    | __main__:train:42 - torch.OutOfMemoryError: CUDA out "
         "of memory. Tried to allocate 2.00 GiB. GPU 1 has a total capacity of 79.14 GiB of which 1."
         "50 GiB is free. Including non-PyTorch memory, this process has 77.63 GiB memory in use. Of"
         " the allocated memory 75.00 GiB is allocated by PyTorch, and 1.20 GiB is reserved by PyTor"
         "ch but unallocated.\n",
     true, {2147483648, 84975927951, 80530636800, 1610612736, 1288490188, 1, NC, NC}},
    /* wrap-vllmworker: PyTorch/vLLM 0.6, VllmWorkerProcess prefix (vllm-project/vllm) */
    {"wrap-vllmworker", "(VllmWorkerProcess pid=4567) ERROR 01-01 00:00:00 multiproc_worker_utils.py:120] torch.Out"
         "OfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 1 has a total capacity "
         "of 79.14 GiB of which 1.50 GiB is free. Including non-PyTorch memory, this process has 77."
         "63 GiB memory in use. Of the allocated memory 75.00 GiB is allocated by PyTorch, and 1.20 "
         "GiB is reserved by PyTorch but unallocated.\n",
     true, {2147483648, 84975927951, 80530636800, 1610612736, 1288490188, 1, NC, NC}},
    /* wrap-md: PyTorch 2.x, markdown quote and code fence (GitHub issue) */
    {"wrap-md", "> ```\n"
         "> torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 1 has a tota"
         "l capacity of 79.14 GiB of which 1.50 GiB is free. Including non-PyTorch memory, this proc"
         "ess has 77.63 GiB memory in use. Of the allocated memory 75.00 GiB is allocated by PyTorch"
         ", and 1.20 GiB is reserved by PyTorch but unallocated.\n"
         "> ```\n",
     true, {2147483648, 84975927951, 80530636800, 1610612736, 1288490188, 1, NC, NC}},
    /* wrap-cr: PyTorch 2.x, tqdm \r segments then the message (tqdm) */
    {"wrap-cr", "  1%|          | 10/1000 [00:01<02:00]\r  2%|▏         | 20/1000 [00:02<02:00]\rtorch.OutO"
         "fMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 1 has a total capacity o"
         "f 79.14 GiB of which 1.50 GiB is free. Including non-PyTorch memory, this process has 77.6"
         "3 GiB memory in use. Of the allocated memory 75.00 GiB is allocated by PyTorch, and 1.20 G"
         "iB is reserved by PyTorch but unallocated.\n",
     true, {2147483648, 84975927951, 80530636800, 1610612736, 1288490188, 1, NC, NC}},
    /* wrap-crlf60: PyTorch 2.x, hard-wrapped at 60 cols with CRLF (Windows terminal) */
    {"wrap-crlf60", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocat\r\n"
         "e 2.00 GiB. GPU 1 has a total capacity of 79.14 GiB of which\r\n"
         " 1.50 GiB is free. Including non-PyTorch memory, this proces\r\n"
         "s has 77.63 GiB memory in use. Of the allocated memory 75.00\r\n"
         " GiB is allocated by PyTorch, and 1.20 GiB is reserved by Py\r\n"
         "Torch but unallocated.\r\n",
     true, {2147483648, 84975927951, 80530636800, 1610612736, 1288490188, 1, NC, NC}},
    /* jax-replica: JAX 0.4.x, Out of memory ... GiB.: while running replica (openxla/xla) (was: requested None) */
    {"jax-replica", "jax.errors.JaxRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 2.1"
         "6GiB.: while running replica 0 and partition 3 of a replicated computation (other replicas"
         " may have failed as well).\n",
     true, {2319282339, NC, NC, NC, NC, NC, NC, NC}},
    /* la-tf-notfailure: TensorFlow 2.x, ran out of memory ... caller indicates that this is not a failure (tensorflow/tensorflow:tensorflow/tsl/framework/bfc_allocator.cc) */
    {"la-tf-notfailure", "2023-01-01 00:00:00.000000: W tensorflow/tsl/framework/bfc_allocator.cc:296] Allocator (GP"
         "U_0_bfc) ran out of memory trying to allocate 1.17GiB with freed_by_count=0. The caller in"
         "dicates that this is not a failure, but this may mean that there could be performance gain"
         "s if more memory were available.\n"
         "Epoch 2/10\n",
     false, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* la-oom-question: prose -, a question that denies ('not OOM') (GitHub issue prose) */
    {"la-oom-question", "The job hangs at step 300. It is not OOM: nvidia-smi shows 20 GiB free.\n",
     false, {NC, NC, NC, NC, NC, NC, NC, NC}},
    /* tvm-frames: TVM 0.1x, CUDAError: cudaMalloc failed with error: out of memory, under indented '  0: ' frames (apache/tvm:src/runtime/cuda/cuda_device_api.cc) */
    {"tvm-frames", "TVMError: Traceback (most recent call last):\n"
         "  1: tvm::runtime::NDArray::Empty(tvm::runtime::ShapeTuple, DLDataType, DLDevice, tvm::run"
         "time::Optional<tvm::runtime::String>)\n"
         "  0: tvm::runtime::CUDADeviceAPI::AllocDataSpace(DLDevice, unsigned long, unsigned long, D"
         "LDataType)\n"
         "  File \"/workspace/tvm/src/runtime/cuda/cuda_device_api.cc\", line 145\n"
         "CUDAError: cudaMalloc(&ret, nbytes) failed with error: out of memory\n",
     true, {NC, NC, NC, NC, NC, NC, -1, NC}},
    /* candle-rust-bt: Candle (Rust) 0.x, DriverError(CUDA_ERROR_OUT_OF_MEMORY) then a Rust backtrace's '   0: ' frames (huggingface/candle (cudarc), Rust std backtrace format) */
    {"candle-rust-bt", "Error: DriverError(CUDA_ERROR_OUT_OF_MEMORY, \"out of memory\")\n"
         "\n"
         "Stack backtrace:\n"
         "   0: candle_core::cuda_backend::CudaDevice::alloc_zeros\n"
         "   1: candle_core::tensor::Tensor::zeros\n",
     true, {NC, NC, NC, NC, NC, NC, -1, NC}},
    /* srun-16tasks: PyTorch/Slurm 2.x, srun --label padded ' 3: ' (16 tasks): rank not read (an indented number is a backtrace frame) (SchedMD/slurm srun --label) */
    {"srun-16tasks", " 3: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 3 has a to"
         "tal capacity of 79.14 GiB of which 1.50 GiB is free.\n",
     true, {2147483648, 84975927951, NC, 1610612736, NC, 3, NC, NC}},
};

/* The figure a row checks: "reserved" is the current PyTorch form's
 * "reserved by PyTorch but unallocated" (as the corpus labels it), else the
 * older "reserved in total"/"cached" or another stack's reserved pool. */
static int64_t got_value(const struct oom_event *e, int w)
{
    switch (w) {
    case W_REQUESTED: return e->bytes.requested;
    case W_CAPACITY: return e->bytes.capacity;
    case W_ALLOCATED: return e->bytes.allocated;
    case W_FREE: return e->bytes.free;
    case W_RESERVED:
        return !strcmp(e->kind, "pytorch-new") || e->bytes.reserved < 0 ? e->bytes.reserved_unallocated
                                                                          : e->bytes.reserved;
    case W_GPU: return e->gpu;
    case W_RANK: return e->rank;
    default: return e->step;
    }
}

static bool close_enough(int64_t got, int64_t want)
{
    int64_t slack = want / 200 + 1;
    return got >= 0 && got >= want - slack && got <= want + slack;
}

static void check_row(const struct audit_row *row)
{
    struct oom_report rep;
    scan_log(row->log, &rep);
    bool oom = rep.primary >= 0 && rep.events[rep.primary].gpu_oom;
    if (oom != row->oom) {
        oom_report_release(&rep);
        fail_msg("%s: called %s", row->id, oom ? "a GPU OOM" : "a look-alike");
    }
    for (int w = 0; w < W_N; w++) {
        if (row->want[w] == NC) continue;
        if (!rep.n_events) fail_msg("%s: no event for %s", row->id, want_names[w]);
        const struct oom_event *e = &rep.events[rep.primary >= 0 ? (size_t)rep.primary : 0];
        int64_t got = got_value(e, w);
        bool ok = w >= W_GPU ? got == row->want[w] : close_enough(got, row->want[w]);
        if (!ok) {
            long long g = got, x = row->want[w];
            oom_report_release(&rep);
            fail_msg("%s: %s %lld, want %lld", row->id, want_names[w], g, x);
        }
    }
    oom_report_release(&rep);
}

static void test_call7_audit(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof audit / sizeof audit[0]; i++) check_row(&audit[i]);
}

/* Each id once: the report's table and this one name the same rows. */
static void test_call7_ids_unique(void **state)
{
    (void)state;
    size_t n = sizeof audit / sizeof audit[0];
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (!strcmp(audit[i].id, audit[j].id)) fail_msg("%s twice", audit[i].id);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_call7_audit),
        cmocka_unit_test(test_call7_ids_unique),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
