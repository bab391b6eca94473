/* Unit tests for the mechanisms read from the misses of heldout74, opened
 * for study after its blind figures were recorded at af512501 (call 61/67,
 * numbers 51/52, stages 13/23). Each case has a guard that must stay as it
 * was. The pastes are written here in the shape of the posts named beside
 * them (the tools' own wording, from their sources), not copied from the
 * threads. */
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

/* Does the log hold an event of this kind? */
static bool has_kind(const char *log, const char *kind)
{
    struct oom_report rep;
    scan_log(log, &rep);
    bool found = false;
    for (size_t i = 0; i < rep.n_events; i++)
        if (rep.events[i].kind && !strcmp(rep.events[i].kind, kind)) found = true;
    oom_report_release(&rep);
    return found;
}

/* Go's os and syscall errors write ENOSPC's text in lower case after the
 * path: a full disk, not memory. */
static void test_go_disk_full(void **state)
{
    (void)state;
    /* ollama pulling into a full disk (ollama/ollama#1731, #15547) */
    const char *pull = "$ ollama run deepseek-coder:33b\n"
                       "pulling manifest \n"
                       "Error: write /usr/share/ollama/.ollama/models/blobs/sha256:065b9a74-partial-0: "
                       "no space left on device\n";
    assert_true(has_kind(pull, "disk-full"));
    expect_no_gpu_oom(pull);
    /* a Go service's structured error (base/blob-archiver#38) */
    assert_true(has_kind("lvl=error msg=\"failed to write blob\" err=\"open /mnt/fast2/BLOBS/0x7651: "
                         "no space left on device\"\n",
                         "disk-full"));
    /* guards: a DataLoader's shared memory is not the disk; a denial */
    assert_false(has_kind("write /dev/shm/torch_123: no space left on device\n", "disk-full"));
    assert_false(has_kind("I checked df -h, it is not no space left on device.\n", "disk-full"));
}

/* A plain negation before the progressive of running out denies the OOM;
 * "before" does not (a limit reached). */
static void test_not_running_out(void **state)
{
    (void)state;
    /* the reporter ruling memory out (GrandaddyShmax/audiocraft_plus#16 =
     * heldout74 h74-11) */
    expect_no_gpu_oom("VRAM is 14/24gb during and jumps to 15,7/24gb when the error comes. "
                      "So it's not running out of memory.\n"
                      "TypeError: MusicGen.generate_continuation() got an unexpected keyword argument "
                      "'melody_wavs'\n");
    expect_no_gpu_oom("nvidia-smi shows 9 of 24 GB used, so the GPU is not running out of memory here.\n");
    expect_no_gpu_oom("The card isn't running out of VRAM, the process just hangs.\n");
    /* guards: a limit reached (heldout30 h30-77), a plain report */
    struct oom_report rep;
    scan_log("My GPU can only handle 10 images at once before running out of memory.\n", &rep);
    assert_true(rep.primary >= 0);
    oom_report_release(&rep);
    scan_log("The GPU keeps running out of memory at step 300.\n", &rep);
    assert_true(rep.primary >= 0);
    oom_report_release(&rep);
}

/* The OOM killer's act by its short name is host memory failing. */
static void test_oom_kill_is_host(void **state)
{
    (void)state;
    /* a title naming the kill, a comment's bare "OOM" (ModelCloud/
     * GPTQModel#1355 = heldout74 h74-54) */
    expect_no_gpu_oom("[BUG] oom-kill when packing model.layers\n\n"
                      "i encountered the same OOM problem when quantizing the weights to 4bit on an "
                      "A800(40g) machine\n");
    /* systemd's unit result (systemd/systemd:src/core/service.c,
     * SERVICE_FAILURE_OOM_KILL) */
    expect_no_gpu_oom("Got OOM again while loading the model.\n"
                      "ollama.service: Main process exited, code=killed, status=9/KILL\n"
                      "ollama.service: Failed with result 'oom-kill'.\n");
    /* guard: PyTorch's own GPU message stays a GPU OOM */
    struct oom_report rep;
    scan_log("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total "
             "capacity of 23.65 GiB of which 3.06 MiB is free.\n",
             &rep);
    assert_true(rep.primary >= 0);
    oom_report_release(&rep);
}

/* A generator's call named for a continuation generates, as
 * generate_text does. */
