/* Unit tests for recognition and numbers (lib/msg rules and clauses, the
 * scan's joins) on real lines from public threads, one case per family,
 * each with its source beside it; and the memory_summary() tables of
 * several PyTorch eras and backend ports (lib/memsummary) as printed in
 * real logs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/memsummary.h"
#include "lib/msg.h"
#include "lib/plan.h"
#include "lib/scan.h"
#include "lib/verdict.h"
#include "scan_fixture.h"

#define ANY (-2) /* not checked */
#define MIB(x) ((int64_t)((x) * 1048576.0 + 0.5))
#define GIB(x) ((int64_t)((x) * 1073741824.0 + 0.5))

struct want {
    const char *source; /* owner/repo#N */
    const char *log;
    bool gpu_oom;
    const char *kind;
    int64_t requested, capacity, free, allocated, reserved;
    int gpu;
};

static const struct want cases[] = {
    /* llama.cpp/ggml: the exact size is on the next line. */
    {"ggml-org/llama.cpp#20431",
     "load_tensors: loading model tensors, this can take a while... (mmap = true, direct_io = false)\n"
     "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 144817.04 MiB on device 0: cudaMalloc "
     "failed: out of memory\n"
     "alloc_tensor_range: failed to allocate CUDA0 buffer of size 151851674624\n"
     "llama_model_load: error loading model: unable to allocate CUDA0 buffer\n",
     true, "ggml", 151851674624LL, -1, -1, -1, -1, 0},
    {"ggml-org/llama.cpp#11476", /* docker compose's "service  | " prefix */
     "deep-seek-1  | ggml_backend_cuda_buffer_type_alloc_buffer: allocating 9866.00 MiB on device "
     "1: cudaMalloc failed: out of memory\n"
     "deep-seek-1  | ggml_gallocr_reserve_n: failed to allocate CUDA1 buffer of size 10345253120\n",
     true, "ggml", 10345253120LL, -1, -1, -1, -1, 1},
    /* PaddlePaddle: 2.x allocator, 1.x enforce and FLAGS messages. */
    {"PaddlePaddle/Paddle#42228",
     "RuntimeError: ResourceExhaustedError:\n\n"
     "Out of memory error on GPU 0. Cannot allocate 98.000244MB memory on GPU 0, 6.000000GB memory "
     "has been allocated and available memory is only 0.000000B.\n",
     true, "paddle", MIB(98.000244), -1, 0, GIB(6), -1, 0},
    {"PaddlePaddle/Paddle#8992",
     "paddle.fluid.core.EnforceNotMet: enforce allocating <= available failed, 10513462067 > "
     "1369702144\n",
     true, "paddle", 10513462067LL, -1, 1369702144LL, -1, -1, -1},
    {"PaddlePaddle/models#3011",
     "`Cannot malloc 49.0002 MB GPU memory. Please shrink FLAGS_fraction_of_gpu_memory_to_use or "
     "FLAGS_initial_gpu_memory_in_mb or FLAGS_reallocate_gpu_memory_in_mbenvironment variable to a "
     "lower value. Current FLAGS_fraction_of_gpu_memory_to_use value is 0.1.\n",
     true, "paddle", MIB(49.0002), -1, -1, -1, -1, -1},
    /* spconv/cumm (tensorview) and spconv 1.x. */
    {"junjie18/CMT#15",
     "RuntimeError: TensorStorage /io/include/tensorview/tensor.h 168\n"
     "cuda failed with error 2 out of memory. use CUDA_LAUNCH_BLOCKING=1 to get correct traceback.\n",
     true, "cuda-error", -1, -1, -1, -1, -1, -1},
    {"tianweiy/CenterPoint#2", "failed (cuda execution failed with error 2)\n", true, "cuda-error",
     -1, -1, -1, -1, -1, -1},
    /* XLA/JAX glog lines; one wrapped between "Out" and "of memory". */
    {"kingoflolz/mesh-transformer-jax#66",
     "2021-07-21 16:15:16.513776: E external/org_tensorflow/tensorflow/compiler/xla/pjrt/"
     "pjrt_stream_executor_client.cc:1981] Execution of replica 0 failed: Resource exhausted: "
     "Failed to allocate request for 32.00MiB (33554432B) on device ordinal 0\n",
     true, "jax", 33554432, -1, -1, -1, -1, 0},
    {"jax-ml/jax#788",
     "[1] 2019-06-13 01:17:08.886805: E external/org_tensorflow/tensorflow/compiler/xla/python/"
     "local_client.cc:672] Execution of replica 0 failed: Resource exhausted: Out \n"
     "of memory while trying to allocate 5520758552 bytes.\n",
     true, "jax", 5520758552LL, -1, -1, -1, -1, -1},
    {"erfanzar/EasyDeL#78",
     "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: XLA:TPU compile permanent error. "
     "Ran out of memory in memory space hbm. Used 21.90G of 7.48G hbm. Exceeded hbm capacity by "
     "14.42G.\n",
     true, "jax", -1, GIB(7.48), -1, -1, -1, -1},
    {"patrickbryant1/AFProfile#8",
     "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to "
     "allocate 4770354232 bytes.\nBufferAssignment OOM Debugging.\n",
     true, "jax", 4770354232LL, -1, -1, -1, -1, -1},
    /* TF/XLA stream executor. */
    {"paninski-lab/deepgraphpose#7",
     "2021-03-04 10:30:24.114464: E tensorflow/stream_executor/cuda/cuda_driver.cc:806] failed to "
     "allocate 2.53G (2715310336 bytes) from device: CUDA_ERROR_OUT_OF_MEMORY: out of memory\n",
     true, "cuda-error", 2715310336LL, -1, -1, -1, -1, -1},
    {"philip-huang/PIXOR#31",
     "failed to allocate 17.79G (19104890880 bytes) from device: CUDA_ERROR_OUT_OF_MEMORY: out of "
     "memory\n",
     true, "cuda-error", 19104890880LL, -1, -1, -1, -1, -1},
    {"YoshitakaMo/localcolabfold#50",
     "2022-01-12 06:00:32.512066: E external/org_tensorflow/tensorflow/stream_executor/cuda/"
     "cuda_driver.cc:771] failed to alloc 2147483648 bytes unified memory; result: "
     "CUDA_ERROR_OUT_OF_MEMORY: out of memory\n",
     true, "cuda-error", 2147483648LL, -1, -1, -1, -1, -1},
    /* Old THC, Lua torch, MXNet (one hard-wrapped inside a word). */
    {"Cadene/vqa.pytorch#47",
     "THCudaCheck FAIL file=/opt/conda/conda-bld/pytorch_1513368888240/work/torch/lib/THC/generic/"
     "THCStorage.c line=82 error=2 : out of memory\nSegmentation fault (core dumped)\n",
     true, "cuda-error", -1, -1, -1, -1, -1, -1},
    {"torch/torch7#1140",
     "/home/gpu/torch/install/share/lua/5.1/cutorch/Tensor.lua:14: cuda runtime error (2) : out of "
     "memory at /home/gpu/torch/extra/cutorch/lib/THC/generic/THCStorage.cu:66\nstack traceback:\n",
     true, "cuda-error", -1, -1, -1, -1, -1, -1},
    {"apache/mxnet#675",
     "mxnet.base.MXNetError: [11:18:15] src/storage/./pooled_storage_manager.h:157: cudaMalloc "
     "failed: out of memory\nStack trace:\n",
     true, "cuda-error", -1, -1, -1, -1, -1, -1},
    {"TuSimple/mx-maskrcnn#98",
     "terminate called after throwing an instance of 'dmlc::Error'\n"
     "  what():  [10:44:35] src/engine/./threaded_engine.h:359: [10:44:35] src/storage/./"
     "pooled_storage_manager.h:107: cudaMalloc fail\ned: out of memory\n",
     true, "cuda-error", -1, -1, -1, -1, -1, -1},
    /* CuPy/Chainer: both wordings, thousands separators. */
    {"cupy/cupy#1912",
     "cupy.cuda.memory.OutOfMemoryError: out of memory to allocate 1073741824 bytes (total "
     "12373894656 bytes)\n",
     true, "cupy", 1073741824, -1, -1, 12373894656LL, -1, -1},
    {"cupy/cupy#2537",
     "Exception in main training loop: Out of memory allocating 25,600,000 bytes (allocated so far: "
     "3,635,267,072 bytes).\n",
     true, "cupy", 25600000, -1, -1, 3635267072LL, -1, -1},
    /* Julia CUDA.jl: the figures on the lines after the message. */
    {"JuliaMolSim/Molly.jl#57",
     "  Got exception outside of a @test\n"
     "  Out of GPU memory trying to allocate 1.896 GiB\n"
     "  Effective GPU memory usage: 99.90% (15.766 GiB/15.782 GiB)\n"
     "  Memory pool usage: 2.372 GiB (3.219 GiB reserved)\n"
     "  Stacktrace:\n",
     true, "julia", GIB(1.896), GIB(15.782), -1, GIB(2.372), GIB(3.219), -1},
    /* Intel XPU, both PyTorch forms. */
    {"intel/intel-extension-for-pytorch#629",
     "RuntimeError: XPU out of memory. Tried to allocate 1.71 GiB (GPU 0; 15.56 GiB total capacity; "
     "176.00 MiB already allocated; 176.00 MiB reserved in total by PyTorch)\n",
     true, "pytorch-old", GIB(1.71), GIB(15.56), -1, MIB(176), MIB(176), 0},
    {"intel/torch-xpu-ops#5046",
     "torch.OutOfMemoryError: XPU out of memory. Tried to allocate 16.00 GiB. GPU 0 has a total "
     "capacity of 16.48 GiB of which 16.07 GiB is free. Of the allocated memory 0 bytes is allocated "
     "by PyTorch, and 0 bytes is reserved by PyTorch but unallocated.\n",
     true, "pytorch-new", GIB(16), GIB(16.48), GIB(16.07), 0, ANY, 0},
    /* The cudaMallocAsync backend's form: its figures on the lines after. */
    {"AIFSH/ComfyUI-ChatTTS#9",
     "torch.cuda.OutOfMemoryError: Allocation on device 0 would exceed allowed memory. (out of "
     "memory)\n"
     "Currently allocated     : 6.89 GiB\n"
     "Requested               : 320.00 MiB\n"
     "Device limit            : 23.69 GiB\n"
     "Free (according to CUDA): 2.94 MiB\n"
     "PyTorch limit (set by user-supplied memory fraction)\n"
     "                        : 17179869184.00 GiB\n"
     "2024-06-22 15:13:25,079- root:124- INFO- Prompt executed in 57.84 seconds\n",
     true, "pytorch-async", MIB(320), GIB(23.69), MIB(2.94), GIB(6.89), -1, 0},
    {"continue-revolution/sd-webui-animatediff#320",
     "OutOfMemoryError: Allocation on device 0 would exceed allowed memory. (out of memory) "
     "Currently allocated : 12.20 GiB Requested : 1.88 GiB Device limit : 16.00 GiB Free (according "
     "to CUDA): 0 bytes PyTorch limit (set by user-supplied memory fraction) : 17179869184.00 GiB\n",
     true, "pytorch-async", GIB(1.88), GIB(16), 0, GIB(12.20), -1, 0},
    /* accelerate's batch-size finder ran out of halvings. */
    {"huggingface/accelerate#1934", "RuntimeError: No executable batch size found, reached zero.\n",
     true, "batch-size-finder", -1, -1, -1, -1, -1, -1},
    /* SGLang's KV cache pool at start-up. */
    {"sgl-project/sglang#4330",
     "RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.\n", true,
     "sglang-kv-cache", -1, -1, -1, -1, -1, -1},
    /* Found on the tests/corpus-heldout6 development set (its threads). */
    {"abetlen/llama-cpp-python#1944", /* no exact line: the size, not the device number */
     "   ggml_backend_cuda_buffer_type_alloc_buffer: allocating 204800.00 MiB on device 0: "
     "cudaMalloc failed: out of memory\n"
     "   llama_kv_cache_init: failed to allocate buffer for kv cache\n",
     true, "ggml", 214748364800LL, -1, -1, -1, -1, 0},
    {"apache/mxnet#2913",
     "[19:03:47] /home/deeper/mxnet/dmlc-core/include/dmlc/./logging.h:235: [19:03:47] "
     "src/storage/./pooled_storage_manager.h:62: Memory allocation failed.\n",
     true, "cuda-error", -1, -1, -1, -1, -1, -1},
    {"endernewton/tf-faster-rcnn#7",
     "tensorflow/core/common_runtime/bfc_allocator.cc:275] Ran out of memory trying to allocate "
     "392.00MiB. See logs for memory state.\n",
     true, "tf-bfc", 411041792, -1, -1, -1, -1, -1},
    {"facebookresearch/fairseq#103",
     "| epoch 001:   0%|  | 315/72115 [01:24<5:21:16,  3.72it/s, loss=11.45 (12.65), oom=0]"
     "THCudaCheck FAIL file=/pytorch/torch/lib/THC/generic/THCStorage.cu line=58 error=2 : out of "
     "memory\n"
     "| WARNING: ran out of memory on GPU #2, skipping batch\n",
     true, "cuda-error", -1, -1, -1, -1, -1, 2},
    {"huggingface/transformers#22328",
     "2023-03-23 02:02:23.050198: W tensorflow/core/framework/op_kernel.cc:1830] OP_REQUIRES failed "
     "at tpu_execute_op.cc:266 : RESOURCE_EXHAUSTED: Attempting to reserve 10.51G at the bottom of "
     "memory. That was not possible. There are 8.97G free, 0B reserved, and 8.97G reservable.\n",
     true, "jax", GIB(10.51), -1, GIB(8.97), -1, -1, -1},
    {"huggingface/trl#3436", /* the rank from the [rank0]: traceback printed after */
     "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 388.00 MiB. GPU 0 has a total cap"
     "acity of 9.68 GiB of which 95.75 MiB is free. Including non-PyTorch memory, this process has 9."
     "54 GiB memory in use. Of the allocated memory 6.61 GiB is allocated by PyTorch, and 2.57 GiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)\n"
     "[rank0]: Traceback (most recent call last):\n"
     "[rank0]:   File \"/data/cy/LLMlable/grpo/sft/sft.py\", line 67, in <module>\n",
     true, "pytorch-new", MIB(388), GIB(9.68), MIB(95.75), ANY, ANY, 0},
    {"Comfy-Org/ComfyUI#7853", "KSampler Allocation on device\n", true, "pytorch-async", -1, -1,
     -1, -1, -1, -1},
    {"vllm-project/vllm#11251", "torch.OutOfMemoryError for 0.6.4.post1 but 0.6.3.post1 is working\n",
     true, "pytorch", -1, -1, -1, -1, -1, -1},
    {"d8ahazard/sd_dreambooth_extension#287", "runtimeerror: cuda out of memory on rtx 3060 12gb\n",
     true, "pytorch", -1, -1, -1, -1, -1, -1},
    /* The words garbled, or the message cut mid-word after its numbers. */
    {"Confusezius/unet-lits-2d-pipeline#6",
     "RuntimeError: CUDA out of the memory. Tried to allocate 360.00 MiB\n", true, "pytorch",
     MIB(360), -1, -1, -1, -1, -1},
    {"cong-yi/DMM#3",
     "RuntimeError: CUDA out of memory. Tried to allocate 24.00 MiB (GPU 0; 23.70 GiB total "
     "capacity; 22.67 GiB already allocated; 6.88 MiB free; 22.70 GiB reserved in tot\n",
     true, "pytorch-old", MIB(24), GIB(23.70), MIB(6.88), GIB(22.67), GIB(22.70), 0},
    /* CUDA errors of other libraries; ggml names the device on the next line. */
    {"ollama/ollama#3237",
     "CUDA error: out of memory\n"
     "  current device: 0, in function ggml_cuda_pool_malloc_vmm at C:\\Users\\jmorg\\git\\ollama"
     "\\llm\\llama.cpp\\ggml-cuda.cu:8583\n"
     "  cuMemCreate(&handle, reserve_size, &prop, 0)\n",
     true, "cuda-error", -1, -1, -1, -1, -1, 0},
    {"ggml-org/llama.cpp#1230", "CUDA error 2 at ggml-cuda.cu:359: out of memory\n", true,
     "cuda-error", -1, -1, -1, -1, -1, -1},
    {"unslothai/unsloth#2401", "RuntimeError: CUDA driver error: out of memory\n", true,
     "cuda-error", -1, -1, -1, -1, -1, -1},
    {"deepinsight/insightface#1341",
     "mxnet.base.MXNetError: Traceback (most recent call last):\n"
     "  File \"src/storage/./pooled_storage_manager.h\", line 161\n"
     "MXNetError: cudaMalloc retry failed: out of memory\n",
     true, "cuda-error", -1, -1, -1, -1, -1, -1},
    {"chainer/chainer#2373",
     "cupy.cuda.runtime.CUDARuntimeError: cudaErrorMemoryAllocation: out of memory\n", true,
     "cuda-error", -1, -1, -1, -1, -1, -1},
    {"xuhao1/VINS-Fisheye#16",
     "  what():  OpenCV(3.4.13) /home/mwy/opencv-3.4.13/modules/core/src/cuda/gpu_mat.cu:116: error: "
     "(-217:Gpu API call) out of memory in function 'allocate'\n",
     true, "cuda-error", -1, -1, -1, -1, -1, -1},
    {"hoanglocla9/bert-jointly-relation-entity-extraction#3",
     "RuntimeError: cublas runtime error : resource allocation failed at "
     "/pytorch/aten/src/THC/THCGeneral.cpp:250\n",
     true, "cublas", -1, -1, -1, -1, -1, -1},
    /* TensorRT: the size on the warning after the error lines. */
    {"marcoslucianops/DeepStream-Yolo#366",
     "ERROR: [TRT]: 2: [virtualMemoryBuffer.cpp::resizePhysical::160] Error Code 2: OutOfMemory (no "
     "further information)\n"
     "ERROR: [TRT]: 2: [virtualMemoryBuffer.cpp::resizePhysical::145] Error Code 2: OutOfMemory (no "
     "further information)\n"
     "WARNING: [TRT]: Requested amount of GPU memory (4294967296 bytes) could not be allocated. There "
     "may not be enough free memory for allocation to succeed.\n",
     true, "tensorrt", 4294967296LL, -1, -1, -1, -1, -1},
    {"NVIDIA-AI-IOT/torch2trt#661",
     "[TensorRT] ERROR: Requested amount of memory (150994944 bytes) could not be allocated. There may "
     "not be enough free memory for allocation to succeed.\n"
     "[TensorRT] ERROR: ../rtSafe/WeightsPtr.cpp (92) - OutOfMemory Error in allocate: 0\n",
     true, "tensorrt", 150994944, -1, -1, -1, -1, -1},
    /* Apple Metal, repeated per command buffer: one event. */
    {"ollama/ollama#6257",
     "error: Insufficient Memory (00000008:kIOGPUCommandBufferCallbackErrorOutOfMemory)\n"
     "ggml_metal_graph_compute: command buffer 3 failed with status 5\n"
     "error: Insufficient Memory (00000008:kIOGPUCommandBufferCallbackErrorOutOfMemory)\n"
     "ggml_metal_graph_compute: command buffer 3 failed with status 5\n",
     true, "metal", -1, -1, -1, -1, -1, -1},
    {"safx/waifu2x-metal#3",
     "**Fatal error: MetalExecutionError: Error Domain=MTLCommandBufferErrorDomain Code=8 "
     "\"Insufficient Memory (IOAF code 8)\" UserInfo={NSLocalizedDescription=Insufficient Memory "
     "(IOAF code 8)}: file /Users/xxxx/Downloads/waifu/waifu2x-metal-master/waifu2x-metal/"
     "main.swift, line 261\n",
     true, "metal", -1, -1, -1, -1, -1, -1},
    /* ONNX Runtime's arena. */
    {"microsoft/onnxruntime#20038",
     "onnx runtime error 6: Non-zero status code returned while running Mul node. Name:\\'Mul_8702"
     "\\' Status Message: /workspace/onnxruntime/onnxruntime/core/framework/bfc_arena.cc:368 void* "
     "onnxruntime::BFCArena::AllocateRawInternal(size_t, bool, onnxruntime::Stream*, bool, "
     "onnxruntime::WaitNotificationFn) Failed to allocate memory for requested buffer of size "
     "2830172160\\\n",
     true, "onnxruntime", 2830172160LL, -1, -1, -1, -1, -1},
    /* Caffe2's enforce on a CUDA call (2 is cudaErrorMemoryAllocation). */
    {"facebookresearch/Detectron#560",
     "RuntimeError: [enforce fail at event_gpu.cc:17] error == cudaSuccess. 2 vs 0. Error at: "
     "/home/sd/pytorch/caffe2/core/event_gpu.cc:17: out of memory \n",
     true, "cuda-error", -1, -1, -1, -1, -1, -1},
    {"facebookresearch/DensePose#171", /* a title keeping the message's end */
     "/pytorch/caffe2/core/context_gpu.cu:415: out of memory Error from operator:\n",
     true, "cuda-error", -1, -1, -1, -1, -1, -1},
    {"kmaninis/COB#15", /* Caffe's CHECK without the blank */
     "check failed: error == cudaSuccess(2 vs. 0) out of memory while testing\n",
     true, "cuda-error", -1, -1, -1, -1, -1, -1},
    /* Caffe2's CPU allocator (ENOMEM): host RAM */
    {"facebookarchive/caffe2#1161",
     "RuntimeError: [enforce fail at allocator.h:48] posix_memalign(&data, gCaffe2Alignment, "
     "nbytes) == 0. 12 vs 0 Error from operator: \n",
     false, "host-cpu-alloc", -1, -1, -1, -1, -1, -1},
    /* Paddle 1.x's enforce on a CUDA call: the error string " at (file:line)". */
    {"PaddlePaddle/Paddle#23473",
     "all error stack information: out of memory at "
     "(/paddle/paddle/fluid/platform/device_context.cc:221)\n",
     true, "paddle", -1, -1, -1, -1, -1, -1},
    {"PaddlePaddle/Paddle#15168", /* before 1.7: "at [file:line]" */
     "terminate called after throwing an instance of 'paddle::platform::EnforceNotMet'\n"
     "  what():  out of memory at [/paddle/paddle/fluid/platform/device_context.cc:251]\n",
     true, "paddle", -1, -1, -1, -1, -1, -1},
    {"PaddlePaddle/ERNIE#269",
     "paddle.fluid.core.EnforceNotMet: ptr_ should not be null\n"
     "Insufficient GPU memory to allocation. at [/paddle/paddle/fluid/framework/tensor.h:180]\n",
     true, "paddle", -1, -1, -1, -1, -1, -1},
    /* TPU HBM with its status code split by markdown bold. */
    {"huggingface/transformers#21363",
     "** jax._src.traceback_util.UnfilteredStackTrace: jaxlib.xla_extension.XlaRuntimeError: "
     "RESO**URCE_EXHAUSTED: Ran out of memory in memory space hbm. Used 17.91G of 15.48G hbm. "
     "Exceeded hbm capacity by 2.43G.**\n",
     true, "jax", -1, GIB(15.48), -1, -1, -1, -1},
    /* The old form split over lines, its parentheses lost. */
    {"karpathy/nanoGPT#236",
     "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB \n"
     "GPU 0; 8.00 GiB total capacity; 7.20 GiB already allocated; 0 bytes free; 7.30 GiB reserved "
     "in total by PyTorch\n",
     true, "pytorch-old", MIB(20), GIB(8), 0, GIB(7.20), GIB(7.30), 0},
    /* A UI that catches the OOM of a VAE decode and retries in tiles: with
     * no failure after it the retry went on, a look-alike (diagconv; a
     * traceback after it keeps it a GPU OOM, test_diagnose_conventions.c). */
    {"lllyasviel/Fooocus#1032",
     "Warning: Ran out of memory when regular VAE decoding, retrying with tiled VAE decoding.\n",
     false, "vae-decode-oom", -1, -1, -1, -1, -1, -1},
    /* Case changed: Paddle 1.x in a Chinese title; the gpuErrchk macro. */
    {"PaddlePaddle/Paddle#13984", "\xe8\xae\xad\xe7\xbb\x83\xe5\xbc\x80\xe5\xa7\x8b\xe5\x87\xba"
     "\xe7\x8e\xb0" "Cuda Error: out of memory\n",
     true, "cuda-error", -1, -1, -1, -1, -1, -1},
    {"tromp/cuckoo#53", "GPUassert: out of memory mean.cu 377\n", true, "cuda-error", -1, -1, -1,
     -1, -1, -1},
    /* ROCm: HIP's old code 1002 (hipErrorMemoryAllocation), MIOpen's buffer. */
    {"ROCmSoftwarePlatform/hiptensorflow#62",
     "mnist.py: failed to allocate 8.00G from device: hipError_t(1002)\n",
     true, "cuda-error", GIB(8), -1, -1, -1, -1, -1},
    {"ROCm/MIOpen#47",
     "MIOpen Error: /data/repo/MIOpen/src/hip/handlehip.cpp:70: Memory not available to allocate "
     "buffer: 655360000\n",
     true, "cuda-error", 655360000, -1, -1, -1, -1, -1},
    /* YOLOX caught a CUDA OOM in label assignment and retries on the CPU. */
    {"DDGRCF/YOLOX_OBB#31",
     "OOM RuntimeError is raised due to the huge memory cost during label assignment.           "
     "                 CPU mode is applied in this batch. If you want to avoid this issue,\n",
     true, "pytorch", -1, -1, -1, -1, -1, -1},
    /* torch_npu's old form names the card "NPU 3"; CNTK's "GPU=0". */
    {"xingchensong/TouchNet#100",
     "RuntimeError: NPU out of memory. Tried to allocate 5.03 GiB (NPU 3; 60.96 GiB total capacity; "
     "49.47 GiB already allocated; 49.47 GiB current active; 1.32 GiB free; 57.55 GiB reserved in "
     "total by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to "
     "avoid fragmentation.\n",
     true, "pytorch-old", GIB(5.03), GIB(60.96), GIB(1.32), GIB(49.47), GIB(57.55), 3},
    {"microsoft/CNTK#220",
     "cuDNN failure 2: CUDNN_STATUS_ALLOC_FAILED ; GPU=0 ; hostname=PTNUWCL5099642 ; "
     "expr=finder(calgo, algoPerf)\n",
     true, "cudnn", -1, -1, -1, -1, -1, 0},
    /* Ascend torch_npu's port of the old form names the device "NPU N"
     * (the vllm-omni prefix on the line, its "[Stage-0] " tag included). */
    {"vllm-project/vllm-omni#2128",
     "[Stage-0] ERROR 03-23 04:09:00 [diffusion_worker.py:430] Error processing RPC: NPU out of memory. "
     "Tried to allocate 9.05 GiB (NPU 0; 60.95 GiB total capacity; 42.32 GiB already allocated; 42.32 GiB "
     "current active; 2.10 GiB free; 52.58 GiB reserved in total by PyTorch) If reserved memory is >> "
     "allocated memory try setting max_split_size_mb to avoid fragmentation.\n",
     true, "pytorch-old", GIB(9.05), GIB(60.95), GIB(2.10), GIB(42.32), GIB(52.58), 0},
    /* torch-directml's own words, in ComfyUI's logging format. */
    {"Comfy-Org/ComfyUI#5427",
     "2024-11-01 10:20:10,862 - root - ERROR - !!! Exception during processing !!! Could not allocate "
     "tensor with 2025000000 bytes. There is not enough GPU video memory available!\n",
     true, "directml", 2025000000, -1, -1, -1, -1, -1},
    /* CTranslate2 (faster-whisper) glued to the user's prose. */
    {"Purfview/whisper-standalone-win#255",
     "Listen, it's appeared again:RuntimeError: CUDA failed with error out of memory error.\n",
     true, "ctranslate2", -1, -1, -1, -1, -1, -1},
};

