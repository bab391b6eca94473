/* diagnose's stage on logs nobody here wrote: library code paths, single
 * code lines, tool log lines and operator names (issue 12, helper
 * diagstage5). Each case is real text from the public thread or library
 * file named beside it; each assertion failed on the code before its
 * mechanism (main 6e42b17). */
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


#define OOM_LINE                                                                                            \
    "RuntimeError: CUDA out of memory. Tried to allocate 256.00 MiB (GPU 0; 5.94 GiB total capacity; 4.87 " \
    "GiB already allocated; 219.56 MiB free; 118.69 MiB cached)\n"

/* Test loops of the libraries, as their own files name them. */
static void test_library_test_loops(void **state)
{
    (void)state;
    /* open-mmlab/mmsegmentation#1500: tools/test.py -> mmseg/apis/test.py single_gpu_test */
    assert_string_equal(
        stage_of("Cuda out of memory while testing\n"
                 "  File \"C:\\Users\\sheng\\Desktop\\mmsegmentation\\tools\\test.py\", line 212, in main\n"
                 "    results = single_gpu_test(\n"
                 "  File \"c:\\users\\sheng\\desktop\\mmsegmentation\\mmseg\\apis\\test.py\", line 91, in "
                 "single_gpu_test\n"
                 "    result = model(return_loss=False, **data)\n"
                 "  File \"C:\\Users\\sheng\\miniconda3\\envs\\open-mmlab\\lib\\site-packages\\torch\\nn\\modules\\"
                 "module.py\", line 1110, in _call_impl\n"
                 "    return forward_call(*input, **kwargs)\n"),
        "eval");
    /* mmengine/runner/loops.py TestLoop.run_iter's code line (open-mmlab/mmengine, stored index) */
    assert_string_equal(stage_of("Traceback (most recent call last):\n"
                                 "  File \"/x/mmengine/runner/loops.py\", line 463, in run_iter\n"
                                 "    outputs = self.runner.model.test_step(data_batch)\n" OOM_LINE),
                        "eval");
}

/* ComfyUI's samplers.py and its forks pick the sampler through
 * k_diffusion_sampling (lllyasviel/Fooocus#1984, corpus-heldout18 h18-37). */
static void test_diffusion_sampler_pick(void **state)
{
    (void)state;
    assert_string_equal(
        stage_of("Cuda Out of Memory\n"
                 "  File \"/home/fedyfausto/Fooocus/backend/headless/fcbh/samplers.py\", line 630, in sample\n"
                 "    samples = getattr(k_diffusion_sampling, \"sample_{}\".format(sampler_name))(model_k, noise, "
                 "sigmas, extra_args=extra_args, callback=k_callback, disable=disable_pbar, **extra_options)\n"
                 "  File \"/home/fedyfausto/Fooocus/modules/patch.py\", line 316, in sample_dp\n"),
        "generate");
}

