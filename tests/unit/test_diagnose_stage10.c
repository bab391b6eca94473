/* diagnose's stage on logs nobody here wrote, helper diagstage10 (issue 12):
 * the paste's last activity (activity.c) read further. Each case is real
 * text from the public thread named beside it (the corpus row in
 * brackets); each assertion failed on the code before its mechanism (main
 * 3e3c8cd) unless it says it guards. */
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

/* ComfyUI's model management placing the workflow's models ("Requested to
 * load", "loaded completely", "VAE load device:"), the paste cut before its
 * error under an OOM title: load
 * (WhatDreamsCost/WhatDreamsCost-ComfyUI#173, h30-61). */
static void test_comfyui_model_management_is_load(void **state)
{
    (void)state;
    const char *log =
        "out of memory with RTX 5090 with the original simple workflow for gen 5 sec of video\n"
        "\n"
        "[INFO] To see the GUI go to: http://0.0.0.0:9999\n"
        "[INFO] got prompt\n"
        "[INFO] VAE load device: cuda:0, offload device: cpu, dtype: torch.float32\n"
        "[INFO] CLIP/text encoder model load device: cuda:0, offload device: cpu, current: cpu, dtype: torch.float16\n"
        "[INFO] VAE load device: cuda:0, offload device: cpu, dtype: torch.bfloat16\n"
        "[INFO] Found quantization metadata version 1\n"
        "[INFO] Detected mixed precision quantization\n"
        "[INFO] Using mixed precision operations\n"
        "[INFO] Native ops: float8_e5m2, mxfp8, int8_tensorwise, nvfp4, float8_e4m3fn \n"
        "[INFO] model weight dtype torch.bfloat16, manual cast: torch.bfloat16\n"
        "[INFO] model_type FLUX\n"
        "[INFO] [LTXDirector] execute RECEIVED global_prompt: ''\n"
        "[INFO] [PromptRelay] Auto-generated LTXV latent: 3296x5952, 121 pixel frames (16 latent frames)\n"
        "[INFO] [PromptRelay] Global: tokens [0:1] (1 tokens)\n"
        "[INFO] [PromptRelay] Segment 0: tokens [1:11] (10 tokens)\n"
        "[INFO] [PromptRelay] Segment 1: tokens [11:19] (8 tokens)\n"
        "[INFO] Requested to load LTXAVTEModel_\n"
        "[INFO] Model LTXAVTEModel_ prepared for dynamic VRAM loading. 25440MB Staged. 0 patches attached. Force pre-loaded 400 weights: 1745 KB.\n"
        "[INFO] [PromptRelay] Latent: 16 frames, 19158 tokens/frame, segments: [8, 8]\n"
        "[INFO] Requested to load AudioVAE\n"
        "[INFO] loaded completely;  693.46 MB loaded, full load: True\n"
        "[INFO\n";
    assert_string_equal(stage_of(log), "load");
    int w = 0;
    const char *line = "[INFO] Requested to load AudioVAE";
    assert_int_equal(activity_line(line, strlen(line), &w), OOM_STAGE_LOAD);
    assert_int_equal(w, 2);
}

/* A narration word inside an identifier ("MultiGPU_issue_13:", a node
 * pack's debug prefix) no longer ends the reading, so the VAE's load-device
 * line above it counts (pollockjj/ComfyUI-MultiGPU#13, h30-27). */
