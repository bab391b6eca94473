/* Unit tests for the call mechanism of issue 12 (diagmodal): OOM words a
 * writer says MIGHT happen are no failure. A modal of possibility or
 * consequence right before the OOM words in their clause ("could easily
 * lead to", "might cause", "would result in", "otherwise", "risk of";
 * msg.c modal_before, its tables modal_heads, modal_adverbs, modal_verbs,
 * modal_alone, modal_fillers) takes back PyTorch's exact
 * phrase "CUDA out of memory" (its row's supposed flag), the rows' OOM
 * words (deny) and the prose pass's (msg_denied). What did happen stays a
 * GPU OOM: a verb without a modal ("which leads to", "caused", "led to"),
 * the error line itself, a report ("I get CUDA out of memory").
 *
 * The real sentences below were found with the library's find_string and
 * each is cited by the file it came from (tidy22 traced the repositories
 * its ids did not name); two whose repository could not be found are
 * marked written here. The first is issue 12's own wording of a
 * maintainer's warning. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/msg.h"

#include "call_fixture.h"

/* What a writer warns may happen: no GPU OOM. */
static void test_modal_warning_is_no_oom(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"issue 12's wording (a maintainer's warning)",
         "This could easily lead to `CUDA out of memory`.\n", false},
        /* a doc on FSDP's state_dict ("State Dict" in Accelerate's FSDP guide) */
        {"huggingface/accelerate:docs/source/usage_guides/fsdp.md",
         "With a model wrapped by FSDP, the default behavior of `state_dict` is to gather all of "
         "the state in the rank 0 device.  This can cause CUDA out of memory errors if the "
         "parameters don't fit on a single GPU.\n",
         false},
        /* a notebook's note, in a translation whose metadata names its
         * source file */
        {"microsoft/PhiCookBook:md/03.FineTuning/FineTuning_MLSDK.md (a translation of it)",
         "> The computes listed below use the most optimized configurations. Changing these might "
         "cause CUDA Out Of Memory errors. If that happens, try upgrading to a larger compute "
         "size.\n",
         false},
        /* a docstring (prepare_manifest's, and its copies in NeMo's forks) */
        {"NVIDIA/NeMo:nemo/collections/asr/parts/utils/vad_utils.py",
         "    Perform VAD on long audio snippet might cause CUDA out of memory issue.\n", false},
        /* a code comment of a llama-recipes training loop (its repository
         * not found): written here in its words */
        {"written here (a training script's comment)",
         "# some times the first step could cause cuda out of memory, therefore we use a small "
         "batchsize to warm up\n",
         false},
        /* the warning's sentence wrapped after a link, which the scan
         * glues to it ("...#L110could"): giotto-ai/giotto-deep#44 (heldout56
         * h56-64; its title and a later line still make that thread's call) */
        {"giotto-ai/giotto-deep#44",
         "To accumulate class probabilities as in\n"
         "https://github.com/giotto-ai/giotto-deep/blob/2965f49a5653bc51790bc76c66e21f2e5ca3e65d/"
         "gdeep/pipeline/pipeline.py#L110\n"
         "could easily lead to `CUDA out of memory` problems.\n",
         false},
        /* the rest of the table, in the same kind of sentence */
        {"would ... lead to", "Keeping all frames on the device would quickly lead to CUDA out of memory.\n",
         false},
        {"would result in", "A batch of 64 would result in a CUDA OOM on 24 GB cards.\n", false},
        {"might trigger", "Disabling the cache might trigger CUDA out of memory errors.\n", false},
        {"can run into", "Long prompts can run into CUDA out of memory.\n", false},
        {"risk of", "There is a risk of CUDA out of memory with these settings.\n", false},
        {"otherwise", "Keep the batch at 4, otherwise CUDA out of memory.\n", false},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* The same words reporting a failure that did happen: still a GPU OOM. */
static void test_reported_oom_stays(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        /* a GPT-2 write-up's bottleneck (its repository not found):
         * written here in its words */
        {"written here (a README's bottleneck list)",
         "- **OOM Errors**: Trying to run a `batch_size` of 12 or even 8 caused CUDA Out of Memory "
         "errors.\n",
         true},
        /* a fix's problem statement */
        {"BhavyaShah1234/EEE598-DLFA:README_TRAINING_CURRENT.md",
         "**Problem:** Using `--use_lora` caused CUDA out of memory on 8GB RTX 5060.\n", true},
        /* a README's challenge */
        {"DhruvShah510/AI-Powered-Financial-Document-Analyst:README.md",
         "This initially caused CUDA out of memory errors.\n", true},
        /* the seen sets' reports that a wider table lost (heldout30 h30-103's
         * sentence; heldout55 h55-10's title): "may" and "to avoid" are
         * not in it */
        {"h30-103 (may)",
         "hello!  i make a dataset on my own but i found  the data length may lead to cuda out of "
         "memory error.\n",
         true},
        {"h55-10 (to avoid)", "how to avoid cuda out of memory?\n", true},
        {"which leads to", "The eval loop keeps every logit, which leads to CUDA out of memory.\n",
         true},
        {"led to", "Raising the resolution to 1024 led to CUDA out of memory.\n", true},
        {"I get", "I get CUDA out of memory when I run train.py with batch 8\n", true},
        {"error line",
         "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 7.79 GiB total "
         "capacity; 6.52 GiB already allocated; 12.44 MiB free; 6.68 GiB reserved in total by "
         "PyTorch)\n",
         true},
        /* a modal earlier in the sentence, not right before the words */
        {"modal far back", "It can train at batch 4, but at batch 8 it hit CUDA out of memory.\n",
         true},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* msg_denied, which the prose pass and the context's host rows read, sees
 * the modal as well; word boundaries hold ("cancel", "mayday" are no
 * modals). */
static void test_msg_denied_reads_modal(void **state)
{
    (void)state;
    static const char a[] = "This would lead to CUDA OOM.";
    const char *oom = strstr(a, "OOM");
    assert_true(msg_denied(a, strlen(a), (size_t)(oom - a), (size_t)(oom - a) + 3));
    static const char b[] = "Cancel cause CUDA OOM.";
    oom = strstr(b, "OOM");
    assert_false(msg_denied(b, strlen(b), (size_t)(oom - b), (size_t)(oom - b) + 3));
    static const char c[] = "mayday lead to OOM";
    oom = strstr(c, "OOM");
    assert_false(msg_denied(c, strlen(c), (size_t)(oom - c), (size_t)(oom - c) + 3));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_modal_warning_is_no_oom),
        cmocka_unit_test(test_reported_oom_stays),
        cmocka_unit_test(test_msg_denied_reads_modal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
