/* Unit tests for the stage cues of helper srcstage (issue 12): paths and
 * log lines of vLLM, SGLang, transformers, DeepSpeed, openai-whisper and
 * Forge/Fooocus read from their own source, where a cue was missing or a
 * generic one named another stage (test_diagnose_stagesrc.c audits the
 * libraries' paths at large).
 * Each paste is short and written here after the call path of a public
 * thread (named above each test), not copied from it; each test keeps a
 * guard that must keep its stage. */
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
#include "stage_fixture.h"

#define TB "Traceback (most recent call last):\n"
#define OOM                                                                                                           \
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 80.00 MiB. GPU 0 has a total capacity of "        \
    "23.55 GiB of which 60.69 MiB is free.\n"
#define VL "/opt/venv/lib/python3.12/site-packages/vllm/"

/* A loader of weights loads the model: vLLM's and SGLang's layers copy a
 * checkpoint shard into their parameter in weight_loader
 * (vllm-project/vllm:vllm/model_executor/layers/linear.py, model_loader/
 * weight_utils.py default_weight_loader). The start-up of
 * vllm-project/vllm-ascend#2546 ran out there: get_model ->
 * default_loader.py load_weights -> qwen2.py load_weights ->
 * linear.py weight_loader "param_data.copy_(loaded_weight)". "loader"
 * alone still names data. */
static void test_weight_loader_is_load(void **state)
{
    (void)state;
    assert_string_equal(stage_of(TB "  File \"" VL "model_executor/models/qwen2.py\", line 437, in load_weights\n"
                                    "    weight_loader(param, loaded_weight)\n"
                                    "  File \"" VL "model_executor/layers/linear.py\", line 1337, in weight_loader\n"
                                    "    param_data.copy_(loaded_weight)\n" OOM),
                        "load");
    assert_string_equal(stage_of(TB "  File \"" VL "model_executor/model_loader/weight_utils.py\", line 640, in "
                                    "default_weight_loader\n"
                                    "    param.data.copy_(loaded_weight)\n" OOM),
                        "load");
    /* guards: a loader of images, a training loop's loader */
    assert_string_equal(stage_of(TB "  File \"/w/train.py\", line 9, in image_loader\n"
                                    "    img = read_image(path).cuda()\n" OOM),
                        "data");
    assert_string_equal(stage_of(TB "  File \"/w/train.py\", line 40, in main\n"
                                    "    for batch in train_loader:\n"
                                    "  File \"/opt/py/torch/utils/data/dataloader.py\", line 630, in __next__\n"
                                    "    data = self._next_data()\n" OOM),
                        "data");
}

/* vLLM V1 allocates the KV cache it sized at start-up: gpu_worker.py
 * initialize_from_config -> gpu_model_runner.py initialize_kv_cache ->
 * initialize_kv_cache_tensors -> _allocate_kv_cache_tensors "tensor =
 * torch.zeros(kv_cache_tensor.size, dtype=torch.int8, device=self.device)"
 * (lemonade-sdk/vllm-rocm#5's paste runs down this path): load. The dtype
 * argument is no model math; the line named forward before. */
static void test_v1_kv_cache_allocation_is_load(void **state)
{
    (void)state;
    assert_string_equal(stage_of(TB "  File \"" VL "v1/worker/gpu_worker.py\", line 538, in initialize_from_config\n"
                                    "    self.model_runner.initialize_kv_cache(kv_cache_config)\n"
                                    "  File \"" VL "v1/worker/gpu_model_runner.py\", line 6842, in initialize_kv_cache\n"
                                    "    kv_caches = self.initialize_kv_cache_tensors(\n"
                                    "  File \"" VL "v1/worker/gpu_model_runner.py\", line 6790, in "
                                    "_allocate_kv_cache_tensors\n"
                                    "    tensor = torch.zeros(kv_cache_tensor.size, dtype=torch.int8, "
                                    "device=self.device)\n" OOM),
                        "load");
    /* guard: a generation loop setting up a cache of its own is generating */
    assert_string_equal(stage_of(TB "  File \"/w/model.py\", line 300, in generate\n"
                                    "    self.initialize_kv_cache(batch_size, max_len)\n"
                                    "  File \"/w/model.py\", line 120, in initialize_kv_cache\n"
                                    "    self.k_cache = torch.zeros(shape, device=self.device)\n" OOM),
                        "generate");
}

