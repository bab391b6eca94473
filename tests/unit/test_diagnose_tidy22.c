/* Unit tests for the review leftovers in diagnose's stage rules (helper
 * tidy22, nineteenth round). Each row names the public thread its line
 * comes from, or says it is written here; each assertion on a changed rule
 * failed on main b2a3e3cb. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "lib/oom.h"
#include "lib/scan.h"
#include "lib/stage.h"
#include "scan_fixture.h"

static const char oom_line[] =
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total "
    "capacity of 23.65 GiB of which 3.06 MiB is free.\n";

/* the stage diagnose names for an OOM right under `line` */
static const char *stage_under(const char *line)
{
    static char log[1024];
    snprintf(log, sizeof log, "%s\n%s", line, oom_line);
    return primary_stage(log);
}

struct line_case {
    const char *source;
    const char *line;
};

/* A start-up line that loads a shared library, or fails to, is the
 * program's environment, not a model being loaded: no stage from it, for
 * the verb reader (stage_verb_line) nor for diagnose with an OOM under it.
 * The first five named load before. */
static void test_shared_library_load_no_stage(void **state)
{
    (void)state;
    static const struct line_case env[] = {
        /* TensorFlow's dso_loader at import, glog prefix kept */
        {"pszemraj/vid2cleantxt:README.md (its console log)",
         "2021-03-09 22:07:21.289433: W tensorflow/stream_executor/platform/default/dso_loader.cc:60] "
         "Could not load dynamic library 'cudart64_110.dll'; dlerror: cudart64_110.dll not found"},
        {"review21's row (test_diagnose_open55), TensorFlow's line",
         "W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library "
         "'libnvinfer.so.7'"},
        /* bitsandbytes' CUDA set-up picking its binary at import */
        {"bitsandbytes-foundation/bitsandbytes#249",
         "CUDA SETUP: Loading binary D:\\! AI\\kohya_ss\\venv\\lib\\site-packages\\bitsandbytes\\"
         "libbitsandbytes_cuda116.dll..."},
        {"d8ahazard/sd_dreambooth_extension#1023",
         "CUDA SETUP: Loading binary /home/tiry/.local/lib/python3.10/site-packages/bitsandbytes/"
         "libbitsandbytes_cuda115_nocublaslt.so..."},
        /* JavaCPP's loader: a shared library's file as the object */
        {"bytedeco/javacpp-presets#1101", "Debug: Loading /usr/lib/x86_64-linux-gnu/libnvonnxparser.so.8"},
        /* already unknown; kept as rows of the same kind */
        {"bitsandbytes-foundation/bitsandbytes#1559",
         "Could not load bitsandbytes native library: /notebooks/bitsandbytes/bitsandbytes/"
         "libbitsandbytes_cpu.so: cannot open shared object file: No such file or directory"},
        {"microsoft/onnxruntime#8177",
         "ORT failure OrtSessionOptionsAppendExecutionProvider_Cuda: Failed to load shared library"},
        {"microsoft/onnxruntime#8052 (the message after its prefix)",
         "Failed to load library libonnxruntime_providers_shared.so with error: "
         "libonnxruntime_providers_shared.so: cannot open shared object file: No such file or directory"},
    };
    for (size_t k = 0; k < sizeof env / sizeof env[0]; k++) {
        bool done = false;
        if (stage_verb_line(env[k].line, strlen(env[k].line), &done) != OOM_STAGE_UNKNOWN)
            fail_msg("verb line: %s", env[k].source);
        if (strcmp(stage_under(env[k].line), "unknown")) fail_msg("diagnose: %s", env[k].source);
    }
    /* guards: a model's weights, a checkpoint's shards, a model file
     * whose name holds no shared-library ending still read as load */
    static const struct line_case loads[] = {
        {"huggingface/transformers' shard bar, written here", "Loading checkpoint shards:  50%"},
        {"written here", "Loading model weights from /models/llama-7b"},
        {"written here", "Loading model from ./ckpt/model.safetensors"},
        {"written here", "Loading the sonnet model"},
    };
    for (size_t k = 0; k < sizeof loads / sizeof loads[0]; k++) {
        bool done = false;
        if (stage_verb_line(loads[k].line, strlen(loads[k].line), &done) != OOM_STAGE_LOAD)
            fail_msg("verb line: %s: %s", loads[k].source, loads[k].line);
        if (strcmp(stage_under(loads[k].line), "load")) fail_msg("diagnose: %s", loads[k].line);
    }
}

