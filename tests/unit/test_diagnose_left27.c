/* Unit tests for the leftovers of diagnose's reviews (left27): the dask
 * nanny row's shape and the SGLang KV-cache row's wording. Each case has a
 * guard that must stay as it was. The lines are written here in the shape
 * of the tools' own format strings (from their sources), not copied from
 * threads. */
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

/* dask/distributed's nanny (NannyMemoryManager.memory_monitor in
 * distributed/worker_memory.py, and the older nanny's "Worker exceeded %d%%
 * memory budget. Restarting") writes the percentage right after
 * "exceeded": only that shape is the nanny's restart, not "exceeded"
 * anywhere on a line that also says "memory budget. Restarting". */
static void test_dask_nanny_shape(void **state)
{
    (void)state;
    assert_true(has_kind("2026-01-02 03:04:05,678 - distributed.nanny.memory - WARNING - Worker "
                         "tcp://10.0.0.7:40001 (pid=1234) exceeded 80% memory budget. "
                         "Restarting...\n",
                         "host-oom-killer"));
    assert_true(has_kind("distributed.nanny - WARNING - Worker exceeded 100% memory budget. "
                         "Restarting\n",
                         "host-oom-killer"));
    /* guards: no percentage after "exceeded" */
    assert_false(has_kind("WARNING - task fetch exceeded its deadline; memory budget. "
                          "Restarting the stage\n",
                          "host-oom-killer"));
    assert_false(has_kind("Worker exceeded memory budget. Restarting\n", "host-oom-killer"));
}

/* SGLang's start-up check, in ModelRunner.init_memory_pool's words and
 * with the later MemoryPoolConfig's " Current value: ..." after them
 * (sgl-project/sglang model_runner.py): the KV cache row. A guard: the row
 * already read both; the words were checked against the source (left27). */
static void test_sglang_kv_cache_words(void **state)
{
    (void)state;
    assert_true(has_kind("RuntimeError: Not enough memory. Please try to increase "
                         "--mem-fraction-static.\n",
                         "sglang-kv-cache"));
    assert_true(has_kind("RuntimeError: Not enough memory. Please try to increase "
                         "--mem-fraction-static. Current value: mem_fraction_static=0.88\n",
                         "sglang-kv-cache"));
    assert_false(has_kind("RuntimeError: Not enough memory.\n", "sglang-kv-cache"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dask_nanny_shape),
        cmocka_unit_test(test_sglang_kv_cache_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
