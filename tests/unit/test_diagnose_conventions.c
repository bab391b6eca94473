/* The labellers' conventions as diagnose's mechanisms, helper diagconv
 * (issue 12): every stage and call convention tests/corpus/CONVENTIONS.md
 * lists, tried on short pastes written here in our own words (other
 * libraries, other wordings than the corpus rows that cite the convention,
 * so a row tests the rule and not a log). Each row names its convention
 * and what a labeller following it gives: a stage (the stage of the log's
 * primary event, or of its first event on a look-alike), or the call
 * ("gpu-oom" / "look-alike"). No row was read from a corpus log.
 * `build/tests/test_diagnose_conventions --table` prints every row with what
 * diagnose gives; `--paste N` prints row N's paste (for `oomlab diagnose -`).
 * Rows after the "set aside" marker were written after the scan changes
 * and scored once (/work/notes/diagconv.md). */
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
#include "scan_fixture.h"

struct conv_row {
    const char *convention; /* its name in tests/corpus/CONVENTIONS.md */
    const char *want;       /* a stage name, or "gpu-oom" / "look-alike" */
    const char *paste;
    const char *gap; /* a known gap or a convention not followed: why (printed, not asserted) */
};

#define TB "Traceback (most recent call last):\n"
#define SP "/opt/conda/lib/python3.11/site-packages/"
#define FR(file, fn, code) "  File \"" file "\", line 217, in " fn "\n    " code "\n"
#define OOM                                                                                                    \
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.00 GiB. GPU 0 has a total capacity of "  \
    "23.55 GiB of which 1.21 GiB is free. Including non-PyTorch memory, this process has 22.33 GiB memory in " \
    "use. Of the allocated memory 21.70 GiB is allocated by PyTorch, and 163.40 MiB is reserved by PyTorch "  \
    "but unallocated.\n"
#define MODCALL FR(SP "torch/nn/modules/module.py", "_call_impl", "return forward_call(*args, **kwargs)")

