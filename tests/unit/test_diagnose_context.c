/* Unit tests for the paste's context (lib/context, scan_finish_view): OOM
 * words that no structural or prose pass could place are decided by what
 * the whole paste is about. A change about OOMs (a pull request: change
 * title, "Closes #N", a test plan) is discussed, not failed; device-less
 * OOM words in a paste that names the GPU or an ML run and no host memory
 * are a GPU OOM; host evidence (the killer, exit code 137, host memory in
 * words), a negation, a guess and a question keep them out. Every line is
 * real, from the public thread named beside it (diagthread, issue 12). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/context.h"
#include "lib/mention.h"
#include "lib/scan.h"

#include "call_fixture.h"
#include "scan_fixture.h"

/* heldout26 h26-60: a pull request that adds OOM retry logic */
static const char snapotter[] =
    "fix: enable tiling in Real-ESRGAN to prevent CUDA OOM on 8GB GPUs\n"
    "\n"
    "## Summary\n"
    "- Enable 512px tile-based processing in Real-ESRGAN instead of processing the entire image "
    "at once, reducing peak VRAM from \"entire image\" to \"one tile + padding\"\n"
    "- Add OOM retry logic that catches CUDA out-of-memory errors, clears the cache, and retries "
    "with 256px tiles\n"
    "- Covers both the main upscale path and the face enhancement (GFPGAN) path\n"
    "\n"
    "## Test plan\n"
    "- [ ] Verify upscaling works on a GPU with 8GB VRAM (RTX 3070 or similar)\n"
    "\n"
    "Closes #191\n";

/* heldout26 h26-08: a device-less title over an environment block */
static const char legged_gym[] =
    "Out of memory when training\n"
    "\n"
    "The training command does not work on my laptop if `--sim_device=cuda`. It works if I use "
    "`--sim_device=cpu`.\n"
    "I tried to only use 1 environment, but nothing seems to have changed.\n"
    "\n"
    "OS Version: Ubuntu 21.04\n"
    "Nvidia Driver: 470.82.00\n"
    "Graphics: RTX 3060 Laptop\n"
    "Pytorch: 1.10.0+cu113\n";

/* A change about OOMs is discussed, not failed: no event. */
static void test_context_change(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"snapotter-hq/SnapOtter#200", snapotter, false},
        /* a change title and the words of a change */
        {"adriansahlman/stylegan2_pytorch#11",
         "Fixes for CUDA memory issues\n"
         "\n"
         "Hi, apparently, the memory issues during loss.backwards() were due to saving the "
         "computation graph for loss for each iteration. I changed some of the losses to return "
         "only scalars, and it solved the memory problem I was facing.\n",
         false},
        /* reports under a change-like title stay GPU OOMs: the title alone is
         * not a change (heldout26 h26-10, h26-84) */
        {"isaac-sim/IsaacLab#5793",
         "Update compute requirement bug 6199200\n"
         "\n"
         "Issue:\n"
         "Running COMPASS residual RL training with --num_envs 64 causes CUDA out-of-memory "
         "errors on an RTX 5090 (32 GB VRAM).\n",
         true},
        {"Wan-Video/Wan2.2#37",
         "Fix TI2V-5B 24GB GPU OOM\n"
         "\n"
         "DonRichie \xc2\xb7 comment \xc2\xb7 2025-08-05\n"
         "Also having oom problems, even when using --t5_cpu.\n"
         "I am using a 4090 on CachyOS.\n",
         true},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* Device-less OOM words: a GPU OOM where the paste names the GPU or an ML
 * run and no host memory. */
