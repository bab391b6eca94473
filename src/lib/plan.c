/* plan: the fix catalogue as data and the walk that picks from it (see
 * plan.h). Templates name values in braces ({batch}, {requested}, ...);
 * a fix whose needs are not met is skipped, so the order of the table is
 * the order of the plan. */
#include "lib/plan.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/onoom.h"
#include "lib/units.h"

/* What a fix needs of the event, run config and verdicts (plan_fix.needs,
 * all of them): one bit each of a 64-bit mask, bits 36-63 free. */
typedef uint64_t plan_needs;
#define NEED(k) ((plan_needs)1 << (k))
#define N_OOM NEED(0)        /* a GPU OOM (not a look-alike) */
#define N_CFG_BATCH NEED(1)  /* config gives a batch > 1 */
#define N_NO_CFG_BATCH NEED(2)
#define N_CFG_SEQ NEED(3)
#define N_NO_CFG_SEQ NEED(4)
#define N_NO_CKPT NEED(5)    /* gradient checkpointing not known to be on */
#define N_NO_LOWP NEED(6)    /* not known to run in bf16/fp16 */
#define N_NO_EXPAND NEED(7)  /* expandable_segments not already set */
#define N_PYTORCH NEED(8)
#define N_VLLM NEED(9)
#define N_NOT_VLLM NEED(10)
#define N_MULTI NEED(11)     /* several ranks */
#define N_SCALES NEED(12)    /* not an impossible single request */
#define N_KV_CACHE NEED(13)  /* vLLM: the KV cache does not fit */
#define N_WARMUP NEED(14)    /* vLLM: OOM while warming up / profiling */
#define N_NCCL_OOM NEED(15)  /* NCCL could not allocate its buffers */
#define N_GROWING NEED(16)   /* the per-step peaks grow clearly before the OOM */
#define N_NOT_GROWING NEED(17)
#define N_SINGLE NEED(18)    /* one rank (or ranks unknown) */
#define N_NOT_PYTORCH NEED(19)
#define N_NCCL_TIMEOUT NEED(20) /* the event judged is a collective (watchdog) timeout */
#define N_NOT_NCCL_TIMEOUT NEED(21)
#define N_FRAG_SNAPSHOT NEED(22) /* the hook's snapshot: room in total, in no single block */
#define N_NOT_FRAG_SNAPSHOT NEED(23)
#define N_SGLANG_KV NEED(24) /* SGLang: the KV cache pool does not fit */
#define N_LLAMA_CPP NEED(25) /* llama.cpp/ggml buffers */
#define N_TGI_WARMUP NEED(26) /* TGI: its warm-up could not fit the prefill tokens */
#define N_SHM NEED(27)       /* a DataLoader worker's shared memory (/dev/shm) ran out */
#define N_VLLM_STARTUP NEED(28) /* vLLM: less memory free at start-up than its budget */
#define N_ARRAY NEED(29)     /* an array or data-science library's allocator (RAPIDS, CuPy, ...) */
#define N_PROGRAM NEED(30)   /* not N_ARRAY: a training or inference program, whose stage a
                              * fix may follow from (every row with stages needs it) */
#define N_TF NEED(31)        /* TensorFlow's own OOM (framework tensorflow) */
#define N_JAX NEED(32)       /* JAX's own OOM (framework jax) */
#define N_XLA_SE NEED(33)    /* TF/XLA's stream executor: "failed to allocate ... from device:
                              * CUDA_ERROR_OUT_OF_MEMORY" (the allocator's grab of the card) */
#define N_ASYNC NEED(34)     /* a CUDA runtime check's "CUDA error: out of memory", whose
                              * traceback may point at a later call */
#define N_NOT_ASYNC NEED(35)

/* Frameworks with their own levers (rows below): TensorFlow's and JAX's
 * memory settings, batch and precision are not PyTorch's, and the rows that
 * follow from a stage name PyTorch's and Hugging Face's calls. */
static const char *const own_lever_frameworks[] = {"tensorflow", "jax"};

/* Frameworks whose OOMs come from array and data-science libraries, not a
 * training or inference loop: their programs have no batch, sequence or
 * optimizer to shrink, and the stage-driven fixes do not apply. */
static const char *const array_frameworks[] = {"rapids", "cupy", "catboost", "faiss", "nvhpc", "tigre",
                                               "arrayfire"};

#define V(k) (1u << (k))
#define S(k) (1u << (k))
/* Stage families: a fix lists the stages it follows from. */
#define STEP_STAGES (S(OOM_STAGE_UNKNOWN) | S(OOM_STAGE_FORWARD) | S(OOM_STAGE_BACKWARD))
/* A training step the log shows: levers for what only training holds. */
#define TRAIN_STAGES (S(OOM_STAGE_FORWARD) | S(OOM_STAGE_BACKWARD))
#define INFER_STAGES (S(OOM_STAGE_EVAL) | S(OOM_STAGE_GENERATE))

struct plan_fix {
    const char *id;
    unsigned verdicts; /* any of these (0: no verdict needed) */
    unsigned stages;   /* stage must be one of these (0: any) */
    plan_needs needs;  /* NEED bits, all */
    const char *action;
    const char *why;
};

