/* Unit tests for the mechanisms read from the misses of heldout48 (the
 * infrastructure around GPU jobs: vGPU sharing, serving routers, compilers
 * and their tools), opened for study after its blind figures were recorded
 * at 324e7b65 (54/61 calls, 57/60 numbers, 8/16 stages). Each row is
 * written from the tool's own source (named beside it in src/lib) and each
 * case has a guard that must stay as it was. The pastes are written here,
 * in the shape of the posts named. */
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
#include "stage_fixture.h"

#define TB "Traceback (most recent call last):\n"

/* HAMi-core's vGPU limit: "Device %d OOM %lu / %lu" under its error
 * prefix (Project-HAMi/HAMi-core:src/allocator/allocator.c oom_check). The
 * device is read; the figures (usage after the allocation, the limit) are
 * neither a request nor a capacity. */
static void test_hami_vgpu_limit(void **state)
{
    (void)state;
    struct oom_event e = primary(
        "[HAMI-core Msg(30:140387636202368:libvgpu.c:836)]: Initializing.....\n"
        "[HAMI-core ERROR (pid:30 thread=140382094939712 allocator.c:53)]: Device 1 OOM "
        "3171158016 / 3145728000\n" TB "  File \"/data/t.py\", line 51, in train_one_epoch\n"
        "    loss.backward()\n"
        "RuntimeError: CUDA error: unrecognized error code\n");
    assert_true(e.gpu_oom);
    assert_string_equal(e.kind, "vgpu-limit");
    assert_int_equal(e.gpu, 1);
    assert_true(e.bytes.requested < 0);
    assert_true(e.bytes.capacity < 0);
    assert_int_equal(e.stage, OOM_STAGE_BACKWARD);

    /* the softmig fork's prefix, quoted in a report's list */
    e = primary("2. Applications fail with OOM errors: `[softmig ERROR (pid:1 thread=140160828682240 "
                "allocator.c:53)]: Device 0 OOM 18446744073707737660 / 24146608128`\n");
    assert_true(e.gpu_oom);
    assert_string_equal(e.kind, "vgpu-limit");
    assert_int_equal(e.gpu, 0);
}

static const struct call_case hami_guards[] = {
    /* its info line sizes an allocation that fits: no failure */
    {"hami info",
     "[HAMI-core Info(30:140387636202368:allocator.c:45)]: _usage=1048576 limit=3145728000 "
     "new_allocated=3145728\n",
     false},
    /* start-up lines only */
    {"hami start",
     "[HAMI-core Msg(30:140387636202368:libvgpu.c:836)]: Initializing.....\n"
     "[HAMI-core Msg(30:140387636202368:libvgpu.c:855)]: Initialized\n",
     false},
};

static void test_hami_guards(void **state)
{
    (void)state;
    expect_calls(hami_guards, sizeof hami_guards / sizeof hami_guards[0]);
}

/* A frame "in generate" is generation; a name that goes on is read by its
 * parts: "generate_plugin_library" (TPAT building a TVM module,
 * Tencent/TPAT = h48-14) is none, "generate_images" stays one. */
static void test_generate_frame_by_parts(void **state)
{
    (void)state;
    const char *oom = "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB\n";
    char log[1024];
    snprintf(log, sizeof log,
             TB "  File \"/root/tpat/python/onnx_to_plugin.py\", line 85, in generate_plugin_library\n"
                "    cuda_kernel.run()\n%s",
             oom);
    assert_int_not_equal(shown_stage_of(log), OOM_STAGE_GENERATE);
    snprintf(log, sizeof log, TB "  File \"/srv/app/pipe.py\", line 40, in generate\n    out = self.unet(x)\n%s",
             oom);
    assert_int_equal(shown_stage_of(log), OOM_STAGE_GENERATE);
    snprintf(log, sizeof log,
             TB "  File \"/srv/app/pipe.py\", line 40, in generate_images\n    out = self.unet(x)\n%s", oom);
    assert_int_equal(shown_stage_of(log), OOM_STAGE_GENERATE);
}

/* TVM's graph executor allocates its storage when it is created
 * (apache/tvm: GraphExecutor::Init -> SetupStorage): load. */
static void test_tvm_graph_executor_create(void **state)
{
    (void)state;
    assert_int_equal(shown_stage_of("out of memory\n\n```\n" TB
                                 "  File \"/root/tpat/python/cuda_kernel.py\", line 83, in run\n"
                                 "    self._module = graph_executor.create(\n"
                                 "  File \"/x/tvm/contrib/graph_executor.py\", line 66, in create\n"
                                 "    return GraphModule(fcreate(graph_json_str, libmod, *device_type_id))\n"
                                 "tvm._ffi.base.TVMError: Traceback (most recent call last):\n"
                                 "  5: tvm::runtime::GraphExecutorCreate(std::string const&)\n"),
                     OOM_STAGE_LOAD);
    /* a run of the executor's module is no load */
    assert_int_not_equal(shown_stage_of(TB "  File \"/x/run.py\", line 20, in main\n"
                                        "    module.run()\n"
                                        "tvm._ffi.base.TVMError: CUDA: out of memory\n"),
                         OOM_STAGE_LOAD);
}

