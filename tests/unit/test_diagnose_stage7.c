/* diagnose's stage on logs nobody here wrote, helper diagstage7 (issue 12).
 * Each case is real text from the public thread named beside it (the corpus
 * row in brackets, where the project carries it); each assertion failed on
 * the code before its mechanism (main a87a273). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "lib/scan.h"
#include "lib/stage.h"
#include "stage_fixture.h"

/* A sentence that points at the line below ("It happened at this line"):
 * that line is the failing code, whatever its shape (indented by the
 * paste). kuangliu/pytorch-cifar#67 (h26-110). */
static void test_sentence_points_at_code(void **state)
{
    (void)state;
    const char *log = "CUDA error: out of memory\n"
                      "\n"
                      "When I ran mobilenet (on cifar10) using this code, the error arose \n"
                      "\"RuntimeError: CUDA error: out of memory\". It happened at this line\n"
                      " net = net.to(device).\n"
                      "Anyone has the same issue or the way to resolve it?\n";
    assert_string_equal(stage_of(log), "load");
    const char *at = "\"RuntimeError: CUDA error: out of memory\". It happened at this line";
    assert_true(stage_points_at_code(at, strlen(at)));
    /* a sentence that ends otherwise points at nothing */
    const char *other = "Anyone has the same issue or the way to resolve it?";
    assert_false(stage_points_at_code(other, strlen(other)));
    /* "line" as the end of a longer word ("pipeline") is no pointer */
    const char *pipe = "I run the whole pipeline";
    assert_false(stage_points_at_code(pipe, strlen(pipe)));
    /* the guard: without the pointing sentence, an indented line under a
     * title is the user's script, not read (no stage) */
    const char *script = "CUDA error: out of memory\n"
                         "\n"
                         " net = net.to(device).\n";
    assert_string_equal(stage_of(script), "unknown");
}

/* A line that starts in another script is a sentence, though the code it
 * ends with gives it a code line's shape. sdc17/UPop#28 (h25-26). */
static void test_sentence_in_another_script_ending_in_code(void **state)
{
    (void)state;
    const char *log =
        "\xe6\x82\xa8\xe5\xa5\xbd\xef\xbc\x8c\xe6\x8a\xa5\xe9\x94\x99\xe4\xbf\xa1\xe6\x81\xaf\xe5\xa6\x82\xe4\xb8\x8b\xef\xbc\x9a\n"
        "\n"
        "RuntimeError: CUDA out of memory. Tried to allocate 290.00 MiB (GPU 0; 31.75 GiB total capacity; 29.78 GiB "
        "already allocated; 113.50 MiB free; 30.27 GiB reserved in total by PyTorch) If reserved memory is >> "
        "allocated memory try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory "
        "Management and PYTORCH_CUDA_ALLOC_CONF\n"
        "\n"
        /* 我检索到占满内存的代码是 loss = model(...) */
        "\xe6\x88\x91\xe6\xa3\x80\xe7\xb4\xa2\xe5\x88\xb0\xe5\x8d\xa0\xe6\xbb\xa1\xe5\x86\x85\xe5\xad\x98\xe7\x9a\x84"
        "\xe4\xbb\xa3\xe7\xa0\x81\xe6\x98\xaf loss = model(image, caption, alpha=alpha, idx=idx)\n";
    assert_string_equal(stage_of(log), "forward");
}

/* An exception's class name alone on the line above its text: the frames
 * above lead to the message through it. BachiLi/diffvg#3 (h25-70). */
static void test_exception_name_alone_above_its_text(void **state)
{
    (void)state;
    const char *log =
        "Forward pass, time: 0.00457 s\n"
        "cuda:0 torch.float32 torch.float32 cuda:0\n"
        "Traceback (most recent call last):\n"
        "  File \"main.py\", line 217, in <module>\n"
        "    loss.backward()\n"
        "  File \"/root/anaconda3/envs/py37/lib/python3.7/site-packages/torch/tensor.py\", line 118, in backward\n"
        "    torch.autograd.backward(self, gradient, retain_graph, create_graph)\n"
        "  File \"/root/anaconda3/envs/py37/lib/python3.7/site-packages/torch/autograd/__init__.py\", line 93, in backward\n"
        "    allow_unreachable=True)  # allow_unreachable flag\n"
        "  File \"/root/anaconda3/envs/py37/lib/python3.7/site-packages/torch/autograd/function.py\", line 77, in apply\n"
        "    return self._forward_cls.backward(self, *args)\n"
        "  File \"/home/myname/adobe/tmp/meshgrad/pydiffvg/render_pytorch.py\", line 556, in backward\n"
        "    eval_positions.shape[0])\n"
        "RuntimeError\n"
        "CUDA Runtime Error: an illegal memory access was encountered at "
        "/home/myname/adobe/tmp/meshgrad/scene.cpp:1523\n";
    assert_string_equal(first_stage_of(log, NULL), "backward");
    assert_true(stage_exception_name("RuntimeError", 12));
    assert_true(stage_exception_name("torch.cuda.OutOfMemoryError:", 28));
    /* a sentence, or a message with its text, is no class name alone */
    assert_false(stage_exception_name("some Error", 10));
    assert_false(stage_exception_name("RuntimeError: CUDA error", 24));
}

