/* Unit tests for the mechanisms read from the misses of heldout69
 * (inference, serving and quantization threads), opened for study after
 * its blind figures were recorded at af512501 (call 53/61, numbers 31/35,
 * stages 12/20). Each case has a guard that must stay as it was. The
 * pastes are written here in the shape of the posts named beside them
 * (the tools' own frames and wording, from their sources), not copied
 * from the threads. */
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

/* The stage of the log's first event, a GPU OOM or not (a Killed). */
static const char *first_stage(const char *log)
{
    struct oom_report rep;
    scan_log(log, &rep);
    if (rep.n_events == 0) fail_msg("no event in: %.80s", log);
    const char *name = oom_stage_name(rep.events[0].stage);
    oom_report_release(&rep);
    return name;
}

/* vLLM V1's engine process fails while it constructs its core
 * (run_engine_core: "engine_core = EngineCoreProc(*args, **kwargs)"), the
 * frames under the constructor cut by the paste: start-up, load
 * (vllm-project/vllm:vllm/v1/engine/core.py; the shape of
 * vllm-project/vllm-ascend#2226 and vllm-project/vllm#19250). Once built,
 * the core serves in run_busy_loop: generate (guard). */
static void test_engine_core_construction_is_load(void **state)
{
    (void)state;
    const char *msg = "(EngineCore_DP0 pid=4711) ERROR 10-13 09:46:06 [core.py:708] torch.OutOfMemoryError: CUDA out "
                      "of memory. Tried to allocate 1.50 GiB. GPU 0 has a total capacity of 23.55 GiB of which "
                      "812.19 MiB is free.\n";
    char log[2048];
    snprintf(log, sizeof log,
             "%s"
             "(EngineCore_DP0 pid=4711) ERROR 10-13 09:46:06 [core.py:708] Traceback (most recent call last):\n"
             "(EngineCore_DP0 pid=4711) ERROR 10-13 09:46:06 [core.py:708]   File \"/opt/venv/lib/python3.12/"
             "site-packages/vllm/v1/engine/core.py\", line 699, in run_engine_core\n"
             "(EngineCore_DP0 pid=4711) ERROR 10-13 09:46:06 [core.py:708]     engine_core = "
             "EngineCoreProc(*args, **kwargs)\n",
             msg);
    assert_string_equal(primary_stage(log), "load");
    /* data parallel: the same constructor, DPEngineCoreProc */
    snprintf(log, sizeof log,
             "%s"
             "Traceback (most recent call last):\n"
             "  File \"/vllm/vllm/v1/engine/core.py\", line 506, in run_engine_core\n"
             "    engine_core = DPEngineCoreProc(*args, **kwargs)\n",
             msg);
    assert_string_equal(primary_stage(log), "load");
    /* guard: the built core's busy loop serves requests */
    snprintf(log, sizeof log,
             "%s"
             "Traceback (most recent call last):\n"
             "  File \"/vllm/vllm/v1/engine/core.py\", line 1129, in run_engine_core\n"
             "    engine_core.run_busy_loop()\n",
             msg);
    assert_string_equal(primary_stage(log), "generate");
}

/* TensorRT's own memory snapshots of an engine's start-up
 * ("[MemUsageSnapshot] deserializeCudaEngine begin/end", "...
 * ExecutionContext creation begin/end") right above the failure: load
 * (engine-startup-load; the shape of wang-xinyu/tensorrtx's retinaface
 * Killed on a Jetson Nano, newbiehyz/hand_jetsonnano#1). The memory
 * reports of the libraries it initialises name nothing (guard). */
static void test_tensorrt_startup_snapshot_is_load(void **state)
{
    (void)state;
    assert_string_equal(
        first_stage("Got this output:\n"
                    "[TensorRT] INFO: [MemUsageChange] Init CUDA: CPU +197, GPU +0, now: CPU 271, GPU 1891 (MiB)\n"
                    "[TensorRT] INFO: [MemUsageSnapshot] deserializeCudaEngine begin: CPU 453 MiB, GPU 2255 MiB\n"
                    "[TensorRT] INFO: [MemUsageChange] Init cuDNN: CPU +240, GPU +412, now: CPU 852, GPU 3128 (MiB)\n"
                    "[TensorRT] INFO: [MemUsageSnapshot] deserializeCudaEngine end: CPU 852 MiB, GPU 3128 MiB\n"
                    "[TensorRT] INFO: [MemUsageSnapshot] ExecutionContext creation begin: CPU 671 MiB, GPU 2947 MiB\n"
                    "[TensorRT] INFO: [MemUsageChange] Init cuBLAS/cuBLASLt: CPU +0, GPU +0, now: CPU 671, GPU 2947 "
                    "(MiB)\n"
                    "[TensorRT] INFO: [MemUsageSnapshot] ExecutionContext creation end: CPU 673 MiB, GPU 3210 MiB\n"
                    "Killed\n"),
        "load");
    assert_string_equal(
        first_stage("Got this output:\n"
                    "[TensorRT] INFO: [MemUsageSnapshot] ExecutionContext creation end: CPU 673 MiB, GPU 3210 MiB\n"
                    "Killed\n"),
        "load");
    /* guard: the libraries' own memory reports alone */
    assert_string_equal(
        first_stage("Got this output:\n"
                    "[TensorRT] INFO: [MemUsageChange] Init cuDNN: CPU +240, GPU +412, now: CPU 852, GPU 3128 (MiB)\n"
                    "Killed\n"),
        "unknown");
}