/* Inference: a predictor running, a function or script named for it. */
static void test_inference_runs_forward(void **state)
{
    (void)state;
    /* PaddlePaddle/PaddleOCR#1470 (corpus-heldout23 h23-27) */
    assert_string_equal(
        stage_of("  File \"C:\\Python38\\lib\\site-packages\\paddleocr\\tools\\infer\\predict_rec.py\", line 109, in "
                 "__call__\n"
                 "    self.predictor.run([norm_img_batch])\n"
                 "RuntimeError: ResourceExhaustedError: \n\n"
                 "Out of memory error on GPU 0. Cannot allocate 2.812744MB memory on GPU 0, available memory is "
                 "only 1.000000MB.\n"),
        "forward");
    /* Jumpat/SegAnyGAussians#28 (corpus-heldout15 h15-39): SAM's predictor */
    assert_string_equal(stage_of("oom problem\n"
                                 "OutOfMemoryError                          Traceback (most recent call last)\n"
                                 "Cell In[15], line 7\n"
                                 "----> 7 predictor.set_image(img)\n"
                                 "      8 sam_feature = predictor.features\n"),
                        "forward");
    /* facebookresearch/detectron2#1514: DefaultPredictor called */
    assert_string_equal(stage_of("CUDA out of memory\n"
                                 "<ipython-input-7-7ae2b885763a> in fromPathGetAll(path)\n"
                                 "----> 3     pred = predictor(img)\n"),
                        "forward");
    /* svc-develop-team/so-vits-svc#157 (corpus-heldout18 h18-54): infer */
    assert_string_equal(
        stage_of("Traceback (most recent call last):\n"
                 "  File \"/root/miniconda3/so-vits-svc/inference/infer_tool.py\", line 208, in infer\n"
                 "    audio = self.net_g_ms.infer(c, f0=f0, g=sid, uv=uv, predict_f0=auto_predict_f0, "
                 "noice_scale=noice_scale)[0,0].data.float()\n" OOM_LINE),
        "forward");
    /* facebookresearch/demucs#231 (corpus-heldout18 h18-40): apply.py apply_model */
    assert_string_equal(
        stage_of("  File \"/home/ec2-user/.local/lib/python3.7/site-packages/demucs/apply.py\", line 147, in "
                 "apply_model\n"
                 "    estimates += out\n" OOM_LINE),
        "forward");
    /* coqui-ai/TTS#2159 (corpus-heldout15 h15-35): a loss in the forward */
    assert_string_equal(
        stage_of("File \"/home/jou2019/workspace/TTS/TTS/tts/layers/losses.py\", line 643, in feature_loss\n"
                 "    loss += torch.mean(torch.abs(rl - gl))\n" OOM_LINE),
        "forward");
    /* xinntao/Real-ESRGAN#314 (corpus-heldout23 h23-31): the command names an inference script */
    assert_string_equal(stage_of("[jose@archlinux Real-ESRGAN]$ python inference_realesrgan.py -n "
                                 "RealESRGAN_x4plus -i input.jpg --outscale 3.5 --face_enhance -o output.png -t 0\n"
                                 "Testing 0 input\n"
                                 "Error CUDA out of memory. Tried to allocate 1.34 GiB (GPU 0; 3.94 GiB total "
                                 "capacity; 2.23 GiB already allocated; 479.00 MiB free; 2.38 GiB reserved in "
                                 "total by PyTorch)\n"),
                        "forward");
}

/* A code line right above the message, its frame header lost
 * (erikwijmans/Pointnet2_PyTorch#80, corpus-heldout18 h18-75); prose is
 * no code line. */
static void test_single_code_line(void **state)
{
    (void)state;
    assert_string_equal(stage_of("I get the following message:\n\n"
                                 "training, momentum, eps, torch.backends.cudnn.enabled\n" OOM_LINE),
                        "forward");
    assert_true(stage_code_shaped("training, momentum, eps, torch.backends.cudnn.enabled", 53));
    assert_false(stage_code_shaped("I get the following message:", 28));
}

/* What the tool logged: HF Trainer's banner (huggingface/transformers#11139,
 * h18-65), a logged validation (mlcommons/training#283, h23-35), kohya's
 * latent caching (bmaltais/kohya_ss#1441, h15-103). */
static void test_tool_log_lines(void **state)
{
    (void)state;
    assert_string_equal(
        stage_of("OOM issue with prediction\n"
                 "***** Running Prediction *****\n"
                 "  Num examples = 11334\n"
                 "  Batch size = 1\n"
                 "  4%|         | 465/11334 [00:54<42:38,  4.25it/s]Traceback (most recent call last):\n"
                 "  File \"/lustre/home/ec156/xx6/transformers/src/transformers/trainer_seq2seq.py\", line 121, in "
                 "predict\n"
                 "    return super().predict(test_dataset, ignore_keys=ignore_keys, "
                 "metric_key_prefix=metric_key_prefix)\n"),
        "eval");
    assert_string_equal(stage_of("rnn_translator-CUDA out of memory\n"
                                 "0: TRAIN [0][10/16]\tTime 0.278 (0.268)\tData 7.53e-05 (6.37e-05)\n"
                                 "0: Running validation on dev set\n"
                                 "Traceback (most recent call last):\n"
                                 "  File \"train.py\", line 527, in <module>\n"
                                 "    main()\n"),
                        "eval");
    assert_string_equal(stage_of("CUDA out of memory while allocating 440mb\n"
                                 "checking cache validity...\n"
                                 "caching latents...\n"),
                        "data");
}

