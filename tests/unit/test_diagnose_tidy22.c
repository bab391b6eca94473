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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shared_library_load_no_stage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
