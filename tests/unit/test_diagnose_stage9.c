/* diagnose's stage on logs nobody here wrote, helper diagstage9 (issue 12).
 * Each case is real text from the public thread named beside it (the corpus
 * row in brackets); each assertion failed on the code before its mechanism
 * (main f423fe1) unless it says it guards. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "lib/activity.h"
#include "lib/msg.h"
#include "lib/scan.h"
#include "lib/stage.h"
#include "stage_fixture.h"
#include "scan_fixture.h"

/* A notebook's traceback header names the error's class; the error line
 * that ends the same traceback is the one event, and the TF node below it
 * names the stage (minimaxir/gpt-2-simple#282, h29-27). */
static void test_notebook_header_and_its_error_are_one_event(void **state)
{
    (void)state;
    const char *log =
        "ResourceExhaustedError                    Traceback (most recent call last)\n"
        "/usr/local/lib/python3.7/dist-packages/tensorflow/python/client/session.py in _do_call(self, fn, *args)\n"
        "   1379     try:\n"
        "-> 1380       return fn(*args)\n"
        "   1381     except errors.OpError as e:\n"
        "\n"
        "7 frames\n"
        "/usr/local/lib/python3.7/dist-packages/tensorflow/python/client/session.py in _call_tf_sessionrun(self, options, feed_dict, fetch_list, target_list, run_metadata)\n"
        "   1457                                             fetch_list, target_list,\n"
        "-> 1458                                             run_metadata)\n"
        "   1459 \n"
        "\n"
        "ResourceExhaustedError: failed to allocate memory\n"
        "\t [[{{node model/h18/ln_2/add_1}}]]\n"
        "Hint: If you want to see a list of allocated tensors when OOM happens, add report_tensor_allocations_upon_oom\n";
    struct oom_report rep;
    scan_log(log, &rep);
    assert_int_equal(rep.n_events, 1);
    assert_true(rep.primary == 0);
    assert_int_equal(rep.events[0].line, 13);
    assert_string_equal(oom_stage_name(rep.events[0].stage), "forward");
    oom_report_release(&rep);
    assert_string_equal(stage_of(log), "forward");
}

/* Guard: a header whose error line the paste cut stays the event (the
 * class name is all that names the failure; ludwig-ai/ludwig#3782, h15-80). */
static void test_notebook_header_alone_stays(void **state)
{
    (void)state;
    const char *log =
        "OutOfMemoryError                          Traceback (most recent call last)\n"
        "Cell In[48], line 1\n"
        "----> 1 train_stats = model.train(dataset=X_train)\n";
    struct oom_report rep;
    scan_log(log, &rep);
    assert_int_equal(rep.n_events, 1);
    assert_int_equal(rep.events[0].line, 1);
    oom_report_release(&rep);
}

/* A title over a paste of vLLM's start-up lines, cut before the error:
 * the engine was being set up (gpustack/gpustack#1897, h25-09). */
static void test_vllm_startup_lines_are_load(void **state)
{
    (void)state;
    const char *log =
        "Deepseek 70b can't start with cuda error Out of Memory with vLLM V1 engine\n"
        "\n"
        "VllmWorker rank=4 pid=5432) INFO 04-25 10:23:30 [monitor.py:33] torch.compile takes 15.78 s in total\n"
        "INFO 04-25 10:23:33 [kv_cache_utils.py:634] GPU KV cache size: 106,640 tokens\n"
        "INFO 04-25 10:23:33 [kv_cache_utils.py:637] Maximum concurrency for 8,192 tokens per request: 13.02x\n"
        "INFO 04-25 10:23:33 [kv_cache_utils.py:634] GPU KV cache size: 106,640 tokens\n"
        "INFO 04-25 10:23:33 [kv_cache_utils.py:637] Maximum concurrency for 8,192 tokens per request: 13.02x\n";
    assert_string_equal(stage_of(log), "load");
}

