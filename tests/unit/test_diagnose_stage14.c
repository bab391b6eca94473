/* diagnose's stage on logs nobody here wrote, helper diagstage14 (issue 12):
 * mechanisms for inference engines and servers failing while they make
 * their model, the ggml family's function-name log tags, a model moved
 * under a name of its own, and the start-up lines of a paste cut before
 * its error. The classes come from heldout33's stage misses (seen from this
 * round); each case is a short synthetic paste in the style of the
 * framework's own log or frames, with the source it follows beside it.
 * Each assertion failed on the code before its mechanism (main 3a0107b6)
 * unless it says it guards. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "lib/activity.h"
#include "lib/scan.h"
#include "lib/stage.h"
#include "stage_fixture.h"
#include "scan_fixture.h"

#define SITE "/usr/local/lib/python3.10/dist-packages/"
#define TORCH_OOM                                                                                              \
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB. GPU 0 has a total capacity of " \
    "23.65 GiB of which 512.00 MiB is free.\n"

/* An engine or server making its model (instance, executor, session)
 * before it serves: lmdeploy TurboMind's _create_model_instance
 * (InternLM/lmdeploy turbomind.py), vLLM's _init_executor (vllm/executor),
 * TensorRT-LLM's create_py_executor (tensorrt_llm/_torch/pyexecutor/
 * py_executor_creator.py), detectron2's build_model (detectron2/modeling/
 * meta_arch/build.py). */
static void test_engine_makes_model_is_load(void **state)
{
    (void)state;
    const char *turbomind =
        "Exception in thread Thread-7:\n"
        "Traceback (most recent call last):\n"
        "  File \"/usr/lib/python3.10/threading.py\", line 1016, in _bootstrap_inner\n"
        "    self.run()\n"
        "  File \"/usr/lib/python3.10/threading.py\", line 953, in run\n"
        "    self._target(*self._args, **self._kwargs)\n"
        "  File \"" SITE "lmdeploy/turbomind/turbomind.py\", line 512, in _create_model_instance\n"
        "    model_inst = self.tm_model.model_comm.create_model_instance(\n"
        "RuntimeError: [TM][ERROR] CUDA runtime error: out of memory /lmdeploy/src/turbomind/utils/allocator.h:231\n";
    assert_string_equal(stage_of(turbomind), "load");
    const char *vllm =
        "Traceback (most recent call last):\n"
        "  File \"" SITE "vllm/executor/executor_base.py\", line 52, in __call__\n"
        "    self._init_executor()\n"
        "  File \"" SITE "vllm/executor/uniproc_executor.py\", line 47, in _init_executor\n"
        "    self.driver_worker.init_device()\n"
        "  File \"" SITE "vllm/worker/worker.py\", line 170, in init_device\n"
        "    torch.cuda.set_device(self.device)\n" TORCH_OOM;
    assert_string_equal(stage_of(vllm), "load");
    const char *trtllm =
        "Traceback (most recent call last):\n"
        "  File \"" SITE "tensorrt_llm/executor/worker.py\", line 129, in _create_engine\n"
        "    return create_py_executor(\n"
        "  File \"" SITE "tensorrt_llm/_torch/pyexecutor/py_executor_creator.py\", line 301, in create_py_executor\n"
        "    kv_cache_creator.build_managers(resources)\n"
        "  File \"" SITE "tensorrt_llm/_torch/pyexecutor/_util.py\", line 402, in build_managers\n"
        "    kv_cache_manager = self._create_kv_cache_manager(self._model_engine)\n" TORCH_OOM;
    assert_string_equal(stage_of(trtllm), "load");
    const char *d2 =
        "Traceback (most recent call last):\n"
        "  File \"/w/tools/train_net.py\", line 140, in main\n"
        "    trainer = Trainer(cfg)\n"
        "  File \"" SITE "detectron2/engine/defaults.py\", line 376, in build_model\n"
        "    model = build_model(cfg)\n" TORCH_OOM;
    assert_string_equal(stage_of(d2), "load");
    /* guards: DALI creating its input pipeline is data, not the model;
     * a TensorRT builder's build_engine converts a model (no stage) */
    assert_int_equal(stage_name_bits("create_pipeline", 15), 0);
    assert_int_equal(stage_name_bits("build_engine", 12), 0);
    assert_int_equal(stage_name_bits("create_model_instance", 21), 1u << OOM_STAGE_LOAD);
    assert_int_equal(stage_name_bits("_init_executor", 14), 1u << OOM_STAGE_LOAD);
}