/* A diffusion pipeline's denoising loop by its own names (num_inference_steps
 * in the call, latent_model_input in the loop): generate, though the failing
 * line calls the UNet (forward). EPFL-IMOS/AnomalyAny#2 (h25-92), whole. */
static void test_denoising_loop_names(void **state)
{
    (void)state;
    const char *log =
        "OutOfMemoryError: CUDA out of meMiB free; 37.20 GiB reserved in total by PyTorch\n"
        "\n"
        "```bash\n"
        "File ~//test/AnomalyAny-main/clip_pipeline_attend_and_excite.py:779, in RelationalAttendAndExcitePipeline.__call__(self, prompt, attention_store, indices_to_alter, attention_res, height, width, num_inference_steps, guidance_scale, init_image, init_image_guidance_scale, mask_image, negative_prompt, num_images_per_prompt, eta, generator, latents, prompt_embeds, negative_prompt_embeds, output_type, return_dict, callback, callback_steps, cross_attention_kwargs, max_iter_to_alter, run_standard_sd, thresholds, scale_factor, scale_range, smooth_attentions, sigma, kernel_size, sd_2_1, img_prompt, normal_prompt, abnormal_img, original_prompt, detailed_prompt, clip_loss)\n"
        "    776 latent_model_input = torch.cat([latents] * 2) if do_classifier_free_guidance else latents\n"
        "    777 latent_model_input = self.scheduler.scale_model_input(latent_model_input, t)\n"
        "--> 779 noise_pred = self.unet(\n"
        "    780     latent_model_input,\n"
        "    781     t,\n"
        "    782     encoder_hidden_states=prompt_embeds,\n"
        "    783     cross_attention_kwargs=cross_attention_kwargs,\n"
        "    784 ).sample\n"
        "    786 # perform guidance\n"
        "    787 if do_classifier_free_guidance:\n"
        "\n"
        "File ~/miniconda3/envs/anomaly/lib/python3.10/site-packages/torch/nn/modules/module.py:1194, in Module._call_impl(self, *input, **kwargs)\n"
        "   1190 # If we don't have any hooks, we want to skip\n";
    assert_string_equal(stage_of(log), "generate");
    const char *loop = "    776 latent_model_input = torch.cat([latents] * 2) if do_classifier_free_guidance else latents\n";
    assert_int_equal(line_stage(loop), OOM_STAGE_GENERATE);
    const char *call = "File ~//test/AnomalyAny-main/clip_pipeline_attend_and_excite.py:779, in "
                       "RelationalAttendAndExcitePipeline.__call__(self, prompt, attention_store, indices_to_alter, "
                       "attention_res, height, width, num_inference_steps, guidance_scale, init_image)\n";
    assert_int_equal(line_stage(call), OOM_STAGE_GENERATE);
}

/* "restore" names no stage by itself: image apps restore faces at
 * inference. A1111's face restoration inside a txt2img generation,
 * TheLastBen/fast-stable-diffusion#902 (h15-90), whole (cut by the excerpt
 * before the message, which the title names). */
static void test_face_restoration_is_no_restore(void **state)
{
    (void)state;
    const char *log =
        "Automatic1111 Facial Restoration out of memory\n"
        "Whenever I test my models it works until I tick the facial restoration box, at which point i get the following error:\n"
        "\n"
        "```\n"
        "Traceback (most recent call last):\n"
        "  File \"/content/gdrive/MyDrive/sd/stable-diffusion-webui/modules/call_queue.py\", line 45, in f\n"
        "    res = list(func(*args, **kwargs))\n"
        "  File \"/content/gdrive/MyDrive/sd/stable-diffusion-webui/modules/call_queue.py\", line 28, in f\n"
        "    res = func(*args, **kwargs)\n"
        "  File \"/content/gdrive/MyDrive/sd/stable-diffusion-webui/modules/txt2img.py\", line 49, in txt2img\n"
        "    processed = process_images(p)\n"
        "  File \"/content/gdrive/MyDrive/sd/stable-diffusion-webui/modules/processing.py\", line 430, in process_images\n"
        "    res = process_images_inner(p)\n"
        "  File \"/content/gdrive/MyDrive/sd/stable-diffusion-webui/modules/processing.py\", line 558, in process_images_inner\n"
        "    x_sample = modules.face_restoration.restore_faces(x_sample)\n"
        "  File \"/content/gdrive/MyDrive/sd/stable-diffusion-webui/modules/face_restoration.py\", line 19, in restore_faces\n"
        "    return face_restorer.restore(np_image)\n"
        "  File \"/content/gdrive/MyDrive/sd/stable-diffusion-webui/modules/codeformer_model.py\", line 96, in restore\n"
        "    self.face_helper.get_face_landmarks_5(only_center_face=False, resize=640, eye_dist_threshold=5)\n"
        "  File \"/content/gdrive/MyDrive/sd/stablediffusion/src/codeformer/facelib/utils/face_restoration_helper.py\", lin\n";
    assert_string_equal(stage_of(log), "generate");
    /* a checkpoint's restore keeps its cue */
    const char *tf = "    saver.restore(sess, ckpt.model_checkpoint_path)\n";
    assert_int_equal(line_stage(tf), OOM_STAGE_LOAD);
}