static const struct plan_fix catalogue[] = {
    /* Look-alikes: not GPU memory. */
    {"shared-memory", V(VERDICT_HOST_MEMORY), 0, N_SHM,
     "Give the DataLoader workers more shared memory: `docker run --shm-size=16g` (or "
     "--ipc=host; Kubernetes: an emptyDir of medium Memory on /dev/shm), or fewer num_workers",
     "{text}: the workers hand batches over through /dev/shm, which is full"},
    {"host-memory", V(VERDICT_HOST_MEMORY), 0, 0,
     "Treat it as host RAM: lower DataLoader num_workers/prefetch_factor, check "
     "`dmesg | grep -i -E 'oom|killed'`, free RAM or add swap",
     "{text}: {verdict}"},
    {"triton-shared-memory", V(VERDICT_TRITON), 0, 0,
     "Use smaller Triton block sizes or fewer num_stages (or another autotune config)",
     "{verdict}"},
    {"autotune-choice", V(VERDICT_TF_RETRY), 0, 0,
     "Ignore these lines: autotuning drops the kernels that do not fit and keeps the others; "
     "look for the error that ended the run",
     "{verdict}"},
    {"tf-not-a-failure", V(VERDICT_TF_RETRY), 0, 0,
     "Ignore these warnings unless a real OOM error follows them",
     "{verdict}; they only mean more memory could have been faster"},
    {"collective-timeout", V(VERDICT_NCCL), 0, N_NCCL_TIMEOUT,
     "Find the rank that never joined the collective: diagnose every rank's log together "
     "(`oomlab diagnose RUN_ID` reads logs/ID.log and logs/ID_rank*.log), its first error "
     "(often an OOM) is the cause; raising the NCCL timeout only delays the same stop",
     "{text}: {verdict}"},
    {"nccl-not-memory", V(VERDICT_NCCL), 0, N_NOT_NCCL_TIMEOUT,
     "Rerun with NCCL_DEBUG=INFO and read the first failing rank's error",
     "{text}: {verdict}"},
    /* Not memory at all: what failed, where, and the first thing to do. */
    {"free-disk", V(VERDICT_DISK), 0, 0,
     "Free disk space where the file is written (`df -h` and `quota -s` on that folder) or "
     "write elsewhere: point the output/checkpoint directory at a larger volume and keep fewer "
     "checkpoints (save_total_limit, max_keep_ckpts)",
     "{text}{during}: {verdict}"},
    {"locate-kernel-fault", V(VERDICT_KERNEL_FAULT), 0, 0,
     "Rerun with CUDA_LAUNCH_BLOCKING=1 to see the operation that faults, then under "
     "`compute-sanitizer python ...` for the kernel; check the indices it is given and rebuild "
     "custom CUDA extensions for this torch/CUDA version and GPU",
     "{text}{during}: {verdict}"},
    {"device-assert", V(VERDICT_DEVICE_ASSERT), 0, 0,
     "Rerun with CUDA_LAUNCH_BLOCKING=1 (or the same batch on the CPU, which names the bad "
     "value): check labels < num_classes, token ids < the embedding size "
     "(resize_token_embeddings after adding tokens), and NaN/inf in logits before sampling",
     "{text}{during}: {verdict}"},
    {"gpu-hardware", V(VERDICT_GPU_HARDWARE), 0, 0,
     "Check the card: `nvidia-smi -q -d ECC` and `dmesg | grep -i xid`; reset the GPU or reboot, "
     "and move the job to another GPU or node if the error comes back",
     "{text}{during}: {verdict}"},
    {"size-overflow", V(VERDICT_SIZE_OVERFLOW), 0, 0,
     "Find the size that overflowed: print the shapes and lengths going into the failing call "
     "(a corrupt input or cache file, max_new_tokens, an image or sequence size); no memory "
     "setting helps",
     "{text}{during}: {verdict}"},
    {"read-traceback", V(VERDICT_NOT_MEMORY), 0, 0,
     "Read the last frames of the traceback above this error (the failing call and what it "
     "was given) and fix that; if a tool raised it for an OOM it caught, its own log names the "
     "original error",
     "{text}{during}: the log ends in this error and shows no memory failure"},
    {"paste-exception", V(VERDICT_CUT_OFF), 0, 0,
     "Get the end of the log (the lines after the last frame shown: the exception's class and "
     "message) and diagnose it again; the frames shown say where it failed, not why",
     "{text}{during}: the traceback is cut off before its exception"},
    /* The cause the numbers point at: a request no budget fits first. */
    /* CUDA_LAUNCH_BLOCKING only where the check is c10's asynchronous one
     * (N_ASYNC, as locate-stage): an allocator's own event (PyTorch's
     * "Tried to allocate", TF's BFC, JAX) is raised in the call that asked,
     * and its traceback is already exact. (left23) */
    {"absurd-request", V(VERDICT_ABSURD), 0, N_OOM | N_ASYNC,
     "Find the shape that asks for {requested} (run with CUDA_LAUNCH_BLOCKING=1 to get the "
     "exact frame): an overflowed or mis-set size, not a memory budget",
     "{verdict}"},
    {"absurd-request", V(VERDICT_ABSURD), 0, N_OOM | N_NOT_ASYNC,
     "Find the shape that asks for {requested} (the traceback's last frames are the call "
     "that asked for it): an overflowed or mis-set size, not a memory budget",
     "{verdict}"},
    {"exceeds-card", V(VERDICT_EXCEEDS_CARD), 0, N_OOM,
     "Check the sizes behind the {requested} tensor (sequence length, max_position_embeddings, "
     "image size); then shard it (ZeRO-3/FSDP, tensor parallel) or quantise",
     "{verdict}"},
    /* Fragmentation the snapshot proves: no size change is needed first. */
    {"expandable-segments", V(VERDICT_FRAGMENTATION), 0,
     N_OOM | N_NO_EXPAND | N_PYTORCH | N_FRAG_SNAPSHOT,
     "export {conf}=expandable_segments:True in the launch script, before Python starts "
     "(setting it inside the script has no effect)",
     "{verdict}"},
    /* Memory that grows step after step: no size change outlasts a leak. */
    {"leak-hunt", 0, 0, N_OOM | N_GROWING,
     "Hunt the leak before changing sizes: accumulate loss.item(), not the loss "
     "(total_loss += loss keeps every step's graph); keep no tensors across steps "
     "(outputs, logits, hidden states: .detach().cpu() or drop them); evaluate under "
     "torch.no_grad()",
     "the per-step peak grows before the OOM: {trend}"},
    {"other-processes", V(VERDICT_OTHER_PROCESSES), 0, N_OOM,
     "See who holds the card: `oomlab ps`{pids}; end a stale holder with "
     "`oomlab ps --kill PID` (only stale ones are ended)",
     "{verdict}"},
    {"per-process-cap", V(VERDICT_CAP), 0, N_OOM,
     "Raise or remove the per-process cap (torch.cuda.set_per_process_memory_fraction, "
     "PYTORCH_MPS_HIGH_WATERMARK_RATIO)",
     "{verdict}"},
    {"expandable-segments", V(VERDICT_FRAGMENTATION) | V(VERDICT_FREE_BUT_FAILED), 0,
     N_OOM | N_NO_EXPAND | N_PYTORCH | N_NOT_FRAG_SNAPSHOT,
     "export {conf}=expandable_segments:True in the launch script, before Python starts "
     "(setting it inside the script has no effect)",
     "{verdict}"},
    /* vLLM start-up. */
    {"vllm-kv-cache", 0, 0, N_OOM | N_KV_CACHE,
     "Lower max_model_len (or max_num_seqs), or raise gpu_memory_utilization (e.g. 0.90 -> 0.95) "
     "when building the engine",
     "{text}"},
    /* vLLM's own words: "Decrease GPU memory utilization or reduce GPU
     * memory used by other processes" (diagctx2) */
    {"vllm-startup-memory", 0, 0, N_OOM | N_VLLM_STARTUP,
     "Lower gpu_memory_utilization below the share of the card free at start-up (e.g. 0.90 -> "
     "0.80), or free the card: `oomlab ps` shows what else holds it",
     "{text}"},
    {"vllm-warmup", 0, 0, N_OOM | N_WARMUP,
     "Lower max_num_seqs (e.g. halve it) or gpu_memory_utilization (e.g. 0.90 -> 0.80) so the "
     "warm-up activations fit next to the KV cache",
     "{text}"},
    {"tgi-warmup", 0, 0, N_OOM | N_TGI_WARMUP,
     "Lower --max-batch-prefill-tokens (and --max-batch-total-tokens) when launching "
     "text-generation-launcher, so its warm-up batch fits next to the weights",
     "{text}"},
    {"sglang-mem-fraction", 0, 0, N_OOM | N_SGLANG_KV,
     "Raise --mem-fraction-static a step (e.g. 0.84 -> 0.88) so the KV cache pool fits beside "
     "the weights, or lower --context-length / --max-running-requests",
     "{text}"},
    {"llama-cpp-offload", 0, 0, N_OOM | N_LLAMA_CPP,
     "Offload fewer layers (-ngl), shorten the context (-c) and the micro-batch (-ub), or "
     "quantise the KV cache (--cache-type-k q8_0 --cache-type-v q8_0)",
     "{text}"},
    {"nccl-buffers", 0, 0, N_OOM | N_NCCL_OOM,
     "Leave NCCL room for its buffers: lower the per-GPU memory use (batch below), or "
     "NCCL_BUFFSIZE (e.g. 2097152); check for other processes on the GPU",
     "{text}"},
    /* Array and data-science libraries (N_ARRAY): the data a call is given,
     * not a batch, sets its memory; no stage-driven fix below applies. */
    {"array-chunks", 0, 0, N_OOM | N_ARRAY,
     "Give each call less data at once: split the arrays or DataFrame into chunks that fit "
     "(Dask partitions with dask-cuda, or a loop over slices; FAISS: add and search in "
     "batches), and free intermediates you no longer need (del them; CuPy: "
     "cupy.get_default_memory_pool().free_all_blocks())",
     "{text}: the library allocates what each operation's inputs and outputs need; "
     "it has no batch size of its own to lower"},
    {"array-smaller-data", 0, 0, N_OOM | N_ARRAY,
     "Make the data smaller on the device: float32 instead of float64, sparse input kept "
     "sparse (a dense copy of a sparse matrix is often the request), fewer columns; CatBoost: "
     "a lower border_count, max_ctr_complexity or depth",
     "the request is the size of the data the operation holds on the card"},
    {"array-spill", 0, 0, N_OOM | N_ARRAY,
     "If it still does not fit: let the library spill to host memory (RMM managed memory, "
     "rmm.reinitialize(managed_memory=True); dask-cuda's device_memory_limit; CuPy's "
     "cupy.cuda.MemoryPool(cupy.cuda.malloc_managed)), spread the data over several GPUs "
     "(Dask, FAISS index shards), or a larger GPU",
     "the last resorts: slower host paging, more cards, or a bigger one"},
    /* TensorFlow and JAX (and TF/XLA's stream executor): their own levers;
     * no row that follows from a stage applies (N_PROGRAM is not met).
     * TF: tf.config.experimental.set_memory_growth ("the runtime
     * initialization will not allocate all memory on the device",
     * tensorflow.org/api_docs/python/tf/config/experimental/set_memory_growth);
     * a limit with tf.config.set_logical_device_configuration and
     * LogicalDeviceConfiguration(memory_limit=...), TF1's
     * per_process_gpu_memory_fraction (tensorflow.org/guide/gpu, "Limiting
     * GPU memory growth"); mixed precision with
     * tf.keras.mixed_precision.set_global_policy('mixed_float16')
     * (tensorflow.org/guide/mixed_precision). JAX: preallocates 75% of the
     * card at its first operation; XLA_PYTHON_CLIENT_PREALLOCATE=false and
     * XLA_PYTHON_CLIENT_MEM_FRACTION=.XX (docs.jax.dev/en/latest/
     * gpu_memory_allocation.html); jax.checkpoint (jax.remat) recomputes
     * activations in the backward pass (docs.jax.dev/en/latest/
     * gradient-checkpointing.html). */
    {"xla-startup-grab", 0, 0, N_OOM | N_XLA_SE,
     "If the run went on after this line, it was not the failure: TensorFlow's and XLA's "
     "allocator asks for most of the card at start-up and retries smaller, so look for the "
     "error that ended the run; to stop the grab, tf.config.experimental.set_memory_growth(gpu, "
     "True) for each GPU (TensorFlow) or XLA_PYTHON_CLIENT_PREALLOCATE=false (JAX)",
     "{text}: the stream executor asking the driver for the allocator's pool (at start-up, "
     "most of the card)"},
    {"xla-batch", 0, 0, N_OOM | N_XLA_SE | N_SCALES,
     "If the run stopped here: halve the batch (batch_size in model.fit, the tf.data "
     "pipeline's .batch(n), or the arrays each JAX step is given)",
     "peak memory scales about linearly with the batch; {reason}"},
    {"tf-batch", 0, 0, N_OOM | N_TF | N_SCALES,
     "Halve the batch: batch_size in model.fit/evaluate/predict, or the tf.data pipeline's "
     ".batch(n)",
     "peak memory scales about linearly with the batch; {reason}"},
    {"tf-mixed-precision", 0, 0, N_OOM | N_TF | N_NO_LOWP,
     "Train in mixed precision: tf.keras.mixed_precision.set_global_policy('mixed_float16') "
     "before the model is built ('mixed_bfloat16' on TPUs){dtype_note}",
     "float16 activations take half the memory of float32; model.fit scales the loss itself"},
    {"tf-memory-growth", 0, 0, N_OOM | N_TF,
     "Share the card: tf.config.experimental.set_memory_growth(gpu, True) for each GPU before "
     "the first operation, or a fixed limit with tf.config.set_logical_device_configuration("
     "gpu, [tf.config.LogicalDeviceConfiguration(memory_limit=MB)]) (TF1: gpu_options."
     "per_process_gpu_memory_fraction)",
     "TensorFlow maps nearly all of the card's memory at start-up, leaving none to another "
     "process (a second TF or JAX process, an evaluation job) on the same GPU"},
    {"jax-preallocation", 0, 0, N_OOM | N_JAX,
     "Set how much of the card JAX takes before it starts: XLA_PYTHON_CLIENT_MEM_FRACTION=.90 "
     "(default .75) when it runs alone, a share each (or XLA_PYTHON_CLIENT_PREALLOCATE=false) "
     "when other processes use the GPU",
     "JAX preallocates 75% of the card at its first operation, and TensorFlow beside it "
     "preallocates too"},
    {"jax-batch", 0, 0, N_OOM | N_JAX | N_SCALES,
     "Halve the batch per device (the leading axis of the arrays each step is given)",
     "peak memory scales about linearly with the batch; {reason}"},
    {"jax-remat", 0, 0, N_OOM | N_JAX,
     "Rematerialise activations: wrap the layers or the loss function in jax.checkpoint "
     "(jax.remat; Flax: nn.remat)",
     "the backward pass recomputes them instead of keeping them, for more compute"},
    /* Stage unknown: the guide locates the stage before changing anything. */
    {"locate-stage", 0, S(OOM_STAGE_UNKNOWN), N_OOM | N_ASYNC | N_PROGRAM,
     "Find the stage first: print the phase (train step, eval, save) and step before each; "
     "rerun with CUDA_LAUNCH_BLOCKING=1 (slow, for locating only) so the traceback points at "
     "the failing operation",
     "the log does not show the stage, and this CUDA check may report an error at a later "
     "call than the one that failed (its own message says so): the fixes below hold in "
     "training and inference alike, or say which one they are for"},
    {"locate-stage", 0, S(OOM_STAGE_UNKNOWN), N_OOM | N_PYTORCH | N_NOT_ASYNC | N_PROGRAM,
     "Find the stage first: print the phase (train step, eval, save) and step before each, "
     "and keep the full traceback: its last frames are the allocating operation",
     "the log does not show the stage (PyTorch's allocator raises in the call that asked for "
     "the memory): the fixes below hold in training and inference alike, or say which one "
     "they are for"},
    {"locate-stage", 0, S(OOM_STAGE_UNKNOWN), N_OOM | N_NOT_PYTORCH | N_NOT_ASYNC | N_PROGRAM,
     "Find the stage first: print the phase (train step, eval, save) and step before each, "
     "and keep the full traceback",
     "the log does not show the stage: the fixes below hold in training and inference alike, "
     "or say which one they are for"},
    /* Evaluation / prediction. */
    {"eval-no-grad", 0, S(OOM_STAGE_EVAL), N_OOM | N_PROGRAM,
     "Evaluate under torch.no_grad() or torch.inference_mode(), with model.eval()",
     "the OOM happened in evaluation{at_step}: without no_grad every batch keeps its "
     "activations for a backward that never comes"},
    {"eval-batch", 0, S(OOM_STAGE_EVAL), N_OOM | N_SCALES | N_PROGRAM,
     "Halve the evaluation batch (per_device_eval_batch_size); evaluation needs no "
     "gradient accumulation to keep results the same",
     "evaluation memory scales with its own batch, which is often set larger than the "
     "training batch; {reason}"},
    {"eval-accumulation", 0, S(OOM_STAGE_EVAL), N_OOM | N_NOT_VLLM | N_PROGRAM,
     "Move predictions to the CPU as you go: eval_accumulation_steps (e.g. 8) in the "
     "Trainer, or .cpu() each batch's outputs in your own loop",
     "predictions gathered over the whole eval set stay on the GPU until the end otherwise"},
    {"eval-logits", 0, S(OOM_STAGE_EVAL), N_OOM | N_NOT_VLLM | N_PROGRAM,
     "Reduce logits before they are kept: preprocess_logits_for_metrics returning "
     "logits.argmax(-1) (Trainer), or compute the metric per batch",
     "full logits are batch x sequence x vocabulary: with a large vocabulary they dwarf the "
     "model's activations"},
    {"eval-generation", 0, S(OOM_STAGE_EVAL), N_OOM | N_NOT_VLLM | N_PROGRAM,
     "If evaluation generates (predict_with_generate): lower generation_max_length / "
     "max_new_tokens and generation_num_beams",
     "the KV cache grows with batch x beams x generated length"},
    {"eval-low-precision", 0, S(OOM_STAGE_EVAL), N_OOM | N_NO_LOWP | N_NOT_VLLM | N_PROGRAM,
     "Evaluate in bf16 (bf16_full_eval=True, or the model in torch.bfloat16 for evaluation)"
     "{dtype_note}",
     "bf16 halves the weights and activations of a forward pass that needs no fp32 master "
     "copy"},
    /* Generation. */
    {"generate-kv-cache", 0, S(OOM_STAGE_GENERATE), N_OOM | N_NOT_VLLM | N_PROGRAM,
     "Bound generation: lower max_new_tokens and num_beams (num_return_sequences)",
     "the OOM happened in generation{at_step}: the KV cache grows with batch x beams x "
     "generated length"},
    {"generate-batch", 0, S(OOM_STAGE_GENERATE), N_OOM | N_NOT_VLLM | N_SCALES | N_PROGRAM,
     "Generate in smaller batches (halve the number of prompts per generate() call)",
     "the KV cache and the activations scale with the prompts generated together; {reason}"},
    {"prompt-length", 0, S(OOM_STAGE_GENERATE), N_OOM | N_NOT_VLLM | N_PROGRAM,
     "Shorten the inputs: truncate long prompts or split them into pieces and merge the "
     "results",
     "the prompt's KV cache and attention grow with its length (attention with its square)"},
    {"inference-low-precision", 0, S(OOM_STAGE_GENERATE), N_OOM | N_NOT_VLLM | N_NO_LOWP | N_PROGRAM,
     "Load the weights in bf16 or 8/4-bit for inference (torch_dtype=torch.bfloat16, "
     "BitsAndBytesConfig(load_in_4bit=True)){dtype_note}",
     "inference usually tolerates quantisation; 4-bit weights take about a quarter"},
    /* Checkpoint save, logging, metrics. */
    {"checkpoint-from-cpu", 0, S(OOM_STAGE_CHECKPOINT), N_OOM | N_PROGRAM,
     "Save from CPU: move the state_dict to CPU before torch.save (FSDP: "
     "FullStateDictConfig(offload_to_cpu=True, rank0_only=True))",
     "the OOM happened while saving or logging{at_step}: a full copy of the weights was "
     "gathered on the GPU"},
    {"metrics-on-cpu", 0, S(OOM_STAGE_CHECKPOINT), N_OOM | N_PROGRAM,
     "Log and compute metrics on the CPU: .item() or .detach().cpu() before values are kept "
     "or gathered",
     "values kept for logging hold GPU tensors (and their graphs) until they are written"},
    {"sharded-checkpoint", 0, S(OOM_STAGE_CHECKPOINT), N_OOM | N_MULTI | N_PROGRAM,
     "Save sharded instead of gathering: FSDP SHARDED_STATE_DICT / torch.distributed.checkpoint, "
     "DeepSpeed's per-rank checkpoint files",
     "{ranks}: a full state dict gathers every rank's shard onto one card"},
    /* Model load. */
    {"load-low-precision", 0, S(OOM_STAGE_LOAD), N_OOM | N_NOT_VLLM | N_PROGRAM,
     "Load in low precision straight to the devices: torch_dtype=torch.bfloat16, "
     "device_map=\"auto\", low_cpu_mem_usage=True, or 8/4-bit (BitsAndBytesConfig); "
     "torch.load(..., map_location=\"cpu\") for checkpoints",
     "the OOM happened while loading the model: the weights alone do not fit as loaded"},
    {"load-sharded", 0, S(OOM_STAGE_LOAD), N_OOM | N_MULTI | N_PROGRAM,
     "Shard at load time: DeepSpeed ZeRO-3 (zero.Init) or FSDP with meta-device "
     "initialisation, instead of a full copy per rank",
     "{ranks}: each rank loads the full model before any sharding happens"},
    {"load-fallbacks", 0, S(OOM_STAGE_LOAD), N_OOM | N_NOT_VLLM | N_PROGRAM,
     "Offload part of the weights (device_map=\"auto\" with max_memory and offload_folder), "
     "a smaller model, or a larger GPU",
     "the guide's last resorts when the weights do not fit in any precision"},
    /* Data loading. */
    {"data-on-cpu", 0, S(OOM_STAGE_DATA), N_OOM | N_PROGRAM,
     "Keep batches on the CPU until the step: no .cuda() in the Dataset/collate_fn, "
     "pin_memory=False, fewer num_workers",
     "the OOM happened in data loading (collate/pin_memory)"},
    /* The optimizer update: batch and activations are gone by then. */
    {"8bit-optimizer", 0, S(OOM_STAGE_OPTIMIZER), N_OOM | N_PROGRAM,
     "Use an 8-bit optimizer: bitsandbytes.optim.AdamW8bit(model.parameters(), lr=...)",
     "the OOM happened in the optimizer step{at_step}: Adam's two fp32 states per parameter "
     "are allocated there; 8-bit states take a quarter"},
    {"lora", 0, S(OOM_STAGE_OPTIMIZER), N_OOM | N_PROGRAM,
     "Fine-tune LoRA adapters instead of all weights (QLoRA: 4-bit base + LoRA)",
     "gradients and optimizer states then exist only for the adapters"},
    {"zero-fsdp", 0, S(OOM_STAGE_OPTIMIZER), N_OOM | N_MULTI | N_PROGRAM,
     "Shard the optimizer states: DeepSpeed ZeRO-1/2 or FSDP",
     "DDP keeps full optimizer states on every card; {ranks}"},
    {"optimizer-offload", 0, S(OOM_STAGE_OPTIMIZER), N_OOM | N_SINGLE | N_PROGRAM,
     "Offload the optimizer states to CPU: DeepSpeed ZeRO-Offload (offload_optimizer: cpu)",
     "on one card the states can only move to host memory; slower steps"},
    /* Training steps: growth, then the guide's order, batch first. */
    {"growth", V(VERDICT_MID_RUN), STEP_STAGES | S(OOM_STAGE_DATA), N_OOM | N_NOT_GROWING | N_PROGRAM,
     "Look for memory that grows across steps: total_loss += loss (use loss.item()), tensors "
     "kept in lists, eval without no_grad, sequence lengths that grow with the data",
     "{verdict_mid}"},
    {"batch", 0, STEP_STAGES | S(OOM_STAGE_DATA), N_OOM | N_CFG_BATCH | N_SCALES | N_PROGRAM,
     "device_batch_size {batch} -> {batch2}, grad_accum {accum} -> {accum2} keeps the effective "
     "batch at {eff}",
     "peak memory scales about linearly with the per-device batch; {reason}"},
    {"batch", 0, TRAIN_STAGES | S(OOM_STAGE_DATA), N_OOM | N_NO_CFG_BATCH | N_SCALES | N_PROGRAM,
     "Halve the per-device batch size and double gradient accumulation to keep the effective "
     "batch (e.g. batch 8 -> 4, grad_accum 2 -> 4)",
     "peak memory scales about linearly with the per-device batch; {reason}"},
    /* Stage unknown: what holds whether the run trains or infers, and
     * the levers of each named as such (a paste whose stage is unknown is
     * as often an inference script as a training step) */
    {"batch", 0, S(OOM_STAGE_UNKNOWN), N_OOM | N_NO_CFG_BATCH | N_SCALES | N_PROGRAM,
     "Halve the batch per device: in training double gradient accumulation to keep the "
     "effective batch (e.g. batch 8 -> 4, grad_accum 2 -> 4); in inference pass fewer "
     "prompts, images or samples per call",
     "peak memory scales about linearly with the batch, in training and inference; {reason}"},
    {"sequence-length", 0, STEP_STAGES | S(OOM_STAGE_DATA), N_OOM | N_CFG_SEQ | N_PROGRAM,
     "max_seq_len {seq} -> {seq2} (check data splitting and position encodings still hold)",
     "{seq_reason}"},
    {"sequence-length", 0, TRAIN_STAGES | S(OOM_STAGE_DATA), N_OOM | N_NO_CFG_SEQ | N_PROGRAM,
     "Shorten the sequence length one step (e.g. 2048 -> 1024), checking data splitting and "
     "position encodings",
     "{seq_reason}"},
    {"sequence-length", 0, S(OOM_STAGE_UNKNOWN), N_OOM | N_NO_CFG_SEQ | N_PROGRAM,
     "Shorten the inputs one step: the sequence length (e.g. 2048 -> 1024 tokens), or the "
     "image, video or audio size",
     "{seq_reason}"},
    {"gradient-checkpointing", 0, TRAIN_STAGES, N_OOM | N_NO_CKPT | N_PROGRAM,
     "Turn on gradient checkpointing: model.gradient_checkpointing_enable()",
     "activations usually drop by half or more, for about a third more compute"},
    {"bf16-autocast", 0, TRAIN_STAGES, N_OOM | N_NO_LOWP | N_PROGRAM,
     "Train under torch.autocast(device_type=\"cuda\", dtype=torch.bfloat16){dtype_note}",
     "bf16 activations take half the memory of fp32; no GradScaler needed with bf16"},
    {"low-precision", 0, S(OOM_STAGE_UNKNOWN), N_OOM | N_NO_LOWP | N_PROGRAM,
     "Run in bf16: train under torch.autocast(device_type=\"cuda\", dtype=torch.bfloat16), or "
     "load the model in torch.bfloat16 for inference{dtype_note}",
     "bf16 activations (and, for inference, weights) take half the memory of fp32"},
    {"8bit-optimizer", 0, S(OOM_STAGE_BACKWARD), N_OOM | N_PROGRAM,
     "Use an 8-bit optimizer: bitsandbytes.optim.AdamW8bit(model.parameters(), lr=...)",
     "Adam keeps two fp32 states per parameter; 8-bit states take a quarter of that"},
    {"lora", 0, TRAIN_STAGES, N_OOM | N_PROGRAM,
     "Fine-tune LoRA adapters instead of all weights (QLoRA: 4-bit base + LoRA)",
     "gradients and optimizer states then exist only for the adapters"},
    {"training-levers", 0, S(OOM_STAGE_UNKNOWN), N_OOM | N_PROGRAM,
     "If it is a training step: gradient checkpointing (model.gradient_checkpointing_enable()), "
     "an 8-bit optimizer (bitsandbytes.optim.AdamW8bit), or LoRA adapters instead of all weights",
     "each cuts what only training holds: stored activations, optimizer states, gradients"},
    {"inference-levers", 0, S(OOM_STAGE_UNKNOWN), N_OOM | N_PROGRAM,
     "If it is inference: run under torch.inference_mode() with model.eval(), and bound what "
     "is generated (max_new_tokens, num_beams)",
     "without no_grad every call keeps its activations for a backward that never comes; the "
     "KV cache grows with the generated length"},
    {"zero-fsdp", 0, STEP_STAGES, N_OOM | N_MULTI | N_PROGRAM,
     "Shard instead of replicating: DeepSpeed ZeRO-2 (optimizer+gradients) or ZeRO-3/FSDP "
     "(parameters too)",
     "DDP keeps a full model, gradients and optimizer state on every card; {ranks}"},
    /* Last resorts, per family. */
    {"vllm-fallbacks", 0, 0, N_OOM | N_VLLM,
     "If it still does not fit: spread the model over more GPUs (vLLM tensor_parallel_size, "
     "TGI --num-shard), serve a quantised checkpoint (AWQ/GPTQ/FP8), or a smaller model",
     "the guide's last resorts for inference: shard, quantise or shrink the model"},
    {"inference-fallbacks", 0, INFER_STAGES, N_OOM | N_NOT_VLLM | N_PROGRAM,
     "If it still fails: offload weights (device_map=\"auto\" with offload_folder), split "
     "long inputs and merge the results, a smaller model, or a larger GPU",
     "the guide's last resorts for inference"},
    {"fallbacks", 0, STEP_STAGES | S(OOM_STAGE_DATA), N_OOM | N_PROGRAM,
     "If batch 1 still fails: a smaller model, CPU offload (DeepSpeed/Accelerate), or a "
     "larger GPU",
     "the guide's last resorts once the levers above are used up"},
};