/* A server's own line says it failed to make the model: Triton's backend
 * model ("ERROR: Failed to create instance: unexpected error when creating
 * modelInstanceState", backend_model.cc, triton-inference-server/
 * tensorrtllm_backend#328), glued before the error or on its own; vLLM v1's
 * "Engine core initialization failed" after a cut traceback (vllm-project/
 * vllm#19415); TGI's "Error when initializing model" above the traceback
 * (huggingface/text-generation-inference#574). */
static void test_server_failed_to_make_model_is_load(void **state)
{
    (void)state;
    const char *triton =
        "E0601 10:00:00.000000 1 backend_model.cc:634] ERROR: Failed to create instance: unexpected error when "
        "creating modelInstanceState: [TensorRT-LLM][ERROR] CUDA runtime error in ::cudaMallocAsync(ptr, n, "
        "mCudaStream->get()): out of memory (/app/tensorrt_llm/cpp/tensorrt_llm/runtime/tllmBuffers.h:112)\n";
    assert_string_equal(stage_of(triton), "load");
    const char *glued =
        "Launching the server gives:\n"
        "\n"
        "Model 'llama_trt' loading failed with error: version 1 is at UNAVAILABLE state: Internal: unexpected "
        "error when creating modelInstanceState: [TensorRT-LLM][ERROR] CUDA runtime error in cudaMalloc(&ptr, n): "
        "out of memory (/app/tensorrt_llm/cpp/tensorrt_llm/runtime/tllmBuffers.h:80)\n";
    assert_string_equal(stage_of(glued), "load");
    const char *vllm =
        "ERROR 05-10 16:00:15 [core.py:396] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate "
        "2.00 GiB. GPU 0 has a total capacity of 23.65 GiB of which 1.10 GiB is free.\n"
        "Traceback (most recent call last):\n"
        "  File \"" SITE "vllm/v1/engine/utils.py\", line 494, in wait_for_engine_startup\n"
        "    raise RuntimeError(\"Engine core initialization failed. \"\n"
        "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): "
        "{'EngineCore_0': 1}\n";
    assert_string_equal(stage_of(vllm), "load");
    const char *tgi =
        "2024-03-31T18:31:04.932785Z ERROR text_generation_launcher: Error when initializing model\n"
        "Traceback (most recent call last):\n"
        "  File \"/opt/conda/bin/text-generation-server\", line 8, in <module>\n"
        "    sys.exit(app())\n"
        "  File \"/opt/conda/lib/python3.10/site-packages/typer/main.py\", line 311, in __call__\n"
        "    return get_command(self)(*args, **kwargs)\n" TORCH_OOM;
    assert_string_equal(stage_of(tgi), "load");
}

/* llama.cpp's decode of a request's batch failing under the backend's
 * allocation error ("llama_decode: failed to decode, ret = -3", koboldcpp
 * and llama.cpp's server on Metal or CUDA): generation. */
static void test_llama_decode_is_generate(void **state)
{
    (void)state;
    const char *metal =
        "ggml_metal_graph_compute: command buffer 1 failed with status 5\n"
        "error: Insufficient Memory (00000008:kIOGPUCommandBufferCallbackErrorOutOfMemory)\n"
        "llama_decode: failed to decode, ret = -3\n";
    assert_string_equal(stage_of(metal), "generate");
    const char *cuda =
        "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 1024.00 MiB on device 0: cudaMalloc failed: "
        "out of memory\n"
        "ggml_gallocr_reserve_n: failed to allocate CUDA0 buffer of size 1073741824\n"
        "decode: failed to decode the batch, n_batch = 512, ret = -3\n";
    assert_string_equal(stage_of(cuda), "generate");
}

