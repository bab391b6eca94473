/* Unit tests for the mechanisms read from the misses of heldout45 (logs
 * from science, speech, graph, tabular and VLM-research threads), opened
 * for study after its blind figures were recorded at 324e7b65 (102/116
 * calls, 107/108 numbers, 4/11 stages). Each case has a guard that must
 * stay as it was. The pastes are written here, short, in the shape of the
 * lines of the threads each test names (/work/notes/diagopen45.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/oom.h"
#include "lib/scan.h"
#include "call_fixture.h"

/* TensorFlow's BFC allocator dump, cut before its "Sum Total of in-use
 * chunks": its summary lines, "N Chunks of size S totalling T", which
 * DumpMemoryLog prints only when an allocation fails
 * (MPI-Dortmund/cryolo#7 = heldout45 h45-71). */
static const struct call_case bfc_summary_calls[] = {
    {"bfc chunk summary, cut",
     "Train issue\n\n"
     "2021-07-07 22:07:48.706063: I tensorflow/core/common_runtime/bfc_allocator.cc:917] 10 Chunks of size "
     "524288 totalling 5.00MiB\n"
     "2021-07-07 22:07:48.706079: I tensorflow/core/common_runtime/bfc_allocator.cc:917] 1 Chunks of size "
     "572672 totalling 559.2KiB\n"
     "2021-07-07 22",
     true},
    {"bfc summary heading",
     "2019-03-01 10:00:00.000001: I tensorflow/core/common_runtime/bfc_allocator.cc:671]      Summary of "
     "in-use Chunks by size: \n",
     true},
    /* guards: the words without the allocator's tag; the pinned host
     * allocator's dump */
    {"chunk words in prose", "The loader reads 10 Chunks of size 524288 from the archive.\n", false},
    {"host allocator's dump",
     "2019-03-01 10:00:00.000001: W tensorflow/core/common_runtime/bfc_allocator.cc:267] Allocator "
     "(cuda_host_bfc) ran out of memory trying to allocate 2.00GiB.  Current allocation summary follows.\n"
     "2019-03-01 10:00:00.000002: I tensorflow/core/common_runtime/bfc_allocator.cc:917] 10 Chunks of size "
     "524288 totalling 5.00MiB\n",
     false},
};

static void test_bfc_chunk_summary(void **state)
{
    (void)state;
    expect_calls(bfc_summary_calls, sizeof bfc_summary_calls / sizeof bfc_summary_calls[0]);
    struct oom_event e = primary("2021-07-07 22:07:48.706063: I tensorflow/core/common_runtime/"
                                 "bfc_allocator.cc:917] 10 Chunks of size 524288 totalling 5.00MiB\n");
    assert_string_equal(e.kind, "bfc-dump");
    assert_true(e.bytes.requested < 0);
}

/* "of" left out right after the device word: '"CUDA OUT MEMORY" error will
 * occured' (mahmoodlab/TITAN#16 = heldout45 h45-23). Blanks only between
 * the three words. */
static const struct call_case device_out_memory_calls[] = {
    {"device, out, memory",
     "How to deal with a large WSI input\n\nWhen I input a large-size WSI, \"CUDA OUT MEMORY\" error will "
     "occured.\n",
     true},
    {"a card's name", "Training stops with GPU out memory after the first epoch.\n", true},
    /* guards: a comma between; host memory; no device before "out" */
    {"comma between", "The GPU is out, memory is what the host lacks.\n", false},
    {"host memory", "CPU out memory while building the index.\n", false},
    {"no device", "Throughput dropped once we swapped out memory-heavy layers.\n", false},
};

static void test_device_out_memory(void **state)
{
    (void)state;
    expect_calls(device_out_memory_calls, sizeof device_out_memory_calls / sizeof device_out_memory_calls[0]);
}

/* PyTorch's current message cut by the paste right after "of which X is"
 * (allenai/olmocr#50 = heldout45 h45-32): the clause's own words placed
 * the value, which was read whole; the free figure is X. */
