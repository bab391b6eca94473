/* Unit tests for the mechanisms read from the misses of heldout57 (the LLM
 * stack: fine-tuning, serving, multimodal), opened for study after its
 * blind figures were recorded at 02a8cc80 (call 70/77, numbers 51/52,
 * stages 18/24). Each case has a guard that must stay as it was. The pastes
 * are written here in the shape of the posts named beside them (the tools'
 * own wording, from their sources), not copied from the threads. */
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
#include "lib/stage.h"
#include "scan_fixture.h"

static enum oom_stage after(const char *line)
{
    return stage_after_line(line, strlen(line));
}

/* TGI's launcher reports a shard that died before it was ready: "Shard N
 * failed to start" (an ERROR of text_generation_launcher) and exits with
 * "Error: ShardCannotStart" (launcher/src/main.rs). Under an OOM message
 * with no frames that is the shard's model load at start-up
 * (huggingface/text-generation-inference#866 = heldout57 h57-74; the same
 * lines close #1354's shard traceback, a layer's __init__ while the model
 * is built). */
static void test_tgi_shard_cannot_start(void **state)
{
    (void)state;
    const char *issue866 =
        "OOM on 4 GPUs\n"
        "\n"
        "```\n"
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 64.00 MiB (GPU 0; 15.77 GiB "
        "total capacity; 15.30 GiB already allocated; 20.00 MiB free; 15.40 GiB reserved in total by PyTorch)\n"
        " rank=0\n"
        "Error: ShardCannotStart\n"
        "2023-08-17T10:23:27.032737Z ERROR text_generation_launcher: Shard 0 failed to start\n"
        "2023-08-17T10:23:27.032758Z  INFO text_generation_launcher: Shutting down shards\n"
        "```\n";
    assert_string_equal(primary_stage(issue866), "load");
    /* #1354's order: the launcher's lines first, its exit error last */
    const char *issue1354 =
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB\n"
        " rank=0\n"
        "2023-12-16T09:36:24.632149Z ERROR text_generation_launcher: Shard 0 failed to start\n"
        "2023-12-16T09:36:24.632181Z  INFO text_generation_launcher: Shutting down shards\n"
        "2023-12-16T09:36:24.652173Z  INFO shard-manager: text_generation_launcher: Shard terminated rank=1\n"
        "Error: ShardCannotStart\n";
    assert_string_equal(primary_stage(issue1354), "load");
    /* the newer launcher puts the error under the sentence ("Shard {rank}
     * failed to start:\n{err}") */
    assert_int_equal(after("ERROR text_generation_launcher: Shard 1 failed to start:"), OOM_STAGE_LOAD);
    assert_int_equal(after("Error: ShardCannotStart"), OOM_STAGE_LOAD);
    /* vLLM's engine process, as before */
    assert_int_equal(after("RuntimeError: EngineCore failed to start."), OOM_STAGE_LOAD);
    /* guard: words after "failed to start" are another sentence (an ESPnet
     * recipe's "failed to start stage 6 because of out of CUDA memory",
     * espnet/espnet#3719), and a shard that started names nothing */
    assert_int_equal(after("run.sh failed to start stage 6 because of out of CUDA memory"), OOM_STAGE_UNKNOWN);
    assert_int_equal(after("INFO text_generation_launcher: Shard terminated rank=1"), OOM_STAGE_UNKNOWN);
    const char *plain =
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB\n"
        "2023-12-16T09:36:24.632181Z  INFO text_generation_launcher: Shutting down shards\n";
    assert_string_equal(primary_stage(plain), "unknown");
}

/* ROCm's runtime aborting on a memory event no handler took: "Memory
 * critical error by agent node-0 (Agent handle: 0x...) on address 0x....
 * Reason: Memory in use." (ROCR-Runtime core/runtime/runtime.cc; an APU
 * loading a GGUF model, ROCm/ROCm#6182; ollama on a 6800U, heldout57
 * h57-37). A fault, as "Memory access fault by GPU node-1" is, not an
 * allocation that failed: a look-alike. A title may keep only the reason
 * ("ROCm error Reason: Memory in use", h57-38), over the loader's lines
 * that give its stage. */
static void test_hsa_memory_critical_error(void **state)
{
    (void)state;
    const char *abort_line =
        "Loading the model dies at once\n"
        "\n"
        "```\n"
        "Memory critical error by agent node-0 (Agent handle: 0x5eac2930) on address 0x7fbb51601000. "
        "Reason: Memory in use.\n"
        "Aborted (core dumped)\n"
        "```\n";
    struct oom_report rep;
    scan_log(abort_line, &rep);
    assert_true(rep.primary < 0);
    assert_true(rep.n_events > 0);
    assert_string_equal(rep.events[0].kind, "cuda-illegal-address");
    oom_report_release(&rep);
    const char *title =
        "AMD APU: ROCm error Reason: Memory in use\n"
        "\n"
        "```\n"
        "load_tensors: loading model tensors, this can take a while... (mmap = true)\n"
        "load_tensors: offloading 28 repeating layers to GPU\n"
        "load_tensors: offloaded 29/29 layers to GPU\n"
        "load_tensors:        ROCm0 model buffer size =  4020.00 MiB\n";
    scan_log(title, &rep);
    assert_true(rep.primary < 0);
    assert_true(rep.n_events > 0);
    assert_string_equal(rep.events[0].kind, "cuda-illegal-address");
    assert_string_equal(oom_stage_name(rep.events[0].stage), "load");
    oom_report_release(&rep);
    /* guard: memory "in use" in PyTorch's OOM message stays that GPU OOM */
    const struct oom_event *e = scan_primary(
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 180.00 MiB. GPU 1 has a total capacity "
        "of 47.37 GiB of which 125.69 MiB is free. Process 4242 has 47.08 GiB memory in use.\n", &rep);
    assert_true(e->gpu_oom);
    oom_report_release(&rep);
}

/* The writer's caption over a paste, a line ending in ':' over its fence,
 * says which step printed the paste, not what failed: the walks below a
 * message pass over it and read the paste's own lines. Under a sentence
 * that puts the OOM at trainer.train(), "- On loading model and tokenizer:"
 * over Unsloth's load banner names no stage (unslothai/unsloth#2700 =
 * heldout57 h57-13); "while loading shards:" over a "Loading checkpoint
 * shards" bar and "Killed" still gets load, from the bar
 * (lm-sys/FastChat#2359 = heldout32 h32-36); "crashes during generation:"
 * right over the message stays prose (ml-explore/mlx-lm#1808 = heldout28
 * h28-105, labelled unknown). */
static void test_paste_caption(void **state)
{
    (void)state;
    const char *unsloth =
        "Cannot fine-tune the 14B notebook on a V100\n"
        "\n"
        "The notebook trains on a T4, but on my V100 16GB, calling `trainer.train()`, I run into a CUDA out of "
        "memory error. Smaller models fail the same way.\n"
        "\n"
        "**Outputs:**\n"
        "\n"
        "- On loading model and tokenizer:\n"
        "\n"
        "```\n"
        "Unsloth: Will patch your computer to enable 2x faster free finetuning.\n"
        "==((====))==  Unsloth 2025.6.1: Fast Qwen3 patching. Transformers: 4.52.4.\n"
        "   \\\\   /|    Tesla V100-PCIE-16GB. Num GPUs = 1. Max memory: 15.773 GB. Platform: Linux.\n";
    assert_string_equal(primary_stage(unsloth), "unknown");
    const char *shards =
        "Loading a 13B model with one GPU in a 16GB VM triggers system OOM\n"
        "\n"
        "```\n"
        "[23502.263474] python3 invoked oom-killer: gfp_mask=0x1100cca(GFP_HIGHUSER_MOVABLE), order=0, oom_score_adj=0\n"
        "[23502.263485] CPU: 5 PID: 1215 Comm: python3 Tainted: P           OE     5.15.0-82-generic #91-Ubuntu\n"
        "```\n"
        "while loading shards:\n"
        "```\n"
        "Loading checkpoint shards:  33%|\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88      | 1/3 [00:41<01:22, 41.20s/it]\n"
        "Killed\n"
        "```\n";
    struct oom_report rep;
    scan_log(shards, &rep);
    assert_true(rep.primary < 0);
    assert_true(rep.n_events > 0);
    assert_string_equal(oom_stage_name(rep.events[0].stage), "load");
    oom_report_release(&rep);
    const char *mlx =
        "evaluate: Metal Insufficient Memory on generative tasks\n"
        "\n"
        "crashes during generation:\n"
        "\n"
        "```\n"
        "RuntimeError: [METAL] Command buffer execution failed: Insufficient Memory "
        "(00000008:kIOGPUCommandBufferCallbackErrorOutOfMemory)\n"
        "```\n";
    assert_string_equal(primary_stage(mlx), "unknown");
}

/* A look-alike named on the paste's first line (a title) and again below
 * with a rank prefix is one failure: the log's copy, with its rank, is the
 * event (vllm-project/vllm#8177 = heldout57 h57-22; InternLM/lmdeploy#3258,
 * rank 2). */
static void test_titled_lookalike_takes_rank(void **state)
{
    (void)state;
    const char *lmdeploy =
        "[Bug] RuntimeError: CUDA error: an illegal memory access was encountered\n"
        "\n"
        "```\n"
        "frame #6: c10d::ProcessGroupNCCL::ncclCommWatchdog() + 0x14d (0x7f5de5a3361d in "
        "/env/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so)\n"
        "\n"
        "[rank2]:[E314 14:33:46.588302933 ProcessGroupNCCL.cpp:1595] [PG ID 0 PG GUID 0(default_pg) Rank 2] "
        "Process group watchdog thread terminated with exception: CUDA error: an illegal memory access was "
        "encountered\n"
        "```\n";
    struct oom_report rep;
    scan_log(lmdeploy, &rep);
    assert_true(rep.primary < 0);
    assert_true(rep.n_events > 0);
    assert_string_equal(rep.events[0].kind, "cuda-illegal-address");
    assert_int_equal(rep.events[0].rank, 2);
    oom_report_release(&rep);
    /* guard: a copy with no rank prefix leaves the title the first event */
    const char *plain =
        "RuntimeError: CUDA error: an illegal memory access was encountered\n"
        "\n"
        "It happens after a few epochs:\n"
        "```\n"
        "  File \"train.py\", line 88, in <module>\n"
        "    loss.item()\n"
        "RuntimeError: CUDA error: an illegal memory access was encountered\n"
        "```\n";
    scan_log(plain, &rep);
    assert_true(rep.n_events > 0);
    assert_int_equal(rep.events[0].line, 1);
    assert_int_equal(rep.events[0].rank, -1);
    oom_report_release(&rep);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tgi_shard_cannot_start),
        cmocka_unit_test(test_hsa_memory_critical_error),
        cmocka_unit_test(test_paste_caption),
        cmocka_unit_test(test_titled_lookalike_takes_rank),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