/* DeepSpeed creating its ZeRO-3 optimizer, in a comment's paste cut
 * mid-line: load; the comment header above the paste ends the reading
 * (deepspeedai/DeepSpeed#3000, h27-50). */
static void test_deepspeed_zero_init_lines_are_load(void **state)
{
    (void)state;
    const char *log =
        "[BUG] NVMe Offloading OOMs While Zero Stage 3 Offloading Runs\n"
        "\n"
        "stanleyshly · comment · 2023-03-15\n"
        "I tried that, here is a new stack trace:\n"
        "```\n"
        "1/1] c++ cpu_adam_hip.o custom_hip_kernel.cuda.o -shared -L/home/workstation/.local/lib/python3.10/site-packages/torch/lib -lc10 -lc10_hip -ltorch_cpu -ltorch_hip -ltorch -ltorch_python -L/opt/rocm-5.4.2/lib -lamdhip64 -o cpu_adam.so\n"
        "Loading extension module cpu_adam...\n"
        "Time to load cpu_adam op: 2.801124334335327 seconds\n"
        "Adam Optimizer #0 is created with AVX2 arithmetic capability.\n"
        "Config: alpha=0.000050, betas=(0.900000, 0.999000), weight_decay=0.000000, adam_w=1\n"
        "[2023-03-14 16:56:21,602] [INFO] [logging.py:77:log_dist] [Rank 0] Using DeepSpeed Optimizer param name adamw as basic optimizer\n"
        "[2023-03-14 16:56:21,644] [INFO] [logging.py:77:log_dist] [Rank 0] DeepSpeed Basic Optimizer = DeepSpeedCPUAdam\n"
        "[2023-03-14 16:56:21,644] [INFO] [utils.py:55:is_zero_supported_optimizer] Checking ZeRO support for optimizer=DeepSpeedCPUAdam type=<class 'deepspeed.ops.adam.cpu_adam.DeepSpeedCPUAdam'>\n"
        "[2023-03-14 16:56:21,644] [INFO] [logging.py:77:log_dist] [Rank 0] Creating torch.float16 ZeRO stage 3 optimizer\n"
        "[2023-03-14 16:56:21,724] [INFO] [utils.py:829:see_memory_usage] Stage 3 initialize beginning\n"
        "[2023-03-14 16:56:21,724] [INFO] [utils.py:830:see_memory_usage] MA 0.12 GB         Max_MA 0.25 GB         CA 0.31 GB         Max_CA 0 GB \n"
        "[2023-03-14 16:56:21,724] [INFO] [u\n";
    assert_string_equal(stage_of(log), "load");
    const char *tail = strstr(log, "1/1] c++");
    struct activity_reading r;
    assert_int_equal(activity_tail(tail, strlen(tail), &r), OOM_STAGE_LOAD);
    /* "ZeRO stage", "initialize beginning" 2 each, "Loading extension module" 1 */
    assert_int_equal(r.score[OOM_STAGE_LOAD], 5);
}

/* A training script's "Running validation..." above the validation
 * pipeline's loading lines: the validation pass (huggingface/diffusers#9546,
 * h29-89). */
static void test_running_validation_is_eval(void **state)
{
    (void)state;
    const char *log =
        "Flux Controlnet Train Example, will run out of memory on validation step\n"
        "\n"
        "### Describe the bug\n"
        "\n"
        "On default settings provided in flux train example readme, with 10 validation images training will error out with out of memory error during validation. on A100 80GB\n"
        "\n"
        "```\n"
        "09/28/2024 00:34:14 - INFO - __main__ - Running validation... \n"
        "Loaded vae as AutoencoderKL from `vae` subfolder of black-forest-labs/FLUX.1-dev.\n";
    assert_string_equal(stage_of(log), "eval");
}

/* Guard: the user's sentence after the log ("running the following gives
 * me an OOM:") says the failure came later; the start-up lines above it
 * are not its stage (vllm-project/vllm#536, h29-69: labelled no stage). */