/* ComfyUI's node named with the verb (kijai/ComfyUI-SUPIR#93, h18-71);
 * markdown's "in init" (Purfview/whisper-standalone-win#50, h15-20). */
static void test_node_and_markdown_names(void **state)
{
    (void)state;
    assert_string_equal(stage_of("Error occurred when executing SUPIR_sample:\n\n"
                                 "Allocation on device 0 would exceed allowed memory. (out of memory)\n"
                                 "Currently allocated     : 20.69 GiB\n"
                                 "Requested               : 1.18 GiB\n"),
                        "generate");
    assert_string_equal(stage_of("Traceback (most recent call last):\n"
                                 "File \"D:\\whisper-fast_main_.py\", line 529, in cli\n"
                                 "File \"faster_whisper\\transcribe.py\", line 125, in init\n"
                                 "RuntimeError: CUDA failed with error out of memory\n"),
                        "load");
}

/* The operator an engine names: Caffe2's definition (facebookresearch/
 * Detectron#821, h23-25), Paddle's glog (PaddlePaddle/PaddleDetection#3679,
 * h15-61). */
static void test_engine_operators(void **state)
{
    (void)state;
    assert_string_equal(
        stage_of("RuntimeError: [enforce fail at context_gpu.cu:415] error == cudaSuccess. 2 vs 0. Error at: "
                 "/opt/conda/conda-bld/pytorch-nightly_1547287162138/work/caffe2/core/context_gpu.cu:415: out of "
                 "memory\n"
                 "Error from operator:\n"
                 "input: \"gpu_0/res4_7_branch2b\" input: \"gpu_0/res4_7_branch2c_w\" output: "
                 "\"gpu_0/res4_7_branch2c\" name: \"\" type: \"Conv\" arg { name: \"kernel\" i: 1 } device_option "
                 "{ device_type: 1 device_id: 0 } engine: \"CUDNN\"\n"),
        "forward");
    assert_string_equal(
        stage_of("W0713 16:34:31.576385   221 operator.cc:242] roi_align raises an exception "
                 "paddle::memory::allocation::BadAlloc, ResourceExhaustedError: \n\n"
                 "Out of memory error on GPU 0. Cannot allocate 48.473877MB memory on GPU 0, 7.900513GB memory has "
                 "been allocated and available memory is only 29.437500MB.\n"),
        "forward");
}

/* A data move in an outer frame's call finished before the call went
 * deeper (WongKinYiu/yolov7#1917, h15-68); in the innermost frame it is
 * still the stage (eriklindernoren/PyTorch-YOLOv3#588 via h9-99, kept). */
static void test_data_move_innermost_only(void **state)
{
    (void)state;
    assert_string_equal(
        stage_of("CUDA out of memory for larger dataset.\n"
                 "Traceback (most recent call last):\n"
                 "  File \"train.py\", line 363, in train\n"
                 "    loss, loss_items = compute_loss_ota(pred, targets.to(device), imgs)  # loss scaled by "
                 "batch_size\n"
                 "  File \"C:\\Users\\aaa\\Documents\\Python\\yolov7\\utils\\loss.py\", line 585, in __call__\n"
                 "    bs, as_, gjs, gis, targets, anchors = self.build_targets(p, targets, imgs)\n"
                 "  File \"C:\\Users\\aaa\\Documents\\Python\\yolov7\\utils\\loss.py\", line 733, in build_targets\n"),
        "forward");
    assert_string_equal(stage_of("Traceback (most recent call last):\n"
                                 "  File \"train.py\", line 104, in <module>\n"
                                 "    input_imgs = Variable(input_imgs.type(Tensor))\n" OOM_LINE),
                        "data");
}

/* Frames a paste folds or only its code line shows: Colab's "7 frames"
 * (huggingface/diffusers#696, h15-67), a compiled extension op
 * (hbb1/2d-gaussian-splatting#97, h9-53), torch7's serialization
 * (facebookresearch/fairseq-lua#18, h16-33). */
