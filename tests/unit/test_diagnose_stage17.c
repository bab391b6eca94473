/* Unit tests for the stage mechanisms of helper diagunk17 (issue 12): the
 * seen sets' stage misses and over-named rows grouped by mechanism. One
 * test per mechanism, on short pastes written here (not copied from a
 * corpus log), each with a guard that must keep its stage. */
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
#include "stage_fixture.h"

#define TB "Traceback (most recent call last):\n"

/* A DataLoader worker killed by a signal, or its shared memory out, says
 * that a worker process died, not what the main process was doing: the
 * message alone names no stage. The loader's frames still do. */
static void test_worker_death_alone_names_no_stage(void **state)
{
    (void)state;
    assert_string_equal(first_stage_of("RuntimeError: DataLoader worker (pid 77) is killed by signal: Killed.\n\n"
                                       "Any idea? It happens after a few hours.\n",
                                       NULL),
                        "unknown");
    assert_string_equal(first_stage_of("ERROR: Unexpected bus error encountered in worker. This might be caused "
                                       "by insufficient shared memory (shm).\n\n"
                                       "I run it in docker.\n",
                                       NULL),
                        "unknown");
    /* the message read as a frame line when a line follows it directly */
    assert_string_equal(first_stage_of("RuntimeError: DataLoader worker (pid 78) is killed by signal: Killed.\n"
                                       "bob commented on 2021-07-16\n",
                                       NULL),
                        "unknown");
    /* guards: a worker's re-raised error, the main process's frames inside the loader */
    assert_string_equal(first_stage_of("RuntimeError: Caught RuntimeError in DataLoader worker process 2.\n"
                                       "Original Traceback (most recent call last):\n"
                                       "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB\n",
                                       NULL),
                        "data");

    assert_string_equal(first_stage_of(TB "  File \"fit.py\", line 40, in fit\n"
                                          "    for x, y in loader:\n"
                                          "  File \"/opt/py/torch/utils/data/dataloader.py\", line 1207, in "
                                          "_try_get_data\n"
                                          "    data = self._data_queue.get(timeout=timeout)\n"
                                          "RuntimeError: DataLoader worker (pid 77) is killed by signal: Killed.\n",
                                       NULL),
                        "data");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_worker_death_alone_names_no_stage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
