/* diagnose's stage on logs nobody here wrote, helper diagstage12 (issue 12):
 * mechanisms for what inference runtimes, servers and tools print, read
 * from the stage misses of the newest seen sets (heldout25..32). Each case
 * is a short synthetic paste in the style of the real thread named beside
 * it (the corpus row in brackets); each assertion failed on the code
 * before its mechanism (main 42eca62f) unless it says it guards. */
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

/* ONNX Runtime's executor names the node whose kernel failed: a session
 * run is an inference forward; ORT training's "<Op>Grad" nodes are the
 * backward (microsoft/onnxruntime#14477, h31-31; #14942, h27-40). */
static void test_ort_node_run_is_forward(void **state)
{
    (void)state;
    const char *log =
        "Session.Run() fails on the second image\n"
        "\n"
        "2024-03-01 10:00:01.123 [E:onnxruntime:, sequential_executor.cc:514 onnxruntime::ExecuteKernel] "
        "Non-zero status code returned while running MatMul node. Name:'/encoder/layer.3/MatMul_1' "
        "Status Message: /onnxruntime_src/onnxruntime/core/framework/bfc_arena.cc:376 "
        "void* onnxruntime::BFCArena::AllocateRawInternal(size_t, bool, onnxruntime::Stream*, bool, "
        "onnxruntime::WaitNotificationFn) Failed to allocate memory for requested buffer of size 268435456\n";
    assert_string_equal(stage_of(log), "forward");
    const char *grad =
        "[E:onnxruntime:, sequential_executor.cc:514 onnxruntime::ExecuteKernel] Non-zero status code "
        "returned while running SoftmaxCrossEntropyLossGrad node. Name:'loss_Grad/SCE_Grad' Status Message: "
        "bfc_arena.cc:376 onnxruntime::BFCArena::AllocateRawInternal Failed to allocate memory for "
        "requested buffer of size 67108864\n";
    assert_string_equal(stage_of(grad), "backward");
    /* guard: a session being created is still the start-up's (after_words) */
    const char *init =
        "onnxruntime.capi.onnxruntime_pybind11_state.RuntimeException: [ONNXRuntimeError] : 6 : "
        "RUNTIME_EXCEPTION : Exception during initialization: bfc_arena.cc:376 "
        "onnxruntime::BFCArena::AllocateRawInternal Failed to allocate memory for requested buffer of size 268435456\n";
    assert_string_equal(stage_of(init), "load");
}

/* TensorRT's tag names the function that failed: the execution context's
 * constructor runs before the first inference (NVIDIA/TensorRT#3017, h31-34). */
static void test_trt_execution_context_is_load(void **state)
{
    (void)state;
    const char *log =
        "[I] engine creating...\n"
        "[06/01/2024-10:00:00] [E] [TRT] 1: [defaultAllocator.cpp::nvinfer1::internal::DefaultAllocator::allocate::19] "
        "Error Code 1: Cuda Runtime (out of memory)\n"
        "[06/01/2024-10:00:00] [W] [TRT] Requested amount of GPU memory (4294967296 bytes) could not be allocated. "
        "There may not be enough free memory for allocation to succeed.\n"
        "[06/01/2024-10:00:00] [E] [TRT] 2: [executionContext.cpp::nvinfer1::rt::ExecutionContext::"
        "ExecutionContext::470] Error Code 2: OutOfMemory (no further information)\n";
    assert_string_equal(stage_of(log), "load");
    /* an inference run by its enqueue call (NVIDIA/TensorRT#4191's tag) */
    const char *run = "[E] [TRT] 1: [executionContext.cpp::enqueueInternal::795] Error Code 1: Cuda Runtime "
                      "(out of memory)\n"
                      "[E] [TRT] 1: IExecutionContext::enqueueV3: Error Code 1: Cuda Runtime (out of memory)\n";
    assert_string_equal(stage_of(run), "forward");
    /* guard: the builder converts a model, no stage */
    const char *build = "[E] Error[1]: [defaultAllocator.cpp::allocate::31] Error Code 1: Cuda Runtime (out of memory)\n"
                        "[E] Error[10]: IBuilder::buildSerializedNetwork: Error Code 10: Internal Error\n";
    assert_string_equal(stage_of(build), "unknown");
}

/* A completion request the llama.cpp server logs (ollama's runner) is a
 * generation being served; the runner's start alone names none
 * (ollama/ollama#1585, h31-84; guard: ollama/ollama#5913, h19-24). */
