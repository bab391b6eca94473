/* diagnose names no stage from weak evidence (issue 12, helper diagover):
 * rows of the seen sets whose labeller wrote stage "unknown" and where
 * diagnose named one from a launch command, an issue's title or other
 * words that do not show where the memory ran out. Each case is cut from
 * the thread named beside it (the corpus row in brackets); each assertion
 * failed on the code before its change (main 324e7b65). */
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

/* The launch command's script ("python .../inference_sr.py", "torchrun
 * .../inference.py", "python generate.py --task t2v-14B") names what the
 * run is for, not where it ran out: it loads its model first. */
static void test_launch_command_names_no_stage(void **state)
{
    (void)state;
    /* NJU-PCALab/STAR#30 (corpus-heldout28 h28-44): the command below the error */
    assert_string_equal(stage_of("OOM even there is 79.14 GiB video memory\n"
                                 "\n"
                                 "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 40.36 GiB "
                                 "(GPU 0; 79.14 GiB total capacity; 54.44 GiB already allocated; 23.24 GiB free; "
                                 "55.39 GiB reserved in total by PyTorch)\n"
                                 "\n"
                                 "I use A800 to infer, before start the script, there is no other process use "
                                 "video memory\n"
                                 "\n"
                                 "```shell\n"
                                 "python video_super_resolution/scripts/inference_sr.py \\\n"
                                 "--solver_mode fast \\\n"
                                 "--steps 15 \\\n"
                                 "```\n"),
                        "unknown");
    /* hpcaitech/Open-Sora#852 (corpus-heldout33 h33-47): the command above it */
    assert_string_equal(stage_of("8-card 4090 24G running open-sora-v2 CUDA out of memory\n"
                                 "\n"
                                 "My environment is an 8-card 4090 server, each with 24GB of video memory, using "
                                 "commands\n"
                                 "**torchrun --nproc_per_node 8 /opt/opensora/Open-Sora/scripts/diffusion/"
                                 "inference.py /opt/opensora/Open-Sora/configs/diffusion/inference/t2i2v_768px.py "
                                 "--batch-size 2 --resolution 240p**\n"
                                 "Running prompt error:\n"
                                 "[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. "
                                 "GPU 3 has a total capacity of 23.64 GiB of which 16.50 MiB is free.\n"),
                        "unknown");
    /* bytedance/UNO#46 (corpus-heldout42 h42-81): a command quoted in prose */
    assert_string_equal(stage_of("CUDA out of memory\n"
                                 "\n"
                                 "Hello. I have a question regarding running an inference using the command:\n"
                                 "`python inference.py --prompt \"A clock on the beach is under a red sun umbrella\" "
                                 "--image_paths \"assets/clock.png\" --width 704 --height 704`.\n"
                                 "\n"
                                 "I am currently using a 3090Ti with 24GB of VRAM, but I am encountering an "
                                 "out-of-memory error.\n"),
                        "unknown");
}

/* The tool's own lines by general words (the weakest evidence) are
 * lines the tool printed: not a command the user typed, a question, or a
 * numbered step of a bug template. */
static void test_typed_lines_are_no_tool_lines(void **state)
{
    (void)state;
    /* mit-han-lab/spvnas#108 (corpus-heldout28 h28-97): the command run */
    assert_string_equal(stage_of("evaluate.py running out of memory because there is no no_grad modifier\n"
                                 "\n"
                                 "When I run\n"
                                 "```bash\n"
                                 "python evaluate.py configs/semantic_kitti/default.yaml --name "
                                 "SemanticKITTI_val_SPVCNN@119GMACs\n"
                                 "```\n"
                                 "\n"
                                 "I get the distributed init error because it is not run using torchpack unlike the "
                                 "train script\n"
                                 "On fixing that, there is a CUDA out of memory error because there is not no_grad "
                                 "decorator arround the inference script\n"),
                        "unknown");
    /* AUTOMATIC1111/stable-diffusion-webui#11960 (corpus-heldout25 h25-04): steps to reproduce */
    assert_string_equal(stage_of("[Bug]: HiRes - CUDA out of memory (this is new - worked yesterday)\n"
                                 "\n"
                                 "### Steps to reproduce the problem\n"
                                 "\n"
                                 "1. Start WebUI\n"
                                 "3. Batch size: 8, HiRes enabled, upscaler: R-ERSGAN 4x+, upscale by factor of 2\n"
                                 "4. Press Generate\n"),
                        "unknown");
    /* evalplus/evalplus#33 (corpus-heldout36 h36-101): a question above the paste */
    assert_string_equal(stage_of("Nondzu \xc2\xb7 comment \xc2\xb7 2023-10-21\n"
                                 "@ganler  Anyway, is it possible run evalplus on multigpu machine ?\n"
                                 "\n"
                                 "Nondzu \xc2\xb7 comment \xc2\xb7 2023-10-21\n"
                                 "```\n"
                                 "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 688.00 MiB. GPU 0 "
                                 "has a total capacty of 79.15 GiB of which 54.62 MiB is free.\n"
                                 "```\n"),
                        "unknown");
    /* Janspiry/Image-Super-Resolution-via-Iterative-Refinement#25 (corpus-heldout40 h40-16) */
    assert_string_equal(stage_of("cuda out of memory\n"
                                 "\n"
                                 "and then generate following code that python sr.py -p train -c "
                                 "config/sr_sr3_64_512.json\n"
                                 "\n"
                                 "but i got this error code that cuda out of memory.\n"),
                        "unknown");
    /* the tool's own lines still count (as h23-31's "Testing 0 input") */
    assert_string_equal(stage_of("INFO: Generating video ...\n"
                                 "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n"),
                        "generate");
}