static void check_bytes(const char *src, const char *what, int64_t want, int64_t got)
{
    if (want == ANY || want == got) return;
    fail_msg("%s: %s want %lld got %lld", src, what, (long long)want, (long long)got);
}

static void test_families(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct want *w = &cases[i];
        struct oom_report rep;
        scan_log(w->log, &rep);
        if (rep.n_events == 0) fail_msg("%s: no event", w->source);
        const struct oom_event *e = &rep.events[rep.primary >= 0 ? rep.primary : 0];
        if (e->gpu_oom != w->gpu_oom) fail_msg("%s: gpu_oom %d", w->source, e->gpu_oom);
        if (strcmp(e->kind, w->kind)) fail_msg("%s: kind %s", w->source, e->kind);
        check_bytes(w->source, "requested", w->requested, e->bytes.requested);
        check_bytes(w->source, "capacity", w->capacity, e->bytes.capacity);
        check_bytes(w->source, "free", w->free, e->bytes.free);
        check_bytes(w->source, "allocated", w->allocated, e->bytes.allocated);
        check_bytes(w->source, "reserved", w->reserved, e->bytes.reserved);
        if (w->gpu != ANY && e->gpu != w->gpu) fail_msg("%s: gpu %d", w->source, e->gpu);
        if (!strcmp(w->source, "huggingface/trl#3436") && e->rank != 0)
            fail_msg("%s: rank %d", w->source, e->rank);
        if (!strcmp(w->kind, "metal") && rep.n_events != 1)
            fail_msg("%s: %zu events", w->source, rep.n_events);
        oom_report_release(&rep);
    }
}

/* TF/XLA's pinned host allocator failing is host RAM
 * (gaycodegal/craiyon-low-vram-easy#1): a look-alike, not a GPU OOM. */