static void test_context_gpu(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"leggedrobotics/legged_gym#5", legged_gym, true},
        /* NNabla's error title over the CUDA functions of the graph */
        {"sony/ai-research-code#54",
         "Memory allocation failed\n"
         "\n"
         "  WeightNormalizationCuda\n"
         "  ConvolutionCudaCudnn\n"
         "  SliceCuda\n",
         true},
        /* an ML run named: a checkpoint */
        {"Visual-Agent/DeepEyes#81",
         "Out of Memory when saving checkpoint\n"
         "\n"
         "Hi, \n"
         "\n"
         "Thank you for opening such wonderful work.\n"
         "\n"
         "I'm facing a challenge that saving checkpoint\n",
         true},
        /* the question is a clause of its own: the OOM is stated */
        {"MahmoudAshraf97/whisper-diarization#242",
         "OutOfMemoryError during diarization -> how to solve ?\n"
         "\n"
         "```\n"
         "    Train config :\n"
         "    manifest_filepath: null\n"
         "    batch_size: 15\n",
         true},
        /* an environment block's "RAM: 64GB" field says what the machine
         * has, not that its memory ran out (the paste cut before its HIP
         * OOM line, as a user's excerpt can be) */
        {"pinokiofactory/flux-webui#25",
         "I am trying to generate an image through flux-webui in pinokio on my machine, but run "
         "into out of memory errors, happens regardless of chosen flux model:\n"
         "\n"
         "My machine:\n"
         "\n"
         "OS: Linux Nubara 40\n"
         "GPU: AMD RX6950XT (16GB VRAM)\n"
         "CPU: Ryzen 3600\n"
         "RAM: 64GB\n",
         true},
        /* the RAM a GPU has is no host memory ("a GPU with 24gb of ram") */
        {"huggingface/transformers#20348",
         "Ability to fine-tune whisper large on a GPU with 24 gb of ram\n"
         "\n"
         "I've been trying to fine-tune whisper large on a GPU with 24gb of ram (both single GPU "
         "and multi GPU) and I run out of memory while training (with batch size set to 1 and "
         "max-length of audio set to 2.5 seconds).\n",
         true},
        /* a card named below the template's sections */
        {"fishaudio/fish-speech#41",
         "OutOfMemoryError\n"
         "\n"
         "**Describe the bug**\n"
         "I followed your steps for fine-tuning. During the last step of training, this error "
         "occurred. \n"
         "\n"
         "**Screenshots / log**\n"
         "\n"
         "**Additional context**\n"
         "My machine is a 32G V100.\n",
         true},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* ... and not where the paste names host memory, denies or guesses. */
static void test_context_guards(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        /* host memory (内存), not GPU memory (显存), in the replies */
        {"PaddlePaddle/Paddle#20784",
         "Out of memory error when training bert on paddle cloud\n"
         "\n"
         "mapingshuo \xc2\xb7 comment \xc2\xb7 2019-10-28\n"
         "\xe4\xba\x8b\xe5\xae\x9e\xe4\xb8\x8a\xe8\xbf\x99\xe6\x98\xaf\xe4\xb8\x80"
         "\xe4\xb8\xaa\xe8\xb6\x85\xe5\x87\xba\xe5\x86\x85\xe5\xad\x98\xe7\x9a\x84"
         "\xe9\x97\xae\xe9\xa2\x98\xef\xbc\x8c\xe8\x80\x8c\xe4\xb8\x8d\xe6\x98\xaf"
         "\xe8\xb6\x85\xe5\x87\xba\xe6\x98\xbe\xe5\xad\x98\xef\xbc\x8c\xe8\xb0\x83"
         "\xe5\xa4\xa7\xe5\x86\x85\xe5\xad\x98\xe9\x87\x8f\xe5\x90\x8e\xe9\x97\xae"
         "\xe9\xa2\x98\xe6\xb6\x88\xe5\xa4\xb1\xe4\xba\x86\xef\xbc\x8c\xe6\x84\x9f"
         "\xe8\xb0\xa2 @xymyeah"
         "\n",
         false},
        /* a container's exit code 137 */
        {"mozilla/bugbug#3906",
         "[model:stepstoreproduce] Training task exit with status code 137\n"
         "\n"
         "Status code 137 indicates OOM error in the docker container. Currently, we train the "
         "`stepstoreproduce` model on a `proj-bugbug/compute-smaller` worker.\n",
         false},
        /* the killer's signal */
        {"tensorflow/models#5591",
         "Google Cloud ML: The replica master 0 ran out-of-memory and exited with a non-zero "
         "status of 9(SIGKILL)\n",
         false},
        /* a guess ("assuming OOM") */
        {"swiseman/neighbor-splicing#2",
         "My training process always output assuming OOM\n"
         "\n"
         "I don't know why. I have stuck in the step for two days. Could you help me?\n",
         false},
        /* a negation before the words */
        {"fixstars/libSGM#30",
         "Error with memory allocating using JetsonTX2\n"
         "\n"
         "```\n"
         "OpenCV Error: Gpu API call (unknown error) in allocate, file "
         "/home/nvidia/workspace/opencv/modules/core/src/cuda/gpu_mat.cu, line 116\n"
         "```\n"
         "\n"
         "The size of the frame is 128 x 96, so I don't think that the problem is out of the "
         "memory in global memory.\n",
         false},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* Words that name a device memory error beside a kernel fault: the fault
 * is that error, a look-alike; OOM words beside one stay the cause. */
static void test_context_vague_words(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"intelpro/ELEDNet#9",
         "about GPU memory error\n"
         "\n"
         "Traceback (most recent call last):\n"
         "  File \"train.py\", line 95, in train\n"
         "    loss.backward()\n"
         "  File \"/home/lrz/anaconda3/envs/ELEDNet/lib/python3.7/site-packages/torch/_tensor.py\""
         ", "
         "line 255, in backward\n"
         "    torch.autograd.backward(self, gradient, retain_graph, create_graph, inputs=inputs)\n"
         "RuntimeError: CUDA error: an illegal memory access was encountered\n"
         "CUDA kernel errors might be asynchronously reported at some other API call,so the "
         "stacktrace below might be incorrect.\n",
         false},
        /* the same words alone still name the GPU OOM (visionml/pytracking#132) */
        {"visionml/pytracking#132", "GPU memory error due to settings.print_stats\n", true},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
    struct oom_report rep;
    scan_log(logs[0].log, &rep);
    assert_int_equal(rep.n_events, 1);
    assert_string_equal(rep.events[0].kind, "cuda-illegal-address");
    assert_false(rep.events[0].consequence);
    oom_report_release(&rep);
}