/* An OOM named in words on the paste's title: the phase the title names
 * is the reporter's summary (title-or-prose-phase-no-stage). */
static void test_title_words_name_no_stage(void **state)
{
    (void)state;
    /* lllyasviel/FramePack#25 (corpus-heldout29 h29-41) */
    assert_string_equal(stage_of("OOM at VAE decode\n"
                                 "\n"
                                 "Hey is there a way to enable tiled vae decode manually?\n"),
                        "unknown");
    /* huggingface/accelerate#3182 (corpus-heldout28 h28-96) */
    assert_string_equal(stage_of("accelerator.prepare() get OOM,but available in single GPU\n"
                                 "\n"
                                 "### System Info\n"),
                        "unknown");
    /* mit-han-lab/spvnas#108 (corpus-heldout28 h28-97), cut after its command */
    assert_string_equal(stage_of("evaluate.py running out of memory because there is no no_grad modifier\n"
                                 "\n"
                                 "When I run\n"
                                 "```bash\n"
                                 "python evaluate.py configs/semantic_kitti/default.yaml\n"
                                 "```\n"),
                        "unknown");
    /* huggingface/transformers#7232 (corpus-heldout25 h25-86): a title a
     * message rule reads (not only the prose pass) */
    assert_string_equal(stage_of("trainer.evaluate() aggregates predictions on GPU and causes CUDA out of memory "
                                 "issues for large datasets\n"
                                 "\n"
                                 "1. Use the Trainer for evaluation (`.evaluate()`, `.predict()`) on the GPU with "
                                 "BERT with a large evaluation DataSet\n"),
                        "unknown");
    /* a log that starts with its own error (no blank line below it) is no
     * title: GanjinZero/RRHF#30 (corpus-heldout4 k03) stays checkpoint */
    assert_string_equal(stage_of("`UserWarning: Failed to clone() tensor with name lm_head.weight. This may mean "
                                 "that this state_dict entry could point to invalid memory regions after returning "
                                 "from state_dict() call if this parameter is managed by FSDP. Please check clone "
                                 "implementation of lm_head.weight. Error: CUDA out of memory.\n"),
                        "checkpoint");
    /* a message a log line states on the first line keeps its own words
     * ("Error while evaluating MSMARCO: CUDA out of memory", h30-119) */
    assert_string_equal(stage_of("Error while evaluating MSMARCO: CUDA out of memory. Tried to allocate 2.00 GiB\n"),
                        "eval");
}

/* The paste's last activity (read when nothing leads to the message) is
 * the run's: not a reply in the first or second person. */