size_t plan_catalogue_size(void)
{
    return sizeof catalogue / sizeof catalogue[0];
}

const char *plan_catalogue_id(size_t i)
{
    return i < plan_catalogue_size() ? catalogue[i].id : NULL;
}

bool plan_catalogue_stage_driven(size_t i)
{
    return i < plan_catalogue_size() && catalogue[i].stages != 0;
}

bool plan_catalogue_needs_program(size_t i)
{
    return i < plan_catalogue_size() && (catalogue[i].needs & N_PROGRAM);
}

struct vars {
    char gpu[16], requested[32], capacity[32], conf[32], text[160];
    char batch[24], batch2[24], accum[24], accum2[24], eff[24], seq[24], seq2[24];
    char at_step[48], reason[320], seq_reason[320], verdict[320], verdict_mid[320];
    char dtype_note[64], ranks[96], trend[200], pids[160], during[48];
};

static const char *lookup(const struct vars *x, const char *name, size_t n)
{
    static const struct { const char *name; size_t off; } keys[] = {
#define K(f) {#f, offsetof(struct vars, f)}
        K(gpu), K(requested), K(capacity), K(conf), K(text), K(batch), K(batch2), K(accum),
        K(accum2), K(eff), K(seq), K(seq2), K(at_step), K(reason), K(seq_reason),
        K(verdict), K(verdict_mid), K(dtype_note), K(ranks), K(trend), K(pids), K(during),
#undef K
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strlen(keys[i].name) == n && memcmp(keys[i].name, name, n) == 0)
            return (const char *)x + keys[i].off;
    return "";
}

