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

static const char *primary_stage(const char *log)
{
    struct oom_report rep;
    const struct oom_event *e = scan_primary(log, &rep);
    const char *name = oom_stage_name(e->stage);
    oom_report_release(&rep);
    return name;
}

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tgi_shard_cannot_start),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
