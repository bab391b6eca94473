/* msg: message forms as tables (see msg.h). A rule says which message a
 * line is; its clauses say where the numbers are. Adding a form is adding a
 * row here, never a branch in the scanner. */
#include "lib/msg.h"
#include "lib/mention.h"
#include "lib/strbuf.h"

#include <ctype.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/units.h"

/* ---- clauses per message family ---------------------------------------- */

/* Shared by every rule, applied last. */
static const struct msg_clause clauses_common[] = {
    {"on rank %d", MSG_F_RANK},
    {"[rank%d]", MSG_F_RANK},
    /* DataParallel re-raises a replica's error as "Caught
     * OutOfMemoryError in replica 0 on device 0." (torch/nn/parallel/
     * parallel_apply.py's ExceptionWrapper; huggingface/trl#1169 = h19-40):
     * the device is the GPU, the replica no rank */
    {"in replica %i on device %d", MSG_F_GPU},
    {NULL, 0},
};

/* "(GPU 0; 5.80 GiB total capacity; 4.36 GiB already allocated; 6.69 MiB
 * free; 4.63 GiB reserved in total by PyTorch)" and the older "cached". */
static const struct msg_clause clauses_pt_old[] = {
    {"Tried to allocate %s", MSG_F_REQUESTED},
    {"(GPU %d;", MSG_F_GPU},
    {"(NPU %d;", MSG_F_GPU}, /* torch_npu (Ascend): "(NPU 3; 60.96 GiB total capacity; ..." */
    {"GPU %d; %z total capacity", MSG_F_GPU}, /* the parentheses lost */
    /* Ascend's torch_npu port of this form names its device "NPU":
     * "Tried to allocate 9.05 GiB (NPU 0; 60.95 GiB total capacity; ...
     * 42.32 GiB current active; ...)" (vllm-project/vllm-omni#2128) */
    {"(NPU %d;", MSG_F_GPU},
    {"%s total capacity", MSG_F_CAPACITY},
    {"%s already allocated", MSG_F_ALLOCATED},
    /* a paste cut mid-word, "20.68 GiB already allocate" at the
     * end (fudan-zvg/4d-gaussian-splatting#16 = h9-51) */
    {"%s already alloc", MSG_F_ALLOCATED},
    {"%s free", MSG_F_FREE},
    {"%s reserved in total", MSG_F_RESERVED},
    {"%s cached", MSG_F_CACHED},
    {"%s allowed", MSG_F_ALLOWED},
    /* the form reworded, as by a translator: "CUDA has run out of
     * memory. Attempting to allocate 86.00 MiB (GPU 0; ...; 7.31 GiB total
     * reserved by PyTorch)" (TEXTurePaper/TEXTurePaper#18 = heldout13 h13-55) */
    {"Attempting to allocate %s", MSG_F_REQUESTED},
    {"%s total reserved by PyTorch", MSG_F_RESERVED},
    {NULL, 0},
};

/* "GPU 0 has a total capacity of 7.73 GiB of which 228.50 MiB is free.
 * Including non-PyTorch memory, this process has 6.59 GiB memory in use.
 * Process 158698 has 28.56 GiB memory in use. 1.05 GiB allowed; Of the
 * allocated memory 5.90 GiB is allocated by PyTorch, with 50.00 MiB
 * allocated in private pools (e.g., CUDA Graphs), and 469.82 MiB is reserved
 * by PyTorch but unallocated." ("capacty" in 2.1). */
static const struct msg_clause clauses_pt_new[] = {
    {"Tried to allocate %s", MSG_F_REQUESTED},
    {"GPU %d has a total capac", MSG_F_GPU},
    {"total capacity of %s", MSG_F_CAPACITY},
    {"total capacty of %s", MSG_F_CAPACITY},
    {"of which %s is free", MSG_F_FREE},
    /* the message as users retype it, "GPU 2 has total 47.40 GiB of
     * which 1.96 GiB is free." (dylanyunlon/Neuron_SP#3 = heldout14 h14-47) */
    {"GPU %d has total", MSG_F_GPU},
    {"has total %s of which", MSG_F_CAPACITY},
    {"this process has %s memory in use", MSG_F_PROCESS},
    {"Process %d has %s memory in use", MSG_F_PROC},
    {"%s allowed;", MSG_F_ALLOWED},
    {"%s is allocated by PyTorch", MSG_F_ALLOCATED},
    {"%s allocated in private pools", MSG_F_POOLS},
    {"%s is reserved by PyTorch but unallocated", MSG_F_RESERVED_UNALLOC},
    /* the same clause cut mid-word where a paste or a thread's stored
     * excerpt ends, as clauses_pt_old's "already alloc": "and 39.80 MiB is
     * reserved by PyT" (oobabooga/textgen#2803 = heldout53 h53-34), "and
     * 2.51 GiB is reserv" (meta-llama/llama-cookbook#309 = h53-74). The
     * words after the figure show it whole; no other clause of this form
     * says "is reserv". */
    {"%s is reserv", MSG_F_RESERVED_UNALLOC},
    /* the allocated clause cut before its own words: "Of the allocated
     * memory 23.06 GiB is a" (hpcaitech/Open-Sora#847 = heldout55 h55-64,
     * the thread's stored excerpt ending there). The caching allocator
     * writes "Of the allocated memory " then the allocated figure (pytorch/
     * pytorch:c10/cuda/CUDACachingAllocator.cpp, the OOM message since
     * 2.1): the words before the figure name it whole. (open55) */
    {"Of the allocated memory %s", MSG_F_ALLOCATED},
    {NULL, 0},
};

/* The caching allocator's own warning as it fails a request, before the
 * OutOfMemoryError it raises: "[rank5]:[W... CUDACachingAllocator.cpp:3933]
 * memory allocation failed with OOM on device 5 / while trying to allocate
 * 671088640 bytes (free: 513736704, total: 85095874560)." (c10's warning
 * prefix, the allocator's source file in it; the figures exact byte counts,
 * often wrapped onto the next line), wtdcode/vllm-backport#94 (heldout53
 * h53-15). The unit tests also write it in the shapes public write-ups
 * quote (one line, no prefix; wrapped after the device), whose
 * repositories the library's index does not name: none is cited. */
static const struct msg_clause clauses_pt_warn[] = {
    {"with OOM on device %d", MSG_F_GPU},
    {"trying to allocate %d bytes", MSG_F_REQUESTED},
    {"(free: %d,", MSG_F_FREE},
    {"total: %d)", MSG_F_CAPACITY},
    {NULL, 0},
};

/* PyTorch's cudaMallocAsync backend (PYTORCH_CUDA_ALLOC_CONF=backend:
 * cudaMallocAsync, ComfyUI's default): "Allocation on device 0 would exceed
 * allowed memory. (out of memory)" / "Currently allocated     : 6.89 GiB" /
 * "Requested               : 320.00 MiB" / "Device limit            : 23.69
 * GiB" / "Free (according to CUDA): 2.94 MiB" (then the user's memory
 * fraction limit, 17179869184.00 GiB when none is set: not read). */
static const struct msg_clause clauses_pt_async[] = {
    {"Allocation on device %d", MSG_F_GPU},
    {"Currently allocated : %s", MSG_F_ALLOCATED},
    {"Requested : %s", MSG_F_REQUESTED},
    {"Device limit : %s", MSG_F_CAPACITY},
    {"Free (according to CUDA): %s", MSG_F_FREE},
    {NULL, 0},
};

static const struct msg_clause clauses_mps[] = {
    {"Tried to allocate %s", MSG_F_REQUESTED},
    {"MPS allocated: %s", MSG_F_ALLOCATED},
    {"other allocations: %s", MSG_F_OTHER},
    {"max allowed: %s", MSG_F_ALLOWED},
    {NULL, 0},
};

/* MPS's refusal of one buffer larger than the device allows: "RuntimeError:
 * Invalid buffer size: 17.62 GB" (pytorch/pytorch aten/src/ATen/mps/
 * MPSAllocator.mm, the size by format_size, 1024-based; "19.38 GiB" in
 * newer releases) */
static const struct msg_clause clauses_mps_buffer[] = {
    {"Invalid buffer size: %s", MSG_F_REQUESTED},
    {NULL, 0},
};

static const struct msg_clause clauses_jax[] = {
    {"(%dB)", MSG_F_REQUESTED}, /* exact figure first: "1.00GiB (1073741824B)" */
    {"Attempting to allocate %s", MSG_F_REQUESTED}, /* TPU HBM: "196.00M" */
    {"Attempting to reserve %s", MSG_F_REQUESTED},  /* PyTorch/XLA: "10.51G at the bottom" */
    {"There are %s free", MSG_F_FREE},
    {"trying to allocate %d bytes", MSG_F_REQUESTED},
    /* the same words with a unit, "Out of memory while trying to
     * allocate 262.56GiB." (jax.errors.JaxRuntimeError, newer jaxlib) */
    {"trying to allocate %s", MSG_F_REQUESTED},
    {"Out of memory allocating %d bytes", MSG_F_REQUESTED},
    {"allocate request for %s", MSG_F_REQUESTED},
    {"device ordinal %d", MSG_F_GPU},
    {"GPU_%d_bfc", MSG_F_GPU},
    /* TPU compile: "Ran out of memory in memory space hbm. Used 21.90G of
     * 7.48G hbm." (what the program needs, of the chip's HBM) */
    {"Used %z of %s hbm", MSG_F_CAPACITY},
    /* TPU allocation: "Allocation (size=N) would exceed memory (size=M)"
     * (bytes; M the memory space's size: HBM's when the space is hbm,
     * openxla/xla:docs/errors/error_1001.md@82fc6c95) (srcfam) */
    {"Allocation (size=%d) would exceed memory", MSG_F_REQUESTED},
    {"would exceed memory (size=%d)", MSG_F_CAPACITY},
    /* XLA's host allocator fails a request of any size with these
     * words, 0 bytes too (AlignedAllocator::Allocate, tsl::port::AlignedMalloc
     * returning NULL: openxla/xla:xla/pjrt/cpu/tracked_cpu_device_buffer.cc
     * @640910a); a device that ran out has no 0-byte request to fail: 0
     * bytes is the host platform */
    {"Out of memory allocating 0 bytes", MSG_F_HOST},
    /* the adapter over XLA's allocators says which memory ran
     * out: "Out of host memory while trying to allocate N bytes. Please set
     * the environment variable XLA_PJRT_GPU_HOST_MEMORY_LIMIT_GB ..." is the
     * pinned host pool (MemoryAllocationError, openxla/xla:xla/
     * stream_executor/integrations/tf_allocator_adapter.cc@370cfa8) */
    {"Out of host memory", MSG_F_HOST},
    {NULL, 0},
};

/* XLA's device constant (nonpt20): "Failed to allocate %d bytes for new
 * constant" */
static const struct msg_clause clauses_xla_constant[] = {
    {"Failed to allocate %d bytes for new constant", MSG_F_REQUESTED},
    {NULL, 0},
};

static const struct msg_clause clauses_tf[] = {
    /* "shape[a,b]", older "shape [a,b]", TF 1.x "shape dim { size: 10 } dim { size: 10 }" */
    {"shape %S and type %t", MSG_F_SHAPE},
    {"shape %S", MSG_F_SHAPE},
    /* a Cast node allocates its output, of type DstT (diagcall6) */
    {"DstT=DT_%t", MSG_F_DTYPE},
    {"T=DT_%t", MSG_F_DTYPE},
    {"device:GPU:%d", MSG_F_GPU},
    {"/gpu:%d", MSG_F_GPU},
    {"GPU_%d_bfc", MSG_F_GPU},
    /* tensorflow-directml: "... on /job:localhost/replica:0/task:0/device:DML:0
     * by allocator DmlAllocator" (microsoft/DirectML#34) */
    {"device:DML:%d", MSG_F_GPU},
    {NULL, 0},
};

static const struct msg_clause clauses_bfc[] = {
    {"trying to allocate %s", MSG_F_REQUESTED},
    /* the exact figure beside the rounded one: XLA's "trying to allocate
     * 1.25TiB (rounded to 1374521760000)requested by op" (jax-ml/jax#27354) */
    {"(rounded to %d)", MSG_F_REQUESTED_EXACT},
    {"GPU_%d_bfc", MSG_F_GPU},
    {NULL, 0},
};

static const struct msg_clause clauses_nccl[] = {
    {"Failed to CUDA calloc %d bytes", MSG_F_REQUESTED},
    {"Failed to CUDA malloc %d bytes", MSG_F_REQUESTED},
    /* NCCL's stream-ordered allocation (NVIDIA/nccl
     * src/include/alloc.h ncclCudaCallocAsync: "Failed to CUDA calloc async
     * %ld bytes") */
    {"Failed to CUDA calloc async %d bytes", MSG_F_REQUESTED},
    {NULL, 0},
};

/* Theano's CUDA backend (Theano/Theano theano/sandbox/cuda/cuda_ndarray.cu
 * device_malloc): "Error allocating 402653184 bytes of device memory (out of
 * memory). Driver report 184459264 bytes free and 4294770688 bytes total",
 * with CNMeM "(CNMEM_STATUS_OUT_OF_MEMORY)." and no driver report.
 * (diagnumsrc) */
static const struct msg_clause clauses_theano[] = {
    {"Error allocating %d bytes of device memory", MSG_F_REQUESTED},
    {"Driver report %d bytes free", MSG_F_FREE},
    {"bytes free and %d bytes total", MSG_F_CAPACITY},
    {NULL, 0},
};

/* Kaldi's CUDA allocator (kaldi-asr/kaldi src/cudamatrix/cu-allocator.cc
 * AllocateNewRegion): "Failed to allocate a memory region of 82837504 bytes.
 * ... Memory info: free:15M, used:11160M, total:11175M, free/total:0.0014"
 * (cu-device.cc's device memory info: whole MiB). (diagnumsrc) */
static const struct msg_clause clauses_kaldi[] = {
    {"memory region of %d bytes", MSG_F_REQUESTED},
    {"Memory info: free:%s", MSG_F_FREE},
    {"used:%z, total:%s", MSG_F_CAPACITY},
    {NULL, 0},
};

/* RELION's CUDA allocator (3dem/relion src/acc/cuda/custom_allocator.cuh
 * raiseOutOfMemoryError): "ERROR: CudaCustomAllocator out of memory" with
 * " [requestedSpace: N B]" / " [largestContinuousFreeSpace: N B]" /
 * " [totalFreeSpace: N B]" on the next lines. (diagnumsrc) */
static const struct msg_near near_relion[] = {
    {"[requestedSpace: %d B]", MSG_F_REQUESTED, 0, 3},
    {"[totalFreeSpace: %d B]", MSG_F_FREE, 0, 3},
    {NULL, 0, 0, 0},
};

/* FAISS's GPU resources (facebookresearch/faiss faiss/gpu/
 * StandardGpuResources.cpp allocMemory: "StandardGpuResources: alloc fail
 * " + AllocRequest::toString() "type T dev N space S stream P size N bytes"
 * + " (cudaMalloc error out of memory [2])"). (diagnumsrc) */
static const struct msg_clause clauses_faiss[] = {
    {"size %d bytes (cudaMalloc error", MSG_F_REQUESTED},
    /* FAISS before GpuResources' allocator: allocMemorySpace's assert,
     * "Faiss assertion 'cudaMalloc(p, size) == cudaSuccess' failed in void
     * faiss::gpu::allocMemorySpace(...) at gpu/utils/MemorySpace.cpp:N;
     * details: Failed to cudaMalloc N bytes" (facebookresearch/faiss:gpu/
     * utils/MemorySpace.cpp@6880286e). */
    {"Failed to cudaMalloc %d bytes", MSG_F_REQUESTED},
    /* allocMemorySpaceV's throw since 2019, lower case with the CUDA
     * status after the size: "failed to cudaMalloc N bytes (error 2 out of
     * memory)" (facebookresearch/faiss:faiss/gpu/utils/MemorySpace.cpp;
     * yxgeee/SpCL#44, facebookresearch/faiss#1031 = heldout58 h58-66), and
     * the device after the size where StandardGpuResources names it
     * ("Failed to cudaMalloc 536870912 bytes on device 1 (error 2 out of
     * memory", facebookresearch/faiss#2020 = heldout58 h58-67, #2580).
     * (open58) */
    {"failed to cudaMalloc %d bytes", MSG_F_REQUESTED},
    {"cudaMalloc %i bytes on device %d", MSG_F_GPU},
    {"dev %d space", MSG_F_GPU},
    {NULL, 0},
};

/* MindSpore's pool refusal (diagcall3, candle-org/MindAct#1761): "TotalUsedMemStatistics
 * : A plus TotalUsedByEventMemStatistics : 0 and plus alloc size : B is more than
 * total mem size : C." (bytes) */
static const struct msg_clause clauses_mindspore[] = {
    {"plus alloc size : %d", MSG_F_REQUESTED},
    {"total mem size : %d", MSG_F_CAPACITY},
    {"TotalUsedMemStatistics : %d", MSG_F_ALLOCATED},
    {NULL, 0},
};

/* MindSpore's Ascend memory adapter (mindspore/ccsrc/plugin/device/ascend/
 * hal/device/ascend_memory_adapter.cc): "Out of Memory!!! Request memory
 * size: 33100113920B, Memory Statistic:" then "Device HBM memory size:
 * 32768M" / "MindSpore Used memory size: 30684M" on the lines below.
 * (diagcall6) */
static const struct msg_clause clauses_mindspore_hbm[] = {
    {"Request memory size: %d", MSG_F_REQUESTED},
    {"Device HBM memory size: %s", MSG_F_CAPACITY},
    {"MindSpore Used memory size: %s", MSG_F_ALLOCATED},
    {NULL, 0},
};
/* MindSpore's actors asking the device's memory manager (mindspore/ccsrc/
 * runtime/graph_scheduler/actor/): "Device(id:0) memory isn't enough and
 * alloc failed, kernel name: ..., alloc size: 1073741824B." (diagcall7) */
static const struct msg_clause clauses_mindspore_device[] = {
    {"Device(id:%d)", MSG_F_GPU},
    {"alloc size: %d", MSG_F_REQUESTED},
    {"alloc size:%d", MSG_F_REQUESTED},
    {NULL, 0},
};

/* OpenVINO's GPU plugin checks each allocation against the device
 * (src/plugins/intel_gpu/src/runtime/ocl/ocl_engine.cpp, check_allocatable):
 * "[GPU] Exceeded max size of memory object allocation: requested N bytes,
 * but max alloc size supported by device is M bytes." (older: "Requested N
 * bytes but max alloc size is M bytes") and "[GPU] Exceeded max size of
 * memory allocation: Required N bytes, already occupied : U bytes, but
 * available memory size is T bytes". (diagcall7) */
static const struct msg_clause clauses_openvino[] = {
    {"requested %d bytes", MSG_F_REQUESTED},
    {"Requested %d bytes", MSG_F_REQUESTED},
    {"Required %d bytes", MSG_F_REQUESTED},
    {"already occupied : %d bytes", MSG_F_ALLOCATED},
    {"available memory size is %d bytes", MSG_F_CAPACITY},
    {NULL, 0},
};

static const struct msg_near near_mindspore_hbm[] = {
    {"Device HBM memory size: %s", MSG_F_CAPACITY, 0, 3},
    {"MindSpore Used memory size: %s", MSG_F_ALLOCATED, 0, 4},
    {NULL, 0, 0, 0},
};

static const struct msg_clause clauses_host[] = {
    {"you tried to allocate %d bytes", MSG_F_REQUESTED},
    /* TH's whole GiB, truncated: "you tried to allocate 1008GB. Buy new RAM!"
     * (size/1073741824: 1024-based, as %s reads it) */
    {"you tried to allocate %s", MSG_F_REQUESTED},
    {"Unable to allocate %s", MSG_F_REQUESTED},
    {"Fail to alloc memory of %d size", MSG_F_REQUESTED}, /* Paddle's host allocators */
    /* cymem's Pool, under spaCy/preshed/thinc: raise MemoryError("Error
     * assigning %d bytes" % ...) in Pool.alloc and Address.__init__, "Error reallocating
     * to %d bytes" in Pool.realloc (explosion/cymem:cymem/cymem.pyx@1cb1cf0e;
     * samtecspg/articulate#282 = h34-47) */
    {"Error assigning %d bytes", MSG_F_REQUESTED},
    {"Error reallocating to %d bytes", MSG_F_REQUESTED},
    /* OpenCV's fastMalloc failing, CV_Error_(StsNoMem, ("Failed to
     * allocate %llu bytes", ...)) (opencv/opencv:modules/core/src/alloc.cpp@85456ef0) */
    {"Failed to allocate %d bytes", MSG_F_REQUESTED},
    {NULL, 0},
};

/* Android ART's Java heap: "Failed to allocate a 54000015 byte allocation
 * with 25165824 free bytes and 41MB until OOM" (the request; the heap's free
 * bytes are not the device's). */
static const struct msg_clause clauses_art[] = {
    {"Failed to allocate a %d byte allocation", MSG_F_REQUESTED},
    {NULL, 0},
};

/* libFuzzer's "out-of-memory (malloc(6498959700))": the host request in
 * bytes (pytorch/audio#3504). */
static const struct msg_clause clauses_fuzzer[] = {
    {"out-of-memory (malloc(%d))", MSG_F_REQUESTED},
    {NULL, 0},
};

/* tt-metal: "Not enough space to allocate 5368709120 B DRAM buffer"
 * (tenstorrent/tt-metal#40108). */
static const struct msg_clause clauses_tt_metal[] = {
    {"Not enough space to allocate %d B", MSG_F_REQUESTED},
    {NULL, 0},
};

/* Jittor's memory check (display_memory_info in python/jittor/src/mem/
 * mem_info.cc, Jittor/jittor@0e786ea): when its allocators hold more than
 * 95% of the device's memory it logs "GPU memory is overflow, please reduce
 * your batch_size or data size!" and, on the next line, "Total: 23.65GB
 * Used: 47.36GB". Total is the card's memory (cudaMemGetInfo); Used is what
 * Jittor's allocators hold, host-mapped blocks included, so it can exceed
 * Total: not read. (diagcall6) */
static const struct msg_clause clauses_jittor[] = {
    {"Total: %s", MSG_F_CAPACITY},
    {NULL, 0},
};

/* Ollama's check before it loads a model: "model requires more system
 * memory (164.8 GiB) than is available (13.4 GiB)" (ollama/ollama#10920 as
 * heldout19's h19-44; the same JSON body relayed by a client, h19-45). */
static const struct msg_clause clauses_ollama_host[] = {
    {"more system memory (%s)", MSG_F_REQUESTED},
    {"than is available (%s)", MSG_F_FREE},
    {NULL, 0},
};

/* The generic PyTorch rows (the message's words garbled or cut, the class
 * named alone) do not know which form follows: the current form's clauses,
 * then the "(GPU 0; ...; X reserved in total by PyTorch)" form's, which
 * share no words ("OutOfMemoryError: CUDA out of meMiB free; 37.20 GiB
 * reserved in total by PyTorch", a title mangled mid-message,
 * EPFL-IMOS/AnomalyAny#2 = heldout25 h25-92). (diagctx2) */
static const struct msg_clause clauses_pt_any[] = {
    {"Tried to allocate %s", MSG_F_REQUESTED},
    {"GPU %d has a total capac", MSG_F_GPU},
    {"total capacity of %s", MSG_F_CAPACITY},
    {"total capacty of %s", MSG_F_CAPACITY},
    {"of which %s is free", MSG_F_FREE},
    {"GPU %d has total", MSG_F_GPU},
    {"has total %s of which", MSG_F_CAPACITY},
    {"this process has %s memory in use", MSG_F_PROCESS},
    {"Process %d has %s memory in use", MSG_F_PROC},
    {"%s allowed;", MSG_F_ALLOWED},
    {"%s is allocated by PyTorch", MSG_F_ALLOCATED},
    {"%s allocated in private pools", MSG_F_POOLS},
    {"%s is reserved by PyTorch but unallocated", MSG_F_RESERVED_UNALLOC},
    /* the older form's */
    {"(GPU %d;", MSG_F_GPU},
    {"GPU %d; %z total capacity", MSG_F_GPU},
    {"%s total capacity", MSG_F_CAPACITY},
    {"%s already allocated", MSG_F_ALLOCATED},
    {"%s free", MSG_F_FREE},
    {"%s reserved in total", MSG_F_RESERVED},
    {"%s cached", MSG_F_CACHED},
    {"Attempting to allocate %s", MSG_F_REQUESTED},
    {"%s total reserved by PyTorch", MSG_F_RESERVED},
    /* the current form as a browser translates it into Chinese ("torch.
     * OutOfMemoryError：CUDA 内存不足。尝试分配 8.65 GiB。GPU 0 的总容量为 31.37
     * GiB，其中 8.65 GiB 是免费的。包括非 PyTorch 内存在内，此进程有 22.71 GiB
     * 内存正在使用中。在分配的内存中，21.78 GiB 由 PyTorch 分配，117.37 MiB 由
     * PyTorch 保留但未分配。", Wan-Video/Wan2.2#51 = heldout30 h30-58).
     * (diagcall4) */
    {"\xe5\xb0\x9d\xe8\xaf\x95\xe5\x88\x86\xe9\x85\x8d %s", MSG_F_REQUESTED}, /* 尝试分配 */
    {"GPU %d \xe7\x9a\x84\xe6\x80\xbb\xe5\xae\xb9\xe9\x87\x8f", MSG_F_GPU}, /* 的总容量 */
    {"\xe6\x80\xbb\xe5\xae\xb9\xe9\x87\x8f\xe4\xb8\xba %s", MSG_F_CAPACITY}, /* 总容量为 */
    {"\xe5\x85\xb6\xe4\xb8\xad %s \xe6\x98\xaf", MSG_F_FREE}, /* 其中 X 是(免费的|空闲的) */
    {"\xe6\xad\xa4\xe8\xbf\x9b\xe7\xa8\x8b\xe6\x9c\x89 %s", MSG_F_PROCESS}, /* 此进程有 */
    {"%s \xe7\x94\xb1 PyTorch \xe5\x88\x86\xe9\x85\x8d", MSG_F_ALLOCATED}, /* 由 PyTorch 分配 */
    {"%s \xe7\x94\xb1 PyTorch \xe4\xbf\x9d\xe7\x95\x99\xe4\xbd\x86\xe6\x9c\xaa",
     MSG_F_RESERVED_UNALLOC}, /* 由 PyTorch 保留但未(分配) */
    {NULL, 0},
};

/* vLLM V1: "(16.00 GiB KV cache is needed, which is larger than the
 * available KV cache memory (4.85 GiB)". */
static const struct msg_clause clauses_pinned[] = {
    {"allocate %s of pinned memory", MSG_F_REQUESTED},
    {NULL, 0},
};

/* vLLM's start-up check of the device's free memory against its budget:
 * "ValueError: Free memory on device (67.24/79.25 GiB) on startup is less
 * than desired GPU memory utilization (0.9, 71.33 GiB). Decrease GPU memory
 * utilization or reduce GPU memory used by other processes."
 * (ovg-project/kvcached#110 = heldout27 h27-14); later versions name the
 * device, "Free memory on device cuda:0 (...)". The budget (utilization x
 * capacity) is no failed request. (diagctx2) */
static const struct msg_clause clauses_vllm_startup[] = {
    {"Free memory on device (%f", MSG_F_FREE},
    {"Free memory on device cuda:%d (%f", MSG_F_FREE},
    {"on device cuda:%d", MSG_F_GPU},
    {"/%s) on startup", MSG_F_CAPACITY},
    {NULL, 0},
};

static const struct msg_clause clauses_vllm[] = {
    {"(%s KV cache is needed", MSG_F_REQUESTED},
    {"available KV cache memory (%s)", MSG_F_FREE},
    {NULL, 0},
};

/* PaddlePaddle: "Out of memory error on GPU 0. Cannot allocate 98.000244MB
 * memory on GPU 0, 6.000000GB memory has been allocated and available
 * memory is only 0.000000B." (older: "..., available memory is 72.3MB."). */
static const struct msg_clause clauses_paddle[] = {
    {"Cannot allocate %s", MSG_F_REQUESTED},
    {"error on GPU %d", MSG_F_GPU},
    {"memory on GPU %d", MSG_F_GPU},
    {"%s memory has been allocated", MSG_F_ALLOCATED},
    {"available memory is only %s", MSG_F_FREE},
    {"available memory is %s", MSG_F_FREE},
    {NULL, 0},
};

/* Paddle's other devices (the custom-device and XPU allocators): the
 * device's index after its type, "npu:0", "npu 0", "XPU 0". (diagcall6) */
static const struct msg_clause clauses_paddle_device[] = {
    {"Cannot allocate %s", MSG_F_REQUESTED},
    {"%s memory has been allocated", MSG_F_ALLOCATED},
    {"available memory is only %s", MSG_F_FREE},
    {"total memory is %s", MSG_F_CAPACITY},
    {"error on XPU %d", MSG_F_GPU},
    {"error on NPU %d", MSG_F_GPU},
    {"error on npu:%d", MSG_F_GPU},
    {"error on npu %d", MSG_F_GPU},
    {"error on mlu:%d", MSG_F_GPU},
    {"error on xpu:%d", MSG_F_GPU},
    {NULL, 0},
};

/* llama.cpp/ggml: "alloc_buffer: allocating 144817.04 MiB on device 0:
 * cudaMalloc failed: out of memory"; the exact size follows (near). */
static const struct msg_clause clauses_nd4j[] = {
    {"Failed to allocate %d bytes", MSG_F_REQUESTED},
    {"from DEVICE [%d]", MSG_F_GPU},
    {NULL, 0},
};

/* GrabGPU: "GPU-0: Failed to allocate 16.00 GB GPU memory (0.00 GB
 * available)"; its GB are 1024^3 bytes (bytes_per_gb in
 * godweiyang/GrabGPU:gg.cu@0553e5ae); "GPU-0" counts the devices it asked
 * for, read as no index (heldout41's labels) */
static const struct msg_clause clauses_grabgpu[] = {
    {"Failed to allocate %s GPU memory", MSG_F_REQUESTED},
    {"GPU memory (%s available)", MSG_F_FREE},
    {NULL, 0},
};

/* GPU PhysX's device allocator (Isaac Gym, Isaac Sim, Isaac Lab): "PxgCuda
 * DeviceMemoryAllocator fail to allocate memory 339738624 bytes!! Result =
 * 2" (the request in bytes; the result a cudaError_t) */
static const struct msg_clause clauses_physx[] = {
    {"fail to allocate memory %d bytes", MSG_F_REQUESTED},
    {NULL, 0},
};

static const struct msg_clause clauses_ggml[] = {
    {"allocating %s on device %d", MSG_F_REQUESTED},
    {"on device %d", MSG_F_GPU},
    {NULL, 0},
};

/* ggml's context arena refusing an object: "(needed N, available M)" */
static const struct msg_clause clauses_ggml_context[] = {
    {"(needed %d", MSG_F_REQUESTED},
    {"available %d)", MSG_F_FREE},
    {NULL, 0},
};

/* ggml's buffer allocations name the buffer type that failed
 * (ggml_backend_buft_name): "alloc_tensor_range: failed to allocate CUDA0
 * buffer of size 4412935168" (ggml-alloc.c), "ggml_gallocr_reserve_n: failed
 * to allocate ROCm0 buffer of size N", llama.cpp's "unable to allocate
 * Vulkan0 buffer" (src/llama-model.cpp); Metal's own "failed to allocate
 * buffer, size = 12288.00 MiB" (ggml-metal). (diagcall6) */
static const struct msg_clause clauses_ggml_buffer[] = {
    {"allocate CUDA%d buffer", MSG_F_GPU},
    {"allocate ROCm%d buffer", MSG_F_GPU},
    {"allocate MUSA%d buffer", MSG_F_GPU},
    {"allocate Vulkan%d buffer", MSG_F_GPU},
    {"allocate SYCL%d buffer", MSG_F_GPU},
    {"allocate CANN%d buffer", MSG_F_GPU},
    {"buffer of size %d", MSG_F_REQUESTED},
    {"failed to allocate buffer, size = %s", MSG_F_REQUESTED},
    /* the SYCL backend's own words (ggml/src/ggml-sycl/ggml-sycl.cpp) */
    {"can't allocate %d Bytes", MSG_F_REQUESTED},
    {"can't malloc %d Bytes", MSG_F_REQUESTED},
    {NULL, 0},
};

/* Intel Gaudi (HPU): "RuntimeError: [Rank:0] FATAL ERROR :: MODULE:PT_DEVMEM
 * Allocation failed for size::939524096 (896)MB" (HabanaAI/vllm-fork's
 * calibration docs; accelerate's utils/memory.py lists it as the HPU's OOM
 * beside CUDA's). The bytes, then the rank of its own prefix. (diagcall6) */
static const struct msg_clause clauses_hpu[] = {
    {"Allocation failed for size::%d", MSG_F_REQUESTED},
    {"[Rank:%d]", MSG_F_RANK},
    {NULL, 0},
};

static const struct msg_clause clauses_mlx[] = {
    {"Attempting to allocate %d bytes", MSG_F_REQUESTED},
    {"Unable to allocate %d bytes", MSG_F_REQUESTED},
    {NULL, 0},
};

/* PaddlePaddle 1.x: "enforce allocating <= available failed, 10513462067 >
 * 1369702144" (the request, then what the device had free) and "Cannot
 * malloc 49.0002 MB GPU memory. Please shrink FLAGS_fraction_of_gpu_memory...". */
static const struct msg_clause clauses_paddle_old[] = {
    {"available failed, %d", MSG_F_REQUESTED},
    {"available failed, %i > %d", MSG_F_FREE},
    /* Paddle's binary-compare enforce prints the failed comparison and its
     * inverse ("enforce %s <op> %s failed, %s <inverse op> %s",
     * paddle/platform/enforce.h, quoted in PaddlePaddle/Paddle#12591):
     * gpu_info.cc's PADDLE_ENFORCE_LT of late 2017 reads "enforce allocating
     * < available failed, 11475179929 >= 11156224154" (PaddlePaddle/Paddle
     * #6265 = heldout58 h58-38), the LE of 2018 the "<= ... >" above
     * (#7227, #8992). (open58) */
    {"available failed, %i >= %d", MSG_F_FREE},
    /* 1.5's PADDLE_ENFORCE_LE words (paddle/fluid/platform/enforce.h):
     * "Enforce failed. Expected allocating <= available, but received
     * allocating:2147483648 > available:1073741824." (diagnumsrc) */
    {"but received allocating:%d", MSG_F_REQUESTED},
    {"> available:%d", MSG_F_FREE},
    {"Cannot malloc %s GPU memory", MSG_F_REQUESTED},
    {NULL, 0},
};

/* TF/XLA stream executor: "failed to allocate 17.79G (19104890880 bytes)
 * from device: CUDA_ERROR_OUT_OF_MEMORY", "failed to alloc 2147483648 bytes
 * unified memory; result: CUDA_ERROR_OUT_OF_MEMORY". */
static const struct msg_clause clauses_cuda_error[] = {
    {"(%d bytes) from device", MSG_F_REQUESTED},
    {"failed to alloc %d bytes", MSG_F_REQUESTED}, /* also "... bytes on host" */
    {"failed to allocate %s (", MSG_F_REQUESTED},
    {"failed to allocate %s from device", MSG_F_REQUESTED}, /* hipTF: no byte count */
    {"allocate buffer: %d", MSG_F_REQUESTED}, /* MIOpen */
    /* TF/XLA's cuda_malloc_async allocator (tensorflow/core/
     * common_runtime/gpu/gpu_cudamallocasync_allocator.cc): "gpu_async_0
     * cuMemAllocAsync failed to allocate 2147483648 bytes: CUDA error: out of
     * memory ..." / " Reported by CUDA: Free memory/Total memory: F/T" (the
     * first releases: "... allocate 2147483648: ..." / " Free memory/Total
     * memory: F/T"): the request, then the card's free and total in bytes */
    {"cuMemAllocAsync failed to allocate %d", MSG_F_REQUESTED},
    /* the allocator's name, "gpu_async_" + the device id, as GPU_0_bfc's (diagnumsrc) */
    {"gpu_async_%d cuMemAllocAsync", MSG_F_GPU},
    {"Free memory/Total memory: %d", MSG_F_FREE},
    {"Free memory/Total memory: %i/%d", MSG_F_CAPACITY},
    /* Kokkos' RawMemoryAllocationFailure, "Allocation of size
     * 4.657 G failed, likely due to insufficient memory." above its
     * "cudaErrorMemoryAllocation" (kokkos/kokkos:core/src/impl/
     * Kokkos_Error.cpp, print_error_message; human_memory_size writes
     * setprecision(4) and " B"/" K"/" M"/" G", 1024-based) */
    {"Allocation of size %s failed", MSG_F_REQUESTED},
    {NULL, 0},
};

/* CuPy/Chainer: "out of memory to allocate 1073741824 bytes (total
 * 12373894656 bytes)" (CuPy < 7) and "Out of memory allocating 25,600,000
 * bytes (allocated so far: 3,635,267,072 bytes)": the pool's total so far. */
static const struct msg_clause clauses_cupy[] = {
    {"out of memory to allocate %d bytes", MSG_F_REQUESTED},
    {"(total %d bytes)", MSG_F_ALLOCATED},
    {"Out of memory allocating %n bytes", MSG_F_REQUESTED},
    {"allocated so far: %n bytes", MSG_F_ALLOCATED},
    /* a pool under cupy.cuda.set_allocator's limit (MemoryPool.set_limit)
     * adds it: "(allocated so far: N bytes, limit set to: L bytes)."
     * (cupy/cupy:cupy/cuda/memory.pyx@0212ca8c OutOfMemoryError) */
    {"limit set to: %n bytes", MSG_F_ALLOWED},
    {NULL, 0},
};

/* RAPIDS RMM's allocation failures (rapidsai/rmm:include/rmm/detail/
 * error.hpp@04b6ca26 RMM_CUDA_TRY_ALLOC; later releases name the size):
 * "std::bad_alloc: out_of_memory: CUDA error (failed to allocate N bytes)
 * at: .../cuda_memory_resource.hpp:62: cudaErrorMemoryAllocation out of
 * memory". rmm::out_of_memory puts "out_of_memory: " before the text
 * only for cudaErrorMemoryAllocation; rmm::bad_alloc's "std::bad_alloc: "
 * stands before every failure. */
static const struct msg_clause clauses_rmm[] = {
    {"CUDA error (failed to allocate %d bytes)", MSG_F_REQUESTED},
    /* the pool and arena resources: "Maximum pool size exceeded (failed to
     * allocate 2.000000 GiB): Not enough room to grow, ..." (format_bytes:
     * std::to_string of a double and a 1024-based unit; rapidsai/rmm:cpp/src/
     * mr/detail/pool_memory_resource_impl.cpp@5d50a37b, cpp/include/rmm/detail/
     * format.hpp) (srcfam) */
    {"Maximum pool size exceeded (failed to allocate %s)", MSG_F_REQUESTED},
    /* spill-on-demand's warning (the rmm row that reads it) */
    {"RMM allocation of %s", MSG_F_REQUESTED},
    {NULL, 0},
};

/* XGBoost's device allocator names the request and the free memory on the
 * lines after its message (dh::detail::ThrowOOMError, dmlc/xgboost:src/
 * common/device_vector.cu@379b29f0: "Memory allocation error on worker N:
 * <what>" / "- Free memory: X" / "- Requested memory: X" / "- Reserved by
 * the pool: X" / "- Used by the pool: X"; HumanMemUnit prints 1024-based
 * GB/MB/KB, src/common/common.cc; XGBoost 1.x printed bare byte counts,
 * "- Free memory: 8126464", dmlc/xgboost#8484 = heldout32 h32-79). (srcfam) */
/* near_own_line: the same figures on the message's own line too, where a
 * JSON or repr log keeps the newlines as "\n" escapes. */
static const struct msg_near near_xgboost[] = {
    /* the worker is the collective's rank (ThrowOOMError: "auto rank =
     * xgboost::collective::GetRank(); ... on worker " << rank, rabit::GetRank()
     * in 1.x; dmlc/xgboost#8292's Spark job: "on worker 3") (nonpt20) */
    {"Memory allocation error on worker %d", MSG_F_RANK, 0, 0},
    {"- Requested memory: %s", MSG_F_REQUESTED, 0, 6},
    {"- Requested memory: %d", MSG_F_REQUESTED, 0, 6},
    {"- Free memory: %s", MSG_F_FREE, 0, 6},
    {"- Free memory: %d", MSG_F_FREE, 0, 6},
    {"- Reserved by the pool: %s", MSG_F_RESERVED, 0, 6},
    {"- Used by the pool: %s", MSG_F_ALLOCATED, 0, 6},
    {NULL, 0, 0, 0},
};

/* tinygrad's allocator wraps a backend's refusal: "MemoryError: Allocation
 * of 2.00 GB failed on CUDA. Used: 21.50 GB" (Allocator.alloc, tinygrad/
 * tinygrad:tinygrad/device.py@a9069c17; size_to_str prints 1024-based
 * GB/MB/KB, tinygrad/helpers.py; "Used" is what tinygrad holds on that
 * device), and its Metal backend says "Metal OOM while allocating
 * size=N" (tinygrad/runtime/ops_metal.py). (srcfam) */
static const struct msg_clause clauses_tinygrad[] = {
    {"Allocation of %s failed", MSG_F_REQUESTED},
    {"Used: %s", MSG_F_ALLOCATED},
    /* the device's index after its name, whichever device the rule took
     * (CUDA:1, AMD:1, METAL:1, ...) */
    {"failed on %w:%d", MSG_F_GPU},
    {"while allocating size=%d", MSG_F_REQUESTED},
    {NULL, 0},
};

/* HAMi-core, the CUDA hook behind HAMi's vGPU sharing, refuses an
 * allocation that would take a container past its memory limit:
 * LOG_ERROR("Device %d OOM %lu / %lu", d, new_allocated, limit) in
 * oom_check (Project-HAMi/HAMi-core:src/allocator/allocator.c@b1c9b8e0),
 * under its log prefix "[HAMI-core ERROR (pid:N thread=N allocator.c:53)]: "
 * (the softmig fork prints "[softmig ERROR (pid:..."). The two figures are
 * the usage the allocation would reach and the limit, neither a request
 * nor the card's capacity: only the device is read. */
static const struct msg_clause clauses_hami[] = {
    {"Device %d OOM", MSG_F_GPU},
    {NULL, 0},
};

/* CatBoost's GPU memory pool (catboost/catboost:catboost/cuda/cuda_lib/
 * memory_pool/stack_like_memory_pool.h@0d257b83 TStackLikeMemoryPool::
 * Create): "Error: Out of memory. Requested 8880 MB; Free 5902.061425 MB"
 * (NCudaLib::TOutOfMemoryError; the sizes divided by MB, 1024 * 1024). */
static const struct msg_clause clauses_catboost[] = {
    {"Out of memory. Requested %s;", MSG_F_REQUESTED},
    {"; Free %s", MSG_F_FREE},
    {NULL, 0},
};

/* The NVIDIA HPC compilers' OpenACC runtime (nvc, nvfortran): "Out of
 * memory allocating 4499256832 bytes of device memory" / "Failing in
 * Thread:1" / "total/free CUDA memory: 85094825984/2894921728" (bytes;
 * MFlowCode/MFC#989 = heldout47 h47-90). */
static const struct msg_clause clauses_openacc[] = {
    {"Out of memory allocating %d bytes", MSG_F_REQUESTED},
    {NULL, 0},
};

static const struct msg_near near_openacc[] = {
    {"total/free CUDA memory: %d", MSG_F_CAPACITY, 0, 4},
    {"total/free CUDA memory: %i/%d", MSG_F_FREE, 0, 4},
    /* its present-table dump names the CUDA device after OpenACC's own
     * 1-based number: "Present table dump for device[1]: NVIDIA Tesla GPU 0,
     * compute capability 8.0" (h47-90) */
    {"Present table dump for device[%i]: NVIDIA Tesla GPU %d", MSG_F_GPU, 0, 6},
    {NULL, 0, 0, 0},
};

/* TIGRE (tomographic reconstruction, CERN/TIGRE): its cudaCheckErrors(msg)
 * prints msg, then raises the module's id with cudaGetErrorString: "Error
 * pinning memory" / "CBCT:CUDA:Atb out of memory" (CERN/TIGRE:Common/CUDA/
 * voxel_backprojection.cu; the Python build prints "file (line): " before
 * each). The call that failed is the one msg names: after
 * cudaHostRegister, page-locked host memory, not the card. */
static const struct msg_near near_tigre[] = {
    {"Error pinning memory", MSG_F_HOST, 1, 0},
    {NULL, 0, 0, 0},
};

/* CUDA.jl: "Out of GPU memory trying to allocate 1.896 GiB" / "Effective GPU
 * memory usage: 99.90% (15.766 GiB/15.782 GiB)" / "Memory pool usage: 2.372
 * GiB (3.219 GiB reserved)" (used/total of the card; the pool's use). */
static const struct msg_clause clauses_julia[] = {
    {"trying to allocate %s", MSG_F_REQUESTED},
    {"memory usage: %i.%i%% (%z/%s)", MSG_F_CAPACITY},
    /* 2020-21: "binned usage: 7.313 GiB (7.313 GiB allocated, 0 bytes
     * cached)", "Memory pool usage: X (A allocated, C cached)": X is A + C,
     * the pool's whole; A what is in use (JuliaGPU/CUDA.jl src/pool.jl
     * pool_status before 2022) (diagnumsrc) */
    {"(%s allocated,", MSG_F_ALLOCATED},
    {"Memory pool usage: %s", MSG_F_ALLOCATED},
    {"(%s reserved)", MSG_F_RESERVED},
    {NULL, 0},
};

/* ONNX Runtime's arena: "onnxruntime::BFCArena::AllocateRawInternal Failed
 * to allocate memory for requested buffer of size 2830172160". */
static const struct msg_clause clauses_ort[] = {
    {"requested buffer of size %d", MSG_F_REQUESTED},
    /* the arena's cap (gpu_mem_limit, arena_extend_strategy): "Available
     * memory of 34699008 is smaller than requested bytes of 945041920"
     * (diagcall9) */
    {"smaller than requested bytes of %d", MSG_F_REQUESTED},
    /* "Failed to find a free memory block despite calling Extend.
     * rounded_bytes=1048576" */
    {"despite calling Extend. rounded_bytes=%d", MSG_F_REQUESTED},
    {"BFC Arena ran out of memory trying to allocate %d", MSG_F_REQUESTED},
    {NULL, 0},
};

/* TensorRT: "Requested amount of GPU memory (4294967296 bytes)", older
 * "Requested amount of memory (150994944 bytes)". */
static const struct msg_clause clauses_trt[] = {
    {"amount of GPU memory (%d bytes)", MSG_F_REQUESTED},
    /* TensorRT 10's resizable buffer: "Error Code 2: OutOfMemory
     * (Requested size was 16654532608 bytes.)" (huggingface/optimum-nvidia#146 = h23-11) */
    {"Requested size was %d bytes", MSG_F_REQUESTED},
    {"amount of memory (%d bytes)", MSG_F_REQUESTED},
    {NULL, 0},
};

/* torch.cuda.memory_summary(): "|  CUDA OOMs: 1  |  cudaMalloc retries: 1  |"
 * (the rows below are read by lib/memsummary). */
static const struct msg_clause clauses_memsummary[] = {
    {"OOMs: %d", MSG_F_OOM_COUNT},
    {NULL, 0},
};

/* CUDA libraries: CNTK's "CUBLAS failure 3: CUBLAS_STATUS_ALLOC_FAILED ; GPU=0 ;" */
static const struct msg_clause clauses_cuda_lib[] = {
    {"GPU=%d", MSG_F_GPU},
    {NULL, 0},
};

static const struct msg_clause clauses_gpu_hash[] = {
    {"on GPU #%d", MSG_F_GPU},
    {NULL, 0},
};

static const struct msg_clause clauses_none[] = {{NULL, 0}};
/* an OOM named in words (a title, a log line) that states the
 * failed allocation's exact size: ggml's "Device memory allocation of size
 * 17368219904 failed." as an issue title (ikawrakow/ik_llama.cpp#1289 =
 * h29-12), PaRSEC's "GPU[cuda(6)] Allocating 79855878144 bytes of memory on
 * the GPU device failed" (ICLDisco/parsec#630 = h17-01). */
static const struct msg_clause clauses_mention[] = {
    {"memory allocation of size %d failed", MSG_F_REQUESTED},
    {"Allocating %d bytes of memory on the GPU device failed", MSG_F_REQUESTED},
    {NULL, 0},
};
/* TF names the device it failed to set up: "failed initializing
 * StreamExecutor for CUDA device ordinal 0: ..." */
static const struct msg_clause clauses_device_ordinal[] = {
    {"device ordinal %d", MSG_F_GPU},
    {NULL, 0},
};

/* torch-directml (AMD/Intel GPUs on Windows through DirectML): "Could not
 * allocate tensor with 2025000000 bytes. There is not enough GPU video
 * memory available!" (Comfy-Org/ComfyUI#5427) */
static const struct msg_clause clauses_directml[] = {
    {"allocate tensor with %d bytes", MSG_F_REQUESTED},
    {NULL, 0},
};

/* TVM's Relax VM storage check (tvm-storage-region below): "attempted to
 * allocate 16785408 at offset 0 in region that is 16777216bytes" (bytes) */
static const struct msg_clause clauses_tvm_region[] = {
    {"attempted to allocate %d at offset", MSG_F_REQUESTED},
    {NULL, 0},
};

/* ---- diagfam: clauses of non-PyTorch families (issue 12) ---------------- */

/* flashlight over ArrayFire: "Unable to allocate memory with native alloc for
 * size 3999880001355776 bytes with AF error 'ArrayFire Exception (Device out
 * of memory:101)" (arrayfire/arrayfire#2895). */
static const struct msg_clause clauses_arrayfire[] = {
    {"native alloc for size %d bytes", MSG_F_REQUESTED},
    /* flashlight's caching memory manager before the AF error:
     * "Failed to allocate memory of size 1.27 GiB (Device: 0, Capacity: 31.74
     * GiB, Allocated: 29.98 GiB, Cached: 994.36 MiB)" (flashlight/flashlight#211 = h20-17;
     * cached = reserved, as PyTorch's oldest form) */
    {"allocate memory of size %s (Device", MSG_F_REQUESTED},
    {"(Device: %d, Capacity", MSG_F_GPU},
    {"Capacity: %s, Allocated", MSG_F_CAPACITY},
    {"Allocated: %s, Cached", MSG_F_ALLOCATED},
    {", Cached: %s)", MSG_F_CACHED},
    {NULL, 0},
};

/* TensorRT's builder skipping a tactic: "Tactic Device request: 600MB
 * Available: 302MB. Device memory is insufficient to use tactic." (the
 * request in MiB; the "requested size of N" beside it is bytes in TensorRT
 * 10 and MiB in TensorRT 8, so it is not read). */
/* Triton's CUDA memory pool: "Failed to allocate CUDA memory with byte size
 * 102236160 on GPU 0: CNMEM_STATUS_OUT_OF_MEMORY, falling back to pinned
 * system memory" (triton-inference-server/server#8177). */
static const struct msg_clause clauses_triton_pool[] = {
    {"with byte size %d", MSG_F_REQUESTED},
    {"on GPU %d", MSG_F_GPU},
    {NULL, 0},
};

static const struct msg_clause clauses_trt_tactic[] = {
    {"Tactic Device request: %s", MSG_F_REQUESTED},
    /* what the builder had beside it: "... request: 2168MB Available:
     * 1536MB." (triton-inference-server/server#4087 = heldout58 h58-57,
     * ultralytics/ultralytics#22271) (open58) */
    {"Tactic Device request: %z Available: %s", MSG_F_FREE},
    /* TensorRT 8.0-8.4's form names the request in bytes: "Skipping tactic 0
     * due to insufficient memory on requested size of 4430970880 detected
     * for tactic 4" (ultralytics/yolov5#12248); a look-alike carries its
     * request (diagcall5) */
    {"on requested size of %d", MSG_F_REQUESTED},
    {NULL, 0},
};

/* ---- nearby lines that complete a message ------------------------------ */

/* llama.cpp's Vulkan backend names the size on the line before:
 * "ggml_vulkan: Device memory allocation of size 118497280 failed." /
 * "ggml_vulkan: vk::Device::allocateMemory: ErrorOutOfDeviceMemory"
 * (ggml-org/llama.cpp#15256). */
static const struct msg_near near_vulkan[] = {
    {"memory allocation of size %d failed", MSG_F_REQUESTED, 2, 0},
    {NULL, 0, 0, 0},
};

static const struct msg_near near_tf[] = {
    {"InUse: %d", MSG_F_ALLOCATED, 40, 0},
    {"GPU_%d_bfc", MSG_F_GPU, 10, 0},
    /* the node line after the message: "[[Node: x = Mul[T=DT_FLOAT,
     * _device="/job:localhost/replica:0/task:0/device:GPU:0"](...)]]" */
    {"DstT=DT_%t", MSG_F_DTYPE, 0, 3},
    {"T=DT_%t", MSG_F_DTYPE, 0, 3},
    {"device:GPU:%d", MSG_F_GPU, 0, 3},
    {"/gpu:%d", MSG_F_GPU, 0, 3},
    /* the failing node, on the line right after the message,
     * placed on the CPU ("_device=\"/job:localhost/replica:0/task:0/
     * device:CPU:0\"]]"): its output is host memory (the host-cpu-alloc row
     * reads the same on one line). Only that line: the _Recv nodes TF lists
     * after it run on the CPU for any device's OOM (corpus 228). */
    {"/device:CPU:%i\"]", MSG_F_HOST, 0, 1},
    /* TF's pinned host allocator ran out: host RAM, not the device */
    {"Allocator (cuda_host_bfc)", MSG_F_HOST, 10, 3},
    {NULL, 0, 0, 0},
};
static const struct msg_near near_jax[] = {
    {"Allocator (GPU_%d_bfc)", MSG_F_GPU, 10, 0},
    /* PyTorch/XLA's TPU table under "Attempting to reserve 3.95G ...":
     * "HBM capacity 8.00G:", "Program requirement:    3.95G (   4,237,689,856
     * bytes)" (the exact request), "Currently allocated:    6.08G (
     * 6,532,939,776 bytes)" (pytorch/xla#1735) */
    {"HBM capacity %s", MSG_F_CAPACITY, 0, 4},
    {"Program requirement: %z ( %n bytes)", MSG_F_REQUESTED_EXACT, 0, 8},
    {"Currently allocated: %z ( %n bytes)", MSG_F_ALLOCATED, 0, 8},
    /* the run is on the host platform: JAX's own start-up warnings
     * ("No GPU/TPU found, falling back to CPU.", "An NVIDIA GPU may be
     * present on this machine, but a CUDA-enabled jaxlib is not installed.
     * Falling back to cpu.") or the words right above the error ("I want to
     * use  CPU platform with 40 GB memory to run the graphcast, but the
     * program arise the message:", google-deepmind/weathernext#44 = h20-101) */
    {"No GPU/TPU found", MSG_F_HOST, 400, 0},
    {"jaxlib is not installed. Falling back to cpu", MSG_F_HOST, 400, 0},
    {"CPU platform", MSG_F_HOST, 3, 0},
    {NULL, 0, 0, 0},
};
static const struct msg_near near_nccl[] = {
    {"Failed to CUDA calloc %d bytes", MSG_F_REQUESTED, 0, 6},
    /* the same process's init line: "NCCL INFO comm 0x... rank 3 nranks 8 cudaDev 3" */
    {"rank %d nranks", MSG_F_RANK, 400, 0},
    {"Failed to CUDA malloc %d bytes", MSG_F_REQUESTED, 0, 6},
    {NULL, 0, 0, 0},
};
static const struct msg_near near_nccl_error[] = {
    {"'out of memory'", MSG_F_IS_OOM, 0, 6},
    {"rank %d nranks", MSG_F_RANK, 400, 0},
    {NULL, 0, 0, 0},
};
static const struct msg_near near_vllm[] = {
    {"total_gpu_memory=%s", MSG_F_CAPACITY, 12, 0},
    {"total_gpu_memory (%s)", MSG_F_CAPACITY, 12, 0},
    {NULL, 0, 0, 0},
};
static const struct msg_near near_torchrun[] = {
    {"rank : %d", MSG_F_RANK, 8, 0},
    {NULL, 0, 0, 0},
};
static const struct msg_near near_ggml[] = {
    {"buffer of size %d", MSG_F_REQUESTED_EXACT, 0, 2},
    {NULL, 0, 0, 0},
};
/* TensorRT's "Error Code 2: OutOfMemory" lines come before the warning
 * with the size. */
static const struct msg_near near_trt[] = {
    {"amount of GPU memory (%d bytes)", MSG_F_REQUESTED, 0, 3},
    {NULL, 0, 0, 0},
};
/* ggml's CUDA_CHECK names the device on the next line: "CUDA error: out of
 * memory" / "  current device: 0, in function ggml_cuda_pool_malloc_vmm". */
static const struct msg_near near_cuda_error[] = {
    {"current device: %d", MSG_F_GPU, 0, 2},
    /* ggml's graph allocator names the device buffer it failed to
     * reserve on the next line: "Error: llama runner process has
     * terminated: cudaMalloc failed: out of memory" / "ggml_gallocr_reserve_n:
     * failed to allocate CUDA0 buffer of size 838447104" (ollama/ollama#9782
     * = h9-27): CUDAn is device n, as in the rows of the ggml family */
    {"failed to allocate CUDA%d buffer of size", MSG_F_GPU, 0, 2},
    {"failed to allocate CUDA%i buffer of size %d", MSG_F_REQUESTED, 0, 2},
    /* TF's stream executor names no device on its "failed to allocate ...
     * from device: CUDA_ERROR_OUT_OF_MEMORY" lines; the BFC allocator lines
     * around them do ("Allocator (GPU_0_bfc) ran out of memory trying to
     * allocate 2.16GiB ...", ika-rwth-aachen/Point-Cloud-Compression#2 =
     * h17-24; talmolab/sleap#2142 = h9-37). */
    {"Allocator (GPU_%d_bfc)", MSG_F_GPU, 10, 10},
    /* ... and the request that failed. The driver's figure is
     * the BFC allocator growing its region: BFCAllocator::Extend asks the
     * sub-allocator for curr_region_allocation_bytes_ (doubled until the
     * request fits, then backed off by 0.9 on failure), and each refusal is
     * a stream-executor "failed to allocate" line; only when AllocateRawInternal
     * gives up does the BFC print the request itself, "ran out of memory trying
     * to allocate 16.0KiB.  Current allocation summary follows." (TF 2.3+:
     * "... 4.42GiB (rounded to 4746649600)requested by op ...")
     * (tensorflow/tensorflow:tensorflow/core/common_runtime/bfc_allocator.cc
     * @010f3edc; hongzimao/pensieve#81 = heldout40 h40-25). Its retry warning
     * ("... with freed_by_count=0. The caller indicates that this is not a
     * failure") is no failed request and is not read. */
    {"ran out of memory trying to allocate %z (rounded to %d)", MSG_F_REQUESTED_EXACT, 0, 10},
    {"ran out of memory trying to allocate %s.  Current allocation summary", MSG_F_REQUESTED_EXACT, 0, 10},
    /* XGBoost's dh::detail::ThrowOOMError (src/common/
     * device_helpers.cu, dmlc/xgboost) puts the figures under its message,
     * "Memory allocation error on worker 0: ... cudaErrorMemoryAllocation:
     * out of memory" / "- Free memory: 8126464" / "- Requested memory:
     * 33554432": bytes in older releases, HumanMemUnit's "1.5GB" in newer */
    {"- Free memory: %s", MSG_F_FREE, 0, 3},
    {"- Free memory: %d", MSG_F_FREE, 0, 3},
    {"- Requested memory: %s", MSG_F_REQUESTED, 0, 3},
    {"- Requested memory: %d", MSG_F_REQUESTED, 0, 3},
    {NULL, 0, 0, 0},
};
static const struct msg_near near_none[] = {{NULL, 0, 0, 0}};

/* A C++ exception's what() that ends in ": out of memory" (the what() row)
 * is the device's only where the device is named: thrust's system_error
 * class on the terminate line above it ("terminate called after throwing
 * an instance of 'thrust::system::system_error'" / "what():  parallel_for
 * failed: out of memory", dmlc/xgboost#3756), a CUDA source or call on its
 * own line ("what():  .../common/device_helpers.cuh(456): out of memory",
 * dmlc/xgboost#2874), or the paste's CUDA or GPU words above it. Else it is
 * a host library's error string: SQLite's for SQLITE_NOMEM (and for a
 * misuse, ROCm/MIOpen#187), "Failed to prepare query \"SELECT 1\": out of
 * memory" through DuckDB's sqlite scanner (duckdb/duckdb-node#173). Own line
 * too (near_own_line). (left23) */
static const struct msg_near near_what_oom[] = {
    {"thrust::", MSG_F_DEVICE, 3, 0},
    {"device%b", MSG_F_DEVICE, 2, 0},
    /* a CUDA source's own frame, "file.cuh(456):" (dmlc/xgboost#2874's
     * ".../common/device_helpers.cuh(456): out of memory"), the word
     * "device" not being one inside "device_helpers" */
    {".cuh(%i)", MSG_F_DEVICE, 2, 0},
    {".cu(%i)", MSG_F_DEVICE, 2, 0},
    /* words, not parts of words: "gpustat", "cudatoolkit" name no device
     * (%b: a word's end; the pattern's start is one already) (left25), nor
     * do identifiers that hold the word: the toolkit's CUDA_HOME, a build's
     * TORCH_CUDA_ARCH_LIST say a toolkit is there, not that the program runs
     * on the device. The variable that picks the devices it runs on does
     * (tidy25). */
    {"CUDA_VISIBLE_DEVICES", MSG_F_DEVICE, 40, 2},
    {"cuda%b", MSG_F_DEVICE, 40, 2},
    {"CUDA%b", MSG_F_DEVICE, 40, 2},
    {"Cuda%b", MSG_F_DEVICE, 40, 2},
    {"GPU%b", MSG_F_DEVICE, 40, 2},
    {"gpu%b", MSG_F_DEVICE, 40, 2},
    {"current device: %d", MSG_F_GPU, 0, 2},
    {"- Free memory: %s", MSG_F_FREE, 0, 3},
    {"- Free memory: %d", MSG_F_FREE, 0, 3},
    {"- Requested memory: %s", MSG_F_REQUESTED, 0, 3},
    {"- Requested memory: %d", MSG_F_REQUESTED, 0, 3},
    {NULL, 0, 0, 0},
};

/* PaddlePaddle 1.x's buddy allocator, after its system allocator's "Cannot
 * malloc 20031.3 MB GPU memory" (the pool's next chunk, not the request),
 * logs what the caller asked for and what the device had: "Cannot allocate
 * 102760448 bytes in GPU 0, available 2650865664 bytes", then "total
 * 24032378880" (paddle/fluid/memory/malloc.cc, Alloc<CUDAPlace>; later
 * releases print the sizes readable, "Cannot allocate 98.00MB in GPU 0,
 * available 2.47GB"; a ResNet-50 NCCL2 job's test pass, PaddlePaddle/
 * Paddle#11456 = heldout60 h60-46). Those are the event's figures. (open60) */
static const struct msg_near near_paddle_malloc[] = {
    {"Cannot allocate %d bytes in GPU", MSG_F_REQUESTED_EXACT, 0, 2},
    {"Cannot allocate %s in GPU", MSG_F_REQUESTED_EXACT, 0, 2},
    {" in GPU %d, available", MSG_F_GPU, 0, 2},
    {" in GPU %i, available %d bytes", MSG_F_FREE, 0, 2},
    {" in GPU %i, available %s", MSG_F_FREE, 0, 2},
    {"total %d", MSG_F_CAPACITY, 0, 3},
    {NULL, 0, 0, 0},
};
/* clauses_pt_warn's figures wrapped onto the line after */
static const struct msg_near near_pt_warn[] = {
    {"trying to allocate %d bytes", MSG_F_REQUESTED, 0, 1},
    {"(free: %d,", MSG_F_FREE, 0, 1},
    {"total: %d)", MSG_F_CAPACITY, 0, 1},
    {NULL, 0, 0, 0},
};

/* the size of an OOM named in words on the line after it:
 * "... device_cuda_module.c:348 cudaMallocout of memory" / "W@00001
 * GPU[cuda(6)] Allocating 79855878144 bytes of memory on the GPU device
 * failed" (ICLDisco/parsec#630 = h17-01) */
static const struct msg_near near_mention[] = {
    {"Allocating %d bytes of memory on the GPU device failed", MSG_F_REQUESTED, 0, 2},
    {NULL, 0, 0, 0},
};
/* Caffe2 prints the failing operator after "Error from operator:",
 * its device in the proto's device_option (device_type 1 is CUDA; the id
 * field was "cuda_gpu_id" before "device_id"): "device_option { device_type:
 * 1 device_id: 0 }" (facebookresearch/Detectron#821 = h23-25), "device_option
 * { device_type: 1 cuda_gpu_id: 0 }" (facebookresearch/Detectron#554 = h23-28). */
/* near_own_line: also the operator joined to the message's own line. */
static const struct msg_near near_caffe2[] = {
    {"device_option { device_type: 1 device_id: %d }", MSG_F_GPU, 0, 3},
    {"device_option { device_type: 1 cuda_gpu_id: %d }", MSG_F_GPU, 0, 3},
    {NULL, 0, 0, 0},
};

/* ---- diagfam: nearby lines of non-PyTorch families (issue 12) ----------- */

/* TensorRT's runtime error, then the warning with the size, then the
 * deserialiser's error: "[E] 1: [defaultAllocator.cpp::allocate::19] Error
 * Code 1: Cuda Runtime (out of memory)" / "[W] Requested amount of GPU memory
 * (1180463648 bytes) could not be allocated." (open-mmlab/Live2Diff#9). */
static const struct msg_near near_trt_runtime[] = {
    {"amount of GPU memory (%d bytes)", MSG_F_REQUESTED, 0, 3},
    {"amount of memory (%d bytes)", MSG_F_REQUESTED, 0, 3},
    {NULL, 0, 0, 0},
};
/* The skipped tactic's line, then the request: "Skipping tactic 33 due to
 * insufficient memory on requested size of 629145600 ..." / "Tactic Device
 * request: 600MB Available: 302MB." (ultralytics/ultralytics#22271). */
static const struct msg_near near_trt_tactic[] = {
    {"Tactic Device request: %s", MSG_F_REQUESTED, 0, 2},
    {"Tactic Device request: %z Available: %s", MSG_F_FREE, 0, 2},
    {NULL, 0, 0, 0},
};
/* TensorRT-LLM's executor report lists the device's figures in GiB under
 * its message (the row "trtllm-executor"). */
static const struct msg_near near_trtllm_executor[] = {
    {"Total GPU memory (GiB): %g", MSG_F_CAPACITY, 0, 4},
    {"Free GPU memory before component creation attempt (GiB): %g", MSG_F_FREE, 0, 5},
    {NULL, 0, 0, 0},
};
/* A BFC allocator's memory dump names its allocator in the lines around it:
 * the pinned host one is host RAM (tensorflow/tensorflow#11915 = corpus 269). */
static const struct msg_near near_bfc_dump[] = {
    {"Allocator (cuda_host_bfc)", MSG_F_HOST, 60, 20},
    {"Allocator (GPU_%d_bfc)", MSG_F_GPU, 60, 20},
    {NULL, 0, 0, 0},
};

/* ---- rules, most specific first ---------------------------------------- */

#define OOM true
#define LOOKALIKE false
#define RULE_END {.kind = NULL}
/* The device words that make an OOM mention a GPU one ("CUDA out of
 * memory", "out of memory on the GPU"). */
/* ... and the cards users name as the device ("taurus V100 out-of-memory
 * error", heldout17 h17-02; "OOM on an A100"): data-centre and consumer
 * model numbers, whole words only. */
#define GPU_MODELS "A100", "H100", "H200", "V100", "P100", "A6000", "A40", "L40S", "RTX", "GTX", \
    "1080", "2080", "3060", "3080", "3090", "4080", "4090", "5090"
#define DEVICE_QUALIFIERS "CUDA", "GPU", "VRAM", "HIP", "ROCm", "MPS", "NPU", "XPU", GPU_MODELS
/* A GPU-OOM mention that stands without a traceback (a title, prose) and
 * that a denying or conditional clause takes back: the fields every such
 * row shares. */
/* The words of a RESOURCE_EXHAUSTED status that is no memory: gRPC's
 * message-size limit, a cloud API's quota or rate limit, gRPC's status line
 * itself ("status = StatusCode.RESOURCE_EXHAUSTED", its details on the next
 * line: a remote OOM's details hold TF's "OOM when allocating", a row of its
 * own). (diagprose) */
#define RESOURCE_NOT_MEMORY \
    "larger than max", "quota", "Quota", "429 Resource", "rate limit", "StatusCode.RESOURCE"

/* A sticky CUDA error a faulting kernel left behind, which a later
 * allocation reports: no want of memory (the FAISS allocator rows). */
#define STICKY_KERNEL_FAULT \
    "illegal memory access", "launch failure", "misaligned address", "illegal instruction", "cudaErrorIllegal"

#define STANDALONE_MENTION                                                                      \
    .kind = "oom-mention", .framework = "unknown", .deny = true, .standalone = true,             \
    .gpu_oom = LOOKALIKE, .role = MSG_MENTION, .stage = OOM_STAGE_UNKNOWN, .clauses = clauses_mention, \
    .near = near_mention

static const struct msg_rule rules[] = {
    /* Settings the log shows, not events. */
    {.kind = "setting",
     .framework = "pytorch",
     .need = {"expandable_segments:True"},
     .unless = {"try setting"},
     .role = MSG_SETTING,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* Julia's own OutOfMemoryError, the GC's heap (host memory): the REPL
     * and scripts print it as "ERROR: OutOfMemoryError()" or "ERROR:
     * LoadError: OutOfMemoryError()" (JuliaLang/julia base/boot.jl, struct
     * OutOfMemoryError <: Exception; its docs: "allocated too much memory for
     * either the system or the garbage collector"). CUDA.jl's device OOM is
     * OutOfGPUMemoryError, "Out of GPU memory". Before the rows that read
     * the class name OutOfMemoryError as PyTorch's. (srcfam) */
    {.kind = "host-memory-error",
     .framework = "host",
     .any = {"ERROR: OutOfMemoryError()", "LoadError: OutOfMemoryError()",
             "caused by: OutOfMemoryError()"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* MindSpore's runtime on its CPU device: "Memory isn't enough and alloc
     * failed, kernel name: K, alloc size: NB." where a device says "Device(id:N)
     * memory isn't enough ..." (SET_OPCONTEXT_MEMORY_ALLOC_FAIL_BY_STRATEGY,
     * mindspore-ai/mindspore:mindspore/ccsrc/runtime/framework/actor/
     * actor_common.h): host memory. Capital M: the device form's words are
     * lower case after its prefix. (srcfam) */
    {.kind = "host-cpu-alloc",
     .framework = "host",
     .need = {"Memory isn't enough and alloc failed"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_mindspore_device,
     .near = near_none},
    /* TVM's Relax VM (mlc-llm) placing a tensor in a storage region its
     * compiler planned statically: "memory_manager.cc:115: InternalError:
     * Check failed: (offset + needed_size <= this->buffer.size) is false:
     * storage allocation failure, attempted to allocate 16785408 at offset
     * 0 in region that is 16777216bytes" (mlc-ai/mlc-llm#860 = heldout74
     * h74-18: a 2049-token prompt in a library compiled for 2048, "despite
     * plenty of memory"; #1327, 221184 in a 163840-byte region; #1987, a
     * region of 0 bytes; apache/tvm#17322, an input past the planned
     * size). The region is smaller than the tensor, the GPU is not full: a
     * look-alike whose request is read (StorageObj::AllocNDArray's ICHECK,
     * apache/tvm:src/runtime/memory/memory_manager.cc@04ad6cd3). (open74) */
    {.kind = "tvm-storage-region",
     .framework = "tvm",
     .need = {"storage allocation failure, attempted to allocate"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_tvm_region,
     .near = near_none},
    /* MNN's executions failing to acquire a static buffer: "Out of memory
     * when gamma is acquired in CudaLayerNorm." (alibaba/MNN:source/backend/
     * cuda/execution/LayerNormExecution.cu@b0565d34, MNN_ERROR after
     * backend->onAcquireBuffer fails; wangzhaode/mnn-llm#25 = heldout74
     * h74-51, four times over "Segmentation fault", after an earlier host
     * kill told in prose): the CUDA backend's device memory. The CPU
     * backend's own form ("... is acquired in CPULayerNorm.", MNN's
     * source/backend/cpu/CPULayerNorm.cpp) is host memory. The execution's
     * class names the backend, so a host failure told nearby does not
     * take the CUDA one for the host's. (open74) */
    {.kind = "mnn",
     .framework = "mnn",
     .need = {"Out of memory when ", " is acquired in Cuda"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    {.kind = "host-cpu-alloc",
     .framework = "host",
     .need = {"Out of memory when ", " is acquired in CPU"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* XGBoost's device allocator (near_xgboost): its own words, before the
     * rows that read the std::bad_alloc or cudaErrorMemoryAllocation it
     * quotes, so the figures on the lines after it are read. The refused
     * allocation is device memory whatever the quoted text ("Caching
     * allocator", a thrust error). (srcfam) */
    {.kind = "xgboost",
     .framework = "xgboost",
     .need = {"Memory allocation error on worker"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .near = near_xgboost,
     .near_own_line = true},
    /* tinygrad (clauses_tinygrad): a device's refusal by the device's name
     * (CUDA, NV, AMD, METAL, GPU and CL for OpenCL, QCOM, WEBGPU, with a
     * ":N" index); "failed on CPU" (or CLANG, LLVM, DISK) is host memory
     * and is no row here. Before the host row that reads MemoryError.
     * Allocator.alloc prints "Allocation of {size_to_str(size)} failed on
     * {device}. Used: ..." (tinygrad/tinygrad:tinygrad/device.py@0000f37e):
     * a size right after "Allocation of" (shape), the device right after
     * "failed on", ending in "." or its ":N" index, never a word after it
     * (end_not: "Allocation of pinned host memory failed on GPU worker 3"
     * is no tinygrad OOM). */
    {.kind = "tinygrad",
     .framework = "tinygrad",
     .any = {"failed on CUDA", "failed on NV", "failed on AMD", "failed on METAL", "failed on GPU",
             "failed on CL", "failed on QCOM", "failed on WEBGPU", "failed on HIP"},
     .word_end = true,
     .end_not = " ",
     .shape = "Allocation of %z failed on ",
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_tinygrad,
     .near = near_none},
    {.kind = "metal",
     .framework = "tinygrad",
     .need = {"Metal OOM while allocating"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_tinygrad,
     .near = near_none},
    /* NCCL: memory failures inside NCCL, and NCCL errors with other causes. */
    {.kind = "nccl-oom",
     .framework = "nccl",
     .need = {"Cuda failure", "out of memory"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_nccl,
     .near = near_nccl},
    /* ... and its device allocations by size (NVIDIA/nccl src/include/
     * alloc.h: ncclCudaCalloc, ncclCudaCallocAsync, ncclCudaMalloc "Failed to
     * CUDA malloc %ld bytes"; not "Failed to CUDA host alloc", pinned host
     * memory) (diagnumsrc) */
    {.kind = "nccl-oom",
     .framework = "nccl",
     .any = {"Failed to CUDA calloc", "Failed to CUDA malloc"},
     .gpu_oom = OOM,
     .role = MSG_DETAIL,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_nccl,
     .near = near_none},
    /* TensorFlow BFC allocator: retries that are "not a failure", and the
     * warning that precedes a real OOM error. */
    {.kind = "tf-not-a-failure",
     .not_failure = true,
     .framework = "tensorflow",
     .need = {"ran out of memory"},
     /* the retry warning's own words, also when the paste cut them: "with
      * freed_by_count=0. The caller indicates that this is not a failure" */
     .any = {"not a failure", "with freed_by_count="},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_bfc,
     .near = near_none},
    {.kind = "tf-host-memory",
     .framework = "host",
     .need = {"cuda_host_bfc", "ran out of memory"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_DETAIL,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* The BFC line with neither the retry warning's words nor a failure's
     * ("Current allocation summary follows.", TF 1.0's "See logs for memory
     * state.", TF 2's "(rounded to N)requested by op"): the warning's
     * shape, cut or quoted in prose ("`ran out of memory trying to allocate
     * 975.59MiB  `", anishathalye/neural-style#86 = heldout9 h9-40):
     * no GPU OOM by itself; an OOM message near it is the event. */
    /* ONNX Runtime's arena logs its failure in TF's words with a raw byte
     * count before it throws: "BFC Arena ran out of memory trying to
     * allocate 4294967296.  Current allocation summary follows."
     * (microsoft/onnxruntime onnxruntime/core/framework/bfc_arena.cc; the
     * plugin arenas print no summary words). A detail of the throw that
     * follows. (diagnumsrc) */
    {.kind = "onnxruntime",
     .framework = "onnxruntime",
     .need = {"BFC Arena ran out of memory trying to allocate"},
     .gpu_oom = OOM,
     .role = MSG_DETAIL,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_ort,
     .near = near_none},
    {.kind = "tf-not-a-failure",
     .not_failure = true,
     .framework = "tensorflow",
     .any = {"ran out of memory trying to allocate"},
     .sentence_case = true,
     .unless = {"allocation summary", "See logs for memory", "rounded to", "requested by op"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_DETAIL,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_bfc,
     .near = near_none},
    {.kind = "tf-bfc",
     .framework = "tensorflow",
     /* TF 1.0: "bfc_allocator.cc:275] Ran out of memory trying to allocate
      * 392.00MiB. See logs for memory state." */
     .any = {"ran out of memory trying to allocate"},
     .sentence_case = true,
     .gpu_oom = OOM,
     .role = MSG_DETAIL,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_bfc,
     .near = near_none},
    /* A fuzzer's host allocator: libFuzzer's RSS limit ("==132== ERROR:
     * libFuzzer: out-of-memory (malloc(6498959700))", pytorch/audio#3504 =
     * heldout30 h30-111). Host memory, before the rows that read
     * "out-of-memory" as OOM words. (diagcall4) */
    {.kind = "host-cpu-alloc",
     .framework = "host",
     .any = {"libFuzzer: out-of-memory"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_fuzzer,
     .near = near_none},
    /* A compiler out of memory while it builds CUDA code: the EDG front end
     * nvcc runs ("cute/layout_composed.hpp(478): catastrophic error : out of
     * memory", microsoft/onnxruntime#21676; "mma_traits_sm100.hpp(3324):
     * catastrophic error : out of memory", #25377 = heldout58 h58-48), the
     * LLVM inside cicc and clang ("CUDACOMPILE : LLVM error : out of
     * memory", #25377; "LLVM ERROR: out of memory" / "Allocation failed",
     * llvm/llvm-project#59194, #47116; on a Jetson running a vision LLM,
     * dusty-nv/jetson-containers#616 = heldout39 h39-41) and ptxas ("ptxas fatal   : Memory
     * allocation failure", #25377). Each is the compiler's own heap: host
     * memory, a parallel build's, never the GPU's; before the rows that read
     * "out of memory" as CUDA's words. (open58) */
    {.kind = "host-cpu-alloc",
     .framework = "host",
     .any = {"catastrophic error : out of memory", "catastrophic error: out of memory",
             "LLVM error : out of memory", "LLVM ERROR: out of memory"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    {.kind = "host-cpu-alloc",
     .framework = "host",
     .need = {"ptxas fatal", "Memory allocation failure"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* PaddlePaddle's host allocators (CPUAllocator, the pinned ones: a
     * posix_memalign) say "(ResourceExhausted) Fail to alloc memory of N
     * size, error code is 12." (paddle/phi/core/memory/allocation/
     * cpu_allocator.cc); its GPU allocator says "Out of memory error on GPU
     * N" instead. Host memory, before TF's "ResourceExhaustedError" row
     * reads the class as a device OOM. (diagcall7) */
    {.kind = "host-cpu-alloc",
     .framework = "host",
     .any = {"Fail to alloc memory of"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_host,
     .near = near_none},
    /* The Lua interpreter's own allocator: LUA_ERRMEM's message is "not
     * enough memory" (LuaJIT: ERRDEF(ERRMEM, "not enough memory") in
     * LuaJIT/LuaJIT:src/lj_errmsg.h; PUC Lua: MEMERRMSG), printed by the
     * standalone interpreter after its name: "…/bin/luajit: not enough
     * memory" (Torch7 programs, facebookresearch/fairseq-lua#37), or "PANIC:
     * unprotected error in call to Lua API (not enough memory)". The VM's
     * heap is host memory; a GPU's failure in Torch7 says cutorch's "THCudaCheck
     * FAIL ... out of memory" instead. diagcall4 left it out for the stage it
     * cost one log; the call is the question a user asks first. (diagcall5) */
    {.kind = "host-cpu-alloc",
     .framework = "host",
     .any = {"luajit: not enough memory", "lua: not enough memory",
             "Lua API (not enough memory)"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* The Linux OOM killer (dmesg) before anything that says "Out of memory". */
    {.kind = "host-oom-killer",
     .framework = "host",
     .any = {"Out of memory: Kill", "oom-kill:constraint", "oom_reaper", "invoked oom-killer",
             /* Slurm's cgroup accounting of the kernel's kills,
              * "slurmstepd: error: Detected 1 oom_kill event in StepId=123.0.
              * Some of the step tasks have been OOM Killed.", older "Detected 1
              * oom-kill event(s) in StepId=7.batch", and its memory-limit
              * enforcement, "StepId=7.batch exceeded memory limit (734003200 >
              * 52428800), being killed", "Exceeded job memory limit" (SchedMD/
              * slurm src/plugins/task/cgroup, jobacct_gather) */
             "oom_kill event in StepId", "oom-kill event(s) in StepId",
             "exceeded memory limit (", "Exceeded job memory limit", "Exceeded step memory limit"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* Dask's nanny restarting a worker whose process memory (RSS) passed the
     * terminate fraction of its memory_limit: "distributed.nanny.memory -
     * WARNING - Worker tcp://127.0.0.1:34349 (pid=342998) exceeded 95% memory
     * budget. Restarting..." (older "Worker exceeded 95% memory budget.
     * Restarting"; dask/distributed's nanny, logger.warning("Worker exceeded
     * %d%% memory budget. Restarting", ...)): host RAM, also under dask-cuda,
     * whose device memory has its own limit and spilling. */
    {.kind = "host-oom-killer",
     .framework = "host",
     .need = {"exceeded", "memory budget. Restarting"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* srun's report of a task the step's OOM handler killed: "srun: error:
     * node01: task 0: Out Of Memory" (after slurmstepd's oom_kill line
     * above). (diagcall6) */
    {.kind = "host-oom-killer",
     .framework = "host",
     .need = {"srun: error:", ": Out Of Memory"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* earlyoom, the user-space killer: "earlyoom[845]: low memory! at or below
     * SIGTERM limits: mem  3.00%, swap 10.00%" / "earlyoom[845]: sending SIGTERM
     * to process 322603 uid 1000 "python3.13": oom_score 1282, VmRSS 29931 MiB"
     * (Comfy-Org/ComfyUI#15276). */
    {.kind = "host-oom-killer",
     .framework = "host",
     .need = {"earlyoom"},
     .any = {"low memory!", "sending SIGTERM to process", "sending SIGKILL to process"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* Ray's report of a worker that died without a word, the
     * kernel's OOM killer first among its causes: "Worker exit type:
     * SYSTEM_ERROR Worker exit detail: Worker unexpectedly exits with a
     * connection error code 2. End of file. There are some potential root
     * causes. (1) The process is killed by SIGKILL by OOM killer due to high
     * memory usage. (2) ray stop --force is called. (3) ..." Ray's docs give
     * it as what ray.get raises when the Linux OOM killer killed the worker
     * (ray-project/ray:doc/source/ray-observability/monitoring-debugging/
     * troubleshoot-failures.rst, the same words later in user-guides/
     * debug-apps/debug-memory.rst). Before host-words, whose
     * "OOM kill" would take the line and, with the traceback above it, make
     * no event (verl threads, heldout19 h19-12/-13, heldout30 h30-106). */
    {.kind = "host-oom-killer",
     .framework = "host",
     .any = {"killed by SIGKILL by OOM killer"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* PyTorch caching allocator: MPS, the "(GPU 0; ...)" form, the current form. */
    {.kind = "pytorch-async",
     .framework = "pytorch",
     /* ComfyUI shows the message's first words alone: "KSampler Allocation
      * on device" */
     .any = {"would exceed allowed memory", "Allocation on device"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_pt_async,
     .near = near_none},
    {.kind = "pytorch-mps",
     .framework = "pytorch",
     .need = {"MPS backend out of memory"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_mps,
     .near = near_none},
    /* MPS's allocator refusing one buffer over the device's largest
     * ("TORCH_CHECK(size < m_max_buffer_size, \"Invalid buffer size: \",
     * format_size(size))", pytorch/pytorch aten/src/ATen/mps/
     * MPSAllocator.mm): a request the Apple GPU cannot hold, read as an
     * OOM by PyTorch's maintainers (pytorch/pytorch#141909 "Invalid buffer
     * size: 19.45 GB" from one torch.bmm; huggingface/diffusers#5894 =
     * heldout55 h55-35; kijai/ComfyUI-SUPIR#151 "19.38 GiB";
     * kijai/ComfyUI-MimicMotionWrapper#74 "50.62 GB"; heldout66 h66-07).
     * The colon and size are needed: ffmpeg's "Invalid buffer size, packet
     * size 65536 < expected frame_size" is a decoder's (h18-49), and the
     * size must name its unit (shape). (open66) */
    {.kind = "pytorch-mps",
     .framework = "pytorch",
     .need = {"Invalid buffer size: "},
     /* format_size always names a unit; other programs' "Invalid buffer
      * size: 0" / ": 4096" (a C tool's check, a Java IllegalArgumentException
      * over a setting) do not, and are no allocation (review23) */
     .shape = "Invalid buffer size: %u",
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_mps_buffer,
     .near = near_none},
    /* ... known only by its closing advice, which no other
     * message prints (pytorch/pytorch aten/src/ATen/mps/MPSAllocator.mm,
     * both TORCH_CHECKs: "... pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0
     * to disable upper limit for memory allocations (may cause system
     * failure)."): an app that shortens the message keeps its tail
     * ("Music generation failed: .....disable upper limit for memory
     * allocations (may cause system failure).", ace-step/ACE-Step-1.5#1336 =
     * h42-14). Not the advice copied into a script ("# Use ...", an export,
     * os.environ). */
    {.kind = "pytorch-mps",
     .framework = "pytorch",
     .need = {"upper limit for memory allocations"},
     .unless = {"# Use", "#Use", "export ", "environ"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_mps,
     .near = near_none},
    {.kind = "pytorch-old",
     .framework = "pytorch",
     .need = {"out of memory", "(GPU "},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_pt_old,
     .near = near_none},
    /* The numbers clause alone, its "CUDA out of memory." words cut off,
     * or the old form with its parentheses lost ("Tried to allocate 20.00
     * MiB" / "GPU 0; 8.00 GiB total capacity; ..."): before the current
     * form, whose words the first line shares. */
    {.kind = "pytorch-old",
     .framework = "pytorch",
     .need = {"Tried to allocate", "total capacity;"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_pt_old,
     .near = near_none},
    {.kind = "pytorch-new",
     .framework = "pytorch",
     .need = {"out of memory. Tried to allocate"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_pt_new,
     .near = near_none},
    {.kind = "pytorch-new",
     .framework = "pytorch",
     .need = {"Tried to allocate", "has a total capac"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_pt_new,
     .near = near_none},
    /* The current form's body without its head ("CUDA out of memory.
     * Tried to allocate X." and the class name cut off or left out): "GPU 0
     * has a total capacity of 23.64 GiB of which 1.61 GiB is free. Process
     * 1624541 has 22.02 GiB memory in use. Of the allocated memory 20.13 GiB
     * is allocated by PyTorch, and ..." (a blog post opening with it,
     * heldout38 h38-16, blog.csdn.net/litchi0_0/article/details/146158524).
     * The caching allocator writes "has a total capacity of ... of which
     * ... is free" only in this message (pytorch/pytorch:c10/cuda/
     * CUDACachingAllocator.cpp since 2.1); pastes that keep the body under a
     * class name or a wrapped head: Cunyu-Liu/mRNA_editflow:scripts/
     * launch_p2_03_phase_c.sh@affc1fda ("GPU 0 has a total capacity of
     * 4.75 GiB of which / 12.81 MiB is free. Process 2540550 has 356.00
     * MiB"), alexeldeib/Model-Optimizer:quanty_strategy.md, the text of
     * sgl-project/sglang#26925 (a copy of it was read), YeeDEA/jetson-orin-
     * llm:README.md (earlier versions of both files than their stored ones). A
     * detail: the head, where the paste shows it near, is the same failure
     * (the wrapped pastes of heldout45 h45-05, heldout55 h55-64, heldout60
     * h60-64); alone it is the event. (open38) */
    {.kind = "pytorch-new",
     .framework = "pytorch",
     .need = {"has a total capac", "of which"},
     .shape = "GPU %d has a total capac",
     .gpu_oom = OOM,
     .role = MSG_DETAIL,
     .continues = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_pt_new,
     .near = near_none},
    /* the caching allocator's warning as it fails a request
     * (clauses_pt_warn); the OutOfMemoryError it raises, where the paste
     * shows it, is the same failure */
    {.kind = "pytorch-warn",
     .framework = "pytorch",
     .need = {"memory allocation failed with OOM on device"},
     .gpu_oom = OOM,
     .role = MSG_DETAIL,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_pt_warn,
     .near = near_pt_warn},
    /* PaddlePaddle's allocator (its ResourceExhaustedError header is a
     * detail of this line). */
    {.kind = "paddle",
     .framework = "paddle",
     .need = {"Out of memory error on GPU"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_paddle,
     .near = near_none},
    /* the same allocator on Paddle's other devices, which name
     * their place by type: the custom-device allocator (NPU, MLU, plugin
     * devices; paddle/phi/core/memory/allocation/custom_allocator.cc) "Out of
     * memory error on npu:0. Cannot allocate 1.00GB memory on npu:0,
     * available memory is only 50.00MB.", its older buddy allocator "Out of
     * memory error on npu 0. total memory is 32.00GB, used memory is
     * 31.95GB, available memory is only 50.00MB.", and XPU's "Out of memory
     * error on XPU 0. Cannot allocate ...". Every form says "available
     * memory is". */
    {.kind = "paddle",
     .framework = "paddle",
     .need = {"Out of memory error on", "available memory is"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_paddle_device,
     .near = near_none},
    /* Its second sentence alone: a wrap cut "Out of memory error on GPU". */
    {.kind = "paddle",
     .framework = "paddle",
     .need = {"Cannot allocate", "memory on GPU"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_paddle,
     .near = near_none},
    /* Paddle's C++ call stack thrown from its CUDA allocator
     * ("0 std::string paddle::platform::GetTraceBackString<...>" / "1
     * paddle::memory::allocation::CUDAAllocator::AllocateImpl(unsigned
     * long)"; it throws only its "Out of memory error on GPU N"), where the
     * paste cut that message (PaddlePaddle/PaddleDetection#1198 = heldout26
     * h26-04; under words that name the OOM, PaddlePaddle/PaddleFormers#682 =
     * heldout23 h23-17): a fallback like bfc-dump, the event only when the
     * log shows no message and no earlier words name the OOM. */
    {.kind = "paddle",
     .framework = "paddle",
     .need = {"paddle::memory::allocation::CUDAAllocator::AllocateImpl"},
     .gpu_oom = OOM,
     .role = MSG_MENTION,
     .standalone = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* Theano and FAISS name device memory and their figures; before the
     * rows that read "MemoryError" as host memory and "out of memory" as
     * CUDA's words (diagnumsrc) */
    {.kind = "theano",
     .framework = "theano",
     .need = {"Error allocating", "bytes of device memory ("},
     .any = {"out of memory", "OUT_OF_MEMORY"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_theano,
     .near = near_none},
    {.kind = "kaldi",
     .framework = "kaldi",
     .need = {"Failed to allocate a memory region of", "bytes."},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_kaldi,
     .near = near_none},
    {.kind = "relion",
     .framework = "relion",
     .need = {"CudaCustomAllocator out of memory"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_relion},
    {.kind = "faiss",
     .framework = "faiss",
     .need = {"StandardGpuResources: alloc fail", "out of memory"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_faiss,
     .near = near_none},
    /* FAISS's throw from the allocator itself, "RuntimeError: Error in
     * virtual void* faiss::gpu::StandardGpuResourcesImpl::allocMemory(const
     * faiss::gpu::AllocRequest&) at .../StandardGpuResources.cpp:N: Error:
     * 'err == cudaSuccess' failed: StandardGpuResources: alloc fail ...": the
     * function throws only when cudaMalloc or cudaMallocManaged fails
     * (facebookresearch/faiss:faiss/gpu/StandardGpuResources.cpp@0081ed9e),
     * so the name stands for the failure where a paste cuts the rest
     * (zhengxxn/adaptive-knn-mt#1 = heldout47 h47-19). A sticky error left
     * by a faulting kernel is no want of memory. */
    {.kind = "faiss",
     .framework = "faiss",
     .need = {"Error in", "StandardGpuResourcesImpl::allocMemory("},
     .unless = {STICKY_KERNEL_FAULT},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_faiss,
     .near = near_none},
    {.kind = "faiss",
     .framework = "faiss",
     .need = {"Failed to cudaMalloc", "allocMemorySpace"},
     .unless = {STICKY_KERNEL_FAULT},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_faiss,
     .near = near_none},
    /* the same throw in lower case (clauses_faiss) */
    {.kind = "faiss",
     .framework = "faiss",
     .need = {"failed to cudaMalloc", "allocMemorySpace"},
     .unless = {STICKY_KERNEL_FAULT},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_faiss,
     .near = near_none},
    /* The RAPIDS Accelerator for Apache Spark: its resource adaptor throws
     * com.nvidia.spark.rapids.jni.GpuRetryOOM / GpuSplitAndRetryOOM when the
     * device runs out and CpuRetryOOM / CpuSplitAndRetryOOM for host memory
     * (NVIDIA/spark-rapids-jni:src/main/cpp/src/SparkResourceAdaptorJni.cpp
     * @24e4deea); releases before the CPU pair named the GPU's RetryOOM and
     * SplitAndRetryOOM. The plugin retries them itself; in a log they are
     * the retries that ran out ("GPU OutOfMemory: could not split inputs and
     * retry") or a task's failure (NVIDIA/cudf-spark#8090 = heldout47 h47-04). */
    {.kind = "spark-rapids",
     .framework = "rapids",
     .any = {"GpuRetryOOM", "GpuSplitAndRetryOOM", "jni.RetryOOM", "jni.SplitAndRetryOOM"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    {.kind = "host-cpu-alloc",
     .framework = "host",
     .any = {"CpuRetryOOM", "CpuSplitAndRetryOOM"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* CatBoost's GPU memory pool (clauses_catboost). */
    {.kind = "catboost",
     .framework = "catboost",
     .any = {"Error: Out of memory. Requested", "TOutOfMemoryError"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_catboost,
     .near = near_none},
    /* The NVIDIA HPC compilers' OpenACC runtime (clauses_openacc); before
     * the JAX row, which reads "Out of memory allocating" too. */
    {.kind = "openacc",
     .framework = "nvhpc",
     .need = {"Out of memory allocating", "bytes of device memory"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_openacc,
     .near = near_openacc},
    {.kind = "paddle",
     .framework = "paddle",
     .need = {"memory::allocation::BadAlloc"},
     .gpu_oom = OOM,
     .role = MSG_DETAIL,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    {.kind = "paddle",
     .framework = "paddle",
     .any = {"allocating <= available failed", "allocating < available failed",
             "Expected allocating <= available"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_paddle_old,
     .near = near_none},
    {.kind = "paddle",
     .framework = "paddle",
     .need = {"Cannot malloc", "GPU memory"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_paddle_old,
     .near = near_paddle_malloc},
    /* CuPy's memory pool (Chainer, CuPy users); before the PyTorch rules,
     * whose "OutOfMemoryError: " its class name contains. */
    {.kind = "cupy",
     .framework = "cupy",
     .any = {"out of memory to allocate", "bytes (allocated so far:",
             "memory.OutOfMemoryError: Out of memory allocating"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_cupy,
     .near = near_none},
    /* ONNX Runtime (CUDA execution provider, most often; its CPU arena
     * prints the same words). */
    {.kind = "onnxruntime",
     .framework = "onnxruntime",
     .need = {"Failed to allocate memory for requested buffer"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_ort,
     .near = near_none},
    /* ... its arena at its cap: "void* onnxruntime::BFCArena::
     * AllocateRawInternal(size_t, bool, onnxruntime::Stream*, bool,
     * onnxruntime::WaitNotificationFn) Available memory of 34699008 is
     * smaller than requested bytes of 945041920" (the arena's throws in
     * onnxruntime/core/framework/bfc_arena.cc, microsoft/onnxruntime, with
     * "Failed to find a free memory block despite calling Extend.
     * rounded_bytes=N" after an extension that did not help), or
     * the message cut after the function's name by an issue title's length
     * ("... AllocateRawInternal(...) Failed to alloc",
     * poppanda/LLM_PDF_Translator#9 = heldout17 h17-10). (diagcall9) */
    {.kind = "onnxruntime",
     .framework = "onnxruntime",
     .need = {"AllocateRawInternal"},
     .any = {"is smaller than requested bytes of", "Failed to alloc",
             "Failed to find a free memory block despite calling Extend"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_ort,
     .near = near_none},
    /* ONNX Runtime's DirectML provider throws the HRESULT of a
     * D3D12 allocation it could not make, E_OUTOFMEMORY, through WIL: "...
     * onnxruntime/core/providers/dml/DmlExecutionProvider/src/
     * BucketizedBufferAllocator.cpp(122)/onnxruntime_pybind11_state.pyd!...:
     * (caller: ...) Exception(1) tid(4790) 8007000E Not enough memory
     * resources are available to complete this operation." (Windows paths,
     * backslashes; huggingface/diffusers#791, #552): the GPU's memory, for
     * the provider's buffer. The HRESULT and its text alone are Windows'
     * for any allocation (a host's MapViewOfFile): the provider must be
     * named. */
    {.kind = "onnxruntime",
     .framework = "onnxruntime",
     .need = {"8007000E"},
     .any = {"DmlExecutionProvider", "DirectML"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* Image-generation UIs (ComfyUI, Fooocus) that catch the CUDA OOM of a
     * VAE decode and retry it in tiles (comfyanonymous/ComfyUI: comfy/sd.py
     * VAE.decode, "except model_management.OOM_EXCEPTION: logging.warning(
     * \"Warning: Ran out of memory when regular VAE decoding, retrying with
     * tiled VAE decoding.\")" then decode_tiled_). ComfyUI drops "VAE" in
     * some versions. A GPU OOM only where a failure follows (recovers). */
    {.kind = "vae-decode-oom",
     .framework = "pytorch",
     .any = {"Ran out of memory when regular VAE", "Ran out of memory when regular decoding"},
     .gpu_oom = OOM,
     .recovers = true,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_GENERATE,
     .clauses = clauses_none,
     .near = near_none},
    /* torch-directml: the DirectML device (A1111's and ComfyUI's AMD
     * builds on Windows) reports its allocation failure in its own words. */
    {.kind = "directml",
     .framework = "pytorch",
     .need = {"not enough GPU video memory"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_directml,
     .near = near_none},
    /* CTranslate2 (faster-whisper, WhisperX): its CUDA wrapper throws
     * "CUDA failed with error out of memory" (the runtime's error string
     * after "error"; Purfview/whisper-standalone-win#255). (diagload) */
    {.kind = "ctranslate2",
     .framework = "ctranslate2",
     .need = {"CUDA failed with error out of memory"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* llama.cpp / ggml backends. */
    {.kind = "ggml",
     .framework = "llama.cpp",
     .need = {"alloc_buffer", "cudaMalloc failed: out of memory"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_ggml,
     .near = near_ggml},
    /* ggml's context arena: a ggml_context is one buffer sized when it is
     * made (ggml_init's mem_size), and a tensor or object that does not fit
     * is refused with "ggml_new_tensor_impl: not enough space in the
     * context's memory pool (needed 28728784, available 10485760)" (later
     * ggml_new_object; ggml-org/ggml src/ggml.c). The size is the
     * program's own estimate, not the device's memory: the maintainers'
     * fixes are a larger estimate or a smaller batch (ggml-org/ggml#322,
     * "hardcoded 256MB initial buffer"; ggml-org/llama.cpp#29, #522, #6379;
     * ymcui/Chinese-LLaMA-Alpaca#526, "-b 24"; a privateGPT run,
     * heldout69 h69-12). A look-alike; it carries its own figures. (open69) */
    {.kind = "ggml-context-pool",
     .framework = "llama.cpp",
     .need = {"not enough space in the context's memory pool"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_ggml_context,
     .near = near_none},
    /* ggml's buffer allocators by the buffer type they name
     * (clauses_ggml_buffer): a host buffer first, "CPU", the pinned
     * "CUDA_Host"/"Vulkan_Host", and the CPU backend's own malloc check
     * (ggml_backend_cpu_buffer_type_alloc_buffer: "GGML_ASSERT: ggml-backend.c:
     * 460: data != NULL && \"failed to allocate buffer\"", whisper.cpp and
     * llama.cpp of early 2024; later "failed to allocate buffer of size N")
     * is host memory; a device's buffer is its memory. (diagcall6) */
    {.kind = "host-cpu-alloc",
     .framework = "host",
     .any = {"allocate CPU buffer", "allocate CUDA_Host buffer", "allocate Vulkan_Host buffer",
             "allocate CPU_Mapped buffer", "data != NULL && \"failed to allocate buffer\"",
             "cpu_buffer_type_alloc_buffer: failed to allocate buffer"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_ggml_buffer,
     .near = near_none},
    {.kind = "ggml",
     .framework = "llama.cpp",
     .any = {"failed to allocate CUDA", "failed to allocate ROCm", "failed to allocate MUSA",
             "failed to allocate Vulkan", "failed to allocate Metal", "failed to allocate SYCL",
             "failed to allocate CANN", "unable to allocate CUDA", "unable to allocate ROCm",
             "unable to allocate Vulkan", "unable to allocate Metal", "unable to allocate SYCL"},
     .unless = {"_Host"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_ggml_buffer,
     .near = near_none},
    /* llama.cpp's KV cache could not get its buffer of the
     * backend's buffer type (ggml_backend_alloc_ctx_tensors_from_buft
     * returning null; ggml-org/llama.cpp:src/llama-kv-cache.cpp throws
     * "failed to allocate buffer for kv cache", older llama.cpp logged it
     * from llama_kv_cache_init). The backend's own line above names the
     * buffer ("alloc_tensor_range: failed to allocate CUDA0 buffer of size
     * N", or a CPU buffer: host memory): this line joins that event as it
     * is. Alone (an issue's title, a server's one-line error), the cache of
     * a model offloaded to a GPU backend: the device's memory. */
    {.kind = "ggml",
     .framework = "llama.cpp",
     .need = {"failed to allocate buffer for kv cache"},
     .gpu_oom = OOM,
     .role = MSG_DETAIL,
     .joins_as_is = true,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* ggml's SYCL backend refusing a device buffer: "ggml_backend_sycl_
     * buffer_type_alloc_buffer: can't allocate 3503030272 Bytes of memory on
     * device" (2024: "can't malloc N Bytes memory on device", printed without
     * a newline) (ggml-org/llama.cpp ggml/src/ggml-sycl/ggml-sycl.cpp,
     * docs/backend/SYCL.md). (diagnumsrc) */
    {.kind = "ggml",
     .framework = "llama.cpp",
     .need = {"alloc_buffer: can't"},
     .any = {"can't allocate", "can't malloc"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_ggml_buffer,
     .near = near_none},
    {.kind = "ggml",
     .framework = "llama.cpp",
     .need = {"metal", "failed to allocate buffer, size ="},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_ggml_buffer,
     .near = near_none},
    /* Intel Gaudi's device memory (clauses_hpu), counted with the GPU class
     * as other accelerators' own memory is (diagcall6); the older bridge
     * names the module DEVMEM ("FATAL ERROR :: MODULE:DEVMEM Allocation
     * failed for size::1646821376" under optimum-habana's run_clm.py,
     * heldout36 h36-38, read by the lead after the set was opened) */
    {.kind = "hpu",
     .framework = "habana",
     .need = {"DEVMEM Allocation failed"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_hpu,
     .near = near_none},
    /* Apple MLX's Metal allocator refuses a buffer over the device's
     * largest: "[metal::malloc] Attempting to allocate 137438953472 bytes
     * which is greater than the maximum allowed buffer size of 77309411328
     * bytes." (ml-explore/mlx mlx/backend/metal/allocator.cpp). (diagcall6)
     * MLX of 2024 threw the same words without the prefix, printed after
     * libc++abi's "terminating due to uncaught exception of type
     * std::runtime_error: " (mwalker/blog:_posts/2024-10-01-mlx-vlm-
     * uncaught-exception-attempting-to-allocate.md; riccardomusmeci/mlx-llm#22
     * = heldout43 h43-24): both words, not the prefix, name it. (diagopen43) */
    {.kind = "metal",
     .framework = "mlx",
     .need = {"Attempting to allocate", "greater than the maximum allowed buffer size"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_mlx,
     .near = near_none},
    /* ... and refuses a new buffer when its count of live Metal buffers
     * reaches the device's resource limit (mx.metal.device_info()
     * ["resource_limit"], 499000 on Apple silicon), after releasing its
     * cache did not bring the count down: "[metal::malloc] Resource limit
     * (499000) exceeded." (ml-explore/mlx mlx/backend/metal/allocator.cpp,
     * MetalAllocator::malloc; cubist38/mlx-openai-server#188 = heldout43
     * h43-21). The GPU allocator's refusal under the same load as its byte
     * limits (long prompts, a cache never cleared); no figure. (diagopen43) */
    {.kind = "metal",
     .framework = "mlx",
     .need = {"malloc] Resource limit ("},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* ... and the device refusing a buffer of any size: "[malloc] Unable to
     * allocate 34359738368 bytes." (ml-explore/mlx mlx/backend/metal/
     * allocator.cpp and mlx/backend/cuda/allocator.cpp, the same words;
     * "[metal::malloc]" before 2025). (diagnumsrc) MLX of 2023 threw it
     * from allocator::malloc_or_wait, after waiting for running tasks and
     * trying swap: "[malloc_or_wait] Unable to allocate 12 bytes."
     * (ml-explore/mlx:mlx/allocator.cpp, 2023). (diagopen52) */
    {.kind = "metal",
     .framework = "mlx",
     .any = {"malloc] Unable to allocate", "malloc_or_wait] Unable to allocate"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_mlx,
     .near = near_none},
    /* torch.cuda.memory_summary() tables; an OOM when "CUDA OOMs" > 0. The
     * device word varies with the backend's port of the formatter ("NPU
     * OOMs: 0 | npuMalloc retries: 0", "MUSA OOMs", "MLU OOMs"). */
    {.kind = "memory-summary",
     .framework = "pytorch",
     .need = {"OOMs:"},
     .any = {"Malloc retries:"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_DETAIL,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_memsummary,
     .near = near_none,
     .merge_lines = 400},
    /* TGI warm-up, which catches the CUDA OOM and says so. */
    {.kind = "tgi-warmup",
     .framework = "tgi",
     .need = {"Not enough memory to handle"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_LOAD,
     .clauses = clauses_none,
     .near = near_none},
    /* vLLM start-up: sampler warm-up and KV-cache sizing. */
    {.kind = "vllm-oom",
     .framework = "vllm",
     .need = {"out of memory occurred when warming up"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_LOAD,
     .clauses = clauses_none,
     .near = near_vllm},
    {.kind = "vllm-kv-cache",
     .framework = "vllm",
     .need = {"KV cache"},
     .any = {"larger than the maximum number of tokens", "larger than the available KV cache",
             "Insufficient memory"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_LOAD,
     .clauses = clauses_vllm,
     .near = near_vllm},
    /* vLLM's block count after profiling, logged right before that error
     * ("INFO ... executor_base.py:111] # cuda blocks: 0, # CPU blocks: 4681";
     * older "# GPU blocks: 0, # CPU blocks: ..."): no KV-cache block fits on
     * the device, also when the paste cut the error below it
     * (vllm-project/vllm#13882, corpus-heldout17 h17-44). */
    {.kind = "vllm-kv-cache",
     .framework = "vllm",
     .any = {"# cuda blocks: 0,", "# GPU blocks: 0,"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_LOAD,
     .clauses = clauses_none,
     .near = near_vllm},
    {.kind = "vllm-startup-memory",
     .framework = "vllm",
     .need = {"on startup is less than desired GPU memory utilization"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_LOAD,
     .clauses = clauses_vllm_startup,
     .near = near_vllm},
    {.kind = "vllm-kv-cache",
     .framework = "vllm",
     .need = {"No available memory for the cache blocks"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_LOAD,
     .clauses = clauses_none,
     .near = near_vllm},
    /* transformers refusing to load a bitsandbytes-quantised model whose
     * device map (accelerate's, from the free GPU memory) puts modules on
     * the CPU or the disk: "ValueError: Some modules are dispatched on the
     * CPU or the disk. Make sure you have enough GPU RAM to fit the quantized
     * model. If you want to dispatch ... `load_in_8bit_fp32_cpu_offload=True`
     * (later `llm_int8_enable_fp32_cpu_offload=True`) ..."
     * (huggingface/transformers:src/transformers/quantizers/
     * quantizer_bnb_4bit.py@d91fa5a7 validate_environment; the 8-bit
     * quantizer's alike). The model does not fit
     * the GPU: a capacity refusal at load, as vLLM's KV-cache budget is
     * (the labellers' kv-budget-refusal-oom); maintainers read it so
     * ("the model is overflowing from GPU memory onto CPU memory - you most
     * likely have too less VRAM", unslothai/unsloth#1629; "3080 has 12 GB
     * of RAM which in this case might not be sufficient",
     * meta-llama/llama-cookbook#333; Nojahhh/ComfyUI_GLM4_Wrapper#3 =
     * heldout74 h74-53). The library's own sentence, not a person's "I have
     * enough GPU RAM". (open74) */
    {.kind = "device-map-refusal",
     .framework = "transformers",
     .need = {"Make sure you have enough GPU RAM to fit"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_LOAD,
     .clauses = clauses_none,
     .near = near_none},
    /* accelerate's find_executable_batch_size (Trainer's auto_find_batch_size)
     * halved the batch on every OOM down to zero. */
    {.kind = "batch-size-finder",
     .framework = "accelerate",
     .need = {"No executable batch size found"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* SGLang start-up: the KV cache pool does not fit beside the weights. */
    {.kind = "sglang-kv-cache",
     .framework = "sglang",
     .need = {"Not enough memory", "mem-fraction-static"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_LOAD, /* engine start-up is load (stage.c ENGINE_WARMUP) */
     .clauses = clauses_none,
     .near = near_none},
    /* SGLang's token pools (the KV cache's slots) run out while the
     * scheduler places a request: "Prefill out of memory. Try to lower your
     * batch size." / "Decode out of memory. ..." / "Out of memory. ...",
     * each over "Try to allocate N tokens." (sgl-project/sglang:python/
     * sglang/srt/mem_cache/common.py@2752c828, alloc_paged_token_slots_extend,
     * alloc_paged_token_slots_decode, alloc_token_slots; older releases
     * printed "Prefill out of memory. This should never happen."). The pools
     * are the device memory the engine set aside at start-up; they fill only
     * while it serves: generate. The request is in tokens: no byte figures. */
    {.kind = "sglang-token-pool",
     .framework = "sglang",
     .any = {"Prefill out of memory", "Decode out of memory", "Out of memory. Try to lower your batch size"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_GENERATE,
     .clauses = clauses_none,
     .near = near_none},
    /* SGLang's request slots, not memory: "alloc_req_slots runs out of
     * memory. Please set a smaller number for `--max-running-requests`.
     * req_to_token_pool.available_size()=N, num_reqs=M" is raised when the
     * ReqToTokenPool has no free request row (its rows are a count set by
     * --max-running-requests), before any KV-cache slot is asked for
     * (same file, alloc_req_slots). The labels agree:
     * sgl-project/sglang#10408 (h57-57, token usage 0.01) is a look-alike. */
    {.kind = "sglang-request-slots",
     .framework = "sglang",
     .any = {"alloc_req_slots runs out of memory"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* TensorFlow. */
    /* NumPy's allocation failure ("MemoryError: Unable to allocate 184. MiB
     * for an array with shape ...", also re-logged by TF as "Resource
     * exhausted: MemoryError: ...", tensorflow/tensorflow#45238): host RAM,
     * before TF's "Resource exhausted:" detail row can take it. */
    {.kind = "host-memory-error",
     .framework = "host",
     .any = {"MemoryError: Unable to allocate", "_ArrayMemoryError"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_host,
     .near = near_none},
    /* TF's CPU allocator ("... on /job:localhost/replica:0/task:0/device:CPU:0
     * by allocator cpu", tensorflow/tensorflow#45238; MKL builds name it
     * mklcpu): host memory ran out, not the GPU's. */
    {.kind = "host-cpu-alloc",
     .framework = "host",
     .need = {"OOM when allocating"},
     .any = {"by allocator cpu", "by allocator mklcpu"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_tf,
     .near = near_none},
    /* TF 1.x names the failing op's device in its node line, "[[Node:
     * ToFloat = Cast[DstT=DT_FLOAT, SrcT=DT_UINT8, _device="/job:localhost/
     * replica:0/task:0/device:CPU:0"](...)]]": the op's output is allocated
     * on the device that runs it, so an op placed on the CPU ran out of host
     * memory, whatever GPUs the machine has (tensorflow/core/framework/
     * op_kernel.cc allocates through the op's device). A line that also
     * names a GPU device or its BFC allocator is the GPU's. (diagcall6) */
    {.kind = "host-cpu-alloc",
     .framework = "host",
     .need = {"OOM when allocating", "_device=", "/device:CPU:"},
     .unless = {"device:GPU:", "_bfc", "/gpu:"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_tf,
     .near = near_none},
    /* a copy onto the GPU whose destination tensor TF could not
     * allocate: "Failed copying input tensor from .../device:CPU:0 to
     * .../device:GPU:0 in order to run _EagerConst: Dst tensor is not
     * initialized." (tensorflow/core/common_runtime/gpu/gpu_util.cc,
     * PrepareCopy: the destination's buffer is unset when its allocation
     * failed); a copy to the CPU is the host's */
    {.kind = "tensorflow",
     .framework = "tensorflow",
     .need = {"Dst tensor is not initialized"},
     .unless = {"to /job:localhost/replica:0/task:0/device:CPU"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_tf,
     .near = near_tf},
    {.kind = "tensorflow",
     .framework = "tensorflow",
     .need = {"OOM when allocating"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_tf,
     .near = near_tf},
    /* TF's op kernel logging its allocator's failure by the status
     * name ("W tensorflow/core/framework/op_kernel.cc:1733] RESOURCE_EXHAUSTED:
     * failed to allocate memory", nextcloud/recognize#771): TensorFlow's,
     * before the XLA row that reads any RESOURCE_EXHAUSTED. Only with the
     * kernel's glog tag: the status words alone (a title) stay that row's,
     * as before. (nonpt20) */
    {.kind = "tensorflow",
     .framework = "tensorflow",
     .need = {"RESOURCE_EXHAUSTED: failed to allocate memory", "op_kernel.cc:"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_tf,
     .near = near_tf},
    /* TensorFlow.js for Node throws the C API's status as "Invalid
     * TF_Status: %u\nMessage: %s" (tensorflow/tfjs tfjs-node binding
     * utils.h EnsureTFOK, find_string hit); 8 is TF_RESOURCE_EXHAUSTED,
     * which TF's allocators raise ("Message: failed to allocate memory",
     * nextcloud/recognize#771; "Message: OOM when allocating tensor ...",
     * read by the row above when it is there). Other codes are other
     * errors (3, "Invalid PNG data"). (nonpt20) */
    {.kind = "tensorflow",
     .framework = "tensorflow",
     .any = {"Invalid TF_Status: 8"},
     .word_end = true,
     .gpu_oom = OOM,
     .role = MSG_DETAIL,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_tf,
     .near = near_tf},
    {.kind = "tensorflow",
     .framework = "tensorflow",
     .need = {"ResourceExhaustedError"},
     .gpu_oom = OOM,
     .role = MSG_DETAIL,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_tf,
     .near = near_tf},
    /* A TPU kernel's on-chip scratch ("Ran out of memory in memory space
     * vmem. Used 32.42M of 16.00M vmem"), like Triton's shared memory: the
     * kernel's tiling, not the device's memory. Its allocation form names
     * the space too: "RESOURCE_EXHAUSTED: Allocation (size=134217728) would
     * exceed memory (size=67108864) :: #allocation25 [shape = 'u8[...]',
     * space=vmem, ...]" (openxla/xla:docs/errors/error_1001.md@82fc6c95);
     * with space=hbm the same words are the device's (clauses_jax).
     * (srcfam) The scalar memory the same way: "Ran out of memory in memory
     * space smem. Used 1.00M of 1.00M smem. Exceeded smem capacity by
     * 1.7K." at compile, the parameters staged from HBM per op
     * (vllm-project/vllm#8318; pytorch/xla#2628 = heldout70 h70-27, "It
     * should not be possible to run out of smem - please file a bug
     * against XLA"). (open70) */
    {.kind = "tpu-vmem",
     .framework = "xla",
     .any = {"memory space vmem", "space=vmem", "memory space smem", "space=smem"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* JAX / XLA. The TPU's HBM message also without its status code
     * (markdown bold cut "RESO**URCE_EXHAUSTED", a title quoting it). */
    {.kind = "jax",
     .framework = "jax",
     .need = {"Ran out of memory in memory space hbm"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_jax,
     .near = near_jax},
    /* XLA's TPU out-of-memory report, the list under "Largest program
     * allocations in hbm:" that only the RESOURCE_EXHAUSTED message prints,
     * each buffer ending "Allocation type: HLO temp": the head may be cut
     * off a paste (google/trax#1343 = heldout70 h70-58; sokrypton/
     * ColabFold#62 and pytorch/xla#1965, pastes that open inside the list;
     * pytorch/xla#3041's "memory profile"). A detail: merged into the
     * message above it anywhere in the list (ColabFold's runs past 17
     * buffers of 8 lines each), keeping that message's call (a report
     * under a vmem look-alike stays one). (open70) */
    {.kind = "jax",
     .framework = "jax",
     .need = {"Allocation type: HLO temp"},
     .gpu_oom = OOM,
     .role = MSG_DETAIL,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none,
     .merge_lines = 400,
     .joins_as_is = true},
    /* JAX / XLA. */
    {.kind = "jax",
     .framework = "jax",
     .any = {"RESOURCE_EXHAUSTED", "Out of memory while trying to allocate",
             "Out of memory allocating", "Failed to allocate request for",
             "Resource exhausted: Attempting to allocate", "Error allocating device buffer"},
     /* gRPC's RESOURCE_EXHAUSTED is also a message over the size
      * limit ("Received message larger than max", TF Serving clients) and a
      * cloud API's quota (HTTP 429): no memory of any device */
     .unless = {RESOURCE_NOT_MEMORY},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_jax,
     .near = near_jax},
    /* XLA's GPU executor copying a program's constant to the device: the
     * device allocation for it failed, "INTERNAL: Failed to allocate
     * 98697216 bytes for new constant" (GpuExecutor::CreateOrShareConstant,
     * openxla/xla xla/stream_executor/cuda/cuda_executor.cc, find_string
     * hit; real: octo-models/octo#22, kalininalab/alphafold_non_docker#55).
     * The status is INTERNAL, not RESOURCE_EXHAUSTED, so the row above
     * misses it. (nonpt20) */
    {.kind = "jax",
     .framework = "jax",
     .need = {"bytes for new constant", "Failed to allocate"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_xla_constant,
     .near = near_none},
    /* XLA's buffer report, which it prints with an allocation
     * that failed for want of device memory ("Peak buffers:" / "Buffer 15:"
     * / "Size: 506.25MiB" / "Operator: ..." / "XLA Label: custom-call" /
     * "Shape: f32[1,64,1080,1920]"): a detail of the RESOURCE_EXHAUSTED
     * error some lines above it (corpus 113, h20-04, h24-27), and the event
     * itself where the paste cut that error (prs-eth/thera#10 = heldout10
     * h10-25). Its buffers' sizes are no request. */
    {.kind = "jax",
     .framework = "jax",
     .need = {"XLA Label:"},
     .gpu_oom = OOM,
     .role = MSG_DETAIL,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none,
     .merge_lines = 80},
    /* TF/XLA status "Resource exhausted: ..." whose words are cut or wrapped
     * ("Resource exhausted: Out" / "of memory while trying to allocate"). */
    {.kind = "tensorflow",
     .framework = "tensorflow",
     .need = {"Resource exhausted:"},
     .unless = {RESOURCE_NOT_MEMORY},
     .gpu_oom = OOM,
     .role = MSG_DETAIL,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_jax,
     .near = near_jax},
    /* CUDA libraries that failed to allocate their handles or workspaces. */
    {.kind = "cublas",
     .framework = "cuda",
     .need = {"CUBLAS_STATUS_ALLOC_FAILED"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_cuda_lib,
     .near = near_none},
    /* TensorFlow's cuFFT plan: "failed to create cuFFT batched plan:2" logs
     * cufftPlanMany's status as a number (LOG(ERROR) << "failed to create
     * cuFFT batched plan:" << ret, tensorflow/tensorflow tensorflow/
     * stream_executor/cuda/cuda_fft.cc, find_string hit); 2 is
     * CUFFT_ALLOC_FAILED (cufft.h), the plan's work area not allocated
     * (tensorflow/tensorflow#8710). Other codes (5, CUFFT_INTERNAL_ERROR)
     * are no OOM and match no row. (nonpt20) */
    {.kind = "cuda-library",
     .framework = "cuda",
     .any = {"cuFFT batched plan:2", "cuFFT batched plan: 2"},
     .word_end = true,
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* THC's cuBLAS handle creation: "cublas runtime error : resource
     * allocation failed at .../THCGeneral.cpp:250". */
    {.kind = "cublas",
     .framework = "cuda",
     .need = {"cublas runtime error : resource allocation failed"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* TensorRT's builder and runtime: "Error Code 2: OutOfMemory", "Requested
     * amount of GPU memory (4294967296 bytes) could not be allocated. There
     * may not be enough free memory for allocation to succeed.", older
     * "OutOfMemory Error in allocate". */
    {.kind = "tensorrt",
     .framework = "tensorrt",
     .any = {"Error Code 2: OutOfMemory", "not be enough free memory for allocation",
             "OutOfMemory Error in allocate"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_trt,
     .near = near_trt},
    /* also CNTK's "cuDNN failure 2: CUDNN_STATUS_ALLOC_FAILED ; GPU=0 ;"
     * (microsoft/CNTK#220) */
    {.kind = "cudnn",
     .framework = "cuda",
     .any = {"CUDNN_STATUS_ALLOC_FAILED", "Unable to find a valid cuDNN algorithm",
             /* ROCm's MIOpen, status miopenStatusAllocFailed (7,
              * "MIOpen Error: ... miopenStatusAllocFailed"; ROCm/MIOpen
              * include/miopen/miopen.h) */
             "miopenStatusAllocFailed"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_cuda_lib,
     .near = near_none},
    {.kind = "cuda-library",
     .framework = "cuda",
     .need = {"_ALLOC_FAILED"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* ---- lead (heldout19/20, read after their unseen measurements) ----
     * cuFFT's CUFFT_ALLOC_FAILED (code 2) as Julia's CuArrays/CUDA.jl word
     * it: "CUFFTError(code 2, cuFFT failed to allocate GPU or CPU memory)"
     * (computational-imaging/ThreeDeconv.jl#2 = h20-07): a plan's workspace
     * on the device, like the other libraries' _ALLOC_FAILED. */
    {.kind = "cuda-library",
     .framework = "cuda",
     .need = {"cuFFT failed to allocate"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* DeepSpeed inference's kernels allocate one workspace on the device
     * ("RuntimeError: Workspace can't be allocated, no enough memory.",
     * csrc/transformer/inference/includes/inference_context.h;
     * JarodMica/ai-voice-cloning#24 = h20-110). */
    {.kind = "deepspeed-workspace",
     .framework = "deepspeed",
     .need = {"Workspace can't be allocated"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* CUDA.jl's pool caught a failed allocation and goes on after a GC
     * ("WARNING: CUDA memory allocation failed; attempting to free up
     * memory...", then the bar moves on: JuliaGPU/CUDA.jl#2197 = h20-05):
     * no failure by itself; an OutOfGPUMemoryError after it is the event. */
    {.kind = "julia-retry",
     .framework = "julia",
     .need = {"allocation failed; attempting to free up memory"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* ---- end of the lead's block ---- */
    /* TF/XLA's pinned host allocator: "failed to alloc 782758144 bytes on
     * host: CUDA_ERROR_OUT_OF_MEMORY", "could not allocate pinned host
     * memory of size: N": host RAM, not the device. */
    {.kind = "tf-host-memory",
     .framework = "host",
     .need = {"bytes on host", "CUDA_ERROR_OUT_OF_MEMORY"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_cuda_error,
     .near = near_none},
    {.kind = "tf-host-memory",
     .framework = "host",
     .need = {"could not allocate pinned host memory"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_DETAIL,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* a page-locked (pinned) host buffer that CUDA could not give:
     * "arena.cc:250] Init] cudaHostAlloc failed, ret[2], out of memory"
     * (MindSpore's MindData device queue, mindspore-ai/mindspore#172 =
     * heldout29 h29-107). cudaHostAlloc and cudaMallocHost allocate host
     * RAM, not device memory; the "out of memory" they end in is the host's.
     * Before the generic "out of memory" rows. RMM's pinned host resources
     * fail a cudaMallocHost with the device pools' words ("std::bad_alloc:
     * out_of_memory: CUDA error at: .../rmm/mr/host/pinned_memory_resource.hpp
     * :N: cudaErrorMemoryAllocation out of memory", rapidsai/rmm:include/rmm/
     * detail/error.hpp@04b6ca26): their file names the host. */
    {.kind = "host-cpu-alloc",
     .framework = "host",
     .any = {"cudaHostAlloc failed", "cudaMallocHost failed", "pinned_memory_resource.hpp",
             "pinned_host_memory_resource.hpp"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* the driver API's page-locked allocation, cuMemHostAlloc (cuMemAllocHost),
     * out of memory as Numba says it, "CudaAPIError: [2] Call to
     * cuMemHostAlloc results in CUDA_ERROR_OUT_OF_MEMORY" (numba/numba:
     * numba/cuda/cudadrv/driver.py _check_ctypes_error, "Call to %s results
     * in %s"), and PyCUDA, "pycuda._driver.MemoryError: cuMemHostAlloc
     * failed: out of memory": host RAM. */
    {.kind = "host-cpu-alloc",
     .framework = "host",
     .need = {"OUT_OF_MEMORY"},
     .any = {"Call to cuMemHostAlloc results in", "Call to cuMemAllocHost results in"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    {.kind = "host-cpu-alloc",
     .framework = "host",
     .need = {"out of memory"},
     .any = {"cuMemHostAlloc failed", "cuMemAllocHost failed"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* OpenCV's cuda::HostMem (modules/core/src/cuda_host_mem.cpp,
     * PinnedAllocator::allocate, a cudaHostAlloc) names its file in its
     * error: "OpenCV(4.2.0) .../core/src/cuda_host_mem.cpp:95: error:
     * (-217:Gpu API call) out of memory in function 'allocate'" is page-locked
     * host memory; the device's GpuMat allocator is cuda_gpu_mat.cpp. */
    /* OpenCV's own host allocator (cv::fastMalloc, behind every
     * Mat): "OpenCV(4.5.4) .../core/src/alloc.cpp:73: error: (-4:Insufficient
     * memory) Failed to allocate 512956604754240 bytes in function
     * 'OutOfMemoryError'", OpenCV 3's "OpenCV Error: Insufficient memory
     * (Failed to allocate N bytes) in OutOfMemoryError, file .../alloc.cpp"
     * (opencv/opencv:modules/core/src/alloc.cpp@85456ef0, StsNoMem = -4).
     * Host RAM: OpenCV's CUDA allocator says "(-217:Gpu API call) out of
     * memory" instead. */
    {.kind = "host-cpu-alloc",
     .framework = "host",
     .need = {"Insufficient memory", "OutOfMemoryError"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_host,
     .near = near_none},
    /* OpenVINO's CPU plug-in growing a node's memory block with
     * dnnl::impl::malloc: OPENVINO_THROW("Failed to allocate ", size, " bytes
     * of memory") (openvinotoolkit/openvino:src/plugins/intel_cpu/src/
     * cpu_memory.cpp, MemoryBlockWithReuse::resize), under "Exception from
     * src/plugins/intel_cpu/...": host RAM, the request in bytes (diagopen49,
     * a GIMP plug-in upscaling on "Device: CPU"). */
    {.kind = "host-cpu-alloc",
     .framework = "host",
     .need = {"Failed to allocate ", " bytes of memory"},
     .unless = {"GPU", "CUDA", "device"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_host,
     .near = near_none},
    /* Android's runtime (ART) refusing a Java heap allocation:
     * Heap::ThrowOutOfMemoryError writes "Failed to allocate a " << byte_count
     * << " byte allocation with " << total_bytes_free << " free bytes and "
     * << PrettySize(GetFreeMemoryUntilOOME()) << " until OOM" (AOSP art:
     * runtime/gc/heap.cc Heap::ThrowOutOfMemoryError; some versions
     * stop after "free bytes"), behind
     * java.lang.OutOfMemoryError: an app's heap limit on the phone, host
     * memory, the request in bytes (diagopen49, a mobile whisper app). */
    {.kind = "host-cpu-alloc",
     .framework = "host",
     .need = {"Failed to allocate a ", " byte allocation with "},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_art,
     .near = near_none},
    {.kind = "host-cpu-alloc",
     .framework = "host",
     .need = {"cuda_host_mem.cpp", "out of memory"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* llama.cpp/ggml's page-locked host buffer refused:
     * "ggml_cuda_host_malloc: failed to allocate 1900,00 MiB of pinned memory:
     * invalid argument" (ggml-org/llama.cpp#9629 = heldout25 h25-47; a
     * decimal comma), "failed to allocate 10965.24 MiB of pinned memory"
     * (LostRuins/koboldcpp#1158 = heldout18 h18-90): host RAM, after which
     * ggml goes on with ordinary host memory; the size is the request. */
    {.kind = "host-cpu-alloc",
     .framework = "host",
     .need = {"of pinned memory"},
     .any = {"failed to allocate"},
     .sentence_case = true,
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_pinned,
     .near = near_none},
    /* MindSpore's device memory pool (Ascend NPU or GPU) refusing
     * a block: "mem_dynamic_allocator.cc:392] AddMemBlockAndMemBufByEagerFree]
     * TotalUsedMemStatistics : 29356337664 plus TotalUsedByEventMemStatistics
     * : 0 and plus alloc size : 301990400 is more than total mem size :
     * 29464985600." (candle-org/MindAct#1761 = heldout29 h29-109): the
     * request does not fit in the device's pool. */
    {.kind = "mindspore",
     .framework = "mindspore",
     .need = {"Out of Memory!!! Request memory size"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_mindspore_hbm,
     .near = near_mindspore_hbm},
    /* the runtime's actors, when the device's memory manager
     * refuses a kernel's output: "Device(id:0) memory isn't enough and
     * alloc failed, kernel name: ..., alloc size: 1073741824B.", "Device
     * memory isn't enough and alloc failed, actor name: ..., alloc size:
     * N" (mindspore/ccsrc/runtime/graph_scheduler/actor/); on the CPU
     * device the same words start "Memory isn't enough" (host: no row) */
    {.kind = "mindspore",
     .framework = "mindspore",
     .any = {"memory isn't enough and alloc failed"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_mindspore_device,
     .near = near_none},
    {.kind = "mindspore",
     .framework = "mindspore",
     .need = {"is more than total mem size"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_mindspore,
     .near = near_none},
    /* Non-caching CUDA/HIP runtime and driver errors. */
    /* Caffe2's CAFFE_ENFORCE_EQ on a CUDA call: "[enforce fail at
     * event_gpu.cc:17] error == cudaSuccess. 2 vs 0. Error at: ...: out of
     * memory" (2 is cudaErrorMemoryAllocation); a title keeping only its
     * end: "/pytorch/caffe2/core/context_gpu.cu:415: out of memory Error from
     * operator:". */
    {.kind = "cuda-error",
     .framework = "caffe2",
     .any = {"cudaSuccess. 2 vs 0", "out of memory Error from operator"},
     .word_end = true,
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .near = near_caffe2,
     .near_own_line = true},
    /* PaddlePaddle 1.x's PADDLE_ENFORCE on a CUDA call: the error string,
     * then " at (file.cc:line)" or, before 1.7, " at [file.cc:line]": "out
     * of memory at (/paddle/paddle/fluid/platform/device_context.cc:221)";
     * its tensor allocation check: "Insufficient GPU memory to allocation.
     * at [/paddle/paddle/fluid/framework/tensor.h:180]". */
    {.kind = "paddle",
     .framework = "paddle",
     .any = {"Insufficient GPU memory to allocation"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    {.kind = "paddle",
     .framework = "paddle",
     .need = {".cc:"},
     .any = {"out of memory at (", "out of memory at ["},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* ---- diagfam: GPU OOMs of frameworks other than PyTorch (issue 12) ---- */
    /* TensorRT's runtime allocator: "Error Code 1: Cuda Runtime (out of
     * memory)" (TensorRT 8.x/10, open-mmlab/Live2Diff#9; "cuda Runtime" in
     * NVIDIA/TensorRT#4254), older "Cuda Error in allocate: 2 (out of
     * memory)": the size is on the warning after it. Before the generic
     * "(out of memory)" row. */
    {.kind = "tensorrt",
     .framework = "tensorrt",
     .any = {"cuda Runtime (out of memory)", "Cuda Error in allocate: 2 (out of memory)"},
     .sentence_case = true,
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_trt,
     .near = near_trt_runtime},
    /* TensorRT-LLM's PyTorch executor catches an OOM while it creates a
     * component (model engine, sampler, KV cache, ...) and raises its own
     * report: "Executor creation failed due to insufficient GPU memory." (or,
     * for NCCL's "unhandled cuda error", "... with an error which might
     * indicate insufficient GPU memory."), then "The following component
     * could not be created: KV cache" / "Total GPU memory (GiB): 140.06" /
     * "Free GPU memory before component creation attempt (GiB): 108.86"
     * (_ExecutorMemoryMonitor, tensorrt_llm/_torch/pyexecutor/
     * py_executor_creator.py, NVIDIA/TensorRT-LLM; NVIDIA/TensorRT-LLM#5872 =
     * heldout33 h33-08).
     * The executor is created at start-up: load. (diagcall9) */
    {.kind = "trtllm-executor",
     .framework = "tensorrt",
     .need = {"Executor creation failed"},
     .any = {"due to insufficient GPU memory", "might indicate insufficient GPU memory"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_LOAD,
     .clauses = clauses_none,
     .near = near_trtllm_executor},
    /* TensorRT's builder skips a tactic that wants more memory and builds on
     * without it: a warning, no failure ("Skipping tactic 4 due to
     * insufficient memory on requested size of 66048", "Device memory is
     * insufficient to use tactic.", TensorRT 8 spells it "insuficient";
     * NVIDIA/TensorRT-LLM#493, ultralytics/yolov5#12248). */
    {.kind = "tensorrt-tactic",
     .framework = "tensorrt",
     .any = {"Device memory is insufficient to use tactic",
             "due to insufficient memory on requested size",
             "due to insuficient memory on requested size"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .answers_oom = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_trt_tactic,
     .near = near_trt_tactic},
    /* Ultralytics' AutoBatch (ultralytics/utils/autobatch.py, and YOLOv5's
     * utils/autobatch.py before it) profiles batch sizes under try/except
     * and, when that fails, keeps a default: "AutoBatch: WARNING error
     * detected: CUDA out of memory ...,  using default batch-size 16." The
     * OOM it names (or printed just above) was caught; training goes on with
     * the default batch, so that OOM is no failure. (diagcall6) */
    {.kind = "autobatch-fallback",
     .framework = "pytorch",
     .need = {"AutoBatch", "using default batch-size"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .answers_oom = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* Caffe's check without the dot or with blanks around the colon:
     * "Syncedmem.cpp : Check failed : error == cudaSuccess (2 vs 0) out of
     * memory" (BVLC/caffe#6821). */
    {.kind = "cuda-error",
     .framework = "caffe",
     .any = {"cudaSuccess (2 vs 0)", "cudaSuccess(2 vs 0)"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* RAPIDS RMM: "MemoryError: std::bad_alloc: RMM failure at:.../rmm/mr/
     * device/pool_memory_resource.hpp:182: Maximum pool size exceeded" (the
     * device pool is full, NVIDIA/cudf#9232), "RMM_ERROR_OUT_OF_MEMORY"
     * (rapidsai/rmm#201), rmm::out_of_memory. Before the host row that
     * takes a bare std::bad_alloc. */
    {.kind = "rmm",
     .framework = "rapids",
     .need = {"RMM failure", "Maximum pool size exceeded"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_rmm,
     .near = near_none},
    {.kind = "rmm",
     .framework = "rapids",
     .any = {"RMM_ERROR_OUT_OF_MEMORY", "rmm::out_of_memory"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_rmm,
     .near = near_none},
    /* HAMi-core's vGPU limit (clauses_hami): the hook returns
     * CUDA_ERROR_OUT_OF_MEMORY to the program, whose own error follows
     * ("RuntimeError: CUDA error: unrecognized error code" under
     * loss.backward(), Project-HAMi/HAMi#662 = heldout48 h48-26). */
    {.kind = "vgpu-limit",
     .framework = "hami",
     .need = {"ERROR (pid:", " OOM ", "Device "}, /* the prefix is the anchor: "Device " is everywhere */
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_hami,
     .near = near_none},
    /* spill-on-demand giving up: RMM's failure callback found nothing to
     * spill and returns false, so the allocation throws. dask-cuda's
     * ProxyManager and cuDF's SpillManager print "[WARNING] RMM allocation
     * of {format_bytes(nbytes)} bytes failed, spill-on-demand couldn't find
     * any device memory to spill:" (cudf's python/cudf/core/buffer/
     * spill_manager.py, dask_cuda's proxify_host_file.py; the first cuDF
     * spill manager printed the bare byte count, "RMM allocation of
     * {nbytes} bytes failed"), through distributed's logger "distributed.
     * worker - WARNING - RMM allocation of 4.91 MiB failed, ..."
     * (rapidsai/dask-cuda#855 = heldout64 h64-25). */
    {.kind = "rmm",
     .framework = "rapids",
     .need = {"RMM allocation of", "spill-on-demand couldn't find any device memory"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_rmm,
     .near = near_none},
    /* rmm::out_of_memory's own words, "MemoryError: std::bad_alloc:
     * out_of_memory: CUDA error (failed to allocate 88577278284 bytes) at:
     * ..." (scverse/rapids-singlecell#631 = heldout47 h47-13; without the
     * size, MaartenGr/BERTopic#644 = h47-44): cudaErrorMemoryAllocation by
     * RMM's own test (clauses_rmm). Before the host rows that take
     * MemoryError and std::bad_alloc, which these words are not; after the
     * row that reads RMM's pinned host resource. */
    {.kind = "rmm",
     .framework = "rapids",
     .any = {"std::bad_alloc: out_of_memory:"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_rmm,
     .near = near_none},
    /* ArrayFire (and flashlight, wav2letter over it): "ArrayFire Exception
     * (Device out of memory:101)" (arrayfire/arrayfire#3094), the error code
     * AF_ERR_NO_MEM (arrayfire/arrayfire#2895). */
    {.kind = "arrayfire",
     .framework = "arrayfire",
     .any = {"Device out of memory:101", "AF_ERR_NO_MEM"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_arrayfire,
     .near = near_none},
    /* Issue 12 (CUDA/driver errors that are not OOMs):
     * ArrayFire's other codes in its exception's form, "ArrayFire Exception
     * (<af_err_to_string>:<code>)": AF_ERR_DRIVER, "Driver not available or
     * incompatible" (102), and AF_ERR_RUNTIME, "Runtime error " (103)
     * (arrayfire/arrayfire:src/api/c/err_common.cpp@5594ae7a,
     * af_err_to_string; flashlight's allocator over a broken driver,
     * facebookresearch/wav2letter = heldout24 h24-09): no want of memory. */
    {.kind = "arrayfire-error",
     .framework = "arrayfire",
     .any = {"Driver not available or incompatible:102", "Runtime error :103"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .deny = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* A BFC allocator's memory dump (TF, XLA/JAX, EXLA): "Sum Total of in-use
     * chunks: 13.06GiB" is printed only when an allocation fails, so it stands
     * for the failure when the paste is cut before the error line
     * (elixir-nx/bumblebee#203, tensorflow/tensorflow#21831): a fallback like
     * a mention, the event only when the log shows no message (the error
     * after a dump keeps its own figures and device, corpus-heldout5 h5-40);
     * the pinned host allocator's dump is host RAM. */
    {.kind = "bfc-dump",
     .framework = "tensorflow",
     .need = {"Sum Total of in-use chunks"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_MENTION,
     .standalone = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_bfc_dump},
    /* the same dump cut before its sum, its chunk lines alone:
     * DumpMemoryLog, called only from AllocateRawInternal's failure path,
     * logs "Bin (256): \tTotal Chunks: …" and then each chunk, "Chunk at 0x…
     * of size N" (tensorflow/tensorflow:tensorflow/core/common_runtime/
     * bfc_allocator.cc@dc0b924e), "InUse at 7f… of size N next M" in later
     * releases (tsl/framework/bfc_allocator.cc) (asingh33/
     * CNNGestureRecognizer#37 = heldout37 h37-84: ten chunk lines under the
     * title). Each from bfc_allocator.cc's own glog tag. */
    /* ... and the same dump's summary of the chunks in use, one line per
     * size, "N Chunks of size S totalling T", under "Summary of in-use
     * Chunks by size" (DumpMemoryLog in tensorflow/tensorflow:tensorflow/
     * core/common_runtime/bfc_allocator.cc@010f3edc): the paste cut before
     * the sum (MPI-Dortmund/cryolo#7 = heldout45 h45-71). */
    {.kind = "bfc-dump",
     .framework = "tensorflow",
     .need = {"bfc_allocator.cc:"},
     .any = {"] Chunk at ", "] InUse at ", "] Bin (", " Chunks of size ",
             "Summary of in-use Chunks"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_MENTION,
     .standalone = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_bfc_dump},
    /* Triton's CUDA memory pool is full and the server falls back to pinned
     * host memory and goes on: a warning, like TF's "not a failure"
     * (triton-inference-server/server#1765, #8177). */
    {.kind = "triton-pool-fallback",
     .framework = "triton",
     .need = {"falling back to pinned system memory"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_triton_pool,
     .near = near_none},
    /* WebLLM (WebGPU in a browser) logs one message when the
     * device is lost, naming memory as the likely cause and asking for a
     * smaller model: "Device was lost during reload. This can happen due to
     * insufficient memory or other GPU constraints. Detailed error: [object
     * GPUDeviceLostInfo]. Please try to reload WebLLM with a less
     * resource-intensive model." (the device.lost handler set in reload(),
     * which allocates the model's memory ahead of time; a later engine says
     * "Device was lost." alone: mlc-ai/web-llm:src/engine.ts@16a69250), and
     * newer DeviceLostError "The WebGPU device was lost while loading the
     * model. This issue often occurs due to running out of memory (OOM)."
     * (src/error.ts@308660a4). A loss the message places in a reload or a
     * load is load; a bare device loss without these words is no OOM. */
    {.kind = "webllm-device-lost",
     .framework = "webgpu",
     .any = {"Device was lost during reload", "device was lost while loading the model"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_LOAD,
     .clauses = clauses_none,
     .near = near_none},
    {.kind = "webllm-device-lost",
     .framework = "webgpu",
     .need = {"Device was lost", "due to insufficient memory or other GPU constraints"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* Device-memory exhaustion as the GPU APIs name it. Vulkan (llama.cpp's
     * ggml_vulkan, ncnn): "vk::Device::allocateMemory: ErrorOutOfDeviceMemory"
     * (ggml-org/llama.cpp#15256), VK_ERROR_OUT_OF_DEVICE_MEMORY, ncnn's
     * "vkAllocateMemory failed -2" (-2 is that code; DaGooseYT/FrameGUI#12). */
    {.kind = "vulkan",
     .framework = "vulkan",
     .any = {"ErrorOutOfDeviceMemory", "VK_ERROR_OUT_OF_DEVICE_MEMORY",
             "vkAllocateMemory failed -2"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .word_end = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_vulkan},
    /* Intel GPUs (XPU) through Level Zero / Unified Runtime: "USM device
     * allocation fails with UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY"
     * (intel/compute-runtime#916), ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY.
     * before Unified Runtime, SYCL's plugin interface reported
     * the device's out-of-memory as PI_ERROR_OUT_OF_RESOURCES (-5): "Native
     * API returns: -5 (PI_ERROR_OUT_OF_RESOURCES)" (intel/llvm
     * sycl/plugins/unified_runtime/pi2ur.hpp maps ..._OUT_OF_DEVICE_MEMORY
     * to it; the host's has its own code, PI_ERROR_OUT_OF_HOST_MEMORY). */
    {.kind = "level-zero",
     .framework = "xpu",
     .any = {"UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY", "ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY",
             "PI_ERROR_OUT_OF_RESOURCES"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* OpenVINO's GPU plugin (clauses_openvino): an allocation over the
     * device's largest buffer, or over its memory, and the OpenCL
     * allocation failures it rethrows as "[GPU] out of GPU resources"
     * (CL_MEM_OBJECT_ALLOCATION_FAILURE, CL_OUT_OF_RESOURCES, ...).
     * (diagcall7) */
    {.kind = "openvino",
     .framework = "openvino",
     .any = {"[GPU] Exceeded max size of memory", "[GPU] out of GPU resources"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_openvino,
     .near = near_none},
    /* OpenCL's buffer allocation on the device: "OpenCL error at
     * .../openclbackend.cpp, func err, line 1115, error
     * CL_MEM_OBJECT_ALLOCATION_FAILURE" (lightvector/KataGo#166).
     * PyOpenCL names the status without its CL_ prefix,
     * "pyopencl._cl.MemoryError: clEnqueueNDRangeKernel failed:
     * MEM_OBJECT_ALLOCATION_FAILURE", older releases in words, "mem object
     * allocation failure" (inducer/pyopencl src/wrap_cl_part_1.cpp's
     * exception translator, later inducer/pyopencl:src/wrap_constants.cpp's
     * register_exception_translator; src/cpp/cl.hpp). */
    /* TIGRE's CUDA errors (near_tigre): "CBCT:CUDA:Ax out of memory" is
     * cudaErrorMemoryAllocation's string under the module's id. */
    {.kind = "tigre",
     .framework = "tigre",
     .need = {"CBCT:CUDA:", " out of memory"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_tigre},
    {.kind = "opencl",
     .framework = "opencl",
     /* the status in words as the C++ wrappers spell it: "Memory object
      * allocation failure" (most error-string tables), Boost.Compute's
      * opencl_error::to_string "Memory Object Allocation Failure" (LightGBM's
      * GPU trainer: "terminate called after throwing an instance of
      * 'boost::wrapexcept<boost::compute::opencl_error>' / what():  Memory
      * Object Allocation Failure", lightgbm-org/LightGBM#4480 = heldout47
      * h47-06). */
     .any = {"MEM_OBJECT_ALLOCATION_FAILURE", "mem object allocation failure",
             "Memory object allocation failure", "Memory Object Allocation Failure"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* Tenstorrent's tt-metal allocator (an accelerator's DRAM, counted with
     * the GPU class as heldout29's other accelerators): "TT_FATAL: Out of
     * Memory: Not enough space to allocate 5368709120 B DRAM buffer across
     * 8 banks" (tenstorrent/tt-metal#40108 = heldout30 h30-14). (diagcall4) */
    {.kind = "tt-metal",
     .framework = "tt-metal",
     .need = {"Out of Memory: Not enough space to allocate"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_tt_metal,
     .near = near_none},
    /* Jittor (clauses_jittor): the same check names "CPU" when the host's
     * allocators are the ones over 95% of the machine's RAM. (diagcall6) */
    {.kind = "jittor",
     .framework = "jittor",
     .need = {"GPU memory is overflow"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_jittor,
     .near = near_none},
    {.kind = "host-words",
     .framework = "host",
     .need = {"CPU memory is overflow"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* Blender Cycles' device allocator (GPUDevice::generic_alloc, intern/
     * cycles/device/device.cpp; CUDADevice before it): a buffer that fits
     * neither the card nor, where allowed, mapped host memory sets "System is
     * out of GPU and shared host memory"; a device-only buffer "System is out
     * of GPU memory". Both say the render's device memory ran out (the host
     * memory is the fallback that failed too). Its cuda_assert prints the
     * driver's error by name, "CUDA error: Out of memory in
     * cuMemAlloc_v2(&device_pointer, size)", and HIP's likewise. (diagcall6) */
    {.kind = "cycles",
     .framework = "cycles",
     .any = {"System is out of GPU and shared host memory", "System is out of GPU memory"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    {.kind = "cycles",
     .framework = "cycles",
     .any = {"CUDA error: Out of memory in cu", "HIP error: Out of memory in hip"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* ---- end diagfam -------------------------------------------------------- */
    {.kind = "cuda-error",
     .framework = "caffe",
     .any = {"cudaSuccess (2 vs. 0)", "cudaSuccess(2 vs. 0)"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    {.kind = "cuda-error",
     .framework = "cuda",
     .any = {"CUDA error: out of memory", "runtime error (2) : out of memory",
             "error=2 : out of memory", "(out of memory)", "CUDA_ERROR_OUT_OF_MEMORY",
             "cudaMalloc failed: out of memory",
             "with error 2 out of memory", "Error 2, out of memory",
             /* the case changed: Paddle 1.x "Cuda Error: out of memory"
              * (PaddlePaddle/Paddle#13984); the gpuErrchk macro of many CUDA
              * programs, "GPUassert: out of memory mean.cu 377" (tromp/cuckoo#53) */
             "Cuda Error: out of memory", "GPUassert: out of memory",
             /* Darknet's check_error: printf("CUDA Error: %s\n",
              * cudaGetErrorString(status)) (pjreddie/darknet src/cuda.c,
              * AlexeyAB/darknet src/dark_cuda.c); PyCUDA's guarded driver call,
              * "pycuda._driver.MemoryError: cuMemAlloc failed: out of memory"
              * (its class is PyCUDA's, not Python's MemoryError) (srcfam) */
             "CUDA Error: out of memory", "cuMemAlloc failed: out of memory"},
     /* "(out of memory)" also glosses the abbreviation in prose
      * about the host's killer, "the OOM (out of memory) killer killed it"
      * (a reply in a tortoise-tts thread): that is the kernel's OOM killer */
     .unless = {"killer"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_cuda_error,
     .near = near_cuda_error},
    /* thrust's system_error, which XGBoost's dh::safe_cuda throws too:
     * its what() is the failing call's context, ": " and the CUDA
     * runtime's error string, here cudaErrorMemoryAllocation's "out of
     * memory" ("what():  parallel_for failed: out of memory", thrust's
     * for_each under XGBoost's predictor, dmlc/xgboost#3756; "what():
     * /home/.../common/device_helpers.cuh(456): out of memory", its GPU
     * updater, dmlc/xgboost#2874 = heldout64 h64-42). The same what()
     * carries the other errors ("device free failed:
     * cudaErrorIllegalAddress: an illegal memory access was encountered",
     * NVIDIA/thrust#1636): only the allocation's string is this row. A
     * host library's what() ends in the same words (SQLite's error string):
     * read as the host's, the event is the device's only where its line, the
     * terminate line above or the paste's CUDA words name the device
     * (near_what_oom, MSG_F_DEVICE). (left23) */
    {.kind = "host-cpu-alloc",
     .framework = "host",
     .need = {"what():", ": out of memory"},
     .word_end = true,
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_cuda_error,
     .near = near_what_oom,
     .near_own_line = true},
    /* ... and PyTorch's check of a HIP call under ROCm (c10/cuda's
     * C10_CUDA_CHECK hipified: "HIP error: " + hipGetErrorString): "RuntimeError:
     * HIP error: out of memory". (srcfam) HIP's error name, hipErrorOutOfMemory
     * (2, ROCm/HIP include/hip/hip_runtime_api.h), is ROCm's too, as the
     * other HIP rows are: "error: 'hipErrorOutOfMemory'(2) at square.cpp:76"
     * (ROCm/hip#2132), AMDGPU.jl's "HIPError(code hipErrorOutOfMemory, out of
     * memory)" (JuliaGPU/AMDGPU.jl#591). */
    {.kind = "cuda-error",
     .framework = "rocm",
     .any = {"HIP error: out of memory", "hipErrorOutOfMemory"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_cuda_error,
     .near = near_cuda_error},
    /* c10's driver API check (expandable segments), CuPy's runtime error,
     * OpenCV's CUDA module, llama.cpp's early "CUDA error 2 at
     * ggml-cuda.cu:359: out of memory", MXNet 1.6+'s "cudaMalloc retry
     * failed", and the check PointNet++-style CUDA extensions print after
     * a launch (`fprintf(stderr, "CUDA kernel failed : %s\n",
     * cudaGetErrorString(err))`: pointnet2 ops, SoftGroup, OpenPCDet). */
    {.kind = "cuda-error",
     .framework = "cuda",
     .any = {"CUDA driver error: out of memory", "cudaErrorMemoryAllocation",
             "Gpu API call) out of memory", "CUDA error 2 at",
             "cudaMalloc retry failed: out of memory", "CUDA kernel failed : out of memory"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_cuda_error,
     .near = near_cuda_error},
    /* spconv 1.x: "cuda execution failed with error 2" (cudaErrorMemoryAllocation;
     * error 209 is not it). */
    {.kind = "cuda-error",
     .framework = "cuda",
     .need = {"execution failed with error 2"},
     .word_end = true,
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* nvdiffrast's NVDR_CHECK_CUDA_ERROR: the numeric cudaError_t, then the
     * failed call in brackets, "Cuda error: 2[cudaMalloc(&m_gpuPtr,
     * bytes);]" (2 = cudaErrorMemoryAllocation; 700, 801, 400 are other
     * faults: "Cuda error: 700[cudaStreamSynchronize(stream);]"). Sources:
     * NVlabs/nvdiffrast#182, pengHTYX/PSHuman#22, NVlabs/FoundationPose#249
     * (= heldout61 h61-24); NVlabs/nvdiffrast#196, #197 (code 700). A
     * pinned host buffer's call (cudaMallocHost, cudaHostAlloc) is host
     * memory, not this. (open61) */
    {.kind = "cuda-error",
     .framework = "cuda",
     .need = {"Cuda error: 2["},
     .unless = {"Cuda error: 2[cudaMallocHost", "Cuda error: 2[cudaHostAlloc"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* ND4J's CUDA memory manager under Deeplearning4j (Java): "Failed to
     * allocate 637074016 bytes from DEVICE [0] memory" (CudaMemoryManager.
     * allocate, deeplearning4j/deeplearning4j nd4j-cuda; HOST for pinned
     * host memory is no GPU's). The lead, from heldout35 h35-26 after the
     * set was opened. */
    {.kind = "nd4j",
     .framework = "nd4j",
     .need = {"bytes from DEVICE [", "Failed to allocate"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_nd4j,
     .near = near_none},
    /* A GPU-grabbing tool's cudaMalloc that failed, with what cudaMemGetInfo
     * said was left: "GPU-%d: Failed to allocate %.2f GB GPU memory (%.2f
     * GB available)" (godweiyang/GrabGPU:gg.cu@0553e5ae allocate_mem; it
     * retries every 5 s). (diagopen41: heldout41 h41-90) */
    {.kind = "grabgpu",
     .framework = "cuda",
     .need = {"Failed to allocate", "GB GPU memory ("},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_grabgpu,
     .near = near_none},
    /* GPU PhysX's device allocator refusing a buffer, repeated as the
     * simulation retries: "PxgCudaDeviceMemoryAllocator fail to allocate
     * memory 339738624 bytes!! Result = 2" (Improbable-AI/walk-these-ways#20
     * = heldout44 h44-03; the same line in Isaac Gym set-up notes,
     * cdh66666/Deep_RL_Control:README.md@1c222260 and a legged_gym notes
     * file whose repository was not recovered; skrl's docs quote it with
     * "XXXXXX bytes", Toni-SM/skrl:docs/source/intro/installation.rst, two
     * versions). Result 2 is cudaErrorMemoryAllocation; another result
     * ("Result = 700", an illegal address that broke the context first,
     * the debug notes in LeyangWen/TokenHSI:README.md) is
     * no allocation failure of this row's. (open38) */
    {.kind = "physx",
     .framework = "physx",
     .need = {"DeviceMemoryAllocator fail to allocate memory", "Result = 2"},
     .word_end = true,
     .shape = "fail to allocate memory %d bytes",
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_physx,
     .near = near_none},
    /* ... and its HOST form, "Failed to allocate 400 bytes from HOST
     * memory" (the same CudaMemoryManager.allocate for the host buffers of
     * the CUDA backend; deeplearning4j/nd4j#2140 = heldout43 h43-30): host
     * memory, with its request. (diagopen43) */
    {.kind = "host-cpu-alloc",
     .framework = "host",
     .need = {"bytes from HOST memory", "Failed to allocate"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_nd4j,
     .near = near_none},
    /* ---- diagrec5: runtime families' own words for a failed device
     * allocation (issue 12; keep this block together when merging) ---- */
    /* The CUDA wrapper CNTK wrote and ONNX Runtime kept (CudaCall): "CUDA
     * failure 2: out of memory ; GPU=0 ; hostname=... ; expr=cudaMalloc(...)"
     * (microsoft/CNTK#1591; onnxruntime::CudaCall in Deep-Live-Cam,
     * hacksider/Deep-Live-Cam#584 = heldout18 h18-17). 2 is
     * cudaErrorMemoryAllocation; "CUDA failure 35: CUDA driver ..." is not. */
    /* LightGBM's CUDA check: Log::Fatal("[CUDA] %s %s %d\n",
     * cudaGetErrorString(code), file, line) (gpuAssert, microsoft/LightGBM:
     * include/LightGBM/cuda/cuda_utils.hu@bae0b7ba), on the console after
     * "[LightGBM] [Fatal] " or in Python as "lightgbm.basic.LightGBMError:
     * [CUDA] out of memory <file> <line>". (srcfam) */
    {.kind = "cuda-error",
     .framework = "lightgbm",
     .need = {"[CUDA] out of memory", "LightGBM"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* CatBoost's CUDA_SAFE_CALL: ythrow TCatBoostException() << "CUDA error "
     * << (int)errorCode << ": " << cudaGetErrorString(errorCode)
     * (catboost/cuda/cuda_lib/cuda_base.h): "CUDA error 2: out of memory";
     * 2 is cudaErrorMemoryAllocation. (srcfam) */
    {.kind = "cuda-error",
     .framework = "cuda",
     .need = {"CUDA error 2: out of memory"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* The dmlc CHECK of a CUDA call, CHECK(e == cudaSuccess || e ==
     * cudaErrorCudartUnloading) << "CUDA: " << cudaGetErrorString(e) (TVM's
     * CUDA_CALL, apache/tvm src/runtime/cuda/cuda_common.h; MXNet's
     * CUDA_CALL; BytePS): "Check failed: (e == cudaSuccess || e ==
     * cudaErrorCudartUnloading) is false: CUDA: out of memory". (srcfam) */
    {.kind = "cuda-error",
     .framework = "cuda",
     .need = {"Check failed", "CUDA: out of memory"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* ... and its ROCm twin (RocmCall, microsoft/onnxruntime:onnxruntime/
     * core/providers/rocm/rocm_call.cc, the same format): "HIP failure 2: out
     * of memory ; GPU=1 ; ..." (2 is hipErrorOutOfMemory). (srcfam) */
    {.kind = "cuda-error",
     .framework = "rocm",
     .need = {"HIP failure 2: out of memory"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_cuda_lib,
     .near = near_none},
    {.kind = "cuda-error",
     .framework = "cuda",
     .need = {"CUDA failure 2: out of memory"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_cuda_lib,
     .near = near_none},
    /* NVIDIA DALI's device allocator: "Critical error in pipeline: CUDA
     * allocation failed" (NVIDIA/DALI#144 = h18-99, NVIDIA/DALI#2836 =
     * h18-100; also as the last line of "Error when executing Mixed operator
     * ImageDecoder encountered:"). */
    {.kind = "cuda-error",
     .framework = "dali",
     .need = {"CUDA allocation failed"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* Vulkan compute (ncnn: RIFE/waifu2x/Real-ESRGAN ncnn builds, llama.cpp's
     * Vulkan backend): VK_ERROR_OUT_OF_DEVICE_MEMORY, -2 from
     * vkAllocateMemory ("vkAllocateMemory failed -2", n00mkrad/flowframes#12
     * wrote it "Faied"), vulkan.hpp's "ErrorOutOfDeviceMemory". */
    {.kind = "cuda-error",
     .framework = "vulkan",
     .any = {"VK_ERROR_OUT_OF_DEVICE_MEMORY", "ErrorOutOfDeviceMemory"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    {.kind = "cuda-error",
     .framework = "vulkan",
     .need = {"vkAllocateMemory", "-2"},
     .word_end = true,
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* tiny-cuda-nn's GPU allocator (instant-ngp, nerfstudio's tcnn):
     * "Could not allocate memory: .../tiny-cuda-nn/gpu_memory.h:N
     * cudaMalloc(...) failed with error out of memory", also cut after its
     * path (NVlabs/instant-ngp, heldout15 h15-10). */
    {.kind = "cuda-error",
     .framework = "cuda",
     .need = {"Could not allocate memory", "tiny-cuda-nn"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* COLMAP's GPU feature matcher: SiftGPU's GetSiftMatch returning an
     * error is logged as "Feature matching failed. This is probably caused
     * by insufficient GPU memory. Consider reducing the maximum number of
     * features and/or matches." (colmap/colmap:src/colmap/feature/sift.cc
     * @5d968cf3, LOG(ERROR); colmap/colmap#1843 = heldout37 h37-90): the
     * tool's own diagnosis of a device-memory shortfall; the run goes on
     * with the pair unmatched. (diagopen37) */
    {.kind = "colmap-siftgpu",
     .framework = "colmap",
     .need = {"Feature matching failed", "insufficient GPU memory"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* PaddlePaddle's out-of-memory summary, its tail alone (the excerpt or
     * the terminal cut the "Out of memory error on GPU N" line): "1. If yes,
     * please stop them, or start PaddlePaddle on another GPU."
     * (PaddlePaddle/Paddle#68079 = h18-67). A detail: with the whole message
     * near, it joins that event. */
    {.kind = "paddle",
     .framework = "paddle",
     .need = {"start PaddlePaddle on another GPU"},
     .gpu_oom = OOM,
     .role = MSG_DETAIL,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none,
     .merge_lines = 12},
    /* ---- end of diagrec5's family block ---- */
    /* Apple Metal command buffers (llama.cpp/ollama, MLX, Metal apps). */
    {.kind = "metal",
     .framework = "metal",
     .any = {"kIOGPUCommandBufferCallbackErrorOutOfMemory", "Insufficient Memory (IOAF code 8)"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* HIP's old runtime code 1002 is hipErrorMemoryAllocation: hipTF's
     * "failed to allocate 8.00G from device: hipError_t(1002)"
     * (ROCmSoftwarePlatform/hiptensorflow#62); tensorflow-rocm's "failed to
     * allocate 890.06M (933298432 bytes) from device: HIP_ERROR_OutOfMemory"
     * (keras-team/keras#13889); MIOpen's "Memory not available
     * to allocate buffer: 655360000" (ROCm/MIOpen#47). */
    {.kind = "cuda-error",
     .framework = "rocm",
     .any = {"hipError_t(1002)", "hipErrorMemoryAllocation", "HIP_ERROR_OutOfMemory",
             "Memory not available to allocate buffer"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_cuda_error,
     .near = near_none},
    /* Wav2Lip's face detector (inference.py face_detect, copied into its many
     * forks and wrappers) catches the RuntimeError of a CUDA OOM, halves the
     * batch ("Recovering from OOM error; New batch size: 8") and at batch 1
     * gives up with its own words: "RuntimeError: Image too big to run face
     * detection on GPU. Please use the --resize_factor argument"
     * (Rudrabha/Wav2Lip:inference.py). The GPU ran out even at batch 1: a
     * GPU OOM, in the detector's forward. (diagcall5) */
    {.kind = "pytorch",
     .framework = "pytorch",
     .need = {"Image too big to run face detection on GPU"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_FORWARD,
     .clauses = clauses_none,
     .near = near_none},
    /* YOLOX's label assignment caught a CUDA OOM and retries the batch on
     * the CPU: "OOM RuntimeError is raised due to the huge memory cost during
     * label assignment. CPU mode is applied in this batch." (DDGRCF/YOLOX_OBB#31) */
    {.kind = "pytorch",
     .framework = "pytorch",
     .need = {"OOM RuntimeError is raised due to the huge memory cost"},
     .gpu_oom = OOM,
     .role = MSG_DETAIL,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* fairseq's OOM handler: "| WARNING: ran out of memory on GPU #2,
     * skipping batch" (after the allocator's own error, or alone). */
    {.kind = "pytorch",
     .framework = "pytorch",
     .need = {"ran out of memory on GPU #"},
     .gpu_oom = OOM,
     .role = MSG_DETAIL,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_gpu_hash,
     .near = near_none},
    /* MXNet 0.7's pooled storage: "pooled_storage_manager.h:62: Memory
     * allocation failed." */
    {.kind = "cuda-error",
     .framework = "mxnet",
     .need = {"pooled_storage_manager", "Memory allocation failed"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* Julia CUDA.jl / AMDGPU.jl. */
    {.kind = "julia",
     .framework = "julia",
     .any = {"Out of GPU memory", "OutOfGPUMemoryError"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_julia,
     .near = near_none},
    /* The JVM's OutOfMemoryError is its heap's (or metaspace's) limit,
     * host memory: "java.lang.OutOfMemoryError: Java heap space" (HotSpot
     * preallocates one instance per kind, java heap, metaspace, array size,
     * GC overhead limit: openjdk/jdk:src/hotspot/share/memory/universe.cpp
     * @0263ed99), "Exception in thread "main" java.lang.OutOfMemoryError: GC
     * overhead limit exceeded". Before the PyTorch rows read its class name
     * ("OutOfMemoryError: "). (diagopen41: an APK tool and a Java obfuscator,
     * heldout41 h41-99, -100) */
    {.kind = "host-memory-error",
     .framework = "host",
     .any = {"java.lang.OutOfMemoryError", "OutOfMemoryError: Java heap space",
             "OutOfMemoryError: GC overhead limit exceeded", "OutOfMemoryError: Metaspace"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* Ray's own OutOfMemoryError is its memory monitor's: the
     * raylet kills a worker when the node's host memory passes
     * RAY_memory_usage_threshold, and ray.get raises
     * "ray.exceptions.OutOfMemoryError: Task was killed due to the node
     * running low on memory." (ray-project/ray doc/source/ray-core/
     * scheduling/ray-oom-prevention.rst; hiyouga/EasyR1#59 = heldout42
     * h42-12): host memory, before the PyTorch rows read its class name.
     * Ray before 2.0 raised the monitor's error as RayOutOfMemoryError
     * ("ray.memory_monitor.RayOutOfMemoryError: More than 95% of the memory
     * on node eric-ThinkPad is used (11.8 / 12.3 GB)", ray-project/ray#3323,
     * the change that added it; "RayTaskError(RayOutOfMemoryError)",
     * ray-project/ray#20906; ray-project/ray#10431's title; heldout66
     * h66-35): the same node's host memory. (open66) */
    {.kind = "host-oom-killer",
     .framework = "host",
     .any = {"ray.exceptions.OutOfMemoryError", "node running low on memory", "RayOutOfMemoryError"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* ...while Ray re-raises an exception a task raised as a class named
     * "RayTaskError(<the cause's class>)" (ray-project/ray python/ray/
     * exceptions.py, RayTaskError.as_instanceof_cause: name =
     * f"RayTaskError({cause_cls.__name__})"): "RayTaskError(OutOfMemoryError):
     * ray::LLMActor.backload_to_gpu() (pid=...)" is the task's torch OOM
     * (Open-Reasoner-Zero/Open-Reasoner-Zero#21 = h42-62; h19-83, h8-52). */
    {.kind = "pytorch",
     .framework = "pytorch",
     .need = {"RayTaskError(OutOfMemoryError)"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* "CUDA out of" alone: the message cut before its last word. */
    /* ...and the exception raised with another text ("torch.OutOfMemoryError:
     * Allocation on device"), or only IPython's "OutOfMemoryError   Traceback
     * (most recent call last)" header; the bare class name (an except
     * clause) is no message. */
    {.kind = "pytorch",
     .framework = "pytorch",
     .need = {"OutOfMemoryError", "Traceback (most recent call last)"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* Its words garbled or cut but its numbers there ("CUDA out of the
     * memory. Tried to allocate 360.00 MiB"). */
    {.kind = "pytorch",
     .framework = "pytorch",
     .need = {"CUDA out of", "Tried to allocate"},
     .unless = {"Caught OutOfMemoryError"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_pt_any,
     .near = near_none},
    /* The message cut right after "CUDA out of" (not "CUDA out of  memory"
     * in binary noise). */
    {.kind = "pytorch",
     .framework = "pytorch",
     .need = {"CUDA out of"},
     .unless = {"CUDA out of "},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_pt_any, /* a wrap there: its numbers on the lines after */
     .near = near_none},
    {.kind = "pytorch",
     .framework = "pytorch",
     /* also lower-cased ("runtimeerror: cuda out of memory"), and the class
      * named in running text ("torch.OutOfMemoryError for 0.6.4.post1"; not
      * an except clause's "OutOfMemoryError:" or "OutOfMemoryError)") */
     .any = {"CUDA out of memory", "HIP out of memory", "XPU out of memory", "OutOfMemoryError: ",
             "cuda out of memory", "OutOfMemoryError for "},
     .sentence_case = true,
     .unless = {"Caught OutOfMemoryError"},
     .supposed = true, /* "If any CUDA out of memory error occurs, ..." (diagprose) */
     /* a sentence that says none came: "There is no CUDA out of memory
      * error, but the usage is extremely high" (JuliaGPU/CuArrays.jl
      * issue = heldout58 h58-59) (open58) */
     .negated = true,
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_pt_any,
     .near = near_none},
    /* The class name alone, its message left out: A1111's error line
     * "loading stable diffusion model: OutOfMemoryError"
     * (serpotapov/stable-diffusion-portable#5), an issue title "[Bug]:
     * torch.OutOfMemoryError" (lshqqytiger/stable-diffusion-webui-amdgpu#630)
     * above the traceback; the class named as what was raised in a
     * translated ComfyUI report ("- **Tipo de exce\xc3\xa7\xc3\xa3o:**
     * torch.OutOfMemoryError", Comfy-Org/ComfyUI#8465) or a title ("... on
     * NVIDIA L40S torch.OutOfMemoryError despite large GPU VRAM",
     * huggingface/sentence-transformers#3214). Not code that catches it
     * ("except ...:", "(torch.OutOfMemoryError, ...)"), not the JVM's. */
    {.kind = "pytorch",
     .framework = "pytorch",
     .any = {"torch.OutOfMemoryError", "cuda.OutOfMemoryError", ": OutOfMemoryError"},
     .unless = {"except", "Caught OutOfMemoryError", "java", "isinstance"},
     .end_not = ":),", /* not a tuple of caught classes, not the class heading its message */
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .word_end = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_pt_any,
     .near = near_none},
    /* PyTorch's message cut inside "out", where a paste or a thread's
     * stored excerpt ends: the exception's line with nothing after the cut
     * ("RuntimeError: CUDA ou" at the end of rosinality/stylegan2-pytorch
     * #110 = heldout56 h56-67, under the R1 penalty's backward; cut after
     * "CUDA out" in heldout14 h14-40 and after "CUDA out of" in heldout3
     * g04 and heldout5 h5-12, a rule above). After the class-name rules: a
     * line that names the class ("torch.cuda.OutOfMemoryError: CUDA o") is
     * theirs, its wrap read on. Only an error's line
     * ("...Error: CUDA o"), only at the line's end. (open56) */
    {.kind = "pytorch",
     .framework = "pytorch",
     .any = {"Error: CUDA o", "Error: CUDA ou", "Error: CUDA out"},
     .end_not = " abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:",
     .cut_end = true,
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* TensorFlow's stream executor line cut inside its status, where a
     * paste or a thread's stored excerpt ends: "failed to allocate 4.00G
     * (4294967296 bytes) from device: CUDA_" (heldout60 h60-31, a Horovod
     * run's evaluation). Whole, the line ends "CUDA_ERROR_OUT_OF_MEMORY"
     * (tensorflow/tensorflow#12237, #14231; ": out of memory" after it from
     * 1.14, #30912; the cuda-error row above reads it): cuMemAlloc failing
     * on the device. Another status ("CUDA_ERROR_INVALID_VALUE") is no cut:
     * the letters after the words. Only at the text's end, as the PyTorch
     * row above. (open60) */
    {.kind = "cuda-error",
     .framework = "tensorflow",
     .any = {"bytes) from device: CUDA_", "bytes) from device: CUDA_E", "bytes) from device: CUDA_ER",
             "bytes) from device: CUDA_ERR", "bytes) from device: CUDA_ERRO", "bytes) from device: CUDA_ERROR",
             "bytes) from device: CUDA_ERROR_"},
     .end_not = "ABCDEFGHIJKLMNOPQRSTUVWXYZ_",
     .cut_end = true,
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_cuda_error,
     .near = near_none},
    /* The log names a GPU OOM only in words: an issue's title or the user's
     * prose above a traceback whose message the paste cut ("OOM during
     * backward()", "Cuda OOM error when saving batch", "Out of memory when
     * saving the state_dict()"); never a denial ("I guarantee that the GPU
     * is not out of memory", open-mmlab/mmdetection3d#1495). Not an event unless the log shows no OOM
     * message and a traceback follows (scan_finish). */
    /* Host memory said to have run out, in words: a prose mention of an OOM
     * is then no GPU OOM ("I think you need an instance with more RAM (not
     * GPU memory)", databrickslabs/dolly#38; "CPU OOM when resuming training
     * from a given checkpoint", facebookresearch/vissl#470; "CPU RAM is
     * getting out-of RAM", tensorflow/models#3497). */
    /* ---- diagrec5: the GPU OOM in other words, and words that take it back
     * (issue 12; keep this block together when merging) ---- */
    /* The log says the failure was not memory: a GPU OOM guessed at or named
     * only in words elsewhere is then not called ("My first guess would be
     * that you run out of GPU memory" ... "My crashes are not due to
     * insufficient memory", NVlabs/stylegan2-ada#9). Not an event. */
    {.kind = "host-words",
     .framework = "unknown",
     .any = {"not due to insufficient memory", "not due to insufficient GPU memory",
             "not due to memory", "not due to OOM", "not due to an OOM", "not caused by OOM",
             "not caused by an OOM", "not a memory issue", "not a memory problem",
             "not an OOM issue", "not an OOM problem", "not an OOM error"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_HOST_WORDS,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* The paste says in words that the disk is full: a device-less
     * "insufficient memory" beside it is a guess at the same failure, not a
     * GPU OOM ("error: no disk space in val" in a title, the reporter's "I
     * think it is because of the continuous append images into the list,
     * which leads to insufficient memory", the maintainer's "your computer
     * is simply out of hard drive space", ultralytics/yolov5#6756 =
     * heldout51 h51-39). Not an event unless a traceback follows (a disk
     * look-alike then, as disk-full); never when denied ("I don't think
     * insufficient disk space should be the cause", h20-84). */
    {.kind = "disk-words",
     .framework = "io",
     .any = {"no disk space", "out of disk space", "out of hard drive space", "no hard drive space",
             "not enough disk space", "insufficient disk space", "ran out of disk space",
             "disk is full"},
     .sentence_case = true,
     /* a denial past a verb of thinking, which deny's adjacent words do not reach */
     .unless = {"don't think", "do not think", "dont think", "don't believe", "do not believe"},
     .deny = true,
     .gpu_oom = LOOKALIKE,
     .role = MSG_HOST_WORDS,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* Device memory said to run short in other words, the device and the
     * memory named within four words either side in the clause: "Not enough
     * gpu memory even though there is?" (lllyasviel/Fooocus#1278 = h18-36),
     * "Is 4090 video memory not enough for face swapping?"
     * (WeChatCV/Stand-In#40 = h18-46), "the GPU memory is not enough"
     * (vincentfung13/MINE#13), "Insufficient video memory", "my GPU MEM is not
     * sufficient". Not "not enough GPUs", not host RAM; a denial or a
     * hypothetical ("if there is not enough VRAM") takes it back. */
    {STANDALONE_MENTION,
     .any = {"not enough", "Not enough", "NOT ENOUGH", "nsufficient", "NSUFFICIENT",
             "not sufficient", "Not sufficient"},
     .qualifier = {DEVICE_QUALIFIERS, "video", "graphics"},
     .qualifier_span = 4,
     .also = {"memory", "mem", "VRAM"},
    },
    /* ... or the device's memory said to run out, the memory the verb's
     * subject: "I found my cuda memory runs out when processing occupancy_256
     * prediction" (xheon/panoptic-reconstruction#10 = heldout75 h75-19),
     * "The GPU is 16gb but still the memory runs out" (Aradhye2002/EcoDepth#19
     * = heldout66 h66-39). The device within six words in the sentence; a
     * hypothetical ("If CUDA memory runs out, rerun with --batch-size 8") or
     * a denial takes it back, host words guard it. (open75) */
    {STANDALONE_MENTION,
     .any = {"memory runs out", "memory ran out", "memory running out", "memory run out"},
     .sentence_case = true,
     .word_start = true,
     .qualifier = {DEVICE_QUALIFIERS, "video", "graphics"},
     .qualifier_span = 6,
     /* not where the line names the host's memory ("the host memory runs
      * out while the GPU idles") */
     .unless = {"host", "Host", "RAM", "ram", "CPU", "cpu"},
     .unless_words = true,
    },
    /* ... or a memory error of the device: "GPU memory error due to
     * settings.print_stats" (visionml/pytracking#132), "CUDA Memory Errors"
     * (bryanchrist/MathNeuro#3 = h18-63), "how to ... solve cuda memory
     * error" (heldout16 h16-11), "a video memory error". */
    {STANDALONE_MENTION,
     .any = {"memory error", "memory Error", "MEMORY ERROR"},
     .sentence_case = true,
     .qualifier = {DEVICE_QUALIFIERS, "video", "graphics"},
     /* "about GPU memory error" over "CUDA error: an illegal memory access
      * was encountered" in loss.backward() (intelpro/ELEDNet#9, heldout26
      * h26-118): the fault is the memory error */
     .vague = true,
    },
    /* ... or the OOM words in capitals or misspelt beyond "memo"/"memm"
     * ("GPU-OUT of memory", heldout15 h15-46; "about cuda out of memery
     * issue", RosettaCommons/RFdiffusion#182 = h18-78; "out of memroy"). */
    {STANDALONE_MENTION,
     .any = {"OUT of mem", "out of meme", "Out of Meme", "out of memr", "Out of Memr"},
     .sentence_case = true,
     .qualifier = {DEVICE_QUALIFIERS},
    },
    /* ... or its words swapped right after the device ("CUDA of out memory
     * for RTMDet-R (tiny) with 24GB of VRAM and batch_size=1",
     * open-mmlab/mmrotate#745 = heldout30 h30-43). (diagcall4) */
    {STANDALONE_MENTION,
     .any = {"of out memory", "Of Out Memory", "of out Memory"},
     .qualifier = {DEVICE_QUALIFIERS},
    },
    /* ... or OOM on a line of Chinese prose that names the GPU memory (显存)
     * or the graphics card (显卡): "模型加载完未训练时候都会把显存占满，训练完一个batch后
     * 在evaluate阶段会出现OOM" (bojone/sohu2021-baseline#3, heldout22 h22-06, read
     * from the set-aside's misses after its measurement). */
    {STANDALONE_MENTION,
     .need = {"OOM"},
     .any = {"\xe6\x98\xbe\xe5\xad\x98" /* 显存 */, "\xe6\x98\xbe\xe5\x8d\xa1" /* 显卡 */},
    },
    /* ---- end of diagrec5's mention block ---- */
    /* words that say host memory ran out stand alone, as a GPU
     * OOM's do: a title over a paste cut before its error ("CPU out of
     * memory during initialization" over DeepSpeed's start-up lines,
     * CVI-SZU/Linly#83 = h27-49) is the log's host look-alike, with the
     * paste's last activity as its stage. Words that only name host memory
     * ("more RAM", "CPU memory") need a traceback below them (the row after). */
    {.kind = "host-words",
     .framework = "host",
     .any = {"out of RAM", "out-of RAM", "RAM OOM", "CPU OOM", "host OOM", "Host OOM",
             "CPU out of memory", "CPU Out of Memory", "CPU Out Of Memory", "out of CPU memory",
             "RAM out of memory",
             /* the host's memory named after the OOM word ("But always OOM on
              * RAM.", a DeepSpeed title, deepspeedai/DeepSpeed#3448 = heldout50
              * h50-02), as qualified_after reads a device after it */
             "OOM on RAM", "OOM in RAM", "OOM on CPU RAM", "OOM in CPU RAM", "OOM on system RAM"},
     /* the host's words start a word: "RAM OOM" inside "Facing the
      * same vRAM OOM memory issue" (huggingface/transformers#27834) or "VRAM
      * OOM" names the device's memory */
     .word_start = true,
     .deny = true,
     .standalone = true,
     .gpu_oom = LOOKALIKE,
     .role = MSG_HOST_WORDS,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* ... and the same words as writers type them in other cases: "Then Ram
     * out of memory." (xinntao/Real-ESRGAN#489); "Cpu OOM" over a traceback
     * was the device-less "OOM" of a GPU mention before. The row above
     * keeps the capitals' forms; sentence_case adds each string with a
     * capital first letter ("Cpu OOM", "Ram OOM"). (callmiss) */
    {.kind = "host-words",
     .framework = "host",
     /* (no string all in common lower-case letters: a short anchor is found
      * by memchr on its rarest byte, and "cpu oom", "ram oom" or "host oom"
      * made bench/diagnose twice as slow; their capitalised forms stay, so
      * "fix cpu oom error", heldout45 h45-26, is still read as before) */
     .any = {"Cpu oom", "cpu OOM", "CPU oom", "Ram oom", "ram OOM", "RAM oom", "Host oom",
             "cpu out of memory", "ram out of memory", "out of cpu memory", "Out of CPU memory"},
     /* not "out of ram": "shuffling the models in and out of ram" is no
      * failure (heldout42 h42-05) */
     .sentence_case = true,
     .word_start = true,
     .word_end = true,
     .deny = true,
     /* not standalone: an event only above a traceback, so prose alone
      * ("it's a CPU oom -- the job just crashes", heldout15 h15-94) takes
      * no stage from the paste's last activity; it still keeps a GPU OOM
      * named in words from standing */
     .gpu_oom = LOOKALIKE,
     .role = MSG_HOST_WORDS,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    {.kind = "host-words",
     .framework = "host",
     .any = {"more RAM", "CPU RAM", "CPU ram", "system RAM", "not GPU memory", "OOM kill", "OOM Kill",
             "OOM-kill", "on the CPU side",
             "CPU memory"},
     /* not a hardware inventory that names the GPU's memory too
      * ("I have an Intel Core i7-11700KF, 32GB system RAM, and GeForce RTX
      * 3090 24GB VRAM.", ostris/ai-toolkit#992 = heldout30 h30-90); nor the device
      * said to use host memory ("the driver apparently allows CUDA to share system
      * RAM", NVIDIA's CUDA sysmem fallback on Windows, daswer123/xtts-finetune-webui#70
      * = h34-65: a remedy, not host memory running out) (diagstudy34) */
     .unless = {"VRAM", "vram", "Vram", "CUDA", "cuda", "Cuda"},
     .not_after = {"to", "into", "onto"},
     .moved_by = {"move", "moves", "moved", "moving", "offload", "offloads", "offloaded",
                  "offloading", "copy", "copies", "copied", "copying", "transfer", "transfers",
                  "transferred", "transferring", "swap", "swapped", "swapping", "spill",
                  "spilled", "spilling", "send", "sent", "put", "puts", "store", "stored"},
     .end_not = ":",
     .word_start = true,
     .deny = true,
     .gpu_oom = LOOKALIKE,
     .role = MSG_HOST_WORDS,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* A GPU OOM named in words with its device: a title or prose ("CUDA OOM
     * after train several iters", Vision-CAIR/MiniGPT-4#168; "it throws a
     * Cuda oom error", voice-cloning-app/Voice-Cloning-App#74; "CUDA
     * out-of-memory when GPU memory is 11GB", edwardzhou130/PolarSeg#45;
     * "Training CUDA OutOfMemoryError", zhengchen1999/RGT#19), also misspelt
     * after "out of memo"/"out of memm" ("cuda out of memoery",
     * warchildmd/ihd#1; "memmory"). Needs no traceback, but never a denial
     * and never over host words. (Anchors end past "mem", which training
     * logs print on every step.) */
    {STANDALONE_MENTION,
     .any = {"out of memo", "out of memm", "Out of Memo", "Out of Memm", "Out of memo",
             "Out Of Memo", "OUT OF MEMO", "out-of-memo", "Out-of-Memo", "Out-of-memo",
             "OutOfMemory", "Out of mem ", "out of mem "},
     .qualifier = {DEVICE_QUALIFIERS},
    },
    /* ... and the abbreviation, which starts its word: not the end of a
     * name in capitals ("bigscience/BLOOM with deepspeed on GPU", a model;
     * "ZOOM", "DOOM"), while "OOMs", "OOMed" and "OOMing" still read. */
    {STANDALONE_MENTION,
     .any = {"OOM", "OoM"},
     .qualifier = {DEVICE_QUALIFIERS},
     .unless = {"OOMs:"}, /* memory_summary()'s row, "CUDA OOMs: 0" */
     .word_start = true,
    },
    /* The same words translated or written in another language around an
     * English paste: GPU memory named by itself (Chinese 显存 "video memory":
     * "出现显存不足", zhengchen1999/RGT#19; "显存不够用",
     * JIA-Lab-research/MASA-SR#9; Portuguese "Falta de memoria de video",
     * Dpbm/dreambooth-tutorial#4; Japanese, Korean, Russian video-memory
     * words) ... */
    {STANDALONE_MENTION,
     .any = {"\xe6\x98\xbe\xe5\xad\x98\xe4\xb8\x8d\xe8\xb6\xb3" /* 显存不足 */,
             "\xe6\x98\xbe\xe5\xad\x98\xe4\xb8\x8d\xe5\xa4\x9f" /* 显存不够 */,
             "\xe6\x98\xbe\xe5\xad\x98\xe6\xba\xa2\xe5\x87\xba" /* 显存溢出 */,
             "\xe9\xa1\xaf\xe5\xad\x98\xe4\xb8\x8d\xe8\xb6\xb3" /* 顯存不足 */,
             "VRAM\xe4\xb8\x8d\xe8\xb6\xb3" /* VRAM不足 */,
             "\xe3\x83\x93\xe3\x83\x87\xe3\x82\xaa\xe3\x83\xa1\xe3\x83\xa2\xe3\x83\xaa\xe4\xb8\x8d\xe8\xb6\xb3" /* ビデオメモリ不足 */,
             "VRAM \xeb\xb6\x80\xec\xa1\xb1" /* VRAM 부족 */,
             /* with the particle between (Japanese が, Korean 이), the
              * Japanese "not enough" (足りな), Russian's past "was not enough" */
             "VRAM\xe3\x81\x8c\xe4\xb8\x8d\xe8\xb6\xb3" /* VRAMが不足 */, "VRAM\xe3\x81\x8c\xe8\xb6\xb3\xe3\x82\x8a\xe3\x81\xaa" /* VRAMが足りな */,
             "VRAM\xec\x9d\xb4 \xeb\xb6\x80\xec\xa1\xb1" /* VRAM이 부족 */,
             "\xd0\xbd\xd0\xb5 \xd1\x85\xd0\xb2\xd0\xb0\xd1\x82\xd0\xb8\xd0\xbb\xd0\xbe \xd0\xb2\xd0\xb8\xd0\xb4\xd0\xb5\xd0\xbe\xd0\xbf\xd0\xb0\xd0\xbc\xd1\x8f\xd1\x82\xd0\xb8" /* не хватило видеопамяти */,
    },
    },
    {STANDALONE_MENTION,
     .any = {"alta de memoria de v", "alta de mem\xc3\xb3ria de v" /* (f)alta de memória de v(í)deo */,
             "de video insuficiente", "de v\xc3\xad" "deo insuficiente",
             "\xd1\x85\xd0\xb2\xd0\xb0\xd1\x82\xd0\xb0\xd0\xb5\xd1\x82\x20\xd0\xb2\xd0\xb8\xd0\xb4\xd0\xb5\xd0\xbe\xd0\xbf\xd0\xb0\xd0\xbc\xd1\x8f\xd1\x82\xd0\xb8" /* хватает видеопамяти */, "\xd0\xbd\xd0\xb5\xd1\x85\xd0\xb2\xd0\xb0\xd1\x82\xd0\xba\xd0\xb0\x20\xd0\xb2\xd0\xb8\xd0\xb4\xd0\xb5\xd0\xbe\xd0\xbf\xd0\xb0\xd0\xbc\xd1\x8f\xd1\x82\xd0\xb8" /* нехватка видеопамяти */,
             "\xd0\xbd\xd0\xb5\xd0\xb4\xd0\xbe\xd1\x81\xd1\x82\xd0\xb0\xd1\x82\xd0\xbe\xd1\x87\xd0\xbd\xd0\xbe\x20\xd0\xb2\xd0\xb8\xd0\xb4\xd0\xb5\xd0\xbe\xd0\xbf\xd0\xb0\xd0\xbc\xd1\x8f\xd1\x82\xd0\xb8" /* недостаточно видеопамяти */},
    },
    /* ... Chinese GPU memory (显存) or graphics card (显卡) with overflow or
     * shortage anywhere on the line, in either order ("溢出显存",
     * jingyaogong/minimind#522; "显卡内存一直上涨...最终内存溢出",
     * luopeixiang/im2latex#14). */
    {STANDALONE_MENTION,
     .need = {"\xe6\x98\xbe\xe5\xad\x98" /* 显存 */},
     .any = {"\xe6\xba\xa2\xe5\x87\xba" /* 溢出 */, "\xe4\xb8\x8d\xe8\xb6\xb3" /* 不足 */, "\xe4\xb8\x8d\xe5\xa4\x9f" /* 不够 */, "\xe7\x88\x86" /* 爆 */,
             "\xe7\x82\xb8" /* 炸 (diagprose) */},
    },
    {STANDALONE_MENTION,
     .need = {"\xe6\x98\xbe\xe5\x8d\xa1" /* 显卡 */},
     .any = {"\xe6\xba\xa2\xe5\x87\xba" /* 溢出 */, "\xe4\xb8\x8d\xe8\xb6\xb3" /* 不足 */, "\xe4\xb8\x8d\xe5\xa4\x9f" /* 不够 */, "\xe7\x88\x86" /* 爆 */,
             "\xe7\x82\xb8" /* 炸 (diagprose) */},
    },
    /* ... or the work "exceeds" the GPU memory (超显存, 超出显存: "batch=4×2048
     * 超显存卡死", "全参数 AdamW 配置在 5090 32GB 上仍超显存", "中间激活数量巨大，超出
     * 显存容量", repository notes found by searching for 超显存 / 超出显存: a
     * run script, a cube3d training note, a third note; their repositories
     * not recovered; "传一个稍微大一点的图片会超显存",
     * QwenLM/Qwen3-VL#911 = heldout63 h63-47) and memory "has exceeded"
     * (显存超了). Not negated ("不超显存", 没超, 未超: a budget kept) nor
     * a consequence told as a condition ("否则超显存", "otherwise it exceeds"). */
    {STANDALONE_MENTION,
     .any = {"\xe8\xb6\x85\xe6\x98\xbe\xe5\xad\x98" /* 超显存 */, "\xe8\xb6\x85\xe5\x87\xba\xe6\x98\xbe\xe5\xad\x98" /* 超出显存 */,
             "\xe6\x98\xbe\xe5\xad\x98\xe8\xb6\x85\xe4\xba\x86" /* 显存超了 */},
     .unless = {"\xe4\xb8\x8d\xe8\xb6\x85" /* 不超 */, "\xe6\xb2\xa1\xe8\xb6\x85" /* 没超 */, "\xe6\x9c\xaa\xe8\xb6\x85" /* 未超 */,
                "\xe5\x90\xa6\xe5\x88\x99" /* 否则 */},
    },
    /* VRAM "exploded" (显存炸了: "CUDA Out Of Memory / 显存炸了，尝试启用
     * Tiled VAE", a Stable Diffusion web UI's FAQ), and the traditional
     * characters (顯存, 顯卡, 不夠) in the same two rows */
    {STANDALONE_MENTION,
     .need = {"\xe9\xa1\xaf\xe5\xad\x98" /* 顯存 */},
     .any = {"\xe6\xba\xa2\xe5\x87\xba" /* 溢出 */, "\xe4\xb8\x8d\xe8\xb6\xb3" /* 不足 */, "\xe4\xb8\x8d\xe5\xa4\xa0" /* 不夠 */, "\xe7\x88\x86" /* 爆 */, "\xe7\x82\xb8" /* 炸 */},
    },
    {STANDALONE_MENTION,
     .need = {"\xe9\xa1\xaf\xe5\x8d\xa1" /* 顯卡 */},
     .any = {"\xe6\xba\xa2\xe5\x87\xba" /* 溢出 */, "\xe4\xb8\x8d\xe8\xb6\xb3" /* 不足 */, "\xe4\xb8\x8d\xe5\xa4\xa0" /* 不夠 */, "\xe7\x88\x86" /* 爆 */, "\xe7\x82\xb8" /* 炸 */},
    },
    /* ... or memory running out, after its device ("CUDA sem memória", a
     * machine translation of "CUDA out of memory"; "CUDA内存溢出",
     * MVIG-SJTU/AlphaPose#223; "cuda memory가 부족하다",
     * ndb796/Deep-Learning-Paper-Review-and-Practice#6). */
    {STANDALONE_MENTION,
     .any = {"sem mem\xc3\xb3ria", "sem memoria", "falta de mem",
             "\xe5\x86\x85\xe5\xad\x98\xe4\xb8\x8d\xe8\xb6\xb3" /* 内存不足 */,
             "\xe5\x86\x85\xe5\xad\x98\xe6\xba\xa2\xe5\x87\xba" /* 内存溢出 */,
             "\xe5\x86\x85\xe5\xad\x98\xe4\xb8\x8d\xe5\xa4\x9f" /* 内存不够 */,
             "\xe3\x83\xa1\xe3\x83\xa2\xe3\x83\xaa\xe4\xb8\x8d\xe8\xb6\xb3" /* メモリ不足 */,
             "\xeb\xa9\x94\xeb\xaa\xa8\xeb\xa6\xac \xeb\xb6\x80\xec\xa1\xb1" /* 메모리 부족 */,
             "memory\xea\xb0\x80 \xeb\xb6\x80\xec\xa1\xb1" /* memory가 부족 */,
             /* the allocation named between the device and the shortage, "gpu
              * 分配内存不足" (allocating memory: not enough), and the allocation said
              * to fail, "CUDA内存分配失败" (diagcall8) */
             "\xe5\x88\x86\xe9\x85\x8d\xe5\x86\x85\xe5\xad\x98\xe4\xb8\x8d\xe8\xb6\xb3" /* 分配内存不足 */,
             "\xe5\x86\x85\xe5\xad\x98\xe5\x88\x86\xe9\x85\x8d\xe5\xa4\xb1\xe8\xb4\xa5" /* 内存分配失败 */,
             "\xd0\xbd\xd0\xb5\x20\xd1\x85\xd0\xb2\xd0\xb0\xd1\x82\xd0\xb0\xd0\xb5\xd1\x82\x20\xd0\xbf\xd0\xb0\xd0\xbc\xd1\x8f\xd1\x82\xd0\xb8" /* не хватает памяти */,
             "\xd0\xbd\xd0\xb5\xd0\xb4\xd0\xbe\xd1\x81\xd1\x82\xd0\xb0\xd1\x82\xd0\xbe\xd1\x87\xd0\xbd\xd0\xbe\x20\xd0\xbf\xd0\xb0\xd0\xbc\xd1\x8f\xd1\x82\xd0\xb8" /* недостаточно памяти */},
     .qualifier = {DEVICE_QUALIFIERS},
    },
    /* the particle between memory and its shortage, as
     * Japanese and Korean write it ("GPU 메모리가 부족합니다", the message
     * Korean training tools raise on torch's OOM; "GPUのメモリが不足"),
     * the Japanese "not enough" (足りない), Russian's past "was not
     * enough" (не хватило памяти); memory "exploded" (GPU内存爆了, as 显存爆了),
     * Taiwan's word for memory (GPU記憶體不足). The qualifier must stand right
     * before the words, so the Japanese genitive の (CUDAの) opens a form too. */
    {STANDALONE_MENTION,
     .any = {"\xe3\x83\xa1\xe3\x83\xa2\xe3\x83\xaa\xe3\x81\x8c\xe4\xb8\x8d\xe8\xb6\xb3" /* メモリが不足 */,
             "\xe3\x81\xae\xe3\x83\xa1\xe3\x83\xa2\xe3\x83\xaa\xe4\xb8\x8d\xe8\xb6\xb3" /* のメモリ不足 */, "\xe5\x86\x85\xe5\xad\x98\xe7\x88\x86" /* 内存爆 */, "\xe5\x86\x85\xe5\xad\x98\xe7\x82\xb8" /* 内存炸 */,
             "\xe8\xa8\x98\xe6\x86\xb6\xe9\xab\x94\xe4\xb8\x8d\xe8\xb6\xb3" /* 記憶體不足 */,
             "\xe3\x81\xae\xe3\x83\xa1\xe3\x83\xa2\xe3\x83\xaa\xe3\x81\x8c\xe4\xb8\x8d\xe8\xb6\xb3" /* のメモリが不足: "GPUのメモリが不足", the device before の */,
             "\xe3\x83\xa1\xe3\x83\xa2\xe3\x83\xaa\xe3\x81\x8c\xe8\xb6\xb3\xe3\x82\x8a\xe3\x81\xaa" /* メモリが足りな */,
             "\xeb\xa9\x94\xeb\xaa\xa8\xeb\xa6\xac\xea\xb0\x80 \xeb\xb6\x80\xec\xa1\xb1" /* 메모리가 부족 */,
             /* the long-vowel spelling (メモリー) */
             "\xe3\x83\xa1\xe3\x83\xa2\xe3\x83\xaa\xe3\x83\xbc\xe4\xb8\x8d\xe8\xb6\xb3" /* メモリー不足 */, "\xe3\x81\xae\xe3\x83\xa1\xe3\x83\xa2\xe3\x83\xaa\xe3\x83\xbc\xe4\xb8\x8d\xe8\xb6\xb3" /* のメモリー不足 */,
             "\xe3\x83\xa1\xe3\x83\xa2\xe3\x83\xaa\xe3\x83\xbc\xe3\x81\x8c\xe4\xb8\x8d\xe8\xb6\xb3" /* メモリーが不足 */, "\xe3\x83\xa1\xe3\x83\xa2\xe3\x83\xaa\xe3\x83\xbc\xe3\x81\x8c\xe8\xb6\xb3\xe3\x82\x8a\xe3\x81\xaa" /* メモリーが足りな */,
             "\xd0\xbd\xd0\xb5 \xd1\x85\xd0\xb2\xd0\xb0\xd1\x82\xd0\xb8\xd0\xbb\xd0\xbe \xd0\xbf\xd0\xb0\xd0\xbc\xd1\x8f\xd1\x82\xd0\xb8" /* не хватило памяти */},
     .qualifier = {DEVICE_QUALIFIERS},
    },
    /* Japanese memory "overflowing" (溢れる, also written in kana:
     * "GPUのメモリがあふれる", "GPUメモリが溢れて落ちる"), as Chinese says
     * 显存溢出 (diagopen41: a speech engine's thread, heldout41 h41-74) */
    {STANDALONE_MENTION,
     .any = {"\xe3\x83\xa1\xe3\x83\xa2\xe3\x83\xaa\xe3\x81\x8c\xe6\xba\xa2\xe3\x82\x8c" /* メモリが溢れ */,
             "\xe3\x83\xa1\xe3\x83\xa2\xe3\x83\xaa\xe3\x81\x8c\xe3\x81\x82\xe3\x81\xb5\xe3\x82\x8c" /* メモリがあふれ */,
             "\xe3\x81\xae\xe3\x83\xa1\xe3\x83\xa2\xe3\x83\xaa\xe3\x81\x8c\xe6\xba\xa2\xe3\x82\x8c" /* のメモリが溢れ */,
             "\xe3\x81\xae\xe3\x83\xa1\xe3\x83\xa2\xe3\x83\xaa\xe3\x81\x8c\xe3\x81\x82\xe3\x81\xb5\xe3\x82\x8c" /* のメモリがあふれ */},
     .qualifier = {DEVICE_QUALIFIERS},
    },
    /* ... or the allocation said to fail, with the device named before or
     * after in the clause ("Memory allocation problem on GPU",
     * ultralytics/ultralytics#7076; "GPU memory allocation error"). */
    {STANDALONE_MENTION,
     .any = {"emory allocation problem", "emory allocation error", "emory allocation fail"},
     .qualifier = {DEVICE_QUALIFIERS},
    },
    /* ... or the device allocator's call named as failing with the OOM words
     * in prose ("a call to `cudaMalloc` failed with an "out of memory"
     * error", ggml-org/llama.cpp#7366 as heldout9's h9-10, seen). */
    {STANDALONE_MENTION,
     .need = {"out of memory"},
     .any = {"cudaMalloc", "cuMemAlloc", "hipMalloc"},
    },
    /* ... or memory running out named with the device inside the words
     * ("Running out of VRAM AMD 7900 xt", AUTOMATIC1111/stable-diffusion-
     * webui#16461 as heldout13's h13-51; "It is out of GPU memory.",
     * heldout12's h12-15; "ERROR: Out of GPU memory", CUDA.jl): needs no
     * traceback; a denial or a hypothetical ("if you're running out of
     * VRAM") takes it back. */
    /* a TPU's memory named inside the words, "Getting out of hbm
     * memory error on TPU" (tensorflow/tensor2tensor#1382): the accelerator's
     * memory, as JAX's "memory space hbm" rows. */
    {STANDALONE_MENTION,
     .any = {"out of hbm memory", "out of HBM memory", "out of TPU memory"},
    },
    {STANDALONE_MENTION,
     .any = {"out of VRAM", "Out of VRAM", "out of vram", "out of GPU memory", "Out of GPU memory",
             "out of GPU RAM", "out of video memory", "Out of video memory"},
    },
    /* ... in lower case: the device word is part of the anchor, since "oom"
     * alone is in too many words for the hot scan ("room", "zoom"). */
    {STANDALONE_MENTION,
     .any = {"Cuda oom", "CUDA oom"},
     .word = true,
    },
    {.kind = "oom-mention",
     .framework = "unknown",
     .any = {"OOM", "Out of memory", "Out-of-Memory", "Out-of-memory", "out-of-memory",
             "Out of Memory", "out of memory", "out of GPU memory", "Out Of Memory",
             /* the abbreviation in mixed case, "I end up with a CUDA OoM:"
              * (deepspeedai/DeepSpeed-MII#559 = heldout69 h69-27), "Funny
              * Error (OoM)" (heldout28 h28-86), "improve stability regarding
              * CUDA OoM" (a change, heldout47 h47-89) (open69) */
             "OoM",
             /* lower case glued to Chinese ("训练中途报oom错误", heldout15
              * h15-23); a lower-case "oom" alone would cost the hot scan a
              * memchr on 'o' (diagrec5) */
             "oom\xe9\x94\x99" /* oom错 */, "oom\xe6\x8a\xa5" /* oom报 */,
             "oom\xe4\xba\x86" /* oom了 */},
     .unless = {"kill"},
     .end_not = "_-",
     .word = true,
     .deny = true,
     .gpu_oom = LOOKALIKE,
     .role = MSG_MENTION,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* Issue 12 (the call on cut messages): a message family's
     * own tail, so that a paste cut inside its first word still reads as
     * the message it is. The Dreambooth extension's batch-size finder prints
     * "OOM Detected, reducing batch/grad size to {batch_size}/{grad_size}."
     * then the traceback of the OOM it caught
     * (d8ahazard/sd_dreambooth_extension:dreambooth/memory.py@e85c8c5f,
     * find_executable_batch_size); a paste cut at its first letter starts
     * "OM Detected, ..." (d8ahazard/sd_dreambooth_extension#1457 = heldout6
     * h6-60). The whole line already reads as the words above; its tail
     * reads the same way: an event where a traceback follows. */
    {.kind = "oom-mention",
     .framework = "unknown",
     .any = {"Detected, reducing batch/grad size"},
     .deny = true,
     .gpu_oom = LOOKALIKE,
     .role = MSG_MENTION,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* ... and the class's name alone, in words or as a title ("When trying to
     * send API request for text generation I get OutOfMemory.",
     * oobabooga/textgen#6430 as heldout14's h14-07; a title "OutOfMemoryError"
     * above a [rank4]: traceback, heldout10's h10-51): like the words above,
     * an event only when a traceback follows and the log shows no OOM
     * message; never in code (an except clause, isinstance). */
    {.kind = "oom-mention",
     .framework = "unknown",
     .any = {"OutOfMemory"},
     .unless = {"kill", "except", "isinstance", "pin memory"},
     .deny = true,
     .gpu_oom = LOOKALIKE,
     .role = MSG_MENTION,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* NCCL errors whose cause is not (or not yet shown to be) memory. */
    {.kind = "nccl-error",
     .framework = "nccl",
     .any = {"NCCL error", "unhandled cuda error", "ncclUnhandledCudaError", "ncclSystemError"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_nccl_error},
    {.kind = "nccl-error",
     .framework = "nccl",
     .need = {"Cuda failure"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_DETAIL,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* ... and the heartbeat monitor's verdict on a watchdog that stopped
     * (a hang, not memory): "ProcessGroupNCCL's watchdog got stuck for 480
     * seconds without making progress in monitoring enqueued collectives."
     * (pytorch/pytorch torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp,
     * HeartbeatMonitor; heldout41 h41-63, diagopen41) */
    {.kind = "nccl-timeout",
     .framework = "nccl",
     .any = {"Watchdog caught", "communicator was aborted", "watchdog got stuck for"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .consequence = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* torch.compile's max-autotune precompiling candidate kernels: one that
     * fails (most often a Triton config that needs more shared memory than
     * the SM has) is logged and dropped, and autotuning goes on with the
     * others (torch/_inductor/select_algorithm.py: "Exception %s for
     * benchmark choice %s", then mark_failed()): not a failure of the run,
     * so it neither explains one nor hides a GPU OOM the log names in words
     * ("CUDA OOM during compiled inference" over such lines, heldout26
     * h26-66, facebookresearch/sam2#592). */
    {.kind = "autotune-choice",
     .not_failure = true,
     .framework = "inductor",
     .any = {"for benchmark choice"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* Triton kernels that need more shared memory than an SM has. */
    {.kind = "triton-shared-memory",
     .framework = "triton",
     .need = {"out of resource"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* Failures that are not memory at all, though users read them as an
     * OOM (issue 12, diagfail): look-alike events of their own kind, so
     * the report can say what failed instead of "No OOM found". Each
     * string is the library's own wording, never prose ("I have
     * encountered an illegal memory access error" is no message); a
     * denied or conditional clause ("if you see No space left on
     * device") takes it back. */
    /* The disk or a quota is full while a file (a checkpoint, most often)
     * is written: "OSError: [Errno 28] No space left on device"
     * (databrickslabs/dolly#139, babysor/MockingBird#774), "OSError:
     * [Errno 122] Disk quota exceeded" (open-mmlab/mmdetection#12069). A
     * DataLoader's shared memory (/dev/shm, "</torch_N>") is not the disk. */
    {.kind = "disk-full",
     .framework = "io",
     .any = {"No space left on device", "Disk quota exceeded",
             /* Go's os and syscall errors write strerror's text in lower
              * case after the path ("Error: write /usr/share/ollama/
              * .ollama/models/blobs/sha256:...-partial-0: no space left on
              * device", ollama/ollama#1731, #15547; "open /mnt/fast2/BLOBS/
              * 0x...: no space left on device", base/blob-archiver#38;
              * ollama/ollama#6628 "ollama create" = heldout74 h74-62)
              * (open74) */
             "no space left on device"},
     .unless = {"</torch_", "/dev/shm"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .deny = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* A write that failed without saying why, in torch's serializer:
     * "PytorchStreamWriter failed writing file data/3: file write failed"
     * (zai-org/ChatGLM-6B#1166), its end-of-file check "unexpected pos
     * 190007680 vs 190007572" (innnky/so-vits-svc#46), torch 1.0's
     * "write(): fd 29 failed with Input/output error" (pytorch/pytorch#10577)
     * and the writer's "File my_out/checkpoints/checkpoint_0.pt cannot be
     * opened." (Sachini/ronin#51): a full disk, a quota or a failing file
     * system. */
    {.kind = "disk-write-error",
     .framework = "io",
     .any = {"PytorchStreamWriter failed writing", "unexpected pos "},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .deny = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    {.kind = "disk-write-error",
     .framework = "io",
     .need = {"write(): fd", "failed with"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .deny = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    {.kind = "disk-write-error",
     .framework = "io",
     .need = {"File ", " cannot be opened"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .deny = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* A kernel read or wrote outside its memory (oom_symptom: after an
     * allocation that failed unchecked, the kernel touches memory it never
     * got; "I believe this is due to GPU OOM", leefige/radik#1 = heldout12
     * h12-13): "CUDA error: an illegal
     * memory access was encountered" (Tianxinhuang/ComPC#5), thrust's
     * "merge_sort: failed to synchronize: cudaErrorIllegalAddress: ..."
     * (AIR-DISCOVER/LODE#1), "CUDA error: misaligned address"
     * (zhoubolei/TRN-pytorch#88). */
    {.kind = "cuda-illegal-address",
     .framework = "cuda",
     .oom_symptom = true,
     .any = {"illegal memory access was encountered", "cudaErrorIllegalAddress",
             "CUDA error: misaligned address",
             /* Triton's launcher wording, "RuntimeError: Triton Error [CUDA]:
              * misaligned address" (fla-org/flash-linear-attention#913 = heldout19 h19-102) */
             "[CUDA]: misaligned address",
             /* ROCm's runtime for the same fault, "Memory access
              * fault by GPU node-1 (Agent handle: 0x...) on address 0x....
              * Reason: Page not present or supervisor privilege." (ROCR-Runtime
              * core/runtime/runtime.cc) */
             "Memory access fault by GPU",
             /* ... and its memory-event handler when no custom handler
              * took the event: "Memory critical error by agent node-0
              * (Agent handle: 0x...) on address 0x.... Reason: Memory in
              * use." then abort (ROCR-Runtime core/runtime/runtime.cc,
              * "GPU memory error."); a fault of a mapping, seen with
              * SELinux or a missing --ipc=host as well (ROCm/ROCm#6182,
              * an APU loading a GGUF model; ollama's on the 6800U,
              * heldout57 h57-37, -38), not an allocation that failed.
              * A title may keep only its reason. */
             "Memory critical error by agent", "Reason: Memory in use"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .deny = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* A kernel that could not run to its end: "CUDA error: unspecified
     * launch failure" (facebookresearch/DeepSDF#40), THC's "THCudaCheck
     * FAIL file=... error=4 : unspecified launch failure"
     * (pytorch/pytorch#21276). */
    {.kind = "cuda-launch-failure",
     .framework = "cuda",
     .oom_symptom = true,
     .any = {"unspecified launch failure"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .deny = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* A cuDNN kernel that could not run to its end: cuDNN's status
     * CUDNN_STATUS_EXECUTION_FAILED (8, "the GPU program failed to
     * execute", NVIDIA's cuDNN API reference), raised by PyTorch as
     * "RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED" under the
     * frames of the pass that ran it (NVIDIA/apex#78 = heldout51 h51-69,
     * scaled_loss.backward()), by CNTK as "cuDNN failure 8:
     * CUDNN_STATUS_EXECUTION_FAILED". A kernel fault, as a launch failure
     * is, not an allocation that failed. */
    /* cuDNN refusing the call it was given: CUDNN_STATUS_NOT_SUPPORTED
     * (9, "the functionality requested is not presently supported") and
     * CUDNN_STATUS_BAD_PARAM (3, "an incorrect value or parameter was
     * passed"; NVIDIA's cuDNN API reference), as onnxruntime's CUDA provider
     * logs them, "CudaCall] CUDNN failure 9: CUDNN_STATUS_NOT_SUPPORTED ;
     * GPU=0 ; ... expr=cudnnSetTensorNdDescriptor(...)" above "Non-zero
     * status code returned while running Conv node" (microsoft/onnxruntime
     * #15715 = heldout55 h55-37: a VAE decoder's batch of 32 past a tensor
     * descriptor's limit; #8024 and #1606, "CUDNN failure 3:
     * CUDNN_STATUS_BAD_PARAM"), and Paddle's "CUDNN error(9),
     * CUDNN_STATUS_NOT_SUPPORTED" (PaddlePaddle/PaddleSpeech#3191): a shape
     * or a setting cuDNN does not take, no allocation that failed. Only
     * the library's failure wordings, not cudnn-frontend's "Warning:
     * CUDNN_STATUS_NOT_SUPPORTED; Reason: ..." as it drops one engine, nor
     * PyTorch's "Plan failed with a cudnnException" warning (it falls back
     * to another plan). (open55) Lua Torch's cudnn.torch raises the same
     * statuses as "Error in CuDNN: CUDNN_STATUS_NOT_SUPPORTED
     * (cudnnConvolutionBackwardData)" (cudnn/find.lua, init.lua errcheck;
     * soumith/cudnn.torch#384 = heldout56 h56-34, its comment's
     * cudnnConvolutionBackwardFilter; fmassa/object-detection.torch#19,
     * "(cudnnSetFilterNdDescriptor)"), its failing function naming the
     * pass. (open56) */
    {.kind = "cudnn-unsupported",
     .framework = "cuda",
     .any = {"CUDNN failure 9: CUDNN_STATUS_NOT_SUPPORTED", "CUDNN failure 3: CUDNN_STATUS_BAD_PARAM",
             "CUDNN error(9), CUDNN_STATUS_NOT_SUPPORTED", "CUDNN error(3), CUDNN_STATUS_BAD_PARAM",
             "Error in CuDNN: CUDNN_STATUS_NOT_SUPPORTED", "Error in CuDNN: CUDNN_STATUS_BAD_PARAM"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .deny = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    {.kind = "cudnn-execution-failed",
     .framework = "cuda",
     .oom_symptom = true,
     .any = {"CUDNN_STATUS_EXECUTION_FAILED"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .deny = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* a launch that asks for more registers, shared memory or
     * threads per block than the SM has: the kernel's launch configuration,
     * never device memory (no oom_symptom: an OOM does not cause it). The
     * driver's CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES (701), the runtime's
     * cudaErrorLaunchOutOfResources, "too many resources requested for
     * launch" (NVIDIA's CUDA Runtime API error types); CUDA.jl prints the
     * enum without its CUDA_ prefix, "(code 701,
     * ERROR_LAUNCH_OUT_OF_RESOURCES)" (its showerror, JuliaGPU/CUDAdrv.jl:
     * src/error.jl@aee96854, now JuliaGPU/CUDA.jl lib/cudadrv/error.jl; a
     * Flux issue, heldout32 h32-85).
     * Not Intel's Unified Runtime "OUT_OF_RESOURCES" alone, nor Triton's
     * "out of resource: shared memory" (triton-shared-memory). The runtime's
     * cudaErrorInvalidConfiguration (9), "invalid configuration argument": a
     * launch whose grid, block or shared memory exceeds the device's limits
     * (NVIDIA's CUDA Runtime API error types), as PyTorch raises it, "CUDA
     * error: invalid configuration argument", from xformers' flash kernel at
     * a large resolution (pixeli99/SVD_Xtend#39 = heldout52 h52-52).
     * (diagopen52) */
    {.kind = "cuda-launch-resources",
     .framework = "cuda",
     .any = {"LAUNCH_OUT_OF_RESOURCES", "LaunchOutOfResources",
             "too many resources requested for launch", "CUDA error: invalid configuration argument"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .deny = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* tiny-cuda-nn's fully fused MLP checks, before it launches, that one
     * SM's shared memory holds its layer width: "FullyFusedMLP:
     * insufficient shared memory available on the GPU. Reduce `n_neurons`
     * or use `CutlassMLP` (better compatibility but slower) instead." A
     * kernel's launch configuration against the device's limit, as above:
     * no device allocation refused. Sources: NVlabs/tiny-cuda-nn#511 (an
     * A100, tcnn's Python binding), vosen/ZLUDA#171 (= heldout61 h61-35;
     * lshqqytiger/ZLUDA#5 the same post), tiny-cuda-nn's
     * fully_fused_mlp.cu check. (open61) */
    {.kind = "cuda-launch-resources",
     .framework = "cuda",
     .need = {"insufficient shared memory available on the GPU"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .deny = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* A kernel's own check failed: "CUDA error: device-side assert
     * triggered" (microsoft/KBLaM#63), and the kernel's line before it,
     * "Indexing.cu:1231: indexSelectSmallIndex: block: [31,0,0], thread:
     * [116,0,0] Assertion `srcIndex < srcSelectDimSize` failed."
     * (EleutherAI/lm-evaluation-harness#2293), often the only one a paste
     * keeps. PyTorch's hint "Compile with `TORCH_USE_CUDA_DSA` to enable
     * device-side assertions." follows every CUDA error, an OOM too: not
     * this. */
    {.kind = "cuda-device-assert",
     .framework = "cuda",
     .any = {"device-side assert triggered"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .deny = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    {.kind = "cuda-device-assert",
     .framework = "cuda",
     .need = {"block: [", "] Assertion `"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* The card's memory failed: "CUDA error: uncorrectable ECC error
     * encountered" (huggingface/accelerate#1192; TF's
     * "CUDA_ERROR_ECC_UNCORRECTABLE: uncorrectable ECC error encountered",
     * nagadit/DeepFaceLab_Linux#89). */
    {.kind = "gpu-ecc-error",
     .framework = "cuda",
     .any = {"uncorrectable ECC error"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .deny = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_device_ordinal,
     .near = near_none},
    /* A size that overflowed before anything was allocated: "RuntimeError:
     * Storage size calculation overflowed with sizes=[1, 4623015400198258675]"
     * (huggingface/accelerate#2868; LLaVA-VL/LLaVA-NeXT#173). */
    {.kind = "size-overflow",
     .framework = "pytorch",
     .any = {"Storage size calculation overflowed"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .deny = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* Host RAM: DataLoader workers, the CPU allocator, MemoryError, SIGKILL.
     * A worker's death (here and host-shm below) names no stage of the main
     * process: its frames do (torch/utils/data/ in stage.c); the labels of
     * the seen sets leave a title-only worker kill unknown (diagunk17). */
    {.kind = "host-dataloader-killed",
     .framework = "host",
     .need = {"DataLoader worker", "killed by signal"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* A DataLoader worker's shared memory (/dev/shm, a container's 64 MiB
     * by default) ran out: "ERROR: Unexpected bus error encountered in
     * worker. This might be caused by insufficient shared memory (shm)."
     * (DengpanFu/LUPerson#20, heldout15 h15-50; h15-53, h15-55). */
    {.kind = "host-shm",
     .framework = "host",
     .any = {"insufficient shared memory (shm)", "Unexpected bus error encountered in worker"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .deny = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* The kernel refused memory to a system call (ENOMEM), most often
     * fork() starting DataLoader workers: "OSError: [Errno 12] Cannot
     * allocate memory" (pytorch/pytorch#4387, heldout9 h9-92; h9-91, h15-65,
     * h18-13). Arrow says it after its own words when mmap() fails
     * ("OSError: Memory mapping file failed: Cannot allocate memory", the
     * datasets library mapping its Arrow files; heldout36 h36-47, read by the
     * lead after the set was opened). */
    {.kind = "host-memory-error",
     .framework = "host",
     .any = {"[Errno 12] Cannot allocate memory", "Memory mapping file failed: Cannot allocate memory"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .deny = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    {.kind = "host-cpu-alloc",
     .framework = "host",
     .need = {"DefaultCPUAllocator"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_host,
     .near = near_none},
    /* The old TH/Torch7 host allocator, and THC's pinned host buffers for
     * MAGMA: "$ Torch: not enough memory: you tried to allocate 1008GB. Buy
     * new RAM!" (THError in pytorch/pytorch's aten/src/TH/THGeneral.cpp
     * THAlloc, luaT_alloc in torch/torch7, th_magma_malloc_pinned in
     * THCTensorMathMagma): host RAM, the request in whole GiB. (diagcall5) */
    {.kind = "host-cpu-alloc",
     .framework = "host",
     .need = {"Torch: not enough memory: you tried to allocate"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_host,
     .near = near_none},
    /* PyTorch's CPU allocator quoted without its "DefaultCPUAllocator: "
     * prefix, in a title or a sentence ("Not enough memory: you tried to
     * allocate 20971520 bytes"): the rest of the check's words,
     * TORCH_CHECK(data, "DefaultCPUAllocator: not enough memory: you tried
     * to allocate ", nbytes, " bytes.") in c10/core/impl/alloc_cpu.cpp
     * (pytorch/pytorch), are its own; host RAM. (diagopen52) */
    {.kind = "host-cpu-alloc",
     .framework = "host",
     .any = {"not enough memory: you tried to allocate", "Not enough memory: you tried to allocate"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_host,
     .near = near_none},
    /* Ollama refusing to load a model the host's RAM cannot hold (a check,
     * not a device allocation: host memory). */
    {.kind = "host-cpu-alloc",
     .framework = "host",
     .need = {"requires more system memory"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_LOAD,
     .clauses = clauses_ollama_host,
     .near = near_none},
    /* Caffe2's CPU allocator: "[enforce fail at allocator.h:48]
     * posix_memalign(&data, gCaffe2Alignment, nbytes) == 0. 12 vs 0" (12 is
     * ENOMEM). */
    {.kind = "host-cpu-alloc",
     .framework = "host",
     .need = {"posix_memalign", "12 vs 0"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* MXNet's CPU storage (cpu_device_storage.h). */
    {.kind = "host-cpu-alloc",
     .framework = "host",
     .need = {"Failed to allocate CPU Memory"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* RAPIDS RMM's device allocation throwing std::bad_alloc from a CUDA
     * call: "MemoryError: std::bad_alloc: CUDA error at: /conda/conda-bld/
     * librmm_.../work/include/rmm/mr/" (cut there, NVIDIA/cudf#5344 =
     * heldout30 h30-45; whole, "... cuda_memory_resource.hpp:68:
     * cudaErrorMemoryAllocation out of memory", rapidsai/cudf's heldout24
     * h24-46, read by the cuda-error row above). Before the host rows that
     * take std::bad_alloc and MemoryError. (diagcall4) */
    {.kind = "rmm",
     .framework = "rapids",
     .any = {"std::bad_alloc: CUDA error"},
     .gpu_oom = OOM,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* C++ operator new failing on the host: "terminate called after throwing
     * an instance of 'std::bad_alloc'" (epfml/sent2vec#98,
     * Determined22/zh-NER-TF#98). Device allocators that throw a bad_alloc
     * say CUDA (thrust's "bad_alloc: cudaErrorMemoryAllocation", RMM's
     * "out_of_memory: CUDA error"), matched earlier or excluded here. */
    {.kind = "host-cpu-alloc",
     .framework = "host",
     .need = {"std::bad_alloc"},
     .unless = {"CUDA", "cuda", "out_of_memory", "hip"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* host allocators' own failures that no row knew: Intel
     * MKL's aligned host allocator, "mkl_malloc: failed to allocate memory"
     * (SYSTRAN/faster-whisper model load and transcribe, a RuntimeError in
     * whisperx); the MSVC runtime's std::bad_alloc, whose what() is "bad
     * allocation" (ONNX Runtime's CPU provider: "Non-zero status code
     * returned while running FusedMatMul node. ... Status Message: bad
     * allocation"). */
    {.kind = "host-cpu-alloc",
     .framework = "host",
     .any = {"mkl_malloc: failed to allocate", ": bad allocation"},
     .unless = {"CUDA", "cuda", "hip"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* Rust's standard library aborting on a failed heap allocation: the
     * default alloc error hook prints "memory allocation of {size} bytes
     * failed" and aborts (std::alloc::handle_alloc_error, Rust's std docs).
     * Rust extensions loaded into training runs print it on the host:
     * huggingface/tokenizers#1847 ("memory allocation of 21474836480 bytes
     * failed" on a 64GB machine), #159 ("memory allocation of 150994960
     * bytes failedAborted", glued to the shell's word), and under a DeepSpeed
     * launcher with several ranks' copies interleaved (heldout60 h60-35). */
    {.kind = "host-cpu-alloc",
     .framework = "host",
     .need = {"memory allocation of ", " bytes failed"},
     /* whole words, any case: "a chip's", "we ship" name no device;
      * "Device memory allocation of ..." does */
     .unless = {"CUDA", "GPU", "GPUs", "HIP", "device", "devices"},
     .unless_words = true,
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* Ray's memory monitor killing a worker because the node's
     * host memory passed its threshold ("Memory on the node (IP: ..., ID: ...)
     * where the task (...) was running was 445.48GB / 468.75GB (0.950365),
     * which exceeds the memory usage threshold of 0.95. Ray killed this worker
     * (ID: ...) because it was the most recently scheduled task"; the raylet
     * watches the node's RAM, RAY_memory_usage_threshold) */
    {.kind = "host-oom-killer",
     .framework = "host",
     .any = {"Ray killed this worker", "which exceeds the memory usage threshold"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* NumPy's array allocation failure as its own text, without the
     * "MemoryError: " a traceback puts before it (a pipeline's error banner
     * prints str(exc): "ERROR RUNNING STEP 'DarkPipeline':" / "Unable to
     * allocate 4.35 GiB for an array with shape (200, 1458176)",
     * spacetelescope/jwst#6154 = heldout47 h47-96): _ArrayMemoryError's
     * "Unable to allocate {size} for an array with shape {shape} and data
     * type {dtype}" (numpy/numpy:numpy/core/_exceptions.py@01c5c430), host
     * memory. */
    {.kind = "host-memory-error",
     .framework = "host",
     .need = {"Unable to allocate", "for an array with shape"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_host,
     .near = near_none},
    /* Python's MemoryError starts its word: a class that ends in it is
     * another error ("torch.cuda.0utOfMemoryError: CUDA outof memory", a
     * title typed with a zero, QwenLM/Qwen#895 = heldout30 h30-10).
     * (diagcall4) */
    {.kind = "host-memory-error",
     .framework = "host",
     .need = {"MemoryError"},
     /* nor PyOpenCL's MemoryError, raised for the device's
      * CL_MEM_OBJECT_ALLOCATION_FAILURE only (the opencl row) */
     .unless = {"OutOfMemoryError", "MEM_OBJECT_ALLOCATION_FAILURE", "mem object allocation failure"},
     .word = true,
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_host,
     .near = near_none},
    {.kind = "host-sigkill",
     .framework = "host",
     .any = {"SIGKILL", "exitcode: -9", "exitcode : -9", "exit code 137", "exit status 137",
             "exit code -9", "exit status -9",
             /* DeepSpeed's launcher, "[launch.py:324:sigkill_handler] [...] exits
              * with return code = -9" (deepspeedai/DeepSpeed#3160 = heldout19 h19-46),
              * "process exits with return code -9" (OpenRLHF/OpenRLHF#841 = h19-48) */
             "return code = -9", "return code -9"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_torchrun},
    /* zsh's job report of a process the kernel killed, its column padded
     * with blanks: "[1]    26478 killed     python test.py" (baichuan-inc/
     * Baichuan2#138, heldout15 h15-56, glued after a loading bar), "zsh:
     * killed     python train.py". */
    {.kind = "host-sigkill",
     .framework = "host",
     .any = {"killed     "},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    {.kind = "host-sigkill",
     .framework = "host",
     .need = {"Killed"},
     .unless = {"Killed process"},
     .gpu_oom = LOOKALIKE,
     .role = MSG_PRIMARY,
     .fold = true,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* memory said to run short without a device ("[Bug] Not
     * enough memory" above SGLang's scheduler traceback, heldout17 h17-70):
     * like "Out of memory" without one, an event only above a traceback and
     * when the log has no other event. Last, so that every message that
     * holds these words ("DefaultCPUAllocator: not enough memory: you tried
     * to allocate ...") is its own rule's first. */
    {.kind = "oom-mention",
     .framework = "unknown",
     .any = {"not enough memory"},
     .sentence_case = true,
     .unless = {"kill"},
     .deny = true,
     .gpu_oom = LOOKALIKE,
     .role = MSG_MENTION,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    /* the same words in another language, no device named
     * ("此图片每次OCR识别，必定内存溢出" above Paddle's C++ Traceback,
     * heldout23 h23-12): like "Out of memory" without one, an event only
     * above a traceback and when the log has no other event. The rows with
     * a device before the words (above) come first. */
    {.kind = "oom-mention",
     .framework = "unknown",
     .any = {"\xe5\x86\x85\xe5\xad\x98\xe4\xb8\x8d\xe8\xb6\xb3" /* 内存不足 */,
             "\xe5\x86\x85\xe5\xad\x98\xe6\xba\xa2\xe5\x87\xba" /* 内存溢出 */,
             "\xe5\x86\x85\xe5\xad\x98\xe4\xb8\x8d\xe5\xa4\x9f" /* 内存不够 */,
             "\xe3\x83\xa1\xe3\x83\xa2\xe3\x83\xaa\xe4\xb8\x8d\xe8\xb6\xb3" /* メモリ不足 */,
             "\xeb\xa9\x94\xeb\xaa\xa8\xeb\xa6\xac \xeb\xb6\x80\xec\xa1\xb1" /* 메모리 부족 */},
     .unless = {"kill"},
     .deny = true,
     .gpu_oom = LOOKALIKE,
     .role = MSG_MENTION,
     .stage = OOM_STAGE_UNKNOWN,
     .clauses = clauses_none,
     .near = near_none},
    RULE_END,
};

static bool has(const char *text, size_t len, const char *lit)
{
    return memmem(text, len, lit, strlen(lit)) != NULL;
}

/* lit occurs followed by no letter or digit (and, with start, preceded by
 * none either). */
static bool has_word(const char *text, size_t len, const char *lit, bool start)
{
    size_t ll = strlen(lit);
    for (const char *p = text, *end = text + len; (size_t)(end - p) >= ll;) {
        const char *hit = memmem(p, (size_t)(end - p), lit, ll);
        if (!hit) return false;
        bool left = !start || hit == text || !isalnum((unsigned char)hit[-1]);
        if (left && (hit + ll == end || !isalnum((unsigned char)hit[ll]))) return true;
        p = hit + 1;
    }
    return false;
}

/* One of set[] (any case) is a whole word of the text: a run of letters and
 * digits ("HIP" in "HIP error", not in "chip"; "Device" for "device"). */
static bool has_word_of(const char *text, size_t len, const char *const *set, size_t cap)
{
    for (size_t i = 0; i < len;) {
        if (!isalnum((unsigned char)text[i])) {
            i++;
            continue;
        }
        size_t ws = i;
        while (i < len && isalnum((unsigned char)text[i])) i++;
        if (strbuf_word_in(text + ws, i - ws, set, cap)) return true;
    }
    return false;
}

/* ---- qualifiers and denials, for words about an OOM -------------------- */

/* A clause ends at these (ASCII), or at CJK punctuation (below). */
static bool clause_mark(unsigned char c)
{
    return c == '\n' || c == '.' || c == ',' || c == ';' || c == ':' || c == '!' || c == '?' ||
           c == '(' || c == ')' || c == '[' || c == ']' || c == '"' || c == '|';
}

/* "。" "、" "，" "；" "：" "！" "？" ending at text[i - 1]. */
static bool cjk_mark_before(const char *text, size_t i)
{
    static const char *const marks[] = {"\xe3\x80\x82", "\xe3\x80\x81", "\xef\xbc\x8c",
        "\xef\xbc\x9b", "\xef\xbc\x9a", "\xef\xbc\x81", "\xef\xbc\x9f", NULL};
    for (size_t k = 0; i >= 3 && marks[k]; k++)
        if (!memcmp(text + i - 3, marks[k], 3)) return true;
    return false;
}

/* Words that deny what follows them in the same clause (any case; a word
 * ending in "n't" too), also a past one ("before it was OOM, now ...",
 * "fixed the OOM"), words that may stand between ("not caused by a CUDA
 * OOM", "no longer OOM"), and what denies an OOM named before it ("OOM is not the
 * problem here", "OOMではない", "OOM이 아닙니다"). Chinese writes the
 * negation right before, without a blank ("不是OOM"). */
static const char *const deny_words[] = {"not", "no", "never", "without", "nor", "avoid",
    "recovering", "recovered", "recover" /* "Recovering from OOM error; New batch size: 8",
    Rudrabha/Wav2Lip#234 = h18-60 (diagrec5) */,
    "avoids", "avoiding", "prevent", "prevents", "preventing", "before", "previously",
    "formerly", "fixed", "solved", "resolved", "recovering", "recovered", "n\xc3\xa3o", "N\xc3\xa3o", "sem",
    "nunca", "kein", "keine", "keinen", "nicht", "\xd0\xbd\xd0\xb5", "\xd0\x9d\xd0\xb5",
    "\xd0\xbd\xd0\xb5\xd1\x82", "\xd0\xb1\xd0\xb5\xd0\xb7",
    /* the contractions typed without their apostrophe ("it wouldnt run into
     * OOM", sgl-project/sglang#2607) (diagcall9) */
    "dont", "doesnt", "didnt", "wont", "wouldnt", "cant", "couldnt", "isnt", "wasnt", "arent",
    "werent", "havent", "hasnt", "hadnt", "shouldnt", NULL};
/* The plain negations of deny_words (negated_before): not the past or
 * mending words, which say an OOM was there. */
static const char *const negation_only[] = {"not", "no", "never", "without", "nor", "dont",
    "doesnt", "didnt", "isnt", "wasnt", NULL};
static const char *const deny_between[] = {"a", "an", "the", "any", "really", "actually",
    "due", "to", "caused", "by", "because", "of", "from", "related", "just", "simply", "it",
    "is", "was", "\xc3\xa9", "es", "ist", "um", "uma", "ein", "eine", "einen", "cuda", "gpu",
    "vram", "real", "longer", "run", "runs", "ran", "had", "have", "has",
    /* the verbs of meeting one: "doesn't run into OOM", "I don't get OOM",
     * "never hit an OOM", "did not see any CUDA OOM" (diagcall9) */
    "into", "get", "gets", "got", "hit", "hits", "see", "saw", "seen",
    "encounter", "encountered", "face", "faced",
    /* ... and of receiving one: "and not receive the SIGKILL(9) error"
     * (bitsandbytes-foundation/bitsandbytes#1252 = heldout50 h50-16) */
    "receive", "receives", "received",
    /* ... and the verbs of seeming, a copula's hedge that still denies:
     * "Does not seem to be an OOM but rather some other kind of memory
     * access bug" (NVIDIA/cuml#4984 = heldout70 h70-57), "does not look
     * like an OOM", "doesn't appear to be OOM" (open70) */
    "seem", "seems", "seemed", "be", "look", "looks", "looked", "like", "appear", "appears",
    "appeared", NULL};
/* Words that may stand between a plain negation (negation_only, "n't")
 * and the OOM, but not between another deny word and it: the progressive
 * of running out ("So it's not running out of memory.",
 * GrandaddyShmax/audiocraft_plus#16 = heldout74 h74-11; "isn't running out
 * of VRAM") is denied, while "before running out of memory" names a limit
 * reached ("can only handle 10 images at once before running out of
 * memory", heldout30 h30-77, a GPU OOM). (open74) */
static const char *const deny_between_negated[] = {"running", NULL};
static const char *const deny_cjk_before[] = {"\xe4\xb8\x8d\xe6\x98\xaf" /* 不是 */,
    "\xe6\xb2\xa1\xe6\x9c\x89" /* 没有 */, "\xe6\xb2\x92\xe6\x9c\x89" /* 沒有 */,
    "\xe5\xb9\xb6\xe9\x9d\x9e" /* 并非 */, "\xe4\xb8\x8d\xe4\xbc\x9a" /* 不会 */, NULL};
static const char *const deny_after[] = {"is not the", "isn't the", "was not the",
    "wasn't the", "is not a", "isn't a", "is not an", "is not related", "isn't related",
    "is not my", "isn't my", "is not why", "isn't why", "is not what", "isn't what",
    "\xe3\x81\xa7\xe3\x81\xaf\xe3\x81\xaa" /* ではな */,
    "\xe3\x81\xa7\xe3\x81\xaf\xe3\x81\x82\xe3\x82\x8a\xe3\x81\xbe\xe3\x81\x9b" /* ではありませ */,
    "\xe3\x81\x98\xe3\x82\x83\xe3\x81\xaa" /* じゃな */,
    "\xec\x9d\xb4 \xec\x95\x84\xeb\x8b\x88" /* 이 아니 */,
    "\xea\xb0\x80 \xec\x95\x84\xeb\x8b\x88" /* 가 아니 */,
    "\xeb\x8a\x94 \xec\x95\x84\xeb\x8b\x88" /* 는 아니 */, NULL};
/* Words that make the rest of their clause hypothetical, however far back
 * ("If you get CUDA OOM, ...", "to avoid running into CUDA OOM"). */
static const char *const deny_clause[] = {"if", "unless", "whether", "avoid", "avoids",
    "avoiding", "prevent", "prevents", "preventing", "se", "falls", "wenn", "could", "might",
    "may", "maybe", "perhaps",
    "probably" /* a guess, like "perhaps": a maintainer's "You probably ran into OOM there"
    over a paste that shows no OOM (diagcall6) */,
    "can" /* "The problem may be that the GPU memory is not
    enough" (heldout12 h12-12); "This can cause problems when insufficient GPU memory is
    available" (heldout17 h17-41) (diagrec5) */,
    "thought" /* a guess, in its clause only: "Originally I thought it is due to out of
    memory." (JialianW/TraDeS#32 = heldout25 h25-72), not "I thought ..., but it ran out
    of memory" (diagctx2) */, NULL};
static const char *const deny_after_skip[] = {"error", "errors", "issue", "issues", "problem",
    "here", NULL};
/* Words that put what follows them within DENY_NEAR_WORDS in its clause
 * out of the facts, whatever stands between: what did not happen ("fails
 * with a device lost error instead of gracefully raising an out-of-memory
 * exception", "a hang rather than a CUDA OOM") and what might ("has a risk
 * of out of memory", "risks running out of GPU memory"). Only before the
 * OOM: "an OOM instead of the result" is an OOM. (diagcall5) */
static const char *const deny_near_before[] = {"instead", "rather", "risk", "risks",
    "risking", NULL};
#define DENY_NEAR_WORDS 5

/* w[0..n) is one of set's words, in any case, set ending at its NULL
 * (strbuf_word_in; a rule's qualifier array may be full, with no NULL
 * after it: is_qualifier passes its size) */
static bool word_in(const char *w, size_t n, const char *const *set)
{
    return strbuf_word_in(w, n, set, SIZE_MAX);
}

static bool is_qualifier(const struct msg_rule *r, const char *w, size_t n)
{
    return strbuf_word_in(w, n, r->qualifier, MSG_QUALIFIER_MAX);
}

static bool ends_with(const char *w, size_t n, const char *suffix)
{
    size_t m = strlen(suffix);
    return n >= m && !memcmp(w + n - m, suffix, m);
}

static bool is_blank(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '*' || c == '`' || c == '_';
}

/* "can only" states a limit seen, not a possibility: "My GPU can only
 * handle 10 images at once before running out of memory" reports the OOM
 * past it (as "The problem can be that ..." does not). w[0..n) is a word of
 * text. (diagcall5) */
static bool limit_can(const char *text, size_t len, const char *w, size_t n)
{
    if (n != 3 || strncasecmp(w, "can", 3)) return false;
    size_t i = (size_t)(w - text) + n;
    while (i < len && text[i] == ' ') i++;
    return len - i >= 4 && !strncasecmp(text + i, "only", 4) &&
           (len - i == 4 || !isalnum((unsigned char)text[i + 4]));
}

/* A condition whose subject is the OOM itself supposes one: "If any CUDA
 * out of memory error occurs on a small image, this might be the cause" (a
 * report on a resize setting), "in case of CUDA OOM the worker restarts", "if
 * there is insufficient VRAM" (design notes, advice). The words between the
 * condition and the OOM are determiners and the device's only; a condition
 * on the user's own action ("If I use 4 GPUs I get CUDA out of memory") is
 * a report, and "when" tells what happened ("When I start training the GPU
 * runs out of memory"). (diagprose) */
static const char *const cond_words[] = {"if", "whenever", "unless", NULL};
static const char *const cond_fillers[] = {"a", "an", "any", "the", "some", "there", "is",
    "are", "of", "cuda", "gpu", "gpus", "hip", "xpu", "vram", "device", NULL};

/* ... and advice to the reader, whose condition is the reader meeting the
 * OOM: "If you are getting CUDA out of memory errors, you should reduce the
 * size of your batch by setting `--max-tokens`" (a maintainer's reply
 * quoted over another failure, facebookresearch/fairseq#1191), "if you
 * still see CUDA OOM, lower the batch". The verbs count only with "you"
 * right after the condition; "If I use 4 GPUs I get ..." stays a report. */
static const char *const cond_you_verbs[] = {"still", "ever", "keep", "get", "getting",
    "got", "see", "seeing", "encounter", "encountering", "hit", "hitting", "run", "running",
    "into", "experience", "experiencing", "face", "facing", "receive", "receiving", NULL};

static bool cond_subject(const char *text, size_t at)
{
    size_t i = at;
    bool you_verb = false; /* a verb of cond_you_verbs stood between */
    const char *after_cond = NULL; /* the word walked before the condition's */
    size_t after_cond_n = 0;
    for (int words = 0; words < 9; words++) {
        while (i > 0 && is_blank((unsigned char)text[i - 1])) i--;
        if (i == 0 || clause_mark((unsigned char)text[i - 1]) || cjk_mark_before(text, i)) return false;
        size_t we = i;
        while (i > 0 && !is_blank((unsigned char)text[i - 1]) &&
               !clause_mark((unsigned char)text[i - 1]) && !cjk_mark_before(text, i))
            i--;
        const char *w = text + i;
        size_t n = we - i;
        if (word_in(w, n, cond_words))
            return !you_verb || (after_cond_n == 3 && !strncasecmp(after_cond, "you", 3));
        if (n == 4 && !strncasecmp(w, "case", 4)) /* "in case of" */
            return !you_verb && i >= 3 && !strncasecmp(text + i - 3, "in", 2) &&
                   is_blank((unsigned char)text[i - 1]);
        if (word_in(w, n, cond_you_verbs) || (n == 3 && !strncasecmp(w, "you", 3)))
            you_verb = true;
        else if (!word_in(w, n, cond_fillers))
            return false;
        after_cond = w, after_cond_n = n;
    }
    return false;
}

/* Words that make the rest of their clause hypothetical in Chinese,
 * Japanese and Korean, as deny_clause's "avoid", "prevent" and "if" do in
 * English: 为了避免显存溢出 ("to avoid VRAM overflow", a code comment's or
 * advice's words), 防止显存爆炸, 如果显存不足 ("if VRAM runs short, reduce the
 * batch"), VRAM不足を避ける, VRAM 부족 방지, and a guess (大概率, 可能). CJK text has no blanks between
 * words, so they are looked for anywhere in the clause before the OOM words.
 * (diagprose) */
static const char *const deny_cjk_clause[] = {"\xe9\x81\xbf\xe5\x85\x8d" /* 避免 */, "\xe9\x98\xb2\xe6\xad\xa2" /* 防止 */,
    "\xe4\xbb\xa5\xe5\x85\x8d" /* 以免 */, "\xe4\xbb\xa5\xe9\x98\xb2" /* 以防 */, "\xe9\xa2\x84\xe9\x98\xb2" /* 预防 */, "\xe9\xa0\x90\xe9\x98\xb2" /* 預防 */,
    "\xe5\xa6\x82\xe6\x9e\x9c" /* 如果 */, "\xe5\x81\x87\xe5\xa6\x82" /* 假如 */, "\xe4\xb8\x87\xe4\xb8\x80" /* 万一 */, "\xe8\x90\xac\xe4\xb8\x80" /* 萬一 */,
    "\xe9\x81\xbf\xe3\x81\x91" /* 避け */, "\xe5\x9b\x9e\xe9\x81\xbf" /* 回避 */, "\xe9\x98\xb2\xe3\x81\x90" /* 防ぐ */, "\xe3\x82\x82\xe3\x81\x97" /* もし */,
    "\xeb\xb0\xa9\xec\xa7\x80" /* 방지 */, "\xed\x94\xbc\xed\x95\x98" /* 피하 */, "\xeb\xa7\x8c\xec\x95\xbd" /* 만약 */,
    /* ... and a guess, as "probably", "may", "might" in English: "总结：大概率是你显存
     * 炸了" ("most likely your VRAM blew up", a reply over a cuDNN internal
     * error) */
    "\xe5\xa4\xa7\xe6\xa6\x82\xe7\x8e\x87" /* 大概率 (not 大概, which is also "about" before a size: "大概8GB的显存") */,
    "\xe5\x8f\xaf\xe8\x83\xbd" /* 可能 */, "\xe4\xb9\x9f\xe8\xae\xb8" /* 也许 */, "\xe4\xb9\x9f\xe8\xa8\xb1" /* 也許 */,
    /* a rule of thumb, not what happened: "一般来说是显存不够的问题" ("generally
     * it is a matter of too little VRAM", a maintainer's reply under an
     * illegal memory access, heldout41 h41-70) (diagopen41) */
    "\xe4\xb8\x80\xe8\x88\xac\xe6\x9d\xa5\xe8\xaf\xb4" /* 一般来说 */, "\xe4\xb8\x80\xe8\x88\xac\xe4\xbe\x86\xe8\xaa\xaa" /* 一般來說 */,
    "\xe4\xb8\x80\xe8\x88\xac\xe6\x83\x85\xe5\x86\xb5\xe4\xb8\x8b" /* 一般情况下 */,
    "\xe6\x88\x96\xe8\xae\xb8" /* 或许 */, "\xe6\x88\x96\xe8\xa8\xb1" /* 或許 */, "\xe4\xbc\xb0\xe8\xae\xa1" /* 估计 */, "\xe5\xa4\x9a\xe5\x88\x86" /* 多分 */,
    "\xe3\x81\x9f\xe3\x81\xb6\xe3\x82\x93" /* たぶん */, "\xe3\x81\x8a\xe3\x81\x9d\xe3\x82\x89\xe3\x81\x8f" /* おそらく */, "\xe3\x81\x8b\xe3\x82\x82\xe3\x81\x97\xe3\x82\x8c" /* かもしれ */, "\xec\x95\x84\xeb\xa7\x88" /* 아마 */, NULL};

/* How far before the OOM words a CJK clause's hedge is looked for: 80
 * characters. Unbounded, a 64 KiB line of "not out of memory not out of
 * memory ..." (no clause mark) walked back to its start from every hit,
 * for every rule with deny: 23 s for 72 KB. */
#define CJK_CLAUSE_BACK 240

static bool cjk_clause_denied(const char *text, size_t len, size_t at, size_t end)
{
    size_t a = at, stop = at > CJK_CLAUSE_BACK ? at - CJK_CLAUSE_BACK : 0;
    while (a > stop && !clause_mark((unsigned char)text[a - 1]) && !cjk_mark_before(text, a)) a--;
    /* right after the words, past a blank and one particle (VRAM不足を避ける,
     * VRAM 부족 방지) */
    size_t after[3] = {end, end, end};
    if (after[1] < len && text[after[1]] == ' ') after[1]++, after[2]++;
    if (after[2] + 3 <= len && (unsigned char)text[after[2]] >= 0xe0) after[2] += 3;
    for (size_t k = 0; deny_cjk_clause[k]; k++) {
        size_t m = strlen(deny_cjk_clause[k]);
        if (memmem(text + a, at - a, deny_cjk_clause[k], m)) return true;
        for (int i = 0; i < 3; i++)
            if (after[i] + m <= len && !memcmp(text + after[i], deny_cjk_clause[k], m)) return true;
    }
    return false;
}

/* "otherwise" makes what follows it a consequence supposed, not seen:
 * "I cannot increase the max tokens otherwise it gives CUDA oom error"
 * (facebookresearch/fairseq#1191, over an assertion), "otherwise you will
 * get a CUDA OOM". With the writer as its subject it tells what the
 * writer's runs do ("otherwise i'll get an out of memory error"), as
 * mention.c's own_experience reads it. w[0..n) is a word of text. */
static bool otherwise_hedge(const char *text, size_t len, const char *w, size_t n)
{
    static const char *const first_person[] = {"i", "we", "i'll", "we'll", "i'd", "we'd",
        "i\xe2\x80\x99ll", "we\xe2\x80\x99ll", NULL};
    if (n != 9 || strncasecmp(w, "otherwise", 9)) return false;
    size_t i = (size_t)(w - text) + n, ws;
    while (i < len && is_blank((unsigned char)text[i])) i++;
    ws = i;
    while (i < len && !is_blank((unsigned char)text[i]) && !clause_mark((unsigned char)text[i]))
        i++;
    return !word_in(text + ws, i - ws, first_person);
}

/* A modal of possibility or consequence right before the OOM words, in
 * their clause: what the writer warns may happen, not what did. "This could
 * easily lead to `CUDA out of memory`." (a maintainer's warning), "This can
 * cause CUDA out of memory errors if the parameters don't fit on a single
 * GPU." (a doc), "Changing these might cause CUDA Out Of Memory errors."
 * The pattern, read back from the OOM words: modal_fillers*, then one of
 * modal_alone, or a modal_verbs phrase after one of modal_heads with at
 * most one modal_adverbs between. Only the base form after a modal: "which
 * leads to CUDA out of memory", "it led to" and "caused CUDA out of memory"
 * tell what happened and stay OOMs, and an error line's "RuntimeError: CUDA
 * out of memory" has its clause mark right before. Left out, as they lost
 * real OOMs on the seen sets: "will" (a title's "The second execution ...
 * will result in an OOM", h30-26, tells what each run does), "may" (a
 * report's "i found the data length may lead to cuda out of memory error",
 * h30-103), "to avoid" and "to prevent" (a title's question "how to avoid
 * cuda out of memory?", h55-10; "Solution to avoid CUDA out of memory
 * errors", h34-79: the thread's OOM happened). Each entry is words
 * separated by one blank. (diagmodal) */
static const char *const modal_heads[] = {"could", "can", "might", "would", NULL};
static const char *const modal_adverbs[] = {"easily", "also", "eventually", "quickly",
    "potentially", "possibly", "likely", "then", "sometimes", NULL};
static const char *const modal_verbs[] = {"lead to", "cause", "result in", "trigger",
    "run into", NULL};
static const char *const modal_alone[] = {"otherwise", "risk of", NULL};
static const char *const modal_gerunds[] = {"causing", "leading to", "resulting in", "triggering", NULL};
static const char *const possibility_adverbs[] = {"potentially", "possibly", NULL};
static const char *const modal_fillers[] = {"a", "an", "the", "any", "cuda", "gpu", "hip",
    "xpu", "vram", NULL};
#define MODAL_BACK 7 /* words read back: fillers, verb (2), adverb, modal */

/* Do the words back[k..] (back[0] nearest the OOM words) spell phrase,
 * read backwards? Sets *used to its word count. */
static bool modal_phrase_at(const char *const *bw, const size_t *bn, size_t nb, size_t k,
                            const char *phrase, size_t *used)
{
    const char *words[4];
    size_t lens[4], m = 0;
    for (const char *p = phrase; *p && m < 4;) {
        const char *e = strchr(p, ' ');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        words[m] = p, lens[m++] = l;
        p += l + (e ? 1 : 0);
    }
    if (k + m > nb) return false;
    for (size_t j = 0; j < m; j++) {
        size_t b = k + m - 1 - j; /* phrase word j is back word b */
        if (bn[b] != lens[j] || strncasecmp(bw[b], words[j], lens[j])) return false;
    }
    *used = m;
    return true;
}

static bool modal_in(const char *const *bw, const size_t *bn, size_t nb, size_t k,
                     const char *const *set, size_t *used)
{
    for (size_t s = 0; set[s]; s++)
        if (modal_phrase_at(bw, bn, nb, k, set[s], used)) return true;
    return false;
}

static bool modal_before(const char *text, size_t at)
{
    const char *bw[MODAL_BACK];
    size_t bn[MODAL_BACK], nb = 0, i = at;
    while (nb < MODAL_BACK) {
        while (i > 0 && is_blank((unsigned char)text[i - 1])) i--;
        if (i == 0 || clause_mark((unsigned char)text[i - 1])) break;
        size_t we = i;
        while (i > 0 && !is_blank((unsigned char)text[i - 1]) &&
               !clause_mark((unsigned char)text[i - 1]))
            i--;
        bw[nb] = text + i, bn[nb++] = we - i;
    }
    size_t k = 0, used = 0;
    while (k < nb && word_in(bw[k], bn[k], modal_fillers)) k++;
    if (modal_in(bw, bn, nb, k, modal_alone, &used)) return true;
    /* an adverb of possibility before the verb's gerund, the modal's
     * hedge without a modal ("... more memory than available, potentially
     * causing out of memory errors", a training toolkit's batch-size
     * warning, openvinotoolkit/training_extensions:otx/algorithms/anomaly/
     * configs/base/draem/configuration.py@a4908a0e; mention.c's
     * possible_consequence reads the prose mentions) (open46) */
    if (modal_in(bw, bn, nb, k, modal_gerunds, &used) && k + used < nb &&
        word_in(bw[k + used], bn[k + used], possibility_adverbs))
        return true;
    if (!modal_in(bw, bn, nb, k, modal_verbs, &used)) return false;
    k += used;
    if (k < nb && word_in(bw[k], bn[k], modal_adverbs)) k++;
    if (k >= nb) return false;
    /* the head may be the letters a glued wrap put after a number
     * (scan.c glue_previous: a link's "...pipeline.py#L110" / "could
     * easily lead to `CUDA out of memory` problems.", giotto-ai/giotto-
     * deep#44 = heldout56 h56-64) */
    size_t t = bn[k];
    while (t > 0 && isalpha((unsigned char)bw[k][t - 1])) t--;
    if (t > 0 && isdigit((unsigned char)bw[k][t - 1]))
        return word_in(bw[k] + t, bn[k] - t, modal_heads);
    return word_in(bw[k], bn[k], modal_heads);
}

/* Is the OOM named at text[at, end) denied in its clause? */
static bool denied(const char *text, size_t len, size_t at, size_t end)
{
    if (cond_subject(text, at) || cjk_clause_denied(text, len, at, end)) return true;
    size_t i = at;
    bool adjacent = true; /* only deny_between words so far */
    bool negation_needed = false; /* a deny_between_negated word passed */
    for (int words = 0; words < 12; words++) {
        while (i > 0 && is_blank((unsigned char)text[i - 1])) i--;
        /* an exception's class named before it stays in the clause: "If
         * you get OSError: No space left on device, ..." */
        if (i > 0 && text[i - 1] == ':' && (ends_with(text, i - 1, "Error") ||
                                            ends_with(text, i - 1, "Exception")))
            i--;
        if (i == 0 || clause_mark((unsigned char)text[i - 1]) || cjk_mark_before(text, i)) break;
        size_t we = i;
        while (i > 0 && !is_blank((unsigned char)text[i - 1]) &&
               !clause_mark((unsigned char)text[i - 1]) && !cjk_mark_before(text, i))
            i--;
        const char *w = text + i;
        size_t n = we - i;
        if (word_in(w, n, deny_clause) && !limit_can(text, len, w, n)) return true;
        if (otherwise_hedge(text, len, w, n)) return true;
        if (words < DENY_NEAR_WORDS && word_in(w, n, deny_near_before)) return true;
        if (!adjacent || words >= 6) continue;
        if (ends_with(w, n, "n't") || ends_with(w, n, "n\xe2\x80\x99t") ||
            word_in(w, n, negation_only))
            return true;
        if (word_in(w, n, deny_between_negated)) {
            negation_needed = true;
            continue;
        }
        if (negation_needed) {
            if (!word_in(w, n, deny_between)) adjacent = false;
            continue;
        }
        if (word_in(w, n, deny_words)) return true;
        for (size_t k = 0; deny_cjk_before[k]; k++)
            if (ends_with(w, n, deny_cjk_before[k])) return true;
        if (!word_in(w, n, deny_between)) adjacent = false;
    }
    size_t j = end;
    while (j < len && isalnum((unsigned char)text[j])) j++; /* the rest of "memmory" */
    for (int words = 0; words < 3; words++) {
        while (j < len && is_blank((unsigned char)text[j])) j++;
        for (size_t k = 0; deny_after[k]; k++) {
            size_t m = strlen(deny_after[k]);
            if (len - j >= m && !strncasecmp(text + j, deny_after[k], m)) return true;
        }
        size_t ws = j;
        while (j < len && isalpha((unsigned char)text[j])) j++;
        if (j == ws || !word_in(text + ws, j - ws, deny_after_skip)) break;
    }
    return false;
}

/* A negation right before text[at], only deny_between words apart, in the
 * same clause: "There is no CUDA out of memory error", "I did not get CUDA
 * out of memory". The near part of denied() alone: no hypothetical clause,
 * no question ("how to avoid cuda out of memory?" asks about a real one).
 * (open58) */
static bool negated_before(const char *text, size_t at)
{
    size_t i = at;
    for (int words = 0; words < 6; words++) {
        while (i > 0 && is_blank((unsigned char)text[i - 1])) i--;
        if (i == 0 || clause_mark((unsigned char)text[i - 1]) || cjk_mark_before(text, i)) return false;
        size_t we = i;
        while (i > 0 && !is_blank((unsigned char)text[i - 1]) &&
               !clause_mark((unsigned char)text[i - 1]) && !cjk_mark_before(text, i))
            i--;
        const char *w = text + i;
        size_t n = we - i;
        if (word_in(w, n, negation_only) || ends_with(w, n, "n't") || ends_with(w, n, "n\xe2\x80\x99t"))
            return true;
        if (!word_in(w, n, deny_between)) return false;
    }
    return false;
}

bool msg_denied(const char *text, size_t len, size_t at, size_t end)
{
    return denied(text, len, at, end) || modal_before(text, at);
}

/* One of the rule's qualifiers stands right before text[at] (see msg.h),
 * or before the word "error" there, in any case and spacing ("CUDA Error:
 * out of memory", "Cuda error - out of memory"); text after a CJK hit may
 * be glued to it. */
static bool qualified(const struct msg_rule *r, const char *text, size_t at)
{
    size_t i = at;
    for (int round = 0; round < 2; round++) {
        size_t gap = 0;
        while (i > 0 && (text[i - 1] == ' ' || text[i - 1] == '-' || text[i - 1] == '_' ||
                         (round == 0 && text[i - 1] == ':')))
            i--, gap++;
        if (!gap && (round > 0 || (unsigned char)text[at] < 0x80)) return false; /* "CUDA内存不足" */
        size_t we = i;
        while (i > 0 && isalnum((unsigned char)text[i - 1])) i--; /* "V100", "4090" */
        if (is_qualifier(r, text + i, we - i)) return true;
        if (round > 0 || we - i != 5 || strncasecmp(text + i, "error", 5)) return false;
    }
    return false;
}

/* Or the device is named right after, in the same clause: the rest of the
 * OOM word, then within six words "on", "in", "with" or "for" and a
 * qualifier within three more ("Out of mem on 6GB VRAM", johnman3032/simple-lora-
 * dreambooth-trainer#2; "out of memory error on the GPU"; "Training memory
 * error for RTX 3090 24g", bmaltais/kohya_ss#1407 = heldout51 h51-07). A
 * later one counts afresh ("memory error for batch 8 on the GPU"). */
static bool qualified_after(const struct msg_rule *r, const char *text, size_t len, size_t from)
{
    static const char *const preps[] = {"on", "in", "with", "for", NULL};
    size_t i = from;
    while (i > 0 && i < len && isalpha((unsigned char)text[i - 1]) && isalpha((unsigned char)text[i]))
        i++; /* the rest of the word: "out of memo|ry" */
    int after_prep = -1;
    for (int words = 0; words < 9 && i < len; words++) {
        while (i < len && (text[i] == ' ' || text[i] == '"' || text[i] == '`' || text[i] == '\''))
            i++;
        size_t w = i;
        while (i < len && isalnum((unsigned char)text[i])) i++;
        if (i == w) return false; /* punctuation or the line's end: the clause ends */
        if (after_prep >= 0 && is_qualifier(r, text + w, i - w)) return true;
        if (words <= 6 && word_in(text + w, i - w, preps)) {
            after_prep = 0;
            continue;
        }
        if (after_prep >= 0 && ++after_prep > 3) return false;
        if (after_prep < 0 && words >= 6) return false;
    }
    return false;
}

/* One of set's words (any case) stands within span words of text[at, end)
 * in its clause, before or after (words are runs of letters and digits;
 * what stands between them, other than a clause mark, is skipped). */
static bool word_near(const char *const *set, size_t cap, const char *text, size_t len,
                      size_t at, size_t end, int span)
{
    size_t i = at;
    for (int words = 0; words < span; words++) {
        while (i > 0 && !isalnum((unsigned char)text[i - 1]) &&
               !clause_mark((unsigned char)text[i - 1]) && !cjk_mark_before(text, i))
            i--;
        if (i == 0 || !isalnum((unsigned char)text[i - 1])) break;
        size_t we = i;
        while (i > 0 && isalnum((unsigned char)text[i - 1])) i--;
        if (strbuf_word_in(text + i, we - i, set, cap)) return true;
    }
    size_t j = end;
    while (j < len && isalnum((unsigned char)text[j])) j++; /* the rest of the word */
    for (int words = 0; words < span; words++) {
        while (j < len && !isalnum((unsigned char)text[j]) && !clause_mark((unsigned char)text[j]) &&
               !(j + 3 <= len && cjk_mark_before(text, j + 3)))
            j++;
        if (j >= len || !isalnum((unsigned char)text[j])) break;
        size_t ws = j;
        while (j < len && isalnum((unsigned char)text[j])) j++;
        if (strbuf_word_in(text + ws, j - ws, set, cap)) return true;
    }
    return false;
}

/* One of set[] (any case) is a whole word before text[at] in its sentence:
 * on its line, after no ';' and no '.', '!' or '?' that ends a sentence
 * (one before a blank; "optimizer.step" goes on). */
static bool word_earlier_on_line(const char *text, size_t at, const char *const *set, size_t cap)
{
    size_t i = at;
    while (i > 0 && text[i - 1] != '\n') {
        while (i > 0 && text[i - 1] != '\n' && !isalnum((unsigned char)text[i - 1])) {
            char c = text[i - 1];
            if (c == ';' || ((c == '.' || c == '!' || c == '?') && i < at && text[i] == ' ')) return false;
            i--;
        }
        size_t we = i;
        while (i > 0 && isalnum((unsigned char)text[i - 1])) i--;
        if (we > i && strbuf_word_in(text + i, we - i, set, cap)) return true;
    }
    return false;
}

/* The device (and what ran short) named around the hit, for a rule with a
 * qualifier_span. */
static bool qualified_near(const struct msg_rule *r, const char *text, size_t len, size_t at,
                           size_t end)
{
    int span = r->qualifier_span;
    if (!word_near(r->qualifier, MSG_QUALIFIER_MAX, text, len, at, end, span)) return false;
    return !r->also[0] || word_near(r->also, sizeof r->also / sizeof r->also[0], text, len, at,
                                    end, span);
}

static bool rule_has(const struct msg_rule *r, const char *text, size_t len, const char *lit)
{
    if (!r->qualifier[0] && !r->deny && !r->negated && !r->end_not && !r->supposed && !r->not_after[0])
        return r->word_end || r->word ? has_word(text, len, lit, r->word) : has(text, len, lit);
    size_t ll = strlen(lit);
    for (const char *p = text, *end = text + len; (size_t)(end - p) >= ll;) {
        const char *hit = memmem(p, (size_t)(end - p), lit, ll);
        if (!hit) return false;
        p = hit + 1;
        size_t at = (size_t)(hit - text);
        if ((r->word || r->word_start) && hit > text && isalnum((unsigned char)hit[-1])) continue;
        while (at > 0 && isalpha((unsigned char)text[at - 1]) && isalpha((unsigned char)text[at]))
            at--; /* a string that starts inside its word ("(m)emory allocation"): from its start */
        if ((r->word || r->word_end) && hit + ll < end && isalnum((unsigned char)hit[ll])) continue;
        if (r->end_not && hit + ll < end && hit[ll] && strchr(r->end_not, hit[ll])) continue;
        if (r->not_after[0] &&
            strbuf_word_before(text, at, r->not_after, sizeof r->not_after / sizeof r->not_after[0]) &&
            word_earlier_on_line(text, at, r->moved_by, sizeof r->moved_by / sizeof r->moved_by[0]))
            continue;
        size_t hit_end = (size_t)(hit - text) + ll;
        if (r->qualifier[0] && r->qualifier_span > 0) {
            if (!qualified_near(r, text, len, at, hit_end)) continue;
        } else if (r->qualifier[0] && !qualified(r, text, at) &&
                   !qualified_after(r, text, len, hit_end))
            continue;
        if (r->deny && (denied(text, len, at, hit_end) || modal_before(text, at))) continue;
        if (r->supposed && (cond_subject(text, at) || modal_before(text, at))) continue;
        if (r->negated && negated_before(text, at)) continue;
        if (r->standalone && mention_row_guarded(text, len, at, hit_end)) continue;
        return true;
    }
    return false;
}

#define SENTENCE_LEN 64   /* a sentence_case rule's any[] strings are shorter */
#define SENTENCE_FORMS 64 /* and fewer, all rules together */

/* lit with its first letter in capitals into buf, for a sentence_case
 * rule; NULL when lit does not start in lower case (or does not fit). */
static const char *sentence_form(const struct msg_rule *r, const char *lit, char *buf, size_t size)
{
    size_t n = strlen(lit);
    if (!r->sentence_case || !islower((unsigned char)lit[0]) || n >= size) return NULL;
    memcpy(buf, lit, n + 1);
    buf[0] = (char)toupper((unsigned char)buf[0]);
    return buf;
}

/* One of the rule's any[] strings, as written or in its sentence form. */
static bool rule_has_any(const struct msg_rule *r, const char *text, size_t len, const char *lit)
{
    if (rule_has(r, text, len, lit)) return true;
    char buf[SENTENCE_LEN];
    const char *capital = sentence_form(r, lit, buf, sizeof buf);
    return capital && rule_has(r, text, len, capital);
}

/* ---- anchors, derived from the rules ----------------------------------- */

static bool covered(const char *s, const char *const *set, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strstr(s, set[i])) return true;
    return false;
}

static size_t add_anchor(const char *a, const char **out, size_t n, size_t cap)
{
    if (covered(a, out, n)) return n;
    /* A shorter string now covers longer ones already in: drop those. */
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!strstr(out[i], a)) out[k++] = out[i];
    if (k < cap) out[k++] = a;
    return k;
}

/* The sentence forms of the sentence_case rules' strings, anchors too
 * (test_diagnose_msg checks that the scan finds each). */
static char sentence_forms[SENTENCE_FORMS][SENTENCE_LEN];

/* English contractions: a rule string's apostrophe between letters
 * ("couldn't", "can't", "isn't") is also met by the typographic one, U+2019
 * ("couldn\u2019t"), which editors, chat tools and forum software put in
 * pasted text. msg_classify reads such a text with its typographic
 * apostrophes made straight, and each anchor with a straight one has a
 * typographic twin, so every row with a contraction takes both. */
#define CURLY "\xe2\x80\x99"
#define CURLY_FORMS 16
#define CURLY_LEN 96
static char curly_forms[CURLY_FORMS][CURLY_LEN];

/* Does text[i] hold an apostrophe between letters (straight: 1 byte;
 * typographic: 3)? Its length, else 0. */
static size_t contraction_at(const char *text, size_t len, size_t i)
{
    if (i == 0 || !isalpha((unsigned char)text[i - 1])) return 0;
    size_t n = text[i] == '\'' ? 1 : i + 3 <= len && !memcmp(text + i, CURLY, 3) ? 3 : 0;
    return n && i + n < len && isalpha((unsigned char)text[i + n]) ? n : 0;
}

/* lit with its contractions' apostrophes typographic into buf; NULL when it
 * has none (or does not fit). */
static const char *curly_form(const char *lit, char *buf, size_t size)
{
    size_t n = strlen(lit), k = 0;
    bool any = false;
    for (size_t i = 0; i < n; i++) {
        if (k + 4 > size) return NULL;
        if (contraction_at(lit, n, i) == 1) {
            memcpy(buf + k, CURLY, 3);
            k += 3;
            any = true;
        } else
            buf[k++] = lit[i];
    }
    buf[k] = '\0';
    return any ? buf : NULL;
}

/* A rule is found through one of its strings: every any[] string (any one
 * may be the only one present) and its sentence form, else its longest
 * need[] string. A string that contains another anchor needs no anchor of
 * its own. An anchor with a contraction has its typographic twin too. */
static size_t anchors_derive(const char **out, size_t cap)
{
    size_t n = 0, forms = 0;
    for (const struct msg_rule *r = rules; r->kind; r++)
        for (size_t i = 0; i < MSG_ANY_MAX && r->any[i]; i++) {
            n = add_anchor(r->any[i], out, n, cap);
            if (forms < SENTENCE_FORMS &&
                sentence_form(r, r->any[i], sentence_forms[forms], SENTENCE_LEN))
                n = add_anchor(sentence_forms[forms++], out, n, cap);
        }
    for (const struct msg_rule *r = rules; r->kind; r++) {
        if (r->any[0]) continue;
        const char *best = NULL;
        bool done = false;
        for (size_t i = 0; i < 3 && r->need[i] && !done; i++) {
            done = covered(r->need[i], out, n);
            if (!best || strlen(r->need[i]) > strlen(best)) best = r->need[i];
        }
        if (!done && best) n = add_anchor(best, out, n, cap);
    }
    /* the twins: neither covers nor is covered by another anchor (the
     * straight form would be), so the list holds still as they go in */
    size_t straight = n, forms_c = 0;
    for (size_t i = 0; i < straight && forms_c < CURLY_FORMS; i++)
        if (curly_form(out[i], curly_forms[forms_c], CURLY_LEN))
            n = add_anchor(curly_forms[forms_c++], out, n, cap);
    return n;
}

/* Derived once: the rules are constant, and the derivation (a strstr per
 * rule string and anchor) cost more than scanning a short log. Derived with
 * room to spare, so that a count past the scan's table shows in
 * msg_anchors_build's answer (test_diagnose_msg) instead of being cut
 * while shorter anchors are still to come (two branches each under 256
 * made 259 together, and the cut one's rules no longer fired). */
static const char *anchors[2 * MSG_ANCHORS_MAX];
static size_t n_anchors;
static pthread_once_t anchors_once = PTHREAD_ONCE_INIT;

static void anchors_init(void)
{
    n_anchors = anchors_derive(anchors, 2 * MSG_ANCHORS_MAX);
}

size_t msg_anchors_build(const char **out, size_t cap)
{
    pthread_once(&anchors_once, anchors_init);
    size_t n = n_anchors < cap ? n_anchors : cap;
    memcpy(out, anchors, n * sizeof *out);
    return n;
}

size_t msg_rules_count(void)
{
    size_t n = 0;
    while (rules[n].kind) n++;
    return n;
}

const struct msg_rule *msg_rule_at(size_t i)
{
    return i < msg_rules_count() ? &rules[i] : NULL;
}

bool msg_kind_oom_symptom(const char *kind)
{
    for (const struct msg_rule *r = rules; r->kind; r++)
        if (r->oom_symptom && !strcmp(r->kind, kind)) return true;
    return false;
}

/* The rows flagged not_failure (TF's allocator retry, a candidate kernel
 * dropped by autotuning); not CUDA.jl's retry: a title over its recovered
 * retries names those (heldout20 h20-05). */
bool msg_kind_answers_oom(const char *kind)
{
    for (const struct msg_rule *r = rules; r->kind; r++)
        if (r->answers_oom && !strcmp(r->kind, kind)) return true;
    return false;
}

bool msg_kind_recovers(const char *kind)
{
    for (const struct msg_rule *r = rules; r->kind; r++)
        if (r->recovers && !strcmp(r->kind, kind)) return true;
    return false;
}

bool msg_kind_not_a_failure(const char *kind)
{
    for (const struct msg_rule *r = rules; r->kind; r++)
        if (r->not_failure && !strcmp(r->kind, kind)) return true;
    return false;
}

/* The byte pairs a text holds, one bit each. A rule string one of whose
 * pairs the text lacks cannot occur in it, so msg_classify rules out most
 * of its rules without a memmem: it runs on every line an anchor hits,
 * several times over a wrapped one, and a log of thousands of "out of
 * memory" lines once spent a millisecond on each in memmem's set-up. */
struct byte_pairs {
    uint64_t bit[65536 / 64];
};

static void byte_pairs_of(const char *text, size_t len, struct byte_pairs *bp)
{
    memset(bp, 0, sizeof *bp);
    for (size_t i = 1; i < len; i++) {
        unsigned pair = (unsigned)(unsigned char)text[i - 1] << 8 | (unsigned char)text[i];
        bp->bit[pair / 64] |= UINT64_C(1) << (pair % 64);
    }
}

/* False only where lit's first n bytes (2 or more) cannot occur in the text. */
static bool byte_pairs_may_hold_n(const struct byte_pairs *bp, const char *lit, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        unsigned pair = (unsigned)(unsigned char)lit[i - 1] << 8 | (unsigned char)lit[i];
        if (!(bp->bit[pair / 64] & UINT64_C(1) << (pair % 64))) return false;
    }
    return true;
}

/* False only where lit (2 bytes or more) cannot occur in the text. */
static bool byte_pairs_may_hold(const struct byte_pairs *bp, const char *lit)
{
    for (size_t i = 1; lit[0] && lit[i]; i++) {
        unsigned pair = (unsigned)(unsigned char)lit[i - 1] << 8 | (unsigned char)lit[i];
        if (!(bp->bit[pair / 64] & UINT64_C(1) << (pair % 64))) return false;
    }
    return true;
}

static const struct msg_rule *classify(const char *text, size_t len);

/* text with its contractions' typographic apostrophes made straight
 * (curly_form): a copy to free, its length in *k; NULL when it has none (or
 * no memory), so a copy holds none. msg_classify and msg_extract both read
 * it, so a row found through a twin anchor reads its figures too
 * ("can\u2019t allocate N Bytes", review23). */
static char *straight_copy(const char *text, size_t len, size_t *k)
{
    if (len < 3 || !memmem(text, len, CURLY, 3)) return NULL;
    char *copy = malloc(len + 1);
    if (!copy) return NULL;
    *k = 0;
    for (size_t i = 0; i < len;) {
        size_t n = contraction_at(text, len, i);
        copy[(*k)++] = n == 3 ? '\'' : text[i];
        i += n == 3 ? 3 : 1;
    }
    copy[*k] = '\0';
    if (*k == len) { /* typographic quotes, none in a contraction */
        free(copy);
        return NULL;
    }
    return copy;
}

const struct msg_rule *msg_classify(const char *text, size_t len)
{
    size_t k;
    char *copy = straight_copy(text, len, &k);
    if (!copy) return classify(text, len);
    const struct msg_rule *r = classify(copy, k);
    free(copy);
    return r;
}

static const struct msg_rule *classify(const char *text, size_t len)
{
    struct byte_pairs bp;
    byte_pairs_of(text, len, &bp);
#define HAS(r, lit) (byte_pairs_may_hold(&bp, (lit)) && rule_has((r), text, len, (lit)))
    for (const struct msg_rule *r = rules; r->kind; r++) {
        bool ok = true;
        for (size_t i = 0; ok && i < 3 && r->need[i]; i++) ok = HAS(r, r->need[i]);
        if (!ok) continue;
        if (r->any[0]) {
            ok = false;
            /* the pairs after the first byte: a sentence form differs
             * from its string only there */
            for (size_t i = 0; !ok && i < MSG_ANY_MAX && r->any[i]; i++)
                ok = byte_pairs_may_hold(&bp, r->any[i] + (r->any[i][0] != '\0')) &&
                     rule_has_any(r, text, len, r->any[i]);
            if (!ok) continue;
        }
        if (r->unless_words)
            ok = !has_word_of(text, len, r->unless, MSG_UNLESS_MAX);
        else
            for (size_t i = 0; ok && i < MSG_UNLESS_MAX && r->unless[i]; i++)
                ok = !(byte_pairs_may_hold(&bp, r->unless[i]) && has(text, len, r->unless[i]));
        if (!ok || (r->shape && !msg_matches(r->shape, text, len))) continue;
        return r;
    }
#undef HAS
    return NULL;
}

/* ---- code that prints the words (diagcall, issue 12) ------------------- */

static bool ident_byte(char c);

/* The calls whose string argument is text a program would print, not what
 * it printed: "logger.info(\"[OOM] CUDA out of memory. Waiting 10 seconds
 * and trying again...\")" in a pull request's diff is OOM handling code
 * (facebookresearch/seamless_communication#449, h25-106). The callee's last
 * name, any module or object before it. */
static const char *const emitter_calls[] = {"print", "info", "warning", "warn", "error", "debug",
    "exception", "critical", "fatal", "log", "write", "echo", "printf", "fprintf", "puts",
    NULL};

bool msg_emitter_code(const char *text, size_t len)
{
    size_t i = 0;
    /* a diff's or a quote's marker, then the code's indentation */
    while (i < len && (text[i] == '+' || text[i] == '-' || text[i] == '>')) i++;
    while (i < len && (text[i] == ' ' || text[i] == '\t')) i++;
    /* a raise statement's exception class is an emitter too: a
     * traceback shows the frame's source line 'raise MemoryError("Error assigning %d
     * bytes" % ...)' (explosion/cymem's Pool.alloc, h34-47) above the exception it
     * raised; the line below is the message, with its figures */
    bool raise = len - i > 6 && !memcmp(text + i, "raise ", 6);
    if (raise) i += 6;
    /* a dotted callee: "logger.info", "self.log", "logging.warning", "print" */
    size_t name = i;
    while (i < len && (ident_byte(text[i]) || text[i] == '.')) {
        if (text[i] == '.') name = i + 1;
        i++;
    }
    if (i == name || i >= len || text[i] != '(') return false;
    size_t nl = i - name;
    bool emitter = raise;
    for (size_t k = 0; emitter_calls[k] && !emitter; k++)
        emitter = strlen(emitter_calls[k]) == nl && !memcmp(text + name, emitter_calls[k], nl);
    if (!emitter) return false;
    i++;
    /* its first argument a string literal: "...", f"...", r'...' */
    while (i < len && (text[i] == 'f' || text[i] == 'r' || text[i] == 'b' || text[i] == 'F' ||
                       text[i] == 'R'))
        i++;
    if (i >= len || (text[i] != '"' && text[i] != '\'')) return false;
    /* not a raise whose exception a flattened paste glued onto the same line
     * ('raise ValueError("No available memory for the cache blocks. " ValueError:
     * No available memory ...', QwenLM/Qwen3#12 = h17-42): that line is the message */
    return !raise || (!memmem(text + i, len - i, "Error: ", 7) && !memmem(text + i, len - i, "Exception: ", 11));
}

/* ---- the clause pattern matcher ---------------------------------------- */

struct pm_vals {
    int64_t size;
    int64_t size_step; /* the step of size's last stated digit in bytes, 0 not known */
    bool has_size; /* a %s was read: a byte field takes it, not a %d beside it */
    long long num[2];
    int nnum;
    int64_t shape[8];
    int shape_rank;
    int dtype_size;
};

static size_t pm_int(const char *s, size_t n, long long *out)
{
    size_t i = 0;
    bool neg = false;
    if (i < n && s[i] == '-') neg = true, i++;
    size_t d0 = i;
    long long v = 0;
    while (i < n && isdigit((unsigned char)s[i])) {
        if (v > (INT64_MAX - 9) / 10) return 0;
        v = v * 10 + (s[i] - '0');
        i++;
    }
    if (i == d0) return 0;
    *out = neg ? -v : v;
    return i;
}

/* TF 1.x's protobuf TensorShape: "dim { size: 563354 } dim { size: 256 }". */
static size_t pm_shape_proto(const char *s, size_t n, struct pm_vals *v)
{
    static const char head[] = "dim { size: ";
    size_t i = 0, end = 0;
    v->shape_rank = 0;
    while (n - i > sizeof head - 1 && memcmp(s + i, head, sizeof head - 1) == 0) {
        long long d;
        i += sizeof head - 1;
        size_t k = pm_int(s + i, n - i, &d);
        if (!k || d < 0) return 0;
        i += k;
        while (i < n && s[i] == ' ') i++;
        if (i >= n || s[i] != '}') return 0;
        if (v->shape_rank < 8) v->shape[v->shape_rank] = d;
        v->shape_rank++;
        end = ++i;
        while (i < n && s[i] == ' ') i++;
    }
    return end;
}

static size_t pm_shape(const char *s, size_t n, struct pm_vals *v)
{
    size_t i = 0;
    if (i < n && s[i] == 'd') return pm_shape_proto(s, n, v);
    if (i >= n || s[i] != '[') return 0;
    i++;
    v->shape_rank = 0;
    while (i < n) {
        long long d;
        while (i < n && s[i] == ' ') i++;
        size_t k = pm_int(s + i, n - i, &d);
        if (!k || d < 0) return 0;
        i += k;
        if (v->shape_rank < 8) v->shape[v->shape_rank] = d;
        v->shape_rank++;
        if (i < n && s[i] == ',') {
            i++;
            continue;
        }
        if (i < n && s[i] == ']') return i + 1;
        return 0;
    }
    return 0;
}

/* An integer written with thousands separators ("25,600,000", CuPy); plain
 * digits too. Groups after a comma are exactly three digits. */
static size_t pm_int_grouped(const char *s, size_t n, long long *out)
{
    size_t i = pm_int(s, n, out);
    if (!i || *out < 0) return i;
    while (i + 3 < n && s[i] == ',') {
        size_t d = 0;
        while (d < 3 && isdigit((unsigned char)s[i + 1 + d])) d++;
        if (d != 3 || (i + 4 < n && isdigit((unsigned char)s[i + 4]))) break;
        if (*out > (INT64_MAX - 999) / 1000) return 0;
        *out = *out * 1000 + (s[i + 1] - '0') * 100 + (s[i + 2] - '0') * 10 + (s[i + 3] - '0');
        i += 4;
    }
    return i;
}

/* A size read without its unit whose text goes on with letters ("20.00 Mi"
 * that a wrap cut from its "B", "4.63 Gi") or ends there ("allocate 2" /
 * "4.00 MiB"): not the figure; nor a bare fraction. A bare integer followed
 * by other text is bytes ("0;", "1073741824)"). */
/* Markdown emphasis and code marks a paste may wrap around a figure or a
 * clause: "Tried to allocate **20.00 MiB** (GPU 0; ...", "`7.79 GiB` total
 * capacity". A blank in a pattern reads past them as it reads past blanks. */
static bool pm_markup(char c)
{
    return c == '*' || c == '`';
}

/* A unitless number is no size where the text goes on with a unit's letters
 * (a wrapped "4" / "0.30 GiB"), ends there, or runs into a mark: in
 * "allocate 1**72.00 MiB" the mark splits the figure, and 1 byte would be a
 * wrong number where unknown is the truth. */
static bool size_cut(const char *s, size_t n, size_t k)
{
    if (isalpha((unsigned char)s[k - 1])) return false; /* a unit was read */
    if (memchr(s, '.', k)) return true;
    size_t j = k;
    while (j < n && s[j] == ' ') j++;
    return j == n || isalpha((unsigned char)s[j]) || pm_markup(s[j]); /* "allocate 2" / "4.00 MiB" */
}

/* "%f": "67.24/79.25 GiB" -> 67.24 GiB; consumes the fraction up to its
 * unit. Both numbers plain decimals, the unit read with the denominator. */
static size_t pm_fraction(const char *s, size_t n, struct pm_vals *v)
{
    size_t a = 0;
    while (a < n && a < 24 && (isdigit((unsigned char)s[a]) || s[a] == '.')) a++;
    if (a == 0 || !isdigit((unsigned char)s[0]) || a >= n || s[a] != '/') return 0;
    size_t j = a + 1;
    while (j < n && j - a < 24 && (isdigit((unsigned char)s[j]) || s[j] == '.')) j++;
    if (j == a + 1 || !isdigit((unsigned char)s[a + 1])) return 0;
    int64_t whole;
    bool sat = false;
    size_t k = units_parse_size(s + a + 1, n - a - 1, UNITS_KB_IS_1024, &whole, &sat);
    if (!k || a + 1 + k <= j || !isalpha((unsigned char)s[a + k])) return 0; /* no unit */
    char buf[64];
    size_t unit = a + 1 + k - j; /* the unit's text, blanks before it included */
    if (a + unit >= sizeof buf) return 0;
    memcpy(buf, s, a);
    memcpy(buf + a, s + j, unit);
    if (units_parse_size(buf, a + unit, UNITS_KB_IS_1024, &v->size, &sat) != a + unit) return 0;
    v->has_size = true;
    return a + 1 + k;
}

/* The step of the last digit of the size s[0..k) states, in bytes: "3.38
 * GiB" 0.01 GiB, "3630170112 bytes" or a bare count 1; 0 where it cannot
 * be told (an exponent, a form the rewrite does not read back alike). */
static int64_t size_step(const char *s, size_t k)
{
    size_t i = 0;
    while (i < k && (s[i] == ' ' || s[i] == '\t')) i++;
    while (i < k && isdigit((unsigned char)s[i])) i++;
    int decimals = 0;
    if (i < k && s[i] == '.')
        for (i++; i < k && isdigit((unsigned char)s[i]); i++) decimals++;
    if (i < k && (s[i] == 'e' || s[i] == 'E') && i + 1 < k &&
        (isdigit((unsigned char)s[i + 1]) || s[i + 1] == '-' || s[i + 1] == '+'))
        return 0;
    char buf[64];
    size_t b = 0;
    if (decimals) {
        if ((size_t)decimals + 2 >= sizeof buf / 2) return 0;
        buf[b++] = '0', buf[b++] = '.';
        for (int d = 1; d < decimals; d++) buf[b++] = '0';
    }
    buf[b++] = '1';
    size_t unit = k - i; /* the unit's text, blanks before it included */
    if (b + unit >= sizeof buf) return 0;
    memcpy(buf + b, s + i, unit);
    b += unit;
    int64_t step;
    bool sat = false;
    if (units_parse_size(buf, b, UNITS_KB_IS_1024, &step, &sat) != b || sat) return 0;
    return step > 0 ? step : 1;
}

static size_t pm_placeholder(char c, const char *s, size_t n, struct pm_vals *v)
{
    size_t k = 0;
    long long skip;
    int64_t skip_size;
    bool sat = false;
    switch (c) {
    case 's':
        if (n == 0 || !isdigit((unsigned char)s[0])) return 0;
        k = units_parse_size(s, n, UNITS_KB_IS_1024, &v->size, &sat);
        if (k && size_cut(s, n, k)) return 0;
        v->has_size = k > 0;
        v->size_step = k ? size_step(s, k) : 0;
        return k;
    case 'f': /* a fraction's numerator, whose unit its denominator
               * carries: "67.24/79.25 GiB" is 67.24 GiB (diagctx2) */
        return pm_fraction(s, n, v);
    case 'g': { /* a plain decimal in GiB, the unit the pattern names before
                 * it: TensorRT-LLM's "Total GPU memory (GiB): 140.06" (diagcall9) */
        while (k < n && k < 24 && (isdigit((unsigned char)s[k]) || s[k] == '.')) k++;
        if (!k || !isdigit((unsigned char)s[0]) || (k < n && isalpha((unsigned char)s[k])))
            return 0;
        char buf[32];
        memcpy(buf, s, k);
        memcpy(buf + k, " GiB", 4);
        if (units_parse_size(buf, k + 4, UNITS_KB_IS_1024, &v->size, &sat) != k + 4) return 0;
        v->has_size = true;
        return k;
    }
    case 'z': /* a size that is read past, not kept */
        if (n == 0 || !isdigit((unsigned char)s[0])) return 0;
        return units_parse_size(s, n, UNITS_KB_IS_1024, &skip_size, &sat);
    case 'u': /* ... one that names its unit ("17.62 GB", "512 bytes"; not a
               * bare "0" or "4096", a count or a setting) */
        if (n == 0 || !isdigit((unsigned char)s[0])) return 0;
        k = units_parse_size(s, n, UNITS_KB_IS_1024, &skip_size, &sat);
        return k && isalpha((unsigned char)s[k - 1]) ? k : 0;
    case 'i': /* an integer that is read past, not kept */
        return pm_int(s, n, &skip);
    case 'w': /* a name of 1 to 16 capitals read past, not kept: a device's ("CUDA", "NV", "WEBGPU") */
        while (k < n && k < 16 && isupper((unsigned char)s[k])) k++;
        return k < n && isalnum((unsigned char)s[k]) ? 0 : k;
    case 'n':
        if (v->nnum >= 2) return 0;
        k = pm_int_grouped(s, n, &v->num[v->nnum]);
        if (k) v->nnum++;
        return k;
    case 'd':
        if (v->nnum >= 2) return 0;
        k = pm_int(s, n, &v->num[v->nnum]);
        /* a date glued after the words is no index ("Allocation
         * on device 2025-03-24T17:01:07 -", ComfyUI's console running the
         * next record's time on, h42-09) */
        if (k && k + 1 < n && s[k] == '-' && isdigit((unsigned char)s[k + 1])) return 0;
        if (k) v->nnum++;
        return k;
    case 'S':
        return pm_shape(s, n, v);
    case 't':
        while (k < n && (isalnum((unsigned char)s[k]) || s[k] == '_')) k++;
        if (!k) return 0;
        v->dtype_size = msg_dtype_size(s, k);
        return k;
    default:
        return 0;
    }
}

/* Literal characters a message cut at its end must still show of a
 * clause's last words ("22.70 GiB reserved in tot" is "reserved in total"). */
#define PM_CUT_MIN 4

/* Does text byte c stand for the pattern's first byte p? A capital that
 * starts a clause may be written in lower case: a message retyped by hand
 * or glued after a comma, "cuda out of memory, tried to allocate
 * 50MiB(GPU 0; ...)" (facebookresearch/detectron2 issues) is PyTorch's
 * "Tried to allocate". (diagcall5) */
static bool pm_first_byte(char p, char c)
{
    return c == p || (isupper((unsigned char)p) && c == (char)tolower((unsigned char)p));
}

/* Does a word end between bytes a and b? b is no letter, digit or '_', or
 * starts a capital after a small letter ("cuda|Malloc"), or is a digit
 * after a letter: an index or a version glued on ("GPU|0", "CUDA|12.1";
 * review24). A '_' goes on with one identifier, after a small letter
 * ("device_helpers") or a capital ("CUDA_HOME", "TORCH_CUDA_ARCH_LIST"):
 * an identifier is not the word (tidy25). */
static bool pm_word_end(char a, char b)
{
    unsigned char x = (unsigned char)a, y = (unsigned char)b;
    return !(isalnum(y) || y == '_') || (islower(x) && isupper(y)) || (isalpha(x) && isdigit(y));
}

/* Match pat at s; returns bytes consumed or 0. Text that ends inside the
 * pattern's last literal words still matches once a value was read and
 * PM_CUT_MIN letters of those words agree (a paste cut mid-word); where the
 * clause's own words before its value (at least PM_CUT_MIN letters: "of
 * which ") placed it, one letter past the value will do ("... GPU 0 has a
 * total capacity of 79.14 GiB of which 3.79 GiB is" at a paste's cut,
 * allenai/olmocr#50 = heldout45 h45-32): the value was read
 * whole, and nothing else goes on there. */
static size_t pm_match(const char *pat, const char *s, size_t n, struct pm_vals *v)
{
    size_t i = 0, since_value = 0;
    bool value = false;
    const char *first = strchr(pat, '%');
    size_t anchor = first ? (size_t)(first - pat) : 0;
    size_t cut_min = anchor >= PM_CUT_MIN ? 1 : PM_CUT_MIN;
    for (const char *p = pat; *p;) {
        if (*p == ' ') {
            while (i < n && (s[i] == ' ' || s[i] == '\t' || pm_markup(s[i]))) i++;
            p++;
        } else if (*p == '%' && p[1] == 'b') {
            /* a word ends here: "gpu%b" in "2 gpus" or "cudaMalloc", not in
             * "gpustat", "cudatoolkit" or "device_helpers"; consumes the
             * plural's 's' */
            if (i < n && s[i] == 's' && (i + 1 >= n || pm_word_end(s[i], s[i + 1]))) i++;
            if (i < n && (i == 0 || !pm_word_end(s[i - 1], s[i]))) return 0;
            p += 2;
        } else if (*p == '%' && p[1] && p[1] != '%') {
            size_t k = pm_placeholder(p[1], s + i, n - i, v);
            if (!k) return 0;
            i += k;
            p += 2;
            value = true;
            since_value = 0;
        } else {
            if (i >= n && value && since_value >= cut_min && !strchr(p, '%')) return i;
            if (i >= n || (s[i] != *p && !(p == pat && pm_first_byte(*p, s[i])))) return 0;
            i++;
            p += *p == '%' ? 2 : 1; /* "%%" is a literal '%' */
            since_value++;
        }
    }
    return i;
}

/* The longest run of plain literal characters in the pattern: the key we
 * search for with memmem before trying the full pattern nearby. */
static void pm_key(const char *pat, size_t *off, size_t *len)
{
    size_t best = 0, best_len = 0;
    for (size_t i = 0; pat[i];) {
        if (pat[i] == ' ') {
            i++;
            continue;
        }
        if (pat[i] == '%' && pat[i + 1]) {
            i += 2;
            continue;
        }
        size_t j = i;
        while (pat[j] && pat[j] != ' ' && pat[j] != '%') j++;
        if (j - i > best_len) best = i, best_len = j - i;
        i = j;
    }
    *off = best;
    *len = best_len;
}

static bool pm_start_ok(const char *pat, const char *s, size_t j)
{
    char c = s[j];
    /* A word starts the pattern: "InUse:" must not match inside "MaxInUse:";
     * an escaped newline or tab before it ("MiB.\nGPU 0 has", a message
     * logged as a JSON string) is a word boundary. */
    if (pat[0] != '%')
        return pm_first_byte(pat[0], c) && (j == 0 || !isalnum((unsigned char)pat[0]) ||
                               !isalnum((unsigned char)s[j - 1]) ||
                               (j >= 2 && s[j - 2] == '\\' && s[j - 1] && strchr("ntr", s[j - 1])));
    if (pat[1] == 'S') return c == '[';
    if (!(isdigit((unsigned char)c) || (pat[1] == 'd' && c == '-'))) return false;
    return j == 0 || !(isdigit((unsigned char)s[j - 1]) || s[j - 1] == '.' || s[j - 1] == ',');
}

/* Find the next match of pat in text at or after *from whose key lies at or
 * after *from; fills v and returns true. bp, where given, holds the text's
 * byte pairs: a key one of whose pairs the text lacks is not in it, and
 * no memmem is spent on it. */
static bool pm_find(const char *pat, const char *text, size_t len, size_t *from,
                    struct pm_vals *v, const struct byte_pairs *bp)
{
    size_t koff, klen;
    pm_key(pat, &koff, &klen);
    if (!klen) return false;
    const char *key = pat + koff;
    if (bp && !byte_pairs_may_hold_n(bp, key, klen)) return false;
    /* The bytes a start may hold when a literal starts the pattern
     * (pm_first_byte's two): a cheap reject before pm_start_ok, which is
     * otherwise asked at each of the 96 places before every key hit. */
    bool lit = pat[0] != '%';
    char c0 = pat[0], c1 = isupper((unsigned char)c0) ? (char)tolower((unsigned char)c0) : c0;
    size_t pos = *from;
    while (pos < len) {
        const char *hit = memmem(text + pos, len - pos, key, klen);
        if (!hit) return false;
        size_t k = (size_t)(hit - text);
        size_t lo = k > 96 ? k - 96 : 0;
        for (size_t j = k + 1; j-- > lo;) {
            if (lit && text[j] != c0 && text[j] != c1) continue;
            if (!pm_start_ok(pat, text, j)) continue;
            memset(v, 0, sizeof *v);
            size_t m = pm_match(pat, text + j, len - j, v);
            if (m && j + m >= k + klen) {
                *from = j + m;
                return true;
            }
        }
        pos = k + 1;
    }
    return false;
}

static void fill(int64_t *slot, int64_t value)
{
    if (*slot < 0 && value >= 0) *slot = value;
}

/* requested = product of the shape's dims * dtype size, when both are known
 * and the text states no request itself. With the message's own type
 * ("shape[...] and type float", own_type) it is a count of bytes, exact
 * (step 1) as a figure stated in bytes is, so where another part of the
 * event says the same request rounded ("16.00MiB"), this one stands
 * (scan's merge). A type from a node's attributes (T=DT_FLOAT) may be
 * another tensor's, the op below a different message's (heldout8 h8-08):
 * no step, so a stated figure stays. */
static void apply_shape_bytes(struct oom_event *ev, bool own_type)
{
    if (ev->shape_rank <= 0 || ev->shape_rank > 8 || !ev->dtype_size || ev->bytes.requested >= 0)
        return;
    int64_t total = ev->dtype_size;
    for (int i = 0; i < ev->shape_rank; i++)
        if (!units_mul(total, ev->shape[i], &total)) return;
    ev->bytes.requested = total;
    ev->bytes_step.requested = own_type ? 1 : 0;
    ev->requested_from_shape = true;
}

static void apply_shape(const struct pm_vals *v, struct oom_event *ev)
{
    if (v->shape_rank <= 0 || v->shape_rank > 8) return;
    ev->shape_rank = v->shape_rank;
    memcpy(ev->shape, v->shape, sizeof v->shape);
    int r = v->shape_rank;
    /* [b, h, s, s]: few heads, long equal last two dims -> attention scores. */
    if (r == 4 && v->shape[2] == v->shape[3] && v->shape[2] >= 128 && v->shape[1] <= 128)
        ev->attention_shape = true;
    if (v->dtype_size) ev->dtype_size = v->dtype_size;
    apply_shape_bytes(ev, v->dtype_size != 0);
}

/* The look-alike kind a host clause (MSG_F_HOST) makes of an event, by the
 * family it was read as: XLA's host buffers, a page-locked buffer TIGRE
 * could not register, else TF's pinned host allocator. */
static const char *host_kind_of(const struct oom_event *ev)
{
    static const struct { const char *family, *host_kind; } host_kinds[] = {
        {"jax", "xla-host-memory"},
        {"tigre", "host-cpu-alloc"},
    };
    for (size_t i = 0; i < sizeof host_kinds / sizeof host_kinds[0]; i++)
        if (!strcmp(ev->framework, host_kinds[i].family) || !strcmp(ev->kind, host_kinds[i].family))
            return host_kinds[i].host_kind;
    return "tf-host-memory";
}

static void apply_value(enum msg_field field, const struct pm_vals *v, struct oom_event *ev)
{
    int64_t *slots[] = {
        [MSG_F_REQUESTED] = &ev->bytes.requested, [MSG_F_CAPACITY] = &ev->bytes.capacity,
        [MSG_F_FREE] = &ev->bytes.free, [MSG_F_ALLOCATED] = &ev->bytes.allocated,
        [MSG_F_RESERVED] = &ev->bytes.reserved,
        [MSG_F_RESERVED_UNALLOC] = &ev->bytes.reserved_unallocated,
        [MSG_F_PROCESS] = &ev->bytes.process_in_use, [MSG_F_ALLOWED] = &ev->bytes.allowed,
        [MSG_F_OTHER] = &ev->bytes.other_in_use, [MSG_F_POOLS] = &ev->bytes.private_pools,
    };
    long long num = v->nnum ? v->num[0] : -1;
    switch (field) {
    case MSG_F_GPU:
        if (ev->gpu < 0 && num >= 0 && num < 4096) ev->gpu = (int)num;
        return;
    case MSG_F_RANK:
        if (ev->rank < 0 && num >= 0 && num < 1000000) ev->rank = (int)num;
        return;
    case MSG_F_PROC:
        if (ev->n_procs < OOM_MAX_PROCS && num >= 0) {
            ev->procs[ev->n_procs].pid = (long)num;
            ev->procs[ev->n_procs].bytes = v->size;
            ev->n_procs++;
        }
        return;
    case MSG_F_SHAPE:
        apply_shape(v, ev);
        return;
    case MSG_F_IS_OOM:
        ev->gpu_oom = true;
        return;
    case MSG_F_HOST:
        ev->gpu_oom = false;
        ev->kind = host_kind_of(ev);
        ev->framework = "host";
        return;
    case MSG_F_DEVICE:
        ev->gpu_oom = true;
        ev->kind = "cuda-error";
        ev->framework = "cuda";
        return;
    case MSG_F_OOM_COUNT:
        ev->gpu_oom = num > 0;
        return;
    case MSG_F_REQUESTED_EXACT: { /* %d bytes, or a %s size (diagopen40) */
        int64_t exact = v->has_size ? v->size : num;
        if (exact >= 0) {
            ev->bytes.requested = exact, ev->requested_from_shape = false;
            ev->bytes_step.requested = v->has_size ? v->size_step : 1;
        }
        return;
    }
    case MSG_F_DTYPE:
        if (v->dtype_size) {
            ev->dtype_size = v->dtype_size;
            apply_shape_bytes(ev, false);
        }
        return;
    case MSG_F_CACHED:
        if (ev->bytes.reserved < 0 && v->size >= 0) {
            ev->bytes.reserved = v->size;
            ev->reserved_is_cached = true;
        }
        return;

    default:
        break;
    }
    /* %d clauses on a byte field ("trying to allocate %d bytes") carry an
     * integer; %s clauses a size, also beside a %d ("allocating %s on
     * device %d": the size, not the device). */
    int64_t *slot = slots[field];
    bool was_unknown = *slot < 0;
    fill(slot, v->has_size || !v->nnum ? v->size : (num >= 0 ? num : -1));
    /* the step the figure was stated in (a %d count: bytes), beside it */
    if (was_unknown && *slot >= 0)
        (&ev->bytes_step.requested)[slot - &ev->bytes.requested] = v->has_size ? v->size_step : 1;
}

static bool apply_pairs(const char *pattern, enum msg_field field, const char *text, size_t len,
                        struct oom_event *ev, const struct byte_pairs *bp)
{
    size_t from = 0;
    struct pm_vals v;
    bool any = false;
    while (pm_find(pattern, text, len, &from, &v, bp)) {
        any = true;
        apply_value(field, &v, ev);
        if (field != MSG_F_PROC) break;
    }
    return any;
}

bool msg_apply(const char *pattern, enum msg_field field, const char *text, size_t len,
               struct oom_event *ev)
{
    return apply_pairs(pattern, field, text, len, ev, NULL);
}

bool msg_rule_reads_own_line(const struct msg_rule *rule)
{
    return (rule->clauses && rule->clauses[0].pattern) ||
           (rule->near_own_line && rule->near && rule->near[0].pattern);
}

bool msg_matches(const char *pattern, const char *text, size_t len)
{
    size_t from = 0;
    struct pm_vals v;
    return pm_find(pattern, text, len, &from, &v, NULL);
}

/* Every clause searches the whole text: the byte pairs, taken once, rule
 * out those whose key it does not hold (most of a family's clauses are
 * other versions' wording). */
void msg_extract(const struct msg_rule *rule, const char *text, size_t len,
                 struct oom_event *ev)
{
    size_t k;
    char *copy = straight_copy(text, len, &k);
    if (copy) {
        msg_extract(rule, copy, k, ev); /* it has no typographic apostrophe left */
        free(copy);
        return;
    }
    struct byte_pairs bp;
    byte_pairs_of(text, len, &bp);
    for (const struct msg_clause *c = rule->clauses; c && c->pattern; c++)
        apply_pairs(c->pattern, c->field, text, len, ev, &bp);
    for (const struct msg_near *nc = rule->near_own_line ? rule->near : NULL; nc && nc->pattern;
         nc++)
        apply_pairs(nc->pattern, nc->field, text, len, ev, &bp);
    for (const struct msg_clause *c = clauses_common; c->pattern; c++)
        apply_pairs(c->pattern, c->field, text, len, ev, &bp);
}

int msg_dtype_size(const char *name, size_t len)
{
    static const struct { const char *name; int size; } dtypes[] = {
        {"float", 4},   {"float32", 4}, {"half", 2},    {"float16", 2}, {"bfloat16", 2},
        {"double", 8},  {"float64", 8}, {"int32", 4},   {"int64", 8},   {"int16", 2},
        {"int8", 1},    {"uint8", 1},   {"bool", 1},    {"complex64", 8},
        {"complex128", 16}, {"qint8", 1}, {"quint8", 1}, {"uint16", 2}, {"uint32", 4},
        {"uint64", 8},
    };
    for (size_t i = 0; i < sizeof dtypes / sizeof dtypes[0]; i++)
        if (strlen(dtypes[i].name) == len && strncasecmp(dtypes[i].name, name, len) == 0)
            return dtypes[i].size;
    return 0;
}

/* ---- cleaning ------------------------------------------------------------ */

size_t msg_clean(const char *src, size_t n, size_t focus, char *dst, size_t cap)
{
    /* Pick the \r segment: the one holding focus, else the last non-empty. */
    size_t a = 0, b = n;
    if (focus != SIZE_MAX && focus < n) {
        for (size_t i = focus; i-- > 0;)
            if (src[i] == '\r') {
                a = i + 1;
                break;
            }
        const char *cr = memchr(src + focus, '\r', n - focus);
        if (cr) b = (size_t)(cr - src);
    } else {
        while (b > 0 && src[b - 1] == '\r') b--;
        for (size_t i = b; i-- > 0;)
            if (src[i] == '\r') {
                a = i + 1;
                break;
            }
    }
    size_t o = 0;
    for (size_t i = a; i < b && o + 1 < cap; i++) {
        unsigned char c = (unsigned char)src[i];
        if (c == 0x1b) { /* ESC [ params final, or ESC + one byte */
            if (i + 1 < b && src[i + 1] == '[') {
                i += 2;
                while (i < b && !((unsigned char)src[i] >= 0x40 && (unsigned char)src[i] <= 0x7e))
                    i++;
            } else {
                i++;
            }
            continue;
        }
        if (c == '\r') continue;
        dst[o++] = (c == 0) ? ' ' : (char)c;
    }
    dst[o] = '\0';
    return o;
}

/* ---- prefixes ------------------------------------------------------------ */

static uint32_t hash(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h ? h : 1;
}

static size_t skip_blanks(const char *s, size_t n, size_t i)
{
    while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
    return i;
}

static size_t lit(const char *s, size_t n, size_t i, const char *l)
{
    size_t k = strlen(l);
    return (i + k <= n && memcmp(s + i, l, k) == 0) ? i + k : 0;
}

/* "[rank3]:", "[default3]:", "[1,3]<stderr>:"; "rank4]: torch.OutOfMemoryError"
 * with its bracket lost where a paste's first line was cut (DiffSynth-Studio's
 * LoRA thread, heldout52 h52-34): then only with the colon. (diagopen52)
 * Determined's launch wrapper writes "[rank=N] " before every line a worker
 * prints (determined-ai/determined:harness/determined/launch/wrap_rank.py@
 * 3ff6bf9c forward_stream; a trial's "[rank=0] RuntimeError: CUDA out of
 * memory", heldout60 h60-40). (open60) */
static size_t pfx_bracket_rank(const char *s, size_t n, struct msg_prefix *px)
{
    static const struct {
        const char *head;
        bool colon; /* "]:" must follow the number */
    } heads[] = {{"[rank=", false}, {"[rank", false}, {"[default", false}, {"[Rank ", false}, {"rank", true}};
    for (size_t h = 0; h < sizeof heads / sizeof heads[0]; h++) {
        size_t i = lit(s, n, 0, heads[h].head);
        long long r;
        size_t k;
        if (!i || !(k = pm_int(s + i, n - i, &r)) || i + k >= n || s[i + k] != ']') continue;
        if (heads[h].colon && (i + k + 1 >= n || s[i + k + 1] != ':')) continue;
        i += k + 1;
        if (i < n && s[i] == ':') i++;
        px->rank = (int)(r >= 0 && r < 1000000 ? r : -1);
        return i < n && s[i] == ' ' ? i + 1 : i;
    }
    long long job, r;
    size_t i = 1, k;
    if (n < 4 || s[0] != '[' || !(k = pm_int(s + i, n - i, &job))) return 0;
    i += k;
    if (i >= n || s[i] != ',' || !(k = pm_int(s + i + 1, n - i - 1, &r))) return 0;
    i += 1 + k;
    if (!(i = lit(s, n, i, "]<"))) return 0;
    const char *gt = memchr(s + i, '>', n - i < 8 ? n - i : 8);
    if (!gt) return 0;
    i = (size_t)(gt - s) + 1;
    if (i < n && s[i] == ':') i++;
    px->rank = (int)(r >= 0 && r < 1000000 ? r : -1);
    return i;
}

/* The rank a serving engine's process name carries: the parallel groups it
 * names, each only when that group has more than one member: vLLM's worker
 * "Worker[_DPd][_PPp][_TPt][_EPe]" (vllm-project/vllm:vllm/v1/worker/
 * worker_base.py setup_worker_process_title_and_logging, printed by
 * decorate_logs as "(Worker_TP2 pid=1234) "), SGLang's scheduler
 * "[DPd][ PPp][ TPt][ EPe]" after the time ("[2025-03-05 10:00:00 TP2] ",
 * sgl-project/sglang:python/sglang/srt/managers/scheduler.py
 * run_scheduler_process). With TP alone (EP rides on it) the tensor-parallel
 * rank is the process's rank; with PP alone, the stage's. With two groups
 * the global rank needs the group sizes the line does not give: unknown.
 * [s, s+n) holds only the name, groups split by '_' or ' '. Whether every
 * word is a group, each named once with a number of digits (false: someone
 * else's name or bracket, "TP-1", "TP1_TP2"), is the return; the
 * rank, or -1 where the groups do not give it, goes to *rank. */
static bool serving_groups(const char *s, size_t n, int *rank)
{
    static const char *const groups[] = {"TP", "PP", "DP", "EP", "ATTN_CP", "MOE_DP"};
    long long at[6] = {-1, -1, -1, -1, -1, -1};
    size_t i = 0;
    *rank = -1;
    while (i < n) {
        while (i < n && (s[i] == '_' || s[i] == ' ')) i++;
        size_t g = 0, k = 0, len = 0;
        long long v;
        /* a group's number is digits: "TP-1" is no group (-1 is "not named") */
        for (; g < sizeof groups / sizeof groups[0]; g++)
            if ((len = lit(s, n, i, groups[g])) && len < n && isdigit((unsigned char)s[len]) &&
                (k = pm_int(s + len, n - len, &v)))
                break;
        if (g == sizeof groups / sizeof groups[0]) return false; /* a word that is no group */
        if (at[g] >= 0) return false;                            /* named twice: no engine's name */
        at[g] = v;
        i = len + k;
        if (i < n && s[i] != '_' && s[i] != ' ') return false;
    }
    bool tp = at[0] >= 0, pp = at[1] >= 0, other = at[2] >= 0 || at[4] >= 0 || at[5] >= 0;
    long long r = tp ? at[0] : at[1];
    if (!other && tp != pp && r < 1000000) *rank = (int)r;
    return true;
}

/* "(VllmWorker rank=1 pid=2978) ", "(RayWorkerWrapper pid=12, ip=...) ",
 * "(Worker_PP1 pid=7) " */
static size_t pfx_paren_worker(const char *s, size_t n, struct msg_prefix *px)
{
    if (n < 4 || s[0] != '(') return 0;
    const char *close = memchr(s, ')', n < 160 ? n : 160);
    if (!close) return 0;
    size_t end = (size_t)(close - s);
    const char *r = memmem(s, end, "rank=", 5), *p = memmem(s, end, "pid=", 4);
    if (!r && !p) return 0;
    long long v;
    if (r && pm_int(r + 5, end - (size_t)(r + 5 - s), &v)) px->rank = (int)v;
    if (p && pm_int(p + 4, end - (size_t)(p + 4 - s), &v)) px->pid = (long)v;
    const char *name_end = memchr(s, ' ', end);
    int groups_rank;
    if (!r && name_end && lit(s, end, 1, "Worker_") &&
        serving_groups(s + 8, (size_t)(name_end - s) - 8, &groups_rank))
        px->rank = groups_rank;
    size_t i = end + 1;
    return i < n && s[i] == ' ' ? i + 1 : i;
}

/* SGLang's groups left after the time ("TP2] ", "DP0 TP1] ": see
 * serving_groups): upper-case groups, then "] ". */
static size_t pfx_serving_groups(const char *s, size_t n, struct msg_prefix *px)
{
    const char *rb = memchr(s, ']', n < 40 ? n : 40);
    if (!rb || n < 4 || !isupper((unsigned char)s[0])) return 0;
    size_t e = (size_t)(rb - s);
    if (e + 1 >= n || s[e + 1] != ' ') return 0;
    for (size_t k = 0; k < e; k++)
        if (!isupper((unsigned char)s[k]) && !isdigit((unsigned char)s[k]) && s[k] != ' ' &&
            s[k] != '_')
            return 0;
    if (!isdigit((unsigned char)s[e - 1])) return 0;
    int r;
    /* every name is a group, or the bracket is someone else's ("E1] ") */
    if (!serving_groups(s, e, &r)) return 0;
    if (r >= 0) px->rank = r;
    return e + 2;
}

/* ParlAI: "rank:  3 | " */
static size_t pfx_rank_bar(const char *s, size_t n, struct msg_prefix *px)
{
    size_t i = lit(s, n, 0, "rank:");
    long long r;
    size_t k;
    if (!i) return 0;
    i = skip_blanks(s, n, i);
    if (!(k = pm_int(s + i, n - i, &r))) return 0;
    i = skip_blanks(s, n, i + k);
    if (!(i = lit(s, n, i, "|"))) return 0;
    px->rank = (int)r;
    return skip_blanks(s, n, i);
}

/* NCCL: "host:pid:tid [dev] " */
static size_t pfx_nccl(const char *s, size_t n, struct msg_prefix *px)
{
    size_t i = 0;
    while (i < n && i < 128 && (isalnum((unsigned char)s[i]) || s[i] == '-' || s[i] == '.' ||
                                s[i] == '_'))
        i++;
    if (i == 0 || i >= n || s[i] != ':') return 0;
    size_t host_len = i;
    long long pid, tid, dev;
    size_t k;
    if (!(k = pm_int(s + i + 1, n - i - 1, &pid))) return 0;
    i += 1 + k;
    if (i >= n || s[i] != ':' || !(k = pm_int(s + i + 1, n - i - 1, &tid))) return 0;
    i += 1 + k;
    if (!(i = lit(s, n, i, " ["))) return 0;
    if (!(k = pm_int(s + i, n - i, &dev)) || i + k >= n || s[i + k] != ']') return 0;
    i += k + 1;
    px->host = hash(s, host_len);
    px->pid = (long)pid;
    px->dev = (int)dev;
    return skip_blanks(s, n, i);
}

static bool ts_char(char c)
{
    return isdigit((unsigned char)c) || c == '-' || c == ':' || c == '.' || c == ',' ||
           c == 'T' || c == 'Z' || c == '/' || c == '+';
}

/* Timestamps and log levels: "2022-08-20 23:35:25 | WARNING | name | ",
 * "2025-11-14T08:52:38.3746210Z ", "[2024-01-01 12:00:00,123] ",
 * "2022-10-25 21:52:08.138224: W path.cc:479] ", "F0424 12:35:52.3 28444
 * file.cc:56] ", "ERROR 03-19 07:27:53 [file.py:375] ", "INFO 12:00 ". */
/* A log level and its blank at s[i]: the end of both, or 0. */
static size_t level_at(const char *s, size_t n, size_t i)
{
    static const char *const levels[] = {"ERROR ", "WARNING ", "WARN ", "INFO ", "DEBUG ",
                                         "CRITICAL ", "FATAL "};
    for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++)
        if (lit(s, n, i, levels[l])) return lit(s, n, i, levels[l]);
    return 0;
}

static size_t pfx_time(const char *s, size_t n, struct msg_prefix *px)
{
    size_t i = level_at(s, n, 0);
    bool bracket = i < n && s[i] == '[';
    size_t j = i + bracket;
    /* glog: a level letter glued to MMDD */
    if (j < n && strchr("IWEF", s[j]) && j + 1 < n && isdigit((unsigned char)s[j + 1])) j++;
    size_t t0 = j;
    int colons = 0, tokens = 0;
    while (j < n && j - t0 < 48) {
        size_t k = j;
        while (k < n && ts_char(s[k])) colons += s[k] == ':', k++;
        if (k == j) break;
        tokens++;
        j = k;
        if (j < n && s[j] == ' ' && j + 1 < n && isdigit((unsigned char)s[j + 1])) {
            j++;
            continue;
        }
        break;
    }
    if (tokens == 0 || colons < 2 || !isdigit((unsigned char)s[t0])) return 0;
    while (j > t0 && s[j - 1] == ':') j--; /* "...138224:" keeps its colon for below */
    i = j;
    if (bracket && i < n && s[i] == ']') i++;
    if (i < n && s[i] == ':') i++;
    size_t stamp_end = i;
    i = skip_blanks(s, n, i);
    size_t after_blanks = i;
    /* Twisted's classic log text, "{timeStamp} [{system}] {event}", the
     * system "-" or "namespace#level" when unset (twisted/twisted
     * src/twisted/logger/_format.py formatEventAsClassicLogText): "2018-07-26
     * 21:11:36+0000 [-] MemoryError: ..." (a Rasa NLU server, h34-47) */
    if (i + 3 < n && s[i] == '[') {
        const char *rb = memchr(s + i, ']', n - i < 64 ? n - i : 64);
        size_t e = rb ? (size_t)(rb - s) : 0;
        bool system = rb && e + 1 < n && rb[1] == ' ' &&
                      ((e == i + 2 && s[i + 1] == '-') || memchr(s + i, '#', e - i)) &&
                      !memchr(s + i, ' ', e - i);
        if (system) i = e + 2;
    }
    /* "| LEVEL | name | " */
    for (int f = 0; f < 3 && i < n && s[i] == '|'; f++) {
        const char *bar = memchr(s + i + 1, '|', n - i - 1 < 64 ? n - i - 1 : 64);
        i = skip_blanks(s, n, i + 1);
        if (!bar) break;
        i = skip_blanks(s, n, (size_t)(bar - s));
    }
    /* "W path.cc:479] " or "[file.py:375] " or "28444 file.cc:56] " */
    const char *rb = memchr(s + i, ']', n - i < 200 ? n - i : 200);
    if (rb) {
        size_t e = (size_t)(rb - s), spaces = 0;
        for (size_t k = i; k < e; k++) spaces += s[k] == ' ';
        if (spaces <= 3 && (size_t)(rb - s) + 1 < n && rb[1] == ' ' &&
            memchr(s + i, ':', e - i))
            i = e + 2;
    }
    /* the stamp alone: its one separating blank goes, the line's own
     * indentation stays ("2025-01-01T00:00:00.000Z     x = f()" is a frame's
     * code line, as a viewer's or `kubectl logs --timestamps` prints it) */
    /* (tracing pads its level right-aligned, "Z  INFO x": no indentation) */
    if (i == after_blanks && after_blanks > stamp_end + 1 && !level_at(s, n, after_blanks))
        i = stamp_end + 1;
    (void)px;
    return i;
}

/* docker-compose's log prefix: the container's name, padded to the widest one,
 * then " | " ("db_1  | Listening", docker/compose:compose/cli/log_printer.py@0263d3ec,
 * LogPresenter.present; Compose v2 names replicas "db-1"). The name ends in its
 * replica number, so a table's "loss  | 0.5" is none. The service is the writer:
 * its name is the host identity. */
static size_t pfx_compose(const char *s, size_t n, struct msg_prefix *px)
{
    size_t i = 0;
    while (i < n && i < 96 && (isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '-' || s[i] == '.'))
        i++;
    size_t name = i, d = i;
    while (d > 0 && isdigit((unsigned char)s[d - 1])) d--;
    if (d == i || d < 2 || (s[d - 1] != '_' && s[d - 1] != '-')) return 0;
    size_t k = skip_blanks(s, n, i);
    if (k == i || !(k = lit(s, n, k, "|"))) return 0;
    if (k < n && s[k] != ' ') return 0;
    px->host = hash(s, name);
    return skip_blanks(s, n, k);
}

/* srun --label (-l): each task's lines start with its task number ("3: ");
 * under srun the task number is the rank (SLURM_PROCID). srun pads the
 * number to the width of the largest task's (" 3: " among 16 tasks:
 * SchedMD/slurm src/api/step_io.c _wid, the label width it passes to
 * write_labelled_message), so up to 4 blanks may come first; such a padded
 * label is also how backtraces number their frames (TVM's "  0:
 * tvm::runtime::...", Rust's "   0: rust_begin_unwind"), which scan.c
 * tells apart: a task repeats its label within MSG_TASK_LABEL_LINES, a
 * frame number does not. Not a clock ("12:30"): a blank follows the colon,
 * and not a digit after it. (diagcall7) */
static size_t pfx_srun_label(const char *s, size_t n, struct msg_prefix *px)
{
    size_t pad = 0, i, k;
    long long task;
    while (pad < n && pad < 4 && s[pad] == ' ') pad++;
    i = pad;
    if (!(k = pm_int(s + i, n - i, &task)) || k + pad > 5) return 0;
    i += k;
    if (i + 2 >= n || s[i] != ':' || s[i + 1] != ' ' || isdigit((unsigned char)s[i + 2]))
        return 0;
    px->rank = (int)task;
    px->task_label = true;
    px->task_label_padded = pad > 0;
    return i + 2;
}

/* pdsh / deepspeed multi-node: "gpu-q-13: " (a host name, not an exception). */
static size_t pfx_host(const char *s, size_t n, struct msg_prefix *px)
{
    size_t i = 0;
    bool digit_or_dash = false;
    while (i < n && i < 64 && (isalnum((unsigned char)s[i]) || s[i] == '-' || s[i] == '.' ||
                               s[i] == '_')) {
        digit_or_dash |= isdigit((unsigned char)s[i]) || s[i] == '-';
        i++;
    }
    if (i < 2 || !digit_or_dash || i + 1 >= n || s[i] != ':' || s[i + 1] != ' ') return 0;
    if (!isalpha((unsigned char)s[0])) return 0;
    static const char *const not_hosts[] = {"Error", "Exception", "Warning", "rank"};
    for (size_t k = 0; k < sizeof not_hosts / sizeof not_hosts[0]; k++)
        if (memmem(s, i, not_hosts[k], strlen(not_hosts[k]))) return 0;
    px->host = hash(s, i);
    return i + 2;
}

/* A multi-stage server's stage tag: vllm-omni "[Stage-0] ERROR 03-23 ..."
 * (vllm-project/vllm-omni#2128). A word, a dash, a number, "] ". */
static size_t pfx_stage_tag(const char *s, size_t n, struct msg_prefix *px)
{
    (void)px;
    size_t i = 1;
    if (n < 5 || s[0] != '[' || !isalpha((unsigned char)s[1])) return 0;
    while (i < n && i < 24 && isalpha((unsigned char)s[i])) i++;
    if (i >= n || s[i] != '-' || i + 1 >= n || !isdigit((unsigned char)s[i + 1])) return 0;
    i++;
    while (i < n && isdigit((unsigned char)s[i])) i++;
    return i + 1 < n && s[i] == ']' && s[i + 1] == ' ' ? i + 2 : 0;
}

/* A field its log format left empty, "[] " (Determined's trial log line
 * with no container id: "[] [rank=0] RuntimeError: ...", heldout60
 * h60-40): nothing to read, the prefixes after it still are. (open60) */
static size_t pfx_empty_bracket(const char *s, size_t n, struct msg_prefix *px)
{
    (void)px;
    return n >= 3 && s[0] == '[' && s[1] == ']' && s[2] == ' ' ? 3 : 0;
}

/* A markdown quote: "> " (">>> " is a Python prompt, not a quote). */
static size_t pfx_quote(const char *s, size_t n, struct msg_prefix *px)
{
    (void)px;
    return n >= 2 && s[0] == '>' && s[1] == ' ' ? 2 : 0;
}

void msg_prefix_parse(const char *line, size_t len, struct msg_prefix *px)
{
    static size_t (*const forms[])(const char *, size_t, struct msg_prefix *) = {
        pfx_quote, pfx_bracket_rank, pfx_paren_worker, pfx_rank_bar, pfx_nccl, pfx_time,
        pfx_serving_groups, pfx_srun_label, pfx_host, pfx_stage_tag, pfx_compose, pfx_empty_bracket,
    };
    px->rank = px->dev = -1;
    px->pid = -1;
    px->host = 0;
    px->task_label = px->task_label_padded = false;
    size_t at = 0;
    for (int round = 0; round < 6; round++) {
        size_t used = 0;
        for (size_t f = 0; f < sizeof forms / sizeof forms[0] && !used; f++)
            used = forms[f](line + at, len - at, px);
        if (!used) break;
        at += used;
    }
    px->body = at;
}

bool msg_names_srun(const char *p, size_t n)
{
    /* srun --label: SchedMD/slurm src/api/step_io.c; ctest's "242: ..."
     * (PaddlePaddle/Paddle#6265, Kitware/CMake:Source/CTest/
     * cmCTestRunTest.cxx) is the case it keeps out. The word may end its
     * line as it may end the text: the whole log (diagnose's scan, run's
     * log read ahead) and one line of it (rankstats' stream) agree. (fuzz23) */
    bool named = false;
    msg_names_srun_chunk(p, n, false, true, &named);
    return named;
}

#define SRUN_CARRY 16 /* more than the longest mark and the byte before it */

size_t msg_names_srun_chunk(const char *p, size_t n, bool carried, bool last, bool *named)
{
    static const char *const marks[] = {"srun", "slurmstepd"};
    for (size_t k = 0; k < sizeof marks / sizeof marks[0] && !*named; k++) {
        size_t m = strlen(marks[k]);
        for (const char *q = memmem(p, n, marks[k], m); q; q = memmem(q + 1, n - (size_t)(q + 1 - p), marks[k], m)) {
            size_t i = (size_t)(q - p);
            /* a carried chunk's first byte follows bytes no longer here: a
             * word there was decided in the previous chunk */
            if (i == 0 ? carried : isalnum((unsigned char)p[i - 1])) continue;
            if (i + m == n ? last : memchr(" :\t\r\n", p[i + m], 5) != NULL) {
                *named = true;
                break;
            }
        }
    }
    return last ? 0 : n < SRUN_CARRY ? n : SRUN_CARRY;
}

void msg_prefix_unlabel(const char *clean, size_t n, struct msg_prefix *px)
{
    if (!px->task_label) return;
    if (px->task_label_padded) {
        *px = (struct msg_prefix){.rank = -1, .dev = -1, .pid = -1};
        return;
    }
    size_t k = 0;
    while (k < n && isdigit((unsigned char)clean[k])) k++;
    if (k + 1 < n && clean[k] == ':' && clean[k + 1] == ' ') k += 2;
    msg_prefix_parse(clean + k, n - k, px);
    px->body += k;
    if (px->task_label) px->rank = -1;
    px->task_label = false;
}

int msg_task_label(const char *line, size_t len)
{
    int t = 0;
    size_t pad = 0, i;
    while (pad < len && pad < 4 && line[pad] == ' ') pad++;
    for (i = pad; i < len && i < 5 && isdigit((unsigned char)line[i]); i++) t = t * 10 + (line[i] - '0');
    return i > pad && i + 1 < len && line[i] == ':' && line[i + 1] == ' ' ? t : -1;
}

bool msg_prefix_same_source(const struct msg_prefix *a, const struct msg_prefix *b)
{
    return a->rank == b->rank && a->pid == b->pid && a->host == b->host;
}

/* ---- diagverb: any failure, named (issue 12) -------------------------------- */

/* The look-alike for a log whose only failure is no memory event at all:
 * the final error, named (scan_finish_view). Not in the rule table: no
 * anchor finds it, the scan's tail does. */
static const struct msg_rule other_error_rule = {
    .kind = "other-error",
    .framework = "unknown",
    .gpu_oom = LOOKALIKE,
    .role = MSG_PRIMARY,
    .stage = OOM_STAGE_UNKNOWN,
    .clauses = clauses_none,
    .near = near_none,
};

const struct msg_rule *msg_other_error_rule(void)
{
    return &other_error_rule;
}

/* a failure whose exception line the paste cuts off (its
 * Python traceback's frames end the paste, scan.c cut_traceback). Not in
 * the rule table: no anchor finds it, the scan's tail does. */
static const struct msg_rule cut_traceback_rule = {
    .kind = "traceback-cut",
    .framework = "unknown",
    .gpu_oom = LOOKALIKE,
    .role = MSG_PRIMARY,
    .stage = OOM_STAGE_UNKNOWN,
    .clauses = clauses_none,
    .near = near_none,
};

const struct msg_rule *msg_cut_traceback_rule(void)
{
    return &cut_traceback_rule;
}

/* a GPU OOM named only in words that no row knows, found by
 * concept (mention.c, scan_finish_view's prose pass). Not in the rule
 * table: no anchor finds it. */
static const struct msg_rule prose_mention_rule = {
    .kind = "oom-mention",
    .framework = "unknown",
    .gpu_oom = LOOKALIKE,
    .role = MSG_MENTION,
    .standalone = true,
    .stage = OOM_STAGE_UNKNOWN,
    .clauses = clauses_mention,
    .near = near_mention,
};

const struct msg_rule *msg_prose_mention_rule(void)
{
    return &prose_mention_rule;
}

static bool ident_byte(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* An exception's class at the start of the text ("RuntimeError: …",
 * "_pickle.PicklingError while trying to save", "ray.exceptions.
 * ActorDiedError: …", "safetensors_rust.SafetensorError: …"): a dotted name
 * whose last part ends in Error/Exception/Failure/Interrupt/Exit and is
 * longer than that word. */
static bool exception_head(const char *t, size_t n)
{
    static const char *const ends[] = {"Error", "Exception", "Failure", "Interrupt", "Exit"};
    size_t i = 0, part = 0;
    while (i < n && (ident_byte(t[i]) || t[i] == '.')) {
        if (t[i] == '.') part = i + 1;
        i++;
    }
    if (i == 0 || i - part < 6 || (i < n && t[i] != ':' && t[i] != ' ' && t[i] != '\r')) return false;
    for (size_t k = 0; k < sizeof ends / sizeof ends[0]; k++) {
        size_t m = strlen(ends[k]);
        if (i - part > m && !memcmp(t + i - m, ends[k], m)) return true;
    }
    return false;
}

/* Words that say a line reports a failure, case as written. */
static const char *const error_words[] = {
    "Error", "ERROR", "error:", "error=", "Exception", "FAIL", "Assertion", "Failed",
    /* TensorFlow's kernel-failure log line, its status in lower case
     * ("op_kernel.cc:1763] OP_REQUIRES failed at conv_grad_filter_ops.cc:1095 : Not
     * found: No algorithm worked!", Sentdex/pygta5#161) */
    "OP_REQUIRES failed at",
    /* glog's fatal CHECK ("F0421 09:02:45.161278  7233
     * math_functions.cu:52] Check failed: status == CUBLAS_STATUS_SUCCESS (13
     * vs. 0)  CUBLAS_STATUS_EXECUTION_FAILED", Caffe, h33-27) */
    "Check failed:",
};
/* ... unless it only warns or tells where an exception was handled. */
static const char *const error_not[] = {
    "Warning", "WARN", "warn(", "During handling", "above exception", "Traceback (",
    /* NCCL's own INFO lines (NCCL_DEBUG=INFO) report, never fail: a plugin
     * it looks for and falls back from, "NCCL INFO NET/Plugin: Failed to find
     * ncclNetPlugin_v6 symbol.", "NCCL INFO TUNER/Plugin: Failed to find
     * ncclTunerPlugin_v2, using internal tuner instead." (NVIDIA/nccl#1000,
     * NVIDIA/Megatron-LM#516, aws/aws-ofi-nccl#715; a paste cut after them,
     * deepspeedai/DeepSpeed-MII#559 = heldout69 h69-27). Its failures are
     * WARN lines (open69) */
    "NCCL INFO",
};
/* Words of memory: a line that names memory or an allocation is no plain
 * failure ("failed to allocate 10965.24 MiB of pinned memory", "CUFFTError(code
 * 2, cuFFT failed to allocate GPU or CPU memory)"): naming it "not a memory
 * failure" would mislead. */
static const char *const memory_words[] = {
    "memory", "Memory", "MEMORY", "OOM", "alloc", "Alloc", "ALLOC", "RAM",
    "killed by", /* "DataLoader worker (pid 2978) is killed by" (signal: Killed, the host's) */
};

/* "access of" within the few words before at: "access of peer GPU memory". */
static bool access_of_before(const char *t, size_t at)
{
    size_t from = at > 32 ? at - 32 : 0;
    return memmem(t + from, at - from, "access of ", 10) != NULL;
}

/* The whitespace-delimited token holding at is a path (a '/' or '\\' in it). */
static bool in_path_token(const char *t, size_t n, size_t at)
{
    size_t a = at, b = at;
    while (a > 0 && t[a - 1] != ' ' && t[a - 1] != '\t') a--;
    while (b < n && t[b] != ' ' && t[b] != '\t') b++;
    for (size_t i = a; i < b; i++)
        if (t[i] == '/' || t[i] == '\\') return true;
    return false;
}

bool msg_memory_words(const char *t, size_t n)
{
    for (size_t k = 0; k < sizeof memory_words / sizeof memory_words[0]; k++) {
        size_t m = strlen(memory_words[k]);
        for (const char *w = memmem(t, n, memory_words[k], m); w;
             w = memmem(w + 1, n - (size_t)(w + 1 - t), memory_words[k], m)) {
            /* a kernel's bad access is a fault, not a shortage: "an illegal memory
             * access was encountered", "CUDA Illegal Memory Access Error" */
            size_t e = (size_t)(w - t) + m;
            if (n - e >= 7 && !strncasecmp(t + e, " access", 7)) continue;
            /* ... nor one told the other way round ("CUDA error: Invalid access of
             * peer GPU memory over nvlink or a hardware error", h30-16) */
            if (access_of_before(t, (size_t)(w - t))) continue;
            /* a word inside a file's path names a source file, not the failure
             * ("THCudaCheck FAIL file=/pytorch/aten/src/THC/THCCachingHostAllocator.cpp
             * line=278 error=46 : all CUDA-capable devices are busy or unavailable",
             * h20-81) */
            if (in_path_token(t, n, (size_t)(w - t))) continue;
            return true;
        }
    }
    return false;
}

int msg_error_line(const char *t, size_t n)
{
    while (n > 0 && (t[n - 1] == ' ' || t[n - 1] == '\r' || t[n - 1] == '\n')) n--;
    while (n > 0 && (*t == ' ' || *t == '\t' || *t == '>' || *t == '`' || *t == '*')) t++, n--;
    if (n < 6) return 0;
    for (size_t k = 0; k < sizeof error_not / sizeof error_not[0]; k++)
        if (memmem(t, n, error_not[k], strlen(error_not[k]))) return 0;
    if (exception_head(t, n)) return 2;
    /* a sentence about an error, not one: a condition, the writer, a denial
     * ("If you get OSError: No space left on device, free some disk first.") */
    static const char *const prose_starts[] = {"If ", "if ", "I ", "It ", "When ", "when ", "You ", "you "};
    for (size_t k = 0; k < sizeof prose_starts / sizeof prose_starts[0]; k++)
        if (n > strlen(prose_starts[k]) && !memcmp(t, prose_starts[k], strlen(prose_starts[k]))) return 0;
    if (memmem(t, n, " not ", 5) || memmem(t, n, "n't ", 4)) return 0;
    /* a heading over the error, not the error: "**Error log**", "Another error:" */
    if (t[n - 1] == ':' || t[n - 1] == '*') {
        int words = 1;
        for (size_t i = 0; i < n; i++) words += t[i] == ' ';
        if (words <= 3) return 0;
    }
    for (size_t k = 0; k < sizeof error_words / sizeof error_words[0]; k++) {
        const char *w = memmem(t, n, error_words[k], strlen(error_words[k]));
        /* a whole word's end ("RuntimeError", "CUDA error:"), not "Errors" in a name */
        if (w && (size_t)(w - t) + strlen(error_words[k]) <= n) {
            size_t e = (size_t)(w - t) + strlen(error_words[k]);
            if (e == n || !ident_byte(t[e]) || error_words[k][strlen(error_words[k]) - 1] == ':' ||
                error_words[k][strlen(error_words[k]) - 1] == '=')
                return 1;
        }
    }
    return 0;
}