static void test_word_inside_an_identifier_is_no_narration(void **state)
{
    (void)state;
    const char *log =
        "Having two GPUs with different amounts of VRAM leads to OOMs\n"
        "\n"
        "wsbagnsv1 \302\267 comment \302\267 2025-02-06\n"
        "[ComfyUI-Manager] default cache updated: https://api.comfy.org/nodes\n"
        "nightly_channel: https://raw.githubusercontent.com/ltdrdata/ComfyUI-Manager/main/remote\n"
        "FETCH DATA from: https://raw.githubusercontent.com/ltdrdata/ComfyUI-Manager/main/custom-node-list.json [DONE]\n"
        "[ComfyUI-Manager] All startup tasks have been completed.\n"
        "got prompt\n"
        "Using pytorch attention in VAE\n"
        "Using pytorch attention in VAE\n"
        "MultiGPU_issue_13: get_torch_device_patched - Entry point\n"
        "MultiGPU_issue_13: get_torch_device_patched - Initial conditions: CUDA Available=True, CPU State=CPUState.GPU, Current Device='cuda:0'\n"
        "MultiGPU_issue_13: get_torch_device_patched - Condition checks: no_cuda=False, cpu_state=False, device_is_cpu=False\n"
        "MultiGPU_issue_13: get_torch_device_patched - Assigning current_device: cuda:0\n"
        "MultiGPU_issue_13: get_torch_device_patched - Final device assignment: cuda:0\n"
        "VAE load device: cuda:0, offload device: cpu, dtype: torch.bfloat16\n"
        "MultiGPU_issue_13: text_encoder_device_patched - Entry point\n"
        "MultiGPU_issue_13: text_encoder_device_patched - Initial conditions: CUDA Available=True, CPU State=CPUState.GPU, Current Device='cuda:0'\n"
        "MultiGPU_issue_13: text_encoder_device_patched - Condition checks: no_cuda=False, cpu_state=False, device_is_cpu=False\n"
        "MultiGPU_issue_13: text_encoder_device_patched - Assigning current_device: cuda:0\n"
        "Mul\n";
    assert_string_equal(stage_of(log), "load");
    const char *tail = strstr(log, "[ComfyUI-Manager] default");
    struct activity_reading r;
    assert_int_equal(activity_tail(tail, strlen(tail), &r), OOM_STAGE_LOAD);
    assert_int_equal(r.score[OOM_STAGE_LOAD], 2);
    assert_int_equal(r.lines, 12);
}

/* A trainer's own checkpoint-writing line is the run's last activity:
 * checkpoint (karpathy/neuraltalk2#35, h30-20; lines 7-18 of the paste,
 * the two train.lua commands and their rulers, left out here). */
static void test_checkpoint_writing_line_is_checkpoint(void **state)
{
    (void)state;
    const char *log =
        "Out of memory error when finetuning is enabled\n"
        "\n"
        "Hello, \n"
        "\n"
        "I am experiencing an error when I try to train a model with finetuning either from a previously saved checkpoint or from scratch.\n"
        "\n"
        "Tried to enable finetuning and load the previously saved checkpoint, but what I got was:\n"
        "\n"
        "-----------------------------------------------------------------------------------------------------------\n"
        "wrote json checkpoint to chkp/model_id.json\t\n"
        "/hom\n";
    assert_string_equal(stage_of(log), "checkpoint");
    int w = 0;
    /* fvcore's checkpointer (ShoufaChen/DiffusionDet#39, h18-85) */
    const char *line = "[12/20 18:16:20 fvcore.common.checkpoint]: Saving checkpoint to ./output/model_0004999.pth";
    assert_int_equal(activity_line(line, strlen(line), &w), OOM_STAGE_CHECKPOINT);
    /* Guard: a checkpoint to load is no save (jkulhanek/tetra-nerf#12, h15-09) */
    line = "No Nerfstudio checkpoint to load, so training from scratch.";
    assert_int_equal(activity_line(line, strlen(line), &w), OOM_STAGE_UNKNOWN);
}

/* A tool's tagged warnings (codecarbon's "[codecarbon WARNING @ ...]",
 * Python's "dpo_trainer.py:176: UserWarning:" and its "warnings.warn(")
 * are the tool's lines, not the user's narration: the reading goes on to
 * the two "Loading checkpoint shards" bars (huggingface/trl#1024, h30-104). */