/* The reading itself: classes, scores, evidence lines, the call. */
static void test_context_read(void **state)
{
    (void)state;
    struct context_reading r;
    context_read(snapotter, strlen(snapotter), true, &r);
    assert_int_equal(context_call(&r), CONTEXT_DISCUSSED);
    assert_true(r.score[CONTEXT_CHANGE] >= CONTEXT_CHANGE_MIN);
    assert_int_equal(r.score[CONTEXT_HOST], 0);
    bool title = false, link = false;
    for (size_t i = 0; i < r.n_hits; i++) {
        const char *line = snapotter + r.hit[i].at;
        if (r.hit[i].cls == CONTEXT_CHANGE && !strncmp(line, "fix:", 4)) title = true;
        if (r.hit[i].cls == CONTEXT_CHANGE && !strncmp(line, "Closes #191", 11)) link = true;
    }
    assert_true(title && link);
    /* not a title (a log's window that starts mid-log): its first line is
     * no change title */
    context_read(snapotter, strlen(snapotter), false, &r);
    for (size_t i = 0; i < r.n_hits; i++)
        assert_false(r.hit[i].cls == CONTEXT_CHANGE && r.hit[i].at == 0);

    context_read(legged_gym, strlen(legged_gym), true, &r);
    assert_int_equal(context_call(&r), CONTEXT_ON_GPU);
    assert_true(r.score[CONTEXT_GPU] >= 2);
    /* "cpu" as a device choice is no host memory */
    assert_int_equal(r.score[CONTEXT_HOST], 0);

    /* a diff's added lines, twice at most (facebookresearch/seamless_communication#449,
     * heldout25 h25-106); a table's border and a number are none */
    const char *diff = "```diff\n"
                       "+                # Clear GPU memory for eval\n"
                       "+                torch.cuda.empty_cache()\n"
                       "+                try:\n"
                       "```\n";
    context_read(diff, strlen(diff), false, &r);
    int added = 0;
    for (size_t i = 0; i < r.n_hits; i++) added += !strcmp(r.hit[i].rule, "+");
    assert_int_equal(added, 2);
    assert_int_equal(r.score[CONTEXT_CHANGE], 3 + 2); /* the fence, two added lines */
    const char *table = "+-----------+------+\n+1 more line\n";
    context_read(table, strlen(table), false, &r);
    assert_int_equal(r.score[CONTEXT_CHANGE], 0);

    /* "GPU RAM" is the device's memory; "64G RAM" the host's */
    const char *gpu_ram = "Out of memory\nI have 24 GB of GPU RAM\n";
    const char *host_ram = "Out of memory\nI have 64G RAM\n";
    context_read(gpu_ram, strlen(gpu_ram), true, &r);
    assert_int_equal(r.score[CONTEXT_HOST], 0);
    context_read(host_ram, strlen(host_ram), true, &r);
    assert_true(r.score[CONTEXT_HOST] > 0);
    assert_int_not_equal(context_call(&r), CONTEXT_ON_GPU);
}