static void test_generate_continuation(void **state)
{
    (void)state;
    /* audiocraft_plus's predict calling MusicGen (GrandaddyShmax/
     * audiocraft_plus#16 = heldout74 h74-11, there over a TypeError;
     * facebookresearch/audiocraft audiocraft/models/genmodel.py
     * generate_continuation) */
    assert_string_equal(primary_stage("  File \"/app/launch.py\", line 156, in predict\n"
                                      "    next_segment = MODEL.generate_continuation(last_chunk,\n"
                                      "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate "
                                      "20.00 MiB (GPU 0; 23.69 GiB total capacity)\n"),
                        "generate");
    /* guard: another object keeps "generate" from naming generation
     * (whisper-diarization's generate_emissions aligns by a forward pass,
     * h18-51) */
    assert_string_not_equal(primary_stage("  File \"/app/launch.py\", line 156, in predict\n"
                                          "    emissions, stride = generate_emissions(last_chunk,\n"
                                          "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to "
                                          "allocate 20.00 MiB (GPU 0; 23.69 GiB total capacity)\n"),
                            "generate");
}

/* ONNX Runtime's line naming the node it ran is its message however it is
 * indented: the tail of a paste cut inside it names forward. */
static void test_ort_node_line_indented(void **state)
{
    (void)state;
    /* a Rust tool's anyhow chain under a title that names the arena's
     * failure (lightonai/next-plaid#6 = heldout74 h74-56) */
    const char *head = "colgrep init: BFCArena GPU memory allocation failure on 8GB VRAM\n\n"
                       "## Reproduction\n\n"
                       "```bash\n"
                       "export PATH=/usr/local/cuda-12.6/bin:$PATH\n"
                       "rm -rf ~/.local/share/colgrep ~/.cache/colgrep\n"
                       "cd /path/to/project\n"
                       "colgrep init\n"
                       "```\n\n"
                       "## Error Output\n\n"
                       "```\n"
                       "Building index...\n"
                       "Error: Failed to encode documents\n\n"
                       "Caused by:\n";
    char log[1024];
    snprintf(log, sizeof log, "%s%s", head,
             "    Non-zero status code returned while running Add node.\n"
             "    Name:'/bert/layers.0/attn/Add_2'\n"
             "    Status Message: /onnxr\n");
    assert_string_equal(primary_stage(log), "forward");
    /* guard: a cause that names no node is no forward */
    snprintf(log, sizeof log, "%s%s", head,
             "    Failed to run the session.\n"
             "    Status Message: /onnxr\n");
    assert_string_not_equal(primary_stage(log), "forward");
}

/* lmdeploy's log line naming the engine it is about to build is the
 * engine's start-up: a paste cut after it fails loading. */
static void test_lmdeploy_engine_input_line(void **state)
{
    (void)state;
    /* InternLM/lmdeploy#1704 = heldout74 h74-46 (the error itself cut) */
    assert_string_equal(
        primary_stage("[Bug] torch.cuda.OutOfMemoryError when loading the 4 Bit InternVL model\n\n"
                      "2024-06-03 19:48:52,498 - lmdeploy - INFO - Using turbomind engine\n"
                      "2024-06-03 19:50:41,669 - lmdeploy - INFO - input backend=turbomind, "
                      "backend_config=TurbomindEngineConfig(model_name=None, model_format='awq', tp=1, "
                      "session_len=None, max_batch_size=128, cache_max_entry_count=0.8)\n"
                      "2024-06-03 19:50:41,669 - lmdeploy - INFO - input chat_template_config=None\n"
                      "2024-06-03 19:50:41,669 - lmdeploy - INFO - matched chat template name: "
                      "internvl-internlm2\n"
                      "2024-06-03 19:5\n"),
        "load");
    /* guard: the user's script naming the engine's config is no log line
     * (heldout52 h52-39, heldout53 h53-35: no stage) */
    assert_string_equal(
        primary_stage("[Bug] torch.cuda.OutOfMemoryError when loading the 4 Bit InternVL model\n\n"
                      "```python\n"
                      "from lmdeploy import pipeline, TurbomindEngineConfig\n"
                      "pipe = pipeline(model_path, backend_config=TurbomindEngineConfig(session_len=8192))\n"
                      "```\n"),
        "unknown");
}

/* The failing frame quantises a model: its math is no forward
 * (quantisation is none of the stages). */