static void test_tagged_warnings_are_tool_lines(void **state)
{
    (void)state;
    const char *log =
        "Cuda OutOfMemory error for `DPO Finetuning`\n"
        "\n"
        "Hi, \n"
        "I'm working on finetuning Zephyr7b with my own dataset with the DPO form-factor :\n"
        "```python\n"
        "{\n"
        "   \"prompt\":[]str,\n"
        "   \"chosen\":[]str,\n"
        "   \"rejected\":[]str,\n"
        "}\n"
        "```\n"
        "I have used the code you provide in your examples : `dpo.py` and i ran it on an H100 instance with 80Gigs of VRAM, but i have this error :\n"
        "```bash\n"
        "(venv) user@instance-h100-1:~/test/FT$ python dpo_finetuning.py --max_length=4096\n"
        "Loading checkpoint shards: 100%|\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210| 8/8 [00:01<00:00,  6.27it/s]\n"
        "Loading checkpoint shards: 100%|\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210| 8/8 [00:01<00:00,  6.41it/s]\n"
        "/home/user/test/venv/lib/python3.10/site-packages/trl/trainer/dpo_trainer.py:176: UserWarning: When using DPODataCollatorWithPadding, you should set `max_prompt_length` in the DPOTrainer's init it will be set to `128` by default, but you should do it yourself in the future.\n"
        "  warnings.warn(\n"
        "[codecarbon INFO @ 15:57:46] [setup] RAM Tracking...\n"
        "[codecarbon INFO @ 15:57:46] [setup] GPU Tracking...\n"
        "[codecarbon INFO @ 15:57:46] Tracking Nvidia GPU via pynvml\n"
        "[codecarbon INFO @ 15:57:46] [setup] CPU Tracking...\n"
        "[codecarbon WARNING @ 15:57:46] No CPU tracking mode found. Falling back on CPU constant mode.\n"
        "[codecarbon WARNING @ 15:57:47] We saw that yo\n";
    assert_string_equal(stage_of(log), "load");
    const char *tail = strstr(log, "```bash");
    struct activity_reading r;
    assert_int_equal(activity_tail(tail, strlen(tail), &r), OOM_STAGE_LOAD);
    assert_int_equal(r.score[OOM_STAGE_LOAD], 4);
    /* Guard: the poster's sentence above the fence still ends the reading
     * (11 log lines counted, the fence skipped) */
    const char *all = strstr(log, "Hi, ");
    assert_int_equal(activity_tail(all, strlen(all), &r), OOM_STAGE_LOAD);
    assert_int_equal(r.lines, 11);
}

/* An issue's title names the OOM and nothing leads to it; the same paste's
 * own error line below ("!!! Exception during processing !!! CUDA error:
 * out of memory", under the sampler's "Sampling 81 frames" and its 0/25
 * bar) has a stage: the title's failure is that one, generate
 * (kijai/ComfyUI-WanVideoWrapper#93, h30-95). */
static void test_title_takes_the_later_errors_stage(void **state)
{
    (void)state;
    const char *log =
        "Using Block Swap nodes always causes Cuda out of memory error with a 5080 with the 1.3B Model\n"
        "\n"
        "Without connecting the block swap node the 1.3b model works just fine but when I connect the block swap node it always gives Cuda out of memory error. I wanted to try the 14b models with block swapping but it kept saying Cuda out of memory. So I tried the 1.3b model and even that gave cuda out of memory error with block swapping.\n"
        "\n"
        "`Prompt executed in 5.00 seconds\n"
        "got prompt\n"
        "in_channels:  16\n"
        "Model type: t2v, num_heads: 12, num_layers: 30\n"
        "model_type FLOW\n"
        "Using accelerate to load and assign model weights to device...\n"
        "Seq len: 32760\n"
        "Swapping 20 transformer blocks\n"
        "Initializing block swap: 100%|\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210| 30/30 [00:00<00:00, 545.15it/s]\n"
        "NUM_FRAMES: 21\n"
        "Sampling 81 frames at 832x480 with 25 steps\n"
        "  0%|                                                                                                                                                                                                                                                     | 0/25 [00:00<?, ?it/s]\n"
        "!!! Exception during processing !!! CUDA error: out of memory\n"
        "CUDA kernel errors might be asynchronously reported at some oth\n";
    struct oom_report rep;
    scan_log(log, &rep);
    assert_true(rep.n_events >= 2);
    assert_int_equal(rep.primary, 0);
    assert_int_equal(rep.events[0].line, 1);
    assert_string_equal(oom_stage_name(rep.events[0].stage), "generate");
    oom_report_release(&rep);
}

/* Guard: a later event that is only a sentence (nothing leads to it) gives
 * no stage: an explainer page's prose under its one message stays unknown
 * (https://theneuralbase.pages.dev/pytorch/errors/torch-cuda-out-of-memory-training-large-model/, h20-96; labelled no stage). */