static void test_cut_after_free_value(void **state)
{
    (void)state;
    struct oom_event e = primary("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.93 GiB. GPU 0 "
                                 "has a total capacity of 79.14 GiB of which 3.79 GiB is");
    assert_true(e.gpu_oom);
    assert_int_equal(e.bytes.requested, 5293547192LL);
    assert_int_equal(e.bytes.capacity, 84975927951LL);
    assert_int_equal(e.bytes.free, 4069481513LL);
    /* guards: cut right after the value (the unit may be cut too); a clause
     * with no words before its value ("and 1.20 GiB is" may be reserved or
     * more). "Of the allocated memory X" names its figure whole: the
     * allocator writes the allocated figure right after those words in every
     * form (pytorch/pytorch:c10/cuda/CUDACachingAllocator.cpp; open55) */
    e = primary("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.93 GiB. GPU 0 has a total "
                "capacity of 79.14 GiB of which 3.79 GiB");
    assert_true(e.bytes.free < 0);
    e = primary("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total "
                "capacity of 23.65 GiB of which 1.06 MiB is free. Of the allocated memory 22.10 GiB is");
    assert_int_equal(e.bytes.free, 1111491LL);
    assert_int_equal(e.bytes.allocated, 23729694310LL);
    assert_true(e.bytes.reserved_unallocated < 0);
    e = primary("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total "
                "capacity of 23.65 GiB of which 1.06 MiB is free. Of the allocated memory 22.10 GiB is "
                "allocated by PyTorch, and 1.20 GiB is");
    assert_true(e.bytes.reserved_unallocated < 0);
}

/* A model object under a name of its own called for its output is a
 * forward pass: "audio_output = audio_model(audio_input)" in a training
 * loop's frame (YuanGongND/ast#22 = heldout45 h45-49), "pred_batch =
 * best_model(tiles_batch)" (BloodAxe/pytorch-toolbelt#41 = heldout37
 * h37-28). */
static enum oom_stage stage_of(const char *text)
{
    return primary(text).stage;
}

#define TB "Traceback (most recent call last):\n"
#define OOM_LINE "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB\n"

static void test_model_called_for_output(void **state)
{
    (void)state;
    assert_int_equal(stage_of(TB "  File \"../../src/run.py\", line 111, in <module>\n"
                                 "    train(audio_model, train_loader, val_loader, args)\n"
                                 "  File \"/home/u/ast/src/traintest.py\", line 128, in train\n"
                                 "    audio_output = audio_model(audio_input)\n" OOM_LINE),
                     OOM_STAGE_FORWARD);
    assert_int_equal(stage_of(TB "  File \"/home/u/proj/infer.py\", line 40, in process_tiles\n"
                                 "    pred_batch = best_model(tiles_batch)[:, 0:1, :,:]\n" OOM_LINE),
                     OOM_STAGE_FORWARD);
    /* guards: a verb that makes a model; another object's method; a target
     * that names no output */
    assert_int_equal(stage_of(TB "  File \"/home/u/proj/main.py\", line 40, in main\n"
                                 "    output = create_model(cfg)\n" OOM_LINE),
                     OOM_STAGE_LOAD);
    assert_int_equal(stage_of(TB "  File \"/home/u/proj/main.py\", line 40, in main\n"
                                 "    train_output = current_model.train_model(loader, steps)\n" OOM_LINE),
                     OOM_STAGE_UNKNOWN);
    assert_int_equal(stage_of(TB "  File \"/home/u/proj/main.py\", line 40, in main\n"
                                 "    stats = audio_model(audio_input)\n" OOM_LINE),
                     OOM_STAGE_UNKNOWN);
}

/* A Python logging line is read from its message: the logger's name
 * ("Chronos Evaluation") names the script, the message ("Generating
 * forecasts") what it did last, above a traceback the paste cut
 * (kutaytire/Retrieval-Augmented-Time-Series-Forecasting#1 = heldout45
 * h45-37). */
