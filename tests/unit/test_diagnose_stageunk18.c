/* Unit tests for helper stageunk's round-18 stage mechanisms (issue 12).
 * Frames that AUTOMATIC1111's "Sysinfo" JSON keeps as string pairs
 * ("path, line N, name" and the code line, JSON's doubled backslashes),
 * read as Python's frames (stage_unjson). The pastes are written here in
 * our own words, in the shape the web UI dumps (its modules/errors.py
 * format_traceback and modules/sysinfo.py json.dumps(indent=4); seen in
 * AUTOMATIC1111/stable-diffusion-webui#13906 and #16461 = heldout13 h13-51). */
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

static const char *unjson(const char *in)
{
    static char buf[1024];
    size_t n = strlen(in);
    assert_true(n < sizeof buf);
    memcpy(buf, in, n + 1);
    n = stage_unjson(buf, n, sizeof buf);
    buf[n] = '\0';
    return buf;
}

static void test_unjson_rewrites_a_frame_string(void **state)
{
    (void)state;
    /* indented, a comma after it, JSON's escaped backslashes */
    assert_string_equal(unjson("                    \"C:\\\\ui\\\\repositories\\\\k-diffusion\\\\k_diffusion\\\\"
                               "sampling.py, line 594, sample_dpmpp_2m\","),
                        "File \"C:\\ui\\repositories\\k-diffusion\\k_diffusion\\sampling.py\", line 594, in "
                        "sample_dpmpp_2m");
    /* the last pair of a list: no comma; a POSIX path; "<module>" */
    assert_string_equal(unjson("  \"/srv/ui/launch.py, line 48, <module>\""),
                        "File \"/srv/ui/launch.py\", line 48, in <module>");
    /* guards: a key and value, a code string, prose with a comma and a
     * number, Python's own header, an unquoted line stay as they are */
    static const char *const same[] = {
        "    \"exception\": \"CUDA out of memory, line 3, x\",",
        "    \"denoised = model(x, sigmas[i] * s_in, **extra_args)\"",
        "    \"it fails at step 12, line 4, sometimes\",",
        "  File \"/srv/ui/launch.py\", line 48, in <module>",
        "    /srv/ui/launch.py, line 48, main",
        "    \", line 48, main\",",
    };
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) assert_string_equal(unjson(same[i]), same[i]);
}

/* A sysinfo record: the exception's text, then its frames outermost
 * first, the sampler's among them: generate, as the same frames printed
 * by Python would be. */
#define RECORD_HEAD                                                                                           \
    "    \"Exceptions\": [\n"                                                                                 \
    "        {\n"                                                                                             \
    "            \"exception\": \"CUDA out of memory. Tried to allocate 1.50 GiB (GPU 0; 8.00 GiB total "      \
    "capacity; 5.10 GiB already allocated; 0 bytes free; 6.90 GiB reserved in total by PyTorch)\",\n"         \
    "            \"traceback\": [\n"

