/* Unit tests for diagcall4's rows (issue 12): message families and number
 * extractors that heldout30's first sight missed, and a fix's commit title
 * as a change. Every line is real, from the public thread named beside it
 * (heldout30's logs); each case failed on 3e3c8cd. */
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
#include "lib/verdict.h"

#include "call_fixture.h"
#include "scan_fixture.h"

/* PyTorch's current message as a browser translates it into Chinese:
 * every figure read (Wan-Video/Wan2.2#51 = heldout30 h30-58). */
static void test_call4_pytorch_zh(void **state)
{
    (void)state;
    struct oom_event e = primary(
        "[rank0]:     return F.linear(input, self.weight, self.bias)\n"
        "torch.OutOfMemoryError\xef\xbc\x9a" "CUDA \xe5\x86\x85\xe5\xad\x98\xe4\xb8\x8d\xe8\xb6\xb3"
        "\xe3\x80\x82\xe5\xb0\x9d\xe8\xaf\x95\xe5\x88\x86\xe9\x85\x8d 8.65 GiB\xe3\x80\x82GPU 0 "
        "\xe7\x9a\x84\xe6\x80\xbb\xe5\xae\xb9\xe9\x87\x8f\xe4\xb8\xba 31.37 GiB\xef\xbc\x8c\xe5\x85"
        "\xb6\xe4\xb8\xad 8.65 GiB \xe6\x98\xaf\xe5\x85\x8d\xe8\xb4\xb9\xe7\x9a\x84\xe3\x80\x82"
        "\xe5\x8c\x85\xe6\x8b\xac\xe9\x9d\x9e PyTorch \xe5\x86\x85\xe5\xad\x98\xe5\x9c\xa8\xe5\x86"
        "\x85\xef\xbc\x8c\xe6\xad\xa4\xe8\xbf\x9b\xe7\xa8\x8b\xe6\x9c\x89 22.71 GiB \xe5\x86\x85"
        "\xe5\xad\x98\xe6\xad\xa3\xe5\x9c\xa8\xe4\xbd\xbf\xe7\x94\xa8\xe4\xb8\xad\xe3\x80\x82\xe5"
        "\x9c\xa8\xe5\x88\x86\xe9\x85\x8d\xe7\x9a\x84\xe5\x86\x85\xe5\xad\x98\xe4\xb8\xad\xef\xbc"
        "\x8c" "21.78 GiB \xe7\x94\xb1 PyTorch \xe5\x88\x86\xe9\x85\x8d\xef\xbc\x8c" "117.37 MiB "
        "\xe7\x94\xb1 PyTorch \xe4\xbf\x9d\xe7\x95\x99\xe4\xbd\x86\xe6\x9c\xaa\xe5\x88\x86\xe9\x85"
        "\x8d\xe3\x80\x82\n");
    assert_true(e.gpu_oom);
    assert_int_equal(e.bytes.requested, 9287866778LL);
    assert_int_equal(e.bytes.capacity, 33683281019LL);
    assert_int_equal(e.bytes.free, 9287866778LL);
    assert_int_equal(e.bytes.process_in_use, 24384676823LL);
    assert_int_equal(e.bytes.allocated, 23386096927LL);
    assert_int_equal(e.bytes.reserved_unallocated, 123071365LL);
    assert_int_equal(e.gpu, 0);
}

/* Tenstorrent's allocator: the request in bytes
 * (tenstorrent/tt-metal#40108 = heldout30 h30-14). */
static void test_call4_tt_metal(void **state)
{
    (void)state;
    struct oom_event e = primary(
        "**OOM error from gemma-3-4b-it on N300 (server log):**\n"
        "```\n"
        "TT_FATAL: Out of Memory: Not enough space to allocate 5368709120 B DRAM buffer\n"
        "across 8 banks, where each bank needs to store 671088640 B, but bank size is\n"
        "786432000 B (allocated: 754974400 B, free: 31457600 B)\n"
        "```\n");
    assert_true(e.gpu_oom);
    assert_string_equal(e.kind, "tt-metal");
    assert_int_equal(e.bytes.requested, 5368709120LL);
}

/* libFuzzer's RSS limit is host memory, with its request
 * (pytorch/audio#3504 = heldout30 h30-111). */
static void test_call4_libfuzzer(void **state)
{
    (void)state;
    struct oom_event e = primary(
        "Out-of-memory at `sox/effects.cpp:109`\n"
        "\n"
        "Hi, I've been fuzzing torchaudio project with [sydr-fuzz](https://github.com/ispras/"
        "oss-sydr-fuzz) and found crash at `sox/effects.cpp:109`.\n"
        "\n"
        "```\n"
        "==132== ERROR: libFuzzer: out-of-memory (malloc(6498959700))\n"
        "   To change the out-of-memory limit use -rss_limit_mb=<N>\n"
        "```\n");
    assert_false(e.gpu_oom);
    assert_string_equal(e.kind, "host-cpu-alloc");
    assert_int_equal(e.bytes.requested, 6498959700LL);
}

/* Calls: RMM's bad_alloc from a CUDA call is the device's; a class that
 * ends in "MemoryError" is not Python's host MemoryError; a fix's commit
 * title is a change about OOMs. */
