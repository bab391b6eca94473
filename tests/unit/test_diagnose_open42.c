/* Unit tests for the mechanisms read from the misses of heldout42 (image,
 * video and audio generation apps, RL-for-LLM and fine-tuning repositories),
 * opened for study after its blind figures were recorded at 78a0f76c
 * (102/113 calls, 91/91 numbers, 17/27 stages): Ray's memory monitor
 * killing a task (host memory, not the GPU); a task's GPU OOM re-raised by
 * Ray as "RayTaskError(OutOfMemoryError)"; the MPS allocator's message
 * known only by its closing advice; loguru's "name:function:line - " field
 * naming the function that logs, as a frame does; a timestamp glued after
 * "Allocation on device" read as a device index. Each case has a guard
 * that must stay as it was. The pastes are written here, in the shape of
 * the posts the report names (/work/notes/diagopen42.md). */
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
#include "call_fixture.h"
#include "stage_fixture.h"

/* Ray's memory monitor: the raylet kills a worker when the node's host
 * memory passes RAY_memory_usage_threshold, and ray.get raises Ray's own
 * OutOfMemoryError (ray-project/ray doc/source/ray-core/scheduling/
 * ray-oom-prevention.rst). torch's OutOfMemoryError, and Ray re-raising a
 * task's torch OOM as RayTaskError(OutOfMemoryError), stay GPU OOMs. */
static const struct call_case ray_calls[] = {
    {"ray monitor, message and details",
     "GRPO run dies after the first rollout\n\n"
     "ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.\n"
     "Memory on the node (IP: 10.1.2.3, ID: 4f1c) where the task (task ID: 77aa, name=main_task, pid=4242, "
     "memory used=1.02GB) was running was 480.11GB / 503.00GB (0.9545), which exceeds the memory usage "
     "threshold of 0.95. Ray killed this worker (ID: 9e1d) because it was the most recently scheduled task.\n",
     false},
    {"ray monitor, message alone",
     "  File \"/opt/app/driver.py\", line 88, in main\n"
     "    results = ray.get(refs)\n"
     "ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.\n",
     false},
    {"a task's torch OOM re-raised by Ray",
     "Traceback (most recent call last):\n"
     "  File \"/work/rl/trainer.py\", line 310, in fit\n"
     "    await self._onload_engines()\n"
     "  File \"/work/rl/trainer.py\", line 1200, in _onload_engines\n"
     "    await asyncio.gather(*tasks)\n"
     "ray.exceptions.RayTaskError(OutOfMemoryError): ray::RolloutActor.onload_weights() (pid=5150, "
     "ip=10.0.0.7, actor_id=ab12cd)\n",
     true},
    /* guards */
    {"another exception re-raised by Ray",
     "Traceback (most recent call last):\n"
     "  File \"/work/rl/trainer.py\", line 310, in fit\n"
     "    await self._onload_engines()\n"
     "ray.exceptions.RayTaskError(ValueError): ray::RolloutActor.onload_weights() (pid=5150, ip=10.0.0.7)\n",
     false},
    {"torch's own OutOfMemoryError",
     "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of "
     "79.10 GiB of which 1.06 GiB is free.\n",
     true},
};

static void test_ray_calls(void **state)
{
    (void)state;
    expect_calls(ray_calls, sizeof ray_calls / sizeof ray_calls[0]);
}

/* The MPS allocator's OOM ends in its one piece of advice (pytorch/pytorch
 * aten/src/ATen/mps/MPSAllocator.mm: "... pool. Use
 * PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable upper limit for memory
 * allocations (may cause system failure)."); an app that shortens the
 * message may keep only that tail. The advice copied into a script's
 * comment or an export is no failure. */
static const struct call_case mps_calls[] = {
    {"the tail in an app's error title",
     "[render] Job failed: ...to disable upper limit for memory allocations (may cause system failure).\n\n"
     "MacBook Air M2, 16GB\n",
     true},
    {"the whole message",
     "RuntimeError: MPS backend out of memory (MPS allocated: 9.01 GB, other allocations: 120.00 MB, max "
     "allowed: 9.07 GB). Tried to allocate 256.00 MB on private pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 "
     "to disable upper limit for memory allocations (may cause system failure).\n",
     true},
    /* guards */
    {"the advice in a script's comment",
     "my launch script:\n\n"
     "# Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable upper limit for memory allocations (may cause "
     "system failure).\n"
     "export PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0\n"
     "python app.py --device mps\n",
     false},
    {"the advice set from Python",
     "os.environ[\"PYTORCH_MPS_HIGH_WATERMARK_RATIO\"] = \"0.0\"  # to disable upper limit for memory allocations\n",
     false},
};