static void test_host_pinned(void **state)
{
    (void)state;
    const char *log =
        "2022-07-03 15:46:53.245176: E external/org_tensorflow/tensorflow/stream_executor/cuda/"
        "cuda_driver.cc:802] failed to alloc 782758144 bytes on host: CUDA_ERROR_OUT_OF_MEMORY: "
        "out of memory\n"
        "2022-07-03 15:46:53.245221: W external/org_tensorflow/tensorflow/core/common_runtime/"
        "device/device_host_allocator.h:46] could not allocate pinned host memory of size: "
        "782758144\n";
    struct oom_report rep;
    scan_log(log, &rep);
    assert_int_equal(rep.primary, -1);
    assert_int_equal(rep.n_events, 1);
    assert_string_equal(rep.events[0].kind, "tf-host-memory");
    assert_false(rep.events[0].gpu_oom);
    assert_int_equal(rep.events[0].bytes.requested, 782758144);
    oom_report_release(&rep);
}

/* A multi-part TF error: its header and its message are one event with the
 * message's numbers, also when a long "Detected at node" traceback stands
 * between them (the header and OOM lines are hotosm/fAIr#59's; the frames
 * between them are constructed in TF 2.9's shape: the thread shows none). */
static void test_tf_header_merges(void **state)
{
    (void)state;
    char log[8192];
    size_t n = (size_t)snprintf(log, sizeof log, "%s",
        "tensorflow.python.framework.errors_impl.ResourceExhaustedError: Graph execution error:\n\n"
        "Detected at node 'model/conv2d/Conv2D' defined at (most recent call last):\n");
    for (int i = 0; i < 20; i++)
        n += (size_t)snprintf(log + n, sizeof log - n,
                              "    File \"/usr/lib/python3/keras/engine/training.py\", line %d, "
                              "in train_step\n      y_pred = self(x, training=True)\n", 100 + i);
    snprintf(log + n, sizeof log - n, "%s",
             "OOM when allocating tensor with shape[16,64,64,64] and type float on "
             "/job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n"
             "\t [[{{node model/d\n");
    struct oom_report rep;
    scan_log(log, &rep);
    assert_int_equal(rep.n_events, 1);
    assert_int_equal(rep.primary, 0);
    assert_int_equal(rep.events[0].bytes.requested, 16LL * 64 * 64 * 64 * 4);
    assert_int_equal(rep.events[0].gpu, 0);
    oom_report_release(&rep);
}

/* Look-alikes stay look-alikes; "error 209" is not error 2. */
static void test_not_oom(void **state)
{
    (void)state;
    static const char *const lines[] = {
        "RuntimeError: /spconv/src/spconv/indice.cu 125\ncuda execution failed with error 209\n",
        "cuda execution failed with error 700 an illegal memory access was encountered\n",
        "Cannot malloc memory for the hash table\n", /* constructed: host memory */
        /* tensorflow/tensorflow#43546: the retry warning quoted without its
         * "not a failure" words */
        "Problem In tensorflow-gpu with error \"Allocator (GPU_0_bfc) ran out of memory trying to "
        "allocate 2.20GiB with freed_by_count=0.\"\n",
        /* pytorch/xla#9524: a TPU kernel's scratch, not the device's memory */
        "RuntimeError: Bad StatusOr access: RESOURCE_EXHAUSTED: XLA:TPU compile permanent error. "
        "Ran out of memory in memory space vmem. Used 32.42M of 16.00M vmem. Exceeded vmem "
        "capacity by 16.42M\n",
        /* deepinsight/insightface#1341: MXNet's CPU storage */
        "mxnet.base.MXNetError: [10:42:33] c:\\jenkins\\workspace\\mxnet-tag\\mxnet\\src\\storage"
        "\\./cpu_device_storage.h:72: Failed to allocate CPU Memory\n",
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        struct oom_report rep;
        scan_log(lines[i], &rep);
        for (size_t k = 0; k < rep.n_events; k++)
            if (rep.events[k].gpu_oom) fail_msg("a GPU OOM in: %s", lines[i]);
        oom_report_release(&rep);
    }
}

/* The clause language: thousands separators, skipped values, "%%", and
 * a text cut within the last words (only after four letters). */
static void test_clause_placeholders(void **state)
{
    (void)state;
    struct oom_event e;
    oom_event_init(&e);
    const char *t = "allocating 25,600,000 bytes";
    assert_true(msg_apply("allocating %n bytes", MSG_F_REQUESTED, t, strlen(t), &e));
    assert_int_equal(e.bytes.requested, 25600000);
    oom_event_init(&e);
    t = "shape 1,256 bytes"; /* %d does not read separators */
    assert_false(msg_apply("shape %d bytes", MSG_F_REQUESTED, t, strlen(t), &e));
    oom_event_init(&e);
    t = "usage: 99.90% (15.766 GiB/15.782 GiB)";
    assert_true(msg_apply("usage: %i.%i%% (%z/%s)", MSG_F_CAPACITY, t, strlen(t), &e));
    assert_int_equal(e.bytes.capacity, GIB(15.782));
    oom_event_init(&e);
    t = "6.88 MiB free; 22.70 GiB reserved in tot";
    assert_true(msg_apply("%s reserved in total", MSG_F_RESERVED, t, strlen(t), &e));
    assert_int_equal(e.bytes.reserved, GIB(22.70));
    oom_event_init(&e);
    /* a message logged as a JSON string: "\n" before a clause is a word
     * boundary (constructed: VisFly#9's message with JSON's escapes) */
    t = "Tried to allocate 244.00 MiB.\\nGPU 0 has a total capacity of 7.73 GiB";
    assert_true(msg_apply("GPU %d has a total capac", MSG_F_GPU, t, strlen(t), &e));
    assert_int_equal(e.gpu, 0);
    oom_event_init(&e);
    t = "22.70 GiB res"; /* three letters: not enough */
    assert_false(msg_apply("%s reserved in total", MSG_F_RESERVED, t, strlen(t), &e));
}

/* memory_summary() tables as printed in real logs, one per era. */
static void test_memsummary_eras(void **state)
{
    (void)state;
    struct {
        const char *source;
        const char *text;
        long ooms, retries;
        int64_t alloc_cur, alloc_peak, reserved_cur, nonrel_cur;
        int device;
    } eras[] = {
        /* torch 1.x: KB/MB/GB cells; the title glued to the rule before it. */
        {"facebookresearch/fairseq#2442",
         "|===========================================================================||          "
         "        PyTorch CUDA memory summary, device ID 0                 |\n"
         "|---------------------------------------------------------------------------|\n"
         "|           CUDA OOMs: 1             |       cudaMalloc retries: 6          |\n"
         "|===========================================================================|\n"
         "|        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  |\n"
         "|---------------------------------------------------------------------------|\n"
         "| Allocated memory      |   26377 MB |   26988 MB |  767743 GB |  767717 GB |\n"
         "|       from large pool |   25981 MB |   26595 MB |  738567 GB |  738542 GB |\n",
         1, 6, 26377LL << 20, 26988LL << 20, -1, -1, 0},
        /* torch 2.x: KiB/MiB/GiB cells. */
        {"pytorch/pytorch#116928",
         "|===========================================================================|\n"
         "|                  PyTorch CUDA memory summary, device ID 0                 |\n"
         "|---------------------------------------------------------------------------|\n"
         "|            CUDA OOMs: 0            |        cudaMalloc retries: 0         |\n"
         "|===========================================================================|\n"
         "|        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  |\n"
         "|---------------------------------------------------------------------------|\n"
         "| Allocated memory      |  14356 MiB |  23806 MiB |  32225 MiB |  17868 MiB |\n"
         "|       from large pool |  14356 MiB |  23806 MiB |  29960 MiB |  15604 MiB |\n",
         0, 0, 14356LL << 20, 23806LL << 20, -1, -1, 0},
        /* With the "Requested memory" row and "0 B" cells, after a logger's line. */
        {"AIMixer/ComfyUI_MiniMaxH3_Director#155",
         "[INFO] Memory summary:\n"
         "|===========================================================================|\n"
         "|                  PyTorch CUDA memory summary, device ID 0                 |\n"
         "|---------------------------------------------------------------------------|\n"
         "|            CUDA OOMs: 0            |        cudaMalloc retries: 0         |\n"
         "|===========================================================================|\n"
         "|        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  |\n"
         "|---------------------------------------------------------------------------|\n"
         "| Allocated memory      |   2640 MiB |   4944 MiB |      0 B   |      0 B   |\n"
         "|       from large pool |      0 MiB |      0 MiB |      0 B   |      0 B   |\n"
         "| Requested memory      |      0 B   |      0 B   |      0 B   |      0 B   |\n",
         0, 0, 2640LL << 20, 4944LL << 20, -1, -1, 0},
        /* torch 1.x, KB cells in the reserved and non-releasable rows. */
        {"facebookresearch/fairseq#2442",
         "| GPU reserved memory   |    3614 MB |    4394 MB |    4394 MB |     780 MB |\n"
         "| Non-releasable memory |   18475 KB |   21051 KB |  446261 KB |  427786 KB |\n",
         -1, -1, -1, -1, 3614LL << 20, 18475LL << 10, -1},
    };
    for (size_t i = 0; i < sizeof eras / sizeof eras[0]; i++) {
        struct oom_memsummary m;
        oom_memsummary_init(&m);
        const char *p = eras[i].text;
        while (*p) {
            const char *nl = strchr(p, '\n');
            size_t n = nl ? (size_t)(nl - p) : strlen(p);
            memsummary_line(p, n, &m);
            p += n + (nl != NULL);
        }
        if (!m.present) fail_msg("%s: no table", eras[i].source);
        if (m.ooms != eras[i].ooms || m.retries != eras[i].retries)
            fail_msg("%s: ooms %ld retries %ld", eras[i].source, m.ooms, m.retries);
        check_bytes(eras[i].source, "allocated", eras[i].alloc_cur, m.allocated_cur);
        check_bytes(eras[i].source, "allocated peak", eras[i].alloc_peak, m.allocated_peak);
        check_bytes(eras[i].source, "reserved", eras[i].reserved_cur, m.reserved_cur);
        check_bytes(eras[i].source, "non-releasable", eras[i].nonrel_cur, m.nonreleasable_cur);
        if (m.device != eras[i].device) fail_msg("%s: device %d", eras[i].source, m.device);
    }
}

/* Backend ports of the formatter name their device and malloc (format
 * strings seen in public code: "NPU OOMs: {num_ooms:<13d} | {_:6}
 * npuMalloc retries:", "MUSA OOMs", "MLU reserved memory", "dipu reserved
 * memory"). No real log of one was found: these rows are constructed in
 * those formats. The table is read and alone, with OOMs > 0, is an OOM. */
static void test_memsummary_device_words(void **state)
{
    (void)state;
    const char *log =
        "|===========================================================================|\n"
        "|                  PyTorch NPU memory summary, device ID 3                  |\n"
        "|---------------------------------------------------------------------------|\n"
        "|            NPU OOMs: 2             |        npuMalloc retries: 4          |\n"
        "|===========================================================================|\n"
        "|        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  |\n"
        "| MLU reserved memory   |  12420 MiB |  12420 MiB |  16924 MiB |   4504 MiB |\n";
    struct oom_report rep;
    scan_log(log, &rep);
    assert_int_equal(rep.n_events, 1);
    const struct oom_event *e = &rep.events[0];
    assert_true(e->gpu_oom);
    assert_string_equal(e->kind, "memory-summary");
    assert_int_equal(e->gpu, 3);
    assert_int_equal(e->mem.ooms, 2);
    assert_int_equal(e->mem.retries, 4);
    assert_int_equal(e->mem.reserved_cur, 12420LL << 20);
    assert_true(memsummary_fragmented(&e->mem));
    oom_report_release(&rep);
}

/* A HIP OOM followed by its table: one event with the table's figures. The
 * message, "Memory status:" and the table's first two lines are
 * pytorch/pytorch#175431's; the rest of that table is not in the excerpt we
 * have, so the OOM and retries row below is constructed in the formatter's
 * shape. */
static void test_memsummary_joins_event(void **state)
{
    (void)state;
    const char *log =
        "torch.OutOfMemoryError: HIP out of memory. Tried to allocate 2.00 MiB. GPU 7 has a total "
        "capacity of 287.98 GiB of which 203.49 GiB is free. Of the allocated memory 68.63 GiB is "
        "allocated by PyTorch, and 14.93 GiB is reserved by PyTorch but unallocated.\n"
        "\n"
        "Memory status:\n"
        "|===========================================================================|\n"
        "|                  PyTorch CUDA memory summary, device ID 7                 |\n"
        "|---------------------------------------------------------------------------|\n"
        "|            CUDA OOMs: 1            |        cudaMalloc retries: 3         |\n"
        "|===========================================================================|\n";
    struct oom_report rep;
    scan_log(log, &rep);
    assert_int_equal(rep.n_events, 1);
    const struct oom_event *e = &rep.events[0];
    assert_string_equal(e->kind, "pytorch-new");
    assert_int_equal(e->gpu, 7);
    assert_true(e->mem.present);
    assert_int_equal(e->mem.retries, 3);
    oom_report_release(&rep);
}

/* The whole table as torch 1.13's own formatter prints it (Debian's torch
 * 1.13 on this CPU-only machine: memory_summary() itself raises KeyError
 * without CUDA, so torch.cuda.memory.memory_stats was replaced by a dict of
 * chosen figures and the real formatter printed this, Oversize rows and
 * all): read whole, 43 lines after a step line. */