/* A template filled in: where the values do not fit in cap, the text ends
 * at the last blank that leaves room and says so with "…" (a quote cut
 * without a mark reads as the whole line), never inside a UTF-8 character. */
static void expand(const char *tpl, const struct vars *x, char *out, size_t cap)
{
    static const char mark[] = " \xe2\x80\xa6"; /* " …" */
    size_t o = 0;
    bool cut = false;
    for (const char *p = tpl; *p && !cut;) {
        const char *close = *p == '{' ? strchr(p, '}') : NULL;
        const char *val = close ? lookup(x, p + 1, (size_t)(close - p - 1)) : p;
        size_t n = close ? strlen(val) : 1;
        if (o + n + 1 > cap) {
            n = cap - 1 - o;
            cut = true;
        }
        memcpy(out + o, val, n);
        o += n;
        p = close ? close + 1 : p + 1;
    }
    if (cut && cap > sizeof mark) {
        size_t keep = cap - sizeof mark; /* room for the mark and the NUL */
        if (o > keep) o = keep;
        size_t at = o;
        while (at > keep / 2 && out[at] != ' ') at--;
        if (out[at] == ' ') o = at;
        else
            while (o > 0 && ((unsigned char)out[o] & 0xC0) == 0x80) o--;
        while (o > 0 && out[o - 1] == ' ') o--;
        memcpy(out + o, mark, sizeof mark - 1);
        o += sizeof mark - 1;
    }
    out[o] = '\0';
}