static void test_completion_request_is_generate(void **state)
{
    (void)state;
    const char *log =
        "CUDA error 2 out of memory with a small model\n"
        "\n"
        "llama_kv_cache_init: VRAM kv self = 1024.00 MB\n"
        "llama_new_context_with_model: total VRAM used: 9000.00 MiB (model: 8000.00 MiB, context: 1000.00 MiB)\n"
        "2024/01/02 10:00:00 llama.go:508: llama runner started in 9.5 seconds\n"
        "2024/01/02 10:00:00 llama.go:577: loaded 0 images\n"
        "{\"timestamp\":1704189600,\"level\":\"INFO\",\"function\":\"log_server_request\",\"line\":2596,"
        "\"message\":\"request\",\"remote_addr\":\"127.0.0.1\",\"remote_port\":50000,\"status\":200,"
        "\"method\":\"POST\",\"path\":\"/completion\",\"params\":{}}\n";
    assert_string_equal(stage_of(log), "generate");
    const char *req = "{\"level\":\"INFO\",\"message\":\"request\",\"method\":\"POST\",\"path\":\"/completion\"}";
    assert_int_equal(stage_context_line(req, strlen(req)), OOM_STAGE_GENERATE);
    /* guard: the runner's start without a request names nothing */
    const char *started = "2024/01/02 10:00:00 llama.go:508: llama runner started in 9.5 seconds";
    assert_int_equal(stage_context_line(started, strlen(started)), OOM_STAGE_UNKNOWN);
}

/* Loaders outside torch, by their file and worker function: MXNet Gluon's
 * data worker (apache/mxnet#15711 via gluoncv, h31-14), Paddle's
 * paddle/io/dataloader/ package. */
static void test_other_loaders_are_data(void **state)
{
    (void)state;
    const char *log =
        "Traceback (most recent call last):\n"
        "  File \"/env/lib/python3.8/multiprocessing/pool.py\", line 119, in worker\n"
        "    result = (True, func(*args, **kwds))\n"
        "  File \"/env/lib/python3.8/site-packages/mxnet/gluon/data/dataloader.py\", line 450, in _worker_fn\n"
        "    batch = batchify_fn([_worker_dataset[i] for i in samples])\n"
        "  File \"/env/lib/python3.8/site-packages/mxnet/ndarray/ndarray.py\", line 205, in as_in_context\n"
        "    return self.copyto(context)\n"
        "mxnet.base.MXNetError: [10:00:00] src/storage/./pooled_storage_manager.h:157: cudaMalloc failed: out of memory\n";
    assert_string_equal(stage_of(log), "data");
    const char *paddle = "  File \"/env/lib/python3.9/site-packages/paddle/io/dataloader/dataloader_iter.py\", line 2, in __next__\n";
    assert_int_equal(line_stage(paddle), OOM_STAGE_DATA);
}

/* A tool setting its parts up announces a set-up phase: load
 * (jcjohnson/neural-style#161, h31-91: "Setting up style layer" lines
 * under a title, the paste cut at THCudaCheck's FAIL line). */
static void test_setting_up_is_load(void **state)
{
    (void)state;
    const char *log =
        "CUDNN_STATUS_ALLOC_FAILED with a small image\n"
        "\n"
        "Successfully loaded models/vgg.caffemodel\n"
        "conv1_1: 64 3 3 3\n"
        "Setting up style layer  \t2\t:\trelu1_1\n"
        "Setting up style layer  \t7\t:\trelu2_1\n"
        "THCudaCheck FAIL file=/tmp/luarocks_cutorch/lib/THC/THCGeneral.c\n";
    assert_string_equal(stage_of(log), "load");
    const char *line = "Setting up content layer 23 : relu4_2";
    assert_int_equal(stage_phase_line(line, strlen(line)), OOM_STAGE_LOAD);
    /* guard: a gerund of one word is read as before */
    const char *gen = "Generating samples for batch 3";
    assert_int_equal(stage_phase_line(gen, strlen(gen)), OOM_STAGE_GENERATE);
}

/* Python's warnings module names the module that warned: the code the
 * program was running (huggingface/transformers#23386, h32-39: FSDP's
 * state-dict utility warning while the final checkpoint is gathered). */