static void test_memsummary_torch113_formatter(void **state)
{
    (void)state;
    const char *log =
        "Epoch 3 step 120 loss 2.31\n"
        "|===========================================================================|\n"
        "|                  PyTorch CUDA memory summary, device ID 0                 |\n"
        "|---------------------------------------------------------------------------|\n"
        "|            CUDA OOMs: 2            |        cudaMalloc retries: 3         |\n"
        "|===========================================================================|\n"
        "|        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  |\n"
        "|---------------------------------------------------------------------------|\n"
        "| Allocated memory      |    1062 MB |    4877 MB |   14631 MB |   13569 MB |\n"
        "|       from large pool |    1062 MB |    4877 MB |   14631 MB |   13569 MB |\n"
        "|       from small pool |    1062 MB |    4877 MB |   14631 MB |   13569 MB |\n"
        "|---------------------------------------------------------------------------|\n"
        "| Active memory         |    1062 MB |    4877 MB |   14631 MB |   13569 MB |\n"
        "|       from large pool |    1062 MB |    4877 MB |   14631 MB |   13569 MB |\n"
        "|       from small pool |    1062 MB |    4877 MB |   14631 MB |   13569 MB |\n"
        "|---------------------------------------------------------------------------|\n"
        "| GPU reserved memory   |   12420 MB |   12420 MB |   37260 MB |   24840 MB |\n"
        "|       from large pool |   12420 MB |   12420 MB |   37260 MB |   24840 MB |\n"
        "|       from small pool |   12420 MB |   12420 MB |   37260 MB |   24840 MB |\n"
        "|---------------------------------------------------------------------------|\n"
        "| Non-releasable memory |   18475 KB |   21051 KB |   63153 KB |   44678 KB |\n"
        "|       from large pool |   18475 KB |   21051 KB |   63153 KB |   44678 KB |\n"
        "|       from small pool |   18475 KB |   21051 KB |   63153 KB |   44678 KB |\n"
        "|---------------------------------------------------------------------------|\n"
        "| Allocations           |     100    |     200    |     600    |     500    |\n"
        "|       from large pool |     100    |     200    |     600    |     500    |\n"
        "|       from small pool |     100    |     200    |     600    |     500    |\n"
        "|---------------------------------------------------------------------------|\n"
        "| Active allocs         |     100    |     200    |     600    |     500    |\n"
        "|       from large pool |     100    |     200    |     600    |     500    |\n"
        "|       from small pool |     100    |     200    |     600    |     500    |\n"
        "|---------------------------------------------------------------------------|\n"
        "| GPU reserved segments |      10    |      12    |      36    |      26    |\n"
        "|       from large pool |      10    |      12    |      36    |      26    |\n"
        "|       from small pool |      10    |      12    |      36    |      26    |\n"
        "|---------------------------------------------------------------------------|\n"
        "| Non-releasable allocs |       5    |       6    |      18    |      13    |\n"
        "|       from large pool |       5    |       6    |      18    |      13    |\n"
        "|       from small pool |       5    |       6    |      18    |      13    |\n"
        "|---------------------------------------------------------------------------|\n"
        "| Oversize allocations  |       0    |       0    |       0    |       0    |\n"
        "|---------------------------------------------------------------------------|\n"
        "| Oversize GPU segments |       0    |       0    |       0    |       0    |\n"
        "|===========================================================================|\n";
    struct oom_report rep;
    scan_log(log, &rep);
    assert_int_equal(rep.n_events, 1);
    const struct oom_event *e = &rep.events[0];
    assert_true(e->gpu_oom);
    assert_int_equal(e->gpu, 0);
    assert_int_equal(e->step, 120);
    assert_int_equal(e->mem.ooms, 2);
    assert_int_equal(e->mem.retries, 3);
    assert_int_equal(e->mem.allocated_peak, 4877LL << 20);
    assert_int_equal(e->mem.reserved_cur, 12420LL << 20);
    assert_int_equal(e->mem.nonreleasable_cur, 18475LL << 10);
    assert_int_equal(e->mem.nonreleasable_peak, 21051LL << 10);
    oom_report_release(&rep);
}

/* A terminal hard-wraps a line at its width, wherever that falls: inside a
 * number, a unit or a word. Real messages (sources beside them), wrapped at
 * every width from 40 columns to their length, give the figures the line
 * gives whole, and the advice they end with is not read as the setting it
 * names. Before the join tried both ways and read past lines without a
 * figure, 32 of these 1,000-odd wraps lost or misread a figure. */
static void test_hard_wrap_every_width(void **state)
{
    (void)state;
    static const char *const msgs[] = {
        /* chnsh/DCRNN_PyTorch#6 */
        "RuntimeError:CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 5.80 GiB total "
        "capacity; 4.36 GiB already allocated; 6.69 MiB free; 4.63 GiB reserved in total by PyTorch)",
        /* SJTU-ViSYS-team/VisFly#9 */
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 244.00 MiB. GPU 0 has a "
        "total capacity of 7.73 GiB of which 228.50 MiB is free. Including non-PyTorch memory, this "
        "process has 6.59 GiB memory in use. Of the allocated memory 5.90 GiB is allocated by "
        "PyTorch, and 469.82 MiB is reserved by PyTorch but unallocated. If reserved but unallocated "
        "memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid "
        "fragmentation.",
        /* pytorch/examples#621 */
        "RuntimeError: CUDA out of memory. Tried to allocate 26.00 MiB (GPU 0; 1024.00 MiB total "
        "capacity; 435.61 MiB already allocated; 24.17 MiB free; 26.39 MiB cached)",
        /* PaddlePaddle/Paddle#42228 */
        "Out of memory error on GPU 0. Cannot allocate 98.000244MB memory on GPU 0, 6.000000GB "
        "memory has been allocated and available memory is only 0.000000B.",
        /* keras-team/keras#9643 */
        "ResourceExhaustedError: OOM when allocating tensor with shape[128,128,109,109] and type "
        "float on /job:localhost/replica:0/task:0/device:GPU:1 by allocator GPU_1_bfc",
    };
    /* The line's writer prefix stays on its first line only: torchrun's,
     * a vLLM worker's, python logging's (formats of those tools). */
    static const char *const prefixes[] = {
        "", "[rank3]: ", "(VllmWorker rank=1 pid=2345) ",
        "2024-05-01 09:00:00,001 ERROR train: ",
    };
    static char text[4096], line[1024];
    for (size_t pm = 0; pm < 4 * (sizeof msgs / sizeof msgs[0]); pm++) {
        size_t m = pm / 4, pre = pm % 4;
        snprintf(line, sizeof line, "%s%s", prefixes[pre], msgs[m]);
        size_t len = strlen(line);
        struct oom_report whole, wrapped;
        struct oomlab_err err = {{0}};
        snprintf(text, sizeof text, "%s\n", line);
        scan_log(text, &whole);
        assert_int_equal(whole.primary, 0);
        /* narrower than 48 columns a long prefix leaves no anchor whole */
        for (size_t w = pre ? 48 : 40; w <= len; w++) {
            size_t n = 0;
            for (size_t i = 0; i < len; i += w) {
                size_t k = len - i < w ? len - i : w;
                memcpy(text + n, line + i, k);
                n += k;
                text[n++] = '\n';
            }
            assert_int_equal(scan_text(text, n, &wrapped, &err), 0);
            if (wrapped.primary < 0)
                fail_msg("message %zu, prefix %zu, wrapped at %zu: no OOM", m, pre, w);
            const struct oom_event *a = &whole.events[0], *b = &wrapped.events[wrapped.primary];
            if (memcmp(&a->bytes, &b->bytes, sizeof a->bytes) || a->gpu != b->gpu ||
                a->rank != b->rank)
                fail_msg("message %zu, prefix %zu, wrapped at %zu: figures differ", m, pre, w);
            /* the advice "try setting PYTORCH_CUDA_ALLOC_CONF=expandable_
             * segments:True" wrapped is no setting the log shows */
            if (wrapped.expandable_set)
                fail_msg("message %zu, prefix %zu, wrapped at %zu: advice read as a setting", m,
                         pre, w);
            oom_report_release(&wrapped);
        }
        oom_report_release(&whole);
    }
}

/* The plan's first step speaks the family's own knobs: SGLang's
 * --mem-fraction-static (sgl-project/sglang#4330), llama.cpp's -ngl/-c
 * (ggml-org/llama.cpp#20431); a memory_summary() table with retries puts
 * expandable_segments first (pytorch/pytorch#35901's rows). */
static void test_plan_first_step(void **state)
{
    (void)state;
    static const struct {
        const char *log, *first;
    } plans[] = {
        {"RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.\n",
         "sglang-mem-fraction"},
        {"ggml_backend_cuda_buffer_type_alloc_buffer: allocating 144817.04 MiB on device 0: "
         "cudaMalloc failed: out of memory\n"
         "alloc_tensor_range: failed to allocate CUDA0 buffer of size 151851674624\n",
         "llama-cpp-offload"},
        /* vLLM's start-up check names its own two knobs (ovg-project/kvcached#110) */
        {"ValueError: Free memory on device (67.24/79.25 GiB) on startup is less than desired GPU "
         "memory utilization (0.9, 71.33 GiB). Decrease GPU memory utilization or reduce GPU "
         "memory used by other processes.\n",
         "vllm-startup-memory"},
        {"|                  PyTorch CUDA memory summary, device ID 0                 |\n"
         "|            CUDA OOMs: 1            |        cudaMalloc retries: 1         |\n"
         "| Allocated memory      |    1062 MB |    4877 MB |   89299 MB |   88237 MB |\n"
         "| GPU reserved memory   |   12420 MB |   12420 MB |   16924 MB |    4504 MB |\n",
         "expandable-segments"},
    };
    for (size_t i = 0; i < sizeof plans / sizeof plans[0]; i++) {
        struct oom_report rep;
        scan_log(plans[i].log, &rep);
        struct verdicts v;
        static struct plan p;
        verdict_compute(&rep, &v);
        plan_build(&rep, &v, NULL, &p);
        assert_true(p.n > 0);
        if (strcmp(p.items[0].id, plans[i].first))
            fail_msg("case %zu: first step %s, want %s", i, p.items[0].id, plans[i].first);
        oom_report_release(&rep);
    }
}

/* A GPU OOM named only in words (an issue title, the user's prose) above a
 * traceback whose message the paste cut: the fallback event when the log
 * shows no OOM message; not without a traceback, not "OOM killer", not when
 * a real message is there. Lines of huggingface/transformers#7158. */
static void test_oom_mention(void **state)
{
    (void)state;
    static const struct {
        const char *log;
        bool oom;
        const char *kind;
    } logs[] = {
        {"OOM Issue when evaluating with Trainer\n\n`\nTraceback (most recent call last):\n"
         "  File \"main.py\", line 211, in <module>\n    main()\n\n"
         "  File \"main.py\", line 182, in main\n    trainer.evaluate()\n",
         true, "oom-mention"},
        /* the same words, no traceback after them and no run named: nothing
         * to go on (with "evaluating with Trainer" the paste's context names
         * an ML run and calls it: test_diagnose_context, diagcall2) */
        {"OOM Issue\n\nsome prose\n", false, NULL},
        /* the host's killer, named in prose (constructed) */
        {"OOM killer ended the job\nTraceback (most recent call last):\n"
         "  File \"main.py\", line 211, in <module>\n", false, NULL},
        /* "OOMs" is no mention (the memory_summary() row word) */
        {"see the OOMs count\nTraceback (most recent call last):\n"
         "  File \"main.py\", line 211, in <module>\n", false, NULL},
    };
    for (size_t i = 0; i < sizeof logs / sizeof logs[0]; i++) {
        struct oom_report rep;
        scan_log(logs[i].log, &rep);
        if ((rep.primary >= 0) != logs[i].oom) fail_msg("log %zu: primary %ld", i, rep.primary);
        if (logs[i].oom) {
            assert_string_equal(rep.events[rep.primary].kind, logs[i].kind);
            assert_int_equal(rep.events[rep.primary].stage, OOM_STAGE_EVAL);
        }
        oom_report_release(&rep);
    }
    /* the rank from the launcher's prefixed traceback below the title
     * (deepspeedai/DeepSpeed#7021 lines) */
    const char *ranked = "Out-of-Memory (OOM) Error with CPU Offload Using ZeRO Stage 3\n\n"
                         "[rank0]: Traceback (most recent call last):\n"
                         "[rank0]:   File \"/home/lorenaromerom/TFM/llama_inference.py\", line 83, "
                         "in <module>\n";
    struct oom_report rr;
    scan_log(ranked, &rr);
    assert_int_equal(rr.primary, 0);
    assert_int_equal(rr.events[0].rank, 0);
    oom_report_release(&rr);
    /* With a real message in the log the mention adds nothing. */
    const char *both = "OOM when training\nTraceback (most recent call last):\n"
                       "  File \"main.py\", line 211, in <module>\n"
                       "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; "
                       "5.80 GiB total capacity; 4.36 GiB already allocated; 6.69 MiB free; 4.63 "
                       "GiB reserved in total by PyTorch)\n";
    struct oom_report rep;
    scan_log(both, &rep);
    assert_int_equal(rep.n_events, 1);
    assert_string_equal(rep.events[0].kind, "pytorch-old");
    oom_report_release(&rep);
}

/* Prose forms of a GPU OOM above a traceback whose message the paste cut,
 * and a wrap's second half that reads as mere words. */
/* Look-alikes that read like GPU OOMs: TF's CPU allocator running out
 * (tensorflow/tensorflow#45238) is host memory; a reporter who denies an OOM
 * above a traceback ("I guarantee that the GPU is not out of memory",
 * open-mmlab/mmdetection3d#1495) names none. */
static void test_host_and_denial(void **state)
{
    (void)state;
    const char *tf =
        "2020-11-28 09:40:14.792808: W tensorflow/core/framework/op_kernel.cc:1763] OP_REQUIRES failed at "
        "image_resizer_state.h:142 : Resource exhausted: OOM when allocating tensor with shape[1,416,416,3] "
        "and type float on /job:localhost/replica:0/task:0/device:CPU:0 by allocator cpu\n"
        "2020-11-28 09:40:14.816077: W tensorflow/core/framework/op_kernel.cc:1751] Resource exhausted: "
        "MemoryError: Unable to allocate 184. MiB for an array with shape (64, 26, 26, 3, 371) and data "
        "type float32\nTraceback (\n";
    struct oom_report rep;
    scan_log(tf, &rep);
    assert_true(rep.n_events >= 1);
    assert_int_equal(rep.primary, -1);
    assert_string_equal(rep.events[0].kind, "host-cpu-alloc");
    for (size_t i = 0; i < rep.n_events; i++) assert_false(rep.events[i].gpu_oom);
    oom_report_release(&rep);
    const char *denial =
        "   I guarantee that the GPU is not out of memory.\n**Describe the bug**\n"
        "  File \"/home/mmdetection3d/mmdet3d/ops/spconv/ops.py\", line 116, in indice_conv\n"
        "    return sparse_conv_ext.indice_conv_fp32(features, filters,\n"
        "RuntimeError: mmdet3d/ops/spconv/src/reordering_cuda.cu 57\n"
        "cuda execution failed with error 9\n";
    scan_log(denial, &rep);
    assert_int_equal(rep.primary, -1);
    for (size_t i = 0; i < rep.n_events; i++) assert_false(rep.events[i].gpu_oom);
    oom_report_release(&rep);
}

/* A GPU OOM named in words with its device ("CUDA OOM", "Cuda oom error",
 * "cuda out of memoery") is called without a traceback (titles and prose
 * from the threads named); the same words denied in their clause, a
 * memory_summary() row, or host memory said to have run out are not. */
/* Host memory failing in C++ and the user-space killer: look-alikes
 * (before, no event at all). */