/* The ggml family prints __func__ first: that name is the line's tag. */
static void test_function_name_tag(void **state)
{
    (void)state;
    const char *t1 = "whisper_model_load: n_vocab       = 51866";
    assert_int_equal(stage_log_tag(t1, strlen(t1)), OOM_STAGE_LOAD);
    const char *t2 = "llm_load_tensors: offloading 32 repeating layers to GPU";
    assert_int_equal(stage_log_tag(t2, strlen(t2)), OOM_STAGE_LOAD);
    const char *t3 = "clip_model_load: model size:     595.49 MB";
    assert_int_equal(stage_log_tag(t3, strlen(t3)), OOM_STAGE_LOAD);
    /* guards: a config's settings are no tags */
    const char *g1 = "eval_steps: 500";
    assert_int_equal(stage_log_tag(g1, strlen(g1)), OOM_STAGE_UNKNOWN);
    const char *g2 = "save_strategy: steps";
    assert_int_equal(stage_log_tag(g2, strlen(g2)), OOM_STAGE_UNKNOWN);
    const char *g3 = "load_in_8bit: True";
    assert_int_equal(stage_log_tag(g3, strlen(g3)), OOM_STAGE_UNKNOWN);
    /* a whisper.cpp loader's lines right above a failed buffer (its
     * "loading model from" line further up, out of the paste) */
    const char *log =
        "whisper_model_load: n_text_layer  = 32\n"
        "whisper_model_load: n_mels        = 128\n"
        "whisper_model_load: ftype         = 1\n"
        "whisper_model_load: type          = 5 (large v3)\n"
        "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 3094.36 MiB on device 0: cudaMalloc failed: "
        "out of memory\n";
    assert_string_equal(shown_stage(log), "load");
}

/* A model moved whole to the device under a name of its own. */
static void test_model_moved_under_own_name(void **state)
{
    (void)state;
    const char *gcn =
        "Traceback (most recent call last):\n"
        "  File \"train.py\", line 82, in <module>\n"
        "    model_func = model_func.cuda()\n"
        "RuntimeError: CUDA out of memory. Tried to allocate 9.27 GiB (GPU 0; 11.77 GiB total capacity; "
        "47.02 MiB already allocated; 10.20 GiB free; 52.00 MiB reserved in total by PyTorch)\n";
    assert_string_equal(stage_of(gcn), "load");
    const char *enc =
        "Traceback (most recent call last):\n"
        "  File \"/w/infer.py\", line 40, in setup\n"
        "    self.text_encoder.to(device)\n" TORCH_OOM;
    assert_string_equal(stage_of(enc), "load");
    const char *gan =
        "Traceback (most recent call last):\n"
        "  File \"/w/gan.py\", line 12, in main\n"
        "    gen_net = gen_net.cuda()\n" TORCH_OOM;
    assert_string_equal(stage_of(gan), "load");
    /* guards: a model's output moved is no model moved; a model's inputs are data */
    const char *out =
        "Traceback (most recent call last):\n"
        "  File \"/w/run.py\", line 12, in main\n"
        "    out = model(x).cuda()\n" TORCH_OOM;
    assert_string_not_equal(stage_of(out), "load");
    const char *inputs =
        "Traceback (most recent call last):\n"
        "  File \"/w/run.py\", line 12, in step\n"
        "    model_inputs = model_inputs.to(device)\n" TORCH_OOM;
    assert_string_equal(stage_of(inputs), "data");
}

/* Code that makes a model or engine object, named for what it is: the
 * object loads or sizes its memory while it is made (constructor_bits). */
static void test_model_object_made_is_load(void **state)
{
    (void)state;
    const char *const made[] = {
        "    translator = ctranslate2.Translator(model_dir, device=\"cuda\")",
        "    generator = ctranslate2.Generator(\"ct2_model\", device=\"cuda\")",
        "    llm = Llama(model_path=\"./m.gguf\", n_gpu_layers=-1)",
        "    engine = AsyncLLMEngine.from_engine_args(engine_args)",
        "    predictor = DefaultPredictor(cfg)",
        "    self.model = YOLO(weights)",
    };
    for (size_t i = 0; i < sizeof made / sizeof made[0]; i++)
        assert_int_equal(stage_pick(stage_frame_bits(made[i], strlen(made[i]))), OOM_STAGE_LOAD);
    const char *log =
        "Traceback (most recent call last):\n"
        "  File \"/w/asr.py\", line 7, in <module>\n"
        "    model = WhisperModel(\"large-v3\", device=\"cuda\", compute_type=\"float16\")\n"
        "RuntimeError: CUDA failed with error out of memory\n";
    assert_string_equal(stage_of(log), "load");
    /* guards: an output named after the model, a random-number generator,
     * a pipeline called for its output */
    const char *out = "    model_output = ModelOutput(logits=logits)";
    assert_int_not_equal(line_stage(out), OOM_STAGE_LOAD);
    const char *rng = "    generator = torch.Generator(device=\"cuda\").manual_seed(0)";
    assert_int_equal(line_stage(rng), OOM_STAGE_UNKNOWN);
    const char *gen = "    images = pipe(prompt, num_inference_steps=30).images";
    assert_int_equal(line_stage(gen), OOM_STAGE_GENERATE);
}