static void test_warning_file_is_a_frame(void **state)
{
    (void)state;
    const char *log =
        "CUDA out of memory when saving with FSDP\n"
        "\n"
        "Training runs fine, then this at the end:\n"
        "\n"
        "```\n"
        "/env/lib/python3.10/site-packages/torch/distributed/fsdp/_state_dict_utils.py:312: UserWarnin\n";
    assert_string_equal(stage_of(log), "checkpoint");
    const char *w = "/env/lib/python3.10/site-packages/torch/distributed/fsdp/_state_dict_utils.py:312: "
                    "UserWarning: Failed to clone() tensor with name _fsdp_wrapped_module.model.weight";
    assert_int_equal(stage_context_line(w, strlen(w)), OOM_STAGE_CHECKPOINT);
    /* guards: a loader warns as it is made (its workers run beside the
     * step); a path with no warning category is no warning */
    const char *dl = "/env/lib/python3.8/site-packages/torch/utils/data/dataloader.py:474: UserWarning: "
                     "This DataLoader will create 40 worker processes in total.";
    assert_int_equal(stage_context_line(dl, strlen(dl)), OOM_STAGE_UNKNOWN);
    const char *nw = "/env/site-packages/torch/distributed/fsdp/_state_dict_utils.py:312: in _full_post_state_dict_hook";
    assert_int_equal(stage_context_line(nw, strlen(nw)), OOM_STAGE_UNKNOWN);
}

/* The sentence that introduces the error under it names the action that
 * failed by its first action word, and the title above takes it
 * (EricLBuehler/mistral.rs#819, h31-110). */
static void test_introducing_sentence_names_the_action(void **state)
{
    (void)state;
    const char *log =
        "Unexpected CUDA out of memory on a small card\n"
        "\n"
        "# Description\n"
        "\n"
        "Loading a small quantized model with CUDA fails with:\n"
        "  **Error: DriverError(CUDA_ERROR_OUT_OF_MEMORY, \"out of memory\")**\n";
    assert_string_equal(stage_of(log), "load");
    const char *save = "I get this error when saving the checkpoint:";
    assert_int_equal(stage_intro_line(save, strlen(save)), OOM_STAGE_CHECKPOINT);
    const char *eval = "**Error during evaluation:**";
    assert_int_equal(stage_intro_line(eval, strlen(eval)), OOM_STAGE_EVAL);
    /* guards: the first action word decides; no colon, no introduction */
    const char *follow = "i found the following error during running val.py with your testing dataset:";
    assert_int_equal(stage_intro_line(follow, strlen(follow)), OOM_STAGE_UNKNOWN);
    const char *nocolon = "Loading the model fails.";
    assert_int_equal(stage_intro_line(nocolon, strlen(nocolon)), OOM_STAGE_UNKNOWN);
}

/* llama.cpp's and whisper.cpp's loader functions tag their lines with
 * their names: a title over them, cut before the error, failed while the
 * model loaded (h28-35; ggml-org/whisper.cpp#1915). */
static void test_ggml_loader_lines_are_load(void **state)
{
    (void)state;
    const char *log =
        "cuda malloc error with a 14B model\n"
        "\n"
        "llm_load_vocab: special tokens cache size = 421\n"
        "llm_load_print_meta: format           = GGUF V3 (latest)\n"
        "llm_load_print_meta: n_head           = 40\n"
        "llm_load_print_meta: n_head_kv        = 8\n"
        "llm_load_print_meta: n_embd_k_g\n";
    assert_string_equal(stage_of(log), "load");
    int w = 0;
    const char *sg = "[2025-10-16 09:06:22 TP5] KV Cache is allocated. #tokens: 2795207, K size: 53.31 GB";
    assert_int_equal(activity_line(sg, strlen(sg), &w), OOM_STAGE_LOAD);
    const char *vl = "INFO 05-01 10:00:00 [gpu_model_runner.py:1329] Starting to load model Qwen/Qwen3-8B...";
    assert_int_equal(activity_line(vl, strlen(vl), &w), OOM_STAGE_LOAD);
    const char *wh = "whisper_model_load: n_vocab       = 51866";
    assert_int_equal(activity_line(wh, strlen(wh), &w), OOM_STAGE_LOAD);
    assert_int_equal(w, 2);
}

/* A C++ stack whose frame numbers the paste lost is still a stack: the
 * inference predictor's kernel runs the forward (PaddleOCR via h23-12). */