/* A full progress bar counted an action that is over: the failure came
 * after it. ComfyUI-MVAdapter: the pipeline's components loaded (7/7),
 * the sampler's bar full, then the exception; huanngzh/ComfyUI-MVAdapter#26
 * (h10-10), whole, then without its title (not load). diagstageunk: the
 * wide pipeline bar is read by its description now, and the bar with no
 * description that ran below it is the pipeline's denoising loop, over:
 * generate without the title too (stage_past_bare_bar; before, the
 * 200-column line was too long to read and the untitled paste had none). */
static void test_full_bar_is_over(void **state)
{
    (void)state;
    const char *log =
        "plz add vae decode tile or vae decode list in mv sampler\n"
        "it is easy to out of memory after render all sampler\n"
        "\n"
        "Loading pipeline components...:  14%|\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x8d                                            | 1/7 [00:00<00:00,  6.16it/s]Some weights of the model checkpoint were not used when initializing CLIPTextModel:\n"
        " ['text_model.embeddings.position_ids']\n"
        "Loading pipeline components...: 100%|\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88| 7/7 [00:01<00:00,  5.24it/s]\n"
        "100%|\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88| 50/50 [01:05<00:00,  1.32s/it]\n"
        "!!! Exception during processing !!! Allocation on device\n";
    assert_string_equal(stage_of(log), "generate");
    const char *untitled =
        "Loading pipeline components...:  14%|\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x8d                                            | 1/7 [00:00<00:00,  6.16it/s]Some weights of the model checkpoint were not used when initializing CLIPTextModel:\n"
        " ['text_model.embeddings.position_ids']\n"
        "Loading pipeline components...: 100%|\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88| 7/7 [00:01<00:00,  5.24it/s]\n"
        "100%|\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88| 50/50 [01:05<00:00,  1.32s/it]\n"
        "!!! Exception during processing !!! Allocation on device\n";
    assert_string_equal(stage_of(untitled), "generate");
    const char *full = "Loading pipeline components...: 100%|\xe2\x96\x88\xe2\x96\x88| 7/7 [";
    assert_true(stage_bar_finished(full, strlen(full)));
    const char *part = "Loading pipeline components...:  14%|\xe2\x96\x88  | 1/7 [00:00<00:00,  6.16it/s]";
    assert_false(stage_bar_finished(part, strlen(part)));
}

/* torch/serialization.py checking a stored tensor's device is a load, not
 * a validation loop. ray-project/ray_lightning#38 (h20-57). */
static void test_validate_cuda_device_is_load(void **state)
{
    (void)state;
    const char *log =
        "Checkpointing on CPU head node + gpu worker\n"
        "```\n"
        "(pid=None, ip=172.31.42.229)   File \"/home/ubuntu/anaconda3/envs/meshattn/lib/python3.6/site-packages/torch/serialization.py\", line 728, in persistent_load\n"
        "(pid=None, ip=172.31.42.229)     deserialized_objects[root_key] = restore_location(obj, location)\n"
        "(pid=None, ip=172.31.42.229)   File \"/home/ubuntu/anaconda3/envs/meshattn/lib/python3.6/site-packages/torch/serialization.py\", line 175, in default_restore_location\n"
        "(pid=None, ip=172.31.42.229)     result = fn(storage, location)\n"
        "(pid=None, ip=172.31.42.229)   File \"/home/ubuntu/anaconda3/envs/meshattn/lib/python3.6/site-packages/torch/serialization.py\", line 151, in _cuda_deserialize\n"
        "(pid=None, ip=172.31.42.229)     device = validate_cuda_device(location)\n"
        "(pid=None, ip=172.31.42.229)   File \"/home/ubuntu/anaconda3/envs/meshattn/lib/python3.6/site-packages/torch/serialization.py\", line 135, in validate_cuda_device\n"
        "(pid=None, ip=172.31.42.229)     raise RuntimeError('Attempting to deserialize object on a CUDA '\n"
        "(pid=None, ip=172.31.42.229) RuntimeError: Attempting to deserialize object on a CUDA device but "
        "torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load "
        "with map_location=torch.device('cpu') to map your storages to the CPU.\n";
    assert_string_equal(first_stage_of(log, NULL), "load");
}

/* "generate" in a name: generation as the name's verb alone or with what a
 * generator makes, not with another object. PaddlePaddle/Paddle#68079
 * (h18-67): building an optimizer's fp32 master weights at set-up;
 * bobchenyx/MoBE's "generate-hf.py" (h21-24, a variant after '-') and
 * "generate_text" stay generation. */
