/* Unit tests for diagcall5's mechanisms (issue 12): words about a GPU OOM
 * that a guard or a denial misread, message forms of other stacks and
 * number forms. Each paste is synthetic, written in the style of the
 * public threads named beside it; each case failed on 3468578f. */
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
#include "lib/scan.h"
#include "lib/steps.h"

#include "call_fixture.h"

/* A machine's specification lists its RAM beside its VRAM: the RAM is no
 * claim that host memory ran out (ostris/ai-toolkit#872, ollama/ollama#3711
 * titles). Host memory said to have run out still guards. */
static void test_call5_machine_spec(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"spec in parentheses", "Trainer OOM while quantising (24GB VRAM, 64GB RAM)\n\nloading...\n", true},
        {"spec with 'and'", "Out of memory on a box with 48 GB VRAM and 256 GB RAM\n", true},
        {"gpu memory sized", "OOM with 16GB GPU memory and 32GB RAM\n", true},
        {"host RAM ran out", "The job ran out of memory: 64GB RAM is not enough to load it\n", false},
        {"RAM alone", "OOM on my laptop with 16GB RAM\n", false},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* A device allocator's call written as two words: "Cuda malloc error",
 * "CUDA malloc fails" (ollama/ollama#8825, #3711 titles), as "cudaMalloc
 * failed" already was; an error of another kind after a colon is not. */
static void test_call5_device_malloc_words(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"two words", "Cuda malloc error\n\nllama_model_loader: - type q4_K:  385 tensors\n", true},
        {"fails", "HIP malloc fails when loading a 70B model on two cards\n", true},
        {"colon names another error", "Cuda malloc error: invalid argument\n", false},
        {"no device", "malloc error in the tokenizer\n", false},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* Block swap (musubi-tuner's --blocks_to_swap, WanVideoBlockSwap) moves
 * blocks off the GPU: "swap" there is no host swap space. */
static void test_call5_block_swap(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"swap blocks", "Getting OOM on the GPU server, so I tried to enable swap blocks 36\n", true},
        {"block swap", "The GPU runs out of memory even with block swap at 40\n", true},
        {"blocks to swap", "My 12GB GPU runs out of memory with 10 blocks to swap\n", true},
        {"host swap", "The GPU server ran out of memory while the box was deep in swap\n", false},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* A message retyped in lower case, its request glued to the parenthesis
 * (facebookresearch/detectron2-style paste): the request is read as with
 * PyTorch's own capital. */
static void test_call5_lowercase_clause(void **state)
{
    (void)state;
    struct oom_event e = primary("I got this problem `cuda out of memory, tried to allocate "
                                 "30MiB(GPU 0; 3.82GiB totalcapacity;2.71GiB already allocated; "
                                 "12.5MiB free;2.80 GiB reserved in total by Pytorch)`\n");
    assert_true(e.gpu_oom);
    assert_int_equal(e.bytes.requested, 30LL << 20);
    assert_int_equal(e.gpu, 0);
    assert_int_equal(e.bytes.free, 13107200LL);
}

/* TensorRT 8.0's tactic warning names its request in bytes: a look-alike
 * (the builder goes on) that carries it. */
static void test_call5_trt_tactic_request(void **state)
{
    (void)state;
    struct oom_event e = primary("[W] [TRT] Skipping tactic 3 due to insufficient memory on "
                                 "requested size of 4430970880 detected for tactic 4.\n");
    assert_false(e.gpu_oom);
    assert_int_equal(e.bytes.requested, 4430970880LL);
}

/* What did not happen ("instead of", "rather than") and what might ("a
 * risk of") within a few words before the OOM words deny them; after them,
 * or far before in the clause, they do not (learnables/learn2learn#432,
 * intel/torch-xpu-ops#3155 in style). */
static void test_call5_instead_and_risk(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"instead of", "On the GPU the driver dies with a device lost error instead of "
                       "gracefully raising an out-of-memory exception.\n", false},
        {"rather than", "The GPU hangs rather than reporting CUDA OOM\n", false},
        {"risk of", "This GPU training loop has a risk of out of memory\n", false},
        {"risks", "Keeping the graph risks running out of GPU memory\n", false},
        {"OOM instead of a result", "I get a CUDA out of memory error instead of the result\n", true},
        {"instead far before", "I used fp16 instead of fp32 and still get CUDA out of memory\n", true},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* The Lua VM's allocator error (LuaJIT's ERRMEM, "not enough memory",
 * after the interpreter's name) is host memory, even where the paste names
 * a GPU elsewhere (facebookresearch/fairseq-lua#37 in style). */
static void test_call5_lua_host(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"luajit", "| [en] Dictionary: 24000 types\n"
                   "exec:fairseq stderr:/home/u/torch/install/bin/luajit: not enough memory\n"
                   "On the 4GB GPU the same model does not fail.\n", false},
        {"panic", "PANIC: unprotected error in call to Lua API (not enough memory)\n", false},
        {"cutorch", "THCudaCheck FAIL file=/tmp/cutorch/lib/THC/THCStorage.cu line=66 "
                    "error=2 : out of memory\n", true},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
    struct oom_event e = primary("/usr/local/bin/luajit: not enough memory\n");
    assert_string_equal(e.kind, "host-cpu-alloc");
}

/* tqdm's bar behind a description word: "Iteration:  20% 989/5070 [...]"
 * is step 989 (the count), not 20 (the percentage); a bar glued to the
 * traceback gives the failing step. */
static void test_call5_percent_is_no_step(void **state)
{
    (void)state;
    struct steps_point pt;
    const char *bar = "Iteration:  20% 989/5070 [00:13<08:41,  7.83it/s]";
    assert_true(steps_parse_line(bar, strlen(bar), &pt) & STEPS_STEP);
    assert_int_equal(pt.step, 989);
    const char *bar2 = "Iteration:  47%|\xe2\x96\x88\xe2\x96\x88    | 70/150 [00:20<00:23]";
    assert_true(steps_parse_line(bar2, strlen(bar2), &pt) & STEPS_STEP);
    assert_int_equal(pt.step, 70);
    const char *pct = "Iteration: 20% done";
    assert_false(steps_parse_line(pct, strlen(pct), &pt) & STEPS_STEP);
    struct oom_event e = primary(
        "Iteration:  20% 989/5070 [00:13<08:41,  7.83it/s]Traceback (most recent call last):\n"
        "  File \"run_lm_finetuning.py\", line 262, in train\n"
        "    loss.backward()\n"
        "RuntimeError: CUDA out of memory. Tried to allocate 194.00 MiB (GPU 0; 15.78 GiB total "
        "capacity; 13.94 GiB already allocated; 154.75 MiB free; 14.47 GiB reserved in total by "
        "PyTorch)\n");
    assert_true(e.gpu_oom);
    assert_int_equal(e.step, 989);
}

/* Words that report what the writer's runs do: "can only ... before
 * running out of memory" (a limit seen), "otherwise I get an out of memory
 * error"; a card named "GTX1060" in one word. Advice ("otherwise you will")
 * and a possibility ("can cause") stay hedges. */
static void test_call5_reported_limits(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"can only", "My GPU can only handle 8 frames at once before running out of memory.\n", true},
        {"can", "This GPU setting can cause out of memory errors on small cards.\n", false},
        {"otherwise I", "On the GPU I must keep batch_size = 1, otherwise I get an out of memory "
                        "error after a few batches.\n", true},
        {"otherwise you", "Keep batch 1 on the GPU, otherwise you will get an out of memory error\n",
         false},
        /* "would" before a verb of wanting is a wish, not a hedge (the lead,
         * from heldout35 h35-43 after its measurement) */
        {"would like", "I would like to add attention between the RNNs, but every try makes the "
                       "program crash with an out of memory error from the graphics card.\n", true},
        {"would run", "If I raise the batch it would run out of GPU memory.\n", false},
        {"GTX1060", "On my GTX1060 i get an out of memory error after a few batches.\n", true},
        {"RTX3090ti", "Training OOMs on one RTX3090ti at 1024px\n", true},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* Host evidence carries its row's kind: a failure (the OOM killer, a killed
 * process, the host allocator, Ray's monitor) or memory named in words; the
 * caller asks context_host_failure, not the rows' descriptions. */
static void test_call5_host_kinds(void **state)
{
    (void)state;
    struct context_reading r;
    static const char *const failures[] = {
        "OOM during GRPO on 8 GPUs\nImmediate Ray OOM errors.\n",
        "Out of memory\nThe worker was killed\n",
        "Out of memory\n[12345.6] python invoked oom-killer: gfp_mask=0x100cca\n",
        "Out of memory\nDefaultCPUAllocator: can't allocate memory\n",
    };
    for (size_t i = 0; i < sizeof failures / sizeof failures[0]; i++) {
        context_read(failures[i], strlen(failures[i]), true, &r);
        if (!context_host_failure(&r)) fail_msg("%s", failures[i]);
    }
    static const char *const words[] = {
        "Out of memory\nI have 64G RAM\n",
        "Out of memory\nThe box uses swap\n",
        "Out of memory\ntorch 2.1.0+cpu\n",
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        context_read(words[i], strlen(words[i]), true, &r);
        if (context_host_failure(&r) || r.score[CONTEXT_HOST] == 0) fail_msg("%s", words[i]);
    }
    /* an inventory beside VRAM drops host memory words, not a failure */
    const char *inv = "Out of memory\n32GB system RAM and a 24GB VRAM card; the job was killed\n";
    context_read(inv, strlen(inv), true, &r);
    assert_true(context_host_failure(&r));
    for (size_t i = 0; i < r.n_hits; i++) assert_int_not_equal(r.hit[i].host, CONTEXT_HOST_MEMORY);
}

/* Wav2Lip's face detector raises its own words once a CUDA OOM persists
 * at batch 1 (Rudrabha/Wav2Lip inference.py): a GPU OOM in forward. */
static void test_call5_wav2lip(void **state)
{
    (void)state;
    struct oom_event e = primary(
        "Recovering from OOM error; New batch size: 2\n"
        "Recovering from OOM error; New batch size: 1\n"
        "Traceback (most recent call last):\n"
        "  File \"inference.py\", line 280, in <module>\n"
        "    main()\n"
        "  File \"inference.py\", line 100, in face_detect\n"
        "    raise RuntimeError('Image too big to run face detection on GPU. Please use the "
        "--resize_factor argument')\n"
        "RuntimeError: Image too big to run face detection on GPU. Please use the "
        "--resize_factor argument\n");
    assert_true(e.gpu_oom);
    assert_int_equal(e.stage, OOM_STAGE_FORWARD);
}

/* The old TH allocator's host failure names its request in whole GiB
 * (THAlloc's "%dGB", size / 2^30): a host look-alike with that request. */
static void test_call5_th_host_request(void **state)
{
    (void)state;
    struct oom_event e = primary("RuntimeError: $ Torch: not enough memory: you tried to allocate "
                                 "21GB. Buy new RAM! at /opt/conda/conda-bld/pytorch/work/torch/lib/"
                                 "TH/THGeneral.c:270\n");
    assert_false(e.gpu_oom);
    assert_string_equal(e.kind, "host-cpu-alloc");
    assert_int_equal(e.bytes.requested, 21LL << 30);
    e = primary("RuntimeError: [enforce fail at CPUAllocator.cpp:56] posix_memalign(&data, "
                "gAlignment, nbytes) == 0. 12 vs 0\nDefaultCPUAllocator: not enough memory: you "
                "tried to allocate 4294967296 bytes.\n");
    assert_false(e.gpu_oom);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_call5_machine_spec),
        cmocka_unit_test(test_call5_device_malloc_words),
        cmocka_unit_test(test_call5_block_swap),
        cmocka_unit_test(test_call5_instead_and_risk),
        cmocka_unit_test(test_call5_lua_host),
        cmocka_unit_test(test_call5_lowercase_clause),
        cmocka_unit_test(test_call5_percent_is_no_step),
        cmocka_unit_test(test_call5_reported_limits),
        cmocka_unit_test(test_call5_host_kinds),
        cmocka_unit_test(test_call5_wav2lip),
        cmocka_unit_test(test_call5_th_host_request),
        cmocka_unit_test(test_call5_trt_tactic_request),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