/* torch's dtypes are arguments, not ops: an allocation that names one
 * computes nothing (no stage by itself); torch's ops around a dtype still
 * compute (forward). */
static void test_dtype_is_no_model_math(void **state)
{
    (void)state;
    assert_int_equal(line_stage("    buf = torch.empty(n, dtype=torch.float16, device='cuda')\n"), OOM_STAGE_UNKNOWN);
    assert_int_equal(line_stage("    mask = torch.ones(b, t, dtype=torch.bool, device=x.device)\n"),
                     OOM_STAGE_UNKNOWN);
    assert_string_equal(stage_of(TB "  File \"/w/m.py\", line 9, in step\n"
                                    "    buf = torch.empty(n, dtype=torch.bfloat16, device='cuda')\n" OOM),
                        "unknown");
    /* guards: an op beside a dtype */
    assert_string_equal(stage_of(TB "  File \"/w/m.py\", line 9, in step\n"
                                    "    z = torch.bmm(a.to(torch.float32), b)\n" OOM),
                        "forward");
    assert_string_equal(stage_of(TB "  File \"/w/m.py\", line 9, in step\n"
                                    "    y = torch.softmax(x.float(), dim=-1)\n" OOM),
                        "forward");
}

/* CUDA-graph capture at start-up read from its frame header, when the
 * paste starts below the call: V0's worker/model_runner.py capture_model ->
 * CUDAGraphRunner.capture -> the model's forward (vllm-project/vllm#7593,
 * Gemma 2 out of memory "when capturing cuda graphs"); V1's
 * gpu_model_runner.py capture_model -> _capture_cudagraphs
 * (vllm-project/vllm#30515). */
static void test_capture_model_header_is_load(void **state)
{
    (void)state;
    assert_string_equal(stage_of(TB "  File \"" VL "worker/model_runner.py\", line 1500, in capture_model\n"
                                    "    graph_runner.capture(**capture_inputs)\n"
                                    "  File \"" VL "worker/model_runner.py\", line 1800, in capture\n"
                                    "    self.model(\n"
                                    "  File \"/opt/py/torch/nn/modules/module.py\", line 1553, in _call_impl\n"
                                    "    return forward_call(*args, **kwargs)\n"
                                    "  File \"" VL "model_executor/models/gemma2.py\", line 300, in forward\n"
                                    "    hidden_states = self.mlp(hidden_states)\n" OOM),
                        "load");
    /* guard: serving's model step stays generation */
    assert_string_equal(stage_of(TB "  File \"" VL "v1/engine/core.py\", line 220, in step\n"
                                    "    model_output = self.execute_model(scheduler_output)\n"
                                    "  File \"" VL "v1/worker/gpu_model_runner.py\", line 1300, in execute_model\n"
                                    "    model_output = self.model(\n" OOM),
                        "generate");
}

/* The user's preprocess_logits_for_metrics, which transformers' Trainer
 * calls on each evaluation batch's logits in evaluation_loop
 * (huggingface/transformers:src/transformers/trainer.py; the hook exists
 * for evaluation's memory, huggingface/transformers#15466, #22602), is
 * evaluation, though its name starts as a preprocessing function's does. */
static void test_preprocess_logits_for_metrics_is_eval(void **state)
{
    (void)state;
    assert_string_equal(stage_of(TB "  File \"/w/train.py\", line 52, in preprocess_logits_for_metrics\n"
                                    "    return logits.argmax(dim=-1)\n" OOM),
                        "eval");
    /* guards: the hook named in prose is no frame (a review pointing at it,
     * unslothai/unsloth-zoo#878 = heldout40 h40-62, labelled unknown); a
     * preprocessing function of the input stays data */
    assert_int_equal(line_stage("please point at `preprocess_logits_for_metrics`, which is 32000x smaller.\n"),
                     OOM_STAGE_UNKNOWN);
    assert_string_equal(stage_of(TB "  File \"/w/train.py\", line 30, in preprocess_images\n"
                                    "    x = x.cuda()\n" OOM),
                        "data");
}