static void test_generate_with_an_object(void **state)
{
    (void)state;
    const char *paddle =
        "  File \"/home/aistudio/.local/lib/python3.8/site-packages/paddle/distributed/fleet/meta_parallel/sharding/"
        "group_sharded_optimizer_stage2.py\", line 336, in _generate_master_params\n";
    assert_int_equal(stage_frame_bits(paddle, strlen(paddle)) & (1u << OOM_STAGE_GENERATE), 0);
    assert_int_equal(stage_name_bits("_generate_master_params", 23), 0);
    assert_int_equal(stage_name_bits("generate_emissions", 18), 0);
    assert_int_equal(stage_pick(stage_name_bits("generate-hf", 11)), OOM_STAGE_GENERATE);
    assert_int_equal(stage_pick(stage_name_bits("generate_text", 13)), OOM_STAGE_GENERATE);
    assert_int_equal(stage_pick(stage_name_bits("model_generate", 14)), OOM_STAGE_GENERATE);
}

/* An OOM named in a sentence (the prose pass's event, stored after the
 * tail was read) takes the paste's last activity, as a title does:
 * lm-evaluation-harness's last line "[evaluator.py:359] Running
 * loglikelihood requests". EleutherAI/lm-evaluation-harness#1538 (h18-66), whole. */
static void test_sentence_event_takes_the_last_activity(void **state)
{
    (void)state;
    const char *log =
        "Problems when testing Mistral-7B\n"
        "I tested Mistral-7B-v0.1 on 5 different benchmarks using the platform, but I encountered some issues.\n"
        "When testing Squadv2 and 2shots, there was no problem with VLLM during generation, but it reported an error of OOM during the later calculation loglikelihhod stage (even setting bs to 1 );\n"
        "When testing bbh-3shot, nq_open, triviaqa, mmlu -5shots, the entire platform froze. This situation will occur whether I use a single card or multiple cards.\n"
        "I also tried to accelerate, but the results were very similar and I was unable to successfully run the task.\n"
        "The environment I am using is vllm 0.3.2, transformers 4.38.1, Python 3.11, cuda 12.1, 6000ada 48G\n"
        "\n"
        "2024-03-07:11:17:37,806 INFO     [task.py:386] Building contexts for None on rank 0...\n"
        "100%|\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88| 11873/11873 [00:00<00:00, 17424.55it/s]\n"
        "2024-03-07:11:17:39,075 INFO     [evaluator.py:359] Running generate_until requests\n"
        "Processed prompts: 100%|\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88| 11873/11873 [15:35<00:00, 12.69it/s]\n"
        "100%|\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88| 11873/11873 [15:39<00:00, 12.64it/s]\n"
        "2024-03-07:11:33:33,265 INFO     [evaluator.py:359] Running loglikelihood requests\n";
    assert_string_equal(stage_of(log), "eval");
}

/* A verb that starts a phase, then the phase by its noun: "Starting
 * inference for 1 steps (6h)." over ONNX Runtime's failed node, the OOM
 * named in the title. ecmwf-lab/ai-models#48 (h20-102), whole. */
static void test_phase_started_by_a_verb(void **state)
{
    (void)state;
    const char *log =
        "Issue with GPU memory allocation for pangu and graphcast\n"
        "Hi\n"
        "\n"
        "I'm trying to set up GraphCast and Pangu to run on a 3060 12GB GPU and am getting memory allocation errors for both models.\n"
        "\n"
        "Pangu:\n"
        "\n"
        "<pre>2024-07-05 14:59:18,484 INFO Writing results to pangu_outputs/20240626_1200_6h_pangu.grib\n"
        "2024-07-05 14:59:18,485 INFO Loading pressure fields from CDS\n"
        "2024-07-05 14:59:18,814 INFO Loading surface fields from CDS\n"
        "2024-07-05 14:59:18,840 INFO Using device &apos;GPU&apos;. The speed of inference depends greatly on the device.\n"
        "2024-07-05 14:59:18,840 INFO ONNXRuntime providers: [&apos;CUDAExecutionProvider&apos;, &apos;CPUExecutionProvider&apos;]\n"
        "2024-07-05 14:59:24,177 INFO Loading pangu_assets/pangu_weather_24.onnx: 5 seconds.\n"
        "2024-07-05 14:59:29,314 INFO Loading pangu_assets/pangu_weather_6.onnx: 5 seconds.\n"
        "2024-07-05 14:59:29,822 INFO Writing step 0: 0.5 second.\n"
        "2024-07-05 14:59:29,822 INFO Model initialisation: 11 seconds\n"
        "2024-07-05 14:59:29,822 INFO Starting inference for 1 steps (6h).\n"
        "<font color=\"#C01C28\"><b>2024-07-05 14:59:30.391755898 [E:onnxruntime:, sequential_executor.cc:516 ExecuteKernel] Non-zero status code returned while running FusedMatMul node. Name:&apos;/b1/MatMul/MatmulTransposeFusion//MatMulScaleFusion/&apos; Status Message: /onnxruntime_src/onnxruntime/core/framework/bfc_arena.cc:376 void* onnxruntime::BFCArena::AllocateRawInternal(size_t, bool, onnxruntime::Stream*, boo\n";
    assert_string_equal(stage_of(log), "forward");
    const char *line = "2024-07-05 14:59:29,822 INFO Starting inference for 1 steps (6h).";
    assert_int_equal(stage_phase_line(line, strlen(line)), OOM_STAGE_FORWARD);
    /* a start verb before a word that names no phase */
    const char *other = "2024-07-05 14:59:29,822 INFO Starting server on port 8000";
    assert_int_equal(stage_phase_line(other, strlen(other)), OOM_STAGE_UNKNOWN);
}

