/* Unit tests for the call mechanism of issue 12 (callmiss): words that
 * only name the host's memory ("CPU memory", "CPU RAM", "system RAM", the
 * weak host-words row of lib/msg.c) keep a GPU OOM named in words from
 * standing (scan.c mention_may_stand). Two forms of those words name no
 * host memory running short and no longer do:
 * - the host's memory as where data goes: "to", "into" or "onto" right
 *   before it and a verb of moving earlier on its line ("tensors should
 *   be moved to CPU memory", a remedy; msg_rule.not_after and moved_by;
 *   "due to CPU memory" still names a cause);
 * - the host's memory as a spec list's label: the words then ':' ("CPU
 *   RAM: 32GB", what the machine has; msg_rule.end_not).
 * The other uses still guard: host memory that ran short, the host's
 * memory named as the cause, a place ("in CPU memory").
 * And Python's MemoryError named by its class alone (IPython's header over
 * frames whose message the paste cut, a bare "MemoryError" line) near a
 * frame of a GPU data-science library (cuDF, cuML, RMM ...; scan.c
 * memory_error_class_only, gpu_library_near) is no host look-alike: Cython
 * raises RMM's device allocation failures as MemoryError.
 * And host memory said to run out in the cases writers type ("Cpu OOM",
 * "CPU oom", "Ram out of memory"): host words, as "CPU OOM" and "RAM out
 * of memory" were (not all in lower case: msg.c says why). */
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

/* A destination for the data is a remedy, not host memory running out: the
 * GPU OOM named in words above it stands. Each sentence is a real one. */