static void test_quantize_frame_math(void **state)
{
    (void)state;
    const char *tail = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 10.56 GiB. GPU 0 has a "
                       "total capacity of 31.75 GiB of which 3.81 GiB is free.\n";
    char log[1024];
    /* GPTQ's Hessian factorised in fasterquant (ModelCloud/GPTQModel#383 =
     * heldout74 h74-55; IST-DASLab/gptq gptq.py) */
    snprintf(log, sizeof log, "%s%s",
             "Traceback (most recent call last):\n"
             "  File \"/w/example.py\", line 57, in main\n"
             "    model.quantize(calibration_dataset)\n"
             "  File \"/w/gptqmodel/quantization/gptq.py\", line 122, in fasterquant\n"
             "    H = torch.linalg.cholesky(H)\n",
             tail);
    assert_string_equal(primary_stage(log), "unknown");
    /* guards: the same math in a layer's forward, and in bitsandbytes'
     * dequantisation inside a forward */
    snprintf(log, sizeof log, "%s%s",
             "Traceback (most recent call last):\n"
             "  File \"/w/model.py\", line 122, in solve\n"
             "    H = torch.linalg.cholesky(H)\n",
             tail);
    assert_string_equal(primary_stage(log), "forward");
    snprintf(log, sizeof log, "%s%s",
             "Traceback (most recent call last):\n"
             "  File \"/w/bitsandbytes/functional.py\", line 1004, in dequantize_4bit\n"
             "    out = torch.empty(quant_state.shape, dtype=quant_state.dtype)\n"
             "  File \"/w/bitsandbytes/functional.py\", line 1010, in dequantize_blockwise\n"
             "    H = torch.matmul(A, B)\n",
             tail);
    assert_string_equal(primary_stage(log), "forward");
}

/* transformers refusing a quantised model whose device map spills off
 * the GPU is a capacity refusal at load. */
static void test_device_map_refusal(void **state)
{
    (void)state;
    /* the message as raised (unslothai/unsloth#1629; Nojahhh/
     * ComfyUI_GLM4_Wrapper#3 = heldout74 h74-53) */
    const char *msg = "ValueError: Some modules are dispatched on the CPU or the disk. Make sure you have enough GPU "
                      "RAM to fit the quantized model. If you want to dispatch the model on the CPU or the disk while "
                      "keeping these modules in 32-bit, you need to set `llm_int8_enable_fp32_cpu_offload=True` and "
                      "pass a custom `device_map` to `from_pretrained`.\n";
    assert_true(has_kind(msg, "device-map-refusal"));
    assert_string_equal(primary_stage(msg), "load");
    /* the older wrapped form (bitsandbytes-foundation/bitsandbytes#881) */
    assert_true(has_kind("ValueError: \n"
                         "                        Some modules are dispatched on the CPU or the disk. Make sure you "
                         "have enough GPU RAM to fit\n"
                         "                        the quantized model.\n",
                         "device-map-refusal"));
    /* guard: a person saying the GPU has room */
    expect_no_gpu_oom("I am sure I have enough GPU RAM to fit the quantized model, it is only 7B.\n");
}

/* An issue template's ticked checkbox is no documentation page: the
 * report's own OOM stands. */
static void test_template_checkbox(void **state)
{
    (void)state;
    /* vLLM's usage template (vllm-project/vllm#18550 = heldout74 h74-58) */
    struct oom_report rep;
    scan_log("[Usage]: qwen2.5vl multi images inference meets OOM\n\n"
             "### How would you like to use vllm\n\n"
             "I want to run inference of Qwen2.5-VL-72B-Instruct-AWQ with multi images.\n\n"
             "### Before submitting a new issue...\n\n"
             "- [x] Make sure you already searched for relevant issues, and asked the chatbot living at the "
             "bottom right corner of the [documentation page](https://docs.vllm.ai/en/latest/), which can "
             "answer lots of frequently asked questions.\n",
             &rep);
    assert_true(rep.primary >= 0);
    oom_report_release(&rep);
    /* guard: a pull request's template box still names a change (heldout29
     * h29-95): its OOM words are a change's, no report */
    expect_no_gpu_oom("Fix CUDA out of memory in act()\n\n"
                      "- [x] Only one issue is addressed in this pull request\n"
                      "- [x] Labels from the issue that this PR is fixing are added to this pull request\n");
    /* guard: PyTorch's FAQ page itself still fails nothing (heldout20
     * h20-44's reading) */
    expect_no_gpu_oom("Frequently Asked Questions\n\n"
                      "My model reports \"cuda runtime error(2): out of memory\"\n"
                      "As the error message suggests, you have run out of memory on your GPU. Here are a few "
                      "common things to check:\n");
}