static void test_mps_tail(void **state)
{
    (void)state;
    expect_calls(mps_calls, sizeof mps_calls / sizeof mps_calls[0]);
}

/* loguru's default format, "{time} | {level: <8} | {name}:{function}:{line}
 * - {message}" (Delgan/loguru loguru/_defaults.py LOGURU_FORMAT): the
 * function field names the function that logs, read by its word parts as a
 * frame's function is. */
static const struct {
    const char *line;
    enum oom_stage want;
} loguru_lines[] = {
    {"2025-01-02 10:11:12.345 | ERROR    | studio.core.handler:generate_images:522 - [generate_images] failed",
     OOM_STAGE_GENERATE},
    {"__main__:load_checkpoint:88 - Loading weights from /models/base", OOM_STAGE_LOAD},
    {"2025-01-02 10:11:12.345 | INFO     | app.worker:save_checkpoint:40 - writing shards", OOM_STAGE_CHECKPOINT},
    /* guards: top-level code names no function; a URL or a time is no tag */
    {"2025-01-02 10:11:12.345 | INFO     | __main__:<module>:12 - Starting server", OOM_STAGE_UNKNOWN},
    {"GET http://localhost:8188/prompt:1 - 200 OK", OOM_STAGE_UNKNOWN},
    {"10:11:12 - INFO - server ready", OOM_STAGE_UNKNOWN},
};

static void test_loguru_tags(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof loguru_lines / sizeof loguru_lines[0]; i++) {
        enum oom_stage got = stage_log_tag(loguru_lines[i].line, strlen(loguru_lines[i].line));
        if (got != loguru_lines[i].want)
            print_error("%s: got %s, want %s\n", loguru_lines[i].line, oom_stage_name(got),
                        oom_stage_name(loguru_lines[i].want));
        assert_int_equal(got, loguru_lines[i].want);
    }
}

/* The OOM on loguru's own ERROR line (an app's worker catching torch's OOM
 * and logging it): the function field names the phase. */
static void test_loguru_line_stages_its_message(void **state)
{
    (void)state;
    const char *log = "Can it run on 12GB?\n\n"
                      "2025-03-01 08:00:00.100 | ERROR    | __main__:image_generation_worker:315 - Job 1f2e failed: "
                      "CUDA out of memory. Tried to allocate 136.00 MiB. GPU 0 has a total capacity of 11.95 GiB "
                      "of which 163.44 MiB is free.\n";
    assert_string_equal(stage_of(log), "generate");
    /* guard: the same message on a plain line */
    const char *plain = "Can it run on 12GB?\n\n"
                        "Job 1f2e failed: CUDA out of memory. Tried to allocate 136.00 MiB. GPU 0 has a total "
                        "capacity of 11.95 GiB of which 163.44 MiB is free.\n";
    assert_string_equal(stage_of(plain), "unknown");
}

/* A timestamp glued right after ComfyUI's "Allocation on device" (its
 * console prints the next record's time without a newline) is no device
 * index; an index is read as before. */
static void test_device_index_not_a_date(void **state)
{
    (void)state;
    struct oom_event e = primary("got prompt\n"
                                 "2025-03-24T17:01:07.440479 - Error during inference: Allocation on device "
                                 "2025-03-24T17:01:07.440479 - \n");
    assert_true(e.gpu_oom);
    assert_int_equal(e.gpu, -1);
    e = primary("torch.OutOfMemoryError: Allocation on device 1 would exceed allowed memory. (out of memory)\n");
    assert_int_equal(e.gpu, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ray_calls),
        cmocka_unit_test(test_mps_tail),
        cmocka_unit_test(test_loguru_tags),
        cmocka_unit_test(test_loguru_line_stages_its_message),
        cmocka_unit_test(test_device_index_not_a_date),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
