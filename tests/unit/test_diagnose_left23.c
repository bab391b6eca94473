/* Unit tests for the leftovers of diagnose's reviews (left23): the Rust
 * host row's device words as whole words, typographic apostrophes in the
 * rows' contractions, ... Each case has a guard that must stay as it was.
 * The pastes are written here in the shape of the tools' own wording (from
 * their sources), not copied from threads. */
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
#include "lib/oom.h"
#include "lib/plan.h"
#include "lib/rankstats.h"
#include "lib/verdict.h"
#include "lib/scan.h"
#include "scan_fixture.h"

/* Does any event of the log have this kind? */
static bool has_kind(const char *log, const char *kind)
{
    struct oom_report rep;
    scan_log(log, &rep);
    bool found = false;
    for (size_t i = 0; i < rep.n_events; i++) found = found || !strcmp(rep.events[i].kind, kind);
    oom_report_release(&rep);
    return found;
}

/* Rust's default alloc error hook, "memory allocation of {size} bytes
 * failed" (std::alloc::handle_alloc_error; huggingface/tokenizers#1847), is
 * the host's unless the line names a device. The device words count as
 * whole words in any case: "chip" and "ship" hold no "hip" (ROCm's HIP),
 * and "Device" is "device". */
static void test_rust_alloc_unless_words(void **state)
{
    (void)state;
    assert_true(has_kind("memory allocation of 21474836480 bytes failed on my M1 chip\n",
                         "host-cpu-alloc"));
    assert_true(has_kind("we ship the tokenizer: memory allocation of 150994960 bytes failed\n",
                         "host-cpu-alloc"));
    assert_false(has_kind("Device memory allocation of 2097152 bytes failed\n", "host-cpu-alloc"));
    assert_false(has_kind("HIP memory allocation of 2097152 bytes failed\n", "host-cpu-alloc"));
    /* guards, as before: the bare line is the host's, CUDA's is not */
    assert_true(has_kind("memory allocation of 2097152 bytes failed\n", "host-cpu-alloc"));
    assert_false(has_kind("CUDA memory allocation of 2097152 bytes failed\n", "host-cpu-alloc"));
    assert_false(has_kind("cuda memory allocation of 2097152 bytes failed\n", "host-cpu-alloc"));
}

/* A row's contraction ("couldn't") also meets the typographic apostrophe,
 * U+2019, that editors and forum software put in pasted text: RMM's
 * spill-on-demand warning, "RMM allocation of {size} failed,
 * spill-on-demand couldn't find any device memory to spill"
 * (rapidsai/cudf:python/cudf/cudf/core/buffer/spill_manager.py;
 * rapidsai/dask-cuda#855), one mechanism for every row (msg.c curly_form). */