/* A tool's log line right above the message, shaped like an exception's
 * first line ("name: text"), is read for its stage: llama.cpp's
 * "llama_kv_cache_init: CUDA0 KV buffer size" over its failed cudaMalloc,
 * uvicorn's access line over a served request's OOM. A logger's level tag
 * makes a line a log line, not code, whatever cue it holds (TensorRT-LLM's
 * "[INFO] ... paged KV cache (2112)." is no KV-cache update while
 * decoding). Engines' start-up and serving lines right above: TensorRT-LLM
 * after loading its engine or allocating the KV cache (load), SGLang's
 * "Prefill batch." (generate). */
static void test_engine_lines_above_message(void **state)
{
    (void)state;
    const char *kv =
        "llama_new_context_with_model: n_ctx      = 131072\n"
        "llama_kv_cache_init:      CUDA0 KV buffer size = 16384.00 MiB\n"
        "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 16384.00 MiB on device 0: cudaMalloc failed: "
        "out of memory\n";
    assert_string_equal(stage_of(kv), "load");
    const char *route =
        "INFO:     127.0.0.1:51234 - \"POST /v1/chat/completions HTTP/1.1\" 200 OK\n"
        "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n";
    assert_string_equal(stage_of(route), "generate");
    const char *tagged = "[TensorRT-LLM][INFO] [MemUsageChange] Allocated 20.10 GiB for max tokens in paged KV cache (2112).";
    assert_int_equal(stage_line_kind(tagged, strlen(tagged)), STAGE_LINE_OTHER);
    const char *trt =
        "[TensorRT-LLM][INFO] [MemUsageChange] Allocated 20.10 GiB for max tokens in paged KV cache (2112).\n"
        "[TensorRT-LLM][ERROR] CUDA runtime error in ::cudaMallocAsync(ptr, n, mCudaStream->get()): out of memory "
        "(/app/tensorrt_llm/cpp/tensorrt_llm/runtime/tllmBuffers.h:112)\n";
    assert_string_equal(stage_of(trt), "load");
    const char *engine =
        "[TensorRT-LLM][INFO] Loaded engine size: 12890 MiB\n"
        "[TensorRT-LLM][ERROR] CUDA runtime error in ::cudaMallocAsync(ptr, n, mCudaStream->get()): out of memory "
        "(/app/tensorrt_llm/cpp/tensorrt_llm/runtime/tllmBuffers.h:112)\n";
    assert_string_equal(stage_of(engine), "load");
    const char *prefill =
        "[2024-10-01 10:00:00 TP0] Prefill batch. #new-seq: 1, #new-token: 8192, #cached-token: 0, token usage: "
        "0.10, #running-req: 0, #queue-req: 0\n"
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n";
    assert_string_equal(stage_of(prefill), "generate");
    /* guard: an exception's own first line right above stays skipped */
    const char *first =
        "RuntimeError: /tmp/pip/indice_cuda.cu 124\n"
        "cuda execution failed with error 2 out of memory\n";
    assert_string_equal(stage_of(first), "unknown");
}

/* The datasets library's bars with worker processes ("Map (num_proc=8):")
 * are data; a tool naming the pass it runs ("Running Gemma 3 forward pass
 * (48 layers)...") is the forward, by the verb table. */