/* The words a message line holds before its error name the action that
 * failed only when the verb after "failed to", "could not", "error
 * while"... is one of a run's stages (stage_failed_action's comment: load,
 * save, predict or inference, decode or generate, evaluate). A package
 * build, an import, a download, a type, a backend is no stage; the first
 * five below named one before (load, load, forward, load, forward). */
struct failed_case {
    const char *source;
    const char *text;
    enum oom_stage stage;
};

static void test_failed_action_names_stages_only(void **state)
{
    (void)state;
    static const struct failed_case rows[] = {
        /* no stage */
        {"pypa/pip:src/pip/_internal/commands/install.py (InstallationError)",
         "ERROR: Could not build wheels for flash-attn, which is required to install pyproject.toml-based projects",
         OOM_STAGE_UNKNOWN},
        {"pypa/pip's summary line, written here", "Failed to build flash-attn", OOM_STAGE_UNKNOWN},
        {"torch.tensor's RuntimeError, written here", "RuntimeError: Could not infer dtype of numpy.float32",
         OOM_STAGE_UNKNOWN},
        {"JAX's backend error, written here",
         "RuntimeError: Unable to initialize backend 'cuda': FAILED_PRECONDITION: No visible GPU devices.",
         OOM_STAGE_UNKNOWN},
        {"written here", "Failed to test connection", OOM_STAGE_UNKNOWN},
        {"camenduru/DeepFloyd-IF-colab#6",
         "RuntimeError: Failed to import transformers.models.t5.modeling_t5 because of the following error "
         "(look up to see its traceback):",
         OOM_STAGE_UNKNOWN},
        {"written here", "Failed to download model weights", OOM_STAGE_UNKNOWN},
        /* a stage: the verbs of the comment */
        {"sokrypton/ColabFold = heldout29 h29-39",
         "2022-07-18 12:38:21,607 Could not predict complexA. Not Enough GPU memory? RESOURCE_EXHAUSTED: ",
         OOM_STAGE_FORWARD},
        {"ShmuelRonen/ComfyUI-LatentSyncWrapper#128 = heldout42 h42-09",
         "2025-03-24T17:01:07.440479 - Error during inference: ", OOM_STAGE_FORWARD},
        {"written here", "Failed to load model: ", OOM_STAGE_LOAD},
        {"kijai/ComfyUI-SUPIR = heldout55 h55-74", "Failed to move model to device", OOM_STAGE_LOAD},
        {"written here", "Error while evaluating MSMARCO: ", OOM_STAGE_EVAL},
        {"written here", "Error while saving checkpoint: ", OOM_STAGE_CHECKPOINT},
        {"written here", "Error while decoding: ", OOM_STAGE_GENERATE},
        {"written here", "Failed to generate: ", OOM_STAGE_GENERATE},
    };
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++)
        if (stage_failed_action(rows[k].text, strlen(rows[k].text)) != rows[k].stage)
            fail_msg("%s: %s", rows[k].source, rows[k].text);
}

/* stage_phase_over: a line that says a phase of the run ended. Not an
 * install step that builds or sets up the environment, nor a clause that
 * says the phase did not end or only names when it would; each of these
 * said "over" before. */