/* text-generation-webui's chat tab: modules/chat.py chatbot_wrapper (and
 * the older server.py's cai_chatbot_wrapper) loops over generate_reply, so
 * a failure under it is a reply being generated, even where the frames
 * under it are cut (the shape of oobabooga/textgen#7 and #2169). The
 * gradio frames above it serve every web UI and name nothing (guard). */
static void test_webui_chat_wrapper_is_generate(void **state)
{
    (void)state;
    const char *gradio = "Traceback (most recent call last):\n"
                         "  File \"C:\\env\\lib\\site-packages\\gradio\\routes.py\", line 321, in run_predict\n"
                         "    output = await app.blocks.process_api(\n"
                         "  File \"C:\\env\\lib\\site-packages\\gradio\\blocks.py\", line 1006, in process_api\n"
                         "    result = await self.call_function(fn_index, inputs, iterator, request)\n"
                         "  File \"C:\\env\\lib\\site-packages\\anyio\\_backends\\_asyncio.py\", line 867, in run\n"
                         "    result = context.run(func, *args)\n";
    const char *oom = "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 8.00 GiB "
                      "total capacity; 7.17 GiB already allocated; 0 bytes free; 7.36 GiB reserved in total by "
                      "PyTorch)\n";
    char log[2048];
    snprintf(log, sizeof log,
             "%s"
             "  File \"I:\\text-generation-webui\\server.py\", line 245, in cai_chatbot_wrapper\n"
             "    for history in chatbot_wrapper(text, tokens, inference_settings, selected_model, name1):\n"
             "%s",
             gradio, oom);
    assert_string_equal(primary_stage(log), "generate");
    snprintf(log, sizeof log,
             "%s"
             "  File \"/ui/modules/chat.py\", line 412, in generate_chat_reply_wrapper\n"
             "    for i, history in enumerate(generate_chat_reply(text, state, regenerate, _continue)):\n"
             "  File \"/ui/modules/chat.py\", line 380, in generate_chat_reply\n"
             "    for history in chatbot_wrapper(text, state, regenerate=regenerate, _continue=_continue):\n"
             "%s",
             gradio, oom);
    assert_string_equal(primary_stage(log), "generate");
    /* guard: the gradio frames alone */
    snprintf(log, sizeof log, "%s%s", gradio, oom);
    assert_string_equal(primary_stage(log), "unknown");
}

/* mistral.rs quantizes the weights in place while it loads a model
 * ("Applying in-situ quantization into Some(Q4K) to 281 tensors.",
 * "Applying ISQ to all ranks."): a CUDA OOM panicking under those lines
 * is load (EricLBuehler/mistral.rs#1552, #344, #1428). The panic with no
 * such line names nothing (guard). */
static void test_in_situ_quantization_is_load(void **state)
{
    (void)state;
    const char *panic = "thread '<unnamed>' panicked at mistralrs-core/src/pipeline/isq.rs:582:34:\n"
                        "called `Result::unwrap()` on an `Err` value: WithBacktrace { inner: "
                        "Cuda(Cuda(DriverError(CUDA_ERROR_OUT_OF_MEMORY, \"out of memory\"))), backtrace: "
                        "Backtrace [{ fn: \"candle_core::error::Error::bt\" }] }\n";
    char log[2048];
    snprintf(log, sizeof log,
             "2025-07-12T21:26:52.653736Z  INFO mistralrs_core::pipeline::normal: Loading `config.json` at "
             "`Qwen/Qwen2-7B`\n"
             "2025-07-12T21:26:52.653798Z  INFO mistralrs_core::pipeline::isq: Applying in-situ quantization into "
             "Some(Q4K) to 281 tensors.\n"
             "%s",
             panic);
    assert_string_equal(primary_stage(log), "load");
    snprintf(log, sizeof log,
             "2025-07-12T21:26:52.653736Z  INFO mistralrs_core::pipeline::normal: Applying ISQ to all ranks.\n"
             "%s",
             panic);
    assert_string_equal(primary_stage(log), "load");
    /* guard: the panic alone */
    assert_string_equal(primary_stage(panic), "unknown");
}

/* A keyword argument's or setting's name ("attn_tp_size=None",
 * "attention_backend='flashinfer'", "prediction_loss_only=False") in a
 * printed config object is no model math: the line above an OOM names no
 * forward (lmdeploy's TurbomindEngineConfig print, InternLM/lmdeploy#3971;
 * SGLang's ServerArgs log line; transformers' TrainingArguments repr).
 * Code that computes keeps its forward (guards). */