static void test_data_bar_and_forward_pass(void **state)
{
    (void)state;
    const char *log =
        "Generating train split: 100%|##########| 1000/1000\n"
        "Map (num_proc=8):  45%|####      | 450/1000\n"
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n";
    assert_string_equal(stage_of(log), "data");
    bool done = false;
    const char *pass = "Running Gemma 3 forward pass (48 layers)...";
    assert_int_equal(stage_verb_line(pass, strlen(pass), &done), OOM_STAGE_FORWARD);
    /* a tool's indented sub-step lines ending in "..." are its narration,
     * not a traceback's code: the pass they name is read */
    const char *steps =
        "[1/4] Encoding prompt...\n"
        "  Loading text encoder...\n"
        "  Tokenizing prompt...\n"
        "  Running text encoder forward pass (40 layers)...\n"
        "  Got 41 hidden states\n"
        "  Projecting hidden states...\n"
        "RuntimeError: CUDA out of memory. Tried to allocate 4.00 GiB\n";
    assert_string_equal(shown_stage(steps), "forward");
    /* guard: a sentence about forward passes is prose, no stage */
    const char *prose =
        "The policy network runs its forward pass about 1000 times per game, and memory keeps growing.\n"
        "RuntimeError: cuda runtime error (2) : out of memory at /pytorch/aten/src/THC/generic/THCStorage.cu:58\n";
    assert_string_equal(shown_stage(prose), "unknown");
    const char *step = "  Processing through connector...";
    assert_int_equal(stage_line_kind(step, strlen(step)), STAGE_LINE_OTHER);
    /* guards: code that ends in an ellipsis stays code */
    const char *code1 = "    x = ...";
    assert_int_equal(stage_line_kind(code1, strlen(code1)), STAGE_LINE_CODE);
    const char *code2 = "    def forward(self, x): ...";
    assert_int_equal(stage_line_kind(code2, strlen(code2)), STAGE_LINE_CODE);
}

/* Loading a count of data items is reading the data: sentencepiece's
 * trainer reading its corpus ("trainer_interface.cc(137) LOG(INFO) Loaded
 * 52000000 lines", a running count), a tool loading its images; a summary
 * says the reading is over (guard, test_diagnose_stage6's instant-ngp). */
static void test_loading_data_items_is_data(void **state)
{
    (void)state;
    bool done = false;
    const char *count = "trainer_interface.cc(137) LOG(INFO) Loaded 52000000 lines";
    assert_int_equal(stage_verb_line(count, strlen(count), &done), OOM_STAGE_DATA);
    const char *gerund = "Loading 5000 images from /data/train";
    assert_int_equal(stage_verb_line(gerund, strlen(gerund), &done), OOM_STAGE_DATA);
    const char *log =
        "trainer_interface.cc(137) LOG(INFO) Loaded 51000000 lines\n"
        "trainer_interface.cc(137) LOG(INFO) Loaded 52000000 lines\n"
        "Killed\n";
    assert_string_equal(shown_stage(log), "data");
    /* guards: a summary is over; the model's load is no data */
    const char *over = "13:25:54 SUCCESS  Loaded 2 images after 0s";
    assert_int_equal(stage_verb_line(over, strlen(over), &done), OOM_STAGE_UNKNOWN);
    assert_true(done);
    const char *model = "Loading model weights from /ckpt";
    assert_int_equal(stage_verb_line(model, strlen(model), &done), OOM_STAGE_LOAD);
}

/* Decoding or reading input media is data, wherever it is called from: an
 * evaluation harness's generate loop fetching a video (lmms-eval's
 * generate_until -> qwen-vl-utils fetch_video -> torchvision.io
 * read_video), decord's VideoReader, torchaudio's load. */
static void test_reading_media_is_data(void **state)
{
    (void)state;
    const char *log =
        "Traceback (most recent call last):\n"
        "  File \"/w/lmms_eval/models/llava_vid.py\", line 301, in generate_until\n"
        "    visuals = [fetch_video(v) for v in doc_visuals]\n"
        "  File \"" SITE "qwen_vl_utils/vision_process.py\", line 140, in fetch_video\n"
        "    video, audio, info = io.read_video(\n"
        "  File \"" SITE "torchvision/io/video.py\", line 320, in read_video\n"
        "    frames = torch.as_tensor(np.stack(frames))\n" TORCH_OOM;
    assert_string_equal(stage_of(log), "data");
    assert_int_equal(stage_name_bits("fetch_video", 11), 1u << OOM_STAGE_DATA);
    assert_int_equal(stage_name_bits("read_image", 10), 1u << OOM_STAGE_DATA);
    const char *decord = "    vr = decord.VideoReader(path, ctx=decord.gpu(0))";
    assert_int_equal(line_stage(decord), OOM_STAGE_DATA);
    /* guards: reading a model is its load; a thread is no read */
    const char *ov = "    model = core.read_model(xml_path)";
    assert_int_equal(line_stage(ov), OOM_STAGE_LOAD);
    assert_int_equal(stage_name_bits("thread_images", 13), 0);
}