static void test_curly_apostrophe(void **state)
{
    (void)state;
    static const char straight[] =
        "distributed.worker - WARNING - RMM allocation of 4.91 MiB failed, spill-on-demand "
        "couldn't find any device memory to spill:\n";
    static const char curly[] =
        "distributed.worker - WARNING - RMM allocation of 4.91 MiB failed, spill-on-demand "
        "couldn\xe2\x80\x99t find any device memory to spill:\n";
    struct oom_report rep;
    const struct oom_event *e = scan_primary(straight, &rep);
    assert_string_equal(e->kind, "rmm");
    oom_report_release(&rep);
    e = scan_primary(curly, &rep);
    assert_string_equal(e->kind, "rmm");
    assert_true(e->bytes.requested > 0);
    oom_report_release(&rep);
    /* the classifier alone, for another row with a contraction (DeepSpeed's
     * workspace) */
    const char *ws = "Workspace can\xe2\x80\x99t be allocated, no enough memory.";
    const struct msg_rule *r = msg_classify(ws, strlen(ws));
    assert_non_null(r);
    assert_string_equal(r->kind, "deepspeed-workspace");
    /* guard: a typographic apostrophe that is a closing quote changes
     * nothing ("\u2019out of memory\u2019" is no contraction) */
    const char *q = "RMM allocation of 4.91 MiB failed, spill-on-demand couldn\xe2\x80\x99 t find";
    r = msg_classify(q, strlen(q));
    assert_true(r == NULL || strcmp(r->kind, "rmm"));
    /* the figures too: a row found through its typographic twin reads its
     * clauses on the straightened line (ggml's SYCL backend, "can't
     * allocate N Bytes", ggml-org/llama.cpp ggml/src/ggml-sycl/
     * ggml-sycl.cpp; review23: the request was lost) */
    e = scan_primary("ggml_backend_sycl_buffer_type_alloc_buffer: can\xe2\x80\x99t allocate 3503030272 Bytes "
                     "of memory on device\n",
                     &rep);
    assert_string_equal(e->kind, "ggml");
    assert_int_equal(e->bytes.requested, 3503030272LL);
    oom_report_release(&rep);
    /* ... and a line whose typographic quotes hold no contraction reads
     * as before (\u2018...\u2019 around a word) */
    e = scan_primary("ggml_backend_sycl_buffer_type_alloc_buffer: can't allocate 3503030272 Bytes "
                     "of memory on device \xe2\x80\x98sycl:0\xe2\x80\x99\n",
                     &rep);
    assert_int_equal(e->bytes.requested, 3503030272LL);
    oom_report_release(&rep);
}

/* The absurd-request fix (a request larger than any card: an overflowed
 * size) sends the user to CUDA_LAUNCH_BLOCKING only where the event is
 * c10's asynchronous check ("CUDA error: out of memory", whose own text
 * says the stack may be wrong), as locate-stage does: the caching
 * allocator's "Tried to allocate" is raised in the allocating call. */
static const char *absurd_action(const char *kind, const char *framework, const char *text)
{
    static struct plan p;
    struct oom_event e;
    oom_event_init(&e);
    e.gpu_oom = true;
    e.kind = kind;
    e.framework = framework;
    snprintf(e.text, sizeof e.text, "%s", text);
    e.gpu = 0;
    e.line = 10;
    e.bytes.requested = (int64_t)538976288 << 30;
    e.bytes.capacity = (int64_t)47 << 30;
    e.bytes.free = (int64_t)43 << 30;
    e.bytes.allocated = (int64_t)3 << 30;
    struct oom_report rep;
    oom_report_init(&rep);
    rep.events = &e;
    rep.n_events = 1;
    rep.primary = 0;
    struct verdicts v;
    verdict_compute(&rep, &v);
    assert_true(verdict_has(&v, VERDICT_ABSURD));
    plan_build(&rep, &v, NULL, &p);
    for (size_t i = 0; i < p.n; i++)
        if (!strcmp(p.items[i].id, "absurd-request")) return p.items[i].action;
    fail_msg("no absurd-request item");
    return NULL;
}

static void test_absurd_request_launch_blocking(void **state)
{
    (void)state;
    const char *a = absurd_action("pytorch-new", "pytorch",
                                  "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate "
                                  "514016.00 TiB. GPU 0 has a total capacity of 47.54 GiB");
    assert_null(strstr(a, "CUDA_LAUNCH_BLOCKING"));
    assert_non_null(strstr(a, "traceback's last frames"));
    a = absurd_action("tf-bfc", "tensorflow", "OOM when allocating tensor with shape[...]");
    assert_null(strstr(a, "CUDA_LAUNCH_BLOCKING"));
    /* guard: c10's asynchronous check keeps it */
    a = absurd_action("cuda-error", "cuda", "RuntimeError: CUDA error: out of memory");
    assert_non_null(strstr(a, "CUDA_LAUNCH_BLOCKING=1"));
}

/* A C++ exception's what() ending in ": out of memory" is the device's only
 * where the device is named (thrust's class on the terminate line above,
 * dmlc/xgboost#3756; a CUDA helper's path on its line, dmlc/xgboost#2874;
 * the paste's CUDA words); else a host library's error string, SQLite's
 * "out of memory" (ROCm/MIOpen#187) through DuckDB's sqlite scanner
 * (duckdb/duckdb-node#173). */
