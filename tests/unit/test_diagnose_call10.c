/* Unit tests for diagcall10's mechanism (issue 12, look-alikes called GPU
 * OOMs): an OOM a library caught and went on from, shown by the library's
 * own recovery line on the OOM's line or just below it, is a look-alike; a
 * retry that failed too, a traceback after it, or a user's plan in prose
 * keeps the GPU OOM. Every paste is synthetic, in the shape of the
 * libraries' log lines (sources in src/lib/scan.c, recovery_words). The
 * look-alike rows fail on c29b1702 (linked against its liboomlab.a). */
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

#define TORCH_OOM                                                                            \
    "CUDA out of memory. Tried to allocate 1.20 GiB (GPU 0; 10.76 GiB total capacity; 8.10 " \
    "GiB already allocated; 900.00 MiB free; 8.20 GiB reserved in total by PyTorch)"

#define FRAMES                                              \
    "Traceback (most recent call last):\n"                  \
    "  File \"embed.py\", line 40, in <module>\n"           \
    "    out = model(batch)\n"

/* The library's own line says it caught the OOM and retries another way. */
static void test_call10_recovered(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"embedder retries per sequence",
         "ERROR:embedders:Error processing batch of 4 sequences: " TORCH_OOM
         ". You might want to lower the batch size. Will try to embed each sequence in the "
         "set individually on the GPU.\n"
         "INFO:embedders:wrote 120 embeddings to out.h5\n",
         false},
        {"same, under a title that only names the message",
         "CUDA out of memory.\n\nI see this when embedding my proteins,\n```\n"
         "ERROR:embedders:Error processing batch of 4 sequences: " TORCH_OOM
         ". Will try to embed each sequence in the set individually on the GPU.\n```\n"
         "The results look fine, is this expected?\n",
         false},
        {"falls back to the CPU on the same line",
         "WARNING:embedders:RuntimeError for sequence with 9000 residues: " TORCH_OOM
         ". Embedding on the CPU instead, which is very slow\n"
         "INFO:embedders:done\n",
         false},
        {"decoder: this OOM is not an error",
         "2024-01-02 10:00:01,100 INFO [decode.py:410] Caught exception:\n" TORCH_OOM "\n\n"
         "2024-01-02 10:00:01,101 INFO [decode.py:415] num_arcs before pruning: 1234567\n"
         "2024-01-02 10:00:01,101 INFO [decode.py:420] This OOM is not an error. You can "
         "ignore it.\n"
         "2024-01-02 10:00:01,300 INFO [decode.py:425] num_arcs after pruning: 345678\n",
         false},
        {"batch-size finder",
         "torch.cuda.OutOfMemoryError: " TORCH_OOM "\n"
         "Batch size 64 failed, trying batch size 32\n"
         "Batch size 32 succeeded, trying batch size 64\n",
         false},
        {"retrying with tiles",
         "torch.cuda.OutOfMemoryError: " TORCH_OOM "\n"
         "Warning: retrying with tiled decoding.\n"
         "Prompt executed in 41.2 seconds\n",
         false},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* Guards: the retry failed too, a traceback follows, the words are a
 * user's plan, or too far below to answer the OOM. */
static void test_call10_guards(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"the per-sequence retry fails again",
         "ERROR:embedders:Error processing batch of 4 sequences: " TORCH_OOM
         ". Will try to embed each sequence in the set individually on the GPU.\n" FRAMES
         "torch.cuda.OutOfMemoryError: " TORCH_OOM "\n",
         true},
        {"the finder's smallest size fails",
         "torch.cuda.OutOfMemoryError: " TORCH_OOM "\n"
         "Batch size 2 failed, trying batch size 1\n" FRAMES
         "RuntimeError: " TORCH_OOM "\n",
         true},
        {"a traceback OOM under a guessing title",
         "Maybe an OOM? retrying with a smaller batch did not help\n\n" FRAMES
         "RuntimeError: " TORCH_OOM "\n",
         true},
        {"the user's plan below the error",
         "RuntimeError: " TORCH_OOM "\n"
         "I will try to embed fewer sequences at once, or run on the CPU instead.\n",
         true},
        {"retrying without a feature (llama.cpp's pipeline parallelism)",
         "E ggml_gallocr_reserve_n_impl: failed to allocate CUDA1 buffer of size 54262464512\n"
         "W sched_reserve: compute buffer allocation failed, retrying without pipeline "
         "parallelism\n",
         true},
        {"recovery words far below",
         "RuntimeError: " TORCH_OOM "\n"
         "a\nb\nc\nd\ne\nf\ng\nh\n"
         "Warning: retrying with tiled decoding.\n",
         true},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_call10_recovered),
        cmocka_unit_test(test_call10_guards),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