static void test_a_later_sentence_gives_no_stage(void **state)
{
    (void)state;
    const char *log =
        "RuntimeError\n"
        "torch.cuda.OutOfMemoryError\n"
        "Stack trace\n"
        "RuntimeError: CUDA out of memory. Tried to allocate 512.00 MiB (GPU 0; 8.00 GiB total capacity; 6.50 GiB already allocated; 256.00 MiB free; 6.70 GiB reserved in total by PyTorch)\n"
        "Why it happens\n"
        "This error occurs because the GPU does not have enough free memory to allocate the tensors required for the model or batch during training. Large models, big batch sizes, or memory fragmentation can cause this. PyTorch attempts to allocate memory but fails when the requested size exceeds available GPU memory.\n"
        "Detection\n"
        "Monitor GPU memory usage with tools like nvidia-smi during training and catch RuntimeError exceptions with 'CUDA out of memory' in the message to detect imminent failures.\n"
        "Causes & fixes\n"
        "Batch size is too large for the available GPU memory\n"
        "Reduce the batch size to fit within the GPU memory limits.\n"
        "Model architecture is too large or uses excessive memory\n"
        "Use a smaller model or optimize the model architecture to reduce memory footprint.\n"
        "GPU memory fragmentation from previous allocations\n"
        "Restart the training process or clear GPU cache using torch.cuda.empty_cache() before training.\n"
        "Not using mixed precision training to reduce memory usage\n"
        "Enable mixed precision training with torch.cuda.amp to lower memory consumption.\n"
        "Code: broken vs fixed\n"
        "import torch\n"
        "model = MyLargeModel().cuda()\n"
        "optimizer = torch.optim.Adam(model.parameters())\n"
        "batch_size = 128 # Too large for GPU memory\n"
        "for data in dataloader:\n"
        "inputs = data.to('cuda')\n"
        /* the page marks this line "# RuntimeError: CUDA out of memory
         * here"; a marked line names its stage (test_diagnose_open35), so
         * the mark is left out to keep this guard on the sentences */
        "outputs = model(inputs)\n"
        "loss = loss_fn(outputs, targets)\n"
        "loss.backward()\n"
        "optimizer.step()\n";
    assert_string_equal(stage_of(log), "unknown");
}

/* A frame's code line calls the next frame; the called function's name,
 * read by its parts as a frame's name is, names the stage when the line
 * says nothing else: "self._forward_generate(" under a sampler's __call__
 * (LargeWorldModel/LWM#60, h24-65: JAX on TPU; the poster's "while loading
 * model" is prose), "self.generate_outputs(" where the next frame's header
 * is cut (if-ai/ComfyUI-IF_Trellis#61, h30-72; lines 3-20 of the paste, the
 * node's sampler and mesh lines, left out here). */
static void test_the_called_functions_name_names_the_stage(void **state)
{
    (void)state;
    const char *lwm =
        "RESOURCE_EXHAUSTED: XLA:TPU compile permanent\n"
        "\n"
        "Hi I m using v38 tpu in GCP and while loading model getting below error : \n"
        "\n"
        "he above exception was the direct cause of the following exception:\n"
        "\n"
        "Traceback (most recent call last):\n"
        "  File \"/home/deep_c/workspace/LWM/lwm/vision_chat.py\", line 254, in <module>\n"
        "    run(main)\n"
        "  File \"/home/deep_c/miniconda3/envs/large_vision_model/lib/python3.10/site-packages/absl/app.py\", line 308, in run\n"
        "    _run_main(main, args)\n"
        "  File \"/home/deep_c/miniconda3/envs/large_vision_model/lib/python3.10/site-packages/absl/app.py\", line 254, in _run_main\n"
        "    sys.exit(main(argv))\n"
        "  File \"/home/deep_c/workspace/LWM/lwm/vision_chat.py\", line 250, in main\n"
        "    output = sampler(prompts, FLAGS.max_n_frames)[0]\n"
        "  File \"/home/deep_c/workspace/LWM/lwm/vision_chat.py\", line 230, in __call__\n"
        "    output, self.sharded_rng = self._forward_generate(\n"
        "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: XLA:TPU compile permanent error. Ran out of memory in memory space hbm. Used 21.95G of 15.48G hbm.\n"
        " Exceeded hbm capacity by 6.47G.\n";
    assert_string_equal(stage_of(lwm), "generate");
    const char *trellis =
        "Allocation on device\n"
        "\n"
        "Rendering: 0it [00:00, ?it/s]\n"
        "Error in image_to_3d: Allocation on device \n"
        "Traceback (most recent call last):\n"
        "  File \"/home/utest/comfy/comfy/custom_nodes/ComfyUI-IF_Trellis/IF_Trellis.py\", line 331, in image_to_3d\n"
        "    video_path, glb_path, _, _, texture_image, _ = self.generate_outputs(\n"
        "  File \"/home/utest/comfy/comfy/custom_nodes/ComfyUI-IF_Trelli\n";
    assert_string_equal(stage_of(trellis), "generate");
}