static bool lowp(const char *dtype)
{
    return !strcmp(dtype, "bfloat16") || !strcmp(dtype, "float16");
}

/* Frameworks that are the CUDA layer, no program's own: an event of theirs
 * (a cudaMalloc's CUDA_ERROR_OUT_OF_MEMORY, cuDNN's ALLOC_FAILED) takes the
 * program's levers, where the log names the program (oom_report_program). */
static const char *const cuda_layer_frameworks[] = {"cuda", "rocm"};

/* The framework whose levers the plan names: the event's own, or the
 * program's where the event is the CUDA layer's and the log names one;
 * unknown stays the event's (progfw23). */
static const char *plan_framework(const struct oom_report *rep, const struct oom_event *e,
                                  bool xla_se)
{
    const char *program = rep ? oom_report_program(rep) : NULL;
    /* the stream executor's grab has rows of its own, naming TF's and
     * JAX's levers both (xla-startup-grab, xla-batch) */
    if (!program || xla_se) return e->framework;
    for (size_t k = 0; k < sizeof cuda_layer_frameworks / sizeof cuda_layer_frameworks[0]; k++)
        if (!strcmp(e->framework, cuda_layer_frameworks[k])) return program;
    return e->framework;
}

/* the stream executor's own words (tensorflow/stream_executor/cuda/
 * cuda_driver.cc, later xla/stream_executor): TF or JAX, whichever ran
 * it; the rows name both */