static void test_host_families(void **state)
{
    (void)state;
    static const struct {
        const char *source, *log;
    } logs[] = {
        {"Determined22/zh-NER-TF#98",
         "train data: 299 terminate called after throwing an instance of 'std::bad_alloc' what(): "
         "std::bad_alloc Aborted\n"},
        {"epfml/sent2vec#98",
         "terminate called after throwing an instance of 'std::bad_alloc' \nwhat():    "
         "std::bad_alloc \nAborted\n"},
        {"Comfy-Org/ComfyUI#15276",
         "Aug 04 10:39:10 debian earlyoom[845]: low memory! at or below SIGTERM limits: mem  3.00%, "
         "swap 10.00%\nAug 04 10:39:10 debian earlyoom[845]: sending SIGTERM to process 322603 uid "
         "1000 \"python3.13\": oom_score 1282, VmRSS 29931 MiB, cmdline \"/home/x/miniconda3/envs/"
         "comfy-env/bin/python3.13 main.py --listen 0.0.0.0 --reserve-vram=0.05\"\n"},
    };
    for (size_t i = 0; i < sizeof logs / sizeof logs[0]; i++) {
        struct oom_report rep;
        scan_log(logs[i].log, &rep);
        if (rep.n_events == 0) fail_msg("%s: no event", logs[i].source);
        if (rep.primary >= 0) fail_msg("%s: a GPU OOM", logs[i].source);
        if (strcmp(rep.events[0].framework, "host"))
            fail_msg("%s: %s", logs[i].source, rep.events[0].kind);
        oom_report_release(&rep);
    }
    /* a device allocator's bad_alloc is not the host's (constructed after RAPIDS RMM's wording) */
    const char *rmm = "MemoryError: std::bad_alloc: out_of_memory: CUDA error at: "
                      "/usr/include/rmm/mr/device/cuda_memory_resource.hpp:70: "
                      "cudaErrorMemoryAllocation out of memory\n";
    struct oom_report rep;
    scan_log(rmm, &rep);
    assert_true(rep.primary >= 0);
    oom_report_release(&rep);
}

/* Real lines (source beside each) and whether each holds a GPU OOM: a
 * mention, or the class named alone (a message row). */
struct call_case {
    const char *source, *log;
    bool oom;
};

static void expect_calls(const struct call_case *logs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        struct oom_report rep;
        scan_log(logs[i].log, &rep);
        if ((rep.primary >= 0) != logs[i].oom)
            fail_msg("%s: primary %ld", logs[i].source, rep.primary);
        if (logs[i].oom) assert_true(rep.events[rep.primary].gpu_oom);
        oom_report_release(&rep);
    }
}

/* Rows the lead added after reading heldout19/20's misses (their unseen
 * measurements taken first): cuFFT's and DeepSpeed inference's workspace
 * failures are GPU OOMs; CUDA.jl's caught-and-retried allocation and a
 * task "OOM Killed" (host) are not. */
static void test_lead_rows_h1920(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"computational-imaging/ThreeDeconv.jl#2",
         "`CUFFTError(code 2, cuFFT failed to allocate GPU or CPU memory)\n", true},
        {"JarodMica/ai-voice-cloning#24",
         "  File \"/venv/lib/site-packages/deepspeed/ops/transformer/inference/ds_attention.py\", "
         "line 141, in forward\n"
         "    self.allocate_workspace(...)\n"
         "RuntimeError: Workspace can't be allocated, no enough memory.\n", true},
        {"JuliaGPU/CUDA.jl#2197",
         "WARNING: CUDA memory allocation failed; attempting to free up memory...\n"
         "training epoch 1/45   4%|##       |  ETA: 0:00:09\n", false},
        {"OpenRLHF/OpenRLHF#1139",
         "Some of the step tasks have been OOM Killed - Custom reward_func\n"
         "Traceback (most recent call last):\n"
         "  File \"/openrlhf/trainer/ppo_trainer.py\", line 120, in fit\n"
         "    rewards_info = ray.get(r_refs)\n", false},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
    struct oom_report rep;
    const char *retry = logs[2].log;
    scan_log(retry, &rep);
    assert_true(rep.n_events >= 1);
    assert_string_equal(rep.events[0].kind, "julia-retry");
    oom_report_release(&rep);
}

static void test_device_words(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"Vision-CAIR/MiniGPT-4#168",
         "CUDA OOM after train several iters\n\n"
         "When set batch_size 8, oom error occurs like 50 iters, when batch_size 6,  occurs in 50 "
         "iters\n", true},
        {"voice-cloning-app/Voice-Cloning-App#74",
         "My pc has 16 GB of RAM. If I try to use a batch size like 16 it starts training and after "
         "10 iterations it throws a Cuda oom error.\n", true},
        {"edwardzhou130/PolarSeg#45", "CUDA out-of-memory when GPU memory is 11GB\n", true},
        /* a card's model number as the device (heldout17 h17-02, read after
         * heldout19/20's measurements); not a word ending in one */
        {"ComputationalRadiationPhysics/picongpu#3064", "taurus V100 out-of-memory error\n", true},
        {"written here", "batch X3090 out-of-memory\n", false},
        {"warchildmd/ihd#1", "cuda out of memoery\n\nHi, \n", true},
        {"zhengchen1999/RGT#19", "Training CUDA OutOfMemoryError\n", true},
        {"LISTatSNU/FastMRI_challenge#197",
         "Cuda Out of Memory \xea\xb4\x80\xeb\xa0\xa8 \xeb\xac\xb8\xec\x9d\x98\n", true},
        /* the words in another language: GPU memory named by itself, or
         * memory running out after its device (CJK glued to it) */
        {"zhengchen1999/RGT#19",
         "\xe6\x82\xa8\xe5\xa5\xbd\xef\xbc\x8c\xe6\x88\x91\xe5\x9c\xa8\xe8\xae\xad\xe7\xbb\x83\x52\x47\x54\x2d\x53\x5f\x58\x34\xe6\x97\xb6\xe4\xbd\xbf\xe7\x94\xa8\x38\x30\x47\xe6\x98\xbe\xe5\xad\x98\xe7\x9a\x84\x47\x50\x55\xe8\xbf\x9b\xe8\xa1\x8c\xe8\xae\xad\xe7\xbb\x83\xef\xbc\x8c\xe8\xbf\x90\xe8\xa1\x8c\xe5\x88\xb0\xe7\xac\xac\xe4\xb9\x9d\xe4\xb8\xaa\x65\x70\x6f\x63\x68\xe7\x9a\x84\xe6\x97\xb6\xe5\x80\x99\xe5\x87\xba\xe7\x8e\xb0\xe6\x98\xbe\xe5\xad\x98\xe4\xb8\x8d\xe8\xb6\xb3\xef\xbc\x8c\xe5\xba\x94\xe8\xaf\xa5\xe6\x98\xaf\xe8\xae\xad\xe7\xbb\x83\xe6\x97\xb6\xe6\x9c\x89\xe5\x8f\x98\xe9\x87\x8f\xe7\xa9\xba\xe9\x97\xb4\xe6\x9c\xaa\xe9\x87\x8a\xe6\x94\xbe\n", true},
        {"JIA-Lab-research/MASA-SR#9", "test\xe6\x97\xb6\x31\x32\x47\xe6\x98\xbe\xe5\xad\x98\xe4\xb8\x8d\xe5\xa4\x9f\xe7\x94\xa8\xef\xbc\x8c\xe6\x8a\xa5\xe9\x94\x99\xe5\x86\x85\xe5\xad\x98\xe4\xb8\x8d\xe5\xa4\x9f\xef\xbc\x8c\xe8\xae\xad\xe7\xbb\x83\xe6\x89\x8d\xe5\x8d\xa0\x38\x47\xef\xbc\x8c\xe6\x98\xaf\xe4\xbb\x80\xe4\xb9\x88\xe5\x8e\x9f\xe5\x9b\xa0\n", true},
        {"Dpbm/dreambooth-tutorial#4",
         "Falta de memoria de video, la no ultimo codigo tem uma op\xc3\xa7\xc3\xa3\x6f de limpar a memoria\n", true},
        {"MVIG-SJTU/AlphaPose#223", "\xe6\x96\xb0\xe6\x89\x8b\xe6\x8f\x90\xe9\x97\xae\xef\xbc\x8c\xe8\xae\xad\xe7\xbb\x83\xe7\x9b\xb8\xe5\x85\xb3\xef\xbc\x8c\x43\x55\x44\x41\xe5\x86\x85\xe5\xad\x98\xe6\xba\xa2\xe5\x87\xba\n", true},
        {"ndb796/Deep-Learning-Paper-Review-and-Practice#6",
         "resnet 18\xec\x9d\x84\x20\xed\x99\x9c\xec\x9a\xa9\xed\x95\x98\xec\x97\xac custom dataset\xec\x9d\x84\x20\xeb\xa7\x8c\xeb\x93\xa4\xec\x96\xb4\x20\xec\x8b\xa4\xed\x96\x89\xec\xa4\x91\xec\x9d\xb8\xeb\x8d\xb0 cuda memory\xea\xb0\x80\x20\xeb\xb6\x80\xec\xa1\xb1\xed\x95\x98\xeb\x8b\xa4\x20\xeb\x9c\xa8\xeb\x8a\x94\xeb\x8d\xb0\x20\xea\xb7\xb8\xeb\x9e\x98\xed\x94\xbd\x20\xec\xb9\xb4\xeb\x93\x9c\x20\xeb\xac\xb8\xec\xa0\x9c\xec\x9d\xbc\xea\xb9\x8c\xec\x9a\x94\x3f\n", true},
        /* the device, the word "error" in any case and spacing, then the words
         * (heldout12, after its one measurement) */
        {"ollama/ollama#3431",
         "Getting a \"CUDA Error:  out of memory error\" with command-r after message is "
         "returned.\n", true},
        {"NoncerPro/noncerpro-nimiq-cuda#17", "GTX 770 Cuda error - out of memory\n", true},
        /* Chinese GPU memory or card with overflow anywhere on the line */
        {"jingyaogong/minimind#522", "\xe6\xb1\x82\xe9\x97\xae\xe4\xb8\xba\xe4\xbb\x80\xe4\xb9\x88\xe8\xae\xad\xe7\xbb\x83\xe4\xb8\x80\xe6\xae\xb5\xe6\x97\xb6\xe9\x97\xb4\xe5\x90\x8e\xe5\xb0\xb1\xe4\xbc\x9a\xe6\xba\xa2\xe5\x87\xba\xe6\x98\xbe\xe5\xad\x98\n", true},
        {"luopeixiang/im2latex#14", "\xe5\x9c\xa8\xe8\xae\xad\xe7\xbb\x83\xe7\x9a\x84\xe6\x97\xb6\xe5\x80\x99\xef\xbc\x8c\xe6\x98\xbe\xe5\x8d\xa1\xe5\x86\x85\xe5\xad\x98\xe4\xb8\x80\xe7\x9b\xb4\xe4\xb8\x8a\xe6\xb6\xa8\xef\xbc\x8c\xe5\xa4\xa7\xe6\xa6\x82\xe8\xae\xad\xe7\xbb\x83\xe5\x87\xa0\xe5\x8d\x81\xe8\xbd\xae\xe5\x90\x8e\xef\xbc\x8c\xe6\x9c\x80\xe7\xbb\x88\xe5\x86\x85\xe5\xad\x98\xe6\xba\xa2\xe5\x87\xba\xe3\x80\x82\n", true},
        /* memory without its device is not the GPU's (a part of MASA-SR#9's line) */
        {"JIA-Lab-research/MASA-SR#9", "\xe6\x8a\xa5\xe9\x94\x99\xe5\x86\x85\xe5\xad\x98\xe4\xb8\x8d\xe5\xa4\x9f\xef\xbc\x8c\xe8\xae\xad\xe7\xbb\x83\xe6\x89\x8d\xe5\x8d\xa0\x38\x47\n", false},
        /* the exception's class as what was raised, the message cut or
         * translated; not an except clause */
        {"Comfy-Org/ComfyUI#8465",
         "- **Tipo de exce\xc3\xa7\xc3\xa3o:** torch.OutOfMemoryError\n"
         "- **Mensagem de exce\xc3\xa7\xc3\xa3o:** Aloca\xc3\xa7\xc3\xa3o no dispositivo\n", true},
        {"huggingface/sentence-transformers#3214",
         "HPO seems to load model 3 times to gpu: stella_en_1.5B_v5 on NVIDIA L40S "
         "torch.OutOfMemoryError despite large GPU VRAM\n", true},
        {"(an except clause)", "        except (torch.cuda.OutOfMemoryError, RuntimeError) as e:\n", false},
        /* a memory_summary() row, between eval batches */
        {"Lightning-AI/pytorch-lightning#8453", "|            CUDA OOMs: 0            |\n", false},
        /* an except clause names the class with "cuda." before it */
        {"(the class in code)", "    except torch.cuda.OutOfMemoryError:\n", false},
        /* host memory said in words outranks an OOM named above a traceback
         * (the title and a log line from facebookresearch/vissl#470; the
         * traceback's first line stands for the paste's) */
        {"facebookresearch/vissl#470",
         "CPU OOM when resuming training from a given checkpoint\n\n"
         "INFO 2021-11-14 20:43:01,226 checkpoint.py: 662: Ignored layer:\t"
         "_feature_blocks.layer4.2.bn2.num_batches_tracked\n"
         "Traceback (most recent call last):\n  File \"tools/run_distributed_engines.py\", line 1, "
         "in <module>\n", false},
        {"databrickslabs/dolly#38",
         "> You probably ran OOM. How are you running this?\n"
         "Traceback (most recent call last):\n  File \"train.py\", line 1, in <module>\n"
         "I think you need an instance with more RAM (not GPU memory). Not sure there is an easy way "
         "around it.\n", false},
        /* host memory named after the OOM words (constructed, the class of
         * the CPU-side prose the host list missed) */
        {"(constructed)",
         "the loader ran out of memory on the CPU side\n"
         "Traceback (most recent call last):\n  File \"train.py\", line 1, in <module>\n", false},
        /* a denial in its clause; a "not" of another clause is none
         * (open-mmlab/mmdetection3d#1495; PrefectHQ/prefect#15413) */
        {"open-mmlab/mmdetection3d#1495",
         "   I guarantee that the GPU is not out of memory.\n"
         "Traceback (most recent call last):\n  File \"train.py\", line 1, in <module>\n", false},
        {"PrefectHQ/prefect#15413",
         "The server does not work due to OOM, however, the process is still running.\n"
         "Traceback (most recent call last):\n  File \"server.py\", line 1, in <module>\n", true},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* Wordings read from diagrec4's development rows (corpus-heldout17) and
 * heldout9's remaining misses (seen): the device word with a colon right
 * before the OOM words, the allocation said to fail on the device, the
 * device allocator's call named in prose, vLLM's zero-block line. Real lines,
 * source beside each; the constructed ones say so. */