/* Guards: only a frame's code line is read so, and a called name that
 * says only forward/infer adds nothing: TGI's Rust panic
 * 'Unable to warmup model: Generation("Allocation on device ..."' stays a
 * warm-up, load (huggingface/text-generation-inference#563, h9-82); a TTS
 * UI's "output = tts.infer(" gives no forward (index-tts/index-tts#301,
 * h20-53, labelled generate; unknown before and after). */
static void test_called_name_guards(void **state)
{
    (void)state;
    const char *tgi =
        "```\n"
        "thread 'main' panicked at 'Unable to warmup model: Generation(\"Allocation on device 0 would exceed allowed memory. (out of memory)\\nCurrently allocated     : 16.08 GiB\\nRequested               : 4.83 GiB\\nDevice limit            : 22.20 GiB\\nFree (according to CUDA): 11.12 MiB\\nPyTorch limit (set by user-supplied memory fraction)\\n                        : 22.20 GiB\")', router/src/main.rs:216:18\n"
        "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n"
        "2023-07-07T17:55:43.805488Z ERROR text_generation_launcher: Webserver Crashed\n"
        "2023-07-07T17:55:43.805514Z  INFO text_generation_launcher: Shutting down shards\n"
        "2023-07-07T17:55:44.134207Z  INFO text_generation_launcher: Shard 0 terminated\n"
        "Error: WebserverFailed\n"
        "```\n";
    assert_string_equal(stage_of(tgi), "load");
    const char *tts =
        "CUDA out of memory\n"
        "```\n"
        "  File \"/home/workibear/Desktop/Python/index-tts/.venv/lib/python3.10/site-packages/gradio/route_utils.py\", line 349, in call_process_api\n"
        "    output = await app.get_blocks().process_api(\n"
        "  File \"/home/workibear/Desktop/Python/index-tts/.venv/lib/python3.10/site-packages/gradio/blocks.py\", line 2274, in process_api\n"
        "    result = await self.call_function(\n"
        "  File \"/home/workibear/Desktop/Python/index-tts/.venv/lib/python3.10/site-packages/gradio/blocks.py\", line 1781, in call_function\n"
        "    prediction = await anyio.to_thread.run_sync(  # type: ignore\n"
        "  File \"/home/workibear/Desktop/Python/index-tts/.venv/lib/python3.10/site-packages/anyio/to_thread.py\", line 56, in run_sync\n"
        "    return await get_async_backend().run_sync_in_worker_thread(\n"
        "  File \"/home/workibear/Desktop/Python/index-tts/.venv/lib/python3.10/site-packages/anyio/_backends/_asyncio.py\", line 2476, in run_sync_in_worker_thread\n"
        "    return await future\n"
        "  File \"/home/workibear/Desktop/Python/index-tts/.venv/lib/python3.10/site-packages/anyio/_backends/_asyncio.py\", line 967, in run\n"
        "    result = context.run(func, *args)\n"
        "  File \"/home/workibear/Desktop/Python/index-tts/.venv/lib/python3.10/site-packages/gradio/utils.py\", line 915, in wrapper\n"
        "    response = f(*args, **kwargs)\n"
        "  File \"/home/workibear/Desktop/Python/index-tts/webui.py\", line 142, in gen_single\n"
        "    output = tts.infer(spk_audio_prompt=prompt, text=text,\n";
    assert_string_not_equal(stage_of(tts), "forward");
}