/* The scan's note: the call and the lines it rests on. */
static void test_context_note(void **state)
{
    (void)state;
    struct oom_report rep;
    scan_log(legged_gym, &rep);
    assert_int_equal(rep.context.call, OOM_CONTEXT_ON_GPU);
    assert_true(rep.context.n >= 3);
    assert_int_equal(rep.context.evidence[0].line, 1);
    assert_string_equal(rep.context.evidence[0].text, "Out of memory when training");
    bool driver = false;
    for (size_t i = 0; i < rep.context.n; i++)
        if (rep.context.evidence[i].line == 7) driver = !strcmp(rep.context.evidence[i].text,
                                                                "Nvidia Driver: 470.82.00");
    assert_true(driver);
    oom_report_release(&rep);

    scan_log(snapotter, &rep);
    assert_int_equal(rep.n_events, 0);
    assert_int_equal(rep.context.call, OOM_CONTEXT_DISCUSSED);
    bool link = false;
    for (size_t i = 0; i < rep.context.n; i++)
        link |= !strcmp(rep.context.evidence[i].text, "Closes #191");
    assert_true(link);
    /* a long line is cut at a character's start, with an ellipsis */
    for (size_t i = 0; i < rep.context.n; i++)
        assert_true(strlen(rep.context.evidence[i].text) < sizeof rep.context.evidence[i].text);
    oom_report_release(&rep);
}

/* diagcall2: a pull request's title pasted alone is a change about OOMs,
 * also where its words read as a message ("fix cuda out of memory"); a
 * failure pasted alone (its error line) stays a GPU OOM. */
static void test_context_title_alone(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"Ziems/arbor#60", "Add fix for CUDA OOMs that were occuring despite grad_accum_steps\n",
         false},
        {"ltgoslo/norbench#24", "fix cuda out of memory\n", false},
        {"aravindr93/mjrl#40", "RuntimeError: CUDA out of memory.\n", true},
        {"gangweix/IGEV#70", "RuntimeError: CUDA out of memory\n", true},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* diagcall2: device-less OOM words in a paste that names a run by its
 * trainer, its evaluation or a bar's rate after its number; "OOMs" as a
 * verb or plural. */
static void test_context_run_words(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"huggingface/transformers#8476",
         "Trainer runs out of memory when computing eval score\n"
         "\n"
         "sgugger \xc2\xb7 comment \xc2\xb7 2020-11-12\n"
         "I guess you could write your custom loop to store the predictions after the argmax "
         "together, this won't blow up memory the same way.\n",
         true},
        {"huggingface/trl#2452",
         "Out of Memory Error: DPO Trainer\n"
         "\n"
         "[turn 5 by gp-1108, continued]\n"
         "**SCRIPT:**\n",
         true},
        {"meta-pytorch/torchtune#1428",
         "Eval recipe produces OOM with Llama 3.1\n"
         "\n"
         "SalmanMohammadi \xc2\xb7 comment \xc2\xb7 2024-08-28\n"
         "Hey @mreso. Thanks for raising this. I have a re-haul of our generation utils in the "
         "oven - should fix this issue.\n"
         "#1424\n",
         true},
        {"kijai/ComfyUI-WanVideoWrapper#1826",
         "generating 2 minute video infinitetalk wan 2.1 - crash at wanvideo decode node "
         "wan_video_vae.py OOM error\n"
         "\n"
         "TeaCache: Using cache device: cpu\n"
         "Input sequence length: 25200\n"
         "Sampling 3497 frames at 480x640 with 5 steps\n"
         "100%|\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88| 5/5 [2:41:31<00:00, 1938.34s/it]\n"
         "TeaCache skipped: 0 conditional steps: []\n",
         true},
        {"deepspeedai/DeepSpeed#3000",
         "[BUG] NVMe Offloading OOMs While Zero Stage 3 Offloading Runs\n"
         "\n"
         "stanleyshly \xc2\xb7 comment \xc2\xb7 2023-03-15\n"
         "I tried that, here is a new stack trace:\n"
         "```\n"
         "Loading extension module cpu_adam...\n"
         "Time to load cpu_adam op: 2.801124334335327 seconds\n"
         "[2023-03-14 16:56:21,644] [INFO] [logging.py:77:log_dist] [Rank 0] Creating "
         "torch.float16 ZeRO stage 3 optimizer\n",
         true},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* diagcall2: "OOMs" is an OOM word; a counter's name is not. */