static void test_folded_and_extension_frames(void **state)
{
    (void)state;
    assert_string_equal(
        stage_of("CUDA out of memory when i want to train dreambooth\n"
                 "RuntimeError                              Traceback (most recent call last)\n"
                 "<ipython-input-2-c6e3ce5f5a40> in <module>\n"
                 "----> 3 accelerate.notebook_launcher(training_function, args=(text_encoder, vae, unet))\n"
                 "\n"
                 "7 frames\n"
                 "<ipython-input-1-d9553ec566fc> in training_function(text_encoder, vae, unet)\n"
                 "--> 366                 accelerator.backward(loss)\n"),
        "backward");
    assert_string_equal(stage_of("num_rendered, color, depth, radii, geomBuffer, binningBuffer, imgBuffer = "
                                 "_C.rasterize_gaussians(*args)\n"
                                 "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 35.79 GiB "
                                 "(GPU 0; 23.49 GiB total capacity; 990.78 MiB already allocated; 21.66 GiB free; "
                                 "1.14 GiB reserved in total by PyTorch)\n"),
                        "forward");
    assert_string_equal(
        stage_of("THCudaCheck FAIL file=/home/james/torch/extra/cutorch/lib/THC/generic/THCStorage.cu line=66 "
                 "error=2 : out of memory\n"
                 "stack traceback:\n"
                 "\t/home/james/torch/install/share/lua/5.1/torch/File.lua:351: in function 'readObject'\n"
                 "\t/home/james/torch/install/share/lua/5.1/nn/Module.lua:192: in function 'read'\n"),
        "load");
}

/* Rich wraps a frame header after its "in": the name is the next box line
 * (zai-org/ChatGLM-6B#790, corpus-heldout16 h16-03). */
static void test_rich_header_wrapped_after_in(void **state)
{
    (void)state;
    assert_string_equal(
        stage_of("\xe2\x94\x82 /home/shy/.cache/huggingface/modules/transformers_modules/ChatGLM-6B/modeling_chatglm.py:202 in  "
                 "\xe2\x94\x82\n"
                 "\xe2\x94\x82 forward                                                                                          "
                 "\xe2\x94\x82\n"
                 "\xe2\x94\x82 \xe2\x9d\xb1  202 \xe2\x94\x82   \xe2\x94\x82   \xe2\x94\x82   t = torch.arange(seq_len, "
                 "device=x.device, dtype=self.inv_freq.dtype)         \xe2\x94\x82\n"
                 "OutOfMemoryError: CUDA out of memory. Tried to allocate more than 1EB memory.\n"),
        "forward");
}

/* Read from corpus-heldout23's set-aside misses after its last unseen
 * measurement (seen): set-up paths and kernels of more libraries. */