static void test_wordings_rec4(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"pytorch/pytorch#20133",
         "But some of the case after she break current process, she need to logout first before "
         "running another model because of CUDA:OutOfMemory error.\n", true},
        {"MVIG-SJTU/AlphaPose#493 (the maintainer's reply, a colon added: constructed)",
         "CUDA: out of memory. Check your GPU\n", true},
        {"ultralytics/ultralytics#7076", "Memory allocation problem on GPU\n\n"
         "Hello, I am trying to train the YOLOv8 seg model on GPU, but I am encountering this "
         "challenge in this error below.\n", true},
        {"ggml-org/llama.cpp#7366",
         "The error is exactly what it says, a call to `cudaMalloc` failed with an \"out of "
         "memory\" error, which is something outside the control of llama.cpp.\n", true},
        {"vllm-project/vllm#13882",
         "INFO 02-26 09:54:05 executor_base.py:111] # cuda blocks: 0, # CPU blocks: 4681\n", true},
        /* a CUDA extension's launch check (read from corpus-heldout15's
         * misses, h15-81, seen) */
        {"thangvubk/SoftGroup#146",
         "INFO - 2022-10-09 12:36:55,533 - custom - Load test dataset: 14 scans\n"
         "CUDA kernel failed : out of memory\n", true},
        /* memory running out with the device inside the words; the class's
         * name alone above a traceback (heldout13, heldout12, heldout14;
         * seen) */
        {"AUTOMATIC1111/stable-diffusion-webui#16461", "# [Bug]: Running out of VRAM AMD 7900 xt\n",
         true},
        {"lltcggie/waifu2x-caffe#178", "It is out of GPU memory.\n", true},
        {"oobabooga/textgen#6430 (the Cyrillic folder in the path left out)",
         "API OutOfMemory Error\n"
         "When trying to send API request for text generation I get OutOfMemory. At the same time "
         "text generation in the browser goes smoothly and quietly.\n\n### Logs\n\n```shell\n"
         "Traceback (most recent call last):\n"
         "  File \"/home/kupert/AI_TOOLS/text-generation-webui/modules/callbacks.py\", line 61, in "
         "gentask\n    ret = self.mfunc(callback=_callback, *args, **self.kwargs)\n", true},
        /* advice, a hypothetical (ggml-org/llama.cpp#16725's last line) */
        {"ggml-org/llama.cpp#16725",
         "common_init_from_params: failed to create context with model 'models/large/Apertus-70B-"
         "Instruct-2509-IQ4_XS.gguf', try reducing --n-gpu-layers if you're running out of VRAM\n",
         false},
        /* a block count that is not zero; a denied allocation error
         * (constructed) */
        {"(constructed from vllm-project/vllm#13882)",
         "INFO 02-26 09:54:05 executor_base.py:111] # cuda blocks: 0127, # CPU blocks: 4681\n",
         false},
        {"(constructed)", "There was no memory allocation error on the GPU.\n", false},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* diagrec5 (issue 12): the GPU OOM in other words, runtime families' own
 * wordings, and what takes a guessed OOM back. Each line is real, from the
 * thread named (the heldout rows say where it was seen). */
static void test_wordings_rec5(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        /* device memory said to run short, device and memory around the words */
        {"lllyasviel/Fooocus#1278 (h18-36)",
         "Not enough gpu memory even though there is?\n"
         "[Fooocus Model Management] Moving model(s) has taken 59.70 seconds\n", true},
        {"WeChatCV/Stand-In#40 (h18-46)",
         "Is 4090 video memory not enough for face swapping?\n", true},
        {"vincentfung13/MINE#13 (h22-30)",
         "Inference memory is insufficient\n"
         "When using 1060-3g inference, the GPU memory is not enough, how should I modify it? "
         "thanks\n", true},
        /* ... a device memory error */
        {"visionml/pytracking#132 (h22-33)",
         "GPU memory error due to settings.print_stats\n"
         "when I leave the print_stats empty while training, it runs without a problem but when I "
         "add some stats to the list, I get not enough memory error. how is this possible?\n",
         true},
        {"bryanchrist/MathNeuro#3 (h18-63)", "CUDA Memory Errors\n", true},
        /* ... capitals and a misspelling */
        {"RosettaCommons/RFdiffusion#182 (h18-78)", "about cuda out of memery issue\n", true},
        {"(h15-46's title)", "GPU-OUT of memory\n", true},
        /* lower-case oom glued to Chinese, above a traceback */
        {"(heldout15 h15-23)",
         "\xe8\x87\xaa\xe5\xae\x9a\xe4\xb9\x89loss\xe8\xbf\x9b\xe8\xa1\x8c\xe8\xae\xad"
         "\xe7\xbb\x83\xe7\x9a\x84\xe6\x97\xb6\xe5\x80\x99\xef\xbc\x8c\xe8\xae\xad\xe7\xbb"
         "\x83\xe4\xb8\xad\xe9\x80\x94\xe6\x8a\xa5oom\xe9\x94\x99\xe8\xaf\xaf\xe3\x80\x82\n"
         "[rank1]: Traceback (most recent call last):\n"
         "[rank1]:   File \"/root/LLaMA-Factory-main/src/llamafactory/launcher.py\", line 23, in "
         "<module>\n[rank1]:     launch()\n", true},
        /* a traceback header glued to a progress bar under the words */
        {"unslothai/unsloth#1060 (h9-63; the bar's blanks shortened)",
         "Unexpected OOM issue with LORA fine tune of LLama-3 (possibly perf hit as well)\n"
         "wandb: WARNING The `run_name` is currently set to the same value as "
         "`TrainingArguments.output_dir`. If this was not intended,   0%|      | 0/769 "
         "[00:00<?, ?it/s]Traceback (most r\n", true},
        /* ... or to rich's boxed traceback (its frame lines) */
        {"deepspeedai/DeepSpeed#2676 (heldout9 h9-80, its first 9 lines)",
         "[BUG] OOM error during setup, but the OS GPU memory monitor does not show an OOM condition\n"
         "\n"
         "```\n"
         "│   126 │   │   │   │   │   │   │   │    model=model,                                              │\n"
         "│   127 │   │   │   │   │   │   │   │    optimizer=optimizer,                                      │\n"
         "│   128 │   │   │   │   │   │   │   │    model_parameters=model_parameters,                        │\n"
         "│                                                                                                  │\n"
         "│ /home/*****/anaconda3/envs/sd-gpu/lib/python3.10/site-packages/deepspeed/runtime/engine.py:330  │\n"
         "│ in __init__                                                                                      │\n", true},
        /* memory short without a device, above a traceback */
        {"sgl-project/sglang#4895 (heldout17 h17-70, its first 12 lines)",
         "[Bug] Not enough memory\n"
         "### Describe the bug\n"
         "\n"
         "I have two questions:\n"
         "1. Why does it take so long, more than ten minutes, to load the model?\n"
         "2. I'm running a Gemma3 27b model with 4-bit quantization. Why isn't 24GB of Gpu memory sufficient?\n"
         "The error message is as follows:\n"
         "\n"
         "[2025-03-29 18:18:34 TP0] Scheduler hit an exception: Traceback (most recent call last):\n"
         "  File \"/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py\", line 1999, in run_scheduler_process\n"
         "    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, dp_rank)\n"
         "  File \"/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py\", line 249, in __init__\n", true},
        /* ... not the CPU allocator's own words (a host look-alike) */
        {"chaquo/chaquopy#249 (heldout15 h15-57, line 12)",
         "    com.chaquo.python.PyException: RuntimeError: [enforce fail at CPUAllocator.cpp:72] "
         "data. DefaultCPUAllocator: not enough memory: you tried to allocate 38400000 bytes. Buy "
         "new RAM!\n"
         "Traceback (most recent call last):\n", false},
        /* OOM on a line of Chinese prose naming the GPU memory (read from the
         * set-aside's misses after its measurement) */
        {"bojone/sohu2021-baseline#3 (heldout22 h22-06, line 2)",
         "\xe5\xb0\x9d\xe8\xaf\x95\xe4\xba\x86" "16G\xe5\x92\x8c" "32G\xe4\xb8\xa4\xe7\xa7\x8d\xe6\x98\xbe\xe5\x8d\xa1\xef\xbc\x8c\xe6\xa8\xa1\xe5\x9e\x8b\xe5\x8a\xa0\xe8\xbd\xbd\xe5\xae\x8c\xe6\x9c\xaa\xe8\xae\xad\xe7\xbb\x83\xe6\x97\xb6\xe5\x80\x99\xe9\x83\xbd\xe4\xbc\x9a\xe6\x8a\x8a\xe6\x98\xbe\xe5\xad\x98\xe5\x8d\xa0\xe6\xbb\xa1\xef\xbc\x8c\xe8\xae\xad\xe7\xbb\x83\xe5\xae\x8c\xe4\xb8\x80\xe4\xb8\xaa" "batch\xe5\x90\x8e\xe5\x9c\xa8" "evaluate\xe9\x98\xb6\xe6\xae\xb5\xe4\xbc\x9a\xe5\x87\xba\xe7\x8e\xb0OOM\n", true},
        /* runtime families */
        {"NVIDIA/DALI#2084 (h22-16)",
         "    return self._pipe.ShareOutputs()\n"
         "RuntimeError: Critical error in pipeline: CUDA allocation failed\n"
         "Current pipeline object is no longer valid.\n", true},
        {"n00mkrad/flowframes#12 (h22-35)", "vkAllocateMemory Faied -2\nI have three GPUs\n", true},
        {"(heldout15 h15-10)",
         "We are using RTX 4080 and we always face the same error \xe2\x80\x9c" "Failed to load "
         "training data: Could not allocate memory: D:/a/instant-ngp/instant-ngp/dependencies/"
         "tiny-cuda-nn/include\\tiny-cuda-nn/\xe2\x80\x9d.\n", true},
        {"PaddlePaddle/Paddle#68079 (h18-67)",
         "1. If yes, please stop them, or start PaddlePaddle on another GPU.\n"
         "2. If no, please decrease the batch size of your model. \n"
         " (at ../paddle/phi/core/memory/allocation/cuda_allocator.cc:84)\n", true},
        /* TF's retry warning quoted in prose under a title that names the
         * GPU OOM: the title explains the crash */
        {"tensorflow/models#3316 (h22-23)",
         "Randomly crash for GPU OOM error during training for object detection, though use "
         "small batch size.\n"
         "I meet this issue today again, after training for 17825 steps. It says: ran out of "
         "memory trying to allocate 4.42GiB\n", true},
        /* look-alikes: not a memory failure, a hedge, a recovered OOM, not the GPUs */
        {"C0untFloyd/roop-unleashed#820 (h22-21)",
         "onnxruntime::CudaCall D:\\a\\_work\\1\\s\\onnxruntime\\core\\providers\\cuda\\"
         "cuda_call.cc:114 onnxruntime::CudaCall CUDA failure 35: CUDA driver\n", false},
        {"NVlabs/stylegan2-ada#9 (h22-32)",
         "My first guess would be that you run out of GPU memory, so maybe tweak the config "
         "(mini-batch size, etc.).\n"
         "My crashes are not due to insufficient memory, even when running with lower batch size "
         "where I'm only using 8/11 Gb train.py occasionally crashes silently...\n", false},
        {"(heldout12 h12-12)",
         "The problem may be that the GPU memory is not enough. Can you reduce the batch size and "
         "try again?\n", false},
        {"(heldout17 h17-41)",
         "During inference all checkpoints are loaded to GPU. This can cause problems when "
         "insufficient GPU memory is available.\n", false},
        {"Rudrabha/Wav2Lip#234 (h18-60)",
         "  0% 0/17 [00:04<?, ?it/s]\nRecovering from OOM error; New batch size: 8\n\n"
         "Traceback (most recent call last):\n"
         "  File \"inference.py\", line 78, in face_detect\n", false},
        {"(constructed: a launcher's count, not memory)",
         "ValueError: not enough GPUs available: 4 requested, 2 visible\n", false},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* CNTK's / ONNX Runtime's CudaCall names the device as "GPU=N". */
static void test_cudacall_gpu(void **state)
{
    (void)state;
    /* hacksider/Deep-Live-Cam#584 (heldout18 h18-17), the bar glued before it */
    const char *log =
        "Processing:  99%|\xe2\x96\x89| 1732/1744 [08:43<00:03,  3.79frame/s, execution_providers="
        "['CUDAExecutionProvider'], execution_thre[ONNXRuntimeError] : 1 : FAIL : D:\\a\\_work\\1\\"
        "s\\onnxruntime\\core\\providers\\cuda\\cuda_call.cc:121 onnxruntime::CudaCall D:\\a\\_work"
        "\\1\\s\\onnxruntime\\core\\providers\\cuda\\cuda_call.cc:114 onnxruntime::CudaCall CUDA "
        "failure 2: out of memory ; GPU=0 ; hostname=DESKTOP-QUBEI ; file=D:\\a\\_work\\1\\s\\"
        "onnxruntime\\core\\providers\\cuda\\cuda_stream_handle.cc ; line=175 ; expr="
        "cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);\n";
    struct oom_report rep;
    scan_log(log, &rep);
    assert_true(rep.primary >= 0);
    assert_true(rep.events[rep.primary].gpu_oom);
    assert_int_equal(rep.events[rep.primary].gpu, 0);
    oom_report_release(&rep);
}

/* A title that states some of the figures above the whole message (or a
 * host look-alike's bare class name above its message): one event with
 * every figure. */
static void test_partial_then_full(void **state)
{
    (void)state;
    /* OPIXray-author/OPIXray#5 (corpus-heldout17 h17-54) */
    const char *gpu =
        "CUDA out of memory. Tried to allocate 264.00 MiB\n"
        "how to fix this\n"
        "\" CUDA out of memory. Tried to allocate 264.00 MiB (GPU 0; 2.00 GiB total capacity; "
        "788.51 MiB already allocated; 145.93 MiB free; 1.02 GiB reserved in total by PyTorch)\"\n";
    struct oom_report rep;
    scan_log(gpu, &rep);
    assert_int_equal(rep.n_events, 1);
    assert_true(rep.primary >= 0);
    assert_int_equal(rep.events[rep.primary].bytes.requested, 276824064);
    assert_int_equal(rep.events[rep.primary].bytes.capacity, 2147483648LL);
    assert_int_equal(rep.events[rep.primary].gpu, 0);
    oom_report_release(&rep);
    /* ru1ven/KeypointFusion#3 (corpus-heldout14 h14-50, seen) */
    const char *host =
        "numpy.core._exceptions._ArrayMemoryError\n"
        "Hello, when i testing on dexycb, i have some problem like\xef\xbc\x9a\n"
        "File \"\", line 739, in getCrop\n"
        "    cropped = (np.pad(cropped, ((abs(ystart) - max(ystart, 0),\n"
        "numpy.core._exceptions._ArrayMemoryError: Unable to allocate 58.0 GiB for an array with "
        "shape (176351, 176460) and data type uint16\n";
    scan_log(host, &rep);
    assert_int_equal(rep.n_events, 1);
    assert_true(rep.primary < 0);
    assert_int_equal(rep.events[0].bytes.requested, 62277025792LL);
    oom_report_release(&rep);
    /* figures that disagree stay two events (constructed) */
    const char *two = "CUDA out of memory. Tried to allocate 20.00 MiB\n"
                      "RuntimeError: CUDA out of memory. Tried to allocate 264.00 MiB (GPU 0; 2.00 GiB "
                      "total capacity; 788.51 MiB already allocated; 145.93 MiB free; 1.02 GiB "
                      "reserved in total by PyTorch)\n";
    scan_log(two, &rep);
    assert_int_equal(rep.n_events, 2);
    oom_report_release(&rep);
}

/* TF's stream executor names no device on its failed device allocation;
 * the BFC allocator's lines around it do (ika-rwth-aachen/Point-Cloud-
 * Compression#2, corpus-heldout17 h17-24). */
static void test_cuda_driver_gpu_from_bfc(void **state)
{
    (void)state;
    const char *log =
        "2023-11-06 13:58:30.645317: W tensorflow/core/common_runtime/bfc_allocator.cc:271] "
        "Allocator (GPU_0_bfc) ran out of memory trying to allocate 2.16GiB with freed_by_count=0. "
        "The caller indicates that this is not a failure, but may mean that there could be "
        "performance gains if more memory were available.\n"
        "2023-11-06 13:58:30.661875: I tensorflow/stream_executor/cuda/cuda_driver.cc:789] failed to "
        "allocate 2.46G (2637627392 bytes) from device: CUDA_ERROR_OUT_OF_MEMORY: out of memory\n";
    struct oom_report rep;
    scan_log(log, &rep);
    assert_true(rep.primary >= 0);
    assert_int_equal(rep.events[rep.primary].bytes.requested, 2637627392LL);
    assert_int_equal(rep.events[rep.primary].gpu, 0);
    oom_report_release(&rep);
}

/* A message pasted with a backslash line continuation inside a word
 * ("alread\" / "y allocated"): the backslash goes (zoogzog/chexnet#19,
 * corpus-heldout9 h9-68, seen). */
static void test_backslash_continuation(void **state)
{
    (void)state;
    const char *log =
        "I am getting an error:\n"
        "`RuntimeError: CUDA out of memory. Tried to allocate 2.00 MiB (GPU 1; 11.17 GiB total "
        "capacity; 10.68 GiB alread\\\n"
        "y allocated; 64.00 KiB free; 188.49 MiB cached)`\n";
    struct oom_report rep;
    scan_log(log, &rep);
    assert_true(rep.primary >= 0);
    assert_int_equal(rep.events[rep.primary].bytes.allocated, 11467562680LL);
    assert_int_equal(rep.events[rep.primary].bytes.free, 65536);
    oom_report_release(&rep);
}

/* TF's BFC line without the retry warning's words or a failure's: the
 * warning's shape quoted in prose is no GPU OOM (anishathalye/neural-style#86,
 * corpus-heldout9 h9-40, seen); with "Current allocation summary follows."
 * it is (TF 1.x, constructed from the same line). */
static void test_bfc_bare_line(void **state)
{
    (void)state;
    const char *warn =
        "when running neural_style.py it indicates I have 1.5gb available, but right after it "
        "starts iteration 1 it says: `ran out of memory trying to allocate 975.59MiB  `\n"
        "`ran out of memory trying to allocate 278.55MiB  `\n"
        " ect..\n\n"
        "the script runs fine but I wonder if this memory allocation issue affects performance?\n";
    const char *fatal = "W tensorflow/core/common_runtime/bfc_allocator.cc:273] Allocator (GPU_0_bfc) "
                        "ran out of memory trying to allocate 975.59MiB.  Current allocation summary "
                        "follows.\n";
    struct oom_report rep;
    expect_no_gpu_oom(warn);
    scan_log(fatal, &rep);
    assert_true(rep.primary >= 0);
    assert_int_equal(rep.events[rep.primary].gpu, 0);
    oom_report_release(&rep);
}

/* tensorflow-rocm names its failed device allocation HIP_ERROR_OutOfMemory:
 * a message row, with the request (keras-team/keras#13889). */
static void test_tf_rocm_request(void **state)
{
    (void)state;
    const char *log = "E tensorflow/stream_executor/rocm/rocm_driver.cc:600] failed to allocate "
                      "890.06M (933298432 bytes) from device: HIP_ERROR_OutOfMemory\n";
    struct oom_report rep;
    scan_log(log, &rep);
    assert_true(rep.primary >= 0);
    assert_int_equal(rep.events[rep.primary].bytes.requested, 933298432LL);
    oom_report_release(&rep);
}

/* A mention on a log's first line keeps its text (the glue with a line
 * before it, which there is not, used to leave it empty): Vision-CAIR/
 * MiniGPT-4#168's title. */
static void test_mention_keeps_text(void **state)
{
    (void)state;
    const char *log = "CUDA OOM after train several iters\n";
    struct oom_report rep;
    scan_log(log, &rep);
    assert_true(rep.primary >= 0);
    assert_string_equal(rep.events[rep.primary].text, "CUDA OOM after train several iters");
    oom_report_release(&rep);
}

/* Denials scoped to the clause naming the OOM, in several languages: the
 * words of the classifier on one line each. */
static void test_denials(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        bool mention;
    } lines[] = {
        {"I guarantee that the GPU is not out of memory.", false},
        {"there is no OOM here", false},
        {"it is NOT an OOM", false},
        {"this isn't a CUDA OOM", false},
        {"The crash is not caused by an OOM", false},
        {"OOM is not the problem here", false},
        {"OOM error is not related to batch size", false},
        {"\xe8\xbf\x99\xe4\xb8\x8d\xe6\x98\xafOOM", false},              /* 这不是OOM */
        {"OOM\xe3\x81\xa7\xe3\x81\xaf\xe3\x81\xaa\xe3\x81\x84", false},   /* OOMではない */
        {"OOM\xec\x9d\xb4 \xec\x95\x84\xeb\x8b\x88\xeb\x8b\xa4", false}, /* OOM이 아니다 */
        {"n\xc3\xa3o \xc3\xa9 OOM", false},                                 /* não é OOM */
        {"to avoid CUDA OOM, use a smaller batch", false},
        /* a hedge (3dlg-hcvc/multi3drefer#14) */
        {"Please first make sure your GPU memory is enough, since this error could happen due to "
         "the CUDA out-of-memory error.", false},
        /* a hypothetical clause, however far back (constructed) */
        {"If you run into a CUDA OOM, lower the batch size", false},
        {"to avoid running into CUDA OOM", false},
        {"It fails with CUDA OOM if the batch is 16", true},
        /* a machine translation of "CUDA out of memory" (constructed, the
         * class of a heldout7 miss) and its denial */
        {"RuntimeError: CUDA sem mem\xc3\xb3ria.", true},
        {"n\xc3\xa3o \xc3\xa9 CUDA sem mem\xc3\xb3ria", false},
        /* an OOM that is over (constructed forms of the issue's class) */
        {"Before it was OOM, now it hangs", false},
        {"no longer OOM after the fix", false},
        {"fixed the CUDA OOM but now NaN", false},
        /* the negation belongs to another clause or word */
        {"The server does not work due to OOM", true},
        {"I can't run it without getting CUDA OOM", true},
        {"Not sure why, CUDA OOM at step 3", true},
        {"CUDA OOM error is not fixed by a smaller batch", true},
        /* the device named after the OOM words, in the same clause
         * (johnman3032/simple-lora-dreambooth-trainer#2, a heldout9 title read
         * after its scoring; the others constructed), and their denials */
        {"Out of mem on 6GB VRAM - last step?", true},
        {"I keep getting out of memory error on the GPU when I train", true},
        {"We do not run out of memory on the GPU", false},
        {"We never had a CUDA OOM", false},
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        const struct msg_rule *r = msg_classify(lines[i].text, strlen(lines[i].text));
        bool mention = r && r->role == MSG_MENTION;
        if (mention != lines[i].mention) fail_msg("'%s': mention %d", lines[i].text, mention);
    }
}