static const struct conv_row rows[] = {
    /* ---- stage: a tool's last lines before a failure the paste does not show ---- */
    {"loader-last-lines", "load",
     "OOM with ggml-large-v3 on a 6 GB card\n"
     "whisper_init_from_file_with_params_no_state: loading model from 'models/ggml-large-v3.bin'\n"
     "whisper_model_load: n_vocab       = 51866\n"
     "whisper_model_load: n_audio_ctx   = 1500\n"
     "whisper_model_load: n_text_layer  = 32\n"
     "whisper_model_load: type          = 5 (large v3)\n",
     NULL},
    {"loader-last-lines", "load",
     "CUDA out of memory pretraining with a 250k vocabulary\n"
     "> initializing torch distributed ...\n"
     "> initialized tensor model parallel with size 2\n"
     "> initialized pipeline model parallel with size 1\n"
     "> setting random seeds to 1234 ...\n"
     "building BERT model ...\n",
     NULL},
    {"loader-last-lines", "load",
     "out of memory on RTX 3060 when training yolo\n"
     "   layer   filters  size/strd(dil)      input                output\n"
     "   0 conv     32       3 x 3/ 1    608 x 608 x   3 ->  608 x 608 x  32 0.639 BF\n"
     "   1 conv     64       3 x 3/ 2    608 x 608 x  32 ->  304 x 304 x  64 3.407 BF\n"
     "   2 conv     32       1 x 1/ 1    304 x 304 x  64 ->  304 x 304 x  32 0.379 BF\n",
     "not followed for a bare layer table: darknet prints its table while it builds the network, "
     "Keras' summary and a module's repr after; the rows alone do not say load (darknet's own "
     "set-up lines above the table do, heldout31 h31-05)"},
    /* written with the glog fix: a C++ framework's network-building log */
    {"loader-last-lines", "load",
     "Check failed: error == cudaSuccess (2 vs. 0)  out of memory, when training SSD on a 2080\n"
     "I1102 08:01:12.118420 30112 layer_factory.hpp:77] Creating layer mbox_loss\n"
     "I1102 08:01:12.118450 30112 net.cpp:84] Creating Layer mbox_loss\n"
     "I1102 08:01:12.118456 30112 net.cpp:406] mbox_loss <- mbox_loc\n"
     "I1102 08:01:12.118501 30112 net.cpp:122] Setting up mbox_loss\n"
     "I1102 08:01:12.118520 30112 net.cpp:129] Top shape: (1)\n"
     "I1102 08:01:12.118530 30112 net.cpp:200] conv4_3_norm needs backward computation.\n",
     NULL},
    {"startup-lines-no-stage", "unknown",
     "CUDA OOM with batch size 2 on a V100\n"
     "2024-05-01 12:00:01 | INFO | Namespace(batch_size=2, lr=0.0001, epochs=100, amp=True)\n"
     "2024-05-01 12:00:01 | INFO | torch 2.1.0+cu121, 1 GPU(s)\n"
     "2024-05-01 12:00:02 | INFO | Start training\n",
     NULL},
    {"startup-lines-no-stage", "unknown",
     "Out of memory on two A6000s\n"
     "[2024-06-11 09:14:20] world_size=2 global_batch=64 micro_batch=4 grad_accum=8\n"
     "[2024-06-11 09:14:20] mixed precision: bf16\n"
     "[2024-06-11 09:14:21] seed: 42\n",
     NULL},
    {"eval-last-line", "eval",
     "CUDA out of memory halfway through the first epoch\n"
     "epoch 1 iter 400/400 loss 0.4121 lr 2.0e-4\n"
     "Saving weights to runs/exp3/last.pt\n"
     "Validating on 1200 images...\n",
     NULL},
    {"eval-last-line", "eval",
     "GPU OOM after the first epoch\n"
     "***** Running Evaluation *****\n"
     "  Num examples = 5000\n"
     "  Batch size = 64\n",
     NULL},
    {"checkpoint-last-line", "checkpoint",
     "CUDA out of memory at step 2000 with FSDP\n"
     "step 1990 | loss 2.311 | 1.9 s/it\n"
     "step 2000 | loss 2.305 | 1.9 s/it\n"
     "Saving checkpoint to out/ckpt_2000 ...\n",
     NULL},
    /* ---- stage: a sampling bar that finished, then the failure ---- */
    {"sampling-bar-then-failure", "generate",
     "OOM right after sampling finishes at 1024x1024\n"
     "Generating 1 image(s) with 30 steps\n"
     "100%|##########| 30/30 [00:21<00:00,  1.40it/s]\n",
     NULL},
    {"sampling-bar-then-failure", "generate",
     "video generation OOM at 81 frames\n"
     "INFO: Generating video with 81 frames at 832x480\n"
     "100%|##########| 40/40 [09:12<00:00, 13.81s/it]\n" OOM,
     NULL},
    /* ---- stage: a server's request lines, then the failure ---- */
    {"server-request", "generate",
     "out of memory with 32k context\n"
     "main: server is listening on http://127.0.0.1:8080 - starting the main loop\n"
     "slot launch_slot_: id  0 | task 0 | processing task\n"
     "slot update_slots: id  0 | task 0 | prompt tokenized, n_ctx_slot = 32768, n_prompt_tokens = 24511\n"
     "CUDA error: out of memory\n"
     "  current device: 0, in function ggml_cuda_pool_malloc at ggml-cuda.cu:358\n",
     NULL},
    {"server-request", "generate",
     "INFO:     10.0.0.7:51234 - \"POST /v1/chat/completions HTTP/1.1\" 200 OK\n"
     "INFO:     10.0.0.7:51240 - \"POST /v1/chat/completions HTTP/1.1\" 500 Internal Server Error\n"
     "ERROR:    Exception in ASGI application\n" OOM,
     NULL},
    /* ---- stage: what a model's pass is called ---- */
    {"structure-prediction-forward", "forward",
     "OOM folding a 1400-residue complex\n" TB
     FR("/app/fold.py", "main", "output = model.infer(batch)")
     FR("/app/esm/esmfold/v1/esmfold.py", "infer", "output = self.forward(aatype, mask=mask, residx=residx)")
     FR("/app/esm/esmfold/v1/esmfold.py", "forward", "structure: dict = self.trunk(s_s_0, s_z_0, aa, residx, mask, no_recycles=num_recycles)")
     MODCALL OOM,
     NULL},
    {"structure-prediction-forward", "forward",
     "detector OOM on 8k aerial tiles\n" TB
     FR("/work/tools/detect.py", "run", "preds = detector(images)")
     MODCALL
     FR("/work/mmdet/models/detectors/base.py", "forward", "return self.predict(inputs, data_samples)")
     FR("/work/mmdet/models/backbones/resnet.py", "forward", "x = res_layer(x)")
     MODCALL OOM,
     NULL},
    {"encoder-in-generation-forward", "forward",
     "Flux Kontext edit runs out of VRAM before sampling\n" TB
     FR("/srv/app.py", "edit", "image = pipe(prompt=prompt, image=src, num_inference_steps=28).images[0]")
     FR(SP "diffusers/pipelines/flux/pipeline_flux_kontext.py", "__call__", "prompt_embeds, pooled_prompt_embeds, text_ids = self.encode_prompt(")
     FR(SP "diffusers/pipelines/flux/pipeline_flux_kontext.py", "_get_t5_prompt_embeds", "prompt_embeds = self.text_encoder_2(text_input_ids.to(device), output_hidden_states=False)[0]")
     MODCALL
     FR(SP "transformers/models/t5/modeling_t5.py", "forward", "hidden_states = self.layer[-1](hidden_states)")
     MODCALL OOM,
     NULL},
    {"encoder-in-generation-forward", "forward",
     "T2V 14B: OOM in the text encoder\n" TB
     FR("/work/Wan2.1/generate.py", "generate", "video = wan_t2v.generate(args.prompt, size=SIZE_CONFIGS[args.size], frame_num=args.frame_num)")
     FR("/work/Wan2.1/wan/text2video.py", "generate", "context = self.text_encoder([input_prompt], self.device)")
     FR("/work/Wan2.1/wan/modules/t5.py", "__call__", "context = self.model(ids, mask)")
     MODCALL
     FR("/work/Wan2.1/wan/modules/t5.py", "forward", "x = block(x, mask, pos_bias=e)")
     MODCALL OOM,
     NULL},
    {"node-vs-frames", "generate",
     "!!! Exception during processing !!! Allocation on device\n" TB
     FR("/ComfyUI/execution.py", "execute", "output_data, output_ui, has_subgraph = get_output_data(obj, input_data_all)")
     FR("/ComfyUI/nodes.py", "sample", "return common_ksampler(model, seed, steps, cfg, sampler_name, scheduler, positive, negative, latent_image, denoise=denoise)")
     FR("/ComfyUI/comfy/sample.py", "sample", "samples = sampler.sample(noise, positive, negative, cfg=cfg, latent_image=latent_image)")
     FR("/ComfyUI/comfy/k_diffusion/sampling.py", "sample_euler", "denoised = model(x, sigma_hat * s_in, **extra_args)")
     "torch.OutOfMemoryError: Allocation on device\n",
     NULL},
    {"node-vs-frames", "generate",
     "Error occurred when executing SamplerCustomAdvanced:\n\n"
     "Allocation on device 0 would exceed allowed memory. (out of memory)\n"
     "Currently allocated     : 22.10 GiB\n"
     "Requested               : 1.50 GiB\n",
     NULL},
    {"node-vs-frames", "forward",
     "WAN video OOM at 720p\n"
     "  File \"/ComfyUI/comfy/ldm/wan/model.py\", line 226, in forward\n"
     "    x = cross_attn_ffn(x, context, context_img_len, e)\n"
     "  File \"/ComfyUI/comfy/ldm/modules/attention.py\", line 498, in attention_pytorch\n"
     "    out = torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=mask)\n" OOM,
     NULL},
    {"decode-latents-generate", "generate",
     "SDXL OOM at the very end\n" TB
     FR("/home/u/gen.py", "<module>", "images = pipe(prompt, height=1536, width=1536).images")
     FR(SP "diffusers/pipelines/stable_diffusion_xl/pipeline_stable_diffusion_xl.py", "__call__", "image = self.vae.decode(latents, return_dict=False)[0]")
     FR(SP "diffusers/models/autoencoders/autoencoder_kl.py", "decode", "decoded = self._decode(z).sample")
     MODCALL OOM,
     NULL},
    {"loss-in-forward", "forward",
     "OOM in the loss with a 256k vocabulary\n" TB
     FR("/work/train.py", "train_step", "loss = criterion(logits.view(-1, logits.size(-1)), labels.view(-1))")
     MODCALL
     FR(SP "torch/nn/modules/loss.py", "forward", "return F.cross_entropy(input, target, weight=self.weight,")
     FR(SP "torch/nn/functional.py", "cross_entropy", "return torch._C._nn.cross_entropy_loss(input, target, weight, _Reduction.get_enum(reduction), ignore_index, label_smoothing)")
     OOM,
     NULL},
    {"tf-scope", "backward",
     "ResourceExhaustedError: OOM when allocating tensor with shape[64,512,28,28] and type float on "
     "/job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n"
     "\t [[node gradients/block4_conv3/Conv2D_grad/Conv2DBackpropInput (defined at train.py:88) ]]\n",
     NULL},
    {"tf-scope", "forward",
     "tensorflow.python.framework.errors_impl.ResourceExhaustedError:  OOM when allocating tensor with "
     "shape[32,1024,14,14] and type half on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n"
     "\t [[{{node resnet50/conv4_block6_2_conv/Conv2D}}]]\n",
     NULL},
    /* labelconv (nineteenth round): building an inference engine converts a
     * model, no stage. Pastes in our words after the shapes of
     * ddPn08/Radiata#6 (a web UI driving polygraphy's "Building engine with
     * configuration:" table) and NVIDIA/TensorRT-LLM#1543 (trtllm-build's
     * "Build TensorRT engine" and the builder-pass timing-cache line); the
     * seen rows h20-29, h23-11, h39-14, h54-45 carry the same lines. An
     * engine deserialised at start-up stays load (engine-startup-load). */
    {"engine-build-no-stage", "unknown",
     "[I]     Configuring with profiles: [Profile().add('latent', min=(1, 4, 64, 64), opt=(2, 4, 96, 96), max=(4, 4, 128, 128))]\n"
     "[I] Building engine with configuration:\n"
     "    Flags                  | [FP16]\n"
     "    Memory Pools           | [WORKSPACE: 11264.00 MiB, TACTIC_DRAM: 11264.00 MiB]\n"
     "[E] 2: [virtualMemoryBuffer.cpp::resizePhysical::145] Error Code 2: OutOfMemory (no further information)\n"
     "[W] Requested amount of GPU memory (6442450944 bytes) could not be allocated. There may not be enough free "
     "memory for allocation to succeed.\n",
     NULL},
    {"engine-build-no-stage", "unknown",
     "[04/02/2025-10:11:52] [TRT-LLM] [I] Build TensorRT engine Unnamed Network 0\n"
     "[04/02/2025-10:11:53] [TRT] [I] Global timing cache in use. Profiling results in this builder pass will be stored.\n"
     "[04/02/2025-10:12:40] [TRT] [E] [defaultAllocator.cpp::allocate::31] Error Code 1: Cuda Runtime (out of memory)\n"
     "[04/02/2025-10:12:40] [TRT-LLM] [E] Engine building failed, please check the error log.\n",
     NULL},
    {"engine-startup-load", "load",
     "[I] Loading engine file: weights/detector_fp16.engine\n"
     "[E] 1: [defaultAllocator.cpp::allocate::20] Error Code 1: Cuda Runtime (out of memory)\n"
     "[E] 2: [executionContext.cpp::ExecutionContext::ExecutionContext::564] Error Code 2: OutOfMemory (no further information)\n",
     NULL},
    /* labelconv (nineteenth round): an eager op named alone names no stage;
     * the frames decide. The wrapper form "{{function_node __wrapped__Op_
     * device_/job:...}} ... [Op:Op] name:" is TF 2.10+'s (seen in a public
     * Kaggle notebook's exported output of a retrieval layer's MatMul, which
     * the library stores under no named repository); the heldout sets' rows h15-28,
     * h37-88, h43-58, h54-54 cite it. Gradient ops stay backward. */
    {"tf-eager-op-no-stage", "unknown",
     "tensorflow.python.framework.errors_impl.ResourceExhaustedError: {{function_node "
     "__wrapped__BatchMatMulV2_device_/job:localhost/replica:0/task:0/device:GPU:0}} OOM when allocating tensor "
     "with shape[48,16,2048,2048] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator "
     "GPU_0_bfc [Op:BatchMatMulV2] name: \n",
     NULL},
    {"tf-eager-op-no-stage", "unknown",
     "ResourceExhaustedError: OOM when allocating tensor with shape[4096,4096] and type float on "
     "/job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc [Op:AddV2]\n",
     NULL},
    {"tf-eager-op-no-stage", "backward",
     "tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor with "
     "shape[32,256,56,56] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc "
     "[Op:Conv2DBackpropFilter]\n",
     NULL},
    {"library-function", "backward",
     "MXNet OOM at batch 64\n"
     "terminate called after throwing an instance of 'dmlc::Error'\n"
     "  what():  [10:12:01] src/operator/nn/cudnn/cudnn_convolution-inl.h:241: Check failed: e == CUDNN_STATUS_SUCCESS (2 vs. 0) "
     "cuDNN: CUDNN_STATUS_ALLOC_FAILED in cudnnConvolutionBackwardFilter\n",
     NULL},
    {"library-function", "forward",
     "F0412 10:31:07.118 cudnn_conv_layer.cpp:53] Check failed: status == CUDNN_STATUS_SUCCESS (2 vs. 0)  "
     "CUDNN_STATUS_ALLOC_FAILED while running cudnnConvolutionForward\n",
     NULL},
    {"engine-startup-load", "load",
     "vLLM OOM while starting Qwen2-72B\n" TB
     FR(SP "vllm/engine/llm_engine.py", "_initialize_kv_caches", "num_gpu_blocks, num_cpu_blocks = self.model_executor.determine_num_available_blocks()")
     FR(SP "vllm/worker/worker.py", "determine_num_available_blocks", "self.model_runner.profile_run()")
     FR(SP "vllm/worker/model_runner.py", "profile_run", "self.execute_model(model_input, kv_caches, intermediate_tensors)")
     OOM,
     NULL},
    {"engine-startup-load", "load",
     "2024-09-02T10:11:12Z ERROR text_generation_launcher: Method Warmup encountered an error.\n" TB
     FR("/opt/conda/lib/python3.10/site-packages/text_generation_server/models/flash_causal_lm.py", "warmup", "_, batch, _ = self.generate_token(batch)")
     OOM,
     NULL},
    {"module-to-setup", "load",
     "OOM before the first step\n" TB
     FR("/work/train.py", "main", "model = build_model(cfg).cuda()")
     FR(SP "torch/nn/modules/module.py", "cuda", "return self._apply(lambda t: t.cuda(device))")
     FR(SP "torch/nn/modules/module.py", "_apply", "module._apply(fn)")
     FR(SP "torch/nn/modules/module.py", "_apply", "param_applied = fn(param)")
     OOM,
     NULL},
    {"controller-frames-no-stage", "unknown",
     "OOM with 4 GPUs and ddp\n" TB
     FR("/work/main.py", "<module>", "trainer.fit(model, datamodule=dm)")
     FR(SP "lightning/pytorch/trainer/trainer.py", "fit", "call._call_and_handle_interrupt(")
     FR(SP "lightning/pytorch/trainer/call.py", "_call_and_handle_interrupt", "return trainer_fn(*args, **kwargs)")
     FR(SP "lightning/pytorch/trainer/trainer.py", "_fit_impl", "self._run(model, ckpt_path=ckpt_path)")
     OOM,
     NULL},
    {"eval-encloses-forward", "eval",
     "OOM in validation with tta\n" TB
     FR(SP "mmengine/runner/loops.py", "run", "self.run_iter(idx, data_batch)")
     FR(SP "mmengine/runner/loops.py", "run_iter", "outputs = self.runner.model.val_step(data_batch)")
     FR(SP "mmengine/model/base_model/base_model.py", "val_step", "return self._run_forward(data, mode='predict')")
     FR("/work/mmseg/models/segmentors/encoder_decoder.py", "forward", "return self.predict(inputs, data_samples)")
     OOM,
     NULL},
    {"bar-without-frames", "unknown",
     "OOM after a few hundred steps\n"
     "Epoch 1:  12%|#2        | 120/1000 [02:01<14:50,  1.01s/it, loss=0.52, v_num=3]\n" OOM,
     NULL},
    {"state-dict-save", "checkpoint",
     "OOM when saving the FSDP model\n" TB
     FR("/work/train.py", "save", "state = model.state_dict()")
     FR(SP "torch/distributed/fsdp/_state_dict_utils.py", "_full_post_state_dict_hook", "return _common_unshard_post_state_dict_hook(")
     FR(SP "torch/distributed/utils.py", "_alloc_storage", "tensor._typed_storage()._resize_(size.numel())")
     OOM,
     NULL},
    {"title-or-prose-phase-no-stage", "unknown",
     "CUDA OOM during evaluation with beam search\n"
     "RuntimeError: CUDA out of memory. Tried to allocate 1.20 GiB (GPU 0; 15.78 GiB total capacity; "
     "13.10 GiB already allocated; 1.02 GiB free; 13.60 GiB reserved in total by PyTorch)\n",
     NULL},
    {"generate-frames", "generate",
     "Llama 3 70B AWQ OOM at long prompts\n" TB
     FR("/app/chat.py", "reply", "out = model.generate(**inputs, max_new_tokens=512)")
     FR(SP "transformers/generation/utils.py", "generate", "result = self._sample(")
     FR(SP "transformers/generation/utils.py", "_sample", "outputs = self(**model_inputs, return_dict=True)")
     MODCALL OOM,
     NULL},
    /* ---- call: GPU OOM or look-alike ---- */
    {"caught-and-recovered", "look-alike",
     "| epoch 003:   41%| 812/1980 loss=4.132\n"
     "WARNING: attempting to recover from OOM in forward/backward pass\n"
     "| epoch 003:   42%| 830/1980 loss=4.127\n"
     "| epoch 003:   43%| 851/1980 loss=4.125\n",
     NULL},
    {"caught-and-recovered", "look-alike",
     "Warning: Ran out of memory when regular VAE decoding, retrying with tiled VAE decoding.\n"
     "Prompt executed in 41.83 seconds\n",
     NULL},
    {"caught-then-fatal", "gpu-oom",
     "WARNING: OOM in batch 17, retrying with batch size 8\n"
     "WARNING: OOM in batch 17, retrying with batch size 4\n" OOM,
     NULL},
    /* written with the fix (the other side of caught-and-recovered): the
     * tiled retry failing too */
    {"caught-then-fatal", "gpu-oom",
     "Warning: Ran out of memory when regular VAE decoding, retrying with tiled VAE decoding.\n"
     "!!! Exception during processing !!! Allocation on device\n" TB
     FR("/ComfyUI/execution.py", "execute", "output_data, output_ui, has_subgraph = get_output_data(obj, input_data_all)")
     FR("/ComfyUI/comfy/sd.py", "decode_tiled_", "output = self.process_output(")
     "torch.OutOfMemoryError: Allocation on device\n",
     NULL},
    {"caught-then-fatal", "gpu-oom",
     "Warning: Ran out of memory when regular VAE decoding, retrying with tiled VAE decoding.\n" TB
     FR("/app/backend/sd.py", "decode", "pixel_samples = self.decode_tiled_(samples_in)")
     FR("/app/backend/sd.py", "decode_tiled_", "output = torch.clamp(((comfy.utils.tiled_scale(samples, decode_fn, tile_x, tile_y, overlap)"),
     NULL},
    {"host-allocator", "look-alike",
     "RuntimeError: [enforce fail at alloc_cpu.cpp:114] data. DefaultCPUAllocator: not enough memory: "
     "you tried to allocate 1073741824 bytes.\n",
     NULL},
    {"host-allocator", "look-alike",
     "ggml_cuda_host_malloc: failed to allocate 4096.00 MiB of pinned memory: out of memory\n"
     "llama_kv_cache_init:  CUDA_Host KV buffer size =  4096.00 MiB\n",
     NULL},
    {"title-only", "gpu-oom",
     "CUDA out of memory fine-tuning a 13B model with LoRA on a 24 GB card\n"
     "I followed the README and used the default config. Any idea what to change?\n",
     NULL},
    {"non-memory-status", "look-alike",
     "CUDA OOM on A100 with long sequences\n"
     "RuntimeError: CUDA error: an illegal memory access was encountered\n"
     "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\n",
    
     "contested, not followed: heldout12 (h12-09, -13) and heldout21 (h21-01) call a CUDA fault a GPU OOM where the reporter or an out-of-memory line says so, heldout31 (h31-52) and labelagree's wording let the paste decide; diagnose keeps the OOM the title names as the root cause and the fault as its consequence (tests/corpus/CONVENTIONS.md)"},
    {"non-memory-status", "look-alike",
     "Out of memory?\n"
     "RuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasGemmEx( handle, opa, opb, m, n, k, &falpha, a, CUDA_R_16F, lda, b, CUDA_R_16F, ldb, &fbeta, c, CUDA_R_16F, ldc, CUDA_R_32F, CUBLAS_GEMM_DFALT_TENSOR_OP)`\n",
    
     "contested, not followed: heldout12 (h12-09, -13) and heldout21 (h21-01) call a CUDA fault a GPU OOM where the reporter or an out-of-memory line says so, heldout31 (h31-52) and labelagree's wording let the paste decide; diagnose keeps the OOM the title names as the root cause and the fault as its consequence (tests/corpus/CONVENTIONS.md)"},
    {"cublas-alloc", "gpu-oom",
     "RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`\n", NULL},
    {"accelerator-device-memory", "gpu-oom",
     "RuntimeError: MPS backend out of memory (MPS allocated: 17.52 GB, other allocations: 1.21 GB, max "
     "allowed: 18.13 GB). Tried to allocate 256.00 MB on private pool.\n",
     NULL},
    {"accelerator-device-memory", "gpu-oom",
     "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.97 GiB total capacity; 57.10 GiB "
     "already allocated; 57.10 GiB current active; 1.40 GiB free; 58.20 GiB reserved in total by PyTorch)\n",
     NULL},
    {"tactic-skip", "look-alike",
     "[W] [TRT] Skipping tactic 0x0000000000000003 due to insufficient memory on requested size of 4294967296 detected for tactic 0x0000000000000003.\n"
     "[I] [TRT] Engine built in 412.3 seconds.\n",
     NULL},
    {"killed-while-loading", "look-alike",
     "Loading checkpoint shards:  60%|######    | 3/5 [01:12<00:48, 24.10s/it]\n"
     "Killed\n",
     NULL},
    {"disk-full", "look-alike",
     "OSError: [Errno 28] No space left on device\n", NULL},
    {"discussion", "look-alike",
     "[Feature] retry the eval loop when CUDA out of memory is raised\n"
     "This PR catches torch.cuda.OutOfMemoryError in evaluate(), halves the batch size and retries.\n",
     NULL},
    /* ---- set aside: written after the scan changes, scored once ---- */
    {"encoder-in-generation-forward", "forward",
     "SD3 medium OOM on 8 GB\n" TB
     FR("/home/me/run_sd3.py", "<module>", "image = pipe(prompt, negative_prompt=\"\", num_inference_steps=28, guidance_scale=7.0).images[0]")
     FR(SP "diffusers/pipelines/stable_diffusion_3/pipeline_stable_diffusion_3.py", "__call__", ") = self.encode_prompt(")
     FR(SP "diffusers/pipelines/stable_diffusion_3/pipeline_stable_diffusion_3.py", "encode_prompt", "t5_prompt_embed = self._get_t5_prompt_embeds(")
     FR(SP "diffusers/pipelines/stable_diffusion_3/pipeline_stable_diffusion_3.py", "_get_t5_prompt_embeds", "prompt_embeds = self.text_encoder_3(text_input_ids.to(device))[0]")
     MODCALL OOM,
     NULL},
    {"encoder-in-generation-forward", "forward",
     "Error completing request\n" TB
     FR("/sd/modules/txt2img.py", "txt2img", "processed = processing.process_images(p)")
     FR("/sd/modules/processing.py", "process_images_inner", "c = get_conds_with_caching(prompt_parser.get_multicond_learned_conditioning, prompts, p.steps, cached_c)")
     FR("/sd/modules/prompt_parser.py", "get_learned_conditioning", "conds = model.get_learned_conditioning(texts)")
     FR("/sd/repositories/stable-diffusion-stability-ai/ldm/models/diffusion/ddpm.py", "get_learned_conditioning", "c = self.cond_stage_model(c)")
     MODCALL OOM,
     NULL},
    {"encoder-in-generation-forward", "generate",
     "img2img OOM at 2048px\n" TB
     FR("/app/run.py", "<module>", "out = pipe(prompt=p, image=init, strength=0.6).images[0]")
     FR(SP "diffusers/pipelines/stable_diffusion/pipeline_stable_diffusion_img2img.py", "__call__", "latents = self.prepare_latents(")
     FR(SP "diffusers/pipelines/stable_diffusion/pipeline_stable_diffusion_img2img.py", "prepare_latents", "init_latents = retrieve_latents(self.vae.encode(image), generator=generator)")
     FR(SP "diffusers/models/autoencoders/autoencoder_kl.py", "encode", "h = self.encoder(x)")
     MODCALL OOM,
     NULL},
    {"library-function", "forward",
     "ERROR: LoadError: CUDNNError: CUDNN_STATUS_ALLOC_FAILED (code 2)\n"
     "Stacktrace:\n"
     "  [1] throw_api_error(res::cuDNN.cudnnStatus_t)\n"
     "    @ cuDNN ~/.julia/packages/cuDNN/YkZhm/src/libcudnn.jl:11\n"
     "  [2] cudnnBatchNormalizationForwardTraining(handle::Ptr{cuDNN.cudnnContext}, mode::cuDNN.cudnnBatchNormMode_t)\n"
     "    @ cuDNN ~/.julia/packages/cuDNN/YkZhm/src/libcudnn.jl:1920\n",
     NULL},
    {"library-function", "backward",
     "RuntimeError: miopenStatusAllocFailed in miopenConvolutionBackwardWeights\n", NULL},
    {"caught-and-recovered", "look-alike",
     "got prompt\n"
     "100%|##########| 20/20 [00:41<00:00,  2.05s/it]\n"
     "Requested to load AutoencoderKL\n"
     "Warning: Ran out of memory when regular VAE decoding, retrying with tiled VAE decoding.\n"
     "Prompt executed in 58.12 seconds\n",
     NULL},
    {"caught-then-fatal", "gpu-oom",
     "100%|##########| 25/25 [01:10<00:00,  2.80s/it]\n"
     "Warning: Ran out of memory when regular VAE decoding, retrying with tiled VAE decoding.\n"
     "!!! Exception during processing !!! CUDA out of memory. Tried to allocate 1.12 GiB. GPU 0 has a total "
     "capacity of 7.66 GiB of which 312.00 MiB is free. Of the allocated memory 6.80 GiB is allocated by PyTorch, "
     "and 120.41 MiB is reserved by PyTorch but unallocated.\n",
     NULL},
    {"title-only", "gpu-oom",
     "Getting OOM on 4 V100s with deepspeed zero2\n"
     "Same config worked last week. Nothing else changed.\n",
     NULL},
    {"loader-last-lines", "load",
     "GPU out of memory loading Mixtral\n"
     "llama_model_loader: loaded meta data with 26 key-value pairs and 995 tensors from mixtral-8x7b.Q5_K_M.gguf (version GGUF V3 (latest))\n"
     "llm_load_tensors: ggml ctx size =    0.76 MiB\n"
     "llm_load_tensors: offloading 32 repeating layers to GPU\n",
     NULL},
    {"eval-last-line", "eval",
     "OOM in the middle of training (3090)\n"
     "[Epoch 4] train loss: 0.231\n"
     "Evaluating on dev set ...\n",
     NULL},
    {"structure-prediction-forward", "forward",
     "OOM running the tracker on 4K video\n" TB
     FR("/opt/tracker/demo.py", "main", "tracks = tracker.update(detections, frame)")
     FR("/opt/tracker/tracker/byte_tracker.py", "update", "feats = self.reid(crops)")
     MODCALL
     FR("/opt/tracker/reid/osnet.py", "forward", "x = self.conv1(x)")
     MODCALL OOM,
     NULL},
    {"non-memory-status", "look-alike",
     "RuntimeError: CUDA error: unspecified launch failure\n"
     "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n",
     NULL},
    {"engine-startup-load", "load",
     "sglang server OOM at start\n" TB
     FR(SP "sglang/srt/model_executor/model_runner.py", "init_cuda_graphs", "self.cuda_graph_runner = CudaGraphRunner(self)")
     FR(SP "sglang/srt/model_executor/cuda_graph_runner.py", "__init__", "self.capture()")
     FR(SP "sglang/srt/model_executor/cuda_graph_runner.py", "capture", ") = self.capture_one_batch_size(bs, forward)")
     OOM,
     NULL},
    /* ---- the twentieth round's conventions (helper labelconv23), each
     * paste in our own words after a real source named beside it ---- */
    /* chain-answer-step: ConversationalRetrievalChain's _call answers with
     * "answer = self.combine_docs_chain.run(" (langchain-ai/langchain:
     * libs/langchain/langchain/chains/conversational_retrieval/base.py); the
     * frames under it cut as a reporter pastes them */
    {"chain-answer-step", "generate",
     "OOM after a few questions on a 12 GB card\n" TB
     FR("/home/me/chatdocs/app.py", "ask", "result = qa_chain({\"question\": q, \"chat_history\": history})")
     FR(SP "langchain/chains/base.py", "__call__", "self._call(inputs, run_manager=run_manager)")
     FR(SP "langchain/chains/conversational_retrieval/base.py", "_call", "answer = self.combine_docs_chain.run(")
     OOM,
     NULL},
    {"chain-answer-step", "unknown",
     "OOM when I ask a question\n" TB
     FR("/home/me/chatdocs/app.py", "ask", "result = qa_chain({\"question\": q, \"chat_history\": history})")
     FR(SP "langchain/chains/base.py", "__call__", "self._call(inputs, run_manager=run_manager)")
     FR(SP "langchain/chains/conversational_retrieval/base.py", "_call", "docs = self._get_docs(new_question, inputs, run_manager=_run_manager)")
     OOM,
     NULL},
    /* webui-processing-generate: SD.Next logs the error, then its
     * processing module's own line (vladmandic/sdnext:
     * modules/processing_diffusers.py, logger column 'processing_diffusers') */
    {"webui-processing-generate", "generate",
     "12:04:51-118302 ERROR    Processing: OutOfMemoryError\n"
     "12:04:51-530117 INFO     Processed: images=0 its=0.00 time=2.71\n"
     "12:04:52-002845 ERROR    processing_diffusers Processing: step=hires args={'num_inference_steps': 30, 'strength': 0.35}\n",
     NULL},
    /* ort-node-forward: ONNX Runtime's sequential executor (microsoft/
     * onnxruntime: onnxruntime/core/framework/sequential_executor.cc) */
    {"ort-node-forward", "forward",
     "[E:onnxruntime:, sequential_executor.cc:516 ExecuteKernel] Non-zero status code returned while running MatMul node. "
     "Name:'/encoder/layer.11/attention/MatMul' Status Message: /onnxruntime_src/onnxruntime/core/framework/bfc_arena.cc:376 "
     "void* onnxruntime::BFCArena::AllocateRawInternal(size_t, bool, onnxruntime::Stream*, bool, onnxruntime::WaitNotificationFn) "
     "Failed to allocate memory for requested buffer of size 50331648\n",
     NULL},
    /* tf-device-creation-no-stage: TF 1.x's device listing
     * (tensorflow/core/common_runtime/gpu/gpu_device.cc) and the driver's
     * first failed reservation (stream_executor/cuda/cuda_driver.cc) */
    {"tf-device-creation-no-stage", "unknown",
     "I tensorflow/core/common_runtime/gpu/gpu_device.cc:1120] Creating TensorFlow device (/device:GPU:0) -> (device: 0, name: Tesla P100-PCIE-16GB, pci bus id: 0000:00:04.0, compute capability: 6.0)\n"
     "E tensorflow/stream_executor/cuda/cuda_driver.cc:936] failed to allocate 15.24G (16367550464 bytes) from device: CUDA_ERROR_OUT_OF_MEMORY\n",
     NULL},
    /* kv-budget-refusal-oom: vLLM's cache-size check at start-up
     * (vllm-project/vllm: vllm/worker/worker.py raise_if_cache_size_invalid) */
    {"kv-budget-refusal-oom", "gpu-oom",
     "ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.\n",
     NULL},
    /* demo-warmup-forward: a Caffe program's warm-up pass (Caffe's glog
     * check-failure stack, BVLC/caffe: src/caffe/syncedmem.cpp) */
    {"demo-warmup-forward", "forward",
     "F0611 09:12:40.551203  3321 syncedmem.cpp:71] Check failed: error == cudaSuccess (2 vs. 0)  out of memory\n"
     "*** Check failure stack trace: ***\n"
     "    @     0x7f31c2a1b5cd  google::LogMessage::Fail()\n"
     "    @     0x7f31c6f0e2a0  caffe::SyncedMemory::to_gpu()\n"
     "    @     0x7f31c6f0d2e9  caffe::SyncedMemory::mutable_gpu_data()\n"
     "    @     0x7f31c6e1a7c2  caffe::PoolingLayer<>::Forward_gpu()\n"
     "    @     0x7f31c6ee58b2  caffe::Net<>::ForwardFromTo()\n"
     "    @           0x41a0c3  warmup()\n"
     "    @           0x41c2d4  worker_thread()\n",
     NULL},
    /* lookalike-frames-stage: safetensors' save_file serialising on the
     * host (huggingface/safetensors: bindings/python/py_src/safetensors/
     * torch.py save_file -> _flatten -> _tobytes) */
    {"lookalike-frames-stage", "checkpoint",
     TB
     FR("/train/train_network.py", "save_model", "save_file(state_dict, ckpt_path, metadata)")
     FR(SP "safetensors/torch.py", "save_file", "serialize_file(_flatten(tensors), filename, metadata=metadata)")
     FR(SP "safetensors/torch.py", "_tobytes", "data = np.ctypeslib.as_array(ptr, (total_bytes,))")
     "MemoryError\n",
     NULL},
};