static void test_more_library_paths(void **state)
{
    (void)state;
    /* huggingface/accelerate#1931 (h23-16) */
    assert_string_equal(
        stage_of("accelerate.prepare(model) gets CUDA OOM\n"
                 "Traceback (most recent call last):\n"
                 "  File \"train.py\", line 187, in <module>\n"
                 "    model, optimizer, train_dataloader, scheduler = accelerator.prepare(\n"
                 "  File \"/data_new/sjy98/polyglot-ko/data-parallel/deepspeed-venv/lib/python3.8/site-packages/"
                 "accelerate/accelerator.py\", line 1202, in prepare\n"
                 "    result = tuple(\n"),
        "load");
    /* InternLM/lmdeploy#1593 (h23-14) */
    assert_string_equal(
        stage_of("[Bug] llava, cuda out of memory\n"
                 "  File \"/media/star/8T/20231130/eas_demo/llava-vllm/ENV/lib/python3.10/site-packages/lmdeploy/"
                 "turbomind/turbomind.py\", line 199, in _create_weight_func\n"
                 "    model_comm.create_shared_weights(device_id, rank)\n"
                 "RuntimeError: [TM][ERROR] CUDA runtime error: out of memory "
                 "/lmdeploy/src/turbomind/utils/memory_utils.cu:32 \n"),
        "load");
    /* bigscience-workshop/Megatron-DeepSpeed#384 (h23-09) */
    assert_string_equal(
        stage_of("File \"/mnt/Megatron-DeepSpeed/pretrain_gpt.py\", line 130, in get_batch_pipe\n"
                 "attention_mask, loss_mask, position_ids = get_ltor_masks_and_position_ids(\n"
                 "File \"/mnt/Megatron-DeepSpeed/megatron/utils.py\", line 180, in get_ltor_masks_and_position_ids\n"
                 "attention_mask = torch.tril(torch.ones(\n"
                 "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 37631.79 GiB (GPU 3; 79.21 "
                 "GiB total capacity; 50.52 GiB already allocated; 24.67 GiB free; 52.32 GiB reserved in total by "
                 "PyTorch)\n"),
        "data");
    /* nerfstudio-project/nerfstudio#3214 (h23-05) */
    assert_string_equal(
        stage_of("CUDA out of memory [nerfstudio 1.1.2, gsplat 1.0.0]\n"
                 "Traceback (most recent call last):\n"
                 "  File \"/home/ubuntu/nerfstudio-1.1.2/nerfstudio/engine/trainer.py\", line 496, in "
                 "train_iteration\n"
                 "    _, loss_dict, metrics_dict = self.pipeline.get_train_loss_dict(step=step)\n"),
        "forward");
    /* PaddlePaddle/PaddleFormers#682 (h23-17): a Paddle C++ operator kernel */
    assert_string_equal(
        stage_of("hub Out of memory in a simple programm!!\n"
                 "C++ Call Stacks (More useful to developers):\n"
                 "--------------------------------------------\n"
                 "1   paddle::memory::allocation::CUDAAllocator::AllocateImpl(unsigned long)\n"
                 "10  paddle::operators::BatchNormKernel<paddle::platform::CUDADeviceContext, float>::Compute("
                 "paddle::framework::ExecutionContext const&) const\n"),
        "forward");
    /* huggingface/optimum-nvidia#146 (h23-11): the engine builder gives up;
     * an engine build names no stage (engine-build-no-stage, the nineteenth
     * round: load before, h23-11 relabelled) */
    assert_string_equal(stage_of("[08/11/2024-06:10:36] [TRT] [E] [globWriter.cpp::makeResizableGpuMemory::435] "
                                 "Error Code 2: OutOfMemory (Requested size was 16654532608 bytes.)\n"
                                 "[08/11/2024-06:10:36] [TRT-LLM] [E] Engine building failed, please check the "
                                 "error log.\n"),
                        "unknown");
    /* vllm-project/vllm#15039 (h23-07): the chat handler serving a request */
    assert_string_equal(
        stage_of("ERROR 03-19 10:55:18 [serving_chat.py:677] vllm.engine.multiprocessing.MQEngineDeadError: Engine "
                 "loop is not running. Inspect the stacktrace to find the original error: OutOfMemoryError('CUDA "
                 "out of memory. Tried to allocate 128.00 MiB. GPU 0 has a total capacity of 79.33 GiB of which "
                 "16.00 MiB is free.')\n"),
        "generate");
    /* kijai/ComfyUI-FluxTrainer#20 (h23-13): kohya's set-up line */
    assert_string_equal(stage_of("torch.OutOfMemoryError: Allocation on device\n"
                                 "FLUX: Gradient checkpointing enabled. CPU offload: False\n"
                                 "prepare optimizer, data loader etc.\n"),
                        "load");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_library_test_loops),      cmocka_unit_test(test_diffusion_sampler_pick),
        cmocka_unit_test(test_inference_runs_forward),  cmocka_unit_test(test_single_code_line),
        cmocka_unit_test(test_tool_log_lines),          cmocka_unit_test(test_node_and_markdown_names),
        cmocka_unit_test(test_engine_operators),        cmocka_unit_test(test_data_move_innermost_only),
        cmocka_unit_test(test_folded_and_extension_frames), cmocka_unit_test(test_rich_header_wrapped_after_in),
        cmocka_unit_test(test_more_library_paths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