static void test_keyword_names_are_no_math(void **state)
{
    (void)state;
    const char *cfg[] = {
        "TurbomindEngineConfig(dtype='auto', model_format='awq', tp=1, attn_tp_size=None, use_logn_attn=False)",
        ("[2025-01-03 10:00:00] server_args=ServerArgs(model_path='Qwen/Qwen2-7B', tp_size=1, "
         "attention_backend='flashinfer', sampling_backend='flashinfer')"),
        "TrainingArguments(output_dir='out', per_device_train_batch_size=8, prediction_loss_only=False)",
    };
    for (size_t i = 0; i < sizeof cfg / sizeof cfg[0]; i++)
        assert_false(stage_model_math(cfg[i], strlen(cfg[i])));
    char log[1024];
    snprintf(log, sizeof log,
             "%s\n"
             "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity "
             "of 23.55 GiB of which 1.20 GiB is free.\n",
             cfg[1]);
    assert_string_equal(primary_stage(log), "unknown");
    /* guards: code that computes, with keyword arguments or without */
    const char *code[] = {
        "    attn_output = self.attn(hidden_states)",
        "    out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)",
        "    loss = loss_fn(logits, labels)",
    };
    for (size_t i = 0; i < sizeof code / sizeof code[0]; i++)
        assert_true(stage_model_math(code[i], strlen(code[i])));
}

/* The abbreviation in mixed case with its device, "I end up with a CUDA
 * OoM:" (deepspeedai/DeepSpeed-MII#559; "Funny Error (OoM)", heldout28
 * h28-86), is a GPU OOM named in words as "CUDA OOM" is; over host words
 * it is none (guard). */
static void test_mixed_case_oom(void **state)
{
    (void)state;
    struct oom_report rep;
    scan_log("Excessive memory use\n\nRunning it on two GPUs, I end up with a CUDA OoM:\n", &rep);
    assert_true(rep.primary >= 0);
    oom_report_release(&rep);
    expect_no_gpu_oom("Excessive memory use\n\nThe job dies with a CPU OoM after loading.\n");
}

/* NCCL's INFO lines report and fall back, never fail ("NCCL INFO
 * NET/Plugin: Failed to find ncclNetPlugin_v6 symbol.", NVIDIA/nccl#1000,
 * NVIDIA/Megatron-LM#516): a paste that ends in them shows no failure of
 * its own. NCCL's error after them stays one (guard). */
static void test_nccl_info_is_no_error(void **state)
{
    (void)state;
    const char *info = "node01:451:1290 [1] NCCL INFO NET/Plugin: Failed to find ncclNetPlugin_v6 symbol.\n"
                       "node01:451:1290 [1] NCCL INFO TUNER/Plugin: Failed to find ncclTunerPlugin_v2, using "
                       "internal tuner instead.\n";
    struct oom_report rep;
    scan_log(info, &rep);
    assert_int_equal(rep.n_events, 0);
    oom_report_release(&rep);
    char log[1024];
    snprintf(log, sizeof log,
             "%s"
             "RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1191, unhandled "
             "system error\n",
             info);
    scan_log(log, &rep);
    assert_true(rep.n_events > 0);
    assert_true(rep.primary < 0);
    oom_report_release(&rep);
}

/* ggml's context arena refusing a tensor, "ggml_new_tensor_impl: not
 * enough space in the context's memory pool (needed N, available M)": a
 * look-alike (the arena is the program's own estimate, ggml-org/ggml#322,
 * ggml-org/llama.cpp#29, #522) that carries its figures. A device buffer
 * ggml could not allocate stays a GPU OOM (guard). */
static void test_ggml_context_pool(void **state)
{
    (void)state;
    struct oom_report rep;
    scan_log("Enter a query: Which indices are mentioned?\n"
             "ggml_new_tensor_impl: not enough space in the context's memory pool (needed 458853944, available "
             "454395136)\n",
             &rep);
    assert_true(rep.n_events > 0);
    assert_true(rep.primary < 0);
    assert_string_equal(rep.events[0].kind, "ggml-context-pool");
    assert_int_equal(rep.events[0].bytes.requested, 458853944);
    assert_int_equal(rep.events[0].bytes.free, 454395136);
    oom_report_release(&rep);
    scan_log("alloc_tensor_range: failed to allocate CUDA0 buffer of size 4412935168\n", &rep);
    assert_true(rep.primary >= 0);
    oom_report_release(&rep);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_engine_core_construction_is_load),
        cmocka_unit_test(test_tensorrt_startup_snapshot_is_load),
        cmocka_unit_test(test_webui_chat_wrapper_is_generate),
        cmocka_unit_test(test_in_situ_quantization_is_load),
        cmocka_unit_test(test_keyword_names_are_no_math),
        cmocka_unit_test(test_mixed_case_oom),
        cmocka_unit_test(test_nccl_info_is_no_error),
        cmocka_unit_test(test_ggml_context_pool),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