static void test_unnumbered_cxx_frames(void **state)
{
    (void)state;
    const char *log =
        "OCR on a large image always runs out of GPU memory\n"
        "--------------------------------------\n"
        "C++ Traceback (most recent call last):\n"
        "--------------------------------------\n"
        "paddle::AnalysisPredictor::ZeroCopyRun()\n"
        "paddle::framework::NaiveExecutor::Run()\n"
        "void phi::ReluKernel<float, phi::GPUContext>(phi::GPUContext const&, phi::DenseTensor const&, phi::DenseTensor*)\n";
    assert_string_equal(stage_of(log), "forward");
    const char *f = "void phi::ReluKernel<float, phi::GPUContext>(phi::GPUContext const&)";
    assert_int_equal(stage_line_kind(f, strlen(f)), STAGE_LINE_FRAME);
    /* guards: log text before a qualified call is no frame */
    const char *log1 = "INFO: paddle::framework::Run() took 3 ms";
    assert_int_not_equal(stage_line_kind(log1, strlen(log1)), STAGE_LINE_FRAME);
    const char *prose = "I think the problem is in paddle::Run() somewhere";
    assert_int_not_equal(stage_line_kind(prose, strlen(prose)), STAGE_LINE_FRAME);
}

/* A serving engine's model code is the model's forward; the engine's own
 * cues outrank it (vllm-omni CI, h30-81; guard: execute_model serves). */
static void test_engine_model_code_is_forward(void **state)
{
    (void)state;
    const char *f = "  File \"/ws/vllm/model_executor/models/qwen2.py\", line 476, in embed_multimodal\n";
    assert_int_equal(line_stage(f), OOM_STAGE_FORWARD);
    const char *log =
        "Traceback (most recent call last):\n"
        "  File \"/ws/vllm/worker/model_runner.py\", line 1700, in execute_model\n"
        "    hidden_or_intermediate_states = model_executable(\n"
        "  File \"/ws/vllm/model_executor/models/qwen2.py\", line 340, in forward\n"
        "    hidden_states = self.model(input_ids, positions)\n"
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.10 GiB "
        "of which 1.00 GiB is free.\n";
    assert_string_equal(stage_of(log), "generate");
}

/* A terminal glued torchrun's records onto one padded line: the loading
 * bar before the workers' SIGTERM warnings names what the killed worker
 * was doing (heldout30 h30-84). */
static void test_glued_bar_before_launcher_records(void **state)
{
    (void)state;
    char log[4096];
    size_t n = (size_t)snprintf(log, sizeof log, "%s",
                                "Loading checkpoint shards:   0%|          | 0/2 [00:00<?, ?it/s]");
    for (int w = 0; w < 6; w++)
        n += (size_t)snprintf(log + n, sizeof log - n,
                              "WARNING:torch.distributed.elastic.multiprocessing.api:Sending process %d closing "
                              "signal SIGTERM                                ",
                              899505 + w);
    snprintf(log + n, sizeof log - n, "%s",
             "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -9) local_rank: 4 "
             "(pid: 899509) of binary: /usr/bin/python\n");
    bool gpu = true;
    assert_string_equal(first_stage_of(log, &gpu), "load");
    assert_false(gpu);
}

/* The trainers' own evaluation bars and headers (Lightning's progress bar,
 * mmengine's LogProcessor, the YOLO validators), from their sources. */
