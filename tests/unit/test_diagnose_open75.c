/* Unit tests for the mechanisms read from the misses of heldout75 (other
 * frameworks, old eras, vision and science), opened for study after its
 * blind figures were recorded at b2de2a3e (call 61/74, numbers 79/79,
 * stages 8/12). Each paste is short and written here in the shape of the
 * posts named beside it, not copied from the threads. Both directions in
 * every test: words that report a GPU OOM, and words that suppose it, deny
 * it or name the host. */
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
#include "scan_fixture.h"

/* every case read, each wrong call printed before the test fails */
static void expect_all(const struct call_case *logs, size_t n)
{
    int wrong = 0;
    for (size_t i = 0; i < n; i++) {
        struct oom_report rep;
        scan_log(logs[i].log, &rep);
        bool oom = rep.primary >= 0 && rep.events[rep.primary].gpu_oom;
        if (oom != logs[i].oom) {
            print_error("%s: called %s, want %s\n", logs[i].source, oom ? "GPU OOM" : "none",
                        logs[i].oom ? "GPU OOM" : "none");
            wrong++;
        }
        oom_report_release(&rep);
    }
    assert_int_equal(wrong, 0);
}

/* The device's memory said to run out, the memory the verb's subject, the
 * device named in the sentence: a report in prose (xheon/panoptic-
 * reconstruction#10: "my cuda memory runs out when processing" a level;
 * Aradhye2002/EcoDepth#19: "The GPU is 16gb but still the memory runs
 * out"). Not a hypothetical, a denial, the host's memory, nor memory
 * without a device. */
static void test_open75_device_memory_runs_out(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"cuda memory runs out",
         "Training on my own data\n\nI found my cuda memory runs out when processing the 256 level.\n",
         true},
        {"GPU ... the memory runs out",
         "Training question\n\nI set batch size 1. The GPU is 16gb but still the memory runs out.\n", true},
        {"GPU memory ran out", "Crash at epoch 3\n\nThe GPU memory ran out at epoch 3 of training.\n",
         true},
        {"VRAM running out", "Slow render\n\nMy 3090 keeps crashing, VRAM memory running out at 4k.\n", true},
        /* guards: a hypothetical, a denial, the host's memory, no device */
        {"if", "Notes\n\nIf CUDA memory runs out, rerun with --batch-size 8.\n", false},
        {"denied", "Fixed\n\nThe GPU memory no longer runs out with the fix.\n", false},
        {"host", "Loader\n\nThe host memory runs out while the GPU idles, RAM at 100%.\n", false},
        {"no device", "Question\n\nThe memory runs out after a few epochs.\n", false},
        {"other sentence",
         "Question\n\nI use one GPU for this. After a long while of loading the data the memory runs out.\n",
         false},
    };
    expect_all(logs, sizeof logs / sizeof logs[0]);
}

/* A fix named as a noun after the failure's word, anywhere in a title, is
 * a pull request's title: alone it is a change, no failure
 * (LukasMut/human_alignment#52 "OOM fix for torchvision ViT extraction";
 * argonne-lcf/dlio_benchmark#217 "OOM Fix"; redpanda-data/redpanda#5464
 * "Td 4804 oom fix v2"). Not a feature's name before "fix" ("hires fix"),
 * and not a report that shows its failure under such a title. */
static void test_open75_noun_fix_title(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"OOM fix for, PyTorch", "OOM fix for torchvision ViT extraction\n", false},
        {"CUDA OOM fix", "CUDA OOM fix for the ViT feature extractor\n", false},
        {"GPU memory fix v2", "GPU memory fix v2 for the eval loop\n", false},
        /* guards: a feature's name, a report's title over its traceback */
        {"hires fix", "CUDA OOM errors when doing a hires fix\n", true},
        {"report under a fix title",
         "CUDA OOM fix does not work\n\nTraceback (most recent call last):\n"
         "  File \"train.py\", line 10, in <module>\n    loss.backward()\n"
         "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n",
         true},
    };
    expect_all(logs, sizeof logs / sizeof logs[0]);
}

/* An OOM named without a device over a traceback, in a paste that names
 * the host's memory and no GPU on any line, is no GPU OOM
 * (ray-project/ray#24926: "RLlib crashes on Win due to OOM" over "Win10 64
 * 32Gig RAM" and a trainer's frames). A paste that names its GPU
 * (JIA-Lab-research/Context-Aware-Consistency#4 lists "GPU: P100 16GB"
 * beside "CPU RAM: 25gb") or names no host memory keeps the old reading. */
#define TRAINER_TB \
    "Traceback (most recent call last):\n" \
    "  File \"run.py\", line 14, in <module>\n    print(trainer.train())\n" \
    "  File \"/env/lib/site-packages/ray/rllib/agents/trainer.py\", line 553, in step\n    raise e\n" \
    "RuntimeError: worker crashed\n"

static void test_open75_host_only_mention(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"host RAM, no GPU", "Trainer crashes on Windows due to OOM\n\nWin10 64 32GB RAM\n\n" TRAINER_TB, false},
        /* guards: the GPU named on a line; no host memory named */
        {"GPU named", "Trainer crashes on Windows due to OOM\n\nWin10 64 32GB RAM, GPU: RTX 3090\n\n" TRAINER_TB,
         true},
        {"no host memory", "Trainer crashes on Windows due to OOM\n\nWin10 64\n\n" TRAINER_TB, true},
    };
    expect_all(logs, sizeof logs / sizeof logs[0]);
}

int main(void)
{
    (void)expect_calls;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_open75_device_memory_runs_out),
        cmocka_unit_test(test_open75_noun_fix_title),
        cmocka_unit_test(test_open75_host_only_mention),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