/* text-embeddings-inference's request span ("ERROR embed:embed_pooled{...",
 * huggingface/text-embeddings-inference core/src/infer.rs): an embedding
 * request's forward, also with its colour codes pasted as text. */
static void test_tei_embed_span(void **state)
{
    (void)state;
    assert_int_equal(shown_stage_of("CUDA_ERROR_OUT_OF_MEMORY\n\n```\n"
                                 "ESC[2m2024-07-20T03:34:19.641538ZESC[0m ESC[31mERRORESC[0m "
                                 "ESC[1membedESC[0mESC[2m:ESC[0mESC[1membed_pooledESC[0mESC[1m{ESC[0m"
                                 "ESC[3minputsESC[0mESC[2m=ESC[0mString(\"Dalam menentukan nilai wajar\n"),
                     OOM_STAGE_FORWARD);
    assert_int_equal(shown_stage_of("CUDA_ERROR_OUT_OF_MEMORY\n\n"
                                 "2024-07-20T03:34:19.641538Z ERROR embed:embed_pooled{inputs=\"hi\"}: "
                                 "text_embeddings_core::infer: core/src/infer.rs:333: Server error\n"),
                     OOM_STAGE_FORWARD);
}

/* A pull request's "List of changes:" is a change's words: with its
 * title ("Adding ... restart on CUDA OOM", clearml/clearml-serving#75) the
 * OOM it names is discussed, not failed. */
static const struct call_case change_list_calls[] = {
    {"pr with a list of changes",
     "Adding clearml_serving_inference restart on CUDA OOM\n\n"
     "Restart `clearml-serving-inference` on `torch.cuda.OutOfMemoryError: CUDA out of memory.` helps "
     "inference container to clear GPU memory.\n\n"
     "List of changes:\n\n"
     "1. `init.py` - add new variable `CLEARML_INFERENCE_TASK_ID`\n"
     "2. `main.py` - add gunicorn worker restart on CUDA OOM exception\n",
     false},
    /* guard: the same title and words, no change's list, stay a failure */
    {"title and words alone",
     "Adding clearml_serving_inference restart on CUDA OOM\n\n"
     "Restart `clearml-serving-inference` on `torch.cuda.OutOfMemoryError: CUDA out of memory.` helps "
     "inference container to clear GPU memory.\n",
     true},
    /* guard: a failure report that lists what it changed keeps its traceback */
    {"report with a traceback",
     "Training crashes with OOM\n\nList of changes I tried:\n1. smaller batch\n\n" TB
     "  File \"train.py\", line 10, in <module>\n    loss.backward()\n"
     "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total "
     "capacity of 23.65 GiB of which 1.06 GiB is free.\n",
     true},
};

static void test_change_list(void **state)
{
    (void)state;
    expect_calls(change_list_calls, sizeof change_list_calls / sizeof change_list_calls[0]);
}

/* An issue titled with its error reads its rank from the launcher's
 * prefixed traceback below the paste's log lines (aphrodite-engine's
 * "[rank0]: Traceback" under Ray workers' start-up lines = h48-56), as far
 * as an OOM named in words does; a message inside a log keeps the short
 * reach. */
static void test_title_rank_below_log_lines(void **state)
{
    (void)state;
    const char *title =
        "[Bug]: torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 448.00 MiB. GPU\n\n"
        "```text\n"
        "INFO:     Cannot use FlashAttention backend for Volta and Turing GPUs.\n"
        "INFO:     Using XFormers backend.\n"
        "(RayWorkerAphrodite pid=34201) INFO:     Cannot use FlashAttention backend.\n"
        "(RayWorkerAphrodite pid=34201) INFO:     Using XFormers backend.\n"
        "INFO:     Aphrodite is using nccl==2.20.5\n"
        "(RayWorkerAphrodite pid=34201) INFO:     Aphrodite is using nccl==2.20.5\n"
        "(RayWorkerAphrodite pid=34320) ERROR:    Error executing method load_model.\n"
        "INFO:     waiting\n"
        "INFO:     waiting\n"
        "[rank0]: Traceback (most recent call last):\n"
        "[rank0]:   File \"/x/api_server.py\", line 519, in run_server\n"
        "[rank0]:     engine = AsyncAphrodite.from_engine_args(engine_args)\n";
    struct oom_event e = primary(title);
    assert_true(e.gpu_oom);
    assert_int_equal(e.rank, 0);

    /* guard: the same message inside a log (not a title) keeps the reach
     * of RANK_AFTER_LINES */
    const char *inner =
        "step 10 done\n"
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 448.00 MiB.\n"
        "INFO: a\nINFO: b\nINFO: c\nINFO: d\nINFO: e\nINFO: f\nINFO: g\nINFO: h\nINFO: i\nINFO: j\n"
        "INFO: k\nINFO: l\n"
        "[rank3]: Traceback (most recent call last):\n"
        "[rank3]:   File \"/x/train.py\", line 5, in main\n";
    e = primary(inner);
    assert_int_equal(e.rank, -1);
}