/* A benchmark harness logs only evaluation, whatever phase its line names
 * ("Start inferencing"). open-compass/opencompass#1773 (h19-66), whole. */
static void test_benchmark_harness_is_eval(void **state)
{
    (void)state;
    const char *log =
        "[Bug] torch.OutOfMemoryError\n"
        "[2024-12-22 17:35:51,916] [opencompass.openicl.icl_inferencer.icl_gen_inferencer] [INFO] Starting inference process...\n"
        "100%|\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88| 782/782 [1:16:55<00:00,  5.90s/it]\n"
        "12/22 18:52:47 - OpenCompass - INFO - Start inferencing [Phi-3-mini-128k-instruct_hf/tydiqa-goldp_indonesian]\n"
        "[2024-12-22 18:52:47,531] [opencompass.openicl.icl_inferencer.icl_gen_inferencer] [INFO] Starting build dataloader\n"
        "[2024-12-22 18:52:47,531] [opencompass.openicl.icl_inferencer.icl_gen_inferencer] [INFO] Starting inference process...\n"
        "100%|\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88| 565/565 [28:03<00:00,  2.98s/it]\n"
        "12/22 19:20:50 - OpenCompass - INFO - Start inferencing [Phi-3-mini-128k-instruct_hf/tydiqa-goldp_japanese]\n"
        "[2024-12-22 19:20:50,824] [opencompass.openicl.icl_inferencer.icl_gen_inferencer] [INFO] Starting build dataloader\n"
        "[2024-12-22 19:20:50,824] [opencompass.openicl.icl_inferencer.icl_gen_inferencer] [INFO] Starting inference process...\n"
        "100%|\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88| 455/455 [25:30<00:00,  3.36s/it]\n"
        "12/22 19:46:21 - OpenCompass - INFO - Start inferencing [Phi-3-mini-128k-instruct_hf/tydiqa-goldp_korean]\n"
        "[2024-12-22 19:46:21,344] [opencompass.openicl.icl_\n";
    assert_string_equal(stage_of(log), "eval");
}

/* The tool's own lines at the end of a paste cut before its error: a
 * generation script timing each generation ("Generation Time: 1.75…",
 * EleutherAI/gpt-neox#631 = h19-67) and a MetricLogger's test-set summary
 * ("Test: Total time: 0:01:42", ashkamath/mdetr#41 = h20-122), both whole. */
static void test_tool_lines_of_a_cut_paste(void **state)
{
    (void)state;
    const char *gen =
        "OOM issues running inference with large contexts on 2x3090 system\n"
        "```\n"
        "Please give smaller context (e.g. half of the max sequence length)!\n"
        "Generation Time: 1.8530433177947998\n"
        "Memory Report, Device 0: After iter 1 memory (MB) | allocated: 19613.29443359375 | max allocated: 21296.517578125 | reserved: 22138.0 | max reserved: 22138.0Memory Report, Device 1: After iter 1 memory (MB) | allocated: 19613.29443359375 | max allocated: 21296.517578125 | reserved: 22138.0 | max reserved: 22138.0\n"
        "\n"
        "Memory Report, Device 1: Before iter 2 memory (MB) | allocated: 19613.29443359375 | max allocated: 21296.517578125 | reserved: 22138.0 | max reserved: 22138.0\n"
        "Memory Report, Device 0: Before iter 2 memory (MB) | allocated: 19613.29443359375 | max allocated: 21296.517578125 | reserved: 22138.0 | max reserved: 22138.0\n"
        "\n"
        "Warning! Context length 2032 \n"
        "Please give smaller context (e.g. half of the max sequence length)!\n"
        "Generation Time: 1.7503929138183594\n"
        "Memory Report, Device 1: After iter 2 memory (MB) | allocated: 19613.29443359375 | max allocated: 21297.0703125 | reserved: 22078.0 | max reserved: 22138.0\n"
        "Memory Report, Device 0: After iter 2 memory (MB) | allocated: 19613.29443359375 | max allocated: 21297.0703125 | reserved: 22392.0 | max reserved: 22392.0\n"
        "Memory Report, Device 0: Before iter 3 memory (MB) | allocated: 19613.29443359375 | max allocated: 21297.0703125 | reserved: 22392.0 | max reserved:\n";
    assert_string_equal(stage_of(gen), "generate");
    const char *test =
        "CUDA error: out of memory when synchronize between processes on refexp at evaluation stage\n"
        "Hi,\n"
        "\n"
        "Thanks for your great work.\n"
        "\n"
        "I met the OOM error at the evaluation stage after 1 epoch training. The log is\n"
        "```\n"
        "Test: Total time: 0:01:42 (0.2476 s / it)\n"
        "Averaged stats: loss: 113.5333 (96.1866)  loss_bbox: 0.5625 (0.5173)  loss_bbox_0: 0.6505 (0.5977)  loss_bbox_1: 0.5762 (0.5255)  loss_bbox_2: 0.5703 (0.5273)  loss_bbox_3: 0.5712 (0.5109)  loss_bbox_4: 0.5651 (0.5138)  loss_ce: 11.5826 (9.1250)  loss_ce_0: 11.4480 (9.4460)  loss_ce_1: 11.7980 (9.5058)  loss_ce_2: 11.8104 (9.4749)  loss_ce_3: 11.6550 (9.2512)  loss_ce_4: 11.5774 (9.0949)  loss_contrastive_align: 6.1482 (5.6187)  loss_contrastive_align_0: 6.1950 (5.8909)  loss_contrastive_align_1: 6.1946 (5.7864)  loss_contrastive_align_2: 6.1133 (5.7674)  loss_contrastive_align_3: 6.1261 (5.6713)  loss_contrastive_align_4: 6.0199 (5.5644)  loss_giou: 0.4890 (0.4578)  loss_giou_0: 0.5642 (0.5090)  loss_giou_1: 0.5024 (0.4579)  loss_giou_2: 0.4965 (0.4619)  loss_giou_3: 0.5086 (0.4525)  loss_giou_4: 0.4900 (0.4579)  cardinality_error_unscaled: 8.3906 (4.8554)  cardinality_error_0_unscaled: 6.5000 (4.3573)  cardinality_error_1_unscaled: 9.4062 (5.9682)  cardinality_error_2_unscaled: 10.3125 (6.3725)  cardinality_error_3_unscaled: 9.2969 (5.2416)  cardinality_error_4_unscaled: 8.8281 (5.0047)  loss_bbox_unscaled: 0.1125 (0.1035)  loss_bbox_0_unscaled:\n";
    assert_string_equal(stage_of(test), "eval");
    /* "Test:" names the phase only at the line's start */
    const char *mid = "Unit Test: passed";
    assert_int_equal(stage_context_line(mid, strlen(mid)), OOM_STAGE_UNKNOWN);
}