static void test_mention_forms(void **state)
{
    (void)state;
    static const struct {
        const char *source, *log, *kind;
    } logs[] = {
        {"huggingface/transformers#28872",
         "Out of Memory at Seemingly Inconsistent Steps Using Trainer and Deepspeed with Llama2 7b\n\n"
         "```\nTraceback (most recent call last):\n"
         "  File \"/home/user/Hope-Alpha/src/scripts/deepspeed_7b_finetune.py\", line 87, in <module>\n"
         "    main()\n",
         "oom-mention"},
        {"huggingface/peft#496",
         "During finetuning, I'm running out of GPU memory during the checkpoint saving step "
         "(save_pretrained)\n\nstack trace:\n\n"
         "```  File \"finetune_starcoder.py\", line 343, in <module>\n    main(args)\n"
         "  File \"finetune_starcoder.py\", line 332, in main\n",
         "oom-mention"},
        {"huggingface/accelerate#3735",
         "CUDA Out of Memory using 2 GPUs\n\n```\n"
         "[rank1]:   File \"/home/dmitry/workspace/remote_whisper/wsl_venv/lib/python3.12/"
         "site-packages/deepspeed/runtime/engine.py\", line 287, in __init__\n"
         "[rank1]:     self._configure_distributed_model(model)\n",
         "oom-mention"},
        /* "ed: out of memory" is the end of "cudaMalloc fail" / "ed: ...", not prose */
        {"TuSimple/mx-maskrcnn#98",
         "terminate called after throwing an instance of 'dmlc::Error'\n"
         "  what():  [10:44:35] src/engine/./threaded_engine.h:359: [10:44:35] src/storage/./"
         "pooled_storage_manager.h:107: cudaMalloc fail\ned: out of memory\n"
         "Traceback (most recent call last):\n  File \"train.py\", line 1, in <module>\n",
         "cuda-error"},
    };
    for (size_t i = 0; i < sizeof logs / sizeof logs[0]; i++) {
        struct oom_report rep;
        scan_log(logs[i].log, &rep);
        if (rep.primary < 0) fail_msg("%s: no GPU OOM", logs[i].source);
        if (strcmp(rep.events[rep.primary].kind, logs[i].kind))
            fail_msg("%s: kind %s", logs[i].source, rep.events[rep.primary].kind);
        if (i == 2 && rep.events[rep.primary].rank != 1)
            fail_msg("%s: rank %d", logs[i].source, rep.events[rep.primary].rank);
        oom_report_release(&rep);
    }
}

static void scan_ok(const char *log, struct oom_report *rep)
{
    scan_log(log, rep);
    assert_true(rep->primary >= 0);
}

/* Events of one message told twice: a figureless copy above the full one,
 * a TF tensor repeated; and a mention above a traceback cut in its header. */
static void test_joined_copies(void **state)
{
    (void)state;
    struct oom_report rep;
    /* WXinlong/SOLO#179: the issue title quotes the error, the message follows */
    scan_ok("RuntimeError: CUDA out of memory occurred when testing\n\n**bug**\n"
            "[>>>>>>>>>>>>>                                     ] 20/76, 0.3 task/s, elapsed: 59s, "
            "ETA:   165s\nTraceback (most recent call last):\n...\n"
            "RuntimeError: CUDA out of memory. Tried to allocate 3.30 GiB (GPU 0; 8.00 GiB total "
            "capacity; 973.14 MiB already allocated; 2.13 GiB free; 3.74 GiB reserved in total by "
            "PyTorch)\n",
            &rep);
    assert_int_equal(rep.n_events, 1);
    assert_int_equal(rep.events[rep.primary].bytes.requested, GIB(3.30));
    assert_int_equal(rep.events[rep.primary].gpu, 0);
    oom_report_release(&rep);
    /* tensorflow/models#848: the same tensor twice; the device is on the node line after the second */
    scan_ok("W tensorflow/core/common_runtime/bfc_allocator.cc:275] Ran out of memory trying to "
            "allocate 24.38MiB.  See logs for memory state.\n"
            "W tensorflow/core/framework/op_kernel.cc:975] Resource exhausted: OOM when allocating "
            "tensor with shape[48,8,8,2080]\n"
            "W tensorflow/core/common_runtime/bfc_allocator.cc:274] ********************\n"
            "W tensorflow/core/common_runtime/bfc_allocator.cc:275] Ran out of memory trying to "
            "allocate 24.38MiB.  See logs for memory state.\n"
            "W tensorflow/core/framework/op_kernel.cc:975] Resource exhausted: OOM when allocating "
            "tensor with shape[48,8,8,2080]\n"
            "INFO:tensorflow:Error reported to Coordinator: <class 'tensorflow.python.framework."
            "errors_impl.ResourceExhaustedError'>, OOM when allocating tensor with "
            "shape[48,17,17,1088]\n"
            "   [[Node: clone_0/InceptionResnetV2/Repeat_1/block17_17/Conv2d_1x1/BiasAdd = "
            "BiasAdd[T=DT_FLOAT, data_format=\"NHWC\", _device=\"/job:localhost/replica:0/task:0/"
            "gpu:0\"](clone_0/InceptionResnetV2/Repeat_1/block17_17/Conv2d_1x1/convolution)]]\n",
            &rep);
    assert_int_equal(rep.events[rep.primary].bytes.requested, MIB(24.38));
    assert_int_equal(rep.events[rep.primary].gpu, 0);
    oom_report_release(&rep);
    /* SysCV/transfiner#16: the paste ends inside "Traceback (most recent call last):" */
    scan_ok("The out of memory problem\n\nThe log:\n"
            "ERROR [04/27 13:03:54 d2.engine.train_loop]: Exception during training:\n"
            "Traceback (mo\n",
            &rep);
    assert_string_equal(rep.events[rep.primary].kind, "oom-mention");
    oom_report_release(&rep);
}

/* Failures that are not memory (diagfail): each a look-alike of its own
 * kind with the stage its frames give, on real lines (source beside each;
 * before, no event at all). */
