/* Unit tests for diagcall8's mechanisms (issue 12, the call on pastes with no
 * message line: a title or prose only). Each paste is synthetic, short and
 * in the shape of the issue threads the report names, never a corpus log's
 * text. Both directions in every test: words that report a GPU OOM, and
 * words that only mention memory. Each test fails on ce5b77ce (linked
 * against that commit's liboomlab.a): at its first row that a mechanism
 * here decides (rows after that one were not run there). */
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

#include "call_fixture.h"

/* A feature request's template (GitHub issue forms: "### Feature request",
 * "### Motivation"; "### What is the feature?"): an OOM in its words is the
 * reason given for the feature, not a failure of this paste (context.c).
 * A request that pastes its failure's traceback stays a report. */
static void test_call8_feature_request(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"feature request, OOM as the reason",
         "Add a chunk size to the embedding helper\n"
         "### Feature request\n\n"
         "Embedding a long list in one call gives an OOM on my GPU. I propose a chunk_size "
         "argument that splits the list.\n\n"
         "### Motivation\n\n"
         "Users with small cards could embed large corpora.\n",
         false},
        {"mmengine-style feature form",
         "OOM when switching the pipeline stage\n"
         "### What is the feature?\n\n"
         "The GPU runs out of memory in the second stage; could you free the first stage's "
         "buffers?\n\n"
         "### Motivation\n\nLonger schedules.\n",
         false},
        {"feature request with the failure's traceback: a report",
         "Adapters in 16 bit\n"
         "### Feature request\n\n"
         "Fine-tuning in 16 bit should fit in GPU memory, but it runs out of memory.\n\n"
         "Traceback (most recent call last):\n"
         "  File \"train.py\", line 85, in <module>\n"
         "    model = prepare(model)\n",
         true},
        {"a bug report, no template",
         "Embedding a long list in one call gives an OOM on my GPU.\n", true},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* Memory said to overflow counts as an OOM only with its device in the
 * sentence (mention.c's device-only concept): "memory overflow" alone is as
 * often the host's. */
static void test_call8_memory_overflow(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"graphics memory overflow",
         "For sequences above 5000 residues my server hits graphics memory overflow.\n", true},
        {"GPU memory overflowed", "Decoding 4k frames, the GPU memory overflowed every time.\n",
         true},
        {"no device", "Keeping every batch in a list, resulting in memory overflow.\n", false},
        {"host memory named", "The host memory overflows when the GPU loader caches images.\n",
         false},
        {"not memory", "An integer overflow in the CUDA kernel gives wrong indices.\n", false},
        {"denied", "No GPU memory overflow here, the run is just slow.\n", false},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* A card sized in memory, and a "video card", name the GPU. */
static void test_call8_sized_card(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"sized card", "Training the LoRA gives OOM on a 12GB card.\n", true},
        {"sized card, unit apart", "I always run out of memory on my 8 GB card.\n", true},
        {"video card", "Out of memory with the 1.5 model on my video card.\n", true},
        {"SD card", "Out of memory while copying the dataset to a 32GB SD card.\n", false},
        {"a card, no size", "Out of memory when the card reader is plugged in.\n", false},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* Chinese: the allocation named between the device and the shortage ("gpu
 * 分配内存不足", allocating memory: not enough) and the allocation said to fail
 * after the device ("CUDA内存分配失败"); 内存 without a device stays
 * undecided (it is also the host's memory). */
static void test_call8_cjk_allocation(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"gpu allocation short", "\xe8\xae\xad\xe7\xbb\x83\xe6\x97\xb6\xe4\xb8\x80\xe7\x9b\xb4\xe6\x8a\xa5 gpu "
                                 "\xe5\x88\x86\xe9\x85\x8d\xe5\x86\x85\xe5\xad\x98\xe4\xb8\x8d\xe8\xb6\xb3\n",
         true}, /* 训练时一直报 gpu 分配内存不足 */
        {"CUDA allocation failed", "CUDA\xe5\x86\x85\xe5\xad\x98\xe5\x88\x86\xe9\x85\x8d\xe5\xa4\xb1\xe8\xb4\xa5\n",
         true}, /* CUDA内存分配失败 */
        {"no device", "\xe5\x86\x85\xe5\xad\x98\xe5\x88\x86\xe9\x85\x8d\xe5\xa4\xb1\xe8\xb4\xa5\n",
         false}, /* 内存分配失败 */
        {"no device, allocation short",
         "\xe5\x88\x86\xe9\x85\x8d\xe5\x86\x85\xe5\xad\x98\xe4\xb8\x8d\xe8\xb6\xb3\n",
         false}, /* 分配内存不足 */
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* A generic noun right after the OOM words makes them a kind of event
 * ("OOM situations", "out of memory scenarios"), in the prose pass and in
 * the rows' standalone mentions alike; the singular and other nouns stay a
 * report. */
static void test_call8_generic_nouns(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"row: GPU OOM situations",
         "Print before each allocation, to see how things go wrong in GPU OOM situations.\n", false},
        {"row: CUDA OOM cases", "Log the batch shape in CUDA OOM cases.\n", false},
        {"prose: out of GPU memory scenarios",
         "The allocator should report its pools in out of GPU memory scenarios.\n", false},
        {"a report", "I get a GPU OOM on every run.\n", true},
        {"a report, singular noun", "The run hits an out of GPU memory situation at step 30.\n",
         true},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_call8_feature_request),
        cmocka_unit_test(test_call8_memory_overflow),
        cmocka_unit_test(test_call8_sized_card),
        cmocka_unit_test(test_call8_cjk_allocation),
        cmocka_unit_test(test_call8_generic_nouns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