static void test_context_ooms(void **state)
{
    (void)state;
    struct mention_hit hit;
    /* deepspeedai/DeepSpeed#3000 */
    const char *t = "[BUG] NVMe Offloading OOMs While Zero Stage 3 Offloading Runs";
    assert_int_equal(mention_read(t, strlen(t), &hit), MENTION_WORDS);
    assert_int_equal(hit.end - hit.at, 4);
    /* pytorch/pytorch#35901: memory_summary()'s row */
    const char *row = "|            CUDA OOMs: 1            |        cudaMalloc retries: 1         |";
    assert_int_equal(mention_read(row, strlen(row), &hit), MENTION_NONE);
    /* NVIDIA/MinkowskiEngine#359: memory_stats()' key */
    const char *key = " ('num_alloc_retries', 33), ('num_ooms', 2), ('reserved_bytes.all.allocated', "
                      "181865021440),";
    assert_int_equal(mention_read(key, strlen(key), &hit), MENTION_NONE);
}

/* diagcall2: a model family's name is an ML run (the diffusion models and
 * their latents); a device allocator's call failing is the GPU's OOM. */
static void test_context_models(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"Sygil-Dev/sygil-webui#650",
         "[Bug]: Stable Diffusion Last version, out of memory error. (Old ones works fine with "
         "same settings).\xf0\x9f\x98\x92\n"
         "\n"
         "### What happened?\n"
         "\n"
         "A short video showing the problem:\n",
         true},
        {"huggingface/diffusers#7378",
         "Decoding latents independently using AnimateDiffVideoToVideoPipeline takes more memory "
         "than outputting images directly\n"
         "\n"
         "When I use the AnimateDiffVideoToVideo pipeline to output images, my server doesn't run "
         "out of memory. However, if I output the latents, and then manually run "
         "pipe.decode_latents, I somehow run out of memory.\n",
         true},
        {"ROCm/hip#3384",
         "[Issue]: hipMalloc fails even though there is enough memory (I just freed it)\n"
         "\n"
         "```\n"
         "      Accessible by all:       TRUE\n"
         "    Pool 2\n",
         true},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
    struct mention_hit hit;
    const char *hip = "[Issue]: hipMalloc fails even though there is enough memory (I just freed it)";
    assert_int_equal(mention_read(hip, strlen(hip), &hit), MENTION_GPU);
    /* not the host's pinned allocator (ggml-org/llama.cpp#9629), not a
     * system call's list (NVIDIA/Megatron-LM#71) */
    const char *pinned =
        "Bug: ggml_cuda_host_malloc: failed to allocate 1900,00 MiB of pinned memory: invalid argument";
    assert_int_not_equal(mention_read(pinned, strlen(pinned), &hit), MENTION_GPU);
    const char *nccl = "ncclSystemError: System call (socket, malloc, munmap, etc) failed.";
    assert_int_equal(mention_read(nccl, strlen(nccl), &hit), MENTION_NONE);
}