static void test_call4_calls(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        /* cut after rmm/mr/ (NVIDIA/cudf#5344 = h30-45) */
        {"NVIDIA/cudf#5344",
         "[QST] Out of Memory Error\n"
         "\n"
         "cudf/_lib/csv.pyx in cudf._lib.csv.write_csv()\n"
         "\n"
         "MemoryError: std::bad_alloc: CUDA error at: "
         "/conda/conda-bld/librmm_1590822440331/work/include/rmm/mr/\n",
         true},
        /* a title typed with a zero (QwenLM/Qwen#895 = h30-10) */
        {"QwenLM/Qwen#895",
         "[BUG] 2\xe5\xbc\xa0" "32GB\xe6\x98\xbe\xe5\x8d\xa1\xef\xbc\x8c\xe5\xaf\xb9Qwen-14B\xe8\xbf"
         "\x9b\xe8\xa1\x8clora\xe5\xbe\xae\xe8\xb0\x83\xef\xbc\x8c\xe6\x8a\xa5\xe9\x94\x99"
         "torch.cuda.0utOfMemoryError: CUDA outof memory\n",
         true},
        /* a fix's title and its description (lightseekorg/tokenspeed#863 = h30-15) */
        {"lightseekorg/tokenspeed#863",
         "fix(executor): eager max-chunk prefill warmup \xe2\x80\x94 fixes flashinfer-upgrade OOMs\n"
         "\n"
         "## What\n"
         "\n"
         "Fixes the mid-serving CUDA OOMs that appeared after the flashinfer nightly upgrade "
         "(#852) \xe2\x80\x94 e.g. `eval-minimax-m3-nvfp4-aime25 (b200v2-4gpu)` failing on main with "
         "`CUDA error: out of memory` at a decode graph `replay()` right after the first large "
         "prefill batch.\n",
         false},
        /* a fix's title behind a tag, over its repro script (verl-project/verl#7286 = h30-51) */
        {"verl-project/verl#7286",
         "[ckpt] fix: load FSDP checkpoint shards onto CPU instead of the saved device\n"
         "\n"
         "```python\n"
         "#!/usr/bin/env python3\n"
         "\"\"\"Minimal repro: `torch.load` without `map_location` revives checkpoint\n"
         "tensors in device memory, so resuming OOMs when a rollout engine already holds the "
         "card.\n",
         false},
        /* the OOM words swapped after the device, in a title
         * (open-mmlab/mmrotate#745 = h30-43) */
        {"open-mmlab/mmrotate#745",
         "CUDA of out memory for RTMDet-R (tiny) with 24GB of VRAM and batch_size=1\n", true},
        /* a hardware inventory naming system RAM beside the card's VRAM is no
         * host evidence (ostris/ai-toolkit#992 = h30-90) */
        {"ostris/ai-toolkit#992",
         "Out of Memory at \"Generating baseline samples before training\"\n"
         "\n"
         "## Describe the bug\n"
         "I'm trying to train an LTX-2.3 LoRA, but it runs out of memory as soon as it gets to "
         "\"Generating baseline samples before training\".\n"
         "I have an Intel Core i7-11700KF, 32GB system RAM, and GeForce RTX 3090 24GB VRAM.\n"
         "I'm pretty sure I left all of the options at their defaults, but the screenshots, log, "
         "and config are attached.\n",
         true},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* The shortfall's text (a stranger's reading, stranger2): on a full card
 * the failed request is only the last one, and the run is no 6 MiB from
 * fitting; a request that a part-free card cannot take reads as before. */
static void shortfall_text(const char *line, char *buf, size_t cap)
{
    struct oom_report rep;
    scan_log(line, &rep);
    struct verdicts v;
    verdict_compute(&rep, &v);
    assert_true(verdict_has(&v, VERDICT_SHORTFALL));
    verdict_explain(&v, VERDICT_SHORTFALL, buf, cap);
    oom_report_release(&rep);
}

static void test_call4_full_card(void **state)
{
    (void)state;
    char buf[512];
    /* hiyouga/LlamaFactory#9510: 77.92 of 79.33 GiB allocated by PyTorch */
    shortfall_text("[rank5]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 56.00 "
                   "MiB. GPU 5 has a total capacity of 79.33 GiB of which 49.81 MiB is free. "
                   "Process 415557 has 79.27 GiB memory in use. Of the allocated memory 77.92 GiB "
                   "is allocated by PyTorch, and 150.18 MiB is reserved by PyTorch but "
                   "unallocated.\n",
                   buf, sizeof buf);
    assert_string_equal(buf, "the card is full: 49.81 MiB free of 79.33 GiB, 77.92 GiB allocated "
                             "by PyTorch; the 56.00 MiB request that failed is only the last one: "
                             "at least 6.19 MiB short");
    /* VectorSpaceLab/OmniGen#40 (corpus 031): 3.16 GiB of 31.73 GiB free */
    shortfall_text("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 8.08 GiB. GPU 0 "
                   "has a total capacity of 31.73 GiB of which 3.16 GiB is free.\n",
                   buf, sizeof buf);
    assert_string_equal(buf, "asked for 8.08 GiB with 3.16 GiB free: 4.92 GiB short");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_call4_pytorch_zh),
        cmocka_unit_test(test_call4_tt_metal),
        cmocka_unit_test(test_call4_libfuzzer),
        cmocka_unit_test(test_call4_calls),
        cmocka_unit_test(test_call4_full_card),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
