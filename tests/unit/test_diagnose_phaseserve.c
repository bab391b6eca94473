/* diagnose's stage from what serving engines and inference apps print,
 * helper diagphaseserve (issue 12): a phase-line coverage audit of the
 * inference, serving and app family (vLLM v0 and v1, SGLang, TGI, llama.cpp,
 * ollama, koboldcpp, text-generation-webui, exllamav2, faster-whisper,
 * WhisperX, AUTOMATIC1111 and Forge, ComfyUI, LMDeploy, diffusers). Each
 * row is a short synthetic paste without a useful traceback: the library's
 * own start-up, progress and status lines as its source prints them
 * (owner/repo:path@commit beside each row; format strings filled with
 * plausible values), then an OOM message as that stack shows it, or an
 * issue title and a log cut before its error. The stage is the one a
 * labeller following the corpus conventions gives: the last lines the
 * program printed tell what it was doing (engine start-up, profiling,
 * KV-cache allocation, CUDA-graph capture and warm-up are load; a request
 * being served, a sampling bar, a transcription are generate; a
 * perplexity run is eval). No row was read from a corpus log.
 * `build/tests/test_diagnose_phaseserve --table` prints every row with
 * the stage diagnose gives; `--paste N` prints row N's paste. Rows after
 * the "set aside" marker were written after the classifier changes and
 * scored once (/work/notes/diagphaseserve.md). */
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
#include "lib/stage.h"
#include "stage_fixture.h"
#include "stage_audit.h"

/* PyTorch's current OOM message (c10/cuda/CUDACachingAllocator.cpp) */
#define OOM                                                                                                 \
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of " \
    "79.19 GiB of which 1.02 GiB is free. Including non-PyTorch memory, this process has 78.16 GiB memory "  \
    "in use. Of the allocated memory 76.50 GiB is allocated by PyTorch, and 0.60 GiB is reserved by "      \
    "PyTorch but unallocated.\n"
/* ggml's CUDA backend failing to allocate a buffer
 * (ggml/src/ggml-cuda/ggml-cuda.cu ggml_backend_cuda_buffer_type_alloc_buffer) */
#define GGML "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 4096.00 MiB on device 0: cudaMalloc failed: out of memory\n"
/* ggml's CUDA error report from a kernel's allocation (ggml-cuda.cu ggml_cuda_error) */
#define GGML_ERR                                                                                            \
    "CUDA error: out of memory\n  current device: 0, in function alloc at ggml/src/ggml-cuda/ggml-cuda.cu:407\n" \
    "  cuMemCreate(&handle, reserve_size, &prop, 0)\n"
/* vLLM's log prefix (vllm/logger.py: "%(levelname)s %(asctime)s [%(filename)s:%(lineno)d] %(message)s") */
#define V1 "(EngineCore_0 pid=3301) INFO 03-14 09:13:07 "
#define VA "(APIServer pid=3150) INFO 03-14 09:20:41 "
/* SGLang's scheduler prefix (python/sglang/srt/utils.py configure_logger: "[%(asctime)s TP0] ") */
#define SG "[2025-05-02 16:14:33 TP0] "
/* TGI's tracing prefix (launcher and router, tracing_subscriber's default format) */
#define TGI "2024-05-01T10:00:00.123456Z  INFO "
/* LMDeploy's logger (lmdeploy/utils.py: "%(asctime)s - %(name)s - %(levelname)s - %(filename)s:%(lineno)d - %(message)s") */
#define LMD "2025-01-10 10:00:00,123 - lmdeploy - INFO - "
/* text-generation-webui's RichHandler (modules/logging_colors.py: time '%H:%M:%S-%f', level) */
#define TGW "10:00:00-123456 INFO     "
/* ComfyUI's exception banner (execution.py execute) */
#define COMFY_OOM "!!! Exception during processing !!! Allocation on device \ntorch.OutOfMemoryError: Allocation on device \n"