static bool xla_se_text(const struct oom_event *e)
{
    return strstr(e->text, "failed to allocate") &&
           (strstr(e->text, "from device: CUDA_") || strstr(e->text, "from device: hipError"));
}

static plan_needs needs_met(const struct oom_event *e, const struct oom_report *rep,
                          const struct verdicts *v, const struct runcfg *cfg, bool expandable,
                          const struct steps_mem_trend *trend)
{
    bool xla_se = xla_se_text(e);
    const char *fw = plan_framework(rep, e, xla_se);
    plan_needs m = 0;
    m |= trend && plan_trend_clear(trend) ? N_GROWING : N_NOT_GROWING;
    if (e->gpu_oom) m |= N_OOM;
    if (cfg && cfg->device_batch_size > 1) m |= N_CFG_BATCH;
    if (!cfg || cfg->device_batch_size < 1) m |= N_NO_CFG_BATCH;
    if (cfg && cfg->max_seq_len > 1) m |= N_CFG_SEQ;
    /* max_seq_len 1: nothing to shorten, as batch 1 has nothing to halve (the
     * generic "e.g. 2048 -> 1024" would ignore the config it was given) */
    if (!cfg || cfg->max_seq_len < 1) m |= N_NO_CFG_SEQ;
    if (!cfg || cfg->grad_ckpt != 1) m |= N_NO_CKPT;
    if (!cfg || !lowp(cfg->dtype)) m |= N_NO_LOWP;
    if (!expandable) m |= N_NO_EXPAND;
    m |= !strcmp(fw, "pytorch") ? N_PYTORCH : N_NOT_PYTORCH;
    /* An inference engine sizes its own memory: HF loading and generation
     * advice does not apply to it. vLLM and TGI share the last resorts
     * (vllm-fallbacks); SGLang and llama.cpp have their own first steps. */
    static const char *const engines[] = {"vllm", "tgi", "sglang", "llama.cpp"};
    bool engine = false;
    for (size_t k = 0; k < sizeof engines / sizeof engines[0]; k++) engine |= !strcmp(fw, engines[k]);
    if (!strcmp(fw, "vllm") || !strcmp(fw, "tgi")) m |= N_VLLM;
    if (!engine) m |= N_NOT_VLLM;
    if (!strcmp(e->kind, "vllm-kv-cache")) m |= N_KV_CACHE;
    if (!strcmp(e->kind, "vllm-oom")) m |= N_WARMUP;
    if (!strcmp(e->kind, "vllm-startup-memory")) m |= N_VLLM_STARTUP;
    if (!strcmp(e->kind, "tgi-warmup")) m |= N_TGI_WARMUP;
    if (!strcmp(e->kind, "nccl-oom")) m |= N_NCCL_OOM;
    if (!strcmp(e->kind, "sglang-kv-cache")) m |= N_SGLANG_KV;
    if (!strcmp(fw, "llama.cpp")) m |= N_LLAMA_CPP;
    for (size_t k = 0; k < sizeof array_frameworks / sizeof array_frameworks[0]; k++)
        if (!strcmp(fw, array_frameworks[k])) m |= N_ARRAY;
    if (!strcmp(fw, "tensorflow")) m |= N_TF;
    if (!strcmp(fw, "jax")) m |= N_JAX;
    if (xla_se) m |= N_XLA_SE;
    bool own_levers = (m & (N_TF | N_JAX | N_XLA_SE)) != 0;
    for (size_t k = 0; k < sizeof own_lever_frameworks / sizeof own_lever_frameworks[0]; k++)
        own_levers |= !strcmp(fw, own_lever_frameworks[k]);
    if (!(m & N_ARRAY) && !own_levers) m |= N_PROGRAM;
    /* c10's CUDA check (C10_CUDA_CHECK, and extensions that print the same
     * words) says its own traceback may be wrong: "CUDA kernel errors might
     * be asynchronously reported at some other API call, so the stacktrace
     * below might be incorrect. For debugging consider passing
     * CUDA_LAUNCH_BLOCKING=1." (pytorch/pytorch:c10/cuda/CUDAMiscFunctions.cpp,
     * get_cuda_check_suffix). The caching allocator's "CUDA out of memory.
     * Tried to allocate" is raised in the allocating call itself, so its
     * traceback is already exact. Not TF's cuMemAllocAsync line nor ggml's
     * check, which say the same words about a synchronous allocation. */
    bool async = !strcmp(e->kind, "cuda-error") && strcmp(fw, "llama.cpp") &&
                 !strstr(e->text, "cuMemAllocAsync") &&
                 (strstr(e->text, "CUDA error: out of memory") || strstr(e->text, "HIP error: out of memory"));
    m |= async ? N_ASYNC : N_NOT_ASYNC;
    if (!strcmp(e->kind, "host-shm") ||
        (!strcmp(e->kind, "host-dataloader-killed") && strstr(e->text, "shared memory")))
        m |= N_SHM;
    m |= !strcmp(e->kind, "nccl-timeout") ? N_NCCL_TIMEOUT : N_NOT_NCCL_TIMEOUT;
    m |= v->frag_from_snapshot ? N_FRAG_SNAPSHOT : N_NOT_FRAG_SNAPSHOT;
    if (v->ranks > 1) m |= N_MULTI;
    else m |= N_SINGLE;
    if (!verdict_has(v, VERDICT_EXCEEDS_CARD) && !verdict_has(v, VERDICT_ABSURD)) m |= N_SCALES;
    return m;
}