/* A benchmark harness's own package runs only evaluation: MTEB's retrieval
 * search encoding the corpus, the frames below the message
 * (embeddings-benchmark/results#369, h30-115), and MTEB's own error line
 * for a task, "Error while evaluating MSMARCO: CUDA out of memory", with no
 * logger tag (embeddings-benchmark/mteb#726, h30-119: load before, from
 * the script's SentenceTransformer line above). */
static void test_mteb_harness_is_eval(void **state)
{
    (void)state;
    const char *search =
        "Yes, we should add. Even with `corpus_chunk_size=100` I've got \n"
        "```\n"
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 400.00 GiB. GPU 0 has a total capacity of 79.25 GiB of which 45.61 GiB is free. Including non-PyTorch memory, this process has 0 bytes memory in use. Of the allocated memory 31.07 GiB is allocated by PyTorch, and 2.08 GiB is reserved by PyTorch but unallocated.\n"
        "```\n"
        "on\n"
        "```\n"
        "  File \"/home/jovyan/shares/SR004.nfs2/risolomatin/mteb/mteb/models/search_wrappers.py\", line 169, in search\n"
        "    result_heaps = self._full_corpus_search(\n"
        "                   ^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "  File \"/home/jovyan/shares/SR004.nfs2/risolomatin/mteb/mteb/models/search_wrappers.py\", line 233, in _full_corpus_search\n"
        "    sub_corpus_embeddings = self.model.encode(\n"
        "                            ^^^^^^^^^^^^^^^^^^\n"
        "  File \"/home/jovyan/shares/SR004.nfs2/risolomatin/mteb/mteb/models/instruct_wrapper.py\", line 213, in encode\n"
        "    embeddings = self.model.encode(\n"
        "                 ^^^^^^^^^^^^^^^^^^\n"
        "```\n";
    assert_string_equal(stage_of(search), "eval");
}

static void test_mteb_error_line_is_eval(void **state)
{
    (void)state;
    const char *task =
        "OOM Error when evaluating on ms-marco\n"
        "\n"
        "The following is my code that tries to run one of the models on ms-marco retrieval task.\n"
        "\n"
        "```\n"
        "from mteb import MTEB\n"
        "from sentence_transformers import SentenceTransformer\n"
        "\n"
        "model_name = 'intfloat/e5-base'\n"
        "model = SentenceTransformer(model_name)\n"
        "evaluation = MTEB(tasks=[\"MSMARCO\"])\n"
        "results = evaluation.run(model, output_folder=f\"results/{model_name}\", batch_size=16)\n"
        "```\n"
        "\n"
        "I totally follow the evaluation pipeline in readme and further set the `batch_size` to avoid potential OOM error, but still encounter it.\n"
        "\n"
        "```\n"
        "Batches: 100%|\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210| 31434/31434 [05:18<00:00, 98.73it/s] \n"
        "Batches: 100%|\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210\342\226\210| 3125/3125 [03:27<00:00, 15.07it/s]\n"
        "Error while evaluating MSMARCO: CUDA out of memory. Tried to allocate 93.68 GiB. ...\n"
        "```\n";
    assert_string_equal(stage_of(task), "eval");
}

/* A name for both passes names the whole step, not backward; the frames
 * inside it say which pass ran: Megatron's combined 1F1B step running the
 * post-process forward (NVIDIA-NeMo/Megatron-Bridge#4587, h30-38, the
 * paste cut before its error under the title) and Megatron's
 * forward_backward_no_pipelining -> forward_step (laekov/fastmoe#209,
 * h19-17): forward. */