static void test_what_out_of_memory_needs_device(void **state)
{
    (void)state;
    static const char host[] =
        "terminate called after throwing an instance of 'duckdb::IOException'\n"
        "  what():  Failed to prepare query \"SELECT 1\": out of memory\n"
        "Aborted (core dumped)\n";
    struct oom_report rep;
    scan_log(host, &rep);
    assert_true(rep.primary < 0);
    assert_true(rep.n_events > 0);
    assert_string_equal(rep.events[0].kind, "host-cpu-alloc");
    oom_report_release(&rep);
    /* guards: the device named above, on the line, or in the paste */
    const struct oom_event *e = scan_primary(
        "terminate called after throwing an instance of 'thrust::system::system_error'\n"
        "  what():  parallel_for failed: out of memory\n",
        &rep);
    assert_string_equal(e->kind, "cuda-error");
    assert_string_equal(e->framework, "cuda");
    oom_report_release(&rep);
    e = scan_primary("  what():  /home/u/xgboost/src/common/device_helpers.cuh(456): out of memory\n", &rep);
    assert_string_equal(e->kind, "cuda-error");
    oom_report_release(&rep);
    e = scan_primary("[12:00:01] Training with tree_method=gpu_hist on 1 GPU\n"
                     "[12:00:05] 0\ttrain-rmse:0.50\n"
                     "terminate called after throwing an instance of 'dmlc::Error'\n"
                     "  what():  parallel_for failed: out of memory\n",
                     &rep);
    assert_string_equal(e->kind, "cuda-error");
    oom_report_release(&rep);
}

/* The paste's CUDA or GPU words are words, not parts of one: a tool named
 * "gpustat", a package "cudatoolkit" above a host library's what() name no
 * device; "GPUs", "cudaMalloc" (a capital after the word) do. A CUDA
 * source's frame on the line ("device_helpers.cuh(456):", dmlc/xgboost#2874)
 * names the device by its own cue, not by "device" inside
 * "device_helpers". The lines above the what() are written here. (left25) */
static void test_what_out_of_memory_device_words(void **state)
{
    (void)state;
    static const char what[] =
        "terminate called after throwing an instance of 'duckdb::IOException'\n"
        "  what():  Failed to prepare query \"SELECT 1\": out of memory\n";
    static const char *const host_above[] = {"$ pip install gpustat\n", "cudatoolkit 11.8.0 h6a678d5_0\n",
                                             "loaded device_helpers.so\n"};
    static const char *const device_above[] = {"Running on 2 GPUs\n", "cudaMalloc returned 2\n",
                                               "CUDA_VISIBLE_DEVICES=0\n",
                                               /* an index or version glued on (review24) */
                                               "Using GPU0 for training\n", "built with CUDA12.1\n"};
    char log[1024];
    struct oom_report rep;
    for (size_t i = 0; i < sizeof host_above / sizeof host_above[0]; i++) {
        snprintf(log, sizeof log, "%s%s", host_above[i], what);
        scan_log(log, &rep);
        assert_true(rep.primary < 0);
        oom_report_release(&rep);
    }
    for (size_t i = 0; i < sizeof device_above / sizeof device_above[0]; i++) {
        snprintf(log, sizeof log, "%s%s", device_above[i], what);
        assert_string_equal(scan_primary(log, &rep)->kind, "cuda-error");
        oom_report_release(&rep);
    }
    assert_string_equal(
        scan_primary("  what():  /home/u/xgboost/src/tree/updater_gpu_hist.cu(102): out of memory\n", &rep)->kind,
        "cuda-error");
    oom_report_release(&rep);
}

/* run reads its log ahead for srun in chunks (runexec.c run_names_srun): a
 * word the cut splits is decided with the next chunk's bytes. "srunner"
 * cut after "srun" names no srun (the old loop read each chunk as a whole
 * text, whose end ended the word: msg_names_srun of the first chunk alone
 * says true); "srun" cut before its ':' does; a word the previous chunk
 * decided (the carried bytes' first) is not read again without the byte
 * before it. The chunks are written here. (left25) */