static void test_destination_names_no_host_failure(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        /* flairNLP/flair#2663's title; a reply's sentence from
         * embeddings-benchmark/mteb#129 (a thread whose OOM is CUDA's) */
        {"flairNLP/flair#2663 + embeddings-benchmark/mteb#129",
         "CUDA oom with embeddings_storage_mode=\"cpu\"\n\n"
         "I do know that in the other tasks I'm copying the embeddings over to CPU memory.\n",
         true},
        /* ai-computing/aicomp#18's sentence (a GPU OOM in
         * optimizer.step()) and the remedy of ai-computing/aicomp#15 */
        {"ai-computing/aicomp#18 + #15",
         "Handling OOM during the optimizer.step() phase\n\n"
         "An OOM error might occur in GPU memory during the execution of optimizer.step()\n"
         "There is a need for a feature that allows offloading the optimizer's state to CPU memory "
         "when necessary.\n",
         true},
        /* NVIDIA/Megatron-LM#2811's wording, the states moved into the
         * host's memory, under NVIDIA/Megatron-LM#92's title and sentence */
        {"NVIDIA/Megatron-LM#92 + #2811",
         "How to solve the OOM problem when my vocab_size is very big\n\n"
         "My vocab_size is about 30w, and a \"cuda out of memory\" error occured.\n"
         "temporarily moving optimizer states (exp_avg, exp_avg_sq) and master weights into CPU memory "
         "when not in use\n",
         true},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* A spec list's label is what the machine has. */
static void test_spec_label_names_no_host_failure(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        /* a hardware list's lines, written here as public READMEs write
         * them ("- CPU RAM: 32GB+", "- CPU RAM: 32 GB minimum, 64 GB
         * recommended": the library's find_string finds both in README
         * hardware lists but names no repository, and none was found),
         * under lllyasviel/Fooocus#1966's title */
        {"Fooocus#1966 title + a hardware list written here",
         "I am using Nvidia with 8GB VRAM, I get CUDA Out Of Memory\n\n"
         "- GPU: NVIDIA GeForce RTX 3060\n"
         "- CPU RAM: 32GB+\n"
         "- OS: Windows 10\n",
         true},
        {"a hardware list with its recommendation, written here",
         "CUDA OOM during training\n\n"
         "- GPU memory: 16 GB\n"
         "- CPU RAM: 32 GB minimum, 64 GB recommended.\n",
         true},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* ... and what still guards: the host's memory that ran short or is named
 * as the cause, and the host's memory as a place. */
static void test_host_memory_still_guards(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        /* the reply of databrickslabs/dolly#38 under a GPU OOM named in
         * words: host memory named as what is missing */
        {"databrickslabs/dolly#38's reply",
         "CUDA OOM while training\n\n"
         "I think you need an instance with more RAM (not GPU memory).\n",
         false},
        /* the cause named after "is": the host's memory (a forum reply's
         * form) */
        {"the problem is the CPU memory",
         "CUDA OOM when using trainer\n\n"
         "I found the problem is the CPU memory, it fills up while tokenizing.\n",
         false},
        /* a place, not a destination: "in" keeps the guard
         * (dauparas/LigandMPNN#61's question on a line of its own) */
        {"dauparas/LigandMPNN#61, the question alone",
         "Large sample size cause CUDA OOM\n\n"
         "Or cache them in CPU memory occasionally during the run?\n",
         false},
        /* "to" after no verb of moving: a cause, not where data goes
         * ("due to", "limited to", "close to" the host's memory) */
        {"the cause after due to",
         "CUDA OOM while training\n\n"
         "It turned out to be due to CPU memory, the dataloader workers fill it.\n",
         false},
        /* a verb of moving in an earlier sentence of the line moves
         * nothing into the host's memory */
        {"a verb of moving in another sentence",
         "CUDA OOM while training\n\n"
         "I moved on; the error is due to CPU memory. I moved the job. It is due to CPU memory.\n",
         false},
        {"a limit after limited to",
         "CUDA OOM while training\n\n"
         "The job is limited to 16 GB of system RAM. It is close to CPU RAM limits.\n",
         false},
        /* a destination, then the host's memory said to fill up: the
         * second line guards */
        {"a remedy, then the host failing",
         "CUDA OOM while training\n\n"
         "Move the data to CPU memory.\n"
         "The CPU memory fills up after 3 epochs.\n",
         false},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* The frames of NVIDIA/cudf#6746 (reading a 2.5 GB csv on a GTX 1080):
 * IPython's header and the first frames, as its paste shows them. */
#define CUDF6746_FRAMES                                                                            \
    "---------------------------------------------------------------------------\n"               \
    "MemoryError                               Traceback (most recent call last)\n"              \
    "<ipython-input-2-301086af0e1f> in <module>\n"                                                \
    "      1 #gdf = cudf.read_csv('unused.csv')\n"                                                \
    "----> 2 gdf = cudf.read_csv('data.csv')\n"                                                    \
    "      3 gdf.head()\n\n"                                                                      \
    "~/anaconda3/envs/rapids16/lib/python3.7/contextlib.py in inner(*args, **kwds)\n"             \
    "     72         def inner(*args, **kwds):\n"                                                 \
    "     73             with self._recreate_cm():\n"                                             \
    "---> 74                 return func(*args, **kwds)\n"                                        \
    "     75         return inner\n\n"                                                            \
    "~/anaconda3/envs/rapids16/lib/python3.7/site-packages/cudf/io/csv.py in read_csv(filepath_or_buffer)\n"

/* The class header of a MemoryError raised through cuDF is no host event:
 * the paste's RMM message is its one failure. */
static void test_memoryerror_header_under_gpu_library(void **state)
{
    (void)state;
    /* NVIDIA/cudf#6746: its title is RMM's message, its paste the header
     * and frames above the same message */
    const char *log = "[QST] MemoryError: std::bad_alloc: CUDA error at: "
                      "../include/rmm/mr/device/cuda_memory_resource.hpp:68: cudaErrorMemoryAllocation "
                      "out of memory\n\n"
                      "- I am trying to lad in  2.5 GB csv to one GTX 1080 (8 GB VRAM) than it crashes\n\n"
                      CUDF6746_FRAMES;
    struct oom_report rep;
    scan_log(log, &rep);
    assert_true(rep.primary >= 0 && rep.events[rep.primary].gpu_oom);
    for (size_t i = 0; i < rep.n_events; i++)
        if (!strcmp(rep.events[i].kind, "host-memory-error")) fail_msg("event %zu: host-memory-error", i);
    oom_report_release(&rep);
}

/* ... so the paste's other evidence decides: a GPU OOM named in words
 * stands over the header when the paste cut the message. */
static void test_memoryerror_header_cut_under_gpu_words(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        /* NVIDIA/cudf#185's title over NVIDIA/cudf#6746's cut paste */
        {"NVIDIA/cudf#185 + NVIDIA/cudf#6746",
         "Gpu memory not freed after CUDA OOM error while creating large dataframes\n\n"
         CUDF6746_FRAMES,
         true},
        /* the same, the GPU library's directory a conda environment RAPIDS's
         * install selector names (rapidsai/cugraph#2694's envs/rapids) only */
        {"a rapids environment",
         "GPU out of memory during umap\n\n"
         "---------------------------------------------------------------------------\n"
         "MemoryError                               Traceback (most recent call last)\n"
         "Cell In[11], line 1\n"
         "----> 1 umap.fit_transform(X)\n\n"
         "File ~/miniconda3/envs/rapids-23.12/lib/python3.10/site-packages/umap/umap_.py:2772, in fit_transform\n",
         true},
        /* no GPU library near the class: Python's host MemoryError (pandas
         * reading a csv) keeps the GPU words from standing */
        {"pandas frames",
         "GPU out of memory while loading the data\n\n"
         "---------------------------------------------------------------------------\n"
         "MemoryError                               Traceback (most recent call last)\n"
         "<ipython-input-2-301086af0e1f> in <module>\n"
         "----> 2 df = pd.read_csv('data.csv')\n\n"
         "~/anaconda3/lib/python3.7/site-packages/pandas/io/parsers.py in read_csv(filepath_or_buffer)\n",
         false},
        /* review21: the library's name in the writer's prose (a link to
         * its tracker) is no frame of it: still pandas's MemoryError */
        {"a link to cudf's tracker",
         "GPU out of memory while loading the data, as in https://github.com/rapidsai/cudf/issues/6746\n\n"
         "---------------------------------------------------------------------------\n"
         "MemoryError                               Traceback (most recent call last)\n"
         "<ipython-input-2-301086af0e1f> in <module>\n"
         "----> 2 df = pd.read_csv('data.csv')\n\n"
         "~/anaconda3/lib/python3.7/site-packages/pandas/io/parsers.py in read_csv(filepath_or_buffer)\n",
         false},
        /* a MemoryError with its message is read by its message, whatever
         * library raised it (NumPy's host allocation) */
        {"a message after the class",
         "GPU out of memory while loading the data\n\n"
         "  File \"/opt/conda/envs/rapids/lib/python3.9/site-packages/cudf/core/dataframe.py\", line 5, in to_pandas\n"
         "numpy.core._exceptions._ArrayMemoryError: Unable to allocate 7.45 GiB for an array with shape "
         "(1000000000,) and data type float64\n",
         false},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* The host's words in other cases: host-words, so a GPU OOM named in
 * words does not stand beside them, and a device-less "OOM" is no GPU's. */
static void test_host_words_any_case(void **state)
{
    (void)state;
    static const char *const host[] = {
        /* xinntao/Real-ESRGAN#489 */
        "Then Ram out of memory. How to minimize ram usage constantly increasing?",
        "Cpu OOM during checkpoint load",
        "it's a CPU oom -- the job just crashes",
    };
    for (size_t i = 0; i < sizeof host / sizeof host[0]; i++) {
        const struct msg_rule *r = msg_classify(host[i], strlen(host[i]));
        if (!r || strcmp(r->kind, "host-words")) fail_msg("%s: %s", host[i], r ? r->kind : "(none)");
    }
    /* the words inside others, or denied, are not */
    static const char *const not_host[] = {
        "We'd lose some time with shuffling the models in and out of ram",
        "the vram oom happens at the VAE decode step",
        "it is not a cpu oom",
    };
    for (size_t i = 0; i < sizeof not_host / sizeof not_host[0]; i++) {
        const struct msg_rule *r = msg_classify(not_host[i], strlen(not_host[i]));
        if (r && !strcmp(r->kind, "host-words")) fail_msg("%s: host-words", not_host[i]);
    }
    static const struct call_case logs[] = {
        /* a device-less OOM over a traceback, the host named in mixed case */
        {"Cpu OOM over frames",
         "Cpu OOM during checkpoint load\n\n"
         "Traceback (most recent call last):\n"
         "  File \"train.py\", line 12, in <module>\n"
         "    state = torch.load(path, map_location=\"cpu\")\n",
         false},
        /* GPUs named in a paste whose title says in lower case that the
         * host ran out (moojink/openvla-oft#59's title and a reply's
         * sentence) */
        {"openvla-oft#59 in lower case",
         "cpu oom finetuning on custom data\n\n"
         "When I was using distributed training on a single machine with four H100 GPUs, I also "
         "encountered this issue.\n",
         false},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_destination_names_no_host_failure),
        cmocka_unit_test(test_spec_label_names_no_host_failure),
        cmocka_unit_test(test_host_memory_still_guards),
        cmocka_unit_test(test_memoryerror_header_under_gpu_library),
        cmocka_unit_test(test_memoryerror_header_cut_under_gpu_words),
        cmocka_unit_test(test_host_words_any_case),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