static void test_logging_message_stage(void **state)
{
    (void)state;
    static const char head[] = "CUDA Out of Memory Error when Running with --augment Flag\n\n"
                               "I receive a \"CUDA Out of Memory\" error like this:\n```\n";
    char log[1024];
    snprintf(log, sizeof log, "%s%s", head,
             "2024-11-18 16:00:50,631 - Chronos Evaluation - INFO - Loading ETTh\n"
             "2024-11-18 16:00:54,155 - Chronos Evaluation - INFO - Generating forecasts for ETTh (4 time "
             "series)\n"
             "0it [00:05, ?it/s]\n"
             "Traceback (mos\n");
    assert_int_equal(stage_of(log), OOM_STAGE_GENERATE);
    /* guard: the message's own phase */
    snprintf(log, sizeof log, "%s%s", head,
             "2024-11-18 16:00:54,155 - forecaster - INFO - Running evaluation on ETTh\n"
             "Traceback (mos\n");
    assert_int_equal(stage_of(log), OOM_STAGE_EVAL);
}

/* A machine's memory named by its size, no device in the sentence, is the
 * host's: "when trained on a machine with 120G memory, the memory is
 * insufficient with 8 workers" under a title "Risk of insufficient memory
 * when using huge training set" (chemprop/chemprop#75 = heldout45 h45-41):
 * a look-alike. */
static const struct call_case machine_memory_calls[] = {
    {"a machine's memory",
     "Risk of insufficient memory when using huge training set\n\n"
     "generating a RDKit molecule object for each datapoint during data loading may use lots of memory. "
     "I trained on 5M molecules, and when trained on a machine with 120G memory, the memory is "
     "insufficient with 8 workers.\n",
     false},
    {"a server's memory, the unit apart",
     "Out of memory when training\n\nOur server has 256 GB memory and it still runs out of memory.\n", false},
    /* guards: a device in the sentence (its memory may be the card's); a
     * machine named without its memory's size */
    {"a device in the sentence",
     "[Bug] CUDA: out of memory\n\nBy the way, using vulkan backend on this PC with 16G memory, out of "
     "memory too.\n",
     true},
    {"no size", "Out of memory when training\n\nOn my machine with the GPU it runs out of memory.\n", true},
};

static void test_machine_memory(void **state)
{
    (void)state;
    expect_calls(machine_memory_calls, sizeof machine_memory_calls / sizeof machine_memory_calls[0]);
}

/* A script announcing the data file it works through, the OS killing it
 * next: data (octavian-ganea/equidock_public#7 = heldout45 h45-63, a
 * host-RAM look-alike). Not one input of an inference demo. */
static void test_data_file_processing(void **state)
{
    (void)state;
    struct oom_event e = primary("```\n"
                                 "Processing  ./cache/dips_residues_maxneighbor_10/cv_0/label_frac_1.0_train.pkl\n"
                                 "Num of pairs in  train  =  39901\n"
                                 "Killed\n"
                                 "```\n");
    assert_false(e.gpu_oom);
    assert_int_equal(e.stage, OOM_STAGE_DATA);
    /* guards: an image an inference demo runs the model on; a model's weights */
    e = primary("```\nProcessing demo_imgs/gallery-2.jpg\nKilled\n```\n");
    assert_int_equal(e.stage, OOM_STAGE_UNKNOWN);
    e = primary("```\nProcessing ./weights/pytorch_model.bin\nKilled\n```\n");
    assert_int_equal(e.stage, OOM_STAGE_UNKNOWN);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bfc_chunk_summary),
        cmocka_unit_test(test_device_out_memory),
        cmocka_unit_test(test_cut_after_free_value),
        cmocka_unit_test(test_model_called_for_output),
        cmocka_unit_test(test_logging_message_stage),
        cmocka_unit_test(test_machine_memory),
        cmocka_unit_test(test_data_file_processing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