/* A frame named for getting a video's frame reads the input: data. */
static void test_get_frame_is_data(void **state)
{
    (void)state;
    const unsigned data = 1u << OOM_STAGE_DATA;
    /* the VideoReader in CodeFormer's basicsr copy (sczhou/CodeFormer#428 =
     * heldout74 h74-25); moviepy's Clip.get_frame */
    const char *f = "  File \"H:\\CodeFormer\\basicsr\\utils\\video_util.py\", line 81, in get_frame\n";
    assert_true(stage_frame_bits(f, strlen(f)) & data);
    f = "  File \"/x/moviepy/Clip.py\", line 93, in get_frames\n";
    assert_true(stage_frame_bits(f, strlen(f)) & data);
    /* guards: another last part, another first verb, another noun */
    f = "  File \"/x/video_util.py\", line 67, in get_frame_from_stream\n";
    assert_false(stage_frame_bits(f, strlen(f)) & data);
    f = "  File \"/x/pipeline.py\", line 67, in generate_frame\n";
    assert_false(stage_frame_bits(f, strlen(f)) & data);
    f = "  File \"/x/train.py\", line 67, in get_keyframe\n";
    assert_false(stage_frame_bits(f, strlen(f)) & data);
}

/* MNN's executions name their backend: the CUDA one's acquire failure is
 * device memory, the CPU one's the host's. */
static void test_mnn_acquire(void **state)
{
    (void)state;
    /* wangzhaode/mnn-llm#25 = heldout74 h74-51: a host kill while loading
     * told in prose, then the CUDA backend's lines */
    const char *log = "16G + 3060 6G Laptop, out of memory.\n\n"
                      "\xe5\x8a\xa0\xe8\xbd\xbd\xe6\xa8\xa1\xe5\x9e\x8b\xe6\x97\xb6\xe5\x86\x85\xe5"
                      "\xad\x98\xe7\x88\x86\xe4\xba\x86\xef\xbc\x8c\xe7\xa8\x8b\xe5\xba\x8f"
                      "killed\n\n" /* 加载模型时内存爆了，程序killed */
                      "Out of memory when gamma is acquired in CudaLayerNorm. \n"
                      "Out of memory when beta is acquired in CudaLayerNorm. \n"
                      "Can't run session because not resized  \n"
                      "Segmentation fault \n";
    assert_true(has_kind(log, "mnn"));
    struct oom_report rep;
    scan_log(log, &rep);
    assert_true(rep.primary >= 0);
    oom_report_release(&rep);
    /* guard: the CPU backend's form is host memory */
    const char *cpu = "Out of memory when gamma is acquired in CPULayerNorm.\n";
    assert_true(has_kind(cpu, "host-cpu-alloc"));
    expect_no_gpu_oom(cpu);
}

/* TVM's statically planned storage region overrun is a look-alike whose
 * request is read. */
static void test_tvm_storage_region(void **state)
{
    (void)state;
    /* mlc-ai/mlc-llm#860 = heldout74 h74-18; #1327's figures below */
    const char *log = "[05:04:00] /x/mlc-llm/3rdparty/tvm/src/runtime/relax_vm/memory_manager.cc:115: InternalError: "
                      "Check failed: (offset + needed_size <= this->buffer.size) is false: storage allocation "
                      "failure, attempted to allocate 221184 at offset 0 in region that is 163840bytes\n"
                      "Stack trace:\n";
    struct oom_report rep;
    scan_log(log, &rep);
    assert_true(rep.primary < 0);
    assert_true(rep.n_events >= 1);
    assert_string_equal(rep.events[0].kind, "tvm-storage-region");
    assert_true(rep.events[0].bytes.requested == 221184);
    oom_report_release(&rep);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_go_disk_full),
        cmocka_unit_test(test_not_running_out),
        cmocka_unit_test(test_oom_kill_is_host),
        cmocka_unit_test(test_generate_continuation),
        cmocka_unit_test(test_ort_node_line_indented),
        cmocka_unit_test(test_lmdeploy_engine_input_line),
        cmocka_unit_test(test_quantize_frame_math),
        cmocka_unit_test(test_device_map_refusal),
        cmocka_unit_test(test_template_checkbox),
        cmocka_unit_test(test_get_frame_is_data),
        cmocka_unit_test(test_mnn_acquire),
        cmocka_unit_test(test_tvm_storage_region),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