/* The lines after a message tell what the program was doing, up to the
 * thread's next post: a maintainer's reply ("we only occupy less than 300M
 * during initialization", Project-HAMi/HAMi-core#79 = h48-28) is another
 * writer's, for after_stage and for the paste's tail (tail_walk). The same
 * words in the post itself still count. */
static void test_after_lines_stop_at_next_post(void **state)
{
    (void)state;
    const char *reply = "Does hami plugin occupies GPU memory itself?\n\n"
                        "GPU memory usage does not reach the limit of the Pod, but the free memory of GPU "
                        "is not enough for the usage.\n\n"
                        "archlitchi \xc2\xb7 comment \xc2\xb7 2025-06-16\n"
                        "No, we only occupy less than 300M during initialization and release it shortly.\n";
    assert_int_equal(shown_stage_of(reply), OOM_STAGE_UNKNOWN);
    /* the same reply without a person's word (" we ": stage_user_text
     * drops that line anyway): only the post header stops the reading */
    const char *impersonal = "Does hami plugin occupies GPU memory itself?\n\n"
                             "GPU memory usage does not reach the limit of the Pod, but the free memory of GPU "
                             "is not enough for the usage.\n\n"
                             "archlitchi \xc2\xb7 comment \xc2\xb7 2025-06-16\n"
                             "No, the plugin occupies less than 300M during initialization and releases it.\n";
    assert_int_equal(shown_stage_of(impersonal), OOM_STAGE_UNKNOWN);
    /* a post header right under the title opens the report's own body:
     * its log still says what ran (h27-12's shape, my own words) */
    const char *body = "torch.cuda.OutOfMemoryError: CUDA out of memory\n\n"
                       "alice \xc2\xb7 comment \xc2\xb7 2024-01-02\n"
                       "A100 with gpu_memory_utilization=0.5, the worker fails like this:\n\n"
                       "INFO 01-02 05:06:01 llm_engine.py:73] Initializing an LLM engine with config: "
                       "model='/models/m', tokenizer='/models/m'\n"
                       "WARNING 01-02 05:06:02 tokenizer.py:62] Using a slow tokenizer. This might be sl\n";
    assert_int_equal(shown_stage_of(body), OOM_STAGE_LOAD);
    const char *same_post = "Does hami plugin occupies GPU memory itself?\n\n"
                            "GPU memory usage does not reach the limit of the Pod, but the free memory of GPU "
                            "is not enough for the usage.\n\n"
                            "It happens during initialization of the pod.\n";
    assert_int_equal(shown_stage_of(same_post), OOM_STAGE_LOAD);
}

/* A report's markdown list of figures ("- Test Data : 328 samples", "-
 * Maximum Tokens per Sample (Train Set): 13,137",
 * aws-samples/amazon-sagemaker-llm-fine-tuning-remote-decorator#7 = h48-40)
 * labels numbers: no stage. A list item that narrates an action still
 * names one. */
static void test_figure_list_names_no_stage(void **state)
{
    (void)state;
    const char *figures = "Out of Memory Error While Fine-Tuning a 32B model\n\n"
                          "Dataset Details:\n\n"
                          "- Total Examples: ~2000\n"
                          "- Train Data : 2942 samples\n"
                          "- Test Data : 328 samples\n"
                          "- Maximum Tokens per Sample (Train Set): 13,137\n"
                          "- Average Tokens per Sample (Test Set): 711.99\n\n"
                          "Error Details:\n```\n"
                          "Failed. Reason: AlgorithmError: OutOfMemoryError('CUDA out of memory. Tried to "
                          "allocate 2.21 GiB. GPU 3 has a total capacity of 22.18 GiB of which 2.09 GiB is "
                          "free.\n";
    assert_int_equal(shown_stage_of(figures), OOM_STAGE_UNKNOWN);
    const char *narrated = "- Generating samples for the validation prompts\n"
                           "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.21 GiB. GPU 3 has a "
                           "total capacity of 22.18 GiB of which 2.09 GiB is free.\n";
    assert_int_equal(shown_stage_of(narrated), OOM_STAGE_GENERATE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hami_vgpu_limit),       cmocka_unit_test(test_hami_guards),
        cmocka_unit_test(test_generate_frame_by_parts), cmocka_unit_test(test_tvm_graph_executor_create),
        cmocka_unit_test(test_tei_embed_span),        cmocka_unit_test(test_change_list),
        cmocka_unit_test(test_title_rank_below_log_lines), cmocka_unit_test(test_after_lines_stop_at_next_post),
        cmocka_unit_test(test_figure_list_names_no_stage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