/* transformers' quantizers place each weight as the checkpoint loads:
 * _load_state_dict_into_meta_model -> create_quantized_param ->
 * bitsandbytes Params4bit(...).to(device) -> _quantize -> quantize_4bit
 * (huggingface/transformers:src/transformers/quantizers/
 * quantizer_bnb_4bit.py; the frames of huggingface/peft#1890). A paste that
 * starts at the quantizer is load too. */
static void test_quantized_param_placement_is_load(void **state)
{
    (void)state;
    assert_string_equal(stage_of(TB "  File \"/opt/py/transformers/quantizers/quantizer_bnb_4bit.py\", line 213, in "
                                    "create_quantized_param\n"
                                    "    new_value = bnb.nn.Params4bit(new_value, requires_grad=False, "
                                    "**kwargs).to(target_device)\n"
                                    "  File \"/opt/py/bitsandbytes/nn/modules.py\", line 324, in to\n"
                                    "    return self._quantize(device)\n"
                                    "  File \"/opt/py/bitsandbytes/nn/modules.py\", line 289, in _quantize\n"
                                    "    w_4bit, quant_state = bnb.functional.quantize_4bit(\n" OOM),
                        "load");
}

/* Two phase lines read from their sources: DeepSpeed's resume logs
 * "successfully read N ZeRO state_dicts for rank R" before it restores the
 * optimizer's partitions (deepspeedai/DeepSpeed:deepspeed/runtime/engine.py
 * _get_all_zero_checkpoint_state_dicts): load; openai-whisper prints
 * "Detecting language using up to the first 30 seconds." before
 * model.detect_language (openai/whisper:whisper/transcribe.py):
 * transcription, generate. */
static void test_resume_and_transcription_lines(void **state)
{
    (void)state;
    assert_string_equal(stage_of("[2025-01-01 10:00:00,000] [INFO] [engine.py:3000:_get_all_zero_checkpoint_state_dicts] "
                                 "successfully read 8 ZeRO state_dicts for rank 0\n" OOM),
                        "load");
    assert_string_equal(stage_of("Detecting language using up to the first 30 seconds. Use `--language` to specify "
                                 "the language\n" OOM),
                        "generate");
    /* guard: a training line after the resume names no stage */
    assert_string_equal(stage_of("successfully read 8 ZeRO state_dicts for rank 0\n"
                                 "05/01 10:13:40 - mmengine - INFO - Epoch(train)  [2][ 50/1833]  lr: 2.0000e-02\n" OOM),
                        "unknown");
}

/* A plural in parentheses is no call of the model: Forge's and Fooocus's
 * model management log "Moving model(s) has taken 0.62 seconds"
 * (lllyasviel/stable-diffusion-webui-forge backend/memory_management.py,
 * lllyasviel/Fooocus ldm_patched/modules/model_management.py); the line
 * named forward by its "model(". A model called on a state s still is. */
static void test_plural_is_no_call(void **state)
{
    (void)state;
    assert_string_equal(stage_of("[Fooocus Model Management] Moving model(s) has taken 1.23 seconds\n" OOM),
                        "unknown");
    assert_int_equal(line_stage("Moving model(s) has taken 0.62 seconds\n"), OOM_STAGE_UNKNOWN);
    /* guard: an RL step calling its model on the state */
    assert_int_equal(line_stage("    q_values = model(s).max(1)[0]\n"), OOM_STAGE_FORWARD);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_weight_loader_is_load),
        cmocka_unit_test(test_v1_kv_cache_allocation_is_load),
        cmocka_unit_test(test_dtype_is_no_model_math),
        cmocka_unit_test(test_capture_model_header_is_load),
        cmocka_unit_test(test_preprocess_logits_for_metrics_is_eval),
        cmocka_unit_test(test_quantized_param_placement_is_load),
        cmocka_unit_test(test_resume_and_transcription_lines),
        cmocka_unit_test(test_plural_is_no_call),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