static void test_srun_across_chunks(void **state)
{
    (void)state;
    static const char one[] = "step 1 done\nlaunching the job with srun";
    bool named = false;
    size_t keep = msg_names_srun_chunk(one, sizeof one - 1, false, false, &named);
    assert_false(named);
    assert_true(msg_names_srun(one, sizeof one - 1)); /* what the old loop read */
    assert_true(keep > 0 && keep <= sizeof one - 1);
    char two[64];
    int k = snprintf(two, sizeof two, "%.*sner.py --nodes 2\n", (int)keep, one + sizeof one - 1 - keep);
    msg_names_srun_chunk(two, (size_t)k, true, true, &named);
    assert_false(named);
    /* guards: the word whole across the cut, or ending the text */
    k = snprintf(two, sizeof two, "%.*s: error: task 3 failed\n", (int)keep, one + sizeof one - 1 - keep);
    msg_names_srun_chunk(two, (size_t)k, true, true, &named);
    assert_true(named);
    named = false;
    msg_names_srun_chunk(one, sizeof one - 1, false, true, &named);
    assert_true(named);
    /* a carried chunk starting inside "xsrun" does not read "srun" as a word */
    named = false;
    msg_names_srun_chunk("srun: x\n", 8, true, true, &named);
    assert_false(named);
}

/* "srun" that ends a line names srun as it does where it ends the text
 * (msg_names_srun): the whole log, read by diagnose's scan and by run
 * ahead of its lines, and one line of it, read by rankstats' stream,
 * agree. On main the log below gave the stream rank 3 and the scan none
 * (the fuzz target's rankstats pass found the disagreement: fuzz23). The
 * launcher's line is written here. */
static void test_srun_at_line_end(void **state)
{
    (void)state;
    static const char log[] =
        "Launching 4 tasks with srun\n"
        "3: step=1 loss=2.42 peak_alloc=4.00GiB peak_reserved=4.20GiB\n"
        "3: Traceback (most recent call last):\n"
        "3:   File \"train.py\", line 92, in train\n"
        "3:     optimizer.step()\n"
        "3: RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 23.65 GiB total capacity; "
        "22.10 GiB already allocated; 3.06 MiB free; 22.50 GiB reserved in total by PyTorch)\n";
    assert_true(msg_names_srun("Launching 4 tasks with srun", 27));
    assert_true(msg_names_srun(log, sizeof log - 1));
    assert_true(msg_names_srun("srun\r\n0: x\n", 11));
    struct oom_report rep;
    const struct oom_event *e = scan_primary(log, &rep);
    assert_int_equal(e->rank, 3);
    oom_report_release(&rep);
    /* rankstats' stream reads the same rank */
    struct rankstats rs;
    rankstats_init(&rs);
    const char *p = log;
    for (const char *nl; (nl = strchr(p, '\n')); p = nl + 1) rankstats_line(&rs, p, (size_t)(nl - p), NULL);
    rankstats_finish(&rs, NULL);
    assert_int_equal(rs.ranks, 1);
    assert_int_equal(rs.r[0].rank, 3);
    rankstats_release(&rs);
    /* guards: inside a word, or before a byte that is no blank, colon or
     * line end, it names nothing */
    assert_false(msg_names_srun("Launching 4 tasks with srunner\n0: x\n", 36));
    assert_false(msg_names_srun("srun\0", 5));
    assert_false(msg_names_srun("srun.py\n", 8));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rust_alloc_unless_words),
        cmocka_unit_test(test_curly_apostrophe),
        cmocka_unit_test(test_absurd_request_launch_blocking),
        cmocka_unit_test(test_what_out_of_memory_needs_device),
        cmocka_unit_test(test_what_out_of_memory_device_words),
        cmocka_unit_test(test_srun_at_line_end),
        cmocka_unit_test(test_srun_across_chunks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