static void test_trainer_eval_bars(void **state)
{
    (void)state;
    const char *log =
        "LOCAL_RANK: 0 - CUDA_VISIBLE_DEVICES: [0]\n"
        "Sanity Checking DataLoader 0:   0%|          | 0/2 [00:00<?, ?it/s]\n"
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of "
        "23.65 GiB of which 1.00 GiB is free.\n";
    assert_string_equal(stage_of(log), "eval");
    static const char *const lines[] = {
        "12/01 10:00:00 - mmengine - INFO - Epoch(val) [1][ 50/313]    eta: 0:01:02  time: 0.2  data_time: 0.01",
        "12/01 10:00:00 - mmengine - INFO - Epoch(test) [ 50/313]    eta: 0:01:02",
        "                 Class     Images  Instances      Box(P          R      mAP50  mAP50-95):  10%|#  | 3/30",
        "Testing DataLoader 0:  40%|####      | 4/10 [00:01<00:02,  2.9it/s]",
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
        assert_int_equal(stage_context_line(lines[i], strlen(lines[i])), OOM_STAGE_EVAL);
    /* guard: mmengine's training iteration is no evaluation */
    const char *train = "12/01 10:00:00 - mmengine - INFO - Epoch(train)  [1][ 50/1250]  lr: 1.0e-02  loss: 1.2";
    assert_int_not_equal(stage_context_line(train, strlen(train)), OOM_STAGE_EVAL);
}

/* The inference runtimes' Python APIs: making a session or engine is
 * start-up, running it is the forward (onnxruntime_inference_collection.py,
 * TensorRT's and TF Lite's Python bindings). */
static void test_runtime_python_apis(void **state)
{
    (void)state;
    const char *mk =
        "Traceback (most recent call last):\n"
        "  File \"app.py\", line 10, in <module>\n"
        "    sess = ort.InferenceSession(\"model.onnx\", providers=[\"CUDAExecutionProvider\"])\n"
        "  File \"/env/site-packages/onnxruntime/capi/onnxruntime_inference_collection.py\", line 419, in __init__\n"
        "    self._create_inference_session(providers, provider_options, disabled_optimizers)\n"
        "  File \"/env/site-packages/onnxruntime/capi/onnxruntime_inference_collection.py\", line 483, in "
        "_create_inference_session\n"
        "    sess.initialize_session(providers, provider_options, disabled_optimizers)\n"
        "onnxruntime.capi.onnxruntime_pybind11_state.RuntimeException: [ONNXRuntimeError] : 6 : RUNTIME_EXCEPTION : "
        "bfc_arena.cc:376 onnxruntime::BFCArena::AllocateRawInternal Failed to allocate memory for requested "
        "buffer of size 268435456\n";
    /* a guard: the session's __init__ frame made this load before too */
    assert_string_equal(stage_of(mk), "load");
    static const struct {
        const char *line;
        enum oom_stage stage;
    } frames[] = {
        {"    return self._sess.run(output_names, input_feed, run_options)\n", OOM_STAGE_FORWARD},
        {"    context.execute_async_v3(stream_handle=stream.handle)\n", OOM_STAGE_FORWARD},
        {"    engine = runtime.deserialize_cuda_engine(f.read())\n", OOM_STAGE_LOAD},
        {"    interpreter.allocate_tensors()\n", OOM_STAGE_LOAD},
        {"    compiled = core.compile_model(model, \"GPU\")\n", OOM_STAGE_LOAD},
    };
    for (size_t i = 0; i < sizeof frames / sizeof frames[0]; i++)
        assert_int_equal(stage_pick(stage_frame_bits(frames[i].line, strlen(frames[i].line))), frames[i].stage);
}

/* The paste's last line is often its error cut before the words that make
 * it a message: a tool's ERROR/FAIL tag there does not end the reading of
 * the lines above it (vllm-project/vllm#15598, h6-28; neural-style#161). */
static void test_cut_error_tag_is_skipped(void **state)
{
    (void)state;
    const char *tail =
        "INFO 03-27 10:29:01 [worker.py:267] Memory profiling takes 4.26 seconds\n"
        "INFO 03-27 10:29:01 [worker.py:267] model weights take 20.64GiB; non_torch_memory takes 0.28GiB\n"
        "ERROR 03-27 10:29:13 [worker_base.py:620] Error executing metho\n";
    assert_int_equal(activity_tail(tail, strlen(tail), NULL), OOM_STAGE_LOAD);
    /* guard: the user's own sentence still ends the reading */
    const char *prose =
        "INFO 03-27 10:29:01 [worker.py:267] Memory profiling takes 4.26 seconds\n"
        "Then I get an ERROR and it stops\n";
    assert_int_equal(activity_tail(prose, strlen(prose), NULL), OOM_STAGE_UNKNOWN);
}

/* A TF 1.x node outside the gradient scopes that takes a finished gradient
 * as input updates the weights with it: the optimizer (a Keras optimizer's
 * unscoped ops, iperov/DeepFaceLab#5588 = h31-80). */
static void test_tf_node_consuming_a_gradient(void **state)
{
    (void)state;
    const char *node = "\t [[{{node mul_23}} = Mul[T=DT_FLOAT, _device=\"/job:localhost/replica:0/task:0/device:GPU:0\"]"
                       "(truediv_34, gradients/model_2/conv2d_6/convolution_grad/Conv2DBackpropFilter)]]";
    assert_int_equal(stage_tf(node, strlen(node)), OOM_STAGE_OPTIMIZER);
    /* guards: a node fed by forward tensors stays forward; a node inside
     * the gradient scope stays backward */
    const char *fwd = "\t [[{{node mul_23}} = Mul[T=DT_FLOAT, _device=\"/device:GPU:0\"](truediv_34, model_2/conv2d_6/Relu)]]";
    assert_int_equal(stage_tf(fwd, strlen(fwd)), OOM_STAGE_FORWARD);
    const char *bwd = "\t [[Node: gradients/model/conv/Conv2D_grad/Conv2DBackpropInput = Conv2DBackpropInput[T=DT_FLOAT]"
                      "(gradients/model/conv/Conv2D_grad/ShapeN, conv/kernel/read)]]";
    assert_int_equal(stage_tf(bwd, strlen(bwd)), OOM_STAGE_BACKWARD);
    /* guard: a layout optimizer's transpose named after a gradient op feeds
     * the forward conv its input, no gradient (the lead, heldout35 h35-06) */
    const char *layout = "[[Node: conv1_1/convolution = Conv2D[T=DT_FLOAT, _class=[\"loc:@gradients/conv1_1/"
                         "convolution_grad/Conv2DBackpropFilter\"], data_format=\"NCHW\"](gradients/conv1_1/"
                         "convolution_grad/Conv2DBackpropFilter-0-TransposeNHWCToNCHW-LayoutOptimizer, "
                         "conv1_1/kernel/read)]]";
    assert_int_equal(stage_tf(layout, strlen(layout)), OOM_STAGE_FORWARD);
}

/* The optimizer step by its wrappers' names: AMP's GradScaler, DeepSpeed's
 * engine and ZeRO-3 (torch/amp/grad_scaler.py, deepspeed/runtime). */
static void test_step_wrappers_are_optimizer(void **state)
{
    (void)state;
    const char *log =
        "Traceback (most recent call last):\n"
        "  File \"train.py\", line 90, in <module>\n"
        "    model_engine.step()\n"
        "  File \"/env/site-packages/deepspeed/runtime/engine.py\", line 2213, in step\n"
        "    self._take_model_step(lr_kwargs)\n"
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB. GPU 0 has a total capacity of "
        "79.10 GiB of which 100.00 MiB is free.\n";
    assert_string_equal(stage_of(log), "optimizer");
    const char *amp = "    scaler.step(optimizer)\n";
    assert_int_equal(line_stage(amp), OOM_STAGE_OPTIMIZER);
}

/* srun --label prefixes every line of a task, its indented frames too
 * ("3:     loss.backward()"): the frames are read after the label, as after
 * "[rank3]:" (the review of 2026-12-06: labelled frames were not read and
 * the stage was unknown). */
static void test_srun_labelled_frames(void **state)
{
    (void)state;
    const char *log = "0: step 12 loss 2.31\n"
                      "3: Traceback (most recent call last):\n"
                      "3:   File \"train.py\", line 10, in <module>\n"
                      "3:     loss.backward()\n"
                      "3: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. "
                      "GPU 3 has a total capacity of 79.15 GiB of which 1.02 GiB is free.\n";
    assert_string_equal(stage_of(log), "backward");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ort_node_run_is_forward),
        cmocka_unit_test(test_trt_execution_context_is_load),
        cmocka_unit_test(test_completion_request_is_generate),
        cmocka_unit_test(test_other_loaders_are_data),
        cmocka_unit_test(test_setting_up_is_load),
        cmocka_unit_test(test_warning_file_is_a_frame),
        cmocka_unit_test(test_introducing_sentence_names_the_action),
        cmocka_unit_test(test_ggml_loader_lines_are_load),
        cmocka_unit_test(test_unnumbered_cxx_frames),
        cmocka_unit_test(test_engine_model_code_is_forward),
        cmocka_unit_test(test_glued_bar_before_launcher_records),
        cmocka_unit_test(test_trainer_eval_bars),
        cmocka_unit_test(test_runtime_python_apis),
        cmocka_unit_test(test_cut_error_tag_is_skipped),
        cmocka_unit_test(test_tf_node_consuming_a_gradient),
        cmocka_unit_test(test_step_wrappers_are_optimizer),
        cmocka_unit_test(test_srun_labelled_frames),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