static void test_forward_backward_names_the_whole_step(void **state)
{
    (void)state;
    const char *bridge =
        "[bug] Qwen3-30B-A3B fp8_mx pretrain OOMs with official defaults on 8x B300, while bf16 and nvfp4 run successfully\n"
        "\n"
        "```shell\n"
        "[rank7]:     forward_data_store, total_num_tokens = combined_1f1b_schedule_for_no_pipelining(\n"
        "[rank7]:                                            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "[rank7]:   File \"/opt/Megatron-Bridge/3rdparty/Megatron-LM/megatron/core/pipeline_parallel/combined_1f1b.py\", line 89, in combined_1f1b_schedule_for_no_pipelining\n"
        "[rank7]:     output_tensor, num_tokens, _ = combined_forward_backward_step(\n"
        "[rank7]:                                    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "[rank7]:   File \"/opt/Megatron-Bridge/3rdparty/Megatron-LM/megatron/core/pipeline_parallel/combined_1f1b.py\", line 448, in combined_forward_backward_step\n"
        "[rank7]:     output_tensor = type(f_schedule_plan or b_schedule_plan).run(\n"
        "[rank7]:                     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "[rank7]:   File \"/opt/Megatron-Bridge/3rdparty/Megatron-LM/megatron/core/models/common/model_chunk_schedule_plan.py\", line 584, in run\n"
        "[rank7]:     f_input = f_schedule_plan.post_process.forward(f_input)\n"
        "[rank7]:               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "[rank7]:   File \"/opt/Megatron-Bridge/3rdparty/Megatron-LM/megatron/core/pipeline_parallel/utils.py\", line 203, in forward\n"
        "[rank7]:     r\n";
    assert_string_equal(stage_of(bridge), "forward");
    const char *fastmoe =
        "\345\234\250\345\257\271pretrain_gpt\344\273\243\347\240\201\350\277\233\350\241\214\344\277\256\346\224\271\344\271\213\345\220\216\357\274\210\345\272\224\347\224\250patch.py\357\274\232from fmoe.megatron.patch import patch_loss_func_v2_5, patch_forward_step\357\274\211\357\274\214\347\224\250\345\215\225gpu\350\256\255\347\273\203\346\227\266\346\230\276\347\244\272cuda out of memory\357\274\214\350\257\267\351\227\256\350\277\231\347\247\215\346\203\205\345\206\265\346\234\211\345\257\271\345\272\224\347\232\204\350\247\243\345\206\263\345\212\236\346\263\225\345\220\227\n"
        "\n"
        "[before the start of training step] datetime: 2024-09-08 19:33:33\n"
        "Traceback (most recent call last):\n"
        "  File \"pretrain_gpt.py\", line 128, in <module>\n"
        "    pretrain(train_valid_test_datasets_provider, model_provider, forward_step,\n"
        "  File \"/workspace/Megatron-LM/megatron/training.py\", line 157, in pretrain\n"
        "    iteration = train(forward_step_func,\n"
        "  File \"/workspace/Megatron-LM/megatron/training.py\", line 630, in train\n"
        "    train_step(forward_step_func,\n"
        "  File \"/workspace/Megatron-LM/megatron/training.py\", line 377, in train_step\n"
        "    losses_reduced = forward_backward_func(\n"
        "  File \"/workspace/Megatron-LM/megatron/schedules.py\", line 132, in forward_backward_no_pipelining\n"
        "    output_tensor, bal_loss = forward_step(forward_step_func, data_iterator, model,\n"
        "  File \"/workspace/Megatron-LM/megatron/schedules.py\", line 61, in forward_step\n"
        "    output_tensor, loss_func, bal_loss = forward_step_func(data_iterator, model)\n"
        "  File \"pretrain_gpt.py\", line 104, in forward_step\n"
        "    return patched_forward_step(data_iterator, model)\n"
        "  File \"pretrain_gpt.py\", line 104, in forward_step\n"
        "    return patched_forward_step(data_iterator, model)\n"
        "  File \"pretrain_gpt.py\", line 104, in forward_step\n"
        "    return patched_forward_step(data_iterator, model)\n"
        "  [Previous l\n";
    assert_string_equal(stage_of(fastmoe), "forward");
    const char *name = "combined_forward_backward_step";
    assert_int_equal(stage_name_bits(name, strlen(name)), 0);
    name = "backward_step"; /* guard: one pass named stays named */
    assert_int_equal(stage_name_bits(name, strlen(name)), 1u << OOM_STAGE_BACKWARD);
}

/* A JSON dump's lines (Llama 4's printed "Model args:") are data, skipped
 * like table rows: the loader's "Loading a checkpoint (shards=8,
 * current-mp-size=1)" above them is the last activity; the title names a
 * SIGKILL, a host look-alike, staged load (meta-llama/llama-models#334,
 * h30-85). */