/* mention_negated, and mention_question's clauses. */
static void test_context_words(void **state)
{
    (void)state;
    /* fixstars/libSGM#30 */
    const char *neg = "so I don't think that the problem is out of the memory in global memory.";
    struct mention_hit hit;
    assert_int_equal(mention_read(neg, strlen(neg), &hit), MENTION_WORDS);
    assert_true(mention_negated(neg, strlen(neg), hit.at));
    /* heldout26 h26-08's title: nothing denies it */
    const char *title = "Out of memory when training";
    assert_int_equal(mention_read(title, strlen(title), &hit), MENTION_WORDS);
    assert_false(mention_negated(title, strlen(title), hit.at));
    /* MahmoudAshraf97/whisper-diarization#242: the question is its own clause */
    const char *q = "OutOfMemoryError during diarization -> how to solve ?";
    assert_int_equal(mention_read(q, strlen(q), &hit), MENTION_WORDS);
    assert_false(mention_question(q, strlen(q), hit.end));
}

/* diagcall3: a change's pull request that names the message in its prose
 * (pytorch/tutorials#2381 = heldout29 h29-95, its first 13 lines): the
 * message row is the change's words, as an oom-mention would be. One that
 * quotes the failure it fixes with its figures (IBM/low-resource-text-
 * classification-framework#1 = heldout14 h14-25) stays a GPU OOM. */
