/* Unit tests for the mechanisms read from the misses of heldout73, opened
 * for study after its blind figures were recorded at 7637e320 (call 62/69,
 * numbers 66/68, stages 9/13). Each case has a guard that must stay as it
 * was. The pastes are written here in the shape of the posts named beside
 * them, not copied from the threads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/mention.h"
#include "lib/oom.h"
#include "lib/scan.h"
#include "scan_fixture.h"

static enum mention_kind read_line(const char *line)
{
    struct mention_hit hit;
    return mention_read(line, strlen(line), &hit);
}

/* "except" followed by a preposition, a conjunction or an article is
 * English, not Python's except clause: it no longer guards the OOM words
 * of its sentence or line. */
static void test_prose_except(void **state)
{
    (void)state;
    /* every batch size but one fails, the cards named in the sentence
     * (Lightning-AI/litgpt#1837 = heldout73 h73-39) */
    assert_int_equal(read_line("I tried a lot of batch sizes but everything OOMs except for batch size 12 "
                               "which is odd as that fits a 24 GB 4090 while I have an 80GB A100."),
                     MENTION_GPU);
    /* the OOM in words, no device, "except that" opening the line
     * (pygod-team/pygod#72 = heldout37 h37-06) */
    assert_int_equal(read_line("Hi, except that with the GCNAE model, I keep running into out of memory "
                               "issues with the other models, even with a very small batch size."),
                     MENTION_WORDS);
    /* the same call on a whole paste: a title, the words, a training run
     * on GPUs named in the context (the shape of litgpt#1837) */
    struct oom_report rep;
    scan_log("Pretraining a model on SlimPajama\n\n"
             "I tried many batch sizes but everything OOMs except for batch size 12, which is odd.\n\n"
             "I am training on 2 gpus with 2 transformer layers.\n",
             &rep);
    assert_true(rep.primary >= 0);
    oom_report_release(&rep);
    /* guards: Python's except clause still guards its line; a handled OOM
     * ("skipping") still does */
    assert_int_equal(read_line("except RuntimeError as e: out of memory, so the batch is dropped"), MENTION_NONE);
    assert_int_equal(read_line("except torch.cuda.OutOfMemoryError: print('GPU out of memory')"), MENTION_NONE);
    assert_int_equal(read_line("OOM except for batch 3, skipping it on the GPU"), MENTION_NONE);
    /* "except" before a noun phrase may be code: unchanged */
    assert_int_equal(read_line("Everything OOMs except batch size 12."), MENTION_NONE);
}

/* "CUDA out of memory" with "out" left out: "cuda of memory", the memory
 * word misspelt or not; the sibling of "CUDA OUT MEMORY" ("of" left out,
 * mahmoodlab/TITAN#16 = heldout45 h45-23) and "Cuda of of Memory"
 * (Interpause/auto-sd-paint-ext#120 = h20-56). */
static void test_cuda_of_memory(void **state)
{
    (void)state;
    /* a title quoting the error (NVIDIA/Megatron-LM#640 = heldout73 h73-16) */
    assert_int_equal(read_line("During pre training, the first global batch can run, but the second global "
                               "batch reports the error \"cuda of memory\"."),
                     MENTION_GPU);
    /* the memory word misspelt (FlagOpen/FlagEmbedding#139 = heldout73 h73-58) */
    assert_int_equal(read_line("by following step3, it will raise the CUDA of memorry."), MENTION_GPU);
    struct oom_report rep;
    scan_log("During pre training the second global batch reports the error \"cuda of memory\"\n\n"
             "4 nodes with 16 GPUs, tp=1, pp=8, dp=2.\n",
             &rep);
    assert_true(rep.primary >= 0);
    oom_report_release(&rep);
    /* guards: a card's size in English; "of" not between the two words;
     * a denial */
    assert_int_equal(read_line("We recommend running the experiments on a GPU of memory at least 16GB."),
                     MENTION_NONE);
    assert_int_equal(read_line("For a GPU of memory ~12G, keep contentSize under 900."), MENTION_NONE);
    assert_int_equal(read_line("The CUDA version of memory pools is 12.1."), MENTION_NONE);
    assert_int_equal(read_line("It is not a cuda of memory error, the kernel faults."), MENTION_NONE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prose_except),
        cmocka_unit_test(test_cuda_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