/* Start-up: CUDA graphs captured before the steps run (Megatron's
 * create_cudagraphs -> Transformer Engine's make_graphed_callables,
 * NVIDIA/TransformerEngine#2543 = h16-10) and llama.cpp allocating its KV
 * cache at model load ("llama_kv_cache_init: CUDA0 KV buffe", cut;
 * mozilla-ai/llamafile#372 = h25-48). Both whole. */
static void test_start_up_of_graphs_and_kv_cache(void **state)
{
    (void)state;
    const char *graphs =
        "using cuda_graph memory increased a lot and oom at torch.autograd.grad\n"
        "using H200 with 140G memory, if cudagraph is not used, only 40% occupancy, but with cudagraph, it always oom   in make_graphed_callables:\n"
        "\n"
        "transformer_engine         2.8.0.dev0+c47f329\n"
        "torch                      2.8.0a0+5228986c39.nv25.6\n"
        "Megatron-LM:     commit=4193f3aa9b7d8932d286a6753f0e62467404fbb8\n"
        "\n"
        "[rank9]: Traceback (most recent call last):\n"
        "[rank9]:   File \"/mnt/workspace/Megatron-LM/pretrain_gpt.py\", line 260, in <module>\n"
        "[rank9]:     pretrain(\n"
        "[rank9]:   File \"/mnt/workspace/Megatron-LM/megatron/training/training.py\", line 787, in pretrain\n"
        "[rank9]:     iteration, num_floating_point_operations_so_far = train(\n"
        "[rank9]:                                                       ^^^^^^\n"
        "[rank9]:   File \"/mnt/workspace/Megatron-LM/megatron/training/training.py\", line 2422, in train\n"
        "[rank9]:     cuda_graph_helper.create_cudagraphs()\n"
        "[rank9]:   File \"/mnt/workspace/Megatron-LM/megatron/core/transformer/cuda_graphs.py\", line 1839, in create_cudagraphs\n"
        "[rank9]:     graphs = make_graphed_callables(tuple(self.flattened_callables), sample_args, **kwargs)\n"
        "[rank9]:              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "[rank9]:   File \"/usr/local/lib/python3.12/dist-packages/transformer_engine/pytorch/graph.py\", line 990, in make_graphed_callables\n"
        "[rank9]:     gra\n";
    assert_string_equal(stage_of(graphs), "load");
    const char *kv =
        "CudaMalloc failed: out of memory with TinyLlama-1.1B\n"
        "\n"
        "I am trying to make working with GPU Tinyllama with:\n"
        "```bash\n"
        "./TinyLlama-1.1B-Chat-v1.0.F32.llamafile -ngl 9999\n"
        "```\n"
        "But it seem not possible to allocate  66.50 MB of memory on my card, even if I just boot the machine without any use of the GPU before.\n"
        "\n"
        "Here the error:\n"
        "```bash\n"
        "[...]\n"
        "link_cuda_dso: note: dynamically linking /home/yo/.llamafile/ggml-cuda.so\n"
        "ggml_cuda_link: welcome to CUDA SDK with cuBLAS\n"
        "link_cuda_dso: GPU support loaded\n"
        "[...]\n"
        "ggml_cuda_init: GGML_CUDA_FORCE_MMQ:   no\n"
        "ggml_cuda_init: CUDA_USE_TENSOR_CORES: yes\n"
        "ggml_cuda_init: found 1 CUDA devices:\n"
        "  Device 0: NVIDIA GeForce GTX 1050 Ti, compute capability 6.1, VMM: yes\n"
        "llm_load_tensors: ggml ctx size =    0.15 MiB\n"
        "llm_load_tensors: offloading 22 repeating layers to GPU\n"
        "llm_load_tensors: offloading non-repeating layers to GPU\n"
        "llm_load_tensors: offloaded 23/23 layers to GPU\n"
        "llm_load_tensors:        CPU buffer size =   250.00 MiB\n"
        "llm_load_tensors:      CUDA0 buffer size =  3946.35 MiB\n"
        "..........................................................................................\n"
        "llama_new_context_with_model: n_ctx      = 512\n"
        "llama_new_context_with_model: n_batch    = 512\n"
        "llama_new_context_with_model: n_ubatch   = 512\n"
        "llama_new_context_with_model: freq_base  = 10000.0\n"
        "llama_new_context_with_model: freq_scale = 1\n"
        "llama_kv_cache_init:      CUDA0 KV buffe\n";
    assert_string_equal(stage_of(kv), "load");
}

