/* Unit tests for diagprose's mechanisms (issue 12, the call on pastes with
 * no error text: the OOM named by a title or a sentence of prose). A
 * misspelt memory word inside the OOM words; "memory blows up" with its
 * device; TF's RESOURCE_EXHAUSTED named in words with its device (never a
 * cloud API's quota error); the Japanese, Korean and Russian OOM words with
 * their particles; a condition whose subject is the OOM ("if any CUDA OOM
 * occurs") is a hypothetical. Each paste is synthetic, short and written
 * here in the shape of the class of post the report names, never a corpus
 * log's text. Both directions in every test: words that report a GPU OOM,
 * and words that name host memory, a look-alike, deny the OOM or only
 * suppose it. Each test fails on dde05b75. */
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

/* expect_calls, but every case is read and each wrong call printed before
 * the test fails (a table of rows reads better whole). */
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

/* A memory word one letter off (swapped, dropped, doubled or wrong) inside
 * the OOM words still names the memory, and "ran out memory" with its "of"
 * left out is "ran out of memory"; a word that is no misspelling of
 * "memory" does not, and the host's guard still holds. */
static void test_prose2_memory_typos(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"swapped letters", "CUDA out of meomry when I train with batch size 32\n", true},
        {"wrong letter", "The GPU runs out of menory after two epochs.\n", true},
        {"doubled letter", "Insufficient GPU mmeory while loading the checkpoint.\n", true},
        {"dropped letter", "Getting CUDA out of memry on my 3060 at 1024x1024.\n", true},
        {"of left out", "The GPU ran out memory at step 10 of the first epoch.\n", true},
        /* guards: no memory word, the host's memory, a denial */
        {"out of money", "The GPU cluster ran out of money this month.\n", false},
        {"host RAM", "The loader runs out of meomry in RAM before the GPU starts.\n", false},
        {"denied", "The GPU does not run out of meomry anymore after the fix.\n", false},
        {"of left out, host", "The loader ran out memory in RAM before the GPU started.\n", false},
        {"memcpy", "The CUDA memcpy error comes back after the driver update.\n", false},
    };
    expect_all(logs, sizeof logs / sizeof logs[0]);
}

/* "Memory blows up" (or "blow out", "blew up") with a failure's word is
 * memory running out when the device is in the sentence, as "memory
 * overflow" is; growth alone, no device, the loss or the host is none. */
static void test_prose2_memory_blows_up(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"blow out error", "I get a memory blow out error with this LSTM, it fills my 8gb gpu.\n",
         true},
        {"blows up, crash", "GPU memory blows up and the job crashes after the first epoch.\n",
         true},
        {"VRAM blew up, error", "The VRAM blew up with an error at 1024x1024 on the 3060.\n", true},
        {"usage blows up, fails", "With 4 workers the CUDA memory usage blows up and training fails.\n",
         true},
        /* guards: growth alone (a complaint, no failure), the loss, the host */
        {"growth only", "GPU memory blows up after the first validation epoch.\n", false},
        {"loss blows up", "The loss blows up after epoch 3 on the GPU.\n", false},
        {"no device", "The memory blows up after the first epoch.\n", false},
        {"host", "CPU memory blows up when the dataset is cached on the GPU node.\n", false},
        {"hypothetical", "GPU memory would blow up if we kept every activation.\n", false},
        {"denied", "The GPU memory no longer blows up with the fix.\n", false},
    };
    expect_all(logs, sizeof logs / sizeof logs[0]);
}

/* TF's out-of-memory status is RESOURCE_EXHAUSTED ("Resource exhausted: OOM
 * when allocating tensor", tensorflow/tensorflow's
 * tensorflow/core/framework/op_kernel.h allocate_tensor), written in words
 * by users ("training fails with Resource exhausted on my GPU"); gRPC and
 * the cloud APIs say the same for a quota (HTTP 429). With its device in
 * the sentence and no quota word it is a GPU OOM. */
static void test_prose2_resource_exhausted(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"words and card", "Training fails with Resource exhausted on my GTX 1080.\n", true},
        {"class name and GPU", "I get a ResourceExhaustedError on the GPU when batch size is 64.\n",
         true},
        {"status name", "RESOURCE_EXHAUSTED on GPU:0 as soon as the model is built.\n", true},
        /* guards: no device, a quota, the host */
        {"no device", "Training fails with Resource exhausted after a few steps.\n", false},
        {"quota", "From my GPU box the API call fails with resource exhausted, quota exceeded.\n",
         false},
        {"rate limit", "Resource exhausted from the Gemini API, rate limit hit on my GPU box.\n",
         false},
        {"host", "Training fails with resource exhausted on the CPU host, the GPU is idle.\n",
         false},
        /* the status lines of a quota and of gRPC's message-size limit */
        {"quota status", "google.api_core.exceptions.TooManyRequests: 429 Resource exhausted: "
                         "Quota exceeded for the project.\n",
         false},
        {"gRPC message size", "status = StatusCode.RESOURCE_EXHAUSTED\n"
                              "details = \"Received message larger than max (4194305 vs. 4194304)\"\n",
         false},
    };
    expect_all(logs, sizeof logs / sizeof logs[0]);
}