static void fill_config(const struct runcfg *cfg, struct vars *x)
{
    if (!cfg) return;
    long b = cfg->device_batch_size, a = cfg->grad_accum > 0 ? cfg->grad_accum : 1;
    if (b > 1) {
        /* as run --on-oom halve-batch: b/2 when b is even, else b's largest
         * divisor below that, so "keeps the effective batch" is exact (9 ->
         * 4 with grad_accum 2 -> 5 made it 20, not 18); both < 2^31 (runcfg) */
        long b2 = onoom_half_batch(b), a2 = a * (b / b2);
        snprintf(x->batch, sizeof x->batch, "%ld", b);
        snprintf(x->batch2, sizeof x->batch2, "%ld", b2);
        snprintf(x->accum, sizeof x->accum, "%ld", a);
        snprintf(x->accum2, sizeof x->accum2, "%ld", a2);
        snprintf(x->eff, sizeof x->eff, "%ld", b * a);
    }
    if (cfg->max_seq_len > 1) {
        snprintf(x->seq, sizeof x->seq, "%ld", cfg->max_seq_len);
        snprintf(x->seq2, sizeof x->seq2, "%ld", cfg->max_seq_len / 2);
    }
    if (cfg->dtype[0]) snprintf(x->dtype_note, sizeof x->dtype_note, " (now %s)", cfg->dtype);
}

/* " (the message names PID 158698 with 28.56 GiB, PID 4021 with 1.20 GiB)". */
static void fill_pids(const struct oom_event *e, char *out, size_t cap)
{
    size_t o = 0;
    out[0] = '\0';
    for (size_t i = 0; i < e->n_procs && i < 4 && o + 1 < cap; i++) {
        char b[32];
        int w = snprintf(out + o, cap - o, "%s PID %ld with %s", i ? "," : " (the message names",
                         e->procs[i].pid, units_format_bytes(e->procs[i].bytes, b, sizeof b));
        if (w < 0 || (size_t)w >= cap - o) break;
        o += (size_t)w;
    }
    if (o && o + 1 < cap) {
        const char *more = e->n_procs > 4 ? ", ...)" : ")";
        snprintf(out + o, cap - o, "%s", more);
    }
}

/* ", while saving a checkpoint": the stage an event happened in, in words
 * (empty when unknown). */
static void fill_during(enum oom_stage stage, char *out, size_t cap)
{
    static const struct { enum oom_stage stage; const char *words; } during[] = {
        {OOM_STAGE_DATA, "in data loading"},
        {OOM_STAGE_LOAD, "while loading or setting up the model"},
        {OOM_STAGE_FORWARD, "in the forward pass"},
        {OOM_STAGE_BACKWARD, "in the backward pass"},
        {OOM_STAGE_OPTIMIZER, "in the optimizer step"},
        {OOM_STAGE_EVAL, "in evaluation"},
        {OOM_STAGE_GENERATE, "in generation"},
        {OOM_STAGE_CHECKPOINT, "while saving a checkpoint (or logging)"},
    };
    out[0] = '\0';
    for (size_t i = 0; i < sizeof during / sizeof during[0]; i++)
        if (during[i].stage == stage) snprintf(out, cap, ", %s", during[i].words);
}

/* How much of a log line a plan's "why" quotes: all of it up to max bytes,
 * else up to the last blank before max (never mid-word, never inside a
 * UTF-8 character). */
static int excerpt_len(const char *text, size_t max)
{
    size_t n = strlen(text);
    if (n <= max) return (int)n;
    size_t cut = max;
    while (cut > max / 2 && text[cut] != ' ') cut--;
    if (text[cut] != ' ') /* one long word: a whole character */
        for (cut = max; cut > 0 && ((unsigned char)text[cut] & 0xC0) == 0x80; cut--) {}
    while (cut > 0 && text[cut - 1] == ' ') cut--;
    return (int)cut;
}

