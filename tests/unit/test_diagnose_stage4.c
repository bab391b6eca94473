/* diagnose's stage on logs nobody here wrote: mechanisms that transfer
 * (issue 12, helper diagstage4). Each case is a real line from the public
 * thread named beside it; each assertion failed on the code before its
 * mechanism (face087). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "lib/scan.h"
#include "lib/stage.h"

static const char *stage_of(const char *log)
{
    static char name[32];
    struct oom_report rep;
    struct oomlab_err err = {{0}};
    assert_int_equal(scan_text(log, strlen(log), &rep, &err), 0);
    assert_true(rep.primary >= 0);
    snprintf(name, sizeof name, "%s", oom_stage_name(rep.events[rep.primary].stage));
    oom_report_release(&rep);
    return name;
}

/* What the application logged, in its own case: a whole word or phrase one
 * or two words into a logged message names the action; the same words in a
 * sentence of prose do not. */
static void test_logged_action_any_case(void **state)
{
    (void)state;
    /* huggingface/peft#335: loguru line from the app's savemodel() */
    assert_string_equal(stage_of("2023-04-18 20:39:29.054 | INFO     | __main__:savemodel:34 - Error saving model: "
                                 "CUDA out of memory. Tried to allocate 16.00 MiB (GPU 0; 10.00 GiB total capacity; "
                                 "9.03 GiB already allocated; 0 bytes free; 9.27 GiB reserved in total by PyTorch)\n"),
                        "checkpoint");
    /* lovecambi/qebrain#11 (corpus-heldout14 h14-37) */
    assert_string_equal(stage_of("### External evaluation, global step 0\n"
                                 "2019-02-12 17:16:07.529296: W tensorflow/core/common_runtime/bfc_allocator.cc:267] "
                                 "Allocator (GPU_0_bfc) ran out of memory trying to allocate 9.25GiB.  Current "
                                 "allocation summary follows.\n"),
                        "eval");
    /* prose is no log line: junzhezhang/shape-inversion#12 */
    assert_string_equal(stage_of("Hi, I've successfully run the training process, but encountered a problem during "
                                 "evaluation. I'm not sure if it is just because I don't have a large nough GPU.\n"
                                 "RuntimeError: CUDA out of memory. Tried to allocate 4.69 GiB (GPU 0; 11.77 GiB "
                                 "total capacity; 29.38 MiB already allocated; 3.85 GiB free; 40.00 MiB reserved in "
                                 "total by PyTorch)\n"),
                        "unknown");
}

/* A served request above the traceback: OpenAI-compatible routes generate
 * (QwenLM/Qwen#1250). */
static void test_served_route_is_generation(void **state)
{
    (void)state;
    assert_string_equal(stage_of("[BUG] <title>torch.cuda.OutOfMemoryError: CUDA out of memory.\n"
                                 "INFO:     10.0.93.12:49903 - \"POST /v1/chat/completions HTTP/1.1\" 500 Internal "
                                 "Server Error\n"
                                 "ERROR:    Exception in ASGI application\n"
                                 "Traceback (most recent call last):\n"
                                 "  File \"/usr/local/lib/python3.8/dist-packages/uvicorn/protocols/http/"
                                 "httptools_impl.py\", line 426, in run_asgi\n"
                                 "    result = await app(  # type: ignore[func-returns-value]\n"),
                        "generate");
}

/* mmcv's ProgressBar before its first task: no rate, only "elapsed"
 * (lhoyer/HRDA#27). */
static void test_test_bar_without_rate(void **state)
{
    (void)state;
    assert_string_equal(stage_of("CUDA out of memory upon the start of validation\n"
                                 "[                                                  ] 0/500, elapsed: 0s, "
                                 "ETA:Traceback (most recent call last):\n"
                                 "  File \"run_experiments.py\", line 116, in <module>\n"
                                 "    train.main([config_files[i]])\n"),
                        "eval");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_logged_action_any_case),
        cmocka_unit_test(test_served_route_is_generation),
        cmocka_unit_test(test_test_bar_without_rate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