/* A paste cut during an inference server's start-up (an OOM title above
 * it): the server's own start-up lines are its last activity. */
static void test_server_startup_tail(void **state)
{
    (void)state;
    const char *trtllm =
        "[TensorRT-LLM][INFO] Initializing MPI with thread mode 3\n"
        "[TensorRT-LLM][INFO] TRTGptModel maxNumSequences: 8\n"
        "[TensorRT-LLM][INFO] TRTGptModel maxBatchSize: 8\n"
        "[TensorRT-LLM][INFO] Loaded engine size: 12890 MiB\n";
    assert_int_equal(activity_tail(trtllm, strlen(trtllm), NULL), OOM_STAGE_LOAD);
    const char *kv =
        "[TensorRT-LLM][INFO] [MemUsageChange] Allocated 0.10 GiB for max tokens in paged KV cache (2112).\n"
        "[TensorRT-LLM][INFO] Max KV cache pages per sequence: 16\n";
    assert_int_equal(activity_tail(kv, strlen(kv), NULL), OOM_STAGE_LOAD);
    const char *triton =
        "I0601 10:00:00.000000 1 model_lifecycle.cc:461] loading: bert_onnx:1\n"
        "I0601 10:00:01.000000 1 onnxruntime.cc:2556] TRITONBACKEND_ModelInitialize: bert_onnx (version 1)\n";
    assert_int_equal(activity_tail(triton, strlen(triton), NULL), OOM_STAGE_LOAD);
    const char *tgi =
        "2024-03-31T18:30:13.781Z  INFO text_generation_launcher: Starting shard rank=0\n"
        "2024-03-31T18:30:23.795Z  INFO shard-manager: text_generation_launcher: Waiting for shard to be ready... "
        "rank=0\n";
    assert_int_equal(activity_tail(tgi, strlen(tgi), NULL), OOM_STAGE_LOAD);
    const char *darknet =
        "mini_batch = 4, batch = 64, time_steps = 1, train = 1\n"
        "   layer   filters  size/strd(dil)      input                output\n"
        "   0 conv     32       3 x 3/ 1    416 x 416 x   3 ->  416 x 416 x  32 0.299 BF\n"
        "   1 conv     64       3 x 3/ 2    416 x 416 x  32 ->  208 x 208 x  64 1.595 BF\n"
        "   2 Shortcut Layer: 0\n";
    assert_int_equal(activity_tail(darknet, strlen(darknet), NULL), OOM_STAGE_LOAD);
    /* the whole paste: a title, then the start-up lines */
    const char *titled =
        "Serving Llama-2-70B with Triton raises \"Cuda Runtime (out of memory)\"\n"
        "\n"
        "```\n"
        "[TensorRT-LLM][INFO] TRTGptModel maxBatchSize: 64\n"
        "[TensorRT-LLM][INFO] TRTGptModel mMaxAttentionWindowSize: 4096\n"
        "[TensorRT-LLM][INFO] Loaded engine size: 65210 MiB\n"
        "```\n";
    assert_string_equal(shown_stage(titled), "load");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_engine_makes_model_is_load),
        cmocka_unit_test(test_server_failed_to_make_model_is_load),
        cmocka_unit_test(test_llama_decode_is_generate),
        cmocka_unit_test(test_function_name_tag),
        cmocka_unit_test(test_model_moved_under_own_name),
        cmocka_unit_test(test_model_object_made_is_load),
        cmocka_unit_test(test_engine_lines_above_message),
        cmocka_unit_test(test_data_bar_and_forward_pass),
        cmocka_unit_test(test_loading_data_items_is_data),
        cmocka_unit_test(test_reading_media_is_data),
        cmocka_unit_test(test_server_startup_tail),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