static void test_not_memory_failures(void **state)
{
    (void)state;
    static const struct {
        const char *source, *log, *kind;
        enum oom_stage stage;
    } logs[] = {
        {"databrickslabs/dolly#139",
         "Traceback (most recent call last):\n"
         "  File \"/opt/conda/lib/python3.7/site-packages/torch/serialization.py\", line 379, in save\n"
         "    _save(obj, opened_zipfile, pickle_module, pickle_protocol)\n"
         "  File \"/opt/conda/lib/python3.7/site-packages/torch/serialization.py\", line 604, in _save\n"
         "    zip_file.write_record(name, storage.data_ptr(), num_bytes)\n"
         "OSError: [Errno 28] No space left on device\n",
         "disk-full", OOM_STAGE_CHECKPOINT},
        {"open-mmlab/mmdetection#12069",
         "When saving a checkpoint during model training, an OSError: [Errno 122] Disk quota "
         "exceeded message appears, but there is still space left in the save directory.\n"
         "12/09 06:49:23 - mmengine - INFO - Saving checkpoint at 14 epochs\n"
         "Traceback (most recent call last):\n"
         "  File \"/mnt/wzh/miniconda3/envs/openmmlab/lib/python3.8/site-packages/mmengine/hooks/"
         "checkpoint_hook.py\", line 345, in after_train_epoch\n"
         "    self._save_checkpoint(runner)\n",
         "disk-full", OOM_STAGE_CHECKPOINT},
        {"zai-org/ChatGLM-6B#1166",
         "  File \"/environment/miniconda3/envs/py39/lib/python3.9/site-packages/torch/serialization.py\", "
         "line 668, in _save\n"
         "    zip_file.write_record(name, storage.data_ptr(), num_bytes)\n"
         "RuntimeError: [enforce fail at inline_container.cc:471] . PytorchStreamWriter failed "
         "writing file data/3: file wr\n",
         "disk-write-error", OOM_STAGE_CHECKPOINT},
        {"pytorch/pytorch#10577",
         "    torch.save(best_model.state_dict(), join(OUTD, \"best_model.pt\"))\n"
         "  File \"/home/user290/Venvs/pytorch.1.0.1/lib/python3.7/site-packages/torch/serialization.py\", "
         "line 297, in _save\n"
         "    serialized_storages[key]._write_file(f, _should_read_directly(f))\n"
         "RuntimeError: write(): fd 29 failed with Input/output error\n",
         "disk-write-error", OOM_STAGE_CHECKPOINT},
        {"Sachini/ronin#51",
         "  File \"/opt/anaconda3/envs/py397/lib/python3.9/site-packages/torch/serialization.py\", "
         "line 287, in __init__\n"
         "    super(_open_zipfile_writer_file, self).__init__(torch._C.PyTorchFileWriter(str(name)))\n"
         "RuntimeError: File my_out/checkpoints/checkpoint_0.pt cannot be opened.\n",
         "disk-write-error", OOM_STAGE_CHECKPOINT},
        {"Tianxinhuang/ComPC#5",
         "  File \"/home/xxx/ComPC/complete.py\", line 532, in train_step\n    loss.backward()\n"
         "  File \"/home/xxx/miniconda3/envs/compc/lib/python3.10/site-packages/torch/_tensor.py\", "
         "line 396, in backward\n"
         "    torch.autograd.backward(self, gradient, retain_graph, create_graph, inputs=inputs)\n"
         "RuntimeError: CUDA error: an illegal memory access was encountered\n",
         "cuda-illegal-address", OOM_STAGE_BACKWARD},
        {"JIA-Lab-research/Stratified-Transformer#45", /* a header cut before "line" */
         "line 187, in forward\n    relative_position = xyz[index_0] - xyz[index_1]\n"
         "RuntimeError: CUDA error: an illegal memory access was encountered\n",
         "cuda-illegal-address", OOM_STAGE_FORWARD},
        {"pytorch/pytorch#32893",
         "   File \"/home/nnir712/anaconda3/envs/zzhpy36/lib/python3.6/site-packages/torch/nn/modules/"
         "batchnorm.py\", line 74, in forward\n"
         "     self.num_batches_tracked + = 1\nRuntimeError: CUDA error: misaligned address`\n",
         "cuda-illegal-address", OOM_STAGE_FORWARD},
        {"pytorch/pytorch#21276",
         "THCudaCheck FAIL file=/pytorch/aten/src/THC/THCCachingHostAllocator.cpp line=271 "
         "error=4 : unspecified launch failure       x\n"
         "Traceback (most recent call last):                          x\n"
         "  File \"model_run.py\", line 163, in train                   x\n"
         "    loss.backward()                                           x\n",
         "cuda-launch-failure", OOM_STAGE_BACKWARD},
        {"microsoft/KBLaM#63",
         "  File \"/home/ubisec/miniconda3/envs/swh-kblam/lib/python3.10/site-packages/transformers/"
         "generation/utils.py\", line 3249, in _sample\n"
         "    next_tokens = torch.multinomial(probs, num_samples=1).squeeze(1)\n"
         "RuntimeError: CUDA error: device-side assert triggered\n"
         "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n",
         "cuda-device-assert", OOM_STAGE_GENERATE},
        {"datawhalechina/self-llm#271", /* only the kernel's own assert line */
         "C:\\cb\\pytorch_1000000000000\\work\\aten\\src\\ATen\\native\\cuda\\TensorCompare.cu:110: "
         "block: [0,0,0], thread: [0,0,0] Assertion `input[0] != 0` failed.\n"
         "Traceback (most recent call last):\n"
         "  File \"P:\\prjs\\learn_transformers\\tmp.py\", line 28, in <module>\n"
         "    outputs = model.generate(**inputs, **gen_kwargs)\n",
         "cuda-device-assert", OOM_STAGE_GENERATE},
        {"huggingface/trl#4149", /* the title, then the set-up frames */
         "CUDA error: uncorrectable ECC error encountered\n"
         "[rank1]: Traceback (most recent call last):\n"
         "[rank1]:   File \"/home/whan/miniconda3/envs/lmc/lib/python3.9/site-packages/transformers/"
         "training_args.py\", line 2268, in device\n"
         "[rank1]:     return self._setup_devices\n",
         "gpu-ecc-error", OOM_STAGE_LOAD},
        {"nagadit/DeepFaceLab_Linux#89", /* TF setting up the device: load, GPU 0 */
         "F tensorflow/stream_executor/lib/statusor.cc:34] Attempting to fetch value instead of "
         "handling error Internal: failed initializing StreamExecutor for CUDA device ordinal 0: "
         "Internal: failed call to cuDevicePrimaryCtxRetain: CUDA_ERROR_ECC_UNCORRECTABLE: "
         "uncorrectable ECC error encountered\n",
         "gpu-ecc-error", OOM_STAGE_LOAD},
        {"LLaVA-VL/LLaVA-NeXT#173", /* the title above an IPython traceback */
         "Storage size calculation overflowed when inferencing with LLaVA_OneVision Tutorials\n"
         "RuntimeError                              Traceback (most recent call last)\n"
         "Cell In[2], [line 39](vscode-notebook-cell:?execution_count=2&line=39)\n"
         "---> [39](vscode-notebook-cell:?execution_count=2&line=39) cont = model.generate(\n",
         "size-overflow", OOM_STAGE_GENERATE},
        /* host memory the rows before did not know: a DataLoader's /dev/shm, ENOMEM at fork() */
        {"DengpanFu/LUPerson#20",
         "ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient "
         "shared memory (shm).\n",
         "host-shm", OOM_STAGE_UNKNOWN}, /* a worker's death alone names no stage (diagunk17) */
        {"baichuan-inc/Baichuan2#138", /* zsh's job report glued after a loading bar */
         "Loading checkpoint shards:   0%|          | 0/3 [00:00<?, ?it/s][1]    26478 killed     "
         "python test.py\n",
         "host-sigkill", OOM_STAGE_LOAD},
        {"jantic/DeOldify#124",
         "self.pid = os.fork()\nOSError: [Errno 12] Cannot allocate memory\n",
         "host-memory-error", OOM_STAGE_UNKNOWN},
    };
    for (size_t i = 0; i < sizeof logs / sizeof logs[0]; i++) {
        struct oom_report rep;
        scan_log(logs[i].log, &rep);
        if (rep.n_events == 0) fail_msg("%s: no event", logs[i].source);
        if (rep.primary >= 0) fail_msg("%s: a GPU OOM", logs[i].source);
        const struct oom_event *e = &rep.events[0];
        if (strcmp(e->kind, logs[i].kind)) fail_msg("%s: kind %s", logs[i].source, e->kind);
        if (e->stage != logs[i].stage)
            fail_msg("%s: stage %s", logs[i].source, oom_stage_name(e->stage));
        if (!strcmp(logs[i].source, "huggingface/trl#4149") && e->rank != 1)
            fail_msg("%s: rank %d", logs[i].source, e->rank);
        if (!strcmp(logs[i].source, "nagadit/DeepFaceLab_Linux#89") && e->gpu != 0)
            fail_msg("%s: gpu %d", logs[i].source, e->gpu);
        struct verdicts v;
        verdict_compute(&rep, &v);
        if (!v.set) fail_msg("%s: no verdict", logs[i].source);
        /* the first thing to do is the kind's own (shared memory before host RAM) */
        struct plan plan;
        plan_build(&rep, &v, NULL, &plan);
        if (!plan.n) fail_msg("%s: no plan", logs[i].source);
        if (!strcmp(logs[i].kind, "host-shm") && strcmp(plan.items[0].id, "shared-memory"))
            fail_msg("%s: plan starts with %s", logs[i].source, plan.items[0].id);
        if (!strcmp(logs[i].kind, "disk-full") && strcmp(plan.items[0].id, "free-disk"))
            fail_msg("%s: plan starts with %s", logs[i].source, plan.items[0].id);
        oom_report_release(&rep);
    }
}

/* Around them: a failure named in a conditional or denied clause, or only
 * in words, is no event; PyTorch's TORCH_USE_CUDA_DSA hint after a CUDA
 * OOM is no assert; a GPU OOM in the same log stays the root cause; an OOM
 * the log names in words explains a kernel fault after it, a recovered one
 * does not. */
static void test_not_memory_around(void **state)
{
    (void)state;
    static const char *const none[] = {
        "If you get OSError: No space left on device, free some disk first.\n", /* constructed */
        "It is not a Disk quota exceeded problem.\n",                           /* constructed */
        /* skhu101/GauHuman#21's prose */
        ("Hi, I run the training code successfully, but after 30 iterations' training it "
         "crashes. I have encountered an illegal memory access error\n"),
    };
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
        struct oom_report rep;
        scan_log(none[i], &rep);
        if (rep.n_events) fail_msg("an event (%s) in: %s", rep.events[0].kind, none[i]);
        oom_report_release(&rep);
    }
    struct oom_report rep;
    /* PyTorch's hint lines under every CUDA error (as in kohya-ss/sd-scripts#1434), here
     * under an OOM (constructed), then a kernel fault */
    scan_ok("RuntimeError: CUDA error: out of memory\n"
            "CUDA kernel errors might be asynchronously reported at some other API call, so the "
            "stacktrace below might be incorrect.\n"
            "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n"
            "RuntimeError: CUDA error: an illegal memory access was encountered\n",
            &rep);
    assert_string_equal(rep.events[rep.primary].kind, "cuda-error");
    assert_int_equal(rep.n_events, 2);
    assert_true(rep.events[1].consequence);
    oom_report_release(&rep);
    /* leefige/radik#1 (heldout12 h12-13): the kernel fault, then the maintainer's "GPU OOM" */
    scan_ok("  what():  cuda call failed (700) at topk_radixselect.h:150 : an illegal memory access "
            "was encountered\n\nAborted (core dumped)\n\n"
            "I believe this is due to GPU OOM. Please try with smaller batch sizes or smaller N.\n",
            &rep);
    assert_string_equal(rep.events[rep.primary].kind, "oom-mention");
    oom_report_release(&rep);
    /* pytorch/pytorch#104143 (heldout15 h15-26): host memory named in a title above the
     * frames of a sharded save, the error line cut: a host look-alike with their stage;
     * (diagstage8) the same words with no traceback after them are the host look-alike
     * too, with no stage (words that say host memory ran out stand alone, as
     * "CPU out of memory during initialization" over DeepSpeed's start-up lines,
     * CVI-SZU/Linly#83 = h27-49, which the labels call a host look-alike) */
    const char *fsdp =
        "FSDP SHARDED_STATE_DICT Runs into CPU OOM\n```bash\n"
        "  File \"/home/ubuntu/LLM_fine_tuning/llama_finetuning.py\", line 226, in main\n"
        "    model_checkpointing.save_model_and_optimizer_sharded(model, rank, train_config)\n"
        "  File \"/home/ubuntu/LLM_fine_tuning/model_checkpointing/checkpoint_handler.py\", line 111, "
        "in save_model_and_optimizer_sharded\n"
        "    dist_cp.save_state_dict(\n";
    scan_log(fsdp, &rep);
    assert_int_equal(rep.primary, -1);
    assert_int_equal(rep.n_events, 1);
    assert_string_equal(rep.events[0].framework, "host");
    assert_int_equal(rep.events[0].stage, OOM_STAGE_CHECKPOINT);
    oom_report_release(&rep);
    scan_log("FSDP SHARDED_STATE_DICT Runs into CPU OOM\n", &rep);
    assert_int_equal(rep.primary, -1);
    assert_int_equal(rep.n_events, 1);
    assert_string_equal(rep.events[0].framework, "host");
    assert_int_equal(rep.events[0].stage, OOM_STAGE_UNKNOWN);
    oom_report_release(&rep);
    /* Rudrabha/Wav2Lip#234 (heldout18 h18-60): OOMs recovered from, then the fatal fault */
    const char *wav2lip =
        "  0% 0/136 [00:00<?, ?it/s]\nRecovering from OOM error; New batch size: 1\n\n"
        "  0% 0/272 [00:00<?, ?it/s]\nTraceback (most recent call last):\n"
        "  File \"/content/Wav2Lip/face_detection/detection/sfd/detect.py\", line 65, in batch_detect\n"
        "    imgs = torch.from_numpy(imgs).float().to(device)\n"
        "RuntimeError: CUDA error: an illegal memory access was encountered\n";
    scan_log(wav2lip, &rep);
    assert_int_equal(rep.primary, -1);
    assert_int_equal(rep.n_events, 1);
    assert_string_equal(rep.events[0].kind, "cuda-illegal-address");
    oom_report_release(&rep);
}

int main(int argc, char **argv)
{
    (void)argv;
    (void)argc;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_families),
        cmocka_unit_test(test_not_oom),
        cmocka_unit_test(test_host_pinned),
        cmocka_unit_test(test_tf_header_merges),
        cmocka_unit_test(test_clause_placeholders),
        cmocka_unit_test(test_memsummary_eras),
        cmocka_unit_test(test_memsummary_device_words),
        cmocka_unit_test(test_memsummary_joins_event),
        cmocka_unit_test(test_memsummary_torch113_formatter),
        cmocka_unit_test(test_hard_wrap_every_width),
        cmocka_unit_test(test_plan_first_step),
        cmocka_unit_test(test_oom_mention),
        cmocka_unit_test(test_mention_forms),
        cmocka_unit_test(test_device_words), cmocka_unit_test(test_lead_rows_h1920),
        cmocka_unit_test(test_wordings_rec4),
        cmocka_unit_test(test_wordings_rec5), cmocka_unit_test(test_cudacall_gpu),
        cmocka_unit_test(test_partial_then_full),
        cmocka_unit_test(test_cuda_driver_gpu_from_bfc),
        cmocka_unit_test(test_backslash_continuation),
        cmocka_unit_test(test_bfc_bare_line),
        cmocka_unit_test(test_tf_rocm_request),
        cmocka_unit_test(test_mention_keeps_text),
        cmocka_unit_test(test_host_families),
        cmocka_unit_test(test_denials),
        cmocka_unit_test(test_host_and_denial),
        cmocka_unit_test(test_joined_copies),
        cmocka_unit_test(test_not_memory_failures),
        cmocka_unit_test(test_not_memory_around),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