static void test_replies_are_no_last_activity(void **state)
{
    (void)state;
    /* RuolinZheng08/twewy-discord-chatbot#16 (corpus-heldout36 h36-80) */
    assert_string_equal(stage_of("Out of memory on CUDA\n"
                                 "\n"
                                 "I already tried to reduce my batch to 1, and I am looking for help on how to run it "
                                 "better, my GPU has 6 GB of dedicated VRAM, and still is out of memory, maybe I need "
                                 "to reduce my sample?\n"
                                 "\n"
                                 "jdakillah \xc2\xb7 comment \xc2\xb7 2023-01-16\n"
                                 "You can try to use google colab for generating the model, then afterwards you can "
                                 "copy the files to your server of Huggingface instance.\n"
                                 "\n"
                                 "Spit-fires \xc2\xb7 comment \xc2\xb7 2023-04-14\n"
                                 "Use a lower batch size in args()\n"),
                        "unknown");
    /* antgroup/echomimic#139 (corpus-heldout39 h39-94): a reply's last line */
    assert_string_equal(stage_of("CUDA out of memory\n"
                                 "\n"
                                 "nitinmukesh \xc2\xb7 comment \xc2\xb7 2024-09-07\n"
                                 "Echomimic is guaranteed working fine with RTX 4060 with 8 GB VRAM + 8 GB shared RAM. "
                                 "I am regularly generating between 30 - 55 seconds without any issues.\n"),
                        "unknown");
    /* rosinality/style-based-gan-pytorch#10 (corpus-heldout28 h28-08): the
     * reporter's sentences right below the title */
    assert_string_equal(stage_of("CUDA out of memory in generate, even with 1 image\n"
                                 "\n"
                                 "Before I start, Huge thank you for the pre trained models;\n"
                                 "but generating is problematic. Each time I try to run the code this happens:"
                                 "[output](https://pastebin.com/keRn13KQ)\n"
                                 "Surprisingly enough, training works perfectly fine.\n"),
                        "unknown");
    /* cubist38/mlx-openai-server#188 (corpus-heldout43 h43-21), whole: the
     * paste ends in the user's curl request */
    assert_string_equal(stage_of(
                                 "Metal resource limit (499000) exceeded with large prompts - needs mx.clear_cache()\n"
                                 "\n"
                                 "## Environment\n"
                                 "- **macOS**: Darwin 25.1.0 (macOS Sequoia)\n"
                                 "- **Chip**: Apple M4 Max\n"
                                 "- **Unified Memory**: 128GB\n"
                                 "- **mlx-openai-server version**: 1.5.1\n"
                                 "- **MLX version**: 0.30.4\n"
                                 "- **Python**: 3.12.12\n"
                                 "- **Model**: mlx-community/GLM-4.7-Flash-4bit (~20GB)\n"
                                 "\n"
                                 "## Problem Summary\n"
                                 "When processing requests with large prompts (2-5KB text, such as full email content for classification), the server fails with `[metal::malloc] Resource limit (499000) exceeded` even with `--max-concurrency 1`. Small prompts work indefinitely.\n"
                                 "\n"
                                 "## Device Info\n"
                                 "```python\n"
                                 ">>> import mlx.core as mx\n"
                                 ">>> mx.metal.device_info()\n"
                                 "{\n"
                                 "    'device_name': 'Apple M4 Max',\n"
                                 "    'max_recommended_working_set_size': 115448725504,\n"
                                 "    'memory_size': 137438953472,\n"
                                 "    'architecture': 'applegpu_g16s',\n"
                                 "    'max_buffer_length': 86586540032,\n"
                                 "    'resource_limit': 499000  # <-- This is the limit being hit\n"
                                 "}\n"
                                 "```\n"
                                 "\n"
                                 "## Detailed Reproduction Steps\n"
                                 "\n"
                                 "### 1. Start the server\n"
                                 "```bash\n"
                                 "mlx-openai-server launch \\\n"
                                 "  --model-path mlx-community/GLM-4.7-Flash-4bit \\\n"
                                 "  --max-concurrency 1 \\\n"
                                 "  --reasoning-parser glm47_flash\n"
                                 "```\n"
                                 "\n"
                                 "### 2. Small prompts work fine (can run hundreds)\n"
                                 "```bash\n"
                                 "# This works indefinitely\n"
                                 "curl -s http://localhost:8000/v1/chat/completions \\\n"
                                 "  -H \"Content-Type: application/json\" \\\n"
                                 "  -d '{\"model\":\"test\",\"messages\":[{\"role\":\"user\",\"content\":\"Say OK\"}],\"max_t\n"),
                        "unknown");
    /* edwko/OuteTTS#54 (corpus-heldout42 h42-95), whole: ... and in the
     * maintainer's example code */
    assert_string_equal(stage_of(
                                 "What is the minimum size of the GPU memory?\n"
                                 "\n"
                                 "Hello Guys,\n"
                                 "\n"
                                 "I encountered an issue while attempting to create a speaker with a custom voice. The system indicated that the GPU was out of memory. My graphics card has 8GB of memory. Could you please inform me of the minimum GPU memory required to successfully run this operation?\n"
                                 "\n"
                                 "Thank you.\n"
                                 "\n"
                                 "edwko \302\267 comment \302\267 2025-01-20\n"
                                 "When you create a speaker and don\342\200\231t provide a transcription, it uses Whisper Turbo by default to transcribe the text. It seems that you ran out of memory because of Whisper. To fix this, you can either manually provide the transcription or use a smaller Whisper model, but keep in mind that smaller model might reduce transcription accuracy.\n"
                                 "\n"
                                 "Check out the docs for more details: https://github.com/edwko/OuteTTS/blob/main/docs/interface_v2_usage.md#speaker-creation-and-management\n"
                                 "\n"
                                 "```python\n"
                                 "speaker = interface.create_speaker(\n"
                                 "    audio_path=\"path/to/audio/file.wav\",\n"
                                 "\n"
                                 "    # If transcript is not provided, it will be automatically transcribed using Whisper\n"
                                 "    transcript=None,            # Set to None to use Whisper for transcription\n"
                                 "\n"
                                 "    whisper_model=\"turbo\",      # Optional: specify Whisper model (default: \"turbo\")\n"
                                 "    whisper_device=None,        # Optional: specify device for Whisper (default: None)\n"
                                 ")\n"
                                 "```\n"),
                        "unknown");
    /* a logger's level before a date is no first person: NeMo's own
     * line stays the last activity (corpus-heldout20 h20-91's shape) */
    assert_string_equal(stage_of("CUDA out of memory\n"
                                 "\n"
                                 "[NeMo I 2023-08-13 18:24:02 clustering_diarizer:343] Extracting embeddings for "
                                 "Diarization\n"),
                        "forward");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_launch_command_names_no_stage),
        cmocka_unit_test(test_typed_lines_are_no_tool_lines),
        cmocka_unit_test(test_title_words_name_no_stage),
        cmocka_unit_test(test_replies_are_no_last_activity),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
