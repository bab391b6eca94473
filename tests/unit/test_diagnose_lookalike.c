/* Unit tests for lib/lookalike: more evidence that a paste's OOM words are
 * no failure of this run (a change about OOMs: a title behind tags or in a
 * change's words, a review bot's turn, a change's expected effect; Ray's
 * OOM errors: host memory), and the guards that keep real reports GPU OOMs.
 * Every line is real, from the public thread named beside it (diagprec,
 * issue 12). */
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
#include "lib/lookalike.h"
#include "lib/scan.h"

#include "call_fixture.h"

/* Changes about OOMs: no failure, no event. Each was called a GPU OOM
 * before lookalike.c (heldout26 h26-01, h26-46; heldout27 h27-69). */
static void test_lookalike_change(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        /* a pull request's title alone, a change's noun phrase */
        {"axolotl-ai-cloud/axolotl#925", "More hints on what to do with CUDA Out of memory errors\n", false},
        /* a change title and its expected effect */
        {"JuliaGPU/CUDA.jl#733",
         "Streamline use of retry_reclaim.\n"
         "\n"
         "Try to throw OutOfGPUMemoryError more often, and reuse the check macro. Should result in "
         "less confusing error messages as seen by @jonathan-laurent or in "
         "https://github.com/JuliaGPU/CUDA.jl/issues/706#issuecomment-778264044.\n",
         false},
        /* a conventional-commit title and a review bot's turn
         * (FLock-io/llm-loss-validator#82): test_diagnose_context.c's
         * test_context_review_bot */
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* Ray's OOM errors are its host-memory monitor's: device-less OOM words
 * beside them are not put on the GPU (heldout27 h27-79); a CUDA OOM that Ray
 * wraps in its task error stays a GPU OOM. */
static void test_lookalike_ray_host(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"verl-project/verl#6449",
         "GRPO Training Fails with OOM Errors Despite 8x80GB GPUs\n"
         "\n"
         "I\xe2\x80\x99m running a GRPO-based fine-tuning experiment using "
         "[Verl](https://github.com/volcengine/verl) and encountering persistent out-of-memory "
         "(OOM) errors, even with a small batch size. The setup uses 8 GPUs (80GB each), but "
         "training fails in two scenarios:\n"
         "\n"
         "1. Batch size > 2: Immediate Ray OOM errors.\n"
         "2. Batch size = 2: Training starts but crashes after ~1% progress with a Python fatal "
         "error (none_dealloc: deallocating None).\n",
         false},
        {"THUDM/slime#1951",
         "[Question] retool example: compute_log_probs(logits.clone(), tokens, tp_group) "
         "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 58.15 GiB.\n"
         "ray.exceptions.RayTaskError(OutOfMemoryError): ray::MegatronTrainRayActor.train() "
         "(pid=2025282, ip=10.252.197.29, actor_id=309d7b083d3cc636332c9bcb02000000)\n",
         true},
        /* pycuda's device failure is a MemoryError: not host memory
         * (NervanaSystems/deepspeech#13 = h18-02) */
        {"NervanaSystems/deepspeech#13",
         "Memory Error\n"
         "For any value of batch size I am getting the following error\n"
         "\n"
         "  pycuda._driver.MemoryError: cuMemAlloc failed: out of memory\n"
         "\n"
         "I am using a a core i7 laptop with 16 GB DDR4 and a NVIDIA GTX 960M GPU with 4 GB GDDR5.\n",
         true},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

static bool change_title(const char *title)
{
    struct context_reading r;
    context_read(title, strlen(title), true, &r);
    return r.change_title;
}

/* A title's tags: a change's tag is its title; behind other tags the
 * change-title rows read on; a report's tag keeps the title a report's. */
static void test_lookalike_title_tags(void **state)
{
    (void)state;
    /* vllm-project/vllm-omni#2739 (h27-125) */
    assert_true(change_title("[Bugfix] Honor --enable-cpu-offload and load text_encoder/VAE in "
                             "od_config.dtype in Flux2Pipeline\n"));
    /* dgrauet/ltx-2-mlx#25 (h29-79) */
    assert_true(change_title("(perf): VAE decode memory improvements\n"));
    /* vllm-project/vllm#8054 (h29-85): "Add" behind two tags */
    assert_true(change_title("[Hardware][Ascend] Add Ascend NPU backend\n"));
    /* EuroEval/EuroEval#973 (h27-70): an imperative outside context.c's verbs */
    assert_true(change_title("Set eval accumulation steps to avoid OOM when evaluating encoders\n"));
    /* reports: a report's tag, and titles of GPU OOMs (vllm-project/vllm#15598
     * = h6-28; deepspeedai/DeepSpeed's "[BUG] A Possible way to improve ZeRO"
     * = h29-33; EleutherAI's "Trainer runs out of memory ..." = h27-68) */
    assert_false(change_title("[Bug]:torch.OutOfMemoryError: CUDA out of memory. Tried to allocate "
                              "2.00 MiB. GPU 6 has a total capacity of 44.53 GiB of which 448.00 "
                              "KiB is free.\n"));
    assert_false(change_title("[BUG] A Possible way to improve ZeRO\n"));
    assert_false(change_title("Trainer runs out of memory when computing eval score\n"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lookalike_change),
        cmocka_unit_test(test_lookalike_ray_host),
        cmocka_unit_test(test_lookalike_title_tags),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