static void test_context_change_message_rows(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"pytorch/tutorials#2381",
         "Update mario_rl_tutorial.py\n"
         "\n"
         "Fixes #1620 \n"
         "\n"
         "## Description\n"
         "Modified code to remove the CUDA out of memory error\n"
         "\n"
         "## Checklist\n"
         "\n"
         "- [x] The issue that is being fixed is referred in the description (see above \"Fixes #1"
         "620 \")\n"
         "- [x] Only one issue is addressed in this pull request\n"
         "- [x] Labels from the issue that this PR is fixing are added to this pull request\n"
         "- [x] No unnessessary issues are included into this pull request.\n",
         false},
        /* a pull request template's "## Motivation" under a change's title
         * (sgl-project/sglang-omni#292 = heldout29 h29-22, its first 16 lines) */
        {"sgl-project/sglang-omni#292",
         "Add memory management guide for mem_fraction_static\n"
         "\n"
         "## Summary\n"
         "\n"
         "Add developer reference doc explaining `mem_fraction_static` and GPU memory management"
         " in SGLang-Omni.\n"
         "\n"
         "- Explains the memory layout: model weights + KV cache vs activations + CUDA graph buf"
         "fers\n"
         "- Documents the KV cache allocation formula from `model_runner_kv_cache_mixin.py`\n"
         "- Distinguishes two OOM scenarios with opposite tuning directions:\n"
         "  - **Init OOM** (large model, KV cache allocation fails): increase `mem_fraction_stat"
         "ic`\n"
         "  - **Runtime OOM** (small model, activations overflow): decrease `mem_fraction_static"
         "`\n"
         "- Includes concrete examples for Qwen3-Omni on H100 80GB\n"
         "\n"
         "## Motivation\n"
         "\n"
         "The SGLang docs say \"set a smaller value of `--mem-fraction-static`\" for OOM, but fo"
         "r large models like Qwen3-Omni (60GB weights on 80GB GPU), the fix is the opposite "
         "\xe2\x80\x94 you need to *increase* it. This doc clarifies both cases.\n",
         false},
        {"IBM/low-resource-text-classification-framework#1",
         "Fix GPU OOM errors upon evaluation\n"
         "I was getting an OOM error with larger datasets even with a smaller batch size and model"
         " (base with batch 10): \n"
         "`tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating ten"
         "sor with shape[10,100,3072] and type float on /job:localhost/replica:0/task:0/device:GPU"
         ":0 by allocator GPU_0_bfc [Op:Erf]`\n"
         "The lines that were causing it are those changed in the commit. I found that keeping a "
         "list of the model calls was using uneccessary memory during evaluation and it works "
         "after this change.\n",
         true},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* diagcall3: a card's number with its suffix in one word names the device
 * ("using 3070ti 8GB", pkuliyi2015/multidiffusion-upscaler-for-automatic1111
 * #225 = heldout29 h29-48). */
static void test_context_card_suffix(void **state)
{
    (void)state;
    struct mention_hit hit;
    const char *trd = "Tilled Diffusion - no matter tile size, image size, throws out of memory error "
                      "- using 3070ti 8GB";
    assert_int_equal(mention_read(trd, strlen(trd), &hit), MENTION_GPU);
    /* the same words without the card stay device-less */
    const char *bare = "Tilled Diffusion - no matter tile size, image size, throws out of memory "
                       "error";
    assert_int_equal(mention_read(bare, strlen(bare), &hit), MENTION_WORDS);
}

/* diagcall3: "out" left out after a verb of running (vikrant7/mobile-vod-
 * bottleneck-lstm#15's title = heldout29 h29-60). */
static void test_context_run_of_memory(void **state)
{
    (void)state;
    struct mention_hit hit;
    const char *typo = "Cuda running of memory";
    assert_int_equal(mention_read(typo, strlen(typo), &hit), MENTION_GPU);
}

/* diagcall3: a question for the OOM's cause takes the OOM as given
 * (kijai/ComfyUI-HunyuanVideoWrapper#254 = heldout29 h29-77's title); a
 * question whether it is one does not (the guard case of test_context_words
 * stays). */
static void test_context_why_question(void **state)
{
    (void)state;
    const char *why = "Why did it run out of memory (OOM)?";
    const char *at = strstr(why, "memory");
    assert_false(mention_question(why, strlen(why), (size_t)(at - why) + 6));
    const char *is = "Is it out of memory?";
    at = strstr(is, "memory");
    assert_true(mention_question(is, strlen(is), (size_t)(at - is) + 6));
}

/* diagcall3: a diffusion model's VAE is run evidence: device-less words over
 * a native stack dump (patientx/ComfyUI-Zluda#100 = heldout29 h29-47, its
 * first 3 lines). */
static void test_context_vae(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"patientx/ComfyUI-Zluda#100",
         "Seem to run out of memory in VAE decode or any sort of upscaling node or detailer node\n"
         "\n"
         "0x00007FFD45D66033, C:\\Users\\USERNAME\\AppData\\Local\\Programs\\Python\\Python310"
         "\\python310.dll(0x00007FFD45CF0000) + 0x76033 byte(s), _PyEval_EvalFrameDefault() + "
         "0x793 byte(s)\n",
         true},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* diagctx2: a quoted line ("> ...") repeats a post; its host-memory words
 * (here a machine translation's 内存, "memory", of "out-of-memory (OOM)")
 * are no evidence of the paste's (LucipherDev/ComfyUI-TangoFlux#8 =
 * heldout29 h29-45, its lines 1-17 less the quote's second paragraph). */
static void test_context_quote(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"LucipherDev/ComfyUI-TangoFlux#8",
         "Out of Memory (OOM) Error During VAE Decoding - Add Fallback to Tiled Decoding\n\n"
         "Display memory burst when vae is decoded\xef\xbc\x8c" "4050,6g\n\n"
         "botnang \xc2\xb7 comment \xc2\xb7 2025-01-14\n"
         "same here, 4070 12G\xe3\x80\x82seems need min. 16G.\n\n"
         "TheLocalLab \xc2\xb7 comment \xc2\xb7 2025-01-14\n"
         "Yup its ooms during the decoding process. Would it be possible to integrate a vae decode "
         "tiled approach maybe...\n\n"
         "huoxingzhake \xc2\xb7 comment \xc2\xb7 2025-01-16\n"
         "> \xe5\xa6\x82\xe6\x9e\x9c\xe6\xad\xa3\xe5\xb8\xb8\xe8\xa7\xa3\xe7\xa0\x81"
         "\xe8\xbf\x87\xe7\xa8\x8b\xe9\x81\x87\xe5\x88\xb0" /* 如果正常解码过程遇到 */
         "\xe5\x86\x85\xe5\xad\x98\xe4\xb8\x8d\xe8\xb6\xb3" /* 内存不足 */
         " (OOM) \xe9\x94\x99\xe8\xaf\xaf\n", /* 错误 */
         true},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
    /* the same words unquoted are host evidence */
    struct context_reading r;
    const char *q = "> \xe5\x86\x85\xe5\xad\x98\xe4\xb8\x8d\xe8\xb6\xb3 (OOM)\n";
    context_read(q, strlen(q), false, &r);
    assert_int_equal(r.score[CONTEXT_HOST], 0);
    context_read(q + 2, strlen(q + 2), false, &r);
    assert_int_equal(r.score[CONTEXT_HOST], 2);
}

/* diagctx2: a code-review bot's walkthrough under a change's title is a
 * change's discussion: its OOM words failed nothing (FLock-io/
 * llm-loss-validator#82 = heldout27 h27-69, its first 6 lines). */
static void test_context_review_bot(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"FLock-io/llm-loss-validator#82",
         "feat: added byte and target token calculations for evaluation datasets, improved "
         "calculation logic for BPC/bPPL\n\n"
         "[turn 1 by coderabbitai[bot], continued]\n"
         "- This snippet shows the creation of a `Trainer` instance from HuggingFace Transformers "
         "with the model, evaluation dataset, tokenizer, data collator, and training arguments "
         "(`val_args`).\n"
         "- The `trainer.evaluate()` call triggers evaluation, which by default accumulates all "
         "model predictions (logits) unless configured otherwise.\n"
         "- This is the likely place where the user comment about \"Trainer behavior of "
         "accumulating all model predictions (logits)\" causing OOM is relevant.\n",
         false},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* diagctx2: a documentation page about OOMs discusses them and fails
 * nothing: PyTorch's FAQ (http://pytorch.org/docs/master/notes/faq.html =
 * heldout20 h20-44, its first 6 lines) and a generated wiki page whose
 * symptom table names the message (deepwiki's ComfyUI page = h20-97, its
 * first 7 lines). */