static void test_sysinfo_frames_name_the_stage(void **state)
{
    (void)state;
    const char *sampler = RECORD_HEAD
        "                [\n"
        "                    \"D:\\\\ui\\\\modules\\\\processing.py, line 845, process_images_inner\",\n"
        "                    \"samples_ddim = p.sample(conditioning=p.c, unconditional_conditioning=p.uc)\"\n"
        "                ],\n"
        "                [\n"
        "                    \"D:\\\\ui\\\\repositories\\\\k-diffusion\\\\k_diffusion\\\\sampling.py, line 594, "
        "sample_dpmpp_2m\",\n"
        "                    \"denoised = model(x, sigmas[i] * s_in, **extra_args)\"\n"
        "                ],\n"
        "                [\n"
        "                    \"D:\\\\ui\\\\modules\\\\sd_samplers_cfg_denoiser.py, line 169, forward\",\n"
        "                    \"x_out = self.inner_model(x_in, sigma_in, cond=cond_in)\"\n"
        "                ]\n"
        "            ]\n"
        "        }\n"
        "    ],\n";
    assert_string_equal(stage_of(sampler), "generate");
    /* the message cut off, the title naming the OOM: the same frames */
    const char *titled = "# [Bug]: Out of VRAM since the update\n"
                         "                [\n"
                         "                    \"D:\\\\ui\\\\repositories\\\\k-diffusion\\\\k_diffusion\\\\sampling.py, "
                         "line 594, sample_dpmpp_2m\",\n"
                         "                    \"denoised = model(x, sigmas[i] * s_in, **extra_args)\"\n"
                         "                ],\n";
    assert_string_equal(shown_stage(titled), "generate");
    /* guard: a model being loaded in the same record shape is load */
    const char *loading = RECORD_HEAD
        "                [\n"
        "                    \"D:\\\\ui\\\\modules\\\\sd_models.py, line 870, reload_model_weights\",\n"
        "                    \"load_model(checkpoint_info, already_loaded_state_dict=state_dict)\"\n"
        "                ],\n"
        "                [\n"
        "                    \"D:\\\\ui\\\\venv\\\\lib\\\\site-packages\\\\torch\\\\nn\\\\modules\\\\module.py, line "
        "1145, to\",\n"
        "                    \"return self._apply(convert)\"\n"
        "                ]\n"
        "            ]\n"
        "        }\n"
        "    ],\n";
    assert_string_equal(stage_of(loading), "load");
    /* guard: JSON settings strings are no frames */
    const char *settings = RECORD_HEAD
        "            ]\n"
        "        }\n"
        "    ],\n"
        "    \"Config\": {\n"
        "        \"sd_model_checkpoint\": \"v1-5-pruned-emaonly.safetensors\",\n"
        "        \"sampler_name\": \"DPM++ 2M Karras\"\n"
        "    }\n";
    assert_string_equal(stage_of(settings), "unknown");
}

/* A sysinfo dump keeps up to five exception records, newest first, each
 * with its frames under its exception: the frames of another record, above
 * or below the OOM's, are not the OOM's (the walk back stops at a frame
 * string, as at a JVM frame; the walk forward at the next record's
 * "exception" key). d99fc917 read the other record's load frames for all
 * four. */
#define OOM_OPEN                                                                                              \
    "        {\n"                                                                                             \
    "            \"exception\": \"CUDA out of memory. Tried to allocate 1.50 GiB (GPU 0; 8.00 GiB total "      \
    "capacity; 5.10 GiB already allocated; 0 bytes free; 6.90 GiB reserved in total by PyTorch)\",\n"         \
    "            \"traceback\": [\n"
#define SAMPLER_FRAME                                                                                         \
    "                [\n"                                                                                     \
    "                    \"D:\\\\ui\\\\repositories\\\\k-diffusion\\\\k_diffusion\\\\sampling.py, line 594, "   \
    "sample_dpmpp_2m\",\n"                                                                                    \
    "                    \"denoised = model(x, sigmas[i] * s_in, **extra_args)\"\n"                           \
    "                ]\n"
#define OTHER_RECORD                                                                                          \
    "        {\n"                                                                                             \
    "            \"exception\": \"Expected all tensors to be on the same device\",\n"                         \
    "            \"traceback\": [\n"                                                                          \
    "                [\n"                                                                                     \
    "                    \"D:\\\\ui\\\\modules\\\\sd_models.py, line 870, reload_model_weights\",\n"          \
    "                    \"load_model(checkpoint_info, already_loaded_state_dict=state_dict)\"\n"             \
    "                ]\n"                                                                                     \
    "            ]\n"                                                                                         \
    "        }"
#define RECORD_CLOSE "            ]\n        }"
static void test_sysinfo_records_apart(void **state)
{
    (void)state;
    assert_string_equal(stage_of("    \"Exceptions\": [\n" OOM_OPEN SAMPLER_FRAME RECORD_CLOSE ",\n" OTHER_RECORD
                                 "\n    ],\n"),
                        "generate");
    assert_string_equal(stage_of("    \"Exceptions\": [\n" OTHER_RECORD ",\n" OOM_OPEN SAMPLER_FRAME RECORD_CLOSE
                                 "\n    ],\n"),
                        "generate");
    /* the OOM's own list empty: no frame of its own is shown */
    assert_string_equal(stage_of("    \"Exceptions\": [\n" OTHER_RECORD ",\n" OOM_OPEN RECORD_CLOSE "\n    ],\n"),
                        "unknown");
    assert_string_equal(stage_of("    \"Exceptions\": [\n" OOM_OPEN RECORD_CLOSE ",\n" OTHER_RECORD "\n    ],\n"),
                        "unknown");
}

