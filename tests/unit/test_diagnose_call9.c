/* Unit tests for diagcall9's mechanisms (issue 12, the call on pastes with
 * no message line: a title or prose only). Each paste is synthetic, short
 * and in the shape of the issue threads the report names, never a corpus
 * log's text. Both directions in every test: words that report a GPU OOM,
 * and words that name host memory, deny the OOM or only discuss it. Each
 * test fails on 3a0107b6 (linked against that commit's liboomlab.a). */
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

/* "vRAM" is one word (a one-letter prefix before an acronym), and the
 * host's words start a word: "RAM OOM" inside "vRAM OOM" or "VRAM OOM" is
 * the device's memory. */
static void test_call9_acronym_words(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"vRAM OOM", "Facing the same vRAM OOM issue when I batch the audio files.\n", true},
        {"VRAM OOM", "Facing the same VRAM OOM issue when I batch the audio files.\n", true},
        {"out of vRAM", "The job runs out of vRAM when the batch grows.\n", true},
        /* kept whole, still a GPU (passed on 3a0107b6 as e|GPU) */
        {"eGPU", "My eGPU runs out of memory when the batch grows.\n", true},
        {"vGPUs", "Our vGPUs run out of memory when the batch grows.\n", true},
        {"RAM OOM (host)", "Facing the same RAM OOM issue when I batch the audio files.\n", false},
        {"CPU OOM (host)", "The loader hits a CPU OOM when I batch the audio files.\n", false},
        /* a host word kept whole stays the host's (v|CPU before) */
        {"vCPU (host)", "The GPU job ran out of memory on the 8 vCPU instance.\n", false},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* The writer's card is the GPU; a storage or payment card is none. */
static void test_call9_owned_card(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"my card", "With 200 images my card crashes with the OOM errors.\n", true},
        {"your card", "Your card runs out of memory at this resolution.\n", true},
        {"my SD card", "Copying the dataset to my SD card fails with out of memory.\n", false},
        {"my credit card", "The checkout page is out of memory when I add my credit card.\n",
         false},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* A setting that exists only for device memory names the device below a
 * title of OOM words; without one (or beside a host killer) nothing does. */
static void test_call9_device_knob(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"SGLang knob below an OOM title",
         "OOM when setting return_logprob=True\n\n"
         "Try to reduce `--mem-fraction-static`.\n",
         true},
        {"JAX knob below an OOM title",
         "OOM when restarting training\n\n"
         "Setting XLA_PYTHON_CLIENT_MEM_FRACTION=.7 did not change it.\n",
         true},
        {"no knob, no device",
         "OOM when setting return_logprob=True\n\n"
         "Try to reduce the number of requests.\n",
         false},
        {"knob beside the host's killer",
         "OOM when setting return_logprob=True\n\n"
         "Try to reduce `--mem-fraction-static`; the OOM killer ended the server.\n",
         false},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* "GPU has 24gb of ram" is the device's RAM; "the machine has 64gb of ram"
 * is the host's. */
static void test_call9_device_has_ram(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"GPU has N of ram",
         "Unable to diagnose OOM\n\n"
         "I train on four GPUs.\n\n"
         "Each GPU has 24gb of ram, so 96gb total.\n",
         true},
        {"machine has N of ram",
         "Unable to diagnose OOM\n\n"
         "I train on four GPUs.\n\n"
         "The machine has 64gb of ram and it fills up.\n",
         false},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* Denials typed without their apostrophe, and through the verbs of meeting
 * an OOM; the OOM met, and a double negation, stay. */
static void test_call9_denials(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"wouldnt run into", "With batch 4 it wouldnt run into OOM on my GPU.\n", false},
        {"doesn't run into", "With batch 4 it doesn't run into CUDA OOM.\n", false},
        {"dont get", "With batch 4 I dont get CUDA OOM.\n", false},
        {"never hit", "With batch 4 I never hit a CUDA OOM.\n", false},
        {"get", "With batch 4 I get CUDA OOM.\n", true},
        {"can't without getting", "I can't run it without getting CUDA OOM.\n", true},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* An allocation said to fail, with its device in the sentence; the host's
 * errno words, a condition and a warning are none. */
static void test_call9_alloc_fails(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"unable to allocate, GPUs",
         "Vulkan backend unable to allocate memory when run across multiple GPUs\n", true},
        {"could not allocate, GPU",
         "The server could not allocate enough memory on the GPU for the context.\n", true},
        {"TPU", "My TPU fails to allocate memory for the 8k context.\n", true},
        {"no device", "Unable to allocate memory for the dataloader workers.\n", false},
        {"host errno", "OSError: [Errno 12] Cannot allocate memory\n", false},
        {"a condition",
         "Throwing is consistent with what happens when CUDA fails to allocate memory.\n", false},
        {"a warning", "\"Failed to allocate CUDA memory with byte size\" warning\n", false},
        {"host RAM named", "The GPU could not allocate memory, the host RAM is full.\n", false},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* A device word with its index glued on (ggml's backend names) is the
 * device; other words with an index are not. */
static void test_call9_indexed_device(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"CUDA1", "The job hits OOM on CUDA1.\n", true},
        {"Vulkan0", "The job hits OOM on Vulkan0.\n", true},
        {"sda1", "The job hits OOM on sda1.\n", false},
        {"RAM0", "The job hits OOM on RAM0.\n", false},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* A machine's inventory below the OOM words names no host failure; the
 * host's RAM said to fill up, or a killed process, still guards. */
static void test_call9_host_inventory(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"inventory below",
         "With batch 4 I get an out of memory error after a few batches.\n\n"
         "I'm on a GTX1060 with 6GB memory.\n"
         "I have 32 GB RAM and an i7 Intel CPU on 64Bit Windows.\n",
         true},
        {"host RAM filling up",
         "With batch 4 I get an out of memory error after a few batches.\n\n"
         "I'm on a GTX1060 with 6GB memory.\n"
         "My machine has 16 GB RAM, which fills up.\n",
         false},
        {"inventory and a killed process",
         "With batch 4 I get an out of memory error after a few batches.\n\n"
         "I'm on a GTX1060 with 6GB memory.\n"
         "I have 32 GB RAM and an Intel CPU; the process gets killed.\n",
         false},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_call9_acronym_words),
        cmocka_unit_test(test_call9_owned_card),
        cmocka_unit_test(test_call9_device_knob),
        cmocka_unit_test(test_call9_device_has_ram),
        cmocka_unit_test(test_call9_denials),
        cmocka_unit_test(test_call9_alloc_fails),
        cmocka_unit_test(test_call9_indexed_device),
        cmocka_unit_test(test_call9_host_inventory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