static void test_context_documentation(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"http://pytorch.org/docs/master/notes/faq.html",
         "Frequently Asked Questions\n"
         "\n"
         "My model reports “cuda runtime error(2): out of memory”\n"
         "\n"
         "As the error message suggests, you have run out of memory on your GPU. Since we often deal with large amounts of data in PyTorch, small mistakes can rapidly cause your program to use up all of your GPU; fortunately, the fixes in these cases are often simple. Here are a few common things to check:\n"
         "\n",
         false},
        {"https://deepwiki.com/suix-org-3/comfyui/17.1-memory-and-performance-issues",
         "This page provides troubleshooting guidance for memory-related errors and performance problems in ComfyUI. It covers CUDA out-of-memory (OOM) errors, slow execution, model loading failures, and system-specific optimization strategies.\n"
         "For information about configuring VRAM states and model management behavior, see Memory Management and VRAM States. For attention mechanism optimization, see Attention Optimization. For hardware-specific configurations, see Multi-Device Support.\n"
         "Memory and performance issues in ComfyUI typically manifest as:\n"
         "| Symptom | Likely Cause | Primary Solutions |\n"
         "|---|---|---|\n"
         "CUDA out of memory error | Insufficient VRAM for loaded models | Use --lowvram, --novram, reduce batch size |\n"
         "RuntimeError: Not enough memory | Memory calculation exceeded available VRAM | Increase steps in split attention, clear cache |\n",
         false},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_context_change),
        cmocka_unit_test(test_context_gpu),
        cmocka_unit_test(test_context_guards),
        cmocka_unit_test(test_context_vague_words),
        cmocka_unit_test(test_context_read),
        cmocka_unit_test(test_context_note),
        cmocka_unit_test(test_context_words),
        cmocka_unit_test(test_context_title_alone),
        cmocka_unit_test(test_context_run_words),
        cmocka_unit_test(test_context_ooms),
        cmocka_unit_test(test_context_models),
        cmocka_unit_test(test_context_change_message_rows),
        cmocka_unit_test(test_context_card_suffix),
        cmocka_unit_test(test_context_vae),
        cmocka_unit_test(test_context_run_of_memory),
        cmocka_unit_test(test_context_why_question),
        cmocka_unit_test(test_context_quote),
        cmocka_unit_test(test_context_review_bot),
        cmocka_unit_test(test_context_documentation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