static void test_json_dump_lines_are_no_activity(void **state)
{
    (void)state;
    const char *log =
        "traceback : Signal 9 (SIGKILL) received by PID 2198\n"
        "\n"
        "torchrun --nproc_per_node=1 -m models.llama4.scripts.chat_completion $CHECKPOINT_DIR --world_size 1 --quantization-mode int4_mixed\n"
        "\n"
        "output of the program \n"
        " cuda is available\n"
        " CUDA available: True \n"
        " Using device: 0 (NVIDIA A100 80GB PCIe MIG 7g.80gb) \n"
        "\n"
        "> initializing model parallel with size 1\n"
        "> initializing ddp with size 1\n"
        "> initializing pipeline with size 1\n"
        "Loading a checkpoint (shards=8, current-mp-size=1)\n"
        "Model args:\n"
        " {\n"
        "  \"dim\": 5120,\n"
        "  \"n_layers\": 48,\n"
        "  \"n_heads\": 40,\n"
        "  \"n_kv_heads\": 8,\n"
        "  \"head_dim\": null,\n"
        "  \"vocab_size\": 202048,\n"
        "  \"multiple_of\": 2048,\n"
        "  \"ffn_dim_multiplier\": 1.2,\n"
        "  \"ffn_exp\": 4.0,\n"
        "  \"norm_eps\": 0.00001,\n"
        "  \"attention_chunk_size\": 8192,\n"
        "  \"rope_theta\": 500000.0,\n"
        "  \"use_scaled_rope\": true,\n"
        "  \"rope_scaling_factor\": 16.0,\n"
        "  \"rope_high_freq_factor\": 1.0,\n"
        "  \"nope_layer_interval\": 4,\n"
        "  \"use_qk_norm\": true,\n"
        "  \"attn_temperature_tuning\": false,\n"
        "  \"floor_scale\": 8192.0,\n"
        "  \"attn_scale\": 0.1,\n"
        "  \"vision_args\": {\n"
        "    \"image_size\": {\n"
        "      \"height\": 336,\n"
        "      \"width\": 336\n"
        "    },\n"
        "    \"patch_size\": {\n"
        "      \"height\": 14,\n"
        "      \"width\": 14\n"
        "    },\n"
        "    \"dim\": 1408,\n"
        "    \"n_layers\": 34,\n"
        "    \"n_heads\": 16,\n"
        "    \"mlp_ratio\": 4.0,\n"
        "    \"output_dim\": 4096,\n"
        "    \"pixel_shuffle_ratio\": 0.5\n"
        "  },\n"
        "  \"moe_args\": {\n"
        "    \"num_experts\": 16,\n"
        "    \"capacity_factor\": 1.0,\n"
        "    \"auto_scale_F\": true,\n"
        "    \"top_k\": 1,\n"
        "    \"interleave_moe_layer_step\": 1\n"
        "  },\n";
    bool gpu_oom = true;
    assert_string_equal(first_stage_of(log, &gpu_oom), "load");
    assert_false(gpu_oom);
    const char *args = strstr(log, "Model args:");
    struct activity_reading r;
    assert_int_equal(activity_tail(args, strlen(args), &r), OOM_STAGE_UNKNOWN);
    assert_int_equal(r.lines, 1); /* "Model args:" only */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_comfyui_model_management_is_load),
        cmocka_unit_test(test_word_inside_an_identifier_is_no_narration),
        cmocka_unit_test(test_checkpoint_writing_line_is_checkpoint),
        cmocka_unit_test(test_tagged_warnings_are_tool_lines),
        cmocka_unit_test(test_title_takes_the_later_errors_stage),
        cmocka_unit_test(test_a_later_sentence_gives_no_stage),
        cmocka_unit_test(test_the_called_functions_name_names_the_stage),
        cmocka_unit_test(test_called_name_guards),
        cmocka_unit_test(test_mteb_harness_is_eval),
        cmocka_unit_test(test_mteb_error_line_is_eval),
        cmocka_unit_test(test_forward_backward_names_the_whole_step),
        cmocka_unit_test(test_json_dump_lines_are_no_activity),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