/* vLLM's AsyncLLMEngine logs its request loop's exception line by line
 * under "async_llm_engine.py:N]" (_log_task_completion, "Engine background
 * task failed"; vllm-project/vllm#7019, #13682, #6976 = heldout50 h50-33).
 * A paste that starts inside that traceback, the loop's own frames cut,
 * still shows the tag: the request loop, generate. */
#define VTAG "ERROR 07-31 15:13:06 async_llm_engine.py:61] "
#define OTAG "ERROR 07-31 15:13:06 worker_base.py:61] "
static void test_engine_loop_tag_names_generate(void **state)
{
    (void)state;
    const char *tagged = "[Bug]: the server dies on long prompts\n"
        VTAG "  File \"/usr/lib/python3/site-packages/vllm/attention/layer.py\", line 89, in forward\n"
        VTAG "    return self.impl.forward(query, key, value, kv_cache, attn_metadata)\n"
        VTAG "  File \"/usr/lib/python3/site-packages/vllm/attention/backends/flash_attn.py\", line 339, in "
             "forward\n"
        VTAG "    out = flash_attn_varlen_func(q, k, v)\n"
        VTAG "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total "
             "capacity of 79.15 GiB of which 1.02 GiB is free.\n";
    assert_string_equal(stage_of(tagged), "generate");
    /* guard: the same frames under another logger's tag are a forward */
    const char *other = "[Bug]: the server dies on long prompts\n"
        OTAG "  File \"/usr/lib/python3/site-packages/vllm/attention/layer.py\", line 89, in forward\n"
        OTAG "    return self.impl.forward(query, key, value, kv_cache, attn_metadata)\n"
        OTAG "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total "
             "capacity of 79.15 GiB of which 1.02 GiB is free.\n";
    assert_string_equal(stage_of(other), "forward");
    /* guard: an inner frame that names another stage keeps it (a LoRA
     * adapter loaded for a request) */
    const char *inner = "[Bug]: the server dies on a LoRA request\n"
        VTAG "  File \"/usr/lib/python3/site-packages/vllm/lora/worker_manager.py\", line 94, in _load_adapter\n"
        VTAG "    lora = self._lora_model_cls.from_local_checkpoint(lora_path, device=\"cuda\")\n"
        VTAG "  File \"/usr/lib/python3/site-packages/torch/serialization.py\", line 1025, in load\n"
        VTAG "    return _load(opened_zipfile, map_location)\n"
        VTAG "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total "
             "capacity of 79.15 GiB of which 1.02 GiB is free.\n";
    assert_string_equal(stage_of(inner), "load");
    /* the tag read alone: the file's whole name, a line number and ']' */
    static const char *const no[] = {"ERROR 07-31 15:13:06 my_async_llm_engine.py:61] ",
                                     "ERROR 07-31 15:13:06 async_llm_engine.py: ", "INFO async_llm_engine.py:x] "};
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) assert_int_equal(stage_logger_bits(no[i], strlen(no[i])), 0);
    assert_int_equal(stage_logger_bits(VTAG, strlen(VTAG)), 1u << OOM_STAGE_GENERATE);
}

/* One table of logger file tags (stagetag.c) for both readings, one rule
 * for where a file's name starts: a '-' or '.' before the tag makes it the
 * end of another file's name ("my-async_llm_engine.py:61]" is not vLLM's;
 * the log-line reading said the same of "caffe-net.cpp:" already). Each
 * row is read where it was measured: Caffe's net.cpp on a log line,
 * vLLM's tag on a traceback's lines. */