static void test_narration_after_the_log_ends_the_reading(void **state)
{
    (void)state;
    const char *log =
        "OOM due to long context length with MPT-7B\n"
        "\n"
        "```\n"
        "INFO 07-20 19:23:49 llm_engine.py:60] Initializing an LLM engine with config: model='/root/MPT-exps/MHS2.2.3_finetune/medmpt_coding2.2.3_ep4/', tokenizer='/root/MPT-exps/MHS2.2.3_finetune/medmpt_coding2.2.3_ep4/', tokenizer_mode=auto, dtype=torch.bfloat16, use_dummy_weights=False, download_dir=None, use_np_weights=False, tensor_parallel_size=8, seed=0)\n"
        "INFO 07-20 19:27:06 llm_engine.py:131] # GPU blocks: 37085, # CPU blocks: 2048\n"
        "```\n"
        "\n"
        "Then, running the following gives me an OOM:\n"
        "```\n"
        "sampling_params = SamplingParams(n=1,\n"
        "                                 temperature=0.95, \n"
        "                                 top_p=0.9, \n"
        "                                 best_of=1, \n"
        "                                 use_beam_search=False, \n"
        "                                 stop=\"<|endoftext|>\"\n"
        "\n";
    assert_string_equal(stage_of(log), "unknown");
}

/* The lines right below a title are the paste's start; its last activity
 * outranks them: Lightning's restore lines under "Out of memory after some
 * iterations of validation", then the "Validating:" bar the paste ends in
 * (taconite/arah-release#11, h7-50, was load); vLLM's "Initializing an LLM
 * engine" line after the script's own log lines (vllm-project/vllm#7721,
 * h25-07, was generate from the "llm_engine.py" tag's file). */
static void test_last_activity_outranks_the_lines_below_a_title(void **state)
{
    (void)state;
    const char *validation =
        "Out of memory after some iterations of validation\n"
        "\n"
        "Restoring states from the checkpoint path at out/arah-zju/ZJUMOCAP-313_4gpus/checkpoints/last.ckpt\n"
        "LOCAL_RANK: 2 - CUDA_VISIBLE_DEVICES: [0,1,2,3,4,5,6,7]\n"
        "LOCAL_RANK: 1 - CUDA_VISIBLE_DEVICES: [0,1,2,3,4,5,6,7]\n"
        "LOCAL_RANK: 3 - CUDA_VISIBLE_DEVICES: [0,1,2,3,4,5,6,7]\n"
        "LOCAL_RANK: 0 - CUDA_VISIBLE_DEVICES: [0,1,2,3,4,5,6,7]\n"
        "Loaded model weights from checkpoint at out/arah-zju/ZJUMOCAP-313_4gpus/checkpoints/last.ckpt\n"
        "Validating:  15%|████████████████████▎                                                                                                                   | 513/3434 [2:04:33<16:18:51, 20.11s/it]\n";
    assert_string_equal(stage_of(validation), "eval");
    const char *engine =
        "[Bug]: torch.OutOfMemoryError: CUDA out of memory\n"
        "\n"
        "```\n"
        "\n"
        "after Runing the code, i get an OOM error\n"
        "\n"
        "```text\n"
        "2024-08-21 07:23:29,967 - root - INFO - I'm a message\n"
        "2024-08-21 07:23:33,518 - datasets - INFO - PyTorch version 2.4.0 available.\n"
        "2024-08-21 07:23:33,712 - root - INFO - app\n"
        "2024-08-21 07:23:34,290 - transformers_modules.v1.configuration_minicpm - INFO - vision_config is None, using default vision config\n"
        "INFO 08-21 07:23:34 llm_engine.py:174] Initializing an LLM engine (v0.5.4) with config: model='/opt/apps/models/miniCPM-v2.6/v1', speculative_config=None, tokenizer='/opt/apps/models/miniCPM-v2.6/v1', skip_tokenizer_init=False, t\n";
    assert_string_equal(stage_of(engine), "load");
}