static const struct audit_row audit_rows[] = {
    /* ---- vLLM v1: vllm-project/vllm vllm/v1/worker/gpu_model_runner.py@4e179065,
     * gpu_worker.py@35d5cda1, vllm/v1/core/kv_cache_utils.py@bbf906a8, v1/engine/core.py@ac3cb2e2, v1/metrics/loggers.py@a6f0308c ---- */
    {"vllm", "load", "v1 start-up: Starting to load model, shard-loading bar", "vllm-project/vllm:vllm/v1/worker/gpu_model_runner.py@4e179065",
     "!" V1 "[gpu_model_runner.py:1329] Starting to load model meta-llama/Llama-3.1-70B-Instruct...\n"
     V1 "[cuda.py:203] Using Flash Attention backend on V1 engine.\n"
     "Loading safetensors checkpoint shards:  27% Completed | 8/30 [00:12<00:33,  1.52s/it]\n" OOM, NULL},
    {"vllm", "load", "v1: Model loading took ..., then torch.compile (the engine compiling before profiling)", "vllm-project/vllm:vllm/v1/worker/gpu_model_runner.py@4e179065",
     "!" V1 "[gpu_model_runner.py:1341] Model loading took 14.9888 GiB and 13.204526 seconds\n"
     V1 "[backends.py:430] Using cache directory: /root/.cache/vllm/torch_compile_cache/6e2b3a7c1f/rank_0_0 for vLLM's torch.compile\n"
     V1 "[backends.py:440] Dynamo bytecode transform time: 7.51 s\n"
     V1 "[monitor.py:33] torch.compile takes 22.31 s in total\n" OOM, NULL},
    {"vllm", "load", "v1: memory profiling, KV-cache sizing, CUDA-graph capture bar", "vllm-project/vllm:vllm/v1/worker/gpu_worker.py@35d5cda1",
     "!" V1 "[gpu_worker.py:227] Memory profiling takes 11.85 seconds\n"
     V1 "[kv_cache_utils.py:634] GPU KV cache size: 421,552 tokens\n"
     V1 "[kv_cache_utils.py:637] Maximum concurrency for 131,072 tokens per request: 3.22x\n"
     "Capturing CUDA graphs (mixed prefill-decode, PIECEWISE):  45%|####5     | 30/67 [00:04<00:05,  6.91it/s]\n" OOM, NULL},
    {"vllm", "load", "v1: Available KV cache memory right above the error", "vllm-project/vllm:vllm/v1/worker/gpu_worker.py@35d5cda1",
     "!" V1 "[gpu_worker.py:227] Memory profiling takes 11.85 seconds\n"
     V1 "[gpu_worker.py:298] Available KV cache memory: 51.46 GiB\n" OOM, NULL},
    {"vllm", "load", "title, then start-up lines cut after Maximum concurrency", "vllm-project/vllm:vllm/v1/core/kv_cache_utils.py@bbf906a8",
     "![Bug]: CUDA out of memory when starting Qwen2.5-72B-Instruct with tensor parallel 4\n"
     "### Your current environment\n4x A100 80GB, vllm 0.8.5\n```\n"
     V1 "[gpu_model_runner.py:1341] Model loading took 34.1532 GiB and 41.82 seconds\n"
     V1 "[gpu_worker.py:227] Memory profiling takes 18.02 seconds\n"
     V1 "[kv_cache_utils.py:634] GPU KV cache size: 98,304 tokens\n"
     V1 "[kv_cache_utils.py:637] Maximum concurrency for 32,768 tokens per request: 3.00x\n", NULL},
    {"vllm", "unknown", "negative: the lines that end start-up (Graph capturing finished, init engine ... took): what ran next is not shown (as h29-69's '# GPU blocks')", "vllm-project/vllm:vllm/v1/engine/core.py@ac3cb2e2",
     "!" V1 "[gpu_model_runner.py:1725] Graph capturing finished in 12 secs, took 0.55 GiB\n"
     V1 "[core.py:171] init engine (profile, create kv cache, warmup model) took 48.91 seconds\n" OOM, NULL},
    /* ---- vLLM v0: vllm/worker/model_runner.py, @587909ce, vllm/executor/gpu_executor.py ---- */
    {"vllm", "load", "v0: # GPU blocks, then Capturing the model for CUDA graphs", "vllm-project/vllm:vllm/worker/model_runner.py@587909ce",
     "!INFO 07-23 20:49:31 gpu_executor.py:122] # GPU blocks: 2340, # CPU blocks: 512\n"
     "INFO 07-23 20:49:35 model_runner.py:1062] Capturing the model for CUDA graphs. This may lead to unexpected consequences "
     "if the model is not static. To run the model in eager mode, set 'enforce_eager=True' or use '--enforce-eager' in the CLI.\n"
     "INFO 07-23 20:49:35 model_runner.py:1066] CUDA graphs can take additional 1~3 GiB memory per GPU. If you are running out of "
     "memory, consider decreasing `gpu_memory_utilization` or enforcing eager mode. You can also reduce the `max_num_seqs` as needed "
     "to decrease memory usage.\n" OOM, NULL},
    {"vllm", "load", "v0: Loading model weights took ... GB right above the error (the profiling run follows)", "vllm-project/vllm:vllm/worker/model_runner.py@587909ce",
     "!INFO 07-23 20:47:02 model_runner.py:732] Loading model weights took 14.2978 GB\n" OOM, NULL},
    /* ---- vLLM offline and serving: vllm/entrypoints/llm.py@10fdb8f0, vllm/v1/metrics/loggers.py@a6f0308c ---- */
    {"vllm", "generate", "LLM.generate's Processed prompts bar", "vllm-project/vllm:vllm/entrypoints/llm.py@10fdb8f0",
     "!Processed prompts:  37%|###7      | 370/1000 [01:12<02:03,  5.10it/s, est. speed input: 2410.11 toks/s, output: 1002.30 toks/s]\n" OOM, NULL},
    {"vllm", "generate", "the engine's periodic stats line while serving", "vllm-project/vllm:vllm/v1/metrics/loggers.py@a6f0308c",
     "!" VA "[loggers.py:116] Engine 000: Avg prompt throughput: 1502.3 tokens/s, Avg generation throughput: 210.5 tokens/s, "
     "Running: 12 reqs, Waiting: 0 reqs, GPU KV cache usage: 86.3%, Prefix cache hit rate: 12.1%\n" OOM, NULL},
    {"vllm", "generate", "negative: start-up lines far above, then the server up and a request served", "vllm-project/vllm:vllm/entrypoints/openai/api_server.py@048027fb",
     "!Capturing CUDA graphs (mixed prefill-decode, PIECEWISE): 100%|##########| 67/67 [00:09<00:00,  7.12it/s]\n"
     V1 "[gpu_model_runner.py:1725] Graph capturing finished in 10 secs, took 0.55 GiB\n"
     V1 "[core.py:171] init engine (profile, create kv cache, warmup model) took 48.91 seconds\n"
     VA "[api_server.py:1090] Starting vLLM API server 0 on http://0.0.0.0:8000\n"
     VA "[launcher.py:37] Route: /v1/chat/completions, Methods: POST\n"
     "INFO:     Started server process [3150]\nINFO:     Waiting for application startup.\n"
     "INFO:     Application startup complete.\n"
     "INFO:     10.0.0.5:41234 - \"POST /v1/chat/completions HTTP/1.1\" 200 OK\n"
     VA "[logger.py:39] Received request chatcmpl-3f2a: prompt: '<|im_start|>user\\nSummarise the attached report<|im_end|>', params: SamplingParams(n=1, temperature=0.7, max_tokens=4096)\n"
     OOM, NULL},
    /* ---- SGLang: sgl-project/sglang python/sglang/srt/model_executor/model_runner.py@01cc04e2,
     * managers/scheduler.py@d51c1c21, mem_cache/memory_pool.py, entrypoints/http_server.py@9c0549b7 ---- */
    {"sglang", "load", "Load weight begin. avail mem=...", "sgl-project/sglang:python/sglang/srt/model_executor/model_runner.py@01cc04e2",
     "!" SG "Init torch distributed begin.\n" SG "Init torch distributed ends. mem usage=0.00 GB\n"
     SG "Load weight begin. avail mem=78.54 GB\n" OOM, NULL},
    {"sglang", "load", "Load weight end, KV Cache is allocated, Memory pool end", "sgl-project/sglang:python/sglang/srt/model_executor/model_runner.py@01cc04e2",
     "!" SG "Load weight end. type=Qwen2ForCausalLM, dtype=torch.bfloat16, avail mem=63.12 GB, mem usage=15.42 GB.\n"
     SG "KV Cache is allocated. #tokens: 397436, K size: 24.26 GB, V size: 24.26 GB\n"
     SG "Memory pool end. avail mem=13.81 GB\n" OOM, NULL},
    {"sglang", "load", "Capture cuda graph begin / bs list", "sgl-project/sglang:python/sglang/srt/model_executor/model_runner.py@01cc04e2",
     "!" SG "Capture cuda graph begin. This can take up to several minutes. avail mem=13.75 GB\n"
     SG "Capture cuda graph bs [1, 2, 4, 8, 16, 24, 32, 40, 48, 56, 64]\n" OOM, NULL},
    {"sglang", "load", "the scheduler's pool sizing line right above (h33-01's convention)", "sgl-project/sglang:python/sglang/srt/managers/scheduler.py@d51c1c21",
     "!" SG "Capture cuda graph end. Time elapsed: 12.31 s. mem usage=1.21 GB. avail mem=12.54 GB.\n"
     SG "max_total_num_tokens=397436, chunked_prefill_size=8192, max_prefill_tokens=16384, max_running_requests=4097, context_len=131072, available_gpu_mem=12.54 GB\n"
     OOM, NULL},
    {"sglang", "generate", "Decode batch line", "sgl-project/sglang:python/sglang/srt/managers/scheduler.py@d51c1c21",
     "!" SG "Decode batch. #running-req: 64, #token: 88731, token usage: 0.91, cuda graph: True, gen throughput (token/s): 2204.31, #queue-req: 12\n"
     OOM, NULL},
    {"sglang", "generate", "The server is fired up and ready to roll!", "sgl-project/sglang:python/sglang/srt/entrypoints/http_server.py@9c0549b7",
     "![2025-05-02 16:15:01] INFO:     127.0.0.1:50112 - \"POST /generate HTTP/1.1\" 200 OK\n"
     "[2025-05-02 16:15:01] The server is fired up and ready to roll!\n" OOM, NULL},
    /* ---- TGI: huggingface/text-generation-inference launcher/src/main.rs@db931fcf,
     * backends/v3/src/lib.rs@db931fcf, server/text_generation_server/models/flash_causal_lm.py@db931fcf ---- */
    {"tgi", "load", "launcher: Starting shard / Waiting for shard to be ready", "huggingface/text-generation-inference:launcher/src/main.rs@db931fcf",
     "!" TGI "download: text_generation_launcher: Successfully downloaded weights for meta-llama/Meta-Llama-3-70B-Instruct\n"
     TGI "shard-manager: text_generation_launcher: Starting shard rank=0\n"
     TGI "shard-manager: text_generation_launcher: Waiting for shard to be ready... rank=0\n" OOM, NULL},
    {"tgi", "load", "router: Warming up model, then the shard's error", "huggingface/text-generation-inference:backends/v3/src/lib.rs@db931fcf",
     "!" TGI "text_generation_router_v3: backends/v3/src/lib.rs:125: Warming up model\n"
     "2024-05-01T10:00:09.000000Z ERROR warmup{max_input_length=Some(4095) max_prefill_tokens=4096 max_total_tokens=Some(4096) max_batch_size=None}:warmup: "
     "text_generation_router_v3::client: backends/v3/src/client/mod.rs:45: Server error: CUDA out of memory. Tried to allocate 1.50 GiB. GPU 0 has a total capacity of 23.64 GiB of which 1.21 GiB is free.\n",
     NULL},
    {"tgi", "load", "shard: Cuda Graphs are enabled for sizes ...", "huggingface/text-generation-inference:server/text_generation_server/models/flash_causal_lm.py@db931fcf",
     "!" TGI "text_generation_launcher: Cuda Graphs are enabled for sizes [32, 16, 8, 4, 2, 1]\n" OOM, NULL},
    {"tgi", "generate", "router: Connected (serving)", "huggingface/text-generation-inference:router/src/server.rs@db931fcf",
     "!" TGI "text_generation_router_v3: backends/v3/src/lib.rs:137: Setting max batch total tokens to 16000\n"
     TGI "text_generation_router::server: router/src/server.rs:2302: Connected\n" OOM,
     "\"Connected\" alone is too common a word (NCCL, wandb, databases print it) to read as a server that serves"},
    {"tgi", "unknown", "negative: the launcher's argument dump is no phase (h33-18)", "huggingface/text-generation-inference:launcher/src/main.rs@db931fcf",
     "!" TGI "text_generation_launcher: Args { model_id: \"bigscience/bloom-560m\", revision: None, validation_workers: 2, sharded: None, "
     "num_shard: Some(8), quantize: None, max_batch_prefill_tokens: Some(4096), max_batch_total_tokens: Some(16000), cuda_graphs: None, "
     "hostname: \"0.0.0.0\", port: 80, weights_cache_override: None, disable_custom_kernels: false }\n" OOM, NULL},
    /* ---- llama.cpp (as vendored by LostRuins/koboldcpp@2da346a5): src/llama.cpp, examples/main/main.cpp ---- */
    {"llama.cpp", "load", "llm_load_tensors offloading layers", "LostRuins/koboldcpp:src/llama.cpp@2da346a5",
     "!llm_load_tensors: offloading 32 repeating layers to GPU\nllm_load_tensors: offloading non-repeating layers to GPU\n"
     "llm_load_tensors: offloaded 33/33 layers to GPU\nllm_load_tensors:        CPU buffer size =   281.81 MiB\n" GGML, NULL},
    {"llama.cpp", "generate", "main: sampler seed / generate: n_ctx = ... before the failure", "LostRuins/koboldcpp:examples/main/main.cpp@2da346a5",
     "!sampler seed: 3712644162\n"
     "sampler params: \n\trepeat_last_n = 64, repeat_penalty = 1.000, frequency_penalty = 0.000, presence_penalty = 0.000\n"
     "generate: n_ctx = 8192, n_batch = 2048, n_predict = -1, n_keep = 1\n\n"
     "Write a story about a lighthouse keeper who" GGML_ERR, NULL},
    /* ---- ollama: ollama/ollama llm/server.go@f63eea3d ---- */
    {"ollama", "load", "starting runner / waiting for llama runner to start responding", "ollama/ollama:llm/server.go@f63eea3d",
     "!time=2025-06-01T10:00:00.000Z level=INFO source=server.go:433 msg=\"starting runner\" cmd=\"/usr/bin/ollama runner --model /root/.ollama/models/blobs/sha256-6a0746a1 --ctx-size 8192 --batch-size 512 --n-gpu-layers 81 --threads 16 --parallel 4 --port 41231\"\n"
     "time=2025-06-01T10:00:00.100Z level=INFO source=server.go:1385 msg=\"waiting for llama runner to start responding\"\n"
     "time=2025-06-01T10:00:00.300Z level=INFO source=server.go:1428 msg=\"waiting for server to become available\" status=\"llm server loading model\"\n"
     GGML, NULL},
    {"ollama", "unknown", "negative: llama runner started, then a failure with no request shown (h19-24)", "ollama/ollama:llm/server.go@f63eea3d",
     "!time=2025-06-01T10:00:03.520Z level=INFO source=server.go:1432 msg=\"llama runner started in 3.52 seconds\"\n" GGML_ERR, NULL},
    {"ollama", "generate", "a chat request logged by the server after the runner started", "ollama/ollama:server/routes.go@24fbbbbc (gin logger)",
     "!time=2025-06-01T10:00:03.520Z level=INFO source=server.go:1432 msg=\"llama runner started in 3.52 seconds\"\n"
     "[GIN] 2025/06/01 - 10:00:09 | 200 |  9.412113s |       127.0.0.1 | POST     \"/api/chat\"\n" GGML_ERR, NULL},
    /* ---- koboldcpp: LostRuins/koboldcpp koboldcpp.py@2da346a5, gpttype_adapter.cpp@2da346a5 ---- */
    {"koboldcpp", "generate", "the API up, a request's Input: line", "LostRuins/koboldcpp:koboldcpp.py@2da346a5",
     "!Load Text Model OK: True\nEmbedded KoboldAI Lite loaded.\n"
     "Starting Kobold API on port 5001 at http://localhost:5001/api/\n"
     "Starting OpenAI Compatible API on port 5001 at http://localhost:5001/v1/\n======\n"
     "Please connect to custom endpoint at http://localhost:5001\n\n"
     "Input: {\"n\": 1, \"max_context_length\": 8192, \"max_length\": 512, \"rep_pen\": 1.07, \"temperature\": 0.7, \"prompt\": \"### Instruction: ...\"}\n\n"
     GGML_ERR, NULL},
    {"koboldcpp", "generate", "Generating (n / m tokens) bar", "LostRuins/koboldcpp:gpttype_adapter.cpp@2da346a5",
     "!Processing Prompt [BLAS] (2048 / 2048 tokens)\nGenerating (37 / 512 tokens)\n" GGML_ERR, NULL},
    /* ---- text-generation-webui: oobabooga/text-generation-webui modules/models.py@1dcde41d ---- */
    {"text-generation-webui", "load", "Loading \"MODEL\"", "oobabooga/text-generation-webui:modules/models.py@1dcde41d",
     "!" TGW "Loading \"Meta-Llama-3-70B-Instruct\"\n" OOM, NULL},
    /* ---- exllamav2: turboderp/exllamav2 test_inference.py@b9c025b4, exllamav2/model_init.py@b9c025b4 ---- */
    {"exllamav2", "load", " -- Loading model...", "turboderp/exllamav2:exllamav2/model_init.py@b9c025b4",
     "! -- Model: /models/Llama-3-70B-exl2-4.0bpw\n -- Options: ['gpu_split: 20,24']\n -- Loading tokenizer...\n -- Loading model...\n" OOM, NULL},
    {"exllamav2", "load", " -- Warmup... (engine warm-up)", "turboderp/exllamav2:test_inference.py@b9c025b4",
     "! -- Loading model...\n -- Loaded model in 21.3524 seconds\n -- Warmup...\n" OOM, NULL},
    {"exllamav2", "eval", " -- Running perplexity test ... -- Inference", "turboderp/exllamav2:test_inference.py@b9c025b4",
     "! -- Running perplexity test\n -- Dataset: /data/wikitext-2-v1_validation.parquet\n"
     " -- Tokenizing eval data, 128 rows x 2048 tokens...\n -- Inference" OOM,
     "the nearest line naming a stage is the tokenizing of the eval data (data); the \" -- Inference\" line after it (the perplexity run) names no stage, and \"Running perplexity test\" is four lines up"},
    /* ---- faster-whisper: SYSTRAN/faster-whisper faster_whisper/transcribe.py@65882eee ---- */
    {"faster-whisper", "generate", "Processing audio with duration ...", "SYSTRAN/faster-whisper:faster_whisper/transcribe.py@65882eee",
     "!INFO:faster_whisper:Processing audio with duration 01:02:13.440\n"
     "INFO:faster_whisper:VAD filter removed 03:12.100 of audio\n" OOM, NULL},
    {"faster-whisper", "generate", "Detected language ... with probability", "SYSTRAN/faster-whisper:faster_whisper/transcribe.py@65882eee",
     "!INFO:faster_whisper:Processing audio with duration 00:45.120\n"
     "INFO:faster_whisper:Detected language 'en' with probability 0.98\n" OOM, NULL},
    /* ---- WhisperX: m-bain/whisperX whisperx/transcribe.py@2cfd7b7c ---- */
    {"whisperx", "generate", "Performing alignment... (the pipeline's alignment pass)", "m-bain/whisperX:whisperx/transcribe.py@2cfd7b7c",
     "!2025-03-01 10:00:00 - whisperx.transcribe - INFO - Performing transcription...\n"
     "Transcript: [0.031 --> 29.884]  Welcome back to the show.\n"
     "2025-03-01 10:01:10 - whisperx.transcribe - INFO - Performing alignment...\n" OOM, NULL},
    /* ---- AUTOMATIC1111 / Forge: AUTOMATIC1111/stable-diffusion-webui modules/sd_models.py@5929ece1,
     * lllyasviel/stable-diffusion-webui-forge backend/memory_management.py@dfdcbab6, modules/shared_total_tqdm.py@dfdcbab6 ---- */
    {"a1111", "load", "Loading weights [...] from, Creating model from config", "AUTOMATIC1111/stable-diffusion-webui:modules/sd_models.py@5929ece1",
     "!Loading weights [6ce0161689] from /sd/models/Stable-diffusion/v1-5-pruned-emaonly.safetensors\n"
     "Creating model from config: /sd/configs/v1-inference.yaml\n" OOM, NULL},
    {"forge", "load", "[Unload] ... / [Memory Management] Target: ...", "lllyasviel/stable-diffusion-webui-forge:backend/memory_management.py@dfdcbab6",
     "![Unload] Trying to free 3051.58 MB for cuda:0 with 0 models keep loaded ... Done.\n"
     "[Memory Management] Target: JointTextEncoder, Free GPU: 2861.12 MB, Model Require: 1559.68 MB, Previously Loaded: 0.00 MB, "
     "Inference Require: 1024.00 MB, Remaining: 277.44 MB, All loaded to GPU.\n" OOM, NULL},
    {"forge", "generate", "Moving model(s) has taken ..., the sampler bar and Total progress", "lllyasviel/stable-diffusion-webui-forge:modules/shared_total_tqdm.py@dfdcbab6",
     "!Moving model(s) has taken 0.62 seconds\n"
     " 45%|####5     | 9/20 [00:04<00:05,  2.10it/s]\n"
     "Total progress:  45%|####5     | 9/20 [00:04<00:05,  2.11it/s]\n" OOM, NULL},
    {"forge", "generate", "the failure follows the completed sampling bars (decoding the latents)", "lllyasviel/stable-diffusion-webui-forge:modules/shared_total_tqdm.py@dfdcbab6",
     "!100%|##########| 20/20 [00:09<00:00,  2.12it/s]\n"
     "Total progress: 100%|##########| 20/20 [00:09<00:00,  2.13it/s]\n" OOM, NULL},
    /* ---- ComfyUI: comfyanonymous/ComfyUI comfy/model_management.py@faad5f1c, main.py@5fe9d9c1 ---- */
    {"comfyui", "load", "model weight dtype / model_type / Requested to load / loaded completely", "comfyanonymous/ComfyUI:comfy/model_management.py@faad5f1c",
     "!got prompt\nmodel weight dtype torch.float8_e4m3fn, manual cast: torch.bfloat16\nmodel_type FLUX\n"
     "Requested to load FluxClipModel_\nloaded completely 9722.8 9319.2 True\n" COMFY_OOM, NULL},
    {"comfyui", "generate", "loaded partially, then the sampler bar mid-way", "comfyanonymous/ComfyUI:comfy/model_management.py@faad5f1c",
     "!Requested to load Flux\nloaded partially 10238.5 10237.9 0\n"
     " 35%|###5      | 7/20 [00:31<00:58,  4.50s/it]\n" COMFY_OOM, NULL},
    {"comfyui", "generate", "title, then the workflow's log cut in the sampler bar (the tail walk)", "comfyanonymous/ComfyUI:comfy/model_management.py@faad5f1c",
     "!CUDA out of memory with Flux dev on a 4090 in ComfyUI\n\n```\ngot prompt\nRequested to load Flux\n"
     "loaded partially 10238.5 10237.9 0\n 35%|###5      | 7/20 [00:31<00:58,  4.50s/it]\n", NULL},
    /* ---- LMDeploy: InternLM/lmdeploy lmdeploy/pytorch/engine/executor/base.py@1263d5cd ---- */
    {"lmdeploy", "load", "Building Model.", "InternLM/lmdeploy:lmdeploy/pytorch/engine/executor/base.py@1263d5cd",
     "!" LMD "__init__.py:101 - Build <uni> executor.\n" LMD "base.py:450 - Building Model.\n" OOM, NULL},
    {"lmdeploy", "load", "Building GraphRunner and warmup ops", "InternLM/lmdeploy:lmdeploy/pytorch/engine/executor/base.py@1263d5cd",
     "!" LMD "base.py:454 - Building GraphRunner and warmup ops, please waiting.\n" OOM, NULL},
    {"lmdeploy", "load", "Building CacheEngine with config: (config on the next line)", "InternLM/lmdeploy:lmdeploy/pytorch/engine/executor/base.py@1263d5cd",
     "!" LMD "base.py:456 - Building CacheEngine with config: \n"
     "CacheConfig(max_batches=256, block_size=64, num_cpu_blocks=512, num_gpu_blocks=2560, window_size=-1, cache_max_entry_count=0.8, "
     "max_prefill_token_num=8192, enable_prefix_caching=False).\n" OOM, NULL},
    {"lmdeploy", "load", "Warming up model.", "InternLM/lmdeploy:lmdeploy/pytorch/engine/executor/base.py@1263d5cd",
     "!" LMD "base.py:466 - Warming up model.\n" OOM, NULL},
    /* ---- precision: a trainer's bare bar; an argument dump; start-up far above serving ---- */
    {"transformers", "unknown", "negative: a trainer's bare step bar below its shard-loading bar is no sampler (the corpus gives it no stage: h34-10, h34-76)", "huggingface/transformers:src/transformers/trainer.py (tqdm bar, no description)",
     "!Loading checkpoint shards: 100%|##########| 2/2 [00:04<00:00,  2.10s/it]\n"
     "  3%|3         | 30/1000 [00:41<22:10,  1.37s/it]\n" OOM, NULL},
    {"transformers", "unknown", "negative: the same bar below a load line that is no finished bar", "huggingface/transformers:src/transformers/modeling_utils.py (logger.info)",
     "!loading weights file model.safetensors from cache at /root/.cache/huggingface/hub/models--meta-llama--Llama-2-7b-hf/model.safetensors\n"
     "  3%|3         | 30/1000 [00:41<22:10,  1.37s/it]\n" OOM, NULL},
    {"sglang", "unknown", "negative: the ServerArgs dump (cuda_graph_max_bs=, max_total_tokens=) is no phase (as h33-18's launcher dump)", "sgl-project/sglang:python/sglang/srt/entrypoints/http_server.py@9c0549b7",
     "![2025-05-02 16:14:02] server_args=ServerArgs(model_path='Qwen/Qwen2.5-7B-Instruct', tokenizer_mode='auto', load_format='auto', "
     "mem_fraction_static=0.88, max_running_requests=None, max_total_tokens=None, chunked_prefill_size=8192, max_prefill_tokens=16384, "
     "cuda_graph_max_bs=160, disable_cuda_graph=False, enable_torch_compile=False, tp_size=1, log_level='info')\n" OOM, NULL},
    {"sglang", "generate", "negative: graph capture far above, then the server up and batches served", "sgl-project/sglang:python/sglang/srt/managers/scheduler.py@d51c1c21",
     "!" SG "Capture cuda graph begin. This can take up to several minutes. avail mem=13.75 GB\n"
     SG "Capture cuda graph end. Time elapsed: 12.31 s. mem usage=1.21 GB. avail mem=12.54 GB.\n"
     "[2025-05-02 16:15:01] INFO:     Uvicorn running on http://127.0.0.1:30000 (Press CTRL+C to quit)\n"
     "[2025-05-02 16:15:02] The server is fired up and ready to roll!\n"
     SG "Prefill batch. #new-seq: 1, #new-token: 8192, #cached-token: 0, token usage: 0.02, #running-req: 0, #queue-req: 0\n"
     SG "Decode batch. #running-req: 64, #token: 88731, token usage: 0.91, cuda graph: True, gen throughput (token/s): 2204.31, #queue-req: 12\n"
     OOM, NULL},
    /* ---- diffusers: huggingface/diffusers src/diffusers/pipelines/pipeline_utils.py@58eb52c0 ---- */
    {"diffusers", "generate", "negative: Loading pipeline components above, then the denoising bar", "huggingface/diffusers:src/diffusers/pipelines/pipeline_utils.py@58eb52c0",
     "!Loading pipeline components...: 100%|##########| 7/7 [00:03<00:00,  2.01it/s]\n"
     " 48%|####8     | 24/50 [00:12<00:13,  1.95it/s]\n" OOM, NULL},
    /* ---- second batch, written after the first change and scored before the next ---- */
    /* ---- TensorRT-LLM's PyTorch backend: NVIDIA/TensorRT-LLM tensorrt_llm/_torch/pyexecutor/_util.py@d8ae02ca,
     * model_engine.py@1a0dc5f7; the C++ KV-cache manager cpp/tensorrt_llm/batch_manager/kvCacheManager.cpp@b35ac1b6 ---- */
    {"tensorrt-llm", "load", "the executor's memory profiling after loading the weights", "NVIDIA/TensorRT-LLM:tensorrt_llm/_torch/pyexecutor/_util.py@d8ae02ca",
     "![12/20/2025-04:21:50] [TRT-LLM] [I] Memory used after loading model weights (inside torch) in memory usage profiling: 63.52 GiB\n"
     "[12/20/2025-04:21:50] [TRT-LLM] [I] Memory used after loading model weights (outside torch) in memory usage profiling: 3.21 GiB\n" OOM, NULL},
    {"tensorrt-llm", "load", "CUDA-graph warm-up of the generation step at start-up", "NVIDIA/TensorRT-LLM:tensorrt_llm/_torch/pyexecutor/model_engine.py@1a0dc5f7",
     "![12/20/2025-04:21:44] [TRT-LLM] [I] Run generation only CUDA graph warmup for batch size=64, draft_len=0\n" OOM, NULL},
    {"tensorrt-llm", "load", "the KV-cache manager sizing its pools", "NVIDIA/TensorRT-LLM:cpp/tensorrt_llm/batch_manager/kvCacheManager.cpp@b35ac1b6",
     "![TensorRT-LLM][INFO] Memory usage when calculating max tokens in paged kv cache: total: 79.10 GiB, available: 63.62 GiB\n"
     "[TensorRT-LLM][INFO] Number of blocks in KV cache primary pool: 4607\n" OOM, NULL},
    /* ---- openai-whisper: openai/whisper whisper/transcribe.py@f572f216 ---- */
    {"whisper", "generate", "Detecting language ... / Detected language: then the segments", "openai/whisper:whisper/transcribe.py@f572f216",
     "!Detecting language using up to the first 30 seconds. Use `--language` to specify the language\n"
     "Detected language: English\n[00:00.000 --> 00:05.240]  Welcome back to the show.\n"
     "[00:05.240 --> 00:09.100]  Today we talk about memory.\n" OOM, NULL},
    /* ---- set aside: written after the classifier changes, scored once ---- */
    /* ---- InvokeAI: invoke-ai/InvokeAI invokeai/backend/model_manager/load/model_cache/model_cache.py@8e71a8a5,
     * invokeai/app/services/session_processor/session_processor_default.py@8e71a8a5 ---- */
    {"invokeai", "generate", "a queue item, the UNet loaded onto the GPU, the denoising bar, the invocation's error line", "invoke-ai/InvokeAI:invokeai/backend/model_manager/load/model_cache/model_cache.py@8e71a8a5",
     "![2025-03-01 10:00:00,101]::[InvokeAI]::INFO --> Executing queue item 12, session 5f0c2a9e-7a1d-4a8e-9a65-2f4c8d6a1b33\n"
     "[2025-03-01 10:00:02,412]::[ModelManagerService]::INFO --> Loaded model 'b1c2d3e4-0000-4f00-9000-1a2b3c4d5e6f:unet' (UNet2DConditionModel) onto cuda device in 2.31s. Total model size: 4897.05MB, VRAM: 4897.05MB (100.0%)\n"
     " 45%|####5     | 14/30 [00:06<00:07,  2.21it/s]\n"
     "[2025-03-01 10:00:09,003]::[InvokeAI]::ERROR --> Error while invoking session 5f0c2a9e-7a1d-4a8e-9a65-2f4c8d6a1b33, invocation 3a9d (denoise_latents): CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 11.99 GiB of which 1.02 GiB is free.\n",
     NULL},
    {"invokeai", "load", "the model cache's Loaded model ... onto cuda device right above the error", "invoke-ai/InvokeAI:invokeai/backend/model_manager/load/model_cache/model_cache.py@8e71a8a5",
     "![2025-03-01 10:00:00,101]::[InvokeAI]::INFO --> Executing queue item 13, session 77aa0c31-1b2c-4d3e-8f90-aabbccddeeff\n"
     "[2025-03-01 10:00:09,412]::[ModelManagerService]::INFO --> Loaded model '0a1b2c3d-1111-4f00-9000-1a2b3c4d5e6f:text_encoder_2' (T5EncoderModel) onto cuda device in 8.12s. Total model size: 9083.39MB, VRAM: 9083.39MB (100.0%)\n"
     OOM, "set-aside miss: the model cache's \"Loaded model ... onto cuda device\" is a finished action no table reads"},
    /* ---- Fooocus: lllyasviel/Fooocus modules/async_worker.py@59f183ab, modules/patch.py@59f183ab,
     * ldm_patched/modules/model_management.py@59f183ab, modules/default_pipeline.py@59f183ab ---- */
    {"fooocus", "load", "[Fooocus] Loading models ...", "lllyasviel/Fooocus:modules/async_worker.py@59f183ab",
     "![Fooocus] Loading control models ...\n[Parameters] Sampler = dpmpp_2m_sde_gpu - karras\n[Parameters] Steps = 30 - 15\n"
     "[Fooocus] Initializing ...\n[Fooocus] Loading models ...\n" OOM, NULL},
    {"fooocus", "generate", "the model moved, then the sampler's bare bar", "lllyasviel/Fooocus:modules/patch.py@59f183ab",
     "![Sampler] refiner_swap_method = joint\n[Sampler] sigma_min = 0.0291675, sigma_max = 14.6146240\n"
     "Requested to load SDXL\nLoading 1 new model\n"
     "[Fooocus Model Management] Moving model(s) has taken 0.52 seconds\n"
     " 30%|###       | 9/30 [00:05<00:12,  1.70it/s]\n" OOM,
     "set-aside miss: \"Moving model(s) has taken\" reads as no load line, so the walk passes it and stops at \"Loading 1 new model\" (a load line no sampler list names): unknown (main read forward)"},
    /* ---- MLC-LLM: mlc-ai/mlc-llm cpp/serve/config.cc@79d603f0, python/mlc_llm/interface/jit.py@79d603f0 ---- */
    {"mlc-llm", "load", "the engine sizing its KV cache at start-up (glog lines), then TVM's CUDA allocation failure", "mlc-ai/mlc-llm:cpp/serve/config.cc@79d603f0",
     "![2025-03-01 10:00:00] INFO jit.py:168: Using cached model lib: /root/.cache/mlc_llm/model_lib/4f1e2a.so\n"
     "[10:00:01] /workspace/mlc-llm/cpp/serve/config.cc:885: The actual engine mode is \"local\". So max batch size is 4, max KV cache token capacity is 8192, prefill chunk size is 2048.\n"
     "[10:00:01] /workspace/mlc-llm/cpp/serve/config.cc:890: Estimated total single GPU memory usage: 5932.33 MB (Parameters: 4308.13 MB. KVCache: 1072.25 MB. Temporary buffer: 551.95 MB). The actual usage might be slightly larger than the estimated number.\n"
     "TVMError: Check failed: (e == cudaSuccess || e == cudaErrorCudartUnloading) is false: CUDA: out of memory\n",
     "set-aside miss: MLC's engine-sizing lines (\"The actual engine mode is\", \"Estimated total single GPU memory usage\") are in no table"},
    /* ---- llama-cpp-python: abetlen/llama-cpp-python llama_cpp/llama.py@3691546f ---- */
    {"llama-cpp-python", "generate", "Llama.generate: N prefix-match hit, remaining M prompt tokens to eval", "abetlen/llama-cpp-python:llama_cpp/llama.py@3691546f",
     "!Llama.generate: 12 prefix-match hit, remaining 1833 prompt tokens to eval\n" GGML_ERR,
     NULL /* diaggaps: fixed (test_diagnose_gaps.c) */},
};

static const struct audit audit = {audit_rows, sizeof audit_rows / sizeof audit_rows[0], ""};

static void test_serving_phase_lines(void **state)
{
    (void)state;
    assert_int_equal(audit_misses(&audit, false), 0);
}

int main(int argc, char **argv)
{
    int rc = audit_main(&audit, argc, argv);
    if (rc >= 0) return rc;
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_serving_phase_lines)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