static void test_logger_file_tags_one_table(void **state)
{
    (void)state;
    static const char *const not_vllm[] = {"ERROR 07-31 15:13:06 my-async_llm_engine.py:61] ",
                                           "ERROR 07-31 15:13:06 old.async_llm_engine.py:61] "};
    for (size_t i = 0; i < sizeof not_vllm / sizeof not_vllm[0]; i++)
        assert_int_equal(stage_logger_bits(not_vllm[i], strlen(not_vllm[i])), 0);
    const char *path = "ERROR 07-31 /vllm/engine/async_llm_engine.py:61] "; /* a path's '/' starts a name */
    assert_int_equal(stage_logger_bits(path, strlen(path)), 1u << OOM_STAGE_GENERATE);
    const char *glog = "I0601 10:12:32.332201  6292 net.cpp:219] conv1_2 does not need backward computation.";
    assert_int_equal(stage_glog_tag(glog, strlen(glog)), OOM_STAGE_LOAD);
    const char *other = "I0601 10:12:32.332201  6292 caffe-net.cpp:219] conv1_2 does not need backward computation.";
    assert_int_equal(stage_glog_tag(other, strlen(other)), OOM_STAGE_UNKNOWN);
    /* each row in its own reading */
    assert_int_equal(stage_logger_bits(glog, 41), 0);
    assert_int_equal(stage_glog_tag(VTAG "Engine background task failed", strlen(VTAG) + 29), OOM_STAGE_UNKNOWN);
}

/* Lightning runs its monitoring callbacks (EarlyStopping, Checkpoint) apart
 * at an epoch's end; a failure under that call, the callback's own frames
 * cut, is the checkpoint's save (pytorch/pytorch#145369 = heldout16
 * h16-31; Lightning-AI/pytorch-lightning#19674). */
#define FITLOOP                                                                                         \
    "Traceback (most recent call last):\n"                                                              \
    "  File \"/usr/lib/python3/site-packages/lightning/pytorch/loops/fit_loop.py\", line 206, in run\n"  \
    "    self.on_advance_end()\n"                                                                        \
    "  File \"/usr/lib/python3/site-packages/lightning/pytorch/loops/fit_loop.py\", line 378, in "        \
    "on_advance_end\n"
#define CALLPY                                                                                          \
    "  File \"/usr/lib/python3/site-packages/lightning/pytorch/trainer/call.py\", line 210, in "          \
    "_call_callback_hooks\n"                                                                           \
    "    fn(trainer, trainer.lightning_module, *args, **kwargs)\n"
#define OOM_NEW "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total " \
                "capacity of 79.15 GiB of which 1.02 GiB is free.\n"
static void test_monitoring_callbacks_save(void **state)
{
    (void)state;
    assert_string_equal(stage_of(FITLOOP
                                 "    call._call_callback_hooks(trainer, \"on_train_epoch_end\", monitoring_callbacks=True)\n"
                                 CALLPY OOM_NEW),
                        "checkpoint");
    /* guard: the other callbacks, called before the module's hook, save nothing by name */
    assert_string_equal(stage_of(FITLOOP
                                 "    call._call_callback_hooks(trainer, \"on_train_epoch_end\", monitoring_callbacks=False)\n"
                                 CALLPY OOM_NEW),
                        "unknown");
    /* guard: the keyword whole, not the end of another one's name */
    assert_string_equal(stage_of(FITLOOP
                                 "    call._call_callback_hooks(trainer, \"on_train_epoch_end\", skip_monitoring_callbacks=True)\n"
                                 CALLPY OOM_NEW),
                        "unknown");
    /* guard: a shown inner frame that names its stage keeps it (a
     * monitoring callback of the user's that runs the model) */
    assert_string_equal(stage_of(FITLOOP
                                 "    call._call_callback_hooks(trainer, \"on_validation_end\", monitoring_callbacks=True)\n"
                                 CALLPY
                                 "  File \"/srv/run/callbacks.py\", line 40, in on_validation_end\n"
                                 "    preds = pl_module.generate(batch[\"input_ids\"], max_new_tokens=64)\n" OOM_NEW),
                        "generate");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unjson_rewrites_a_frame_string),
        cmocka_unit_test(test_sysinfo_frames_name_the_stage),
        cmocka_unit_test(test_sysinfo_records_apart),
        cmocka_unit_test(test_engine_loop_tag_names_generate),
        cmocka_unit_test(test_logger_file_tags_one_table),
        cmocka_unit_test(test_monitoring_callbacks_save),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