/* ComfyUI's error pop-up names the failing node alone above the message:
 * a video model's decoder node decodes the sampled latents as VAEDecode
 * does (kijai/ComfyUI-HunyuanVideoWrapper#503, h29-76). */
static void test_comfyui_decode_node_is_generate(void **state)
{
    (void)state;
    const char *log =
        "Hunyuan Video Decode\n"
        "\n"
        "HyVideoDecode\n"
        "Allocation on device\n"
        "This error means you ran out of memory on your GPU.\n"
        "TIPS: If the workflow worked before you might have accidentally set the batch_size to a large number.\n"
        "\n"
        "-------------------------------\n"
        "Allocated memory: memory=6.429 GB\n"
        "Max allocated memory: max_memory=7.217 GB\n"
        "Max reserved memory: max_reserved=7.812 GB\n"
        "-------------------------------\n"
        "TeaCache skipped 15 cond steps\n"
        "!!! Exception during processing !!! Allocation on device\n"
        "Traceback (most recent call last):\n"
        "  File \"C:\\Users\\Administrator\\Desktop\\ComfyUI_windows_portable\\ComfyUI\\execution.py\", line 516, in execute\n"
        "    output_data, output_ui, has_subgraph, has_pending_tasks = await get_output_data(prompt_id, unique_id, obj, input_data_all, execution_block_cb=execution_block_cb, pre_execute_cb=pre_execute_cb, v3_data=v3_data)\n";
    assert_string_equal(stage_of(log), "generate");
}

/* The reading itself, on real lines: a word other phases share is too weak
 * alone (anveshane/Comfyui_turbodiffusion#37, h25-59); a ZeRO partition
 * line weighs 1 (thu-coai/EVA#43, h18-91); of two stages the heavier names
 * the activity (diffusers#9546's "Running validation..." over two of
 * ChatGLM2-6B#520's shard-loading bars, h7-33: eval 3, load 4; over one
 * of them: eval 3, load 2). */
static void test_activity_weights(void **state)
{
    (void)state;
    const char *weak = "[22:32:54] [  6.58s] [I2V-Inference] Running dual-expert rCM sampling...\n";
    assert_int_equal(activity_tail(weak, strlen(weak), NULL), OOM_STAGE_UNKNOWN);
    int w = 0;
    const char *line = "[2022-05-16 15:54:51,331] [INFO] [stage1.py:369:get_data_parallel_sub_partitions] **** partition info:";
    assert_int_equal(activity_line(line, strlen(line), &w), OOM_STAGE_LOAD);
    assert_int_equal(w, 1);
    const char *two = "09/28/2024 00:34:14 - INFO - __main__ - Running validation... \n"
                      "Loading checkpoint shards:  57% 4/7 [00:40<00:29,  9.96s/it]\n"
                      "Loading checkpoint shards:  57% 4/7 [00:40<00:29,  9.96s/it]\n";
    struct activity_reading r;
    assert_int_equal(activity_tail(two, strlen(two), &r), OOM_STAGE_LOAD);
    assert_int_equal(r.score[OOM_STAGE_EVAL], 3);
    assert_int_equal(r.score[OOM_STAGE_LOAD], 4);
    assert_int_equal(activity_tail(two, strlen(two) - 59, &r), OOM_STAGE_EVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_notebook_header_and_its_error_are_one_event),
        cmocka_unit_test(test_notebook_header_alone_stays),
        cmocka_unit_test(test_vllm_startup_lines_are_load),
        cmocka_unit_test(test_deepspeed_zero_init_lines_are_load),
        cmocka_unit_test(test_running_validation_is_eval),
        cmocka_unit_test(test_narration_after_the_log_ends_the_reading),
        cmocka_unit_test(test_activity_weights),
        cmocka_unit_test(test_comfyui_decode_node_is_generate),
        cmocka_unit_test(test_last_activity_outranks_the_lines_below_a_title),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