/* The Japanese and Korean OOM words carry a particle between memory and
 * its shortage (メモリが不足, 메모리가 부족, "GPU 메모리가 부족합니다" as Korean
 * training tools print it); Russian says the memory "was not enough"
 * (не хватило). With the device named; memory alone stays the host's. */
static void test_prose2_particles(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"Japanese ga fusoku", "学習中にGPUのメモリが不足しました\n", true},
        {"Japanese ga tarinai", "VRAMが足りないのでバッチサイズを下げました\n", true},
        {"Korean ga bujok", "학습 중에 GPU 메모리가 부족합니다\n", true},
        {"Russian past", "При обучении на GPU не хватило видеопамяти\n", true},
        /* the long-vowel spelling メモリー, with the device */
        {"Japanese memorii", "GPUのメモリー不足で学習が止まります\n", true},
        /* Chinese: VRAM "exploded" (显存炸了, as a web UI's FAQ words the CUDA
         * OOM), and the traditional characters (顯存) */
        {"Chinese zha", "显存炸了，生成 1024 的图就崩\n", true},
        {"traditional", "訓練到一半顯存不夠了\n", true},
        /* memory (内存, Taiwan's 記憶體, Japanese メモリ after の) right after its device */
        {"Chinese GPU memory exploded", "跑到第三个 epoch 时 GPU内存爆了\n", true},
        {"Taiwan", "推論時 GPU記憶體不足，程式停止\n", true},
        {"Japanese no memori", "CUDAのメモリ不足で推論が止まる\n", true},
        {"Chinese host memory exploded", "加载数据集时内存爆了\n", false},
        /* guards: memory without a device */
        {"Japanese host", "メモリが不足しています\n", false},
        {"Korean host", "메모리가 부족합니다\n", false},
        {"Japanese memorii host", "ビルド中にメモリー不足で止まります\n", false},
    };
    expect_all(logs, sizeof logs / sizeof logs[0]);
}

/* A condition whose subject is the OOM itself ("if any CUDA out of memory
 * error occurs", "in case of OOM on the GPU") supposes one; a condition on
 * the user's setting with the OOM as its result is a report. The other
 * hypotheticals stay unflagged as before: avoiding an OOM, none, a would. */
static void test_prose2_conditional_subject(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"if any OOM occurs",
         "The resize can make thin images much larger. If any CUDA out of memory error occurs on "
         "a small image, this might be the cause.\n",
         false},
        {"in case of OOM", "In case of CUDA OOM the worker restarts with a smaller batch.\n", false},
        {"if there is insufficient VRAM",
         "If there is insufficient VRAM during indexing, it may be worth trying again.\n", false},
        {"to avoid OOM", "Enable gradient checkpointing on the GPU to avoid OOM.\n", false},
        {"no OOM", "With bf16 on the A100 there is no OOM anymore.\n", false},
        {"would OOM", "A batch of 64 would OOM on a 24GB card.\n", false},
        /* reports: the OOM is what happened */
        {"when", "When I start training the GPU runs out of memory.\n", true},
        {"the pytorch line", "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n", true},
        {"whenever I", "Whenever I train at 1024 I get CUDA out of memory.\n", true},
    };
    expect_all(logs, sizeof logs / sizeof logs[0]);
}

/* Words that avoid or prevent an OOM, or suppose one, in Chinese, Japanese
 * and Korean (为了避免显存溢出 "to avoid VRAM overflow", 防止显存爆炸, 如果显存不足
 * "if VRAM runs short", OOMを避ける, OOM 방지) or guess at one (大概率是你显存炸了,
 * "most likely your VRAM blew up") name none, as "to avoid OOM", "if you get
 * CUDA OOM" and "probably" do; a report in the same words stays one. */
static void test_prose2_cjk_avoid(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"Chinese avoid", "为了避免显存溢出，把 batch 调小到 4\n", false},
        {"Chinese prevent", "防止显存爆炸，训练时关掉 use_cache\n", false},
        {"Chinese if", "如果显存不足，请调小 batch_size\n", false},
        {"Japanese avoid", "VRAM不足を避けるためにバッチを小さくする\n", false},
        {"Korean prevent", "VRAM 부족 방지를 위해 배치를 줄입니다\n", false},
        {"Chinese guess", "cuDNN error: CUDNN_STATUS_INTERNAL_ERROR\n\n总结：大概率是你显存炸了\n", false},
        {"Chinese maybe", "可能是显存不足导致的吧\n", false},
        /* reports */
        {"Chinese report", "训练到一半显存爆了\n", true},
        {"Chinese report, batch reduced", "把 batch 调小到 4 还是显存溢出\n", true},
        {"Japanese report", "学習中にVRAM不足で止まりました\n", true},
        /* 大概 before a size is "about", no guess */
        {"Chinese about", "看报错，你请求了大概8GB的显存导致显存不足\n", true},
    };
    expect_all(logs, sizeof logs / sizeof logs[0]);
}

int main(void)
{
    (void)expect_calls; /* call_fixture.h's stop-at-first form; expect_all reads every row */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prose2_memory_typos),
        cmocka_unit_test(test_prose2_memory_blows_up),
        cmocka_unit_test(test_prose2_resource_exhausted),
        cmocka_unit_test(test_prose2_particles),
        cmocka_unit_test(test_prose2_conditional_subject),
        cmocka_unit_test(test_prose2_cjk_avoid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