/* Julia's stack frames ("conv! at …/cudnn/nnlib.jl:91 [inlined]", "Conv at
 * …/Flux/…/layers/conv.jl:147") are frames: cuDNN's forward-algorithm
 * search under a Flux layer's forward. JuliaGPU/CUDA.jl#692 (h24-68), whole. */
static void test_julia_stack_frames(void **state)
{
    (void)state;
    const char *log =
        "GPU run out of memory if 2 workers use the same GPU\n"
        "\n"
        "**Describe the bug**\n"
        "\n"
        "If I create 2 workers, and use the same GPU.\n"
        "then run Flux on them.\n"
        "then 1 of the workers will allocate all the GPU memory quickly.  so there's no memory left, for the 2nd worker.\n"
        "\n"
        "this only happens in the ccall of CUDA libraries, or CUDNN.\n"
        "\n"
        "**log**\n"
        "```\n"
        "ERROR: LoadError: TaskFailedException:\n"
        "On worker 3:\n"
        "CUDNNError: CUDNN_STATUS_INTERNAL_ERROR (code 4)\n"
        "throw_api_error at /root/.julia/packages/CUDA/wTQsK/lib/cudnn/error.jl:19\n"
        "cudnnCreate at /root/.julia/packages/CUDA/wTQsK/lib/cudnn/base.jl:9\n"
        "#614 at /root/.julia/packages/CUDA/wTQsK/lib/cudnn/CUDNN.jl:59 [inlined]\n"
        "get! at ./iddict.jl:152\n"
        "handle at /root/.julia/packages/CUDA/wTQsK/lib/cudnn/CUDNN.jl:58\n"
        "macro expansion at /root/.julia/packages/CUDA/wTQsK/lib/utils/call.jl:121 [inlined]\n"
        "cudnnGetConvolutionForwardAlgorithmMaxCount at /root/.julia/packages/CUDA/wTQsK/lib/cudnn/conv.jl:62 [inlined]\n"
        "#cudnnFindConvolutionForwardAlgorithmEx#528 at /root/.julia/packages/CUDA/wTQsK/lib/cudnn/conv.jl:124\n"
        "#conv!#577 at /root/.julia/packages/CUDA/wTQsK/lib/cudnn/nnlib.jl:103\n"
        "conv! at /root/.julia/packages/CUDA/wTQsK/lib/cudnn/nnlib.jl:91 [inlined]\n"
        "#conv#83 at /root/.julia/packages/NNlib/KxOwM/src/conv.jl:91\n"
        "conv at /root/.julia/packages/NNlib/KxOwM/src/conv.jl:89\n"
        "Conv at /root/.julia/packages/Flux/goUGu/src/layers/conv.jl:147\n"
        "applychain at /root/.julia/packages/Flux/goUGu/src/layers/bas\n";
    assert_string_equal(stage_of(log), "forward");
    const char *frame = "conv! at /root/.julia/packages/CUDA/wTQsK/lib/cudnn/nnlib.jl:91 [inlined]";
    assert_int_equal(stage_line_kind(frame, strlen(frame)), STAGE_LINE_FRAME);
    const char *numbered = "[3] applychain at /root/.julia/packages/Flux/goUGu/src/layers/basic.jl:37";
    assert_int_equal(stage_line_kind(numbered, strlen(numbered)), STAGE_LINE_FRAME);
    /* a sentence that names a file is no frame */
    const char *prose = "I looked at conv.jl:91 and it allocates";
    assert_int_equal(stage_line_kind(prose, strlen(prose)), STAGE_LINE_OTHER);
}

/* A program named for synthesis generates: wavenet_vocoder's synthesis.py
 * (r9y9/wavenet_vocoder#37 = h15-98), whole (cut mid-name by the excerpt). */