static void test_phase_over_not_sentences(void **state)
{
    (void)state;
    static const struct line_case not_over[] = {
        /* pip's progress lines in an install log */
        {"tenstorrent/tt-exalens#530", "  Installing build dependencies ... done"},
        {"tenstorrent/tt-exalens#530", "  Getting requirements to build wheel ... done"},
        {"tenstorrent/tt-exalens#530", "  Building wheel for ttexalens (pyproject.toml) ... done"},
        /* apt-get's, written here */
        {"apt-get's progress line, written here", "Building dependency tree... Done"},
        /* StyleGAN2-ADA's custom op build (heldout52 h52-35) */
        {"heldout52 h52-35", "Setting up PyTorch plugin \"bias_act_plugin\"... Done."},
        /* a negation or a condition before the completion word */
        {"written here", "The evaluation never finished"},
        {"written here", "Eval loop did not complete"},
        {"written here", "Eval loop didn't complete"},
        {"written here", "Wait until the evaluation is done"},
        {"written here", "It crashes before the checkpoint save is complete"},
        /* an engine build is no phase (convention engine-build-no-stage,
         * tests/corpus/CONVENTIONS.md) */
        {"linghu8812/tensorrt_inference#155 = heldout39 h39-14", "build engine done"},
    };
    for (size_t k = 0; k < sizeof not_over / sizeof not_over[0]; k++)
        if (stage_phase_over(not_over[k].line, strlen(not_over[k].line)))
            fail_msg("%s: %s", not_over[k].source, not_over[k].line);
    /* guards: the seen corpora's phase endings stay over */
    static const struct line_case over[] = {
        {"heldout52 h52-50", "09:37:32 INFO | eval completed in 0.30s"},
        {"chuckcho/video-caffe#35 = heldout37 h37-39",
         "I0804 16:43:22.527248    95 net.cpp:274] Network initialization done."},
        {"ceccocats/tkDNN#143 = heldout48 h48-08",
         "TENSORRT LOG: Graph construction and optimization completed in 0.238891 seconds."},
        {"Vision-CAIR/MiniGPT-4#21 = heldout52 h52-76", "Loading VIT Done"},
        {"written here", "Evaluation done."},
    };
    for (size_t k = 0; k < sizeof over / sizeof over[0]; k++)
        if (!stage_phase_over(over[k].line, strlen(over[k].line))) fail_msg("%s: %s", over[k].source, over[k].line);
}

/* One builder writes Python's frame header for the JVM's frames
 * (stage_unjava) and for A1111's sysinfo JSON strings (stage_unjson); the
 * two rewrites read as before. Written here in the shape of each. */
static void test_one_frame_header_builder(void **state)
{
    (void)state;
    char buf[700];
    snprintf(buf, sizeof buf, "%s", "\tat org.deeplearning4j.nn.multilayer.MultiLayerNetwork$Inner.fit(MultiLayerNetwork.java:1633)");
    size_t n = stage_unjava(buf, strlen(buf), sizeof buf);
    buf[n] = '\0';
    assert_string_equal(buf, "File \"MultiLayerNetwork.java\", line 1633, in Inner.fit");
    snprintf(buf, sizeof buf, "%s", "\tat x.Nd4jCuda$NativeOps.exec(Native Method)");
    n = stage_unjava(buf, strlen(buf), sizeof buf);
    buf[n] = '\0';
    assert_string_equal(buf, "File \"Native Method\", line 0, in NativeOps.exec");
    snprintf(buf, sizeof buf, "%s", "            \"D:\\\\sd\\\\k_diffusion\\\\sampling.py, line 594, sample_dpmpp_2m\",");
    n = stage_unjson(buf, strlen(buf), sizeof buf);
    buf[n] = '\0';
    assert_string_equal(buf, "File \"D:\\sd\\k_diffusion\\sampling.py\", line 594, in sample_dpmpp_2m");
    /* the builder itself: no line number is "0"; too long for its buffer
     * or for cap leaves the line as it was */
    char line[64] = "unchanged";
    struct stage_frame_parts f = {.file = "a.py", .file_n = 4, .name = "f", .name_n = 1};
    n = stage_frame_header(line, 9, sizeof line, &f);
    line[n] = '\0';
    assert_string_equal(line, "File \"a.py\", line 0, in f");
    assert_int_equal(stage_frame_header(line, 9, 10, &f), 9);
    static char big[STAGE_FRAME_HEADER_MAX];
    memset(big, 'x', sizeof big);
    struct stage_frame_parts g = {.file = big, .file_n = sizeof big, .name = "f", .name_n = 1};
    assert_int_equal(stage_frame_header(line, 9, sizeof line, &g), 9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shared_library_load_no_stage),
        cmocka_unit_test(test_failed_action_names_stages_only),
        cmocka_unit_test(test_phase_over_not_sentences),
        cmocka_unit_test(test_one_frame_header_builder),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