static void fill_vars(const struct oom_report *rep, const struct verdicts *v,
                      const struct runcfg *cfg, const struct steps_mem_trend *trend, struct vars *x)
{
    const struct oom_event *e = v->ev;
    memset(x, 0, sizeof *x);
    if (e->gpu >= 0) snprintf(x->gpu, sizeof x->gpu, "%d", e->gpu);
    else snprintf(x->gpu, sizeof x->gpu, "0");
    units_format_bytes(e->bytes.requested, x->requested, sizeof x->requested);
    units_format_bytes(e->bytes.capacity, x->capacity, sizeof x->capacity);
    snprintf(x->conf, sizeof x->conf, "%s",
             strstr(e->text, "HIP") ? "PYTORCH_HIP_ALLOC_CONF" : "PYTORCH_CUDA_ALLOC_CONF");
    int cut = excerpt_len(e->text, 100);
    snprintf(x->text, sizeof x->text, "line %ld: %.*s%s", e->line, cut, e->text, e->text[cut] ? " ..." : "");
    if (e->step >= 0) snprintf(x->at_step, sizeof x->at_step, " at step %ld", e->step);
    fill_during(e->stage, x->during, sizeof x->during);
    fill_config(cfg, x);
    fill_pids(e, x->pids, sizeof x->pids);
    if (trend) plan_trend_explain(trend, x->trend, sizeof x->trend);
    char buf[320];
    for (int k = 0; k < VERDICT_COUNT; k++) {
        if (!verdict_has(v, (enum verdict_kind)k)) continue;
        verdict_explain(v, (enum verdict_kind)k, buf, sizeof buf);
        if (!x->verdict[0] && k != VERDICT_EARLY && k != VERDICT_MID_RUN &&
            k != VERDICT_MULTI_RANK && k != VERDICT_SHORTFALL && k != VERDICT_ATTENTION)
            snprintf(x->verdict, sizeof x->verdict, "%s", buf);
        if (k == VERDICT_MID_RUN) snprintf(x->verdict_mid, sizeof x->verdict_mid, "%s", buf);
        if (k == VERDICT_ATTENTION) snprintf(x->seq_reason, sizeof x->seq_reason, "%s", buf);
    }
    if (verdict_has(v, VERDICT_SHORTFALL))
        verdict_explain(v, VERDICT_SHORTFALL, x->reason, sizeof x->reason);
    else if (e->stage == OOM_STAGE_UNKNOWN)
        snprintf(x->reason, sizeof x->reason, "the GPU ran out%s (the log does not show in which stage)",
                 x->at_step);
    else
        snprintf(x->reason, sizeof x->reason, "the GPU ran out in %s%s",
                 oom_stage_name(e->stage), x->at_step);
    if (!x->seq_reason[0])
        snprintf(x->seq_reason, sizeof x->seq_reason,
                 "the second lever: activations grow with sequence length (attention with its "
                 "square)%s", cfg && cfg->device_batch_size == 1 ? "; the batch is already 1" : "");
    if (v->ranks > 1)
        snprintf(x->ranks, sizeof x->ranks, "%d ranks seen", v->ranks);
    else
        snprintf(x->ranks, sizeof x->ranks, "sharding lowers per-card memory");
    (void)rep;
}

void plan_build(const struct oom_report *rep, const struct verdicts *v,
                const struct runcfg *cfg, struct plan *plan)
{
    plan_build_trend(rep, v, cfg, NULL, plan);
}

void plan_build_trend(const struct oom_report *rep, const struct verdicts *v,
                      const struct runcfg *cfg, const struct steps_mem_trend *trend,
                      struct plan *plan)
{
    memset(plan, 0, sizeof *plan);
    if (!v->ev) return;
    /* a model's config.json given as the run's config (diagnose --config,
     * run --config, then report and run's first fix): its torch_dtype is how
     * the weights are stored, not the training precision */
    if (cfg && runcfg_is_model_config(cfg)) cfg = NULL;
    const struct oom_event *e = v->ev;
    bool expandable = v->expandable_set;
    if (cfg)
        for (size_t i = 0; i < cfg->n_extra; i++)
            if (cfg->extra[i].value && strstr(cfg->extra[i].value, "expandable_segments:True"))
                expandable = true;
    plan_needs met = needs_met(e, rep, v, cfg, expandable, trend);
    struct vars x;
    fill_vars(rep, v, cfg, trend, &x);
    for (size_t i = 0; i < plan_catalogue_size() && plan->n < PLAN_MAX; i++) {
        const struct plan_fix *f = &catalogue[i];
        if (f->verdicts && !(v->set & f->verdicts)) continue;
        if (f->stages && !(f->stages & S(e->stage))) continue;
        if ((f->needs & met) != f->needs) continue;
        /* {verdict} is the judgement that selected this fix. */
        for (int k = 0; f->verdicts && k < VERDICT_COUNT; k++)
            if ((f->verdicts & v->set) >> k & 1u) {
                verdict_explain(v, (enum verdict_kind)k, x.verdict, sizeof x.verdict);
                break;
            }
        struct plan_item *it = &plan->items[plan->n++];
        it->id = f->id;
        expand(f->action, &x, it->action, sizeof it->action);
        expand(f->why, &x, it->why, sizeof it->why);
    }
}

/* ---- memory trend ---------------------------------------------------------- */

bool plan_trend_clear(const struct steps_mem_trend *t)
{
    return t->trend == STEPS_TREND_RISING && t->points >= 3 && t->first_bytes > 0 &&
           (double)t->last_bytes >= (double)t->first_bytes * 1.02;
}

const char *plan_trend_figure(const struct steps_mem_trend *t)
{
    return t->kind == STEPS_PEAK_ALLOC      ? "peak allocated"
           : t->kind == STEPS_PEAK_RESERVED ? "peak reserved"
           : t->kind == STEPS_MEM           ? "memory"
                                            : "";
}

static void at_step(long step, char *buf, size_t cap)
{
    if (step >= 0) snprintf(buf, cap, " at step %ld", step);
    else buf[0] = '\0';
}

const char *plan_trend_explain(const struct steps_mem_trend *t, char *buf, size_t cap)
{
    if (!cap) return buf;
    buf[0] = '\0';
    if (!t->kind || !t->points) return buf;
    char a[32], b[32], d[32], sa[32], sb[32], per[64] = "";
    at_step(t->first_step, sa, sizeof sa);
    at_step(t->last_step, sb, sizeof sb);
    double slope = t->bytes_per_100_steps;
    if (!isnan(slope) && slope > -9.0e18 && slope < 9.0e18) {
        int64_t mag = (int64_t)(slope < 0 ? -slope : slope);
        snprintf(per, sizeof per, "%s%s per 100 steps, ", slope < 0 ? "-" : "+",
                 units_format_bytes(mag, d, sizeof d));
    }
    snprintf(buf, cap, "%s %s%s -> %s%s (%s%zu point%s)", plan_trend_figure(t),
             units_format_bytes(t->first_bytes, a, sizeof a), sa,
             units_format_bytes(t->last_bytes, b, sizeof b), sb, per, t->points,
             t->points == 1 ? "" : "s");
    return buf;
}