static void test_synthesis_program(void **state)
{
    (void)state;
    const char *log =
        "Out of Memory on Synthesis\n"
        "When running `python synthesis.py <model_checkpoint_path> <output_dir> --conditional <mel_path>` , I consistently run out of GPU memory about 4 minutes into synthesis. I have a GTX 1080Ti (11GB memory), and when I watch `nvidia-smi` while synthesis is running, the memory usage continually increases until it runs out. How much GPU memory is generally required to synthesize a clip?\n"
        "\n"
        "For reference, here is the progress on `ljspeech-mel-00001.npy` before it failed most recently:\n"
        "`33249/195328 [03:57<19:18, 139.90it/s`\n"
        "\n"
        "imdatsolak \xc2\xb7 comment \xc2\xb7 2018-03-14\n"
        "@dyelax : are you getting OOM from NVIDIA Cuda or are you running out of main RAM? I can't see anything in r9y9's code where it would run OOM on GPU, but rather a place where it could run out of memory on main RAM if the audio to be generated is too long.\n"
        "\n"
        "I have just generated an audio of 240,000 frames (yours is 195,328) and I had no problems with GTX 1080 Ti (11GB). BUT: I have 128GB of RAM...\n"
        "\n"
        "dyelax \xc2\xb7 comment \xc2\xb7 2018-03-14\n"
        "It's definitely a CUDA memory issue. Here's the error I'm getting:\n"
        "\n"
        "```\n"
        "THCudaCheck FAIL file=/tmp/pip-yxt749na-build/aten/src/THC/generic/THCStorage.cu line=58 error=2 : out of memory\n"
        "Traceback (most recent call last):\n"
        "  File \"synthesis.py\", line 182, in <module>\n"
        "    waveform = wavegen(model, length, c=c, g=speaker_id, initial_value=initial_value, fast=True)\n"
        "  File \"synthesis.py\", line 124, in wav\n";
    assert_string_equal(stage_of(log), "generate");
    assert_int_equal(stage_pick(stage_name_bits("synthesis", 9)), OOM_STAGE_GENERATE);
    assert_int_equal(stage_pick(stage_name_bits("synthesizer", 11)), OOM_STAGE_GENERATE);
}

/* "Before X" announces X: DeepSpeed's see_memory_usage "Before
 * initializing optimizer states" at engine set-up, then the launcher
 * killing the process (deepspeedai/DeepSpeed#3160 = h19-46), whole. */
static void test_before_a_phase(void **state)
{
    (void)state;
    const char *log =
        "[BUG] exits with return code = -9\n"
        "Loading extension module utils...\n"
        "Time to load utils op: 16.887123346328735 seconds\n"
        "Rank: 0 partition count [1] and sizes[(6049711186, False)]\n"
        "[2023-04-07 13:08:55,468] [INFO] [utils.py:829:see_memory_usage] Before initializing optimizer states\n"
        "[2023-04-07 13:08:55,469] [INFO] [utils.py:830:see_memory_usage] MA 11.76 GB         Max_MA 11.76 GB         CA 11.77 GB         Max_CA 12 GB\n"
        "[2023-04-07 13:08:55,469] [INFO] [utils.py:838:see_memory_usage] CPU Virtual Memory:  used = 28.43 GB, percent = 22.6%\n"
        "[2023-04-07 13:09:33,201] [INFO] [launch.py:318:sigkill_handler] Killing subprocess 80\n"
        "[2023-04-07 13:09:33,220] [ERROR] [launch.py:324:sigkill_handler] ['/usr/bin/python3', '-u', 'run_clm.py', '--local_rank=0', '--deepspeed', 'ds_config_stage2_hf.json', '--model_name_or_path', 'EleutherAI/gpt-j-6B', '--train_file', 'train.csv', '--validation_file', 'validation.csv', '--do_train', '--do_eval', '--fp16', '--overwrite_cache', '--evaluation_strategy=steps', '--output_dir', 'finetuned', '--num_train_epochs', '12', '--eval_steps', '20', '--gradient_accumulation_steps', '1', '--per_device_train_batch_size', '4', '--use_fast_tokenizer', 'False', '--learning_rate', '5e-06', '--warmup_steps', '10', '--sav\n";
    assert_string_equal(first_stage_of(log, NULL), "load");
    const char *line = "[2023-04-07 13:08:55,468] [INFO] [utils.py:829:see_memory_usage] Before initializing optimizer states";
    assert_int_equal(stage_phase_line(line, strlen(line)), OOM_STAGE_LOAD);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sentence_points_at_code),
        cmocka_unit_test(test_sentence_in_another_script_ending_in_code),
        cmocka_unit_test(test_exception_name_alone_above_its_text),
        cmocka_unit_test(test_denoising_loop_names),
        cmocka_unit_test(test_face_restoration_is_no_restore),
        cmocka_unit_test(test_full_bar_is_over),
        cmocka_unit_test(test_validate_cuda_device_is_load),
        cmocka_unit_test(test_generate_with_an_object),
        cmocka_unit_test(test_sentence_event_takes_the_last_activity),
        cmocka_unit_test(test_phase_started_by_a_verb),
        cmocka_unit_test(test_benchmark_harness_is_eval),
        cmocka_unit_test(test_tool_lines_of_a_cut_paste),
        cmocka_unit_test(test_start_up_of_graphs_and_kv_cache),
        cmocka_unit_test(test_julia_stack_frames),
        cmocka_unit_test(test_synthesis_program),
        cmocka_unit_test(test_before_a_phase),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