/* What diagnose gives a row: the call, or the stage of the primary event
 * (of the first event on a log with no GPU OOM; "no-event" if none). */
static const char *conv_got(const struct conv_row *row)
{
    static char buf[32];
    struct oom_report rep;
    scan_log(row->paste, &rep);
    bool call = !strcmp(row->want, "gpu-oom") || !strcmp(row->want, "look-alike");
    if (call)
        snprintf(buf, sizeof buf, "%s", rep.primary >= 0 && rep.events[rep.primary].gpu_oom ? "gpu-oom" : "look-alike");
    else if (rep.n_events == 0)
        snprintf(buf, sizeof buf, "no-event");
    else
        snprintf(buf, sizeof buf, "%s",
                 oom_stage_name(rep.events[rep.primary >= 0 ? (size_t)rep.primary : 0].stage));
    oom_report_release(&rep);
    return buf;
}

static int conv_misses(bool print)
{
    int misses = 0;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const char *got = conv_got(&rows[i]);
        bool ok = !strcmp(got, rows[i].want);
        if (print)
            printf("%zu\t%s\t%s\t%s\t%s\n", i + 1, rows[i].convention, rows[i].want, got,
                   ok ? "ok" : rows[i].gap ? "GAP" : "MISS");
        else if (!ok && !rows[i].gap)
            fprintf(stderr, "row %zu %s: want %s, diagnose says %s\n", i + 1, rows[i].convention, rows[i].want, got);
        misses += !ok && !rows[i].gap;
    }
    return misses;
}

static void test_conventions(void **state)
{
    (void)state;
    assert_int_equal(conv_misses(false), 0);
}

int main(int argc, char **argv)
{
    size_t n = sizeof rows / sizeof rows[0];
    if (argc > 1 && !strcmp(argv[1], "--table")) {
        int misses = conv_misses(true);
        fprintf(stderr, "%d of %zu rows missed\n", misses, n);
        return 0;
    }
    if (argc > 2 && !strcmp(argv[1], "--paste")) {
        long i = strtol(argv[2], NULL, 10);
        if (i < 1 || (size_t)i > n) return 1;
        fputs(rows[i - 1].paste, stdout);
        return 0;
    }
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_conventions)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
